//! The SJF lab's reference model: each task's predicted burst, recomputed from the bursts
//! the core measured (`ran=` summed from a switch-in to the next yield or sleep, across
//! preemptions), and the decisions SJF/SRTF must make with those predictions: the pick (ties
//! to the lowest tid) and, with `preempt=1`, a preemption at each wakeup or arrival that
//! calls for one and at no other time.
//!
//! The model knows exactly what the policy knew: the core charges a running task when it is
//! switched out and when a wakeup may preempt it, at the very times the trace shows, and the
//! handout fixes the integer formula. So every reported prediction is compared exactly, and
//! which decisions are judged (a tie, a wakeup that calls for a preemption) follows from the
//! model's predictions alone, never from what the policy reported.

use crate::args;
use crate::lab::Findings;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use runqueue_report::props::by_time;
use runqueue_report::trace::{Event, Kind};

pub const CHECKS: &[(&str, &str)] = &[
    ("sjf.order", "every switch-in takes the ready task with the smallest predicted burst"),
    ("sjf.tie", "between ready tasks with the same predicted burst, the lowest tid is picked"),
    ("sjf.pred", "every prediction the policy reports (new, in, wake, state) is tau0 for a new task, then the exponential average of the measured bursts, and a new one is reported by a state event"),
    ("sjf.burst", "a preemption does not end a burst: the prediction stays as it was across a preemption"),
    ("sjf.srtf", "with preempt=1 a waking or arriving task preempts exactly when its prediction is below the running task's predicted remaining time; with preempt=0 nothing is preempted"),
];

struct Params {
    alpha: (u64, u64),
    tau0: u64,
    preemptive: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Ready,
    Running { since: u64 },
    Asleep,
    Gone,
}

struct Task {
    predicted: u64,
    /// CPU time of the burst in progress, up to its last switch-out.
    burst: u64,
    state: State,
    /// When the task was last preempted, if that happened in the burst in progress.
    preempted_at: Option<u64>,
}

/// A wakeup that SRTF must answer with a preemption of the running task.
struct Due {
    woken: u32,
    /// "woke" or "arrived".
    how: &'static str,
    at: u64,
    woken_pred: u64,
    remaining: u64,
}

/// A wakeup (or arrival) during a task's run, and the running task's remaining time then.
struct Woke {
    woken: u32,
    how: &'static str,
    at: u64,
    woken_pred: u64,
    predicted: u64,
    burst: u64,
}

/// What the running task's next switch-out must look like.
#[derive(Default)]
struct Expect {
    due: Option<Due>,
    /// The last wakeup during the run that called for no preemption (for the message).
    last: Option<Woke>,
}

/// A burst just ended and changed the prediction: the next event of the task must be the
/// `state` event that reports it (`milestone`).
struct Pending {
    tid: u32,
    at: u64,
    predicted: u64,
}

pub fn check(args: &str, events: &[Event]) -> Result<Findings, String> {
    let p = Params {
        alpha: args::fraction(args, "lab.sjf.alpha", (1, 2))?,
        tau0: args::int(args, "lab.sjf.tau0_ns", 5_000_000)?,
        preemptive: args::int(args, "lab.sjf.preempt", 0)? == 1,
    };
    let mut tasks: BTreeMap<u32, Task> = BTreeMap::new();
    let mut expect: BTreeMap<u32, Expect> = BTreeMap::new();
    let mut pending: Option<Pending> = None;
    let mut f = Findings::default();
    for e in by_time(events) {
        let t = e.time_ns;
        if let Some(due) = pending.take_if(|d| d.tid == e.tid || t > d.at)
            && !(e.tid == due.tid && e.kind == Kind::State)
        {
            unreported(&mut f, &due);
        }
        match e.kind {
            Kind::New => {
                judge_new(&mut f, &p, e);
                tasks.insert(e.tid, Task { predicted: p.tau0, burst: 0, state: State::Ready, preempted_at: None });
                // An arrival while a task runs may preempt it, as a wakeup may.
                arrived(&p, &tasks, &mut expect, e.tid, t, "arrived");
            }
            Kind::In => {
                let Some(me) = tasks.get(&e.tid) else { continue };
                judge_order(&mut f, &tasks, e, me);
                judge_tie(&mut f, &tasks, e, me);
                let reported = e.num("pred");
                if let Some(at) = me.preempted_at {
                    judge_unchanged(&mut f, e, at, me.predicted, reported);
                }
                judge_pred(&mut f, &p, e, me.predicted, reported);
                let me = tasks.get_mut(&e.tid).unwrap();
                me.state = State::Running { since: t };
                expect.insert(e.tid, Expect::default());
            }
            Kind::Out => {
                let Some(me) = tasks.get_mut(&e.tid) else { continue };
                me.burst += e.num("ran").unwrap_or(0).max(0) as u64;
                let why = e.get("why").unwrap_or("");
                if why == "preempt" {
                    me.preempted_at = Some(t);
                } else if why != "exit" {
                    let (a, q) = p.alpha;
                    let before = me.predicted;
                    me.predicted = (a * me.burst + (q - a) * me.predicted) / q;
                    me.burst = 0;
                    me.preempted_at = None;
                    if me.predicted != before {
                        pending = Some(Pending { tid: e.tid, at: t, predicted: me.predicted });
                    }
                }
                me.state = match why {
                    "preempt" | "yield" => State::Ready,
                    "exit" => State::Gone,
                    _ => State::Asleep,
                };
                let ex = expect.remove(&e.tid).unwrap_or_default();
                judge_preemption(&mut f, &p, e, why, ex);
            }
            Kind::State | Kind::Wake => {
                let Some(me) = tasks.get_mut(&e.tid) else { continue };
                let reported = e.num("pred");
                if e.kind == Kind::Wake {
                    me.state = State::Ready;
                }
                if let Some(at) = me.preempted_at.filter(|_| e.kind == Kind::State) {
                    judge_unchanged(&mut f, e, at, me.predicted, reported);
                }
                if reported.is_some() || e.kind == Kind::Wake {
                    judge_pred(&mut f, &p, e, me.predicted, reported);
                }
                if e.kind == Kind::Wake {
                    arrived(&p, &tasks, &mut expect, e.tid, t, "woke");
                }
            }
            Kind::Exit | Kind::Mark | Kind::Migrate | Kind::Lock | Kind::Boost | Kind::Unboost | Kind::Steal | Kind::Throttle | Kind::Unthrottle => {}
        }
    }
    if let Some(due) = pending {
        unreported(&mut f, &due);
    }
    Ok(f)
}

/// Rule 5: a burst changed the prediction, and no `state` event reported it.
fn unreported(f: &mut Findings, due: &Pending) {
    let detail = format!(
        "task {}'s burst ended at {} ns and its prediction became {} ns, but no state event reported it: report pred= in milestone() too",
        due.tid, due.at, due.predicted
    );
    f.broke("sjf.pred", due.at, "new prediction not reported", detail);
}

/// A task that woke or arrived at `t`: what it calls for from each running task.
fn arrived(p: &Params, tasks: &BTreeMap<u32, Task>, expect: &mut BTreeMap<u32, Expect>, woken: u32, t: u64, how: &'static str) {
    let Some(woken_pred) = tasks.get(&woken).map(|k| k.predicted) else { return };
    for (&cur, k) in tasks.iter() {
        let State::Running { since } = k.state else { continue };
        let burst = k.burst + (t - since);
        let remaining = k.predicted.saturating_sub(burst);
        let ex = expect.entry(cur).or_default();
        if p.preemptive && woken_pred < remaining {
            ex.due.get_or_insert(Due { woken, how, at: t, woken_pred, remaining });
        } else {
            ex.last = Some(Woke { woken, how, at: t, woken_pred, predicted: k.predicted, burst });
        }
    }
}

/// Rule 1: a new task's reported prediction is tau0.
fn judge_new(f: &mut Findings, p: &Params, e: &Event) {
    match e.num("pred") {
        Some(r) if r == p.tau0 as i64 => f.checked("sjf.pred"),
        reported => {
            let got = reported.map_or(String::from("no pred= field"), |r| format!("{r} ns"));
            let detail = format!("task {} is new: expected its prediction to be tau0 = {} ns (lab.sjf.tau0_ns), got {got}", e.tid, p.tau0);
            f.broke("sjf.pred", e.time_ns, "wrong initial prediction", detail);
        }
    }
}

fn judge_order(f: &mut Findings, tasks: &BTreeMap<u32, Task>, e: &Event, me: &Task) {
    let best = tasks.iter().filter(|(_, k)| k.state == State::Ready).min_by_key(|(tid, k)| (k.predicted, **tid));
    if let Some((&best_tid, b)) = best {
        if me.predicted > b.predicted {
            let detail = format!("expected task {best_tid} (predicted burst {} ns), got task {} (predicted burst {} ns)", b.predicted, e.tid, me.predicted);
            f.broke("sjf.order", e.time_ns, "not the shortest predicted job", detail);
        } else {
            f.checked("sjf.order");
        }
    }
}

/// Rule 3's tie: among ready tasks with the same prediction (the model's: what the policy
/// reports has no say in which picks are ties), the lowest tid goes first. Only runs with a
/// tie count.
fn judge_tie(f: &mut Findings, tasks: &BTreeMap<u32, Task>, e: &Event, me: &Task) {
    let mut tied = tasks.iter().filter(|(tid, k)| k.state == State::Ready && **tid != e.tid && k.predicted == me.predicted).map(|(tid, _)| *tid).peekable();
    let Some(&lowest) = tied.peek() else { return };
    if lowest < e.tid {
        let detail = format!("tasks {lowest} and {} both predict {} ns: expected the lower tid, task {lowest}, got task {}", e.tid, me.predicted, e.tid);
        f.broke("sjf.tie", e.time_ns, "tie not to the lowest tid", detail);
    } else {
        f.checked("sjf.tie");
    }
}

/// Rule 2: the reported prediction against the model's, exactly.
fn judge_pred(f: &mut Findings, p: &Params, e: &Event, predicted: u64, reported: Option<i64>) {
    match reported {
        Some(r) if r == predicted as i64 => f.checked("sjf.pred"),
        _ => {
            let got = reported.map_or(String::from("no pred= field"), |r| format!("{r} ns"));
            let detail = format!("task {}'s prediction: expected {predicted} ns (alpha {}/{}), got {got}", e.tid, p.alpha.0, p.alpha.1);
            f.broke("sjf.pred", e.time_ns, "wrong prediction", detail);
        }
    }
}

/// A burst goes on across a preemption: the prediction the task resumes with (or a `state`
/// event right after the preemption) is the one it had, which the model kept.
fn judge_unchanged(f: &mut Findings, e: &Event, preempted_at: u64, before: u64, reported: Option<i64>) {
    match reported {
        Some(r) if r != before as i64 => {
            let detail = format!(
                "task {}'s prediction changed from {before} ns to {r} ns when it was preempted at {preempted_at} ns: a preemption does not end a burst, so expected {before} ns until the task yields or sleeps",
                e.tid
            );
            f.broke("sjf.burst", e.time_ns, "a preemption ended the burst", detail);
        }
        _ => f.checked("sjf.burst"),
    }
}

/// Compares how the task left the CPU with what the wakeups during its run called for.
fn judge_preemption(f: &mut Findings, p: &Params, e: &Event, why: &str, ex: Expect) {
    let preempted = why == "preempt";
    match ex.due {
        // Leaving the CPU for any reason within the slack is as good as the preemption.
        Some(d) if e.time_ns > d.at + crate::PREEMPT_SLACK_NS => {
            let detail = format!(
                "task {} {} at {} ns predicting {} ns, less than task {}'s remaining {} ns: expected task {} to be preempted, but it ran on until {} ns (why={why})",
                d.woken, d.how, d.at, d.woken_pred, e.tid, d.remaining, e.tid, e.time_ns
            );
            f.broke("sjf.srtf", d.at, "SRTF did not preempt", detail);
        }
        Some(_) => f.checked("sjf.srtf"),
        None if preempted && !p.preemptive => {
            let detail = format!("task {} was preempted at {} ns, but with lab.sjf.preempt=0 nothing is ever preempted", e.tid, e.time_ns);
            f.broke("sjf.srtf", e.time_ns, "preemption in non-preemptive SJF", detail);
        }
        None if preempted => {
            let why_not = ex.last.map_or(String::from("no task woke during its run"), |w| {
                format!(
                    "task {} {} at {} ns predicting {} ns, not less than task {}'s remaining {} ns (its prediction {} ns minus the {} ns of its burst so far)",
                    w.woken,
                    w.how,
                    w.at,
                    w.woken_pred,
                    e.tid,
                    w.predicted.saturating_sub(w.burst),
                    w.predicted,
                    w.burst
                )
            });
            let detail = format!("task {} was preempted at {} ns, but no task woke with a shorter prediction than its remaining time: {why_not}", e.tid, e.time_ns);
            f.broke("sjf.srtf", e.time_ns, "needless preemption", detail);
        }
        None => f.checked("sjf.srtf"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use runqueue_report::trace::parse;

    const ARGS: &str = "lab.sjf.preempt=1 lab.sjf.tau0_ns=4000000 lab.sjf.alpha=1/2";

    /// SRTF, tau0 4 ms: both start at tau0 and task 1 (the lower tid) goes first; its 2 ms
    /// burst makes 3 ms. Task 2 runs; task 1 wakes predicting 3 ms, less than task 2's
    /// remaining 3.5 ms, and preempts it. Task 1 bursts 1 ms (2 ms), runs on and exits;
    /// task 2 resumes its burst with its prediction unchanged and ends it after 1.5 ms in
    /// all: (1.5 + 4) / 2 = 2.75 ms.
    const RIGHT: &str = "T 0 0 new 1 pred=4000000
T 0 0 new 2 pred=4000000
T 10 0 in 1 pred=4000000
T 2000010 0 out 1 why=sleep ran=2000000
T 2000010 0 state 1 pred=3000000
T 2000020 0 in 2 pred=4000000
T 2500020 0 wake 1 pred=3000000
T 2500040 0 out 2 why=preempt ran=500000
T 2500050 0 in 1 pred=3000000
T 3500050 0 out 1 why=yield ran=1000000
T 3500050 0 state 1 pred=2000000
T 3500060 0 in 1 pred=2000000
T 4500060 0 out 1 why=exit ran=1000000
T 4500070 0 in 2 pred=4000000
T 5500070 0 out 2 why=sleep ran=1000000
T 5500070 0 state 2 pred=2750000";

    /// The first violation of `name` in the trace, after checking it judged something.
    fn first_violation(args: &str, text: &str, name: &str) -> Option<String> {
        let f = check(args, &parse(text).unwrap()).unwrap();
        let (count, violation) = f.0.get(name).cloned().unwrap_or_else(|| panic!("{name} judged nothing"));
        assert!(count > 0);
        violation.map(|v| v.detail)
    }

    fn fails(text: &str, name: &str, says: &str) {
        let why = first_violation(ARGS, text, name).unwrap_or_else(|| panic!("{name} passed:\n{text}"));
        assert!(why.contains(says), "{why}");
    }

    #[test]
    fn the_right_schedule_passes() {
        for name in ["sjf.order", "sjf.tie", "sjf.pred", "sjf.burst", "sjf.srtf"] {
            assert_eq!(first_violation(ARGS, RIGHT, name), None, "{name}");
        }
    }

    #[test]
    fn not_the_shortest_prediction() {
        let text = RIGHT.replace("T 3500060 0 in 1 pred=2000000", "T 3500060 0 in 2 pred=4000000");
        fails(&text, "sjf.order", "expected task 1 (predicted burst 2000000 ns), got task 2 (predicted burst 4000000 ns)");
    }

    #[test]
    fn a_tie_to_the_higher_tid() {
        fails(&RIGHT.replace("T 10 0 in 1", "T 10 0 in 2"), "sjf.tie", "tasks 1 and 2 both predict 4000000 ns: expected the lower tid, task 1, got task 2");
        // Reported a few ns apart, the predictions still tie: the model decides what a tie is,
        // and the reports are wrong besides.
        let skewed = RIGHT.replace("T 10 0 in 1", "T 10 0 in 2").replace("new 2 pred=4000000", "new 2 pred=3999999");
        fails(&skewed, "sjf.tie", "expected the lower tid, task 1, got task 2");
        fails(&skewed, "sjf.pred", "expected its prediction to be tau0 = 4000000 ns (lab.sjf.tau0_ns), got 3999999 ns");
    }

    #[test]
    fn predictions_are_compared_exactly() {
        fails(&RIGHT.replace("state 1 pred=3000000", "state 1 pred=3000001"), "sjf.pred", "expected 3000000 ns (alpha 1/2), got 3000001 ns");
        fails(&RIGHT.replace("in 1 pred=2000000", "in 1 pred=-2000000"), "sjf.pred", "expected 2000000 ns (alpha 1/2), got -2000000 ns");
    }

    #[test]
    fn predictions_start_at_tau0_follow_the_formula_and_are_reported() {
        fails(&RIGHT.replace("new 1 pred=4000000", "new 1 pred=5000000"), "sjf.pred", "expected its prediction to be tau0 = 4000000 ns (lab.sjf.tau0_ns), got 5000000 ns");
        fails(&RIGHT.replace("state 1 pred=3000000", "state 1 pred=2500000"), "sjf.pred", "expected 3000000 ns (alpha 1/2), got 2500000 ns");
        let unreported = RIGHT.replace("T 2000010 0 state 1 pred=3000000\n", "");
        fails(&unreported, "sjf.pred", "its prediction became 3000000 ns, but no state event reported it: report pred= in milestone() too");
    }

    #[test]
    fn a_preemption_that_ends_the_burst() {
        let text = RIGHT.replace("T 2500040 0 out 2 why=preempt ran=500000\n", "T 2500040 0 out 2 why=preempt ran=500000\nT 2500040 0 state 2 pred=2250000\n");
        fails(&text, "sjf.burst", "task 2's prediction changed from 4000000 ns to 2250000 ns when it was preempted at 2500040 ns");
        // Seen only when the task resumes: a wrong prediction as well.
        let text = RIGHT.replace("T 4500070 0 in 2 pred=4000000", "T 4500070 0 in 2 pred=2250000");
        fails(&text, "sjf.burst", "a preemption does not end a burst");
        fails(&text, "sjf.pred", "task 2's prediction: expected 4000000 ns (alpha 1/2), got 2250000 ns");
    }

    #[test]
    fn srtf_preempts_exactly_when_the_remaining_time_is_longer() {
        // Task 2 runs on after task 1's wakeup called for a preemption.
        let late = RIGHT.replace("T 2500040 0 out 2 why=preempt", "T 2700040 0 out 2 why=preempt");
        fails(&late, "sjf.srtf", "expected task 2 to be preempted, but it ran on until 2700040 ns");
        // Task 1 wakes when task 2 has exactly 3 ms left, its own prediction: not less, so no
        // preemption is due (the policy knew both figures to the ns).
        let early = RIGHT.replace("T 2500020 0 wake 1", "T 3000020 0 wake 1").replace("T 2500040 0 out 2 why=preempt ran=500000", "T 3000040 0 out 2 why=preempt ran=1000000");
        fails(&early, "sjf.srtf", "task 1 woke at 3000020 ns predicting 3000000 ns, not less than task 2's remaining 3000000 ns");
        // A nanosecond less than 3 ms left: due.
        let due = early.replace("T 3000020 0 wake 1", "T 3000019 0 wake 1");
        assert_eq!(first_violation(ARGS, &due, "sjf.srtf"), None);
        let needless = early.replace("T 3000020 0 wake 1", "T 3200020 0 wake 1").replace("T 3000040 0 out 2 why=preempt ran=1000000", "T 3200040 0 out 2 why=preempt ran=1200000");
        fails(&needless, "sjf.srtf", "task 1 woke at 3200020 ns predicting 3000000 ns, not less than task 2's remaining 2800000 ns (its prediction 4000000 ns minus the 1200000 ns of its burst so far)");
        // Without lab.sjf.preempt=1, nothing is preempted.
        let why = first_violation("lab.sjf.tau0_ns=4000000", RIGHT, "sjf.srtf").unwrap();
        assert!(why.contains("task 2 was preempted at 2500040 ns, but with lab.sjf.preempt=0 nothing is ever preempted"), "{why}");
    }

    #[test]
    fn an_arrival_may_preempt_as_a_wakeup_does() {
        // Task 1's 6 ms burst makes its prediction 5 ms; half a millisecond into its next
        // burst task 2 arrives predicting tau0 = 4 ms, less than the 4.5 ms remaining.
        let text = "T 0 0 new 1 pred=4000000
T 10 0 in 1 pred=4000000
T 6000010 0 out 1 why=yield ran=6000000
T 6000010 0 state 1 pred=5000000
T 6000020 0 in 1 pred=5000000
T 6500020 0 new 2 pred=4000000
T 6500040 0 out 1 why=preempt ran=500020";
        assert_eq!(first_violation(ARGS, text, "sjf.srtf"), None);
        let late = text.replace("T 6500040 0 out 1", "T 6700040 0 out 1");
        fails(&late, "sjf.srtf", "task 2 arrived at 6500020 ns predicting 4000000 ns, less than task 1's remaining 4500000 ns");
        let needless = text.replace("T 6500020 0 new 2", "T 7200020 0 new 2").replace("T 6500040 0 out 1 why=preempt ran=500020", "T 7200040 0 out 1 why=preempt ran=1200020");
        fails(&needless, "sjf.srtf", "task 2 arrived at 7200020 ns predicting 4000000 ns, not less than task 1's remaining 3800000 ns");
    }
}
