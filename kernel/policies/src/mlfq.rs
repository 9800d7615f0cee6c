//! Multi-level feedback queue, with OSTEP's final rules (ch. 8):
//! 1. a task at a higher level (0 is the highest) runs before one at a lower level;
//! 2. tasks at the same level take turns, each for that level's quantum;
//! 3. a new task starts at level 0;
//! 4. once a task has used its allotment of CPU time at a level, however many times it gave
//!    the CPU up on the way, it moves down a level (yielding does not reset the allotment:
//!    that was the gaming hole in the ArceOS student version);
//! 5. every boost period, all tasks move back to level 0.
//!
//! `mlfq.rule4=reset` restores OSTEP's earlier rule 4 (4a/4b): a task that gives the CPU up
//! (sleeps or yields) before its allotment at a level runs out stays there with the allotment
//! whole again, the hole a task games by sleeping just before it runs out.
//!
//! Defaults follow the ArceOS student scheduler: 8 levels, level 0 gets one 1-tick quantum,
//! quanta double per level; the allotment is one quantum of the level (OSTEP's `-a 1`).

use runqueue_sched_api::{Carry, Choice, Enqueue, Fields, Int, Invalid, Kind, List, MAX_TASKS, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, TidQueue, Tunable, ms, tunables};

const MAX_LEVELS: usize = 16;

tunables! {
    const TUNABLES;
    LEVELS: Int = Setting::int(Tunable { name: "mlfq.levels", kind: Kind::Int { min: 1, max: MAX_LEVELS as i64 }, default: "8", unit: "", help: "number of priority levels" });
    QUANTUM: List = Setting::list(Tunable {
        name: "mlfq.quantum_ms",
        kind: Kind::List { min: 1, max: 10_000 },
        default: "1",
        unit: "ms",
        help: "quantum per level: one value doubles at each level down, or one value per level",
    });
    ALLOTMENT: List = Setting::list(Tunable {
        name: "mlfq.allotment_ms",
        kind: Kind::List { min: 1, max: 100_000 },
        default: "1",
        unit: "ms",
        help: "CPU time a task may use at a level before moving down: one value doubling per level, or one per level",
    });
    BOOST: Int = Setting::int(Tunable {
        name: "mlfq.boost_ms",
        kind: Kind::Int { min: 0, max: 100_000 },
        default: "1000",
        unit: "ms",
        help: "period of the priority boost to level 0 (0: never)",
    });
    RULE4: Choice<Rule4> = Setting::choice(Tunable {
        name: "mlfq.rule4",
        kind: Kind::Choice(&["total", "reset"]),
        default: "total",
        unit: "",
        help: "total: the allotment counts all CPU time at a level (OSTEP's final rule 4); reset: giving the CPU up restores it (the early rule, which a task can game)",
    }, &[Rule4::Total, Rule4::Reset]);
}

/// `mlfq.rule4`: what a task's allotment at a level counts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Rule4 {
    /// All CPU time at the level, across yields and sleeps (OSTEP's final rule).
    Total,
    /// CPU time since the task last gave the CPU up (OSTEP's rules 4a/4b).
    Reset,
}

pub const SPEC: SchedSpec<Mlfq> = SchedSpec {
    name: "mlfq",
    help: "multi-level feedback queue (OSTEP rules 1-5): short and interactive tasks stay on top",
    tunables: TUNABLES,
    queue: QueueView { order: &["lvl"], show: &["lvl", "used"], pick: Pick::First },
    build,
};

/// One value per level, from either a base that doubles or an explicit per-level list.
fn per_level(s: &Settings, setting: &Setting<List>, levels: usize) -> Result<[u64; MAX_LEVELS], Invalid> {
    let list = s.get(setting);
    let mut out = [0; MAX_LEVELS];
    match list.len {
        1 => (0..levels).for_each(|l| out[l] = (list.items[0] as u64) << l.min(20)),
        n if n == levels => (0..levels).for_each(|l| out[l] = list.items[l] as u64),
        _ => {
            return Err(Invalid(setting.name(), "give one value (doubled per level) or exactly mlfq.levels values"));
        }
    }
    out.iter_mut().for_each(|v| *v *= 1_000_000);
    Ok(out)
}

fn build(s: &Settings, _: &Run) -> Result<Mlfq, Invalid> {
    let levels = s.get(&LEVELS) as usize;
    Ok(Mlfq {
        levels,
        quantum: per_level(s, &QUANTUM, levels)?,
        allotment: per_level(s, &ALLOTMENT, levels)?,
        boost_every: ms(s.get(&BOOST)),
        rule4: s.get(&RULE4),
        next_boost: None,
        queues: [const { TidQueue::new() }; MAX_LEVELS],
        state: [Level { level: 0, used: 0, turn: 0, demoted: false }; MAX_TASKS],
    })
}

#[derive(Clone, Copy)]
struct Level {
    level: usize,
    /// CPU time used at this level (against the allotment) and in this turn (the quantum).
    used: u64,
    turn: u64,
    /// Moved down while running: give the CPU up at the next tick.
    demoted: bool,
}

pub struct Mlfq {
    levels: usize,
    quantum: [u64; MAX_LEVELS],
    allotment: [u64; MAX_LEVELS],
    boost_every: u64,
    rule4: Rule4,
    next_boost: Option<u64>,
    queues: [TidQueue; MAX_LEVELS],
    state: [Level; MAX_TASKS],
}

impl Mlfq {
    /// Rule 5: everyone back to the top, queued tasks in their old priority order.
    fn boost(&mut self) {
        let (top, rest) = self.queues.split_at_mut(1);
        rest.iter_mut().for_each(|q| top[0].append(q));
        self.state.iter_mut().for_each(|s| *s = Level { level: 0, used: 0, turn: s.turn, demoted: false });
    }
}

impl Scheduler for Mlfq {
    fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64) {
        if why == Enqueue::New {
            self.state[task.tid] = Level { level: 0, used: 0, turn: 0, demoted: false };
            if self.next_boost.is_none() && self.boost_every > 0 {
                self.next_boost = Some(now + self.boost_every);
            }
        }
        let s = &mut self.state[task.tid];
        if self.rule4 == Rule4::Reset && matches!(why, Enqueue::Wakeup | Enqueue::Yielded) {
            s.used = 0;
        }
        s.turn = 0;
        s.demoted = false;
        self.queues[s.level].push_back(task.tid);
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        self.queues[..self.levels].iter_mut().find_map(|q| q.take_first(allowed))
    }

    /// Rule 4: the allotment counts the CPU time at the level, across yields and sleeps unless
    /// `mlfq.rule4=reset` (then `enqueue` starts it again).
    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        let last = self.levels - 1;
        let s = &mut self.state[task.tid];
        s.used += ran_ns;
        s.turn += ran_ns;
        if s.level < last && s.used >= self.allotment[s.level] {
            s.level += 1;
            s.used = 0;
            s.demoted = true;
        }
    }

    fn tick(&mut self, current: &Task, now: u64) -> bool {
        if let Some(at) = self.next_boost.filter(|&at| now >= at) {
            self.boost();
            self.next_boost = Some(at + self.boost_every * ((now - at) / self.boost_every + 1));
        }
        let s = &self.state[current.tid];
        let others_wait = self.queues.iter().any(|q| !q.is_empty());
        others_wait && (s.demoted || s.turn >= self.quantum[s.level])
    }

    /// Rule 1 applies at once: a woken task at a higher level takes the CPU.
    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        self.state[woken.tid].level < self.state[current.tid].level
    }

    /// The level and the CPU time used of its allotment there (Rule 4's account).
    fn describe(&self, tid: Tid, out: &mut Fields) {
        out.field("lvl", self.state[tid].level as u64).field("used", self.state[tid].used);
    }

    fn milestone(&self, tid: Tid, out: &mut Fields) {
        out.field("lvl", self.state[tid].level as u64);
    }

    /// A move keeps the task's level and what it used there; each hart boosts its own queue.
    fn detach(&mut self, task: &Task, queued: bool, _now: u64) -> Option<Carry> {
        let s = self.state[task.tid];
        if queued {
            self.queues[s.level].take_first(&|t| t == task.tid);
        }
        Some(Carry([s.level as i64, s.used as i64, s.turn as i64, s.demoted as i64, 0, 0]))
    }

    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, now: u64) {
        let [level, used, turn, demoted, ..] = carry.0;
        let level = (level as usize).min(self.levels - 1);
        self.state[task.tid] = Level { level, used: used as u64, turn: turn as u64, demoted: demoted != 0 };
        if self.next_boost.is_none() && self.boost_every > 0 {
            self.next_boost = Some(now + self.boost_every);
        }
        if queued {
            self.queues[level].push_back(task.tid);
        }
    }
}
