//! A FIFO of task ids with a fixed capacity (one slot per possible task), for the policies
//! that keep plain queues (FIFO, RR, each MLFQ level).

use crate::{MAX_TASKS, Tid};

pub struct TidQueue {
    /// Tids fit a byte (`MAX_TASKS` <= 256), which keeps 16 MLFQ levels small.
    items: [u8; MAX_TASKS],
    len: usize,
}

impl TidQueue {
    pub const fn new() -> TidQueue {
        TidQueue { items: [0; MAX_TASKS], len: 0 }
    }

    /// A task is in at most one queue once, so the capacity can only be exceeded by a core
    /// bug; such a push is dropped rather than corrupting memory.
    pub fn push_back(&mut self, tid: Tid) {
        if self.len < MAX_TASKS {
            self.items[self.len] = tid as u8;
            self.len += 1;
        }
    }

    /// Puts `tid` first (a preempted SCHED_FIFO task keeps its place at the head).
    pub fn push_front(&mut self, tid: Tid) {
        if self.len < MAX_TASKS {
            self.items.copy_within(0..self.len, 1);
            self.items[0] = tid as u8;
            self.len += 1;
        }
    }

    /// Whether some queued task satisfies `ok`.
    pub fn any(&self, ok: &dyn Fn(Tid) -> bool) -> bool {
        self.items[..self.len].iter().any(|&t| ok(t as Tid))
    }

    /// Removes and returns the first task that `ok` accepts.
    pub fn take_first(&mut self, ok: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let i = self.items[..self.len].iter().position(|&t| ok(t as Tid))?;
        let tid = self.items[i] as Tid;
        self.items.copy_within(i + 1..self.len, i);
        self.len -= 1;
        Some(tid)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Moves every task of `other` to the back of this queue, keeping their order.
    pub fn append(&mut self, other: &mut TidQueue) {
        for i in 0..other.len {
            self.push_back(other.items[i] as Tid);
        }
        other.len = 0;
    }
}
