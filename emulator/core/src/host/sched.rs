//! The host's scheduler, one decision per CPU per round: SCHED_FIFO/SCHED_RR by priority
//! (RR's 100 ms slice, RT throttling of 950 ms per second), then a fair class after CFS
//! (Linux 2.6.32-6.5 defaults, unscaled: 6 ms latency, 0.75 ms minimum granularity, 1 ms
//! wakeup granularity, sleepers placed half a latency behind `min_vruntime`). Every thread has
//! nice 0. There is no load balancing: a thread that may use several CPUs picks one when it
//! wakes (its last if idle, else an idle one, else its last) and stays there while it runs.

use super::noise::Job;
use super::{us, HostConfig, Policy};
use alloc::format;
use alloc::string::String;

const SCHED_LATENCY: u64 = us(6000);
const MIN_GRANULARITY: u64 = us(750);
const WAKEUP_GRANULARITY: u64 = us(1000);
const RR_TIMESLICE: u64 = us(100_000);
const RT_PERIOD: u64 = us(1_000_000);
const RT_RUNTIME: u64 = us(950_000);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Vcpu(usize),
    Hog(u32),
    Guest(u32),
    Kworker(usize),
    Ksoftirqd(usize),
    /// Offloaded RCU callbacks of this CPU (`rcu_nocbs`).
    Rcuo(usize),
    /// A PREEMPT_RT host: the threaded handler of this CPU's device interrupts, and the thread
    /// that runs its RCU callbacks.
    IrqThread(usize),
    Rcuc(usize),
}

#[derive(Clone)]
pub struct Thread {
    pub role: Role,
    pub policy: Policy,
    pub allowed: u32,
    pub cpu: usize,
    pub runnable: bool,
    vruntime: u64,
    /// Ticks run since it was last picked: its slice so far.
    stint: u64,
    /// When it joined its queue's tail (RR order among equal priorities).
    queued_at: u64,
    rr_left: u64,
    /// Woken this round: may preempt at once.
    woke: bool,
    /// Periodic work; `None`: runnable whenever its owner says (vCPUs) or always (hogs).
    job: Option<Job>,
    /// Work left in the current job.
    left: u64,
    next_release: u64,
}

impl Thread {
    pub fn new(role: Role, policy: Policy, allowed: u32, cpu: usize, job: Option<Job>, first_release: u64) -> Thread {
        let always = matches!(role, Role::Hog(_));
        Thread {
            role,
            policy,
            allowed,
            cpu,
            runnable: always,
            vruntime: 0,
            stint: 0,
            queued_at: 0,
            rr_left: RR_TIMESLICE,
            woke: false,
            job,
            left: u64::MAX,
            next_release: first_release,
        }
    }

    /// Work handed to a thread that runs on demand (an interrupt's thread): added to what it
    /// has left; true if it was asleep (the caller wakes it).
    pub fn give(&mut self, work: u64) -> bool {
        let asleep = !self.runnable;
        self.left = if asleep { work } else { self.left.saturating_add(work) };
        asleep
    }

    /// A periodic thread whose next job is due by `now` draws it and reports true.
    pub fn releases_at(&mut self, now: u64) -> bool {
        let Some(job) = &mut self.job else { return false };
        if self.runnable || self.next_release > now {
            return false;
        }
        self.left = job.length();
        self.next_release += job.gap();
        true
    }

    pub fn wake(&mut self, cpu: usize, min_vruntime: u64, now: u64) {
        self.cpu = cpu;
        self.runnable = true;
        self.woke = true;
        self.queued_at = now;
        if self.policy == Policy::Other {
            self.vruntime = self.vruntime.max(min_vruntime.saturating_sub(SCHED_LATENCY / 2));
        }
    }

    fn on(&self, cpu: usize) -> bool {
        self.runnable && self.cpu == cpu
    }

    pub fn name(&self) -> String {
        match self.role {
            Role::Vcpu(h) => format!("vcpu{h}"),
            Role::Hog(k) => format!("hog{k}"),
            Role::Guest(k) => format!("guest2-vcpu{k}"),
            Role::Kworker(c) => format!("kworker/{c}"),
            Role::Ksoftirqd(c) => format!("ksoftirqd/{c}"),
            Role::Rcuo(c) => format!("rcuo/{c}"),
            Role::IrqThread(c) => format!("irq/{c}"),
            Role::Rcuc(c) => format!("rcuc/{c}"),
        }
    }
}

#[derive(Clone, Default)]
pub struct Cpu {
    pub curr: Option<usize>,
    pub min_vruntime: u64,
    pub idle_since: Option<u64>,
    rt_used: u64,
    rt_window_end: u64,
    /// An interrupt holds the CPU until then.
    pub irq_until: u64,
    pub irq_what: &'static str,
}

impl Cpu {
    fn throttled(&self, config: &HostConfig) -> bool {
        config.rt_throttle && self.rt_used >= RT_RUNTIME
    }
}

/// Why a runnable vCPU did not run: another thread had its CPU, or RT throttling left it idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Culprit {
    Thread(usize),
    Throttled,
}

impl Culprit {
    pub fn name(self, threads: &[Thread]) -> String {
        match self {
            Culprit::Thread(t) => threads[t].name(),
            Culprit::Throttled => "rt-throttled".into(),
        }
    }
}

/// Who kept runnable thread `th` off `cpu`: throttling, if it is real-time and throttled,
/// whatever then runs there; else the thread that runs.
pub fn culprit(config: &HostConfig, cpu: &Cpu, threads: &[Thread], th: usize) -> Culprit {
    let throttled = threads[th].policy.rt_prio().is_some() && cpu.throttled(config);
    match cpu.curr {
        Some(t) if !throttled => Culprit::Thread(t),
        _ => Culprit::Throttled,
    }
}

pub fn runnable_on(threads: &[Thread], cpu: usize) -> usize {
    threads.iter().filter(|t| t.on(cpu)).count()
}

fn idle(cpus: &[Cpu], threads: &[Thread], cpu: usize, except: usize) -> bool {
    cpus[cpu].curr.is_none_or(|t| t == except) && threads.iter().enumerate().all(|(i, t)| i == except || !t.on(cpu))
}

/// The CPU thread `th` wakes on: its last if idle, else the first idle one it may use, else
/// its last.
pub fn select_cpu(cpus: &[Cpu], threads: &[Thread], th: usize) -> usize {
    let t = &threads[th];
    if t.allowed.count_ones() == 1 || idle(cpus, threads, t.cpu, th) {
        return t.cpu;
    }
    (0..cpus.len()).find(|&c| t.allowed & (1 << c) != 0 && idle(cpus, threads, c, th)).unwrap_or(t.cpu)
}

/// Chooses the thread that runs on `cpu` during the round starting at `now`.
pub fn pick(config: &HostConfig, cpu: &mut Cpu, threads: &mut [Thread], c: usize, now: u64) -> Option<usize> {
    if now >= cpu.rt_window_end {
        cpu.rt_used = 0;
        cpu.rt_window_end = now + RT_PERIOD;
    }
    let curr = cpu.curr.filter(|&t| threads[t].on(c));
    if let Some(t) = curr
        && matches!(threads[t].policy, Policy::Rr(_))
        && threads[t].rr_left == 0
    {
        threads[t].rr_left = RR_TIMESLICE;
        threads[t].queued_at = now;
    }
    let rt = (!cpu.throttled(config))
        .then(|| {
            threads.iter().enumerate().filter(|(_, t)| t.on(c) && t.policy.rt_prio().is_some()).min_by_key(|&(i, t)| {
                let stays = curr == Some(i) && (matches!(t.policy, Policy::Fifo(_)) || t.rr_left > 0);
                (core::cmp::Reverse(t.policy.rt_prio()), !stays, t.queued_at, i)
            })
        })
        .flatten()
        .map(|(i, _)| i);
    let pick = rt.or_else(|| pick_fair(cpu, threads, c, curr));
    for t in threads.iter_mut().filter(|t| t.cpu == c) {
        t.woke = false;
    }
    if pick != cpu.curr
        && let Some(t) = pick
    {
        threads[t].stint = 0;
    }
    cpu.curr = pick;
    pick
}

fn pick_fair(cpu: &mut Cpu, threads: &[Thread], c: usize, curr: Option<usize>) -> Option<usize> {
    let fair = || threads.iter().enumerate().filter(move |(_, t)| t.on(c) && t.policy == Policy::Other);
    let (first, lowest) = fair().min_by_key(|&(i, t)| (t.vruntime, i))?;
    cpu.min_vruntime = cpu.min_vruntime.max(lowest.vruntime);
    let Some(cur) = curr.filter(|&t| threads[t].policy == Policy::Other) else { return Some(first) };
    let cur_vr = threads[cur].vruntime;
    let woken = fair().filter(|(i, t)| t.woke && *i != cur && cur_vr > t.vruntime + WAKEUP_GRANULARITY).min_by_key(|&(i, t)| (t.vruntime, i));
    if let Some((w, _)) = woken {
        return Some(w);
    }
    let slice = (SCHED_LATENCY / fair().count() as u64).max(MIN_GRANULARITY);
    Some(if threads[cur].stint < slice { cur } else { first })
}

/// Charges the round to the thread that ran it.
pub fn account(cpu: &mut Cpu, t: &mut Thread, q: u64) {
    t.stint += q;
    match t.policy {
        Policy::Other => t.vruntime += q,
        Policy::Fifo(_) => cpu.rt_used += q,
        Policy::Rr(_) => {
            cpu.rt_used += q;
            t.rr_left = t.rr_left.saturating_sub(q);
        }
    }
    if t.job.is_some() {
        t.left = t.left.saturating_sub(q);
        if t.left == 0 {
            t.runnable = false;
        }
    }
}
