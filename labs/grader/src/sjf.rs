//! The SJF lab's reference model: each task's predicted burst, recomputed from the bursts
//! the core measured (`ran=` summed from a switch-in to the next yield or sleep), and the
//! decisions SJF/SRTF must make with those predictions.

use crate::args;
use crate::lab::Findings;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use runqueue_report::props::by_time;
use runqueue_report::trace::{Event, Kind};

pub const CHECKS: &[(&str, &str)] = &[
    ("sjf.order", "every switch-in takes the ready task with the smallest predicted burst"),
    ("sjf.pred", "the prediction the policy reports is the exponential average of the measured bursts"),
    ("sjf.srtf", "a waking task preempts exactly when its prediction is below the running task's predicted remaining time"),
];

/// How long after a wakeup the preemption it calls for must have happened.
const PREEMPT_SLACK_NS: u64 = 100_000;

/// Predictions may differ from the model by rounding: 1 us plus 0.5 %.
fn tolerance(ns: u64) -> u64 {
    1_000 + ns / 200
}

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
}

/// A wakeup that SRTF must answer with a preemption of the running task.
struct Due {
    woken: u32,
    at: u64,
    woken_pred: u64,
    remaining: u64,
}

/// What the running task's next switch-out must look like.
#[derive(Default)]
struct Expect {
    due: Option<Due>,
    /// A wakeup too close to call (within the tolerance): either outcome is right.
    either: bool,
}

pub fn check(args: &str, events: &[Event]) -> Result<Findings, String> {
    let p = Params {
        alpha: args::fraction(args, "lab.sjf.alpha", (1, 2))?,
        tau0: args::int(args, "lab.sjf.tau0_ns", 5_000_000)?,
        preemptive: args::int(args, "lab.sjf.preempt", 0)? == 1,
    };
    let mut tasks: BTreeMap<u32, Task> = BTreeMap::new();
    let mut expect: BTreeMap<u32, Expect> = BTreeMap::new();
    let mut f = Findings::default();
    for e in by_time(events) {
        let t = e.time_ns;
        match e.kind {
            Kind::New => {
                tasks.insert(e.tid, Task { predicted: p.tau0, burst: 0, state: State::Ready });
            }
            Kind::In => {
                let Some(me) = tasks.get(&e.tid) else { continue };
                let best = tasks.iter().filter(|(_, k)| k.state == State::Ready).min_by_key(|(tid, k)| (k.predicted, **tid));
                if let Some((&best_tid, b)) = best {
                    if me.predicted > b.predicted + tolerance(b.predicted) {
                        let detail = format!(
                            "expected task {best_tid} (predicted burst {} ns), got task {} (predicted burst {} ns)",
                            b.predicted, e.tid, me.predicted
                        );
                        f.broke("sjf.order", t, "not the shortest predicted job", detail);
                    } else {
                        f.checked("sjf.order");
                    }
                }
                match e.num("pred") {
                    Some(r) if r.unsigned_abs().abs_diff(me.predicted) <= tolerance(me.predicted) => f.checked("sjf.pred"),
                    reported => {
                        let got = reported.map_or(String::from("no pred= field"), |r| format!("{r} ns"));
                        let detail = format!("task {}'s prediction: expected {} ns (alpha {}/{}), got {got}", e.tid, me.predicted, p.alpha.0, p.alpha.1);
                        f.broke("sjf.pred", t, "wrong prediction", detail);
                    }
                }
                tasks.get_mut(&e.tid).unwrap().state = State::Running { since: t };
                expect.insert(e.tid, Expect::default());
            }
            Kind::Out => {
                let Some(me) = tasks.get_mut(&e.tid) else { continue };
                me.burst += e.num("ran").unwrap_or(0).max(0) as u64;
                let why = e.get("why").unwrap_or("");
                if why != "preempt" {
                    let (a, q) = p.alpha;
                    me.predicted = (a * me.burst + (q - a) * me.predicted) / q;
                    me.burst = 0;
                }
                me.state = match why {
                    "preempt" | "yield" => State::Ready,
                    "exit" => State::Gone,
                    _ => State::Asleep,
                };
                let ex = expect.remove(&e.tid).unwrap_or_default();
                judge_preemption(&mut f, e, why, ex);
            }
            Kind::Wake => {
                let Some(woken_pred) = tasks.get(&e.tid).map(|k| k.predicted) else { continue };
                tasks.get_mut(&e.tid).unwrap().state = State::Ready;
                for (&cur, k) in tasks.iter().filter(|(_, k)| matches!(k.state, State::Running { .. })) {
                    let State::Running { since } = k.state else { continue };
                    let remaining = k.predicted.saturating_sub(k.burst + (t - since));
                    let ex = expect.entry(cur).or_default();
                    if !p.preemptive || woken_pred + tolerance(remaining) < remaining {
                        if p.preemptive {
                            ex.due.get_or_insert(Due { woken: e.tid, at: t, woken_pred, remaining });
                        }
                    } else if woken_pred < remaining + tolerance(remaining) {
                        ex.either = true;
                    }
                }
            }
            Kind::Exit | Kind::State | Kind::Mark => {}
        }
    }
    Ok(f)
}

/// Compares how the task left the CPU with what the wakeups during its run called for.
fn judge_preemption(f: &mut Findings, e: &Event, why: &str, ex: Expect) {
    let preempted = why == "preempt";
    match ex.due {
        Some(d) if !preempted || e.time_ns > d.at + PREEMPT_SLACK_NS => {
            let detail = format!(
                "task {} woke at {} ns predicting {} ns, less than task {}'s remaining {} ns: expected task {} to be preempted, but it ran on until {} ns (why={why})",
                d.woken, d.at, d.woken_pred, e.tid, d.remaining, e.tid, e.time_ns
            );
            f.broke("sjf.srtf", d.at, "SRTF did not preempt", detail);
        }
        Some(_) => f.checked("sjf.srtf"),
        None if preempted && !ex.either => {
            let detail = format!("task {} was preempted, but no task woke with a shorter prediction than its remaining time", e.tid);
            f.broke("sjf.srtf", e.time_ns, "needless preemption", detail);
        }
        None => f.checked("sjf.srtf"),
    }
}
