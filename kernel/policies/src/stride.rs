//! Stride scheduling (Carl A. Waldspurger and William E. Weihl, "Stride Scheduling:
//! Deterministic Proportional-Share Resource Management", MIT/LCS/TM-528, June 1995): lottery
//! scheduling's shares without the randomness. Each task has a *stride* = STRIDE1 / tickets
//! and a *pass*; the task with the smallest pass runs, and its pass advances by its stride for
//! every quantum it uses. Over any interval, each task's CPU time differs from its ticket share
//! by at most about one quantum.
//!
//! Following the paper:
//! - `STRIDE1` = 2^20 (the paper's "large integer stride constant"), stride = STRIDE1 / tickets
//!   (integer division, as there).
//! - **Nonuniform quanta** (its section 2.4): a task charged for a fraction f of a quantum
//!   (it blocked, yielded or was charged at a tick) advances by f × stride; we charge exact CPU
//!   time, `pass += stride × ran_ns / quantum_ns`, carrying the remainder of the division so
//!   that nothing is lost over many small charges.
//! - **Dynamic participation** (its section 2.3): `global_tickets` is the sum of the runnable
//!   tasks' tickets, `global_stride` = STRIDE1 / global_tickets, and `global_pass` advances by
//!   global_stride per quantum of CPU time given out. A task that leaves (sleeps, blocks,
//!   exits) saves `remain = pass - global_pass`; when it joins again its pass becomes
//!   `global_pass + remain`: it keeps exactly the lead or debt it had, and sleeping earns it
//!   nothing. A new task starts with `remain = stride` (pass = global_pass + stride, as the
//!   static algorithm starts every client at pass = stride).
//! - A quantum ends after `stride.quantum_ms` of CPU time (at the tick nearest to that); then the task
//!   with the smallest pass runs, which may be the same one (ties: first queued first). A
//!   waking task waits for the current quantum to end (the paper allocates per quantum).
//!
//! `global_pass` advances with CPU time given out, not with wall time: the same thing on one
//! busy hart, and on several harts sharing one queue (`rq=global`) it stays the
//! ticket-weighted average of the passes. With a queue per hart each has its own
//! `global_pass`, and a task moving between them carries its `remain`, as it would leaving
//! one and joining the other.
//!
//! The bridge to CFS: pass is CFS's vruntime, stride its `NICE_0_LOAD / weight`, and
//! `global_pass` is what EEVDF calls V, the weighted average virtual time; `remain` is EEVDF's
//! lag (in pass units, with the opposite sign).

use crate::Where;
use crate::lottery::quantum_end;
use runqueue_sched_api::{Carry, Enqueue, Fields, Int, Kind, MAX_TASKS, Pick, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, Tunable, ms, tunables};

pub const STRIDE1: u64 = 1 << 20;

tunables! {
    const TUNABLES;
    QUANTUM: Int = Setting::int(Tunable {
    name: "stride.quantum_ms",
    kind: Kind::Int { min: 1, max: 1000 },
    default: "10",
    unit: "ms",
    help: "CPU time a task runs before the smallest pass is chosen again (checked at ticks)",
});
}

pub const SPEC: SchedSpec<Stride> = SchedSpec {
    name: "stride",
    help: "stride scheduling (Waldspurger and Weihl, 1995): run the task with the smallest pass; pass advances by STRIDE1/tickets per quantum",
    tunables: TUNABLES,
    queue: QueueView { order: &["pass"], show: &["tickets", "stride", "pass", "gpass"], pick: Pick::First },
    build: |s: &Settings, run: &Run| {
        Ok(Stride {
            quantum: ms(s.get(&QUANTUM)),
            quantum_end: quantum_end(ms(s.get(&QUANTUM)), run),
            clients: [Client::NONE; MAX_TASKS],
            global_tickets: 0,
            global_pass: 0,
            global_rest: 0,
            seq: 0,
        })
    },
};

#[derive(Clone, Copy)]
struct Client {
    tickets: u64,
    stride: u64,
    pass: u64,
    /// Remainder of `stride × ns / quantum` not yet added to `pass`.
    rest: u64,
    /// pass - global_pass when it left (the paper's `remain`).
    remain: i64,
    place: Where,
    allowed: u32,
    /// CPU time in its current quantum.
    used: u64,
    /// Enqueue order: equal passes run first come, first served.
    seq: u64,
}

impl Client {
    const NONE: Client = Client { tickets: 1, stride: STRIDE1, pass: 0, rest: 0, remain: 0, place: Where::Off, allowed: 0, used: 0, seq: 0 };
}

pub struct Stride {
    quantum: u64,
    /// The CPU time after which the tick ends a quantum (`lottery::quantum_end`).
    quantum_end: u64,
    clients: [Client; MAX_TASKS],
    global_tickets: u64,
    global_pass: u64,
    global_rest: u64,
    seq: u64,
}

impl Stride {
    fn global_stride(&self) -> u64 {
        STRIDE1.checked_div(self.global_tickets).unwrap_or(0)
    }

    /// `client_join`: back among the runnable, `remain` ahead of (or behind) the global pass.
    fn join(&mut self, tid: Tid) {
        let global_pass = self.global_pass;
        let c = &mut self.clients[tid];
        c.pass = (global_pass as i64 + c.remain).max(0) as u64;
        c.rest = 0;
        self.global_tickets += c.tickets;
    }

    /// `client_leave`: out of the runnable; what it is ahead or behind is kept in `remain`.
    fn leave(&mut self, tid: Tid) {
        let c = &mut self.clients[tid];
        if c.place == Where::Off {
            return;
        }
        c.remain = c.pass as i64 - self.global_pass as i64;
        c.place = Where::Off;
        self.global_tickets = self.global_tickets.saturating_sub(c.tickets);
    }

    /// The queued task with the smallest (pass, seq) that `ok` accepts.
    fn smallest(&self, ok: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        (1..MAX_TASKS).filter(|&t| self.clients[t].place == Where::Queued && ok(t)).min_by_key(|&t| (self.clients[t].pass, self.clients[t].seq))
    }
}

impl Scheduler for Stride {
    fn enqueue(&mut self, task: &Task, why: Enqueue, _now: u64) {
        let tid = task.tid;
        match why {
            Enqueue::New => {
                let tickets = task.tickets.max(1) as u64;
                let stride = STRIDE1 / tickets;
                self.clients[tid] = Client { tickets, stride, remain: stride as i64, ..Client::NONE };
                self.join(tid);
            }
            // A task moved off a hart it may no longer use arrives here preempted or yielding,
            // but out of this queue's books: it joins like a waking one.
            _ if self.clients[tid].place == Where::Off => self.join(tid),
            _ => {}
        }
        self.seq += 1;
        let c = &mut self.clients[tid];
        c.place = Where::Queued;
        c.allowed = task.allowed;
        c.seq = self.seq;
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let pick = self.smallest(allowed)?;
        let c = &mut self.clients[pick];
        c.place = Where::Running;
        c.used = 0;
        Some(pick)
    }

    /// Nonuniform quanta: pass advances by stride × (the fraction of a quantum used), and the
    /// global pass by global_stride × the same.
    fn charge(&mut self, task: &Task, ran_ns: u64, _now: u64) {
        let quantum = self.quantum.max(1);
        let global_stride = self.global_stride();
        let c = &mut self.clients[task.tid];
        let step = c.stride * ran_ns + c.rest;
        c.pass += step / quantum;
        c.rest = step % quantum;
        c.used += ran_ns;
        let step = global_stride * ran_ns + self.global_rest;
        self.global_pass += step / quantum;
        self.global_rest = step % quantum;
    }

    /// At the end of a quantum the smallest pass runs next; if that is still the current task,
    /// it goes on (a new quantum) without a switch.
    fn tick(&mut self, current: &Task, _now: u64) -> bool {
        let hart = current.hart.unwrap_or(0);
        let c = self.clients[current.tid];
        if c.used < self.quantum_end {
            return false;
        }
        let ahead = self.clients.iter().any(|o| o.place == Where::Queued && o.allowed & (1 << hart) != 0 && o.pass <= c.pass);
        if !ahead {
            self.clients[current.tid].used = 0;
        }
        ahead
    }

    fn block(&mut self, task: &Task, _now: u64) {
        self.leave(task.tid);
    }

    fn exit(&mut self, task: &Task) {
        self.leave(task.tid);
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        let c = &self.clients[tid];
        out.field("tickets", c.tickets).field("stride", c.stride).field("pass", c.pass).field("gpass", self.global_pass);
    }

    /// A move is a leave here and a join there: the task carries its `remain`.
    fn detach(&mut self, task: &Task, _queued: bool, _now: u64) -> Option<Carry> {
        self.leave(task.tid);
        let c = &self.clients[task.tid];
        Some(Carry([c.tickets as i64, c.stride as i64, c.remain, c.used as i64, 0, 0]))
    }

    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, _now: u64) {
        let [tickets, stride, remain, used, ..] = carry.0;
        let tid = task.tid;
        self.clients[tid] = Client { tickets: tickets as u64, stride: stride as u64, remain, used: used as u64, allowed: task.allowed, ..Client::NONE };
        if queued {
            self.join(tid);
            self.seq += 1;
            let c = &mut self.clients[tid];
            c.place = Where::Queued;
            c.seq = self.seq;
        }
    }
}
