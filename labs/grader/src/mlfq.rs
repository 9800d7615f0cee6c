//! The MLFQ lab's reference model: each task's CPU time since it was created or last boosted,
//! from the core's `ran=` figures, gives the levels it may be at; the policy's reported
//! levels and its picks must agree with them.
//!
//! The kernel charges CPU time at ticks and switch-outs, so a policy moves a task down up to
//! one tick late per level, and boosts at the first tick after the boost is due: levels are
//! ranges, and decisions within a tick after a boost are not judged.

use crate::args;
use crate::lab::Findings;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use runqueue_report::props::by_time;
use runqueue_report::trace::{Event, Kind};

pub const CHECKS: &[(&str, &str)] = &[
    ("mlfq.level", "a task moves down once it used its allotment at a level, however often it yielded"),
    ("mlfq.pick", "every switch-in takes a task from the highest level with a ready task"),
    ("mlfq.boost", "every boost period, every task goes back to level 0"),
];

struct Params {
    levels: u32,
    allotment: u64,
    boost_every: u64,
    tick: u64,
}

impl Params {
    /// The level a task is at after `used` ns with no charging delay.
    fn level(&self, used: u64) -> u32 {
        (1..self.levels).take_while(|&l| self.allotment * ((1 << l) - 1) <= used).last().unwrap_or(0)
    }

    /// The levels a correct policy may report after `used` ns.
    fn range(&self, used: u64) -> (u32, u32) {
        (self.level(used.saturating_sub(self.levels as u64 * self.tick)), self.level(used))
    }
}

struct Task {
    /// CPU time since creation or the last boost, up to `since` if running.
    used: u64,
    running_since: Option<u64>,
    ready: bool,
    /// The last reset of `used` was a boost (not the task's creation).
    boosted: bool,
}

impl Task {
    fn used_at(&self, t: u64) -> u64 {
        self.used + self.running_since.map_or(0, |s| t.saturating_sub(s))
    }
}

pub fn check(args: &str, events: &[Event]) -> Result<Findings, String> {
    let ms = |key, default| args::int(args, key, default).map(|v| v * 1_000_000);
    let p = Params {
        levels: args::int(args, "lab.mlfq.levels", 3)?.clamp(1, 16) as u32,
        allotment: ms("lab.mlfq.allotment_ms", 4)?,
        boost_every: ms("lab.mlfq.boost_ms", 100)?.max(1),
        tick: args::int(args, "tick_us", 1000)? * 1000,
    };
    let mut tasks: BTreeMap<u32, Task> = BTreeMap::new();
    let mut next_boost: Option<u64> = None;
    let mut last_boost: Option<u64> = None;
    let mut f = Findings::default();
    for e in by_time(events) {
        let t = e.time_ns;
        while let Some(due) = next_boost.filter(|&d| d <= t) {
            for k in tasks.values_mut() {
                k.used = 0;
                k.boosted = true;
                k.running_since = k.running_since.map(|_| due);
            }
            last_boost = Some(due);
            next_boost = Some(due + p.boost_every);
        }
        // A policy boosts at its first tick after the boost is due: do not judge before.
        let settling = last_boost.is_some_and(|b| t <= b + p.tick + p.tick / 10);
        match e.kind {
            Kind::New => {
                next_boost.get_or_insert(t + p.boost_every);
                tasks.insert(e.tid, Task { used: 0, running_since: None, ready: true, boosted: false });
            }
            Kind::In => {
                if !settling {
                    judge_pick(&mut f, &p, &tasks, e);
                }
                if let Some(k) = tasks.get_mut(&e.tid) {
                    k.running_since = Some(t);
                    k.ready = false;
                }
            }
            Kind::Out => {
                let Some(k) = tasks.get_mut(&e.tid) else { continue };
                k.used = k.used_at(t);
                k.running_since = None;
                k.ready = matches!(e.get("why"), Some("preempt" | "yield"));
            }
            Kind::Wake => {
                if let Some(k) = tasks.get_mut(&e.tid) {
                    k.ready = true;
                }
            }
            Kind::Exit | Kind::Mark | Kind::State => {}
        }
        if !settling && matches!(e.kind, Kind::In | Kind::State | Kind::Wake) {
            judge_level(&mut f, &p, &tasks, e, last_boost);
        }
    }
    Ok(f)
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

fn judge_level(f: &mut Findings, p: &Params, tasks: &BTreeMap<u32, Task>, e: &Event, last_boost: Option<u64>) {
    let (Some(k), Some(reported)) = (tasks.get(&e.tid), e.num("lvl")) else { return };
    let used = k.used_at(e.time_ns);
    let (lo, hi) = p.range(used);
    // Right after a boost (before the allotment of level 0 is used up) it is the boost's rule.
    let check = if k.boosted && hi == 0 { "mlfq.boost" } else { "mlfq.level" };
    if (lo as i64..=hi as i64).contains(&reported) {
        f.checked(check);
        return;
    }
    let expected = if lo == hi { format!("level {lo}") } else { format!("level {lo}..{hi}") };
    let since = match (k.boosted, last_boost) {
        (true, Some(b)) => format!("since the boost at {b} ns"),
        _ => String::from("since it was created"),
    };
    let detail = format!(
        "task {} reports level {reported}; it used {used} ns of CPU {since} (allotment {} ns at level 0, doubling per level), so expected {expected}",
        e.tid, p.allotment
    );
    f.broke(check, e.time_ns, if check == "mlfq.boost" { "boost not applied" } else { "wrong level" }, detail);
}
