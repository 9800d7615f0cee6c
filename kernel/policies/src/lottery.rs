//! Lottery scheduling (Carl A. Waldspurger and William E. Weihl, "Lottery Scheduling: Flexible
//! Proportional-Share Resource Management", OSDI '94). Each runnable task holds tickets; every
//! quantum a ticket is drawn at random among the tickets of the runnable tasks, and its holder
//! runs. Over n draws a task with a fraction p of the tickets wins n·p of them on average, with
//! a binomial spread of sqrt(n·p·(1-p)): the share is right in expectation and only
//! approximately right over a short run.
//!
//! - **Tickets** come from the task (`Task::tickets`: the `tickets=` list, else 100 at nice 0,
//!   in proportion to CFS's weight otherwise, `tickets_for_nice`).
//! - **The draw**: `winner = r mod total`, then walk the queued tasks in tid order adding up
//!   their tickets until the sum passes `winner` (the paper's list walk; OSTEP's `lottery.py`).
//!   The current task takes part in the draw at the end of its quantum: if it wins again it
//!   simply keeps the CPU.
//! - **The random numbers** come from SplitMix64 (Steele, Lea and Flood, "Fast Splittable
//!   Pseudorandom Number Generators", OOPSLA 2014), seeded with the run's `seed=` plus the hart
//!   (each hart's queue has its own stream): the same arguments give the same draws, byte for
//!   byte. (The paper's Mach prototype used the Park-Miller generator.)
//! - **Compensation tickets** (the paper's section on them; `lottery.compensate=1`): a task that
//!   gave the CPU up after using only a fraction f of its quantum holds tickets / f until it
//!   next wins, so a task that often blocks early still gets its share. f is counted from at
//!   least 1 µs of CPU time (ours: a task that blocks at once would otherwise divide by zero).
//! - **Quantum** `lottery.quantum_ms` (10), ended at the tick nearest to its end: the order of a classic UNIX time slice (the 100 Hz
//!   clock of 4.4BSD and early Linux ticked every 10 ms), ten of our 1 ms ticks, and short
//!   enough that a 1-3 s experiment holds 100-300 draws. The paper's prototype used Mach's
//!   100 ms quantum; `lottery.quantum_ms=100` shows how few draws a short run then gets.
//!
//! - **Currencies** (the paper's ticket currencies): with `cgroup=` each group is a currency,
//!   funded by its `cpu.weight` (100: 100 base tickets, as a task at nice 0 holds). The root's
//!   queue draws among its tasks and the groups' entities, and a group's own queue then draws
//!   among its tasks by their tickets in the group's currency, so inflating one currency dilutes
//!   only its own tasks. A group's entity holds its funding as `calc_group_shares` gives it
//!   (`Scheduler::reweight`, the group layer's), in base tickets. Each queue draws from its own
//!   stream (`queue_index`).
//! - **Transfers**: while a task waits for one of the kernel's mutexes, its tickets count for
//!   the owner in every draw, and for the owner's owner if that one waits too; they come back
//!   when the wait ends. The mutexes lend them where they would lend a priority (`lock.pi=1`,
//!   the default; `Scheduler::lend`), as the paper proposes transfers against priority
//!   inversion. Tickets lend only within one queue: a waiter and an owner in different groups
//!   or on different harts' queues (`rq=perhart`) lend nothing.
//!
//! Not modelled: the move-to-front list heuristic (an optimisation that changes no outcome).

use crate::Where;
use crate::cfs::weight_of;
use runqueue_sched_api::{Carry, Enqueue, Fields, Kind, MAX_ENTITIES, MAX_TASKS, SchedSpec, Scheduler, Settings, Task, Tid, Tunable};

/// Quanta are checked at ticks: a quantum ends at the tick nearest to its end, the first one at
/// which at most half a tick of it is left (a task switched in just after a tick would
/// otherwise run a whole tick longer than its quantum).
pub fn quantum_end(s: &dyn Settings, name: &str) -> u64 {
    let (quantum, tick) = (s.ms(name), s.int("tick_us").max(0) as u64 * 1000);
    quantum.saturating_sub(tick / 2).max(1)
}

/// The tickets of a task with `nice` and no `tickets=` value: 100 at nice 0, scaled like CFS's
/// weight (nice 5: 33, nice -5: 305), at least 1.
pub fn tickets_for_nice(nice: i32) -> u32 {
    ((weight_of(nice) * 100 + 512) / 1024).max(1) as u32
}

pub const SPEC: SchedSpec<Lottery> = SchedSpec {
    name: "lottery",
    help: "lottery scheduling (Waldspurger and Weihl, 1994): every quantum, a ticket drawn at random picks the task that runs",
    tunables: &[
        Tunable {
            name: "lottery.quantum_ms",
            kind: Kind::Int { min: 1, max: 1000 },
            default: "10",
            unit: "ms",
            help: "CPU time a winner runs before the next draw (checked at ticks)",
        },
        Tunable {
            name: "lottery.compensate",
            kind: Kind::Int { min: 0, max: 1 },
            default: "1",
            unit: "",
            help: "1: a task that used only a fraction f of its quantum holds 1/f times its tickets until it next wins (compensation tickets); 0: never",
        },
    ],
    build: |s: &dyn Settings| {
        Ok(Lottery {
            quantum: s.ms("lottery.quantum_ms"),
            quantum_end: quantum_end(s, "lottery.quantum_ms"),
            compensate: s.int("lottery.compensate") == 1,
            seed: s.int("seed") as u64,
            node: 0,
            rng: None,
            clients: [Client::NONE; MAX_ENTITIES],
            chosen: [None; CHOSEN_HARTS],
        })
    },
};

/// SplitMix64: a 64-bit state advanced by a fixed odd constant, each output a mix of it. Also
/// the seeded draws of the kernel's random workloads.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[derive(Clone, Copy)]
struct Client {
    tickets: u64,
    /// Tickets held now: `tickets`, or more while compensated.
    held: u64,
    place: Where,
    /// Harts it may run on (from its last enqueue), for draws made at a tick.
    allowed: u32,
    /// CPU time in its current quantum.
    used: u64,
    /// The winning ticket and the pool of the last draw it won.
    draw: u64,
    pool: u64,
    /// The owner of the mutex it waits for, to whom it lends its tickets (0: none). A byte, so that the policy is no larger than before transfers: every policy
    /// shares its size, and the kernel's boot copies it.
    lent_to: u8,
}

impl Client {
    const NONE: Client = Client { tickets: 100, held: 100, place: Where::Off, allowed: 0, used: 0, draw: 0, pool: 0, lent_to: 0 };
}

/// A group entity's funding in base tickets: its weight on the scale where nice 0's 1024 is 100
/// tickets (`tickets_for_nice`), at least 1.
fn tickets_for_weight(weight: u64) -> u64 {
    ((weight * 100 + 512) / 1024).max(1)
}

pub struct Lottery {
    quantum: u64,
    /// The CPU time after which the tick ends a quantum (`quantum_end`).
    quantum_end: u64,
    compensate: bool,
    seed: u64,
    /// Which queue of the group hierarchy this is (0: the root): part of the stream's seed.
    node: usize,
    /// Seeded on the first draw, with the hart of that draw and `node`.
    rng: Option<SplitMix64>,
    clients: [Client; MAX_ENTITIES],
    /// Per hart, a queued task that won the draw at the end of the current task's quantum there:
    /// that hart's next pick (another hart's pick may take it first; then a new draw).
    chosen: [Option<Tid>; CHOSEN_HARTS],
}

/// Harts whose tick-time winner is remembered (the kernel runs at most 4).
const CHOSEN_HARTS: usize = 8;

impl Lottery {
    /// The tickets `t` holds in a draw: its own, and those lent to it.
    fn value(&self, t: Tid) -> u64 {
        self.clients[t].held + self.borrowed(t)
    }

    /// The tickets lent to `t` by the tasks waiting for it, and by those waiting for them (a
    /// mutex chain is short and has no cycle: the kernel refuses a deadlock).
    fn borrowed(&self, t: Tid) -> u64 {
        (1..MAX_TASKS).filter(|&w| self.clients[w].lent_to as Tid == t).map(|w| self.clients[w].tickets + self.borrowed(w)).sum()
    }

    /// Draws among the queued tasks `ok` accepts, plus `current` if given; records the draw
    /// with the winner.
    fn draw(&mut self, hart: usize, ok: &dyn Fn(Tid) -> bool, current: Option<Tid>) -> Option<Tid> {
        let eligible = |t: Tid, c: &Client| (c.place == Where::Queued && ok(t)) || Some(t) == current;
        let pool: u64 = (1..MAX_ENTITIES).filter(|&t| eligible(t, &self.clients[t])).map(|t| self.value(t)).sum();
        if pool == 0 {
            return None;
        }
        let seed = self.seed.wrapping_add((self.node as u64) << 40);
        let rng = self.rng.get_or_insert_with(|| SplitMix64(seed.wrapping_add((hart as u64) << 32)));
        let winning = rng.next() % pool;
        let mut sum = 0;
        let t = (1..MAX_ENTITIES).filter(|&t| eligible(t, &self.clients[t])).find(|&t| {
            sum += self.value(t);
            winning < sum
        })?;
        let c = &mut self.clients[t];
        c.draw = winning;
        c.pool = pool;
        Some(t)
    }

    fn others_queued(&self, hart: usize) -> bool {
        self.clients.iter().any(|c| c.place == Where::Queued && c.allowed & (1 << hart) != 0)
    }

    /// Compensation: a task leaving after using a fraction f of its quantum holds tickets / f.
    fn leave_early(&mut self, tid: Tid) {
        let (quantum, compensate) = (self.quantum, self.compensate);
        let c = &mut self.clients[tid];
        c.held = if compensate && c.used < quantum { c.tickets * quantum / c.used.max(1000) } else { c.tickets };
    }
}

impl Scheduler for Lottery {
    fn enqueue(&mut self, task: &Task, why: Enqueue, _now: u64) {
        let c = &mut self.clients[task.tid];
        if why == Enqueue::New {
            *c = Client { tickets: task.tickets.max(1) as u64, held: task.tickets.max(1) as u64, ..Client::NONE };
        }
        c.place = Where::Queued;
        c.allowed = task.allowed;
        if why == Enqueue::Yielded {
            self.leave_early(task.tid);
        }
    }

    fn pick_next(&mut self, hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let chosen = self.chosen.get_mut(hart).and_then(Option::take).filter(|&t| self.clients[t].place == Where::Queued && allowed(t));
        let pick = match chosen {
            Some(t) => t,
            None => self.draw(hart, allowed, None)?,
        };
        let c = &mut self.clients[pick];
        c.place = Where::Running;
        c.held = c.tickets;
        c.used = 0;
        Some(pick)
    }

    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        self.clients[task.tid].used += ran_ns;
    }

    /// At the end of a quantum, a new draw with the current task in it.
    fn tick(&mut self, current: &Task, _now: u64) -> bool {
        let hart = current.hart.unwrap_or(0);
        if self.clients[current.tid].used < self.quantum_end || !self.others_queued(hart) {
            return false;
        }
        let masks: [u32; MAX_ENTITIES] = core::array::from_fn(|t| self.clients[t].allowed);
        let winner = self.draw(hart, &|t| masks[t] & (1 << hart) != 0, Some(current.tid));
        if winner == Some(current.tid) {
            // It won again: it keeps the CPU for another quantum.
            self.clients[current.tid].used = 0;
            return false;
        }
        if let Some(slot) = self.chosen.get_mut(hart) {
            *slot = winner;
        }
        winner.is_some()
    }

    fn block(&mut self, task: &Task, _now: u64) {
        self.leave_early(task.tid);
        self.clients[task.tid].place = Where::Off;
    }

    fn exit(&mut self, task: &Task) {
        self.clients[task.tid].place = Where::Off;
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        let c = &self.clients[tid];
        out.field("tickets", c.tickets).field("held", c.held).field("draw", c.draw).field("pool", c.pool);
    }

    fn detach(&mut self, task: &Task, _queued: bool, _now: u64) -> Option<Carry> {
        let c = self.clients[task.tid];
        self.clients[task.tid].place = Where::Off;
        Some(Carry([c.tickets as i64, c.held as i64, c.used as i64, c.draw as i64, c.pool as i64, 0]))
    }

    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, _now: u64) {
        let [tickets, held, used, draw, pool, _] = carry.0;
        let place = if queued { Where::Queued } else { Where::Off };
        let (tickets, held, used, draw, pool) = (tickets as u64, held as u64, used as u64, draw as u64, pool as u64);
        self.clients[task.tid] = Client { tickets, held, place, allowed: task.allowed, used, draw, pool, lent_to: 0 };
    }

    /// Groups are currencies.
    fn hierarchical(&self) -> bool {
        true
    }

    /// A group's funding changed: its entity's tickets follow (compensation keeps its ratio).
    fn reweight(&mut self, id: Tid, weight: u64) {
        let c = &mut self.clients[id];
        let tickets = tickets_for_weight(weight);
        c.held = c.held * tickets / c.tickets;
        c.tickets = tickets;
    }

    fn queue_index(&mut self, node: usize) {
        self.node = node;
    }

    fn lend(&mut self, waiter: Tid, owner: Option<Tid>) {
        self.clients[waiter].lent_to = owner.unwrap_or(0) as u8;
    }
}
