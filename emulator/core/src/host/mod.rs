//! The modelled host under the guest's harts (`docs/platform.md`, "The host below the
//! guest"): each hart is a vCPU thread that a small host kernel schedules on its own CPUs
//! beside its own threads and interrupts. While the host runs something else on a vCPU's CPU,
//! that hart executes nothing and guest time goes on: the steal a guest on a busy host sees.
//!
//! The host decides once per round of the machine (`Config::quantum` ticks, 10 µs by default):
//! which thread runs on each CPU for the round. Interrupts, C-state exits and exits to the
//! host are shorter than a round; they reach a running vCPU as stalls at their exact time.

mod config;
mod noise;
mod sched;

pub use config::{HostConfig, Policy};

use crate::{MAX_HARTS, NS_PER_INSTRUCTION};
use runqueue_machine_settings::host::MAX_CPUS as MAX_HOST_CPUS;
use alloc::vec::Vec;
use noise::Irq;
use sched::{Role, Thread};

/// Most host threads: the vCPUs, hogs and other guests (16 each at most), and the host kernel's
/// own, up to five per CPU.
const MAX_THREADS: usize = MAX_HARTS + 32 + 5 * MAX_HOST_CPUS as usize;

/// Ticks in `us` microseconds.
const fn us(us: u64) -> u64 {
    us * 1000 / NS_PER_INSTRUCTION
}

/// An idle CPU enters its deep C-state after this long (a target residency of that order).
const CSTATE_RESIDENCY: u64 = us(300);
/// Exit latency of the shallow state (C1) a CPU halts in before that.
const SHALLOW_EXIT: u64 = us(2);

/// Time a running vCPU loses inside one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stall {
    /// Global tick at which it starts.
    pub at: u64,
    pub len: u64,
    /// What took the time, for the trace; `None` for exits, the fixed price of every
    /// interrupt and SBI call, which are not traced one by one.
    pub by: Option<&'static str>,
}

/// A vCPU given back its CPU after the host ran something else while it was runnable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steal {
    pub since: u64,
    pub by: sched::Culprit,
    pub cpu: usize,
}

/// What one hart gets in the current round.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub runs: bool,
    /// Sorted by `at`.
    pub stalls: Vec<Stall>,
    /// Stalls before this index are taken.
    taken: usize,
    pub resumed: Option<Steal>,
}

#[derive(Clone)]
pub struct Host {
    pub(crate) config: HostConfig,
    cpus: Vec<sched::Cpu>,
    threads: Vec<Thread>,
    /// Interrupt sources per CPU.
    irqs: Vec<Vec<Irq>>,
    plans: Vec<Plan>,
    /// Per hart: the timer deadline last injected (each costs one exit).
    injected: Vec<u64>,
    /// Per hart: when it became runnable without running, and who held its CPU then.
    stolen: Vec<Option<(u64, sched::Culprit, usize)>>,
    /// Start of the next round not yet planned.
    next_round: u64,
}

impl Host {
    pub fn new(config: HostConfig, harts: usize) -> Host {
        let cpus = config.cpu_count(harts) as usize;
        let (threads, irqs) = noise::populate(&config, harts, cpus);
        Host {
            config,
            cpus: (0..cpus).map(|_| sched::Cpu::default()).collect(),
            threads,
            irqs,
            plans: (0..harts).map(|_| Plan::default()).collect(),
            injected: alloc::vec![u64::MAX; harts],
            stolen: alloc::vec![None; harts],
            next_round: 0,
        }
    }

    pub fn plan(&self, hart: usize) -> &Plan {
        &self.plans[hart]
    }

    /// Whether the round starting at `t0` is decided already.
    pub fn planned(&self, t0: u64) -> bool {
        self.next_round > t0
    }

    pub fn exit_ticks(&self) -> u64 {
        us_ns(self.config.exit_ns)
    }

    /// The host CPU hart `h`'s vCPU is on.
    pub fn cpu_of(&self, hart: usize) -> usize {
        self.threads[self.vcpu(hart)].cpu
    }

    /// The steal that ended when hart `h` got its CPU back this round, once.
    pub fn take_resumed(&mut self, hart: usize) -> Option<Steal> {
        self.plans[hart].resumed.take()
    }

    /// Takes hart `h`'s next stall if it has begun by `now`.
    pub fn next_stall(&mut self, hart: usize, now: u64) -> Option<Stall> {
        let plan = &mut self.plans[hart];
        let stall = *plan.stalls.get(plan.taken).filter(|s| s.at <= now)?;
        plan.taken += 1;
        Some(stall)
    }

    /// When hart `h`'s next stall begins.
    pub fn next_stall_at(&self, hart: usize) -> Option<u64> {
        let plan = &self.plans[hart];
        plan.stalls.get(plan.taken).map(|s| s.at)
    }

    /// Decides the round `[t0, t0 + q)`. `wants[h]`: hart h has work (it runs, or an interrupt
    /// wakes it within the round); `timers[h]`: its timer deadline. Rounds skipped while every
    /// hart slept are played first, with no vCPU runnable.
    pub fn plan_round(&mut self, t0: u64, q: u64, wants: &[bool], timers: &[u64]) {
        let asleep = [false; MAX_HARTS];
        while self.next_round < t0 {
            let t = self.next_round;
            self.round(t, q, &asleep[..wants.len()], timers);
        }
        self.round(t0, q, wants, timers);
    }

    fn round(&mut self, t0: u64, q: u64, wants: &[bool], timers: &[u64]) {
        let t1 = t0 + q;
        self.next_round = t1;
        // Fixed arrays: this runs every round (10 µs of guest time), so nothing is allocated.
        let mut woke_from_halt = [false; MAX_HARTS];
        for (h, &want) in wants.iter().enumerate() {
            let th = self.vcpu(h);
            if want && !self.threads[th].runnable {
                woke_from_halt[h] = true;
                self.wake(th, t0);
            } else if !want {
                self.threads[th].runnable = false;
            }
        }
        for th in 0..self.threads.len() {
            if self.threads[th].releases_at(t0) {
                self.wake(th, t0);
            }
        }
        // Per CPU: the exit latency of the idle state it leaves this round, if it was idle.
        let mut waking = [0u64; MAX_HOST_CPUS as usize];
        for c in 0..self.cpus.len() {
            let idle_since = self.cpus[c].idle_since;
            let pick = sched::pick(&self.config, &mut self.cpus[c], &mut self.threads, c, t0);
            match pick {
                Some(_) => {
                    self.cpus[c].idle_since = None;
                    waking[c] = match idle_since {
                        _ if self.config.idle_poll => 0,
                        Some(s) if t0 - s >= CSTATE_RESIDENCY => us(self.config.cstate_us as u64),
                        Some(_) => SHALLOW_EXIT,
                        None => 0,
                    };
                }
                None => {
                    self.cpus[c].idle_since.get_or_insert(t0);
                }
            }
            if let Some(th) = pick {
                sched::account(&mut self.cpus[c], &mut self.threads[th], q);
            }
        }
        for h in 0..wants.len() {
            let th = self.vcpu(h);
            let c = self.threads[th].cpu;
            let runs = self.cpus[c].curr == Some(th);
            let plan = &mut self.plans[h];
            plan.runs = runs;
            plan.stalls.clear();
            plan.taken = 0;
            plan.resumed = None;
            if wants[h] && !runs {
                let culprit = sched::culprit(&self.config, &self.cpus[c], &self.threads, th);
                self.stolen[h].get_or_insert((t0, culprit, c));
                continue;
            }
            if !runs {
                continue;
            }
            if let Some((since, by, cpu)) = self.stolen[h].take() {
                plan.resumed = Some(Steal { since, by, cpu });
            }
            // An interrupt that began before the round still holds the CPU.
            let cpu = &self.cpus[c];
            if cpu.irq_until > t0 {
                plan.stalls.push(Stall { at: t0, len: cpu.irq_until - t0, by: Some(cpu.irq_what) });
            }
            let timer = timers[h];
            let exit = us_ns(self.config.exit_ns);
            if woke_from_halt[h] {
                // The halted vCPU thread is woken by its timer (or an IPI): the CPU leaves its
                // idle state, then the thread re-enters the guest.
                let at = if (t0..t1).contains(&timer) { timer } else { t0 };
                if waking[c] > 0 {
                    plan.stalls.push(Stall { at, len: waking[c], by: Some("c-state") });
                }
                plan.stalls.push(Stall { at, len: exit, by: None });
                self.injected[h] = timer;
            } else if !self.config.direct_irq && timer < t1 && timer != self.injected[h] {
                plan.stalls.push(Stall { at: timer.max(t0), len: exit, by: None });
                self.injected[h] = timer;
            }
        }
        for c in 0..self.cpus.len() {
            let busy = sched::runnable_on(&self.threads, c);
            let vcpu = self.cpus[c].curr.and_then(|th| match self.threads[th].role {
                Role::Vcpu(h) => Some(h),
                _ => None,
            });
            let cpu = &mut self.cpus[c];
            let mut handed = [false; MAX_THREADS];
            for irq in &mut self.irqs[c] {
                while irq.next < t1 {
                    let (at, len, rest) = irq.fire(&self.config, c, busy);
                    if let Some(th) = irq.thread.filter(|_| rest > 0) {
                        // Its thread runs the rest from the next round, as the scheduler has it.
                        handed[th] |= self.threads[th].give(rest);
                    }
                    if len == 0 {
                        continue;
                    }
                    if let Some(h) = vcpu {
                        self.plans[h].stalls.push(Stall { at, len, by: Some(irq.what) });
                    }
                    if at + len > cpu.irq_until {
                        cpu.irq_until = at + len;
                        cpu.irq_what = irq.what;
                    }
                }
            }
            for th in (0..self.threads.len()).filter(|&th| handed[th]) {
                self.wake(th, t1);
            }
            if let Some(h) = vcpu {
                self.plans[h].stalls.sort_unstable_by_key(|s| s.at);
            }
        }
    }

    fn vcpu(&self, hart: usize) -> usize {
        hart
    }

    /// Makes thread `th` runnable at `now` on the CPU it should wake on.
    fn wake(&mut self, th: usize, now: u64) {
        let cpu = sched::select_cpu(&self.cpus, &self.threads, th);
        let min = self.cpus[cpu].min_vruntime;
        self.threads[th].wake(cpu, min, now);
    }

    /// Name of the culprit, for the trace.
    pub fn culprit_name(&self, c: sched::Culprit) -> alloc::string::String {
        c.name(&self.threads)
    }
}

/// `ns` nanoseconds in ticks.
fn us_ns(ns: u32) -> u64 {
    ns as u64 / NS_PER_INSTRUCTION
}
