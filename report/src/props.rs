//! Properties every correct schedule has, checked over a trace: the checks the kernel's tests
//! and the lab grader share. Each returns the first violation, with the time it happened, so
//! a student sees where the schedule first broke the rule.

use crate::trace::{Event, Kind};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

mod idle_policy;
pub use idle_policy::{idle_policy_preempted, idle_policy_share};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub time_ns: u64,
    pub rule: &'static str,
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {} ns: {}", self.rule, self.time_ns, self.detail)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Runnable(u64),
    Running(u32),
    Blocked,
    Done,
}

/// The events in time order; events at the same time keep their emitted order.
pub fn by_time(events: &[Event]) -> Vec<&Event> {
    let mut v: Vec<&Event> = events.iter().collect();
    v.sort_by_key(|e| e.time_ns);
    v
}

/// A task is on at most one hart, a hart runs at most one task, every switch-out matches a
/// switch-in, and every task created also exits (no task lost).
pub fn consistent(events: &[Event]) -> Result<(), Violation> {
    let mut state: BTreeMap<u32, State> = BTreeMap::new();
    let mut on_hart: BTreeMap<u32, u32> = BTreeMap::new();
    let bad = |e: &Event, rule, detail: String| Err(Violation { time_ns: e.time_ns, rule, detail });
    for e in by_time(events) {
        if e.tid == 0 {
            continue;
        }
        let now = state.get(&e.tid).copied();
        match e.kind {
            Kind::New => {
                if now.is_some() {
                    return bad(e, "task created twice", format!("task {} already exists", e.tid));
                }
                state.insert(e.tid, State::Runnable(e.time_ns));
            }
            Kind::In => {
                if let Some(State::Running(h)) = now {
                    return bad(e, "task on two harts", format!("task {} switched in on hart {} while running on hart {h}", e.tid, e.hart));
                }
                if now.is_none() || now == Some(State::Done) {
                    return bad(e, "unknown task ran", format!("task {} was never created or has exited", e.tid));
                }
                if let Some(other) = on_hart.insert(e.hart, e.tid) {
                    return bad(e, "hart ran two tasks", format!("task {} switched in on hart {} while task {other} still ran there", e.tid, e.hart));
                }
                state.insert(e.tid, State::Running(e.hart));
            }
            Kind::Out => {
                if now != Some(State::Running(e.hart)) {
                    return bad(e, "switch-out without switch-in", format!("task {} left hart {} where it was not running", e.tid, e.hart));
                }
                on_hart.remove(&e.hart);
                let next = match e.get("why") {
                    Some("preempt" | "yield") => State::Runnable(e.time_ns),
                    Some("exit") => State::Done,
                    _ => State::Blocked,
                };
                state.insert(e.tid, next);
            }
            Kind::Wake => {
                if let Some(State::Blocked) = now {
                    state.insert(e.tid, State::Runnable(e.time_ns));
                }
            }
            Kind::Exit => {
                state.insert(e.tid, State::Done);
            }
            Kind::State | Kind::Mark | Kind::Migrate | Kind::Lock | Kind::Boost | Kind::Unboost | Kind::Steal | Kind::Throttle | Kind::Unthrottle => {}
        }
    }
    match state.iter().find(|(_, s)| **s != State::Done) {
        Some((tid, s)) => Err(Violation {
            time_ns: events.iter().map(|e| e.time_ns).max().unwrap_or(0),
            rule: "task lost",
            detail: format!("task {tid} never finished (last state {s:?})"),
        }),
        None => Ok(()),
    }
}

/// None of the `harts` harts stays idle for longer than `slack_ns` while a task is runnable.
/// Only meaningful when every task may run on every hart.
pub fn work_conserving(events: &[Event], harts: u32, slack_ns: u64) -> Result<(), Violation> {
    let start = events.iter().map(|e| e.time_ns).min().unwrap_or(0);
    let mut busy: BTreeMap<u32, u32> = BTreeMap::new();
    let mut runnable: BTreeMap<u32, u64> = BTreeMap::new();
    let mut idle_since: BTreeMap<u32, u64> = (0..harts).map(|h| (h, start)).collect();
    for e in by_time(events) {
        // Before applying this event, look for a hart that has been idle too long while
        // something was runnable the whole time.
        if let Some((&tid, &since)) = runnable.iter().min_by_key(|(_, t)| **t) {
            for (&h, &idle) in &idle_since {
                let overlap_start = since.max(idle);
                if e.time_ns > overlap_start + slack_ns {
                    return Err(Violation {
                        time_ns: overlap_start + slack_ns,
                        rule: "not work-conserving",
                        detail: format!("hart {h} idle while task {tid} was runnable since {since} ns"),
                    });
                }
            }
        }
        if e.tid == 0 {
            continue;
        }
        match e.kind {
            Kind::New | Kind::Wake => {
                runnable.entry(e.tid).or_insert(e.time_ns);
            }
            Kind::In => {
                runnable.remove(&e.tid);
                busy.insert(e.hart, e.tid);
                idle_since.remove(&e.hart);
            }
            Kind::Out => {
                busy.remove(&e.hart);
                idle_since.insert(e.hart, e.time_ns);
                if matches!(e.get("why"), Some("preempt" | "yield")) {
                    runnable.insert(e.tid, e.time_ns);
                }
            }
            Kind::Exit => {
                runnable.remove(&e.tid);
            }
            Kind::State | Kind::Mark | Kind::Migrate | Kind::Lock | Kind::Boost | Kind::Unboost | Kind::Steal | Kind::Throttle | Kind::Unthrottle => {}
        }
    }
    Ok(())
}

/// With a run queue per hart (`rq=perhart`): no hart stays idle for longer than `slack_ns`
/// while another hart's queue holds two or more runnable tasks (the running one included), so
/// that one of them could move. A task's queue comes from the `rq=` of its `new` and `wake`,
/// the `to=` of its `migrate`, and the hart it last ran on. Only meaningful when every task may
/// run on every hart.
pub fn balanced(events: &[Event], harts: u32, slack_ns: u64) -> Result<(), Violation> {
    let start = events.iter().map(|e| e.time_ns).min().unwrap_or(0);
    let mut queue: BTreeMap<u32, u32> = BTreeMap::new();
    let mut runnable: BTreeMap<u32, bool> = BTreeMap::new();
    let mut idle_since: BTreeMap<u32, u64> = (0..harts).map(|h| (h, start)).collect();
    let mut crowded_since: BTreeMap<u32, u64> = BTreeMap::new();
    for e in by_time(events) {
        for (&k, &crowded) in &crowded_since {
            for (&h, &idle) in idle_since.iter().filter(|(h, _)| **h != k) {
                let from = crowded.max(idle);
                if e.time_ns > from + slack_ns {
                    return Err(Violation {
                        time_ns: from + slack_ns,
                        rule: "not balanced",
                        detail: format!("hart {h} idle while hart {k} had two or more runnable tasks since {crowded} ns"),
                    });
                }
            }
        }
        if e.tid == 0 {
            continue;
        }
        match e.kind {
            Kind::New | Kind::Wake => {
                if let Some(q) = e.num("rq") {
                    queue.insert(e.tid, q as u32);
                }
                runnable.insert(e.tid, true);
            }
            Kind::Migrate => {
                if let Some(q) = e.num("to") {
                    queue.insert(e.tid, q as u32);
                }
            }
            Kind::In => {
                queue.insert(e.tid, e.hart);
                idle_since.remove(&e.hart);
            }
            Kind::Out => {
                idle_since.insert(e.hart, e.time_ns);
                runnable.insert(e.tid, matches!(e.get("why"), Some("preempt" | "yield")));
            }
            Kind::Exit => {
                runnable.insert(e.tid, false);
            }
            Kind::State | Kind::Mark | Kind::Lock | Kind::Boost | Kind::Unboost | Kind::Steal | Kind::Throttle | Kind::Unthrottle => {}
        }
        for k in 0..harts {
            let nr = runnable.iter().filter(|(t, r)| **r && queue.get(t) == Some(&k)).count();
            if nr < 2 {
                crowded_since.remove(&k);
            } else {
                crowded_since.entry(k).or_insert(e.time_ns);
            }
        }
    }
    Ok(())
}

/// Per task, the CPU time each stint reported (`out ... ran=`), summed.
pub fn cpu_by_task(events: &[Event]) -> BTreeMap<u32, u64> {
    let mut cpu = BTreeMap::new();
    for e in events.iter().filter(|e| e.kind == Kind::Out && e.tid != 0) {
        *cpu.entry(e.tid).or_insert(0) += e.num("ran").unwrap_or(0).max(0) as u64;
    }
    cpu
}

/// Who runs where and who waits, replayed event by event (the real-time and BVT checks).
#[derive(Default)]
struct Replay {
    /// Runnable, not running: since when.
    waiting: BTreeMap<u32, u64>,
    /// Per hart: the running task and since when.
    running: BTreeMap<u32, (u32, u64)>,
    /// Each task's class from its `new` event.
    class: BTreeMap<u32, String>,
}

impl Replay {
    fn apply(&mut self, e: &Event) {
        if e.tid == 0 {
            return;
        }
        match e.kind {
            Kind::New | Kind::Wake => {
                if e.kind == Kind::New {
                    self.class.insert(e.tid, e.get("class").unwrap_or("fair").into());
                }
                self.waiting.entry(e.tid).or_insert(e.time_ns);
            }
            Kind::In => {
                self.waiting.remove(&e.tid);
                self.running.insert(e.hart, (e.tid, e.time_ns));
            }
            Kind::Out => {
                self.running.remove(&e.hart);
                if matches!(e.get("why"), Some("preempt" | "yield")) {
                    self.waiting.insert(e.tid, e.time_ns);
                }
            }
            // A mutex owner runs in the class it inherited until it gives it back.
            Kind::Boost | Kind::Unboost => {
                self.class.insert(e.tid, e.get("class").unwrap_or("fair").into());
            }
            Kind::Exit | Kind::State | Kind::Mark | Kind::Migrate | Kind::Lock | Kind::Steal | Kind::Throttle | Kind::Unthrottle => {}
        }
    }

    fn is_rt(&self, tid: u32) -> bool {
        matches!(self.class.get(&tid).map(String::as_str), Some("fifo" | "rr"))
    }
}

/// A runnable real-time task (class `fifo` or `rr`) never waits longer than `limit_ns` while
/// a task of lower priority runs on some hart: a fair task (within one tick, plus slack), or
/// on several harts a real-time task with a lower `prio=` (within an IPI's way, when the
/// waiting task was pushed there). A higher-priority task that takes a hart while it waits may
/// have taken the one it was bound for (Linux's `select_task_rq_rt` keeps a woken task on its
/// own queue when that queue's task is of lower priority, and pushes the one it displaces): its
/// wait counts anew from then. Only meaningful without RT throttling and when every task may
/// run on every hart.
pub fn rt_preempts_lower(events: &[Event], limit_ns: u64) -> Result<(), Violation> {
    let mut r = Replay::default();
    let mut prio: BTreeMap<u32, i64> = BTreeMap::new();
    // When a mutex owner last inherited or gave back a priority, or a waiting task was last
    // passed by a higher priority: the comparison starts anew.
    let mut changed: BTreeMap<u32, u64> = BTreeMap::new();
    for e in by_time(events) {
        for (&rt, &rt_since) in r.waiting.iter().filter(|(t, _)| r.is_rt(**t)) {
            let mine = prio.get(&rt).copied().unwrap_or(0);
            let lower = |t: u32| !r.is_rt(t) || prio.get(&t).copied().unwrap_or(0) < mine;
            for (&h, &(other, since)) in r.running.iter().filter(|(_, (t, _))| lower(*t)) {
                let since_change = |t: u32| changed.get(&t).copied().unwrap_or(0);
                let from = rt_since.max(since).max(since_change(rt)).max(since_change(other));
                if e.time_ns > from + limit_ns {
                    let what = if r.is_rt(other) { "lower-priority real-time" } else { "fair" };
                    return Err(Violation {
                        time_ns: from + limit_ns,
                        rule: "real-time task not preempting",
                        detail: format!("real-time task {rt} runnable since {rt_since} ns while {what} task {other} ran on hart {h}"),
                    });
                }
            }
        }
        if matches!(e.kind, Kind::Boost | Kind::Unboost) {
            changed.insert(e.tid, e.time_ns);
        }
        if e.kind == Kind::In && r.is_rt(e.tid) {
            let mine = prio.get(&e.tid).copied().unwrap_or(0);
            for (&rt, _) in r.waiting.iter().filter(|(t, _)| **t != e.tid && r.is_rt(**t) && prio.get(t).copied().unwrap_or(0) < mine) {
                changed.insert(rt, e.time_ns);
            }
        }
        if matches!(e.kind, Kind::New | Kind::Boost | Kind::Unboost)
            && let Some(p) = e.num("prio")
        {
            prio.insert(e.tid, p);
        }
        r.apply(e);
    }
    Ok(())
}

/// Every task runs only on the harts its mask allows (`affinity=`, `isolcpus=`): `masks`
/// maps a tid to its mask (bit h = hart h); tasks not in it may run anywhere.
pub fn affinity_honoured(events: &[Event], masks: &BTreeMap<u32, u32>) -> Result<(), Violation> {
    for e in events.iter().filter(|e| e.kind == Kind::In) {
        if let Some(mask) = masks.get(&e.tid)
            && mask & (1 << e.hart) == 0
        {
            return Err(Violation {
                time_ns: e.time_ns,
                rule: "affinity broken",
                detail: format!("task {} ran on hart {} outside its mask {mask:#x}", e.tid, e.hart),
            });
        }
    }
    Ok(())
}

/// In every period `[k * period_ns, (k + 1) * period_ns)` real-time tasks run at most
/// `runtime_ns + slack_ns` on each hart (RT throttling).
pub fn rt_share_capped(events: &[Event], runtime_ns: u64, period_ns: u64, slack_ns: u64) -> Result<(), Violation> {
    let mut r = Replay::default();
    // (hart, period index) -> real-time CPU time in it.
    let mut used: BTreeMap<(u32, u64), u64> = BTreeMap::new();
    for e in by_time(events) {
        if e.kind == Kind::Out
            && let Some(&(tid, since)) = r.running.get(&e.hart)
            && r.is_rt(tid)
        {
            // Split the stint at period boundaries.
            let mut t = since;
            while t < e.time_ns {
                let k = t / period_ns;
                let end = e.time_ns.min((k + 1) * period_ns);
                let total = used.entry((e.hart, k)).or_insert(0);
                *total += end - t;
                if *total > runtime_ns + slack_ns {
                    return Err(Violation {
                        time_ns: end,
                        rule: "real-time share not capped",
                        detail: format!("real-time tasks ran {} ns on hart {} in period {k}, more than {runtime_ns} ns", *total, e.hart),
                    });
                }
                t = end;
            }
        }
        r.apply(e);
    }
    Ok(())
}

/// BVT's context-switch allowance: a running task whose effective virtual time (`evt=` on
/// `new`, `in`, `wake`, `state`) exceeds a waiting task's by more than `csa_ns` is switched
/// out within `grace_ns` (the tick that notices it, or the wakeup's preemption).
pub fn bvt_within_csa(events: &[Event], csa_ns: i64, grace_ns: u64) -> Result<(), Violation> {
    let mut r = Replay::default();
    let mut evt: BTreeMap<u32, i64> = BTreeMap::new();
    let mut over_since: BTreeMap<u32, u64> = BTreeMap::new();
    let sorted = by_time(events);
    for (i, e) in sorted.iter().enumerate() {
        r.apply(e);
        if let Some(v) = e.num("evt") {
            evt.insert(e.tid, v);
        }
        // Judge once all events at this time are in.
        if sorted.get(i + 1).is_some_and(|n| n.time_ns == e.time_ns) {
            continue;
        }
        let least_waiting = r.waiting.keys().filter_map(|t| evt.get(t).map(|v| (*v, *t))).min();
        for &(tid, _) in r.running.values() {
            let over = match (evt.get(&tid), least_waiting) {
                (Some(&mine), Some((least, other))) if mine - least > csa_ns => Some(other),
                _ => None,
            };
            match over {
                Some(other) => {
                    let since = *over_since.entry(tid).or_insert(e.time_ns);
                    if e.time_ns > since + grace_ns {
                        return Err(Violation {
                            time_ns: e.time_ns,
                            rule: "BVT ran past the switch allowance",
                            detail: format!("task {tid} kept running since {since} ns with E more than {csa_ns} above task {other}'s"),
                        });
                    }
                }
                None => {
                    over_since.remove(&tid);
                }
            }
        }
        over_since.retain(|t, _| r.running.values().any(|(run, _)| run == t));
    }
    Ok(())
}

/// SCHED_DEADLINE's budget: each deadline task runs at most its runtime (from `runtime_ns`,
/// by tid) plus `slack_ns` per server period, i.e. while its scheduling deadline (`dl=` on
/// `in`, `wake` and `state` events) keeps one value.
pub fn dl_within_budget(events: &[Event], runtime_ns: &BTreeMap<u32, u64>, slack_ns: u64) -> Result<(), Violation> {
    let mut deadline: BTreeMap<u32, i64> = BTreeMap::new();
    // Running deadline tasks: since when their current stint has been counted.
    let mut counted_from: BTreeMap<u32, u64> = BTreeMap::new();
    let mut used: BTreeMap<(u32, i64), u64> = BTreeMap::new();
    for e in by_time(events) {
        let Some(&budget) = runtime_ns.get(&e.tid) else {
            continue;
        };
        if let (Some(from), Some(&dl)) = (counted_from.get(&e.tid).copied(), deadline.get(&e.tid)) {
            let total = used.entry((e.tid, dl)).or_insert(0);
            *total += e.time_ns - from;
            if *total > budget + slack_ns {
                return Err(Violation {
                    time_ns: e.time_ns,
                    rule: "deadline task over budget",
                    detail: format!("task {} ran {} ns before its deadline {dl}, more than its runtime {budget}", e.tid, *total),
                });
            }
            counted_from.insert(e.tid, e.time_ns);
        }
        if let Some(dl) = e.num("dl") {
            deadline.insert(e.tid, dl);
        }
        match e.kind {
            Kind::In => {
                counted_from.insert(e.tid, e.time_ns);
            }
            Kind::Out => {
                counted_from.remove(&e.tid);
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::parse;

    const GOOD: &str = "T 0 0 new 1 name=a\nT 0 0 new 2 name=b\nT 10 0 in 1\nT 10 1 in 2\n\
        T 50 0 out 1 why=yield ran=40\nT 50 0 in 1\nT 90 0 out 1 why=exit ran=40\nT 90 0 exit 1\n\
        T 95 1 out 2 why=exit ran=85\nT 95 1 exit 2\n";

    #[test]
    fn a_sound_schedule_passes() {
        let ev = parse(GOOD).unwrap();
        assert_eq!(consistent(&ev), Ok(()));
        assert_eq!(work_conserving(&ev, 2, 20), Ok(()));
        assert_eq!(cpu_by_task(&ev).get(&1), Some(&80));
    }

    #[test]
    fn each_broken_rule_is_caught() {
        let two_harts = GOOD.replace("T 10 1 in 2", "T 10 1 in 1");
        assert_eq!(consistent(&parse(&two_harts).unwrap()).unwrap_err().rule, "task on two harts");
        let lost = GOOD.replace("T 95 1 exit 2\n", "").replace("T 95 1 out 2 why=exit ran=85\n", "T 95 1 out 2 why=sleep ran=85\n");
        assert_eq!(consistent(&parse(&lost).unwrap()).unwrap_err().rule, "task lost");
        let stray = alloc::format!("{GOOD}T 99 0 out 2 why=yield ran=1\n");
        assert_eq!(consistent(&parse(&stray).unwrap()).unwrap_err().rule, "switch-out without switch-in");
        // Task 2 starts late although hart 1 sat idle.
        let lazy = GOOD.replace("T 10 1 in 2", "T 80 1 in 2");
        let v = work_conserving(&parse(&lazy).unwrap(), 2, 20).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("not work-conserving", 20));
    }
    #[test]
    fn a_real_time_task_left_waiting_is_caught() {
        let prompt = "T 0 0 new 1 name=f class=fair\nT 0 0 in 1\nT 500 0 new 2 name=r class=fifo\n\
            T 600 0 out 1 why=preempt ran=600\nT 600 0 in 2\nT 700 0 out 2 why=exit ran=100\nT 700 0 exit 2\n";
        assert_eq!(rt_preempts_lower(&parse(prompt).unwrap(), 200), Ok(()));
        let late = prompt.replace("T 600 0 out 1", "T 900 0 out 1").replace("T 600 0 in 2", "T 900 0 in 2").replace("T 700", "T 1000");
        let v = rt_preempts_lower(&parse(&late).unwrap(), 200).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("real-time task not preempting", 700));
    }

    #[test]
    fn a_real_time_task_behind_a_lower_one_on_another_hart_is_caught() {
        // Task 3 (prio 50) waits on hart 0 behind task 1 (prio 60) while hart 1 runs task 2
        // (prio 10) until 900.
        let events = "T 0 0 new 1 class=fifo prio=60\nT 0 0 new 2 class=fifo prio=10\nT 0 0 in 1\nT 0 1 in 2\n\
            T 100 0 new 3 class=fifo prio=50\nT 900 1 out 2 why=preempt ran=900\nT 900 1 in 3\n";
        let v = rt_preempts_lower(&parse(events).unwrap(), 200).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("real-time task not preempting", 300));
        // Behind an equal or higher priority, it waits rightly.
        assert_eq!(rt_preempts_lower(&parse(&events.replace("prio=10", "prio=50")).unwrap(), 200), Ok(()));
    }

    #[test]
    fn a_real_time_task_passed_by_a_higher_one_waits_anew() {
        // Fair tasks 1 and 2 run on harts 0 and 1. Task 3 (prio 20) wakes at 100; task 4
        // (prio 30) takes hart 0 at 150, and task 3 gets hart 1 at 320: 170 after it was passed.
        let events = "T 0 0 new 1 class=fair\nT 0 0 new 2 class=fair\nT 0 0 in 1\nT 0 1 in 2\n\
            T 100 0 new 3 class=fifo prio=20\nT 110 0 new 4 class=fifo prio=30\nT 150 0 out 1 why=preempt ran=150\nT 150 0 in 4\n\
            T 320 1 out 2 why=preempt ran=320\nT 320 1 in 3\n";
        assert_eq!(rt_preempts_lower(&parse(events).unwrap(), 200), Ok(()));
        // Passed by a lower priority, its wait still counts from its wakeup.
        let v = rt_preempts_lower(&parse(&events.replace("prio=30", "prio=10")).unwrap(), 200).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("real-time task not preempting", 300));
    }

    #[test]
    fn an_idle_hart_beside_a_crowded_one_is_caught() {
        // Tasks 1 and 2 share hart 0's queue and take turns; hart 1 sits idle throughout.
        let crowded = "T 0 0 new 1 rq=0\nT 0 0 new 2 rq=0\nT 0 0 in 1\nT 30 0 out 1 why=preempt ran=30\nT 30 0 in 2\n\
            T 60 0 out 2 why=preempt ran=30\nT 60 0 in 1\nT 90 0 out 1 why=exit ran=30\nT 90 0 in 2\nT 120 0 out 2 why=exit ran=30\n";
        let v = balanced(&parse(crowded).unwrap(), 2, 50).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("not balanced", 50));
        // No single task waited that long, so the task-level check misses it.
        assert_eq!(work_conserving(&parse(crowded).unwrap(), 2, 50), Ok(()));
        // Moved to hart 1 at 20: balanced.
        let moved = crowded.replace("T 30 0 in 2\n", "T 20 1 migrate 2 from=0 to=1\nT 20 1 in 2\nT 30 0 in 1\n");
        let moved = moved.split_inclusive('\n').take(6).collect::<String>();
        assert_eq!(balanced(&parse(&moved).unwrap(), 2, 50), Ok(()));
    }

    #[test]
    fn a_task_outside_its_mask_is_caught() {
        let masks: BTreeMap<u32, u32> = [(1, 0b10)].into_iter().collect();
        assert_eq!(affinity_honoured(&parse("T 0 1 in 1\nT 5 0 in 2\n").unwrap(), &masks), Ok(()));
        let v = affinity_honoured(&parse("T 0 1 in 1\nT 5 0 in 1\n").unwrap(), &masks).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("affinity broken", 5));
    }

    #[test]
    fn real_time_time_past_the_cap_is_caught() {
        let run = |until: u64| alloc::format!("T 0 0 new 1 name=r class=rr\nT 0 0 in 1\nT {until} 0 out 1 why=exit ran={until}\n");
        // 950 of each 1000 ns period allowed: 1900 ns in a row fills period 0 past it.
        assert_eq!(rt_share_capped(&parse(&run(900)).unwrap(), 950, 1000, 0), Ok(()));
        let v = rt_share_capped(&parse(&run(1900)).unwrap(), 950, 1000, 0).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("real-time share not capped", 1000));
        // A fair task is not counted.
        assert_eq!(rt_share_capped(&parse(&run(1900).replace("class=rr", "class=fair")).unwrap(), 950, 1000, 0), Ok(()));
    }

    #[test]
    fn bvt_running_past_the_allowance_is_caught() {
        let good = "T 0 0 new 1 evt=0\nT 0 0 new 2 evt=0\nT 0 0 in 1 evt=0\nT 10 0 state 1 evt=10\n\
            T 20 0 state 1 evt=20\nT 20 0 out 1 why=preempt ran=20\nT 20 0 in 2 evt=0\n";
        assert_eq!(bvt_within_csa(&parse(good).unwrap(), 15, 5), Ok(()));
        let stays = good.replace("T 20 0 out 1 why=preempt ran=20\nT 20 0 in 2 evt=0\n", "T 30 0 state 1 evt=30\n");
        let v = bvt_within_csa(&parse(&stays).unwrap(), 15, 5).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("BVT ran past the switch allowance", 30));
    }
    #[test]
    fn a_deadline_task_over_its_budget_is_caught() {
        let budget: BTreeMap<u32, u64> = [(1, 100)].into_iter().collect();
        let good = "T 0 0 new 1 class=dl dl=1000\nT 0 0 in 1 dl=1000\nT 90 0 out 1 why=sleep ran=90\n\
            T 1000 0 wake 1 dl=2000\nT 1000 0 in 1 dl=2000\nT 1100 0 out 1 why=exit ran=100\n";
        assert_eq!(dl_within_budget(&parse(good).unwrap(), &budget, 0), Ok(()));
        // Running on past the budget within one deadline, even across a switch.
        let over = good.replace("T 1000 0 wake 1 dl=2000\nT 1000 0 in 1 dl=2000", "T 500 0 wake 1\nT 500 0 in 1");
        let v = dl_within_budget(&parse(&over).unwrap(), &budget, 0).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("deadline task over budget", 1100));
    }
    #[test]
    fn u_follows_only_a_warp_that_l_ended() {
        // Warped at 0, unwarped by a sleep at 10 (wst=3): warping again at 20 is allowed.
        let slept = "T 0 0 in 1 warp=5 wst=1\nT 10 0 out 1 why=sleep ran=10\nT 10 0 state 1 warp=0 wst=3\nT 20 0 wake 1 warp=5 wst=1\n";
        assert_eq!(bvt_warp_limits(&parse(slept).unwrap(), 0, 100, 0), Ok(()));
        // Unwarped by L at 10 (wst=2): warping again before U = 100 is not.
        let limited = slept.replace("wst=3", "wst=2");
        let v = bvt_warp_limits(&parse(&limited).unwrap(), 0, 100, 0).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("BVT warped again before U", 20));
    }
}

/// BVT's warp limits (Duda and Cheriton), from the `warp=` a task shows on `new`, `in`, `wake`
/// and `state` events (W while warped, 0 otherwise): a task runs warped for at most `limit_ns`
/// (L; 0 = no limit) of CPU time plus `grace_ns` (the tick that notices it), and once L has
/// unwarped it (`wst=2`) it warps again no sooner than `unwarp_ns` (U) later; a warp that ended
/// in a sleep (`wst=3`) may come back at the next wakeup.
pub fn bvt_warp_limits(events: &[Event], limit_ns: u64, unwarp_ns: u64, grace_ns: u64) -> Result<(), Violation> {
    // Per task: warped now, CPU time run in this warp before its current stint, when its
    // current stint began (if running), when its last warp ended.
    let mut warped: BTreeMap<u32, bool> = BTreeMap::new();
    let mut warped_cpu: BTreeMap<u32, u64> = BTreeMap::new();
    let mut stint: BTreeMap<u32, u64> = BTreeMap::new();
    let mut ended: BTreeMap<u32, u64> = BTreeMap::new();
    for e in by_time(events) {
        let t = e.time_ns;
        match e.kind {
            Kind::In => {
                stint.insert(e.tid, t);
            }
            Kind::Out => {
                if let Some(start) = stint.remove(&e.tid)
                    && warped.get(&e.tid) == Some(&true)
                {
                    *warped_cpu.entry(e.tid).or_default() += t - start;
                }
            }
            _ => {}
        }
        let Some(warp) = e.num("warp") else { continue };
        let was = warped.insert(e.tid, warp > 0).unwrap_or(false);
        if warp > 0 {
            if !was && let Some(&end) = ended.get(&e.tid) && t < end + unwarp_ns {
                return Err(Violation {
                    time_ns: t,
                    rule: "BVT warped again before U",
                    detail: format!("task {} warped {} ns after its last warp ended, U = {unwarp_ns} ns", e.tid, t - end),
                });
            }
            let ran = warped_cpu.get(&e.tid).copied().unwrap_or(0) + stint.get(&e.tid).map_or(0, |&s| t - s);
            if limit_ns > 0 && ran > limit_ns + grace_ns {
                return Err(Violation {
                    time_ns: t,
                    rule: "BVT ran warped past L",
                    detail: format!("task {} ran {ran} ns warped, L = {limit_ns} ns", e.tid),
                });
            }
        } else if was {
            if e.num("wst") == Some(2) {
                ended.insert(e.tid, t);
            } else {
                ended.remove(&e.tid);
            }
            warped_cpu.remove(&e.tid);
        }
    }
    Ok(())
}
