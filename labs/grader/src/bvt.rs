//! The BVT lab's reference model: each task's actual virtual time A from the core's `ran=`
//! figures, SVT (the smallest A among runnable tasks, never decreasing), and the decisions
//! BVT must make with them: a waking task is placed at max(A, SVT), and every switch-in takes
//! the ready task with the smallest effective virtual time E = A - W.
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
];

/// Virtual times may differ from the model by this much (rounding, a charge landing a few
/// instructions later than the trace's timestamp).
const SLACK_NS: u64 = 1_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Ready,
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
}

impl Task {
    fn evt(&self) -> i64 {
        self.avt as i64 - self.warp as i64
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
    let warps = warp_list(args)?;
    let mut tasks: BTreeMap<u32, Task> = BTreeMap::new();
    let mut svt = Svt::default();
    let mut f = Findings::default();
    for e in by_time(events) {
        let t = e.time_ns;
        match e.kind {
            Kind::New => {
                svt.update(&tasks, t, tick);
                let warp = warps.get(tasks.len()).copied().unwrap_or(0);
                let avt = judge_place(&mut f, e, None, svt);
                tasks.insert(e.tid, Task { avt, warp, state: State::Ready });
                svt.update(&tasks, t, tick);
            }
            Kind::Wake => {
                let Some(avt) = tasks.get(&e.tid).map(|k| k.avt) else { continue };
                svt.update(&tasks, t, tick);
                let placed = judge_place(&mut f, e, Some(avt), svt);
                if let Some(k) = tasks.get_mut(&e.tid) {
                    k.avt = placed;
                    k.state = State::Ready;
                }
                // The core charges the running task before asking whether the wakeup preempts it.
                for k in tasks.values_mut() {
                    if let State::Running { charged, .. } = &mut k.state {
                        *charged = t;
                    }
                }
                svt.update(&tasks, t, tick);
            }
            Kind::In => {
                judge_pick(&mut f, &tasks, e);
                if let Some(k) = tasks.get_mut(&e.tid) {
                    k.state = State::Running { since: t, avt_in: k.avt, charged: t };
                }
            }
            Kind::Out => {
                let Some(k) = tasks.get_mut(&e.tid) else { continue };
                if let State::Running { avt_in, .. } = k.state {
                    k.avt = avt_in + e.num("ran").unwrap_or(0).max(0) as u64;
                }
                // Charged (still runnable), then out of the queue if it sleeps or ends.
                k.state = State::Ready;
                svt.update(&tasks, t, tick);
                let stays = matches!(e.get("why"), Some("preempt" | "yield"));
                if let Some(k) = tasks.get_mut(&e.tid).filter(|_| !stays) {
                    k.state = State::Asleep;
                }
                svt.update(&tasks, t, tick);
            }
            Kind::Exit | Kind::Mark | Kind::State => {}
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
/// (expected max(A, SVT)); returns the A the model carries on with.
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
            let detail = match slept_at {
                Some(a) => {
                    let behind = reported.filter(|&r| r < lo).map_or(String::new(), |r| format!(" ({} ns behind: a sleeper credit?)", lo - r));
                    format!("task {} woke with A={a} while SVT was {svt_text}: expected A = max(A, SVT) = {expected} ns, got {got}{behind}", e.tid)
                }
                None => format!("task {} was created while SVT was {svt_text}: expected it to start at A = {expected} ns, got {got}", e.tid),
            };
            f.broke("bvt.place", e.time_ns, if slept_at.is_some() { "wrong wakeup placement" } else { "wrong start" }, detail);
            (lo + hi) / 2
        }
    }
}

fn judge_pick(f: &mut Findings, tasks: &BTreeMap<u32, Task>, e: &Event) {
    let Some(me) = tasks.get(&e.tid) else { return };
    let best = tasks.iter().filter(|(tid, k)| k.state == State::Ready && **tid != e.tid).min_by_key(|(tid, k)| (k.evt(), **tid));
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
