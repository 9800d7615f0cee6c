//! The MLFQ lab's reference model: each task's CPU time since it was created or last boosted,
//! from the core's `ran=` figures, gives the levels it may be at; the policy's reported
//! levels, its picks, its preemptions (a higher level runs first) and its quanta (a level
//! takes turns) must agree with them.
//!
//! The kernel charges CPU time at ticks and switch-outs, so a policy moves a task down up to
//! one tick late per level, and boosts at the first tick after the boost is due: levels are
//! ranges, and decisions within a tick after a boost are not judged. A running task's stint
//! is judged when it ends (its `out`): what was ready meanwhile, and from when, is known then.

use crate::args;
use crate::lab::Findings;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use runqueue_report::props::by_time;
use runqueue_report::trace::{Event, Kind};

pub const CHECKS: &[(&str, &str)] = &[
    ("mlfq.level", "a task moves down once it used its allotment at a level (doubling per level), however often it yielded, and reports its level (describe and milestone)"),
    ("mlfq.pick", "every switch-in takes a task from the highest level with a ready task"),
    ("mlfq.boost", "every boost period, every task goes back to level 0"),
    ("mlfq.new", "a new task starts at level 0"),
    ("mlfq.preempt", "a task that becomes ready above the running task's level takes the CPU: at once when it wakes or arrives, by the next tick when the running task moves down"),
    ("mlfq.quantum", "a level takes turns: the running task keeps the CPU for its level's quantum (doubling per level), then gives it up if a task of its level is ready, and the one that waited longest runs next"),
];

struct Params {
    levels: u32,
    quantum: u64,
    allotment: u64,
    boost_every: u64,
    tick: u64,
}

impl Params {
    /// The CPU time since creation or a boost at which a task reaches `level`.
    fn threshold(&self, level: u32) -> u64 {
        self.allotment * ((1 << level) - 1)
    }

    /// The level a task is at after `used` ns with no charging delay.
    fn level(&self, used: u64) -> u32 {
        (1..self.levels).take_while(|&l| self.threshold(l) <= used).last().unwrap_or(0)
    }

    /// How much more CPU time than `used` a task needs to reach `level`.
    fn until(&self, level: u32, used: u64) -> u64 {
        self.threshold(level).saturating_sub(used)
    }

    /// The levels a correct policy may report after `used` ns.
    fn range(&self, used: u64) -> (u32, u32) {
        (self.level(used.saturating_sub(self.lag())), self.level(used))
    }

    /// How far behind the CPU time a policy's demotions may be: a tick per level.
    fn lag(&self) -> u64 {
        self.levels as u64 * self.tick
    }

    fn quantum(&self, level: u32) -> u64 {
        self.quantum << level
    }
}

struct Task {
    /// CPU time since creation or the last boost, up to `since` if running.
    used: u64,
    running_since: Option<u64>,
    ready: bool,
    /// Since when the task is ready, and whether it became ready by waking or arriving.
    ready_since: u64,
    woke: bool,
    /// The last reset of `used` was a boost (not the task's creation).
    boosted: bool,
    /// The running task's switch-in, and where the model counts its quantum from: the
    /// switch-in or a boost during the stint, with the CPU time used then.
    stint: Option<Stint>,
    /// The level the policy last reported (on `new`, `in`, `wake` or `state`), and when.
    shown: Option<(i64, u64)>,
    /// The level last reported was out of range when the task left the CPU: a move the
    /// policy did not report (if its next `in` or `wake` shows the right level) or a wrong
    /// level (if not: judged there).
    stale: Option<Stale>,
}

struct Stale {
    at: u64,
    check: &'static str,
    /// What is wrong if the next report is right (a move not reported) or wrong too.
    unreported: String,
    wrong: String,
    /// The model's boost count then: a boost before the next report leaves it undecided.
    boosts: u32,
}

#[derive(Clone, Copy)]
struct Stint {
    at: u64,
    base: u64,
    base_used: u64,
}

impl Task {
    fn used_at(&self, t: u64) -> u64 {
        self.used + self.running_since.map_or(0, |s| t.saturating_sub(s))
    }

    /// When this running task's CPU time reaches `used` (now, if it has).
    fn when_used(&self, used: u64, now: u64) -> u64 {
        match self.running_since {
            Some(since) => now.min(since + used.saturating_sub(self.used)),
            None => now,
        }
    }
}

pub fn check(args: &str, events: &[Event]) -> Result<Findings, String> {
    let ms = |key, default| args::int(args, key, default).map(|v| v * 1_000_000);
    let p = Params {
        levels: args::int(args, "lab.mlfq.levels", 3)?.clamp(1, 16) as u32,
        quantum: ms("lab.mlfq.quantum_ms", 2)?,
        allotment: ms("lab.mlfq.allotment_ms", 4)?,
        boost_every: ms("lab.mlfq.boost_ms", 100)?.max(1),
        tick: args::int(args, "tick_us", 1000)? * 1000,
    };
    let mut tasks: BTreeMap<u32, Task> = BTreeMap::new();
    let mut next_boost: Option<u64> = None;
    let mut last_boost: Option<u64> = None;
    let mut boosts = 0;
    let mut f = Findings::default();
    for e in by_time(events) {
        let t = e.time_ns;
        while let Some(due) = next_boost.filter(|&d| d <= t) {
            for k in tasks.values_mut() {
                k.used = 0;
                k.boosted = true;
                k.running_since = k.running_since.map(|_| due);
                if let Some(s) = &mut k.stint {
                    (s.base, s.base_used) = (due, 0);
                }
            }
            last_boost = Some(due);
            next_boost = Some(due + p.boost_every);
            boosts += 1;
        }
        // A policy boosts at its first tick after the boost is due: do not judge before.
        let settle_end = last_boost.map(|b| b + p.tick + p.tick / 10);
        let settling = settle_end.is_some_and(|end| t <= end);
        let reported = e.num("lvl");
        match e.kind {
            Kind::New => {
                next_boost.get_or_insert(t + p.boost_every);
                judge_new(&mut f, e);
                let shown = reported.map(|l| (l, t));
                tasks.insert(e.tid, Task { used: 0, running_since: None, ready: true, ready_since: t, woke: true, boosted: false, stint: None, shown, stale: None });
            }
            Kind::In => {
                unreported(&mut f, &p, &mut tasks, e, reported, boosts);
                if !settling {
                    judge_pick(&mut f, &p, &tasks, e);
                    judge_turn(&mut f, &p, &tasks, e, last_boost);
                    judge_level(&mut f, &p, &tasks, e, reported, last_boost);
                }
                if let Some(k) = tasks.get_mut(&e.tid) {
                    k.running_since = Some(t);
                    k.ready = false;
                    k.stint = Some(Stint { at: t, base: t, base_used: k.used });
                    k.shown = reported.map(|l| (l, t)).or(k.shown);
                }
            }
            Kind::Out => {
                if !tasks.contains_key(&e.tid) {
                    continue;
                }
                judge_stint(&mut f, &p, &tasks, e, settle_end);
                let stale = match tasks[&e.tid].shown {
                    Some((level, at)) if !settling => level_error(&p, &tasks[&e.tid], e, level, last_boost, Some(at)).err().map(|(check, unreported)| {
                        let wrong = level_error(&p, &tasks[&e.tid], e, level, last_boost, None).err().map_or(String::new(), |(_, w)| w);
                        Stale { at: t, check, unreported, wrong, boosts }
                    }),
                    _ => None,
                };
                let k = tasks.get_mut(&e.tid).unwrap();
                k.stale = stale;
                k.used = k.used_at(t);
                k.running_since = None;
                k.stint = None;
                k.ready = matches!(e.get("why"), Some("preempt" | "yield"));
                (k.ready_since, k.woke) = (t, false);
            }
            Kind::Wake => {
                unreported(&mut f, &p, &mut tasks, e, reported, boosts);
                if !settling {
                    judge_level(&mut f, &p, &tasks, e, reported, last_boost);
                }
                if let Some(k) = tasks.get_mut(&e.tid) {
                    (k.ready, k.ready_since, k.woke) = (true, t, true);
                    k.shown = reported.map(|l| (l, t)).or(k.shown);
                }
            }
            Kind::State => {
                if !settling && reported.is_some() {
                    judge_level(&mut f, &p, &tasks, e, reported, last_boost);
                }
                if let Some(k) = tasks.get_mut(&e.tid) {
                    k.shown = reported.map(|l| (l, t)).or(k.shown);
                }
            }
            Kind::Exit | Kind::Mark | Kind::Migrate | Kind::Lock | Kind::Boost | Kind::Unboost | Kind::Steal | Kind::Throttle | Kind::Unthrottle => {}
        }
    }
    Ok(f)
}

/// Rule 3: a new task reports level 0.
fn judge_new(f: &mut Findings, e: &Event) {
    match e.num("lvl") {
        Some(0) => f.checked("mlfq.new"),
        reported => {
            let got = reported.map_or(String::from("no lvl= field"), |l| format!("level {l}"));
            f.broke("mlfq.new", e.time_ns, "new task not at the top", format!("task {} is new: expected it to start at level 0, got {got}", e.tid));
        }
    }
}

fn judge_pick(f: &mut Findings, p: &Params, tasks: &BTreeMap<u32, Task>, e: &Event) {
    let Some(me) = tasks.get(&e.tid) else { return };
    let (lowest_mine, _) = p.range(me.used);
    let above = tasks.iter().filter(|(tid, k)| k.ready && **tid != e.tid).map(|(tid, k)| (*tid, p.range(k.used).1)).min_by_key(|&(tid, hi)| (hi, tid));
    match above {
        Some((other, hi)) if hi < lowest_mine => {
            let detail = format!("task {other} (level {hi} or above) was ready, but task {} (level {lowest_mine} or below) was picked", e.tid);
            f.broke("mlfq.pick", e.time_ns, "not the highest level", detail);
        }
        _ => f.checked("mlfq.pick"),
    }
}

/// Rule 2's turns: within a level, the task that has waited longest goes first (a task whose
/// quantum ran out, or that yielded, goes to the back of its level's queue). Judged only
/// between tasks surely at the same level that both became ready after the last boost (a
/// boost queues the lower levels' tasks after level 0's).
fn judge_turn(f: &mut Findings, p: &Params, tasks: &BTreeMap<u32, Task>, e: &Event, last_boost: Option<u64>) {
    let Some(me) = tasks.get(&e.tid) else { return };
    let level = match p.range(me.used) {
        (lo, hi) if lo == hi => lo,
        _ => return,
    };
    let after_boost = |k: &Task| last_boost.is_none_or(|b| k.ready_since > b);
    if !after_boost(me) {
        return;
    }
    let waited = tasks
        .iter()
        .filter(|(tid, k)| k.ready && **tid != e.tid && after_boost(k) && k.ready_since < me.ready_since && p.range(k.used) == (level, level))
        .min_by_key(|(tid, k)| (k.ready_since, **tid));
    match waited {
        Some((other, k)) => {
            let detail = format!(
                "task {other} had waited at level {level} since {} ns, task {} only since {} ns: a level takes turns (a task whose quantum ran out goes to the back of its level's queue), so expected task {other}, got task {}",
                k.ready_since, e.tid, me.ready_since, e.tid
            );
            f.broke("mlfq.quantum", e.time_ns, "not its turn", detail);
        }
        None => f.checked("mlfq.quantum"),
    }
}

/// The level a task reports on its event `e` against the range its CPU time allows.
fn judge_level(f: &mut Findings, p: &Params, tasks: &BTreeMap<u32, Task>, e: &Event, reported: Option<i64>, last_boost: Option<u64>) {
    let Some(k) = tasks.get(&e.tid) else { return };
    let Some(reported) = reported else {
        let check = if k.boosted && p.range(k.used_at(e.time_ns)).1 == 0 { "mlfq.boost" } else { "mlfq.level" };
        let detail = format!("task {}'s {} event has no lvl= field: report the level in describe()", e.tid, e.kind.as_str());
        f.broke(check, e.time_ns, "level not reported", detail);
        return;
    };
    match level_error(p, k, e, reported, last_boost, None) {
        Ok(check) => f.checked(check),
        Err((check, detail)) => f.broke(check, e.time_ns, if check == "mlfq.boost" { "boost not applied" } else { "wrong level" }, detail),
    }
}

/// Whether `reported` is a level task `k` may be at by `e`'s time: the check it falls
/// under, or that check and what is wrong. `shown_at`: the report is the last one the
/// policy made (at that time), judged when the task leaves the CPU.
fn level_error(p: &Params, k: &Task, e: &Event, reported: i64, last_boost: Option<u64>, shown_at: Option<u64>) -> Result<&'static str, (&'static str, String)> {
    let used = k.used_at(e.time_ns);
    let (lo, hi) = p.range(used);
    // Right after a boost (before the allotment of level 0 is used up) it is the boost's rule.
    let check = if k.boosted && hi == 0 { "mlfq.boost" } else { "mlfq.level" };
    if (lo as i64..=hi as i64).contains(&reported) {
        return Ok(check);
    }
    let expected = if lo == hi { format!("level {lo}") } else { format!("level {lo}..{hi}") };
    let since = match (k.boosted, last_boost) {
        (true, Some(b)) => format!("since the boost at {b} ns"),
        _ => String::from("since it was created"),
    };
    let detail = match shown_at {
        None => format!(
            "task {} reports level {reported}; it used {used} ns of CPU {since} (allotment {} ns at level 0, doubling per level), so expected {expected}",
            e.tid, p.allotment
        ),
        Some(at) => format!(
            "task {} ran until {} ns and used {used} ns of CPU {since} (allotment {} ns at level 0, doubling per level), so it was at {expected} by then, but the last level it reported (at {at} ns) was {reported}, and its next switch-in or wakeup shows the new level: report each change of level in milestone() too",
            e.tid, e.time_ns, p.allotment
        ),
    };
    Err((check, detail))
}

/// The task's level was out of range when it last left the CPU: if it now reports a right
/// level (and no boost came in between), the policy had moved it without a `state` event;
/// if not, the level was wrong, and already when the task left the CPU.
fn unreported(f: &mut Findings, p: &Params, tasks: &mut BTreeMap<u32, Task>, e: &Event, reported: Option<i64>, boosts: u32) {
    let Some(k) = tasks.get_mut(&e.tid) else { return };
    let Some(stale) = k.stale.take() else { return };
    if stale.boosts != boosts {
        return;
    }
    if reported.is_some_and(|l| level_error(p, k, e, l, None, None).is_ok()) {
        f.broke(stale.check, stale.at, "level change not reported", stale.unreported);
    } else {
        f.broke(stale.check, stale.at, if stale.check == "mlfq.boost" { "boost not applied" } else { "wrong level" }, stale.wrong);
    }
}

/// A stint ends (`e` is the `out`): rule 1 (a task that became ready above it took the CPU)
/// and rule 2 (its quantum, round robin).
fn judge_stint(f: &mut Findings, p: &Params, tasks: &BTreeMap<u32, Task>, e: &Event, settle_end: Option<u64>) {
    let me = &tasks[&e.tid];
    let Some(stint) = me.stint else { return };
    let t = e.time_ns;
    let settling = settle_end.is_some_and(|end| t <= end);
    let (lo, hi) = p.range(me.used_at(t));
    let ready = || tasks.iter().filter(|(tid, k)| k.ready && **tid != e.tid).map(|(tid, k)| (*tid, k, p.range(k.used)));

    // Rule 1: from when a ready task was surely above this one.
    let mut late: Option<(u64, String)> = None;
    for (tid, k, (_, hi_w)) in ready().filter(|&(_, _, (_, hi_w))| hi_w < lo) {
        let below_since = me.when_used(p.threshold(hi_w + 1) + p.lag(), t);
        let from = [below_since, k.ready_since, stint.at, settle_end.unwrap_or(0)].into_iter().max().unwrap();
        let at_once = k.woke && from == k.ready_since;
        let deadline = from + if at_once { crate::PREEMPT_SLACK_NS } else { p.tick + p.tick / 10 };
        if t > deadline && late.as_ref().is_none_or(|(d, _)| deadline < *d) {
            let how = if at_once {
                format!("task {tid} (level {hi_w} or above) {} at {from} ns", if k.ready_since == stint.at { "was ready" } else { "woke or arrived" })
            } else {
                format!("task {tid} (level {hi_w} or above) was ready, and from {from} ns task {} was surely below it", e.tid)
            };
            let when = if at_once { "at once" } else { "by the next tick" };
            late = Some((deadline, format!("{how}: a higher level runs first, so expected task {} (level {lo} or below) to be preempted {when}, but it ran on until {t} ns (why={})", e.tid, e.get("why").unwrap_or("?"))));
        }
    }
    match late {
        Some((deadline, detail)) => f.broke("mlfq.preempt", deadline, "a higher level waited", detail),
        None => f.checked("mlfq.preempt"),
    }

    // Rule 2, early: preempted before its quantum with nothing above it ready.
    let ran = t - stint.at;
    if e.get("why") == Some("preempt") && !settling {
        let (lowest, _) = p.range(me.used_at(t).saturating_sub(p.tick));
        let quantum = p.quantum(lowest);
        let above = ready().any(|(_, _, (lo_w, _))| lo_w < hi);
        if ran + 1_000 < quantum && !above {
            let detail = format!(
                "task {} (level {lowest} or below: quantum {quantum} ns, doubling per level from {} ns) was preempted after {ran} ns, before its quantum was used up, while no task of a higher level was ready",
                e.tid, p.quantum
            );
            f.broke("mlfq.quantum", t, "preempted before its quantum", detail);
        } else {
            f.checked("mlfq.quantum");
        }
    }
    // Rule 2, late: at some level the task surely reached and had not surely left, its
    // quantum ran out (counted from the switch-in, or from the move to that level at the
    // latest) while a task of that level or above was ready.
    let tick = p.tick + p.tick / 10;
    let mut late: Option<(u64, u32, u32)> = None;
    for level in 0..p.levels {
        // The policy has moved it to `level` by `entered` (a tick late per level at most) and
        // moves it on no earlier than `leaves`.
        let entered = stint.base + (p.threshold(level) + level as u64 * tick).saturating_sub(stint.base_used);
        let leaves = if level + 1 < p.levels { stint.base + p.until(level + 1, stint.base_used) } else { u64::MAX };
        for (tid, k, _) in ready().filter(|&(_, _, (_, hi_w))| hi_w <= level) {
            let deadline = (entered + p.quantum(level)).max(k.ready_since) + tick;
            if deadline <= leaves && t > deadline && late.is_none_or(|(d, ..)| deadline < d) {
                late = Some((deadline, tid, level));
            }
        }
    }
    match late {
        Some((deadline, other, level)) => {
            let detail = format!(
                "task {} ran from {} ns until {t} ns (why={}), at level {level} (quantum {} ns, doubling per level from {} ns) from {} ns at the latest, while task {other} of that level or above was ready: a level takes turns, so expected it to give up the CPU once its quantum was used up (by {deadline} ns)",
                e.tid,
                stint.at,
                e.get("why").unwrap_or("?"),
                p.quantum(level),
                p.quantum,
                stint.base + (p.threshold(level) + level as u64 * tick).saturating_sub(stint.base_used),
            );
            f.broke("mlfq.quantum", deadline, "quantum never ran out", detail);
        }
        None => f.checked("mlfq.quantum"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use runqueue_report::trace::parse;

    /// Three levels, quanta 2/4/8 ms, allotments 4/8/16 ms, a 1 ms tick.
    const ARGS: &str = "lab.mlfq.levels=3 lab.mlfq.quantum_ms=2 lab.mlfq.allotment_ms=4 lab.mlfq.boost_ms=1000";

    /// Two busy loops take turns at level 0 with its 2 ms quantum (each preempted at the
    /// first tick after it), then exit.
    const TURNS: &str = "T 0 0 new 1 lvl=0
T 0 0 new 2 lvl=0
T 10 0 in 1 lvl=0
T 2500010 0 out 1 why=preempt ran=2500000
T 2500020 0 in 2 lvl=0
T 5000020 0 out 2 why=preempt ran=2500000
T 5000030 0 in 1 lvl=0
T 6000030 0 out 1 why=exit ran=1000000
T 6000040 0 in 2 lvl=0
T 7000040 0 out 2 why=exit ran=1000000";

    /// A busy loop alone sinks to level 2 (reporting each move); at 20 ms task 2 arrives at
    /// level 0 and takes the CPU at once; the loop comes back when it exits.
    const ARRIVAL: &str = "T 0 0 new 1 lvl=0
T 10 0 in 1 lvl=0
T 4000010 0 state 1 lvl=1
T 12000010 0 state 1 lvl=2
T 20000010 0 new 2 lvl=0
T 20020010 0 out 1 why=preempt ran=20020000
T 20020020 0 in 2 lvl=0
T 21020020 0 out 2 why=exit ran=1000000
T 21020030 0 in 1 lvl=2
T 22020030 0 out 1 why=exit ran=1000000";

    /// With a 10 ms boost: a task that sank to level 1 and slept is back at level 0.
    const BOOST: &str = "T 0 0 new 1 lvl=0
T 10 0 in 1 lvl=0
T 4000010 0 state 1 lvl=1
T 9000010 0 out 1 why=sleep ran=9000000
T 12000000 0 wake 1 lvl=0
T 12000010 0 in 1 lvl=0
T 13000010 0 out 1 why=exit ran=1000000";

    /// The first violation of `name` in the trace, after checking it judged something.
    fn first_violation(args: &str, text: &str, name: &str) -> Option<String> {
        let f = check(args, &parse(text).unwrap()).unwrap();
        let (count, violation) = f.0.get(name).cloned().unwrap_or_else(|| panic!("{name} judged nothing"));
        assert!(count > 0);
        violation.map(|v| v.detail)
    }

    fn fails(args: &str, text: &str, name: &str, says: &str) {
        let why = first_violation(args, text, name).unwrap_or_else(|| panic!("{name} passed:\n{text}"));
        assert!(why.contains(says), "{why}");
    }

    #[test]
    fn the_right_schedules_pass() {
        for name in ["mlfq.pick", "mlfq.new", "mlfq.preempt", "mlfq.quantum", "mlfq.level"] {
            assert_eq!(first_violation(ARGS, ARRIVAL, name), None, "{name}");
        }
        for name in ["mlfq.pick", "mlfq.new", "mlfq.preempt", "mlfq.quantum"] {
            assert_eq!(first_violation(ARGS, TURNS, name), None, "{name}");
        }
        let boost = ARGS.replace("boost_ms=1000", "boost_ms=10");
        assert_eq!(first_violation(&boost, BOOST, "mlfq.boost"), None);
    }

    #[test]
    fn a_lower_level_picked() {
        let text = ARRIVAL.replace("T 20020020 0 in 2 lvl=0", "T 20020020 0 in 1 lvl=2");
        fails(ARGS, &text, "mlfq.pick", "task 2 (level 0 or above) was ready, but task 1 (level 2 or below) was picked");
    }

    #[test]
    fn a_new_task_not_at_the_top() {
        fails(ARGS, &ARRIVAL.replace("new 2 lvl=0", "new 2 lvl=2"), "mlfq.new", "task 2 is new: expected it to start at level 0, got level 2");
    }

    #[test]
    fn levels_follow_the_allotment_and_are_reported() {
        // Still at level 1 when it comes back: it never moved down to level 2.
        let stuck = ARRIVAL.replace("state 1 lvl=2", "state 1 lvl=1").replace("in 1 lvl=2", "in 1 lvl=1");
        fails(ARGS, &stuck, "mlfq.level", "task 1 reports level 1; it used 20020000 ns of CPU since it was created (allotment 4000000 ns at level 0, doubling per level), so expected level 2");
        // It did move down (it says so when it comes back), but no state event said so.
        let unreported = ARRIVAL.replace("T 12000010 0 state 1 lvl=2\n", "");
        fails(ARGS, &unreported, "mlfq.level", "the last level it reported (at 4000010 ns) was 1, and its next switch-in or wakeup shows the new level: report each change of level in milestone() too");
        fails(ARGS, &ARRIVAL.replace("in 1 lvl=2", "in 1"), "mlfq.level", "task 1's in event has no lvl= field");
    }

    #[test]
    fn a_boost_lifts_every_task() {
        let boost = ARGS.replace("boost_ms=1000", "boost_ms=10");
        let text = BOOST.replace("wake 1 lvl=0", "wake 1 lvl=1");
        fails(&boost, &text, "mlfq.boost", "task 1 reports level 1; it used 0 ns of CPU since the boost at 10000000 ns");
    }

    #[test]
    fn a_task_above_takes_the_cpu() {
        let late = ARRIVAL
            .replace("T 20020010 0 out 1 why=preempt ran=20020000", "T 20500010 0 out 1 why=preempt ran=20500000")
            .replace("T 20020020 0 in 2", "T 20500020 0 in 2");
        fails(ARGS, &late, "mlfq.preempt", "task 2 (level 0 or above) woke or arrived at 20000010 ns: a higher level runs first, so expected task 1 (level 2 or below) to be preempted at once, but it ran on until 20500010 ns");
    }

    #[test]
    fn a_level_takes_turns_with_its_quantum() {
        // Task 1 keeps the CPU for its whole allotment at level 0 while task 2 waits there.
        let no_turns = "T 0 0 new 1 lvl=0
T 0 0 new 2 lvl=0
T 10 0 in 1 lvl=0
T 4000010 0 state 1 lvl=1
T 4500010 0 out 1 why=preempt ran=4500000
T 4500020 0 in 2 lvl=0
T 7000020 0 out 2 why=exit ran=2500000";
        fails(ARGS, no_turns, "mlfq.quantum", "while task 2 of that level or above was ready: a level takes turns, so expected it to give up the CPU once its quantum was used up (by 3100010 ns)");
        // Task 1's quantum runs out, and it is picked again while task 2 waits at its level.
        let again = TURNS.replace("T 2500020 0 in 2 lvl=0", "T 2500020 0 in 1 lvl=0");
        fails(ARGS, &again, "mlfq.quantum", "task 2 had waited at level 0 since 0 ns, task 1 only since 2500010 ns: a level takes turns (a task whose quantum ran out goes to the back of its level's queue), so expected task 2, got task 1");
        // Task 1 is preempted after 1 ms of its 2 ms quantum, with nothing above it.
        let early = TURNS.replace("T 2500010 0 out 1 why=preempt ran=2500000", "T 1000010 0 out 1 why=preempt ran=1000000");
        fails(ARGS, &early, "mlfq.quantum", "task 1 (level 0 or below: quantum 2000000 ns, doubling per level from 2000000 ns) was preempted after 1000000 ns, before its quantum was used up");
    }
}
