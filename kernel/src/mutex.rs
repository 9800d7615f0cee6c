//! Sleeping mutexes with owners, for workload tasks: Linux's `rt_mutex` (kernel/locking/
//! rtmutex.c, 6.6). A task that finds a mutex taken blocks in its waiter list, which is
//! ordered as rt_mutex orders it: deadline tasks first (earlier deadline first), then
//! real-time tasks by priority, then fair tasks, all of them at one priority whatever their
//! nice (`__waiter_prio` since Linux 5.15, commit 715f7f9ece46; before it they went by nice);
//! equals in the order they came.
//! Unlocking hands the mutex straight to the top waiter. (Linux wakes the top waiter and lets
//! it take the lock, which a higher-priority task arriving in between may steal; a direct
//! handoff leaves only that steal out.)
//!
//! Priority inheritance (`lock.pi=1`, the default, as rt_mutex has and as PREEMPT_RT gives
//! the kernel's spinlocks): a task holding mutexes runs at the priority of the highest of
//! their waiters. Under `sched=lottery` the fair waiters lend their tickets as well (ticket
//! transfers, `Scheduler::lend`). A fair owner with a real-time waiter runs in the real-time class (FIFO at
//! the waiter's priority) until it unlocks; a real-time owner rises to the waiter's priority.
//! When a boosted owner itself waits for another mutex, that mutex's owner is boosted in
//! turn, along the chain (`propagate`). A deadline waiter lends real-time priority 99 (Linux
//! lends its deadline and runs the owner in the deadline class), and a deadline owner is
//! never boosted. A task that would wait for itself along the chain (deadlock), or a chain
//! longer than `MAX_DEPTH`, stops the kernel with the chain spelled out (Linux returns
//! -EDEADLK and bounds the walk by `max_lock_depth`).
//!
//! The immediate priority ceiling (`lock.ceiling=PRIO`, the highest locker protocol, POSIX's
//! `PTHREAD_PRIO_PROTECT`): every mutex has ceiling PRIO, and a task holding any runs at least
//! at that real-time priority from the moment it takes it (a fair owner as FIFO at PRIO, a
//! real-time owner below PRIO raised to it), whether anyone waits or not.
//!
//! The trace gets `lock` events (`op=acquire|contend|release|handoff`) and `boost` / `unboost`
//! when an owner's priority changes (`docs/trace.md`); each task's waits are counted for
//! RESULT (`LockStats`).

use crate::dispatch::{self, KERNEL, Kernel};
use crate::hart;
use crate::power;
use crate::task::{Class, MAX_TASKS, State, Tid};
use crate::trace;
use runqueue_sched_api::Line;
use runqueue_settings::{Int, Kind, Setting, Tunable, tunables};

tunables! {
    pub const TUNABLES;
    pub PI: Int = Setting::int(Tunable {
        name: "lock.pi",
        kind: Kind::Int { min: 0, max: 1 },
        default: "1",
        unit: "",
        help: "priority inheritance on the kernel's mutexes (rt_mutex): 1 = an owner runs at the priority of its highest waiter (under sched=lottery it also holds its waiters' tickets), 0 = off",
    });
    pub CEILING: Int = Setting::int(Tunable {
        name: "lock.ceiling",
        kind: Kind::Int { min: 0, max: 99 },
        default: "0",
        unit: "",
        help: "immediate priority ceiling of the kernel's mutexes: a task holding one runs at least at this real-time priority (PTHREAD_PRIO_PROTECT); 0 = none",
    });
}

pub const MAX_MUTEXES: usize = 8;
/// The longest chain of owners waiting for owners that a boost follows.
const MAX_DEPTH: usize = 16;

/// One task's use of mutexes, reported in RESULT as `lock`.
#[derive(Clone, Copy)]
pub struct LockStats {
    pub acquired: u64,
    /// Acquisitions that had to wait.
    pub contended: u64,
    /// Time from asking for a mutex to holding it, summed and worst (ns).
    pub wait_ns: u64,
    pub max_wait_ns: u64,
    /// Waits during which a task ranked between this task and the owner ran while the owner
    /// could have (`note_inversions`).
    pub inversions: u64,
}

impl LockStats {
    const ZERO: LockStats = LockStats { acquired: 0, contended: 0, wait_ns: 0, max_wait_ns: 0, inversions: 0 };
}

#[derive(Clone, Copy)]
struct Mutex {
    owner: Tid,
    /// Bit t = task t waits for it.
    waiters: u64,
}

pub struct Mutexes {
    mutexes: [Mutex; MAX_MUTEXES],
    count: usize,
    pi: bool,
    /// `lock.ceiling`: 0, or the real-time priority an owner runs at least at.
    ceiling: u8,
    /// Per task: the mutex it waits for, when it asked, and its place in line among equals.
    waiting_on: [Option<usize>; MAX_TASKS],
    asked_at: [u64; MAX_TASKS],
    arrival: [u64; MAX_TASKS],
    arrivals: u64,
    /// The current wait of each task saw an inversion.
    inverted: [bool; MAX_TASKS],
    pub stats: [LockStats; MAX_TASKS],
}

impl Mutexes {
    pub const fn new() -> Mutexes {
        Mutexes {
            mutexes: [Mutex { owner: 0, waiters: 0 }; MAX_MUTEXES],
            count: 0,
            pi: true,
            ceiling: 0,
            waiting_on: [None; MAX_TASKS],
            asked_at: [0; MAX_TASKS],
            arrival: [0; MAX_TASKS],
            arrivals: 0,
            inverted: [false; MAX_TASKS],
            stats: [LockStats::ZERO; MAX_TASKS],
        }
    }

    /// Priority inheritance on or off (`lock.pi=`) and the ceiling (`lock.ceiling=`), before
    /// any task exists.
    pub fn configure(&mut self, pi: bool, ceiling: u8) {
        self.pi = pi;
        self.ceiling = ceiling;
    }

    /// Whether an owner's priority depends on the mutexes it holds or their waiters.
    fn lifts_owners(&self) -> bool {
        self.pi || self.ceiling > 0
    }

    /// A new free mutex; `None` when all are in use.
    pub fn create(&mut self) -> Option<usize> {
        (self.count < MAX_MUTEXES).then(|| {
            self.count += 1;
            self.count - 1
        })
    }

    /// Whether any task waits for a mutex now.
    pub fn contended(&self) -> bool {
        self.mutexes[..self.count].iter().any(|m| m.waiters != 0)
    }
}

fn tids(mask: u64) -> impl Iterator<Item = Tid> {
    (1..MAX_TASKS).filter(move |t| mask & (1 << t) != 0)
}

/// Where a waiter stands in line (larger first): its class and priority (a fair task's is
/// the same whatever its nice), then first come.
fn rank(k: &Kernel, tid: Tid) -> (u8, u64, u64) {
    let (class, prio) = k.standing(tid);
    (class, prio, u64::MAX - k.mutexes.arrival[tid])
}

fn top_waiter(k: &Kernel, m: usize) -> Option<Tid> {
    tids(k.mutexes.mutexes[m].waiters).max_by_key(|&t| rank(k, t))
}

/// The highest waiter of the mutexes `owner` holds.
fn donor(k: &Kernel, owner: Tid) -> Option<Tid> {
    let mx = &k.mutexes;
    let held = (0..mx.count).filter(|&m| mx.mutexes[m].owner == owner);
    held.filter_map(|m| top_waiter(k, m)).max_by_key(|&t| rank(k, t))
}

/// The class `owner` runs in: its own, or, when that is lower, the ceiling of the mutexes it
/// holds (`lock.ceiling`) or the priority of their top waiter (`lock.pi`).
fn inherited(k: &Kernel, owner: Tid) -> Class {
    let base = k.tasks[owner].base;
    let mx = &k.mutexes;
    let ceiling = (mx.ceiling > 0 && (0..mx.count).any(|m| mx.mutexes[m].owner == owner)).then_some(mx.ceiling);
    let donated = match mx.pi.then(|| donor(k, owner)).flatten().map(|d| k.tasks[d].class) {
        Some(Class::Fifo(p) | Class::Rr(p)) => Some(p),
        Some(Class::Deadline { .. }) => Some(99),
        Some(Class::Fair) | None => None,
    };
    let Some(lent) = ceiling.max(donated) else {
        return base;
    };
    match base {
        Class::Fair => Class::Fifo(lent),
        Class::Fifo(p) if lent > p => Class::Fifo(lent),
        Class::Rr(p) if lent > p => Class::Rr(lent),
        _ => base,
    }
}

/// Re-derives the class of `owner` (its waiters changed) and, when it changed and the owner
/// itself waits, of the owner of that mutex, and so on.
fn propagate(k: &mut Kernel, mut owner: Tid, now: u64) {
    for _ in 0..MAX_DEPTH {
        let class = inherited(k, owner);
        let from = k.tasks[owner].class;
        if !k.set_class(owner, class, now) {
            return;
        }
        let boosted = class != k.tasks[owner].base;
        let donor = if boosted { donor(k, owner) } else { None };
        trace::event(now, if boosted { "boost" } else { "unboost" }, owner, |l| {
            l.push(" class=").push(class.name());
            if let Class::Fifo(p) | Class::Rr(p) = class {
                l.field("prio", p as u64);
            }
            l.push(" from=").push(from.name());
            if let Some(d) = donor {
                l.field("by", d as u64);
            }
        });
        match k.mutexes.waiting_on[owner] {
            Some(m) => owner = k.mutexes.mutexes[m].owner,
            None => return,
        }
    }
    die(format_args!("lock chain longer than {MAX_DEPTH} owners waiting for owners"));
}

fn die(why: core::fmt::Arguments) -> ! {
    crate::println!("error: {why}");
    power::exit(power::Exit::Fault)
}

/// Stops the kernel, naming the cycle, if `me` waiting for mutex `m` closes a cycle of owners
/// waiting for owners.
fn check_deadlock(k: &Kernel, me: Tid, m: usize) {
    let mut chain = Line::new();
    chain.push("task ").num(me as u64).push(" waits for mutex ").num(m as u64);
    let mut lock = m;
    for _ in 0..MAX_DEPTH {
        let owner = k.mutexes.mutexes[lock].owner;
        chain.push(" held by task ").num(owner as u64);
        if owner == me {
            die(format_args!("deadlock: {}", core::str::from_utf8(chain.as_bytes()).unwrap_or("?")));
        }
        match k.mutexes.waiting_on[owner] {
            Some(next) => {
                chain.push(", which waits for mutex ").num(next as u64);
                lock = next;
            }
            None => return,
        }
    }
    die(format_args!("lock chain longer than {MAX_DEPTH} owners waiting for owners"));
}

/// The task a wait for mutex `m` depends on: its owner, or, if that owner waits for another
/// mutex, that one's owner, and so on (bounded: `lock` refuses cycles).
fn chain_end(k: &Kernel, m: usize) -> Tid {
    let mut owner = k.mutexes.mutexes[m].owner;
    for _ in 0..MAX_DEPTH {
        match k.mutexes.waiting_on[owner] {
            Some(next) => owner = k.mutexes.mutexes[next].owner,
            None => break,
        }
    }
    owner
}

/// Marks a priority inversion on the waits it affects: the task at the end of a mutex's chain
/// of owners is runnable but not running, and on a hart it may use runs a task that stands
/// above it and below a waiter. Called when a wait starts and whenever a hart picks a task.
pub fn note_inversions(k: &mut Kernel) {
    for m in 0..k.mutexes.count {
        let waiters = k.mutexes.mutexes[m].waiters;
        let owner = chain_end(k, m);
        if waiters == 0 || k.tasks[owner].state != State::Runnable {
            continue;
        }
        let allowed = k.tasks[owner].allowed;
        for h in (0..k.harts()).filter(|h| allowed & (1 << h) != 0) {
            let other = k.running_on(h);
            if other == 0 || k.standing(other) <= k.standing(owner) {
                continue;
            }
            for w in tids(waiters) {
                if k.standing(w) > k.standing(other) {
                    k.mutexes.inverted[w] = true;
                }
            }
        }
    }
}

/// The running task now holds `m`, after waiting `waited` ns (`contended`: it had to wait).
fn acquired(k: &mut Kernel, me: Tid, m: usize, contended: bool, waited: u64, now: u64) {
    let inverted = core::mem::take(&mut k.mutexes.inverted[me]);
    let s = &mut k.mutexes.stats[me];
    s.acquired += 1;
    s.contended += contended as u64;
    s.wait_ns += waited;
    s.max_wait_ns = s.max_wait_ns.max(waited);
    s.inversions += inverted as u64;
    trace::event(now, "lock", me, |l| {
        l.push(" op=acquire").field("mutex", m as u64).field("waited", waited);
    });
}

/// Takes mutex `m`, waiting while another task holds it.
pub fn lock(m: usize) {
    let me = hart::this().running.get();
    let mut k = KERNEL.lock();
    let now = k.clock();
    let owner = k.mutexes.mutexes[m].owner;
    if owner == me {
        die(format_args!("task {me} locks mutex {m}, which it already holds"));
    }
    if owner == 0 {
        k.mutexes.mutexes[m].owner = me;
        if k.mutexes.ceiling > 0 {
            propagate(&mut k, me, now);
        }
        acquired(&mut k, me, m, false, 0, now);
        return;
    }
    check_deadlock(&k, me, m);
    let mx = &mut k.mutexes;
    mx.mutexes[m].waiters |= 1 << me;
    mx.waiting_on[me] = Some(m);
    mx.asked_at[me] = now;
    mx.arrivals += 1;
    mx.arrival[me] = mx.arrivals;
    trace::event(now, "lock", me, |l| {
        l.push(" op=contend").field("mutex", m as u64).field("owner", owner as u64);
    });
    if k.mutexes.pi {
        k.lend(me, Some(owner));
        propagate(&mut k, owner, now);
    }
    note_inversions(&mut k);
    // Only `unlock` wakes a waiter, and it makes it the owner first.
    while k.mutexes.mutexes[m].owner != me {
        dispatch::block(k);
        k = KERNEL.lock();
    }
    let now = k.clock();
    let waited = now - k.mutexes.asked_at[me];
    acquired(&mut k, me, m, true, waited, now);
}

/// Releases mutex `m`, handing it to its top waiter if it has one.
pub fn unlock(m: usize) {
    let me = hart::this().running.get();
    let mut k = KERNEL.lock();
    let now = k.clock();
    if k.mutexes.mutexes[m].owner != me {
        die(format_args!("task {me} unlocks mutex {m}, which it does not hold"));
    }
    match top_waiter(&k, m) {
        None => {
            k.mutexes.mutexes[m].owner = 0;
            trace::event(now, "lock", me, |l| {
                l.push(" op=release").field("mutex", m as u64);
            });
            if k.mutexes.ceiling > 0 {
                propagate(&mut k, me, now);
            }
        }
        Some(next) => {
            let mx = &mut k.mutexes;
            mx.mutexes[m].waiters &= !(1 << next);
            mx.mutexes[m].owner = next;
            mx.waiting_on[next] = None;
            trace::event(now, "lock", me, |l| {
                l.push(" op=handoff").field("mutex", m as u64).field("to", next as u64);
            });
            if k.mutexes.pi {
                // Give back what this mutex's waiters lent before the new owner wakes, so
                // that it finds this task at its own priority; the new owner inherits from
                // those still waiting (and, under lottery, holds their tickets).
                k.lend(next, None);
                for w in tids(k.mutexes.mutexes[m].waiters) {
                    k.lend(w, Some(next));
                }
            }
            if k.mutexes.lifts_owners() {
                propagate(&mut k, me, now);
                propagate(&mut k, next, now);
            }
            k.wake_waiter(next);
        }
    }
    drop(k);
    dispatch::preempt_point();
}
