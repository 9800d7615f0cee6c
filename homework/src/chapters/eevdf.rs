//! Chapter 8, EEVDF: two to four busy tasks of different nice values (`workload=spin`, never
//! sleeping) under `sched=eevdf` on one hart, with Linux 6.12's defaults (a request of 0.7 ms,
//! PLACE_DEADLINE_INITIAL, RUN_TO_PARITY). Easy: two tasks, and the virtual deadline a task
//! starts with. Medium: three, when one first runs and a task's lag when it is picked. Hard:
//! four, and how long one's first turn lasts. Every level asks a task's share of the CPU over
//! the run, which task runs at a time, and the virtual deadline a turn leaves with.

use super::busy::{self, RUN_MS, WINDOW_MS};
use super::{Chapter, Draft, q_running};
use crate::hand::cfs::NICE_0;
use crate::hand::eevdf::{self, BASE_SLICE_NS};
use crate::problem::{Answer, Question, Tolerance, Unit, fmt_places};
use crate::rng::Rng;
use crate::run::{Run, Stint, ms};
use crate::{Ambiguous, Level, msg};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use runqueue_report::trace::Kind;

pub const CHAPTER: Chapter = Chapter { index: 6, name: "eevdf", aliases: &["lag", "virtual-deadline"], title: "EEVDF: earliest eligible virtual deadline first", draft, ask };

/// A deadline or lag worked from the kernel's own vruntimes, given to the µs.
const WORKED: Tolerance = Tolerance { abs: 0.01, rel: 0.0 };
/// A deadline worked from the vruntime a task left with, a few µs of CPU past the tick that
/// set it (at most about 0.1 virtual ms, for nice 5).
const DEADLINE: Tolerance = Tolerance { abs: 0.12, rel: 0.0 };

fn draft(level: Level, rng: &mut Rng) -> Draft {
    let count = busy::count(level);
    let mut draft = busy::weighted("eevdf", rng, count);
    draft.rules = vec![
        msg!("rule-busy-machine"),
        msg!("rule-eevdf-vruntime"),
        msg!("rule-eevdf-start"),
        msg!("rule-eevdf-tick", r = fmt_places(BASE_SLICE_NS as f64 / 1e6, 2)),
        msg!("rule-eevdf-hair"),
    ];
    draft.setup = vec![msg!("setup-eevdf", n = count, run = RUN_MS)];
    draft
}

fn ask(level: Level, draft: &Draft, run: &Run, rng: &mut Rng) -> Result<Vec<Question>, Ambiguous> {
    let weights = busy::weights_of(draft);
    // Every task starts at vruntime 0 with its deadline half a request away, then the turns.
    busy::starts_as_by_hand(run, "vr", &vec![0; weights.len()])?;
    busy::starts_as_by_hand(run, "vd", &weights.iter().map(|&w| eevdf::first_deadline(w)).collect::<Vec<_>>())?;
    let turns = busy::as_by_hand(run, eevdf::schedule(&weights, WINDOW_MS))?;
    let share = busy::q_share(run, rng, &weights, |task, weight, sum, share| msg!("s-share-weight", task = task, weight = weight, sum = sum, ideal = share))?;
    let mut qs = vec![share, q_running(run, rng, &turns)?, q_deadline(run, rng, &weights, turns.len())?];
    if level == Level::Easy {
        qs.insert(1, q_first_deadline(run, rng, &weights)?);
    } else {
        qs.insert(1, busy::q_first_run(run, rng, &turns)?);
        qs.push(q_lag(run, rng, &weights, turns.len())?);
    }
    if level == Level::Hard {
        qs.push(busy::q_first_turn(run, rng, &turns)?);
    }
    Ok(qs)
}

/// Virtual ns as the problems print them: ms to the µs.
fn vms(ns: i64) -> String {
    alloc::format!("{:.3}", ns as f64 / 1e6)
}

fn answer(ns: i64, tol: Tolerance) -> Answer {
    Answer::Number { value: ns as f64 / 1e6, decimals: 3, unit: Unit::Ms, tol }
}

/// The virtual deadline a task starts with (its `new` event's): half a request in its
/// virtual time past V = 0.
fn q_first_deadline(run: &Run, rng: &mut Rng, weights: &[u64]) -> Result<Question, Ambiguous> {
    let tid = super::any_task(run, rng);
    let vd = run.events_of(tid).find(|e| e.kind == Kind::New).and_then(|e| e.num("vd")).ok_or(Ambiguous)?;
    let answer = answer(vd, WORKED);
    let name = run.name(tid).to_string();
    let half = fmt_places(BASE_SLICE_NS as f64 / 2e6, 2);
    let steps = vec![msg!("s-first-deadline", task = name, half = half, nice0 = NICE_0, weight = weights[tid as usize - 1], value = answer.text())];
    Ok(Question { slot: "first-deadline", prompt: msg!("q-first-deadline", task = name), answer, steps })
}

/// The virtual deadline one of the hand schedule's turns leaves with (its `out` event's), set
/// at the tick that ended it: the vruntime then plus a request in virtual time. Asked of a
/// turn where the vruntime the task left with (a few µs past the tick) gives it by hand, and,
/// for a task whose weight is not 1024, where forgetting the weight does not.
fn q_deadline(run: &Run, rng: &mut Rng, weights: &[u64], turns: usize) -> Result<Question, Ambiguous> {
    let mut clear = Vec::new();
    for s in run.stints.iter().filter(|s| s.hart == 0).take(turns) {
        let out = run.events_of(s.tid).find(|e| e.kind == Kind::Out && e.time_ns == s.to).ok_or(Ambiguous)?;
        let (vr, vd) = (out.num("vr").ok_or(Ambiguous)?, out.num("vd").ok_or(Ambiguous)?);
        let weight = weights[s.tid as usize - 1];
        let answer = answer(vd, DEADLINE);
        let given = vms(vr).parse::<f64>().map_err(|_| Ambiguous)?;
        let by_hand = |request_ns: u64| fmt_places(given + request_ns as f64 / 1e6, 3);
        if answer.check(&by_hand(eevdf::vslice(weight))) == Ok(true) && (weight == NICE_0 || answer.check(&by_hand(BASE_SLICE_NS)) == Ok(false)) {
            clear.push((s, vr, weight, answer));
        }
    }
    if clear.is_empty() {
        return Err(Ambiguous);
    }
    let (s, vr, weight, answer) = rng.pick(&clear).clone();
    let name = run.name(s.tid).to_string();
    let request = vms(eevdf::vslice(weight) as i64);
    let r = fmt_places(BASE_SLICE_NS as f64 / 1e6, 2);
    let steps = vec![msg!("s-deadline", task = name, to = ms(s.to), vr = vms(vr), r = r, nice0 = NICE_0, weight = weight, request = request, value = answer.text())];
    let prompt = msg!("q-deadline", task = name, from = ms(s.from), to = ms(s.to), vr = vms(vr));
    Ok(Question { slot: "deadline", prompt, answer, steps })
}

/// The lag `V - v` of a task when one of the hand schedule's turns (after the first) picks it,
/// its `in` event's, given every task's vruntime then (each one's last in the trace).
fn q_lag(run: &Run, rng: &mut Rng, weights: &[u64], turns: usize) -> Result<Question, Ambiguous> {
    let matched: Vec<&Stint> = run.stints.iter().filter(|s| s.hart == 0).take(turns).skip(1).collect();
    if matched.is_empty() {
        return Err(Ambiguous);
    }
    let s = *rng.pick(&matched);
    let lag = run.events_of(s.tid).find(|e| e.kind == Kind::In && e.time_ns == s.from).and_then(|e| e.num("lag")).ok_or(Ambiguous)?;
    let answer = answer(lag, WORKED);
    let tasks: Vec<u32> = (1..=weights.len() as u32).collect();
    let vr: Vec<i64> = tasks.iter().map(|&tid| run.field_at(tid, "vr", s.from)).collect::<Option<_>>().ok_or(Ambiguous)?;
    // By hand, from the vruntimes as the problem gives them.
    let given: Vec<f64> = vr.iter().map(|&v| vms(v).parse::<f64>().unwrap_or(f64::NAN)).collect();
    let total: u64 = weights.iter().sum();
    let average = weights.iter().zip(&given).map(|(&w, &v)| w as f64 * v).sum::<f64>() / total as f64;
    let own = given[s.tid as usize - 1];
    if answer.check(&fmt_places(average - own, 3)) != Ok(true) {
        return Err(Ambiguous);
    }
    let name = run.name(s.tid).to_string();
    let list: Vec<String> = tasks.iter().zip(&vr).map(|(&tid, &v)| alloc::format!("{} = {}", run.name(tid), vms(v))).collect();
    let terms: Vec<String> = weights.iter().zip(&vr).map(|(w, &v)| alloc::format!("{w} × {}", vms(v))).collect();
    let v_avg = alloc::format!("{average:.3}");
    let steps = vec![
        msg!("s-average-vruntime", terms = terms.join(" + "), total = total, value = v_avg),
        msg!("s-lag", task = name, average = v_avg, vr = vms(vr[s.tid as usize - 1]), value = answer.text()),
    ];
    Ok(Question { slot: "lag", prompt: msg!("q-lag", task = name, t = ms(s.from), vruntimes = list.join(", ")), answer, steps })
}
