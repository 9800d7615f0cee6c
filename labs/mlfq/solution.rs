//! Reference solution of the MLFQ lab (`labs/mlfq/README.md`): OSTEP's rules 1-5, with the
//! allotment counted across yields and sleeps and a periodic boost. Instructors only.

use runqueue_sched_api::{Enqueue, Fields, Int, Kind, MAX_TASKS, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, TidQueue, Tunable, ms, tunables};

const MAX_LEVELS: usize = 8;

tunables! {
    const TUNABLES;
    LEVELS: Int = Setting::int(Tunable { name: "lab.mlfq.levels", kind: Kind::Int { min: 1, max: MAX_LEVELS as i64 }, default: "3", unit: "", help: "number of levels (0 is the highest)" });
    QUANTUM: Int = Setting::int(Tunable { name: "lab.mlfq.quantum_ms", kind: Kind::Int { min: 1, max: 1000 }, default: "2", unit: "ms", help: "quantum at level 0; it doubles at each level down" });
    ALLOTMENT: Int = Setting::int(Tunable { name: "lab.mlfq.allotment_ms", kind: Kind::Int { min: 1, max: 10_000 }, default: "4", unit: "ms", help: "CPU time a task may use at level 0 before it moves down; doubles at each level" });
    BOOST: Int = Setting::int(Tunable { name: "lab.mlfq.boost_ms", kind: Kind::Int { min: 1, max: 100_000 }, default: "100", unit: "ms", help: "every this often, all tasks go back to level 0" });
}

pub const SPEC: SchedSpec<Mlfq> = SchedSpec {
    name: "lab-mlfq",
    help: "lab: multi-level feedback queue with allotments and a periodic boost",
    tunables: TUNABLES,
    queue: QueueView { order: &["lvl"], show: &["lvl", "used"], pick: Pick::First },
    build: |s: &Settings, _: &Run| {
        Ok(Mlfq {
            levels: s.get(&LEVELS) as usize,
            quantum: ms(s.get(&QUANTUM)),
            allotment: ms(s.get(&ALLOTMENT)),
            boost_every: ms(s.get(&BOOST)),
            next_boost: None,
            ready: [const { TidQueue::new() }; MAX_LEVELS],
            tasks: [Place { level: 0, used: 0, slice: 0 }; MAX_TASKS],
        })
    },
};

#[derive(Clone, Copy)]
struct Place {
    level: usize,
    /// CPU time used at this level, against the allotment (survives yields and sleeps).
    used: u64,
    /// CPU time used since the task last got the CPU, against the quantum.
    slice: u64,
}

pub struct Mlfq {
    levels: usize,
    quantum: u64,
    allotment: u64,
    boost_every: u64,
    next_boost: Option<u64>,
    ready: [TidQueue; MAX_LEVELS],
    tasks: [Place; MAX_TASKS],
}

impl Mlfq {
    fn quantum_at(&self, level: usize) -> u64 {
        self.quantum << level
    }

    fn allotment_at(&self, level: usize) -> u64 {
        self.allotment << level
    }

    /// Rule 5: every task to level 0; the queued ones keep their order, higher levels first.
    fn boost(&mut self) {
        let (top, lower) = self.ready.split_at_mut(1);
        for queue in lower.iter_mut() {
            top[0].append(queue);
        }
        for place in self.tasks.iter_mut() {
            place.level = 0;
            place.used = 0;
        }
    }
}

impl Scheduler for Mlfq {
    fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64) {
        if why == Enqueue::New {
            // Rule 3: a new task starts at the top.
            self.tasks[task.tid] = Place { level: 0, used: 0, slice: 0 };
            self.next_boost.get_or_insert(now + self.boost_every);
        }
        let place = &mut self.tasks[task.tid];
        place.slice = 0;
        self.ready[place.level].push_back(task.tid);
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        // Rules 1 and 2: the first allowed task of the highest non-empty level.
        self.ready[..self.levels].iter_mut().find_map(|q| q.take_first(allowed))
    }

    /// Rule 4: all CPU time at a level counts, however often the task gave the CPU up.
    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        let bottom = self.levels - 1;
        let allotment = self.allotment_at(self.tasks[task.tid].level);
        let place = &mut self.tasks[task.tid];
        place.used += ran_ns;
        place.slice += ran_ns;
        if place.level < bottom && place.used >= allotment {
            place.level += 1;
            place.used = 0;
        }
    }

    fn tick(&mut self, current: &Task, now: u64) -> bool {
        if let Some(due) = self.next_boost.filter(|&due| now >= due) {
            self.boost();
            let periods = (now - due) / self.boost_every + 1;
            self.next_boost = Some(due + periods * self.boost_every);
        }
        let place = self.tasks[current.tid];
        // Rule 1 at once (also after a demotion); rule 2 once the quantum is used up.
        let waiting_above = self.ready[..place.level].iter().any(|q| !q.is_empty());
        let quantum_over = place.slice >= self.quantum_at(place.level);
        let others = self.ready.iter().any(|q| !q.is_empty());
        waiting_above || (quantum_over && others)
    }

    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        self.tasks[woken.tid].level < self.tasks[current.tid].level
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        out.field("lvl", self.tasks[tid].level as u64);
    }

    fn milestone(&self, tid: Tid, out: &mut Fields) {
        out.field("lvl", self.tasks[tid].level as u64);
    }
}
