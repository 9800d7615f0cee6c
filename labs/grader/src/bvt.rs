//! The BVT lab's reference model: each task's actual virtual time A from the core's `ran=`
//! figures, SVT (the smallest A among runnable tasks, never decreasing), and the decisions
//! BVT must make with them: a waking task is placed at max(A, SVT), every switch-in takes
//! the ready task with the smallest effective virtual time E = A - W (ties: the lowest tid),
//! and the running task is switched out exactly when a ready task's E is the context-switch
//! allowance C below its own (at a wakeup, or at the next tick as its E grows).
//!
//! The kernel charges the running task at its ticks (and when a wakeup may preempt it), so
//! the SVT a policy sees at a wakeup lags the true one by up to a tick of the running task's
//! CPU time: the model keeps SVT as a range, and a placement anywhere in it is right. The
//! placement the policy reports is then taken as the task's A (it is within the range), so
//! one tick's slack never grows into a drift.

use crate::args;
use crate::lab::Findings;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use runqueue_report::props::by_time;
use runqueue_report::trace::{Event, Kind};

pub const CHECKS: &[(&str, &str)] = &[
    ("bvt.place", "a new task starts at SVT and a waking task is placed at max(A, SVT): a sleeper keeps no credit"),
    ("bvt.pick", "every switch-in takes the ready task with the smallest E = A - W (warp honoured), and reports that E"),
    ("bvt.charge", "A grows by exactly the CPU time the task runs: the avt= it reports when switched in"),
    ("bvt.tie", "between ready tasks with the same E, the lowest tid is picked"),
    ("bvt.csa", "a tick or a wakeup switches only when a ready task's E is at least C below the running task's, and then does (at the wakeup, or by the next tick)"),
];

/// Virtual times may differ from the model by this much (rounding, a charge landing a few
/// instructions later than the trace's timestamp).
const SLACK_NS: u64 = 1_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// In the queue since `since`; `woke`: it got there by waking or arriving.
    Ready { since: u64, woke: bool },
    /// Running since `since` with A = `avt_in` then; the policy was last charged exactly
    /// at `charged` (the switch-in or a wakeup that may preempt it).
    Running { since: u64, avt_in: u64, charged: u64 },
    Asleep,
}

struct Task {
    /// A, exact while the task is not running.
    avt: u64,
    warp: u64,
    state: State,
    /// A task that woke or arrived while this one ran with its E at least C below.
    due: Option<Due>,
    /// The start of its last stint, if it has run since it last reported its A (on `new`,
    /// `wake` or `in`): the A it reports next includes that stint's charges.
    charged_since: Option<u64>,
}

#[derive(Clone, Copy)]
struct Due {
    woken: u32,
    at: u64,
    woken_evt: i64,
    running_evt: i64,
}

impl Task {
    fn evt(&self) -> i64 {
        self.avt as i64 - self.warp as i64
    }

    fn ready(&self) -> bool {
        matches!(self.state, State::Ready { .. })
    }

    /// E of this task at `t` (exact: the CPU time it ran up to `t`).
    fn evt_at(&self, t: u64) -> i64 {
        match self.state {
            State::Running { since, avt_in, .. } => (avt_in + t.saturating_sub(since)) as i64 - self.warp as i64,
            _ => self.evt(),
        }
    }

    /// The least and the most A the policy can hold for this task at `t`: a running task was
    /// charged at its last tick, at most a tick (plus the handler's delay) ago.
    fn charged_range(&self, t: u64, tick: u64) -> (u64, u64) {
        match self.state {
            State::Running { since, avt_in, charged } => {
                let upto = |at: u64| avt_in + at.saturating_sub(since);
                (upto(charged.max(t.saturating_sub(tick))), upto(t))
            }
            _ => (self.avt, self.avt),
        }
    }
}

/// SVT as the range of values the policy may hold.
#[derive(Default, Clone, Copy)]
struct Svt {
    lo: u64,
    hi: u64,
}

impl Svt {
    /// Folds in the runnable tasks' A at `t` (SVT never decreases).
    fn update(&mut self, tasks: &BTreeMap<u32, Task>, t: u64, tick: u64) {
        let runnable = tasks.values().filter(|k| k.state != State::Asleep).map(|k| k.charged_range(t, tick));
        let (lo, hi) = runnable.fold((u64::MAX, u64::MAX), |(lo, hi), (l, h)| (lo.min(l), hi.min(h)));
        if lo != u64::MAX {
            self.lo = self.lo.max(lo);
            self.hi = self.hi.max(hi);
        }
    }
}

pub fn check(args: &str, events: &[Event]) -> Result<Findings, String> {
    // A tick plus a tenth of one: the handler runs a little after the timer fires.
    let tick = args::int(args, "tick_us", 1000)? * 1100;
    let csa = args::int(args, "lab.bvt.csa_us", 1000)? * 1000;
    let warps = warp_list(args)?;
    let mut tasks: BTreeMap<u32, Task> = BTreeMap::new();
    let mut svt = Svt::default();
    let mut f = Findings::default();
    for e in by_time(events) {
        let t = e.time_ns;
        match e.kind {
            Kind::New | Kind::Wake => {
                let slept = match e.kind {
                    Kind::Wake => match tasks.get(&e.tid) {
                        Some(k) => Some(k.avt),
                        None => continue,
                    },
                    _ => None,
                };
                svt.update(&tasks, t, tick);
                let placed = judge_place(&mut f, e, slept, svt);
                // Warps are given in creation order, which is tid order (a task that arrives
                // late with `arrive_ms=` is `new` later, but keeps its tid).
                let warp = warps.get((e.tid as usize).wrapping_sub(1)).copied().unwrap_or(0);
                let k = tasks.entry(e.tid).or_insert(Task { avt: 0, warp, state: State::Asleep, due: None, charged_since: None });
                k.avt = placed;
                k.charged_since = None;
                k.state = State::Ready { since: t, woke: true };
                let woken_evt = k.evt();
                // The core charges the running task before asking whether the wakeup (or
                // the arrival) preempts it.
                for k in tasks.values_mut() {
                    if let State::Running { charged, .. } = &mut k.state {
                        *charged = t;
                        let running_evt = k.evt_at(t);
                        if woken_evt + csa as i64 + SLACK_NS as i64 <= running_evt {
                            k.due.get_or_insert(Due { woken: e.tid, at: t, woken_evt, running_evt });
                        }
                    }
                }
                svt.update(&tasks, t, tick);
            }
            Kind::In => {
                judge_charge(&mut f, &mut tasks, e);
                judge_tie(&mut f, &tasks, e);
                judge_pick(&mut f, &tasks, e);
                if let Some(k) = tasks.get_mut(&e.tid) {
                    k.state = State::Running { since: t, avt_in: k.avt, charged: t };
                    k.due = None;
                    k.charged_since = Some(t);
                }
            }
            Kind::Out => {
                if tasks.get(&e.tid).is_some_and(|k| matches!(k.state, State::Running { .. })) {
                    judge_switch(&mut f, &tasks, e, csa, tick);
                }
                let Some(k) = tasks.get_mut(&e.tid) else { continue };
                if let State::Running { avt_in, .. } = k.state {
                    k.avt = avt_in + e.num("ran").unwrap_or(0).max(0) as u64;
                }
                // Charged (still runnable), then out of the queue if it sleeps or ends.
                k.state = State::Ready { since: t, woke: false };
                svt.update(&tasks, t, tick);
                let stays = matches!(e.get("why"), Some("preempt" | "yield"));
                if let Some(k) = tasks.get_mut(&e.tid).filter(|_| !stays) {
                    k.state = State::Asleep;
                }
                svt.update(&tasks, t, tick);
            }
            Kind::Exit | Kind::Mark | Kind::State | Kind::Migrate | Kind::Lock | Kind::Boost | Kind::Unboost | Kind::Steal | Kind::Throttle | Kind::Unthrottle => {}
        }
    }
    Ok(f)
}

/// The `warp_us=` list (µs, in creation order) as ns.
fn warp_list(args: &str) -> Result<Vec<u64>, String> {
    let Some(list) = args::find(args, "warp_us") else { return Ok(Vec::new()) };
    list.split(',').map(|w| w.parse::<u64>().map(|us| us * 1000).map_err(|_| format!("warp_us={list} is not a list of whole numbers"))).collect()
}

/// Checks the A a task reports on `new` (`slept_at: None`, expected SVT) or `wake`
/// (expected max(A, SVT)); returns the A the model carries on with: the reported one, so
/// that a wrong placement is judged once and the other checks judge their own rules.
fn judge_place(f: &mut Findings, e: &Event, slept_at: Option<u64>, svt: Svt) -> u64 {
    let own = slept_at.unwrap_or(0);
    let (lo, hi) = (own.max(svt.lo), own.max(svt.hi));
    let reported = e.num("avt").and_then(|v| u64::try_from(v).ok());
    match reported {
        Some(a) if a + SLACK_NS >= lo && a <= hi + SLACK_NS => {
            f.checked("bvt.place");
            a
        }
        _ => {
            let expected = if lo == hi { format!("{lo}") } else { format!("{lo}..{hi}") };
            let got = reported.map_or(String::from("no avt= field"), |a| format!("avt={a}"));
            let svt_text = if svt.lo == svt.hi { format!("{}", svt.lo) } else { format!("{}..{}", svt.lo, svt.hi) };
            let off = match reported {
                Some(r) if slept_at.is_some_and(|a| r < a) => format!(" ({} ns behind its own A: sleeping never moves a task back in virtual time)", lo - r),
                Some(r) if r < lo => format!(" ({} ns behind{})", lo - r, if slept_at.is_some() { ": a sleeper credit?" } else { "" }),
                Some(r) => format!(" ({} ns ahead)", r - hi),
                None => String::new(),
            };
            let detail = match slept_at {
                Some(a) => format!("task {} woke with A={a} while SVT was {svt_text}: expected A = max(A, SVT) = {expected} ns, got {got}{off}", e.tid),
                None => format!("task {} was created while SVT was {svt_text}: expected it to start at A = SVT = {expected} ns, got {got}{off}", e.tid),
            };
            f.broke("bvt.place", e.time_ns, if slept_at.is_some() { "wrong wakeup placement" } else { "wrong start" }, detail);
            reported.unwrap_or((lo + hi) / 2)
        }
    }
}

/// Rule 1: the A a task reports when switched in is its CPU time (plus its placements).
/// A wrong charge shows only when the task reports its A again, but it went wrong in the
/// stint before, and decisions since then followed from it: the violation is dated at the
/// start of that stint. The model carries on with the reported A.
fn judge_charge(f: &mut Findings, tasks: &mut BTreeMap<u32, Task>, e: &Event) {
    let Some(me) = tasks.get_mut(&e.tid) else { return };
    match e.num("avt").and_then(|v| u64::try_from(v).ok()) {
        Some(a) if a.abs_diff(me.avt) <= SLACK_NS => f.checked("bvt.charge"),
        reported => {
            let got = reported.map_or(String::from("no avt= field"), |a| format!("avt={a}"));
            let (at, when) = match me.charged_since {
                Some(since) => (since, format!("its stint from {since} ns was charged: when switched in again at {} ns", e.time_ns)),
                None => (e.time_ns, String::from("when switched in")),
            };
            let detail = format!(
                "task {} has A={} by the model (its placements plus the CPU time it ran, from the trace's ran=), but {when} it reports {got}: A grows by exactly the CPU time charged",
                e.tid, me.avt
            );
            f.broke("bvt.charge", at, "A is not the CPU time", detail);
            if let Some(a) = reported {
                me.avt = a;
            }
        }
    }
}

/// Rule 3's tie: among ready tasks with the same E, the lowest tid. Only ties count.
fn judge_tie(f: &mut Findings, tasks: &BTreeMap<u32, Task>, e: &Event) {
    let Some(me) = tasks.get(&e.tid) else { return };
    let Some(lowest) = tasks.iter().find(|(tid, k)| k.ready() && **tid != e.tid && k.evt() == me.evt()).map(|(tid, _)| *tid) else { return };
    if lowest < e.tid {
        let detail = format!("tasks {lowest} and {} both have E={}: expected the lower tid, task {lowest}, got task {}", e.tid, me.evt(), e.tid);
        f.broke("bvt.tie", e.time_ns, "tie not to the lowest tid", detail);
    } else {
        f.checked("bvt.tie");
    }
}

fn judge_pick(f: &mut Findings, tasks: &BTreeMap<u32, Task>, e: &Event) {
    let Some(me) = tasks.get(&e.tid) else { return };
    let best = tasks.iter().filter(|(tid, k)| k.ready() && **tid != e.tid).min_by_key(|(tid, k)| (k.evt(), **tid));
    if let Some((other, k)) = best.filter(|(_, k)| k.evt() + (SLACK_NS as i64) < me.evt()) {
        let warp = |k: &Task| if k.warp > 0 { format!(" = A {} - warp {}", k.avt, k.warp) } else { String::new() };
        let detail = format!("task {other} (E={}{}) was ready, but task {} (E={}{}) was picked", k.evt(), warp(k), e.tid, me.evt(), warp(me));
        f.broke("bvt.pick", e.time_ns, "not the smallest effective virtual time", detail);
        return;
    }
    match e.num("evt") {
        Some(r) if r.abs_diff(me.evt()) <= SLACK_NS => f.checked("bvt.pick"),
        reported => {
            let got = reported.map_or(String::from("no evt= field"), |r| format!("evt={r}"));
            let detail = format!("task {} was picked with A={} and warp {}: expected it to report evt={} (E = A - W), got {got}", e.tid, me.avt, me.warp, me.evt());
            f.broke("bvt.pick", e.time_ns, "wrong effective virtual time", detail);
        }
    }
}

/// Rule 3's C: the running task's stint ends (`e` is its `out`). A preemption needs a ready
/// task whose E is at least C below the running one's; and once one is, the running task
/// must go: at the wakeup that brought it, or by the next tick as the running E grows.
fn judge_switch(f: &mut Findings, tasks: &BTreeMap<u32, Task>, e: &Event, csa: u64, tick: u64) {
    let me = &tasks[&e.tid];
    let State::Running { since, .. } = me.state else { return };
    let t = e.time_ns;
    let why = e.get("why").unwrap_or("?");
    let (c, slack) = (csa as i64, SLACK_NS as i64);
    let running_evt = me.evt_at(t);
    let ready = || tasks.iter().filter(|(tid, k)| k.ready() && **tid != e.tid);
    if why == "preempt" {
        let best = ready().min_by_key(|(tid, k)| (k.evt(), **tid));
        match best {
            Some((_, k)) if k.evt() <= running_evt - c + slack => f.checked("bvt.csa"),
            _ => {
                let smallest = best.map_or(String::from("no task was ready"), |(tid, k)| format!("the smallest ready E was task {tid}'s, {}", k.evt()));
                let detail = format!(
                    "task {} (E={running_evt}) was preempted at {t} ns, but {smallest}: expected it to keep the CPU until a ready task's E is at least C={csa} ns below its own",
                    e.tid
                );
                f.broke("bvt.csa", t, "switched within the allowance C", detail);
                return;
            }
        }
    }
    // Leaving the CPU for any reason within the slack is as good as the preemption.
    if let Some(d) = me.due.filter(|d| t > d.at + crate::PREEMPT_SLACK_NS) {
        let detail = format!(
            "task {} woke at {} ns with E={}, at least C={csa} ns below running task {}'s E={}: expected task {} to be preempted at once, but it ran on until {t} ns (why={why})",
            d.woken, d.at, d.woken_evt, e.tid, d.running_evt, e.tid
        );
        f.broke("bvt.csa", d.at, "a wakeup did not switch", detail);
        return;
    }
    // As the running task runs its E grows; the first tick after it is C above a ready
    // task's E switches.
    let evt_in = me.evt_at(since);
    let mut late: Option<(u64, u32, i64, u64)> = None;
    for (&tid, k) in ready() {
        let State::Ready { since: ready_since, .. } = k.state else { continue };
        let crossing = since + (k.evt() + c - evt_in).max(0) as u64;
        let deadline = crossing.max(ready_since) + tick + SLACK_NS;
        if t > deadline && late.is_none_or(|(d, ..)| deadline < d) {
            late = Some((deadline, tid, k.evt(), crossing.max(ready_since)));
        }
    }
    match late {
        Some((deadline, other, evt, from)) => {
            let detail = format!(
                "task {other} (E={evt}) was ready, and from {from} ns running task {}'s E was at least C={csa} ns above it: expected a tick to switch (by {deadline} ns), but task {} ran on until {t} ns (why={why}, E={running_evt})",
                e.tid, e.tid
            );
            f.broke("bvt.csa", deadline, "a tick did not switch", detail);
        }
        None => f.checked("bvt.csa"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use runqueue_report::trace::parse;

    /// Task 2 is warped by 4 ms. It runs 2 ms and (E = -2 ms being the smallest) 5 ms more;
    /// task 1 runs briefly and sleeps; 2 ms into task 2's next stint task 1 wakes, when the
    /// policy's SVT (task 2's A, charged at its last tick) is 7.9-9 ms.
    const RIGHT: &str = "T 0 0 new 1 avt=0 evt=0
T 0 0 new 2 avt=0 evt=-4000000
T 10 0 in 2 avt=0 evt=-4000000
T 2000010 0 out 2 why=preempt ran=2000000
T 2000020 0 in 2 avt=2000000 evt=-2000000
T 7000020 0 out 2 why=preempt ran=5000000
T 7000030 0 in 1 avt=0 evt=0
T 7000040 0 out 1 why=sleep ran=10
T 7000050 0 in 2 avt=7000000 evt=3000000
T 9000050 0 wake 1 avt=9000000 evt=9000000";

    /// The first violation of `name` in the trace, after checking it judged something.
    fn first_violation(text: &str, name: &str) -> Option<String> {
        let f = check("warp_us=0,4000", &parse(text).unwrap()).unwrap();
        let (count, violation) = f.0.get(name).cloned().unwrap();
        assert!(count > 0);
        violation.map(|v| v.detail)
    }

    #[test]
    fn the_right_schedule_passes() {
        assert_eq!(first_violation(RIGHT, "bvt.place"), None);
        assert_eq!(first_violation(RIGHT, "bvt.pick"), None);
    }

    #[test]
    fn a_sleeper_credit_is_a_wrong_placement() {
        let credit = RIGHT.replace("wake 1 avt=9000000", "wake 1 avt=6000000");
        let why = first_violation(&credit, "bvt.place").unwrap();
        assert!(why.contains("expected A = max(A, SVT) = 7900000..9000000 ns, got avt=6000000 (1900000 ns behind"), "{why}");
    }

    /// Two unwarped busy loops, C = 1 ms: the tie at the start goes to task 1; each runs
    /// until the first tick after its E is C above the other's. Task 1 sleeps and wakes at
    /// 6 ms placed at SVT = 3.8 ms (task 2's A at its last tick), only 0.2 ms below task 2's
    /// E: no switch then; task 2 goes at the first tick after its E reaches 4.8 ms.
    const SHARE: &str = "T 0 0 new 1 avt=0 evt=0
T 0 0 new 2 avt=0 evt=0
T 10 0 in 1 avt=0 evt=0
T 1500010 0 out 1 why=preempt ran=1500000
T 1500020 0 in 2 avt=0 evt=0
T 4300020 0 out 2 why=preempt ran=2800000
T 4300030 0 in 1 avt=1500000 evt=1500000
T 4800030 0 out 1 why=sleep ran=500000
T 4800040 0 in 2 avt=2800000 evt=2800000
T 6000040 0 wake 1 avt=3800000 evt=3800000
T 6900040 0 out 2 why=preempt ran=2100000
T 6900050 0 in 1 avt=3800000 evt=3800000
T 7900050 0 out 1 why=exit ran=1000000
T 7900060 0 in 2 avt=4900000 evt=4900000
T 8900060 0 out 2 why=exit ran=1000000";

    /// Task 1 sleeps early and wakes at 3.1 ms, placed at SVT = 2 ms (task 2's A at its
    /// tick at 2.5 ms): its E is at least C = 0.5 ms below running task 2's 2.6 ms, so it
    /// takes the CPU at once.
    const WAKEUP: &str = "T 0 0 new 1 avt=0 evt=0
T 0 0 new 2 avt=0 evt=0
T 10 0 in 1 avt=0 evt=0
T 500010 0 out 1 why=sleep ran=500000
T 500020 0 in 2 avt=0 evt=0
T 3100020 0 wake 1 avt=2000000 evt=2000000
T 3120020 0 out 2 why=preempt ran=2620000
T 3120030 0 in 1 avt=2000000 evt=2000000
T 4120030 0 out 1 why=exit ran=1000000
T 4120040 0 in 2 avt=2620000 evt=2620000
T 5120040 0 out 2 why=exit ran=1000000";

    fn fails(args: &str, text: &str, name: &str, says: &str) {
        let f = check(args, &parse(text).unwrap()).unwrap();
        let why = f.0.get(name).and_then(|(_, v)| v.clone()).unwrap_or_else(|| panic!("{name} passed:\n{text}")).detail;
        assert!(why.contains(says), "{why}");
    }

    fn passes(args: &str, text: &str, name: &str) {
        let f = check(args, &parse(text).unwrap()).unwrap();
        let (count, violation) = f.0.get(name).cloned().unwrap_or_else(|| panic!("{name} judged nothing"));
        assert!(count > 0 && violation.is_none(), "{name}: {violation:?}");
    }

    #[test]
    fn the_right_schedules_pass_the_other_checks() {
        for name in ["bvt.place", "bvt.pick", "bvt.charge", "bvt.tie", "bvt.csa"] {
            passes("lab.bvt.csa_us=1000", SHARE, name);
        }
        for name in ["bvt.place", "bvt.pick", "bvt.charge", "bvt.tie", "bvt.csa"] {
            passes("lab.bvt.csa_us=500", WAKEUP, name);
        }
    }

    #[test]
    fn a_wrong_charge_is_dated_at_the_stint_it_came_from() {
        let text = SHARE.replace("in 1 avt=1500000 evt=1500000", "in 1 avt=1600000 evt=1600000");
        fails("", &text, "bvt.charge", "task 1 has A=1500000 by the model (its placements plus the CPU time it ran, from the trace's ran=), but its stint from 10 ns was charged");
        let f = check("", &parse(&text).unwrap()).unwrap();
        assert_eq!(f.0["bvt.charge"].1.as_ref().unwrap().time_ns, 10);
    }

    #[test]
    fn a_tie_to_the_higher_tid() {
        let text = SHARE.replace("T 10 0 in 1 avt=0 evt=0", "T 10 0 in 2 avt=0 evt=0");
        fails("", &text, "bvt.tie", "tasks 1 and 2 both have E=0: expected the lower tid, task 1, got task 2");
    }

    #[test]
    fn a_new_task_starts_at_svt() {
        let late = "T 0 0 new 1 avt=0 evt=0
T 10 0 in 1 avt=0 evt=0
T 5000010 0 out 1 why=sleep ran=5000000
T 8000000 0 new 2 avt=0 evt=0";
        fails("", late, "bvt.place", "task 2 was created while SVT was 5000000: expected it to start at A = SVT = 5000000 ns, got avt=0 (5000000 ns behind)");
        passes("", &late.replace("new 2 avt=0", "new 2 avt=5000000"), "bvt.place");
    }

    #[test]
    fn the_allowance_c() {
        // Switched although the other's E was not C below.
        let needless = SHARE.replace("T 4300020 0 out 2 why=preempt ran=2800000", "T 3000020 0 out 2 why=preempt ran=1500000");
        fails("lab.bvt.csa_us=1000", &needless, "bvt.csa", "task 2 (E=1500000) was preempted at 3000020 ns, but the smallest ready E was task 1's, 1500000: expected it to keep the CPU until a ready task's E is at least C=1000000 ns below its own");
        // Kept the CPU past the tick after its E was C above the other's.
        let late = "T 0 0 new 1 avt=0 evt=0
T 0 0 new 2 avt=0 evt=0
T 10 0 in 1 avt=0 evt=0
T 1500010 0 out 1 why=preempt ran=1500000
T 1500020 0 in 2 avt=0 evt=0
T 6000020 0 out 2 why=preempt ran=4500000";
        fails("lab.bvt.csa_us=1000", late, "bvt.csa", "task 1 (E=1500000) was ready, and from 4000020 ns running task 2's E was at least C=1000000 ns above it: expected a tick to switch (by 5101020 ns)");
        // A wakeup C below that waits for a tick.
        let until_wakeup = &WAKEUP[..WAKEUP.find("T 3120020").unwrap()];
        let waited = format!("{until_wakeup}T 3500020 0 out 2 why=preempt ran=3000000");
        fails("lab.bvt.csa_us=500", &waited, "bvt.csa", "task 1 woke at 3100020 ns with E=2000000, at least C=500000 ns below running task 2's E=2600000: expected task 2 to be preempted at once");
        // With C = 1 ms the same wakeup is no reason to switch.
        fails("lab.bvt.csa_us=1000", WAKEUP, "bvt.csa", "task 2 (E=2620000) was preempted at 3120020 ns");
    }

    #[test]
    fn ignoring_warp_is_caught_in_the_picks_and_the_reported_e() {
        let by_a = RIGHT.replace("T 2000020 0 in 2 avt=2000000 evt=-2000000", "T 2000020 0 in 1 avt=0 evt=0");
        let why = first_violation(&by_a, "bvt.pick").unwrap();
        assert!(why.contains("task 2 (E=-2000000 = A 2000000 - warp 4000000) was ready, but task 1 (E=0) was picked"), "{why}");
        let unwarped = RIGHT.replace("in 2 avt=0 evt=-4000000", "in 2 avt=0 evt=0");
        let why = first_violation(&unwarped, "bvt.pick").unwrap();
        assert!(why.contains("expected it to report evt=-4000000"), "{why}");
    }
}
