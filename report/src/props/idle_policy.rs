//! SCHED_IDLE over a trace, as Linux behaves (not the "runs only when nothing else does" of a
//! simpler rule): a SCHED_IDLE task is a fair task of weight 3, so beside a normal task on
//! its hart it still gets a sliver of CPU, and a normal task that wakes there preempts it at
//! once. A task's policy is the `policy=` of its `new` event; its run queue the `rq=` of its
//! `new` or `wake`, the `to=` of a `migrate`, or the hart it last ran on (`docs/trace.md`).
//! Meaningful on one hart or with a run queue per hart.

use super::{Violation, by_time};
use crate::trace::{Event, Kind};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;

/// Who is where, replayed event by event.
#[derive(Default)]
struct Queues {
    /// Fair tasks that are not SCHED_IDLE, and SCHED_IDLE ones (boosted owners leave both).
    normal: BTreeSet<u32>,
    idle: BTreeSet<u32>,
    /// Each task's run queue.
    queue: BTreeMap<u32, u32>,
    /// Runnable tasks, running ones included.
    runnable: BTreeSet<u32>,
    /// Per hart: the task running there.
    running: BTreeMap<u32, u32>,
}

impl Queues {
    fn apply(&mut self, e: &Event) {
        if e.tid == 0 {
            return;
        }
        let rq = e.num("rq").map_or(e.hart, |h| h as u32);
        match e.kind {
            Kind::New | Kind::Wake => {
                if e.kind == Kind::New && e.get("class") == Some("fair") {
                    let set = if e.get("policy") == Some("idle") { &mut self.idle } else { &mut self.normal };
                    set.insert(e.tid);
                }
                self.queue.insert(e.tid, rq);
                self.runnable.insert(e.tid);
            }
            Kind::In => {
                self.queue.insert(e.tid, e.hart);
                self.running.insert(e.hart, e.tid);
            }
            Kind::Out => {
                self.running.remove(&e.hart);
                if !matches!(e.get("why"), Some("preempt" | "yield")) {
                    self.runnable.remove(&e.tid);
                }
            }
            Kind::Migrate => {
                if let Some(to) = e.num("to") {
                    self.queue.insert(e.tid, to as u32);
                }
            }
            // A boosted owner runs as a real-time task: neither rule applies to it meanwhile.
            Kind::Boost => {
                self.normal.remove(&e.tid);
            }
            Kind::Unboost if !self.idle.contains(&e.tid) => {
                self.normal.insert(e.tid);
            }
            Kind::Exit => {
                self.runnable.remove(&e.tid);
            }
            _ => {}
        }
    }

    /// A normal fair task is runnable in hart `h`'s queue.
    fn contended(&self, h: u32) -> bool {
        self.runnable.iter().any(|t| self.normal.contains(t) && self.queue.get(t) == Some(&h))
    }

    /// The SCHED_IDLE task running on hart `h`, if one is.
    fn idle_running(&self, h: u32) -> Option<u32> {
        self.running.get(&h).copied().filter(|t| self.idle.contains(t))
    }
}

/// A normal fair task that wakes (or arrives, or is moved) into the queue of a hart running a
/// SCHED_IDLE task preempts it within `limit_ns` (the way through the scheduler, and an IPI
/// when the wakeup happens on another hart): `check_preempt_wakeup_fair`'s first rule.
pub fn idle_policy_preempted(events: &[Event], limit_ns: u64) -> Result<(), Violation> {
    let mut q = Queues::default();
    // Per hart: the SCHED_IDLE task that must go, and the time a normal task arrived.
    let mut due: BTreeMap<u32, (u32, u64)> = BTreeMap::new();
    for e in by_time(events) {
        if let Some((&h, &(idle, since))) = due.iter().find(|(_, (_, since))| e.time_ns > since + limit_ns) {
            return Err(Violation {
                time_ns: since + limit_ns,
                rule: "SCHED_IDLE task not preempted",
                detail: format!("SCHED_IDLE task {idle} still ran on hart {h} {limit_ns} ns after a normal task became runnable there at {since} ns"),
            });
        }
        q.apply(e);
        if matches!(e.kind, Kind::New | Kind::Wake | Kind::Migrate) && q.normal.contains(&e.tid) {
            let h = q.queue[&e.tid];
            if let Some(idle) = q.idle_running(h) {
                due.entry(h).or_insert((idle, e.time_ns));
            }
        }
        due.retain(|h, (idle, _)| q.running.get(h) == Some(idle));
    }
    Ok(())
}

/// While normal fair tasks are runnable in a hart's queue, each SCHED_IDLE task runs there at
/// most `share` (numerator, denominator: its weight over its weight and the lightest normal
/// task's, 3/1027 beside nice 0) of that time plus `stint_ns`, the longest it keeps the hart
/// once picked (a tick under CFS; the request and a tick under EEVDF).
pub fn idle_policy_share(events: &[Event], share: (u64, u64), stint_ns: u64) -> Result<(), Violation> {
    let mut q = Queues::default();
    // Per hart: since when normal tasks have been runnable there; per hart and SCHED_IDLE
    // task: its CPU time there since.
    let mut contended: BTreeMap<u32, u64> = BTreeMap::new();
    let mut used: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    let mut last = 0;
    for e in by_time(events) {
        for (&h, &since) in &contended {
            let Some(idle) = q.idle_running(h) else { continue };
            let used = used.entry((h, idle)).or_insert(0);
            *used += e.time_ns - last;
            let allowed = (e.time_ns - since) * share.0 / share.1 + stint_ns;
            if *used > allowed {
                return Err(Violation {
                    time_ns: e.time_ns,
                    rule: "SCHED_IDLE share exceeded",
                    detail: format!("SCHED_IDLE task {idle} ran {used} ns on hart {h} in the {} ns since a normal task became runnable there, more than {allowed} ns", e.time_ns - since),
                });
            }
        }
        last = e.time_ns;
        q.apply(e);
        let harts: BTreeSet<u32> = q.queue.values().copied().collect();
        for h in harts {
            if !q.contended(h) {
                contended.remove(&h);
                used.retain(|(hart, _), _| *hart != h);
            } else {
                contended.entry(h).or_insert(e.time_ns);
            }
        }
    }
    Ok(())
}
