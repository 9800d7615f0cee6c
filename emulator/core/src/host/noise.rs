//! The host kernel's own work and load: interrupts (the tick, device interrupts, RCU callbacks
//! in softirq) and threads (kworkers, ksoftirqd, offloaded RCU callbacks, CPU hogs, another
//! guest's vCPUs). Periods and lengths are of the order a stock x86 Linux host shows
//! (`docs/platform.md` gives their sources); each occurrence is jittered with a generator
//! seeded by the run's `seed=`, so the same arguments give the same noise.

use super::sched::{Role, Thread};
use super::{us, HostConfig, Policy};
use alloc::vec::Vec;

/// A recurring piece of work: every `period` (jittered by half either way when `jitter`), for
/// `len` (jittered likewise), and one time in `long_one_in` for `long_len` instead.
#[derive(Clone, Copy)]
pub struct Job {
    period: u64,
    len: u64,
    jitter: bool,
    long_one_in: u64,
    long_len: u64,
    rng: u64,
}

impl Job {
    /// No work of its own: a thread that runs what it is given (`Thread::give`).
    const ON_DEMAND: Job = Job { period: u64::MAX, len: 0, jitter: false, long_one_in: 0, long_len: 0, rng: 0 };

    const fn every(period_us: u64, len_us: u64) -> Job {
        Job { period: us(period_us), len: us(len_us), jitter: true, long_one_in: 0, long_len: 0, rng: 0 }
    }

    const fn sometimes_long(self, one_in: u64, long_us: u64) -> Job {
        Job { long_one_in: one_in, long_len: us(long_us), ..self }
    }

    fn seeded(self, seed: u64, source: u64) -> Job {
        Job { rng: seed ^ source.wrapping_mul(0xA24B_AED4_963E_E407), ..self }
    }

    /// SplitMix64.
    fn next(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn around(&mut self, v: u64) -> u64 {
        v / 2 + self.next() % (v + 1)
    }

    pub fn gap(&mut self) -> u64 {
        if self.jitter { self.around(self.period) } else { self.period }
    }

    pub fn length(&mut self) -> u64 {
        if self.long_one_in != 0 && self.next() % self.long_one_in == 0 {
            return self.long_len;
        }
        self.around(self.len).max(1)
    }

    fn first(&mut self) -> u64 {
        self.next() % self.period
    }
}

/// The host's scheduler tick (HZ=1000).
const TICK: Job = Job { jitter: false, ..Job::every(1000, 2) };
/// A device's interrupts (a NIC, a disk), now and then a long handler.
const DEVICE_IRQ: Job = Job::every(1000, 6).sometimes_long(500, 50);
/// RCU callbacks in softirq, now and then a batch of them.
const RCU_SOFTIRQ: Job = Job::every(4000, 10).sometimes_long(100, 400);
/// Per-CPU workqueue items (vmstat, writeback, ...), now and then a long one.
const KWORKER: Job = Job::every(8000, 40).sometimes_long(100, 1500);
/// Softirq work deferred to its thread under interrupt load.
const KSOFTIRQD: Job = Job::every(10_000, 60);
/// Another guest's vCPU: busy 2 ms of every 5.
const GUEST: Job = Job { jitter: true, ..Job::every(5000, 2000) };
/// On a PREEMPT_RT host: what a device interrupt still does in hard interrupt context (wake
/// its thread), and the threads' priorities: the handler's SCHED_FIFO 50 (`irq/N`), RCU's
/// callbacks' SCHED_FIFO 1 (`rcuc/N`, `rcutree.kthread_prio`).
const HARDIRQ: u64 = us(2);
const IRQ_THREAD: Policy = Policy::Fifo(50);
const RCUC: Policy = Policy::Fifo(1);

#[derive(Clone, Copy, PartialEq, Eq)]
enum IrqKind {
    Tick,
    Device,
    Rcu,
}

#[derive(Clone)]
pub struct Irq {
    pub what: &'static str,
    kind: IrqKind,
    pub next: u64,
    job: Job,
    /// On a PREEMPT_RT host, the thread that does the work past the hard part.
    pub thread: Option<usize>,
}

impl Irq {
    /// Takes the next occurrence: when it starts, how long it holds the CPU (0 for a tick
    /// that `nohz_full` stopped because the CPU has one runnable thread or none), and the work
    /// it leaves to its thread (a PREEMPT_RT host's).
    pub fn fire(&mut self, config: &HostConfig, cpu: usize, runnable: usize) -> (u64, u64, u64) {
        let at = self.next;
        self.next += self.job.gap();
        let stopped = self.kind == IrqKind::Tick && config.nohz_full & (1 << cpu) != 0 && runnable <= 1;
        let len = if stopped { 0 } else { self.job.length() };
        let hard = match (self.thread, self.kind) {
            (None, _) => len,
            // RCU's softirq is raised from the tick; its callbacks are all the thread's.
            (Some(_), IrqKind::Rcu) => 0,
            (Some(_), _) => len.min(HARDIRQ),
        };
        (at, hard, len - hard)
    }
}

/// The host's threads (vCPU h is thread h) and each CPU's interrupt sources.
pub fn populate(config: &HostConfig, harts: usize, cpus: usize) -> (Vec<Thread>, Vec<Vec<Irq>>) {
    let all = (1u32 << cpus) - 1;
    let has = |mask: u32, c: usize| mask & (1 << c) != 0;
    let general = all & !config.isolcpus;
    let irq_affinity = if config.irq_affinity == 0 { all } else { config.irq_affinity };
    let housekeeping = (0..cpus).find(|&c| !has(config.isolcpus | config.rcu_nocbs, c)).unwrap_or(0);
    let nth = |mask: u32, n: usize| (0..cpus).filter(|&c| has(mask, c)).cycle().nth(n).unwrap_or(0);
    let mut source = 0u64;
    let mut seeded = |job: Job| {
        source += 1;
        job.seeded(config.seed, source)
    };
    let mut threads = Vec::new();
    for h in 0..harts {
        let (allowed, cpu) = match (config.pin, config.isolcpus) {
            (true, 0) => (1 << ((1 + h) % cpus), (1 + h) % cpus),
            (true, iso) => (1 << nth(iso, h), nth(iso, h)),
            (false, _) => (general, nth(general, 1 + h)),
        };
        threads.push(Thread::new(Role::Vcpu(h), config.vcpu, allowed, cpu, None, 0));
    }
    for k in 0..config.hogs {
        threads.push(Thread::new(Role::Hog(k), Policy::Other, general, nth(general, 1 + k as usize), None, 0));
    }
    for k in 0..config.guests {
        let mut job = seeded(GUEST);
        let first = job.first();
        threads.push(Thread::new(Role::Guest(k), Policy::Other, general, nth(general, 1 + k as usize), Some(job), first));
    }
    let mut irqs: Vec<Vec<Irq>> = (0..cpus).map(|_| Vec::new()).collect();
    if !config.noise {
        return (threads, irqs);
    }
    let mut periodic = |threads: &mut Vec<Thread>, role, cpu: usize, job: Job| {
        let mut job = seeded(job);
        let first = job.first();
        threads.push(Thread::new(role, Policy::Other, 1 << cpu, cpu, Some(job), first));
    };
    for c in 0..cpus {
        if !has(config.isolcpus, c) {
            periodic(&mut threads, Role::Kworker(c), c, KWORKER);
        }
        if has(irq_affinity, c) {
            periodic(&mut threads, Role::Ksoftirqd(c), c, KSOFTIRQD);
        }
        if has(config.rcu_nocbs, c) {
            periodic(&mut threads, Role::Rcuo(c), housekeeping, RCU_SOFTIRQ);
        }
    }
    for (c, list) in irqs.iter_mut().enumerate() {
        let mut add = |what, kind, job: Job, thread: Option<(Role, Policy)>| {
            let mut job = seeded(job);
            let thread = thread.filter(|_| config.rt_kernel).map(|(role, policy)| {
                threads.push(Thread::new(role, policy, 1 << c, c, Some(Job::ON_DEMAND), u64::MAX));
                threads.len() - 1
            });
            list.push(Irq { what, kind, next: job.first(), job, thread });
        };
        add("tick", IrqKind::Tick, TICK, None);
        if has(irq_affinity, c) {
            add("irq", IrqKind::Device, DEVICE_IRQ, Some((Role::IrqThread(c), IRQ_THREAD)));
        }
        if !has(config.rcu_nocbs, c) {
            add("rcu-softirq", IrqKind::Rcu, RCU_SOFTIRQ, Some((Role::Rcuc(c), RCUC)));
        }
    }
    (threads, irqs)
}
