//! The O(1) scheduler of Linux 2.6.0-2.6.22 (Ingo Molnar, 2002; interactivity tuning by Con
//! Kolivas, 2003), as in Linux 2.6.11's `kernel/sched.c`, for the 40 nice levels of ordinary
//! tasks (static priority 100 + 20 + nice = 100..139; 0..99 are real time, our `rtprio=`
//! class). Constants for HZ = 1000, so a jiffy is 1 ms:
//!
//! - **Two priority arrays** per run queue, *active* and *expired*, each a FIFO list per
//!   priority and a bitmap of the non-empty lists: the next task is the head of the first
//!   non-empty list of the active array (`sched_find_first_bit`), whatever the number of tasks.
//!   A task that uses up its time slice goes to the expired array with a new slice; when the
//!   active array is empty the two are swapped.
//! - **Time slices from the static priority** (`task_timeslice`, `SCALE_PRIO`):
//!   `max(DEF_TIMESLICE x 4 x (140 - static) / 20, MIN_TIMESLICE)` below nice 0 and
//!   `max(DEF_TIMESLICE x (140 - static) / 20, MIN_TIMESLICE)` from nice 0 up, with
//!   DEF_TIMESLICE 100 ms and MIN_TIMESLICE 5 ms: 800 ms at nice -20, 420 ms at -1,
//!   100 ms at 0, 5 ms at 19.
//! - **The interactivity estimator**: `sleep_avg` (0 .. MAX_SLEEP_AVG = 1 s) grows with time
//!   asleep (`recalc_task_prio`: multiplied by `MAX_BONUS - CURRENT_BONUS`, so it rises fast
//!   from low; a sleep longer than `INTERACTIVE_SLEEP` sets it to just interactive, 900 ms) and
//!   shrinks with time on the CPU (divided by `CURRENT_BONUS`, so interactive tasks keep their
//!   status). `CURRENT_BONUS` = sleep_avg scaled to 0..10 and the dynamic priority
//!   `prio = static - (CURRENT_BONUS - 5)` (`effective_prio`): -5 for a task that mostly
//!   sleeps, +5 for one that never does. A task woken (`activate_task`) also gets credit for
//!   its wait in the run queue until it first runs (`activated`, weighted 30 % unless woken
//!   by an interrupt).
//! - **`TASK_INTERACTIVE`** (`prio <= static - DELTA`, DELTA = nice / 4 + 2): an interactive
//!   task whose slice ends goes back to the *active* array, not the expired one, unless
//!   `EXPIRED_STARVING` (the first expired task has waited `STARVATION_LIMIT` (1 s) x
//!   nr_running, or a task of better static priority has expired). Interactive tasks also
//!   round-robin with their peers every `TIMESLICE_GRANULARITY` (10 ms x 2^(bonus gap - 1)).
//! - A woken task preempts the current one if its dynamic priority is better
//!   (`TASK_PREEMPTS_CURR`); `sched_yield` puts the task in the *expired* array.
//!
//! Simplifications (ours): slices and run times are exact CPU time in ns, checked at our
//! ticks (a slice with at most half a tick left is over), rather than decremented per jiffy, and `sleep_avg` is lowered at every charge
//! (`run_time / CURRENT_BONUS` with the bonus of that moment) rather than once per
//! `schedule()`; jiffies are 1 ms whatever `tick_us` is. Our tasks are made by the kernel, not
//! forked: a new task starts with a whole slice and `sleep_avg` 0 (Linux gives a child half
//! its parent's remaining slice and 95 % of its parent's bonus). Every wakeup counts as one
//! from an interrupt (`activated = 2`: all our sleeps end by a timer; Linux credits a wakeup
//! by another task, such as a pipe write, only 30 %), and sync wakeups preempt like any other.
//! The uniprocessor `TIMESLICE_GRANULARITY` (SMP Linux multiplies it by the number of CPUs).
//! `o1.interactive=0` (ours) turns the estimator off, to compare: priorities stay static and
//! every expired task goes to the expired array.
//!
//! Several harts: with a queue per hart each has its own arrays, as Linux's per-CPU run
//! queues; a task that moves keeps its slice, `sleep_avg` and priority and joins the same
//! array (active or expired) on its new hart (`pull_task`).

use crate::Where;
use runqueue_sched_api::{Carry, Enqueue, Fields, Int, Kind, MAX_TASKS, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, Tunable, tunables};

/// One jiffy at HZ = 1000, in ns.
const JIFFY: u64 = 1_000_000;
const MAX_RT_PRIO: i64 = 100;
const MAX_PRIO: i64 = 140;
const MAX_USER_PRIO: i64 = MAX_PRIO - MAX_RT_PRIO;
const PRIO_BONUS_RATIO: i64 = 25;
const MAX_BONUS: i64 = MAX_USER_PRIO * PRIO_BONUS_RATIO / 100;
const INTERACTIVE_DELTA: i64 = 2;
/// In jiffies.
const MIN_TIMESLICE: i64 = 5;
const DEF_TIMESLICE: i64 = 100;
const MAX_SLEEP_AVG: i64 = DEF_TIMESLICE * MAX_BONUS;
const STARVATION_LIMIT: i64 = MAX_SLEEP_AVG;
const GRANULARITY: i64 = 10;
const NS_MAX_SLEEP_AVG: u64 = MAX_SLEEP_AVG as u64 * JIFFY;
/// Priority levels of ordinary tasks, one list each.
const LEVELS: usize = 40;

tunables! {
    const TUNABLES;
    INTERACTIVE: Int = Setting::int(Tunable {
    name: "o1.interactive",
    kind: Kind::Int { min: 0, max: 1 },
    default: "1",
    unit: "",
    help: "1: the interactivity estimator (sleep_avg bonus, interactive tasks back to the active array); 0: static priorities only",
});
}

pub const SPEC: SchedSpec<O1> = SchedSpec {
    name: "o1",
    help: "Linux's O(1) scheduler (2.6.0-2.6.22): priority arrays with a bitmap, slices by nice, a bonus for tasks that sleep",
    tunables: TUNABLES,
    queue: QueueView { order: &["expired", "prio"], show: &["prio", "bonus", "expired", "slice"], pick: Pick::First },
    build: |s: &Settings, run: &Run| {
        Ok(O1 {
            estimator: s.get(&INTERACTIVE) == 1,
            half_tick: run.tick_ns / 2,
            arrays: [Array::EMPTY; 2],
            next: [0; MAX_TASKS],
            active: 0,
            expired_timestamp: None,
            best_expired_prio: MAX_PRIO as u8,
            tasks: [Proc::NONE; MAX_TASKS],
        })
    },
};

/// `struct prio_array`: a FIFO list per priority (linked through `O1::next`) and a bitmap of
/// the non-empty ones.
#[derive(Clone, Copy)]
struct Array {
    head: [u8; LEVELS],
    tail: [u8; LEVELS],
    bitmap: u64,
    nr_active: u32,
}

impl Array {
    const EMPTY: Array = Array { head: [0; LEVELS], tail: [0; LEVELS], bitmap: 0, nr_active: 0 };
}

/// Where a running task goes when it leaves the CPU preempted, decided at a tick.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pending {
    /// Preempted by a better task: it keeps its place at the head of its list.
    Head,
    /// Round robin among equals (its slice goes on, or it was interactive at its end).
    ActiveTail,
    /// Its slice is over: behind everything, in the expired array.
    Expired,
}

#[derive(Clone, Copy)]
struct Proc {
    static_prio: u8,
    prio: u8,
    sleep_avg: u64,
    /// Slice left, ns.
    time_slice: u64,
    /// When it last left the CPU, was woken, or was switched in (ns).
    timestamp: u64,
    /// 0, or 2 after a wakeup until it first runs (credit for its wait in the queue; Linux's 1,
    /// a wakeup by another task, would count 30 % of the wait, but every wakeup here counts as
    /// one by an interrupt).
    activated: u8,
    /// The array it is in (0 or 1; meaningful while queued).
    array: u8,
    place: Where,
    allowed: u32,
    pending: Pending,
    /// Whole TIMESLICE_GRANULARITY periods of this slice already used (the round-robin check).
    gran_seen: u64,
}

impl Proc {
    const NONE: Proc = Proc {
        static_prio: 120,
        prio: 120,
        sleep_avg: 0,
        time_slice: 0,
        timestamp: 0,
        activated: 0,
        array: 0,
        place: Where::Off,
        allowed: 0,
        pending: Pending::Head,
        gran_seen: 0,
    };
}

pub struct O1 {
    estimator: bool,
    /// A slice with at most this much left is over at a tick (Linux counts whole jiffies).
    half_tick: u64,
    arrays: [Array; 2],
    next: [u8; MAX_TASKS],
    active: usize,
    /// When a task first expired since the last array switch (`rq->expired_timestamp`).
    expired_timestamp: Option<u64>,
    /// The best static priority in the expired array (MAX_PRIO: none).
    best_expired_prio: u8,
    tasks: [Proc; MAX_TASKS],
}

/// `task_timeslice`, in ns.
pub fn task_timeslice(static_prio: u8) -> u64 {
    let sp = static_prio as i64;
    let base = if sp < 120 { DEF_TIMESLICE * 4 } else { DEF_TIMESLICE };
    (base * (MAX_PRIO - sp) / (MAX_USER_PRIO / 2)).max(MIN_TIMESLICE) as u64 * JIFFY
}

fn nice_of(static_prio: u8) -> i64 {
    static_prio as i64 - 120
}

/// `CURRENT_BONUS`: sleep_avg scaled to 0..=MAX_BONUS.
fn current_bonus(sleep_avg: u64) -> i64 {
    (sleep_avg / JIFFY) as i64 * MAX_BONUS / MAX_SLEEP_AVG
}

/// `DELTA`: how far above its static priority a task must be to count as interactive.
fn delta(static_prio: u8) -> i64 {
    nice_of(static_prio) * MAX_BONUS / 40 + INTERACTIVE_DELTA
}

/// `INTERACTIVE_SLEEP`, in ns.
fn interactive_sleep(static_prio: u8) -> u64 {
    (MAX_SLEEP_AVG * (MAX_BONUS / 2 + delta(static_prio) + 1) / MAX_BONUS - 1) as u64 * JIFFY
}

/// `TIMESLICE_GRANULARITY` (uniprocessor), in ns.
fn timeslice_granularity(sleep_avg: u64) -> u64 {
    let gap = (MAX_BONUS - current_bonus(sleep_avg)).max(1);
    (GRANULARITY << (gap - 1)) as u64 * JIFFY
}

impl O1 {
    fn expired(&self) -> usize {
        1 - self.active
    }

    /// `effective_prio`.
    fn effective_prio(&self, p: &Proc) -> u8 {
        if !self.estimator {
            return p.static_prio;
        }
        let bonus = current_bonus(p.sleep_avg) - MAX_BONUS / 2;
        (p.static_prio as i64 - bonus).clamp(MAX_RT_PRIO, MAX_PRIO - 1) as u8
    }

    /// `TASK_INTERACTIVE`.
    fn interactive(&self, p: &Proc) -> bool {
        self.estimator && p.prio as i64 <= p.static_prio as i64 - delta(p.static_prio)
    }

    /// `recalc_task_prio`: credit `sleep_time` of sleep (or of waiting after a wakeup).
    fn recalc_task_prio(&mut self, tid: Tid, sleep_time: u64) {
        let p = &mut self.tasks[tid];
        let sleep_time = sleep_time.min(NS_MAX_SLEEP_AVG);
        if sleep_time > 0 {
            if sleep_time > interactive_sleep(p.static_prio) {
                // Long sleepers get "just interactive" status, not more.
                p.sleep_avg = (MAX_SLEEP_AVG - DEF_TIMESLICE) as u64 * JIFFY;
            } else {
                let factor = (MAX_BONUS - current_bonus(p.sleep_avg)).max(1) as u64;
                p.sleep_avg = (p.sleep_avg + sleep_time * factor).min(NS_MAX_SLEEP_AVG);
            }
        }
        let p = self.tasks[tid];
        self.tasks[tid].prio = self.effective_prio(&p);
    }

    fn level(&self, tid: Tid) -> usize {
        self.tasks[tid].prio as usize - MAX_RT_PRIO as usize
    }

    /// `enqueue_task` (at the tail) or `enqueue_task_head`.
    fn push(&mut self, a: usize, tid: Tid, front: bool) {
        let l = self.level(tid);
        let arr = &mut self.arrays[a];
        let t = tid as u8;
        if arr.head[l] == 0 {
            arr.head[l] = t;
            arr.tail[l] = t;
            self.next[tid] = 0;
        } else if front {
            self.next[tid] = arr.head[l];
            arr.head[l] = t;
        } else {
            self.next[arr.tail[l] as usize] = t;
            arr.tail[l] = t;
            self.next[tid] = 0;
        }
        arr.bitmap |= 1 << l;
        arr.nr_active += 1;
        let p = &mut self.tasks[tid];
        p.array = a as u8;
        p.place = Where::Queued;
    }

    /// `dequeue_task`.
    fn remove(&mut self, tid: Tid) {
        let (a, l) = (self.tasks[tid].array as usize, self.level(tid));
        let arr = &mut self.arrays[a];
        let (mut prev, mut cur) = (0u8, arr.head[l]);
        while cur != 0 && cur as usize != tid {
            prev = cur;
            cur = self.next[cur as usize];
        }
        if cur == 0 {
            return;
        }
        let after = self.next[tid];
        if prev == 0 {
            arr.head[l] = after;
        } else {
            self.next[prev as usize] = after;
        }
        if arr.tail[l] as usize == tid {
            arr.tail[l] = prev;
        }
        if arr.head[l] == 0 {
            arr.bitmap &= !(1 << l);
        }
        arr.nr_active -= 1;
        self.next[tid] = 0;
    }

    /// The first task of array `a` that `ok` accepts, best priority first, with its level.
    fn first(&self, a: usize, ok: &dyn Fn(Tid) -> bool) -> Option<(Tid, usize)> {
        let mut bits = self.arrays[a].bitmap;
        while bits != 0 {
            let l = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let mut cur = self.arrays[a].head[l];
            while cur != 0 {
                if ok(cur as Tid) {
                    return Some((cur as Tid, l));
                }
                cur = self.next[cur as usize];
            }
        }
        None
    }

    /// Whether array `a` holds a task for `hart` at priority `prio` or better (one that
    /// `schedule()` would take before a task of `prio` put at the tail of its list).
    fn any_at_least(&self, a: usize, hart: usize, prio: u8) -> bool {
        let tasks = &self.tasks;
        let best = self.first(a, &|t| tasks[t].allowed & (1 << hart) != 0);
        best.is_some_and(|(_, l)| l + MAX_RT_PRIO as usize <= prio as usize)
    }

    fn switch_arrays(&mut self) {
        self.active = self.expired();
        self.expired_timestamp = None;
        self.best_expired_prio = MAX_PRIO as u8;
    }

    fn nr_running(&self) -> u64 {
        self.tasks.iter().filter(|p| p.place != Where::Off).count() as u64
    }

    /// `EXPIRED_STARVING`, with `static_prio` the current task's.
    fn expired_starving(&self, static_prio: u8, now: u64) -> bool {
        let limit = (STARVATION_LIMIT as u64 * self.nr_running() + 1) * JIFFY;
        self.expired_timestamp.is_some_and(|t| now.saturating_sub(t) >= limit) || static_prio > self.best_expired_prio
    }

    /// Is `tid` in the expired array, or bound for it?
    fn is_expired(&self, tid: Tid) -> bool {
        let p = &self.tasks[tid];
        match p.place {
            Where::Queued => p.array as usize != self.active,
            Where::Running => p.pending == Pending::Expired,
            Where::Off => false,
        }
    }
}

impl Scheduler for O1 {
    fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64) {
        let tid = task.tid;
        if why == Enqueue::New {
            let static_prio = (120 + task.nice.clamp(-20, 19)) as u8;
            let mut p = Proc { static_prio, time_slice: task_timeslice(static_prio), timestamp: now, ..Proc::NONE };
            p.prio = self.effective_prio(&p);
            self.tasks[tid] = p;
        }
        self.tasks[tid].allowed = task.allowed;
        let (active, expired) = (self.active, self.expired());
        match why {
            Enqueue::New => self.push(active, tid, false),
            // `activate_task`.
            Enqueue::Wakeup => {
                let slept = now.saturating_sub(self.tasks[tid].timestamp);
                self.recalc_task_prio(tid, slept);
                let p = &mut self.tasks[tid];
                if p.activated == 0 {
                    p.activated = 2;
                }
                p.timestamp = now;
                self.push(active, tid, false);
            }
            // `sys_sched_yield`: into the expired array.
            Enqueue::Yielded => self.push(expired, tid, false),
            Enqueue::Preempted => match self.tasks[tid].pending {
                Pending::Head => self.push(active, tid, true),
                Pending::ActiveTail => self.push(active, tid, false),
                Pending::Expired => self.push(expired, tid, false),
            },
        }
        self.tasks[tid].pending = Pending::Head;
    }

    /// `schedule()`: switch the arrays if the active one is empty, take the head of its best
    /// list, and credit a freshly woken task for its wait.
    fn pick_next(&mut self, _hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let mut found = self.first(self.active, allowed);
        if found.is_none() && self.arrays[self.active].nr_active == 0 && self.arrays[self.expired()].nr_active > 0 {
            self.switch_arrays();
            found = self.first(self.active, allowed);
        }
        // Only with affinity on a shared queue: nothing here may run on this hart, but an
        // expired task may.
        let found = found.or_else(|| self.first(self.expired(), allowed));
        let Some((tid, _)) = found else {
            if self.arrays.iter().all(|a| a.nr_active == 0) {
                self.expired_timestamp = None;
            }
            return None;
        };
        self.remove(tid);
        let p = self.tasks[tid];
        if p.activated > 0 {
            // Woken "by an interrupt" (`activated` 2), so the whole wait counts; Linux counts
            // `ON_RUNQUEUE_WEIGHT` (30 %) of it after a wakeup by another task.
            self.recalc_task_prio(tid, now.saturating_sub(p.timestamp));
        }
        let p = &mut self.tasks[tid];
        p.activated = 0;
        p.timestamp = now;
        p.place = Where::Running;
        p.pending = Pending::Head;
        Some(tid)
    }

    /// The slice runs down with CPU time; sleep_avg too, slower the higher the bonus.
    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        let p = &mut self.tasks[task.tid];
        p.time_slice = p.time_slice.saturating_sub(ran_ns);
        let bonus = current_bonus(p.sleep_avg).max(1) as u64;
        p.sleep_avg = p.sleep_avg.saturating_sub(ran_ns.min(NS_MAX_SLEEP_AVG) / bonus);
    }

    /// `scheduler_tick`. Where Linux would requeue the task and `schedule()` would pick it
    /// again at once, it simply goes on (no switch).
    fn tick(&mut self, current: &Task, now: u64) -> bool {
        let (tid, hart) = (current.tid, current.hart.unwrap_or(0));
        if self.tasks[tid].pending != Pending::Head {
            return true;
        }
        let (active, expired) = (self.active, self.expired());
        if self.tasks[tid].time_slice <= self.half_tick {
            let p = self.tasks[tid];
            let prio = self.effective_prio(&p);
            let p = &mut self.tasks[tid];
            p.prio = prio;
            p.time_slice = task_timeslice(p.static_prio);
            p.gran_seen = 0;
            let (p, static_prio) = (*p, p.static_prio);
            if self.expired_timestamp.is_none() {
                self.expired_timestamp = Some(now);
            }
            if !self.interactive(&p) || self.expired_starving(static_prio, now) {
                if self.arrays[active].nr_active == 0 && !self.any_at_least(expired, hart, p.prio) {
                    // Linux: into the expired array, the active one is empty, the arrays swap
                    // and it is the best there.
                    self.switch_arrays();
                    return false;
                }
                self.tasks[tid].pending = Pending::Expired;
                self.best_expired_prio = self.best_expired_prio.min(static_prio);
                return true;
            }
            // Interactive: back into the active array, behind its equals.
            if self.any_at_least(active, hart, p.prio) {
                self.tasks[tid].pending = Pending::ActiveTail;
                return true;
            }
            return false;
        }
        // Round robin among interactive equals every TIMESLICE_GRANULARITY of the slice.
        let p = self.tasks[tid];
        let gran = timeslice_granularity(p.sleep_avg);
        let used = task_timeslice(p.static_prio).saturating_sub(p.time_slice) / gran;
        let crossed = used > p.gran_seen;
        self.tasks[tid].gran_seen = used;
        if self.interactive(&p) && crossed && p.time_slice >= gran && self.any_at_least(active, hart, p.prio) {
            self.tasks[tid].pending = Pending::ActiveTail;
            return true;
        }
        false
    }

    /// `TASK_PREEMPTS_CURR`.
    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        self.tasks[woken.tid].prio < self.tasks[current.tid].prio
    }

    fn block(&mut self, task: &Task, now: u64) {
        let p = &mut self.tasks[task.tid];
        p.place = Where::Off;
        p.pending = Pending::Head;
        p.timestamp = now;
    }

    fn exit(&mut self, task: &Task) {
        let p = &mut self.tasks[task.tid];
        p.place = Where::Off;
        p.pending = Pending::Head;
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        let p = &self.tasks[tid];
        let bonus = if self.estimator { current_bonus(p.sleep_avg) - MAX_BONUS / 2 } else { 0 };
        out.field("prio", p.prio as u64)
            .field_int("bonus", bonus)
            .field("sleep_avg", p.sleep_avg)
            .field("slice", p.time_slice)
            .field("expired", self.is_expired(tid) as u64);
    }

    fn milestone(&self, tid: Tid, out: &mut Fields) {
        out.field("prio", self.tasks[tid].prio as u64).field("expired", self.is_expired(tid) as u64);
    }

    /// `pull_task`: the task keeps its figures and joins the same array on its new hart.
    fn detach(&mut self, task: &Task, queued: bool, _now: u64) -> Option<Carry> {
        let tid = task.tid;
        let expired = self.is_expired(tid);
        if queued && self.tasks[tid].place == Where::Queued {
            self.remove(tid);
        }
        let p = self.tasks[tid];
        self.tasks[tid].place = Where::Off;
        let packed = p.static_prio as i64 | (p.prio as i64) << 8 | (p.activated as i64) << 16 | (expired as i64) << 24;
        Some(Carry([packed, p.sleep_avg as i64, p.time_slice as i64, p.timestamp as i64, p.gran_seen as i64, 0]))
    }

    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, _now: u64) {
        let [packed, sleep_avg, time_slice, timestamp, gran_seen, _] = carry.0;
        let tid = task.tid;
        self.tasks[tid] = Proc {
            static_prio: packed as u8,
            prio: (packed >> 8) as u8,
            activated: (packed >> 16) as u8,
            sleep_avg: sleep_avg as u64,
            time_slice: time_slice as u64,
            timestamp: timestamp as u64,
            gran_seen: gran_seen as u64,
            allowed: task.allowed,
            ..Proc::NONE
        };
        if queued {
            let a = if (packed >> 24) & 1 == 1 { self.expired() } else { self.active };
            self.push(a, tid, false);
        } else if (packed >> 24) & 1 == 1 {
            // Moved on its way off the CPU with its slice over: it leaves as an expired task.
            self.tasks[tid].pending = Pending::Expired;
        }
    }
}
