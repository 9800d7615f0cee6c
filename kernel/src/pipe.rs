//! Pipes: bounded byte channels with blocking reads and writes, the kernel's one wait queue
//! besides sleeping. A pipe counts bytes rather than storing them: the workloads that use
//! it (hackbench) never look at the data, only at how the waiting and waking interleave.
//! Semantics follow Linux pipes: a read takes what is there (at least one byte, waiting while
//! the pipe is empty); a write of at most `PIPE_BUF` bytes goes in whole, waiting for room.
//! Each pipe knows how many writers it has; when the last closes its end, readers of the
//! empty pipe get end-of-file (0 bytes) instead of waiting forever.

use crate::dispatch::{self, KERNEL};
use crate::hart;
use crate::task::Tid;

pub const MAX_PIPES: usize = 32;
/// Linux's `PIPE_BUF`: writes up to this size are atomic.
pub const PIPE_BUF: u32 = 4096;

#[derive(Clone, Copy)]
struct Pipe {
    capacity: u32,
    used: u32,
    /// Tasks waiting to read or to write (bit t = task t).
    readers: u64,
    writers: u64,
    /// Writers that have not closed their end yet.
    open_writers: u32,
}

pub struct Pipes {
    pipes: [Pipe; MAX_PIPES],
    count: usize,
}

impl Pipes {
    pub const fn new() -> Pipes {
        Pipes { pipes: [Pipe { capacity: 0, used: 0, readers: 0, writers: 0, open_writers: 0 }; MAX_PIPES], count: 0 }
    }

    /// A new empty pipe of `capacity` bytes (at least `PIPE_BUF`) with `writers` writers;
    /// `None` when all are in use.
    pub fn create(&mut self, capacity: u32, writers: u32) -> Option<usize> {
        (self.count < MAX_PIPES).then(|| {
            self.pipes[self.count].capacity = capacity.max(PIPE_BUF);
            self.pipes[self.count].open_writers = writers;
            self.count += 1;
            self.count - 1
        })
    }
}

/// Wakes every task in `mask` (they retry their read or write).
fn wake_all(k: &mut dispatch::Kernel, mask: u64) {
    for tid in (0..64).filter(|t| mask & (1 << t) != 0) {
        k.wake_waiter(tid as Tid);
    }
}

/// Writes `len` (1..=PIPE_BUF) bytes to pipe `p`, waiting for room.
#[inline(always)]
pub fn write(p: usize, len: u32) {
    let len = len.clamp(1, PIPE_BUF);
    let me = hart::this().running.get();
    loop {
        let mut k = KERNEL.lock();
        let pipe = &mut k.pipes.pipes[p];
        if pipe.capacity - pipe.used >= len {
            pipe.used += len;
            let readers = core::mem::take(&mut pipe.readers);
            wake_all(&mut k, readers);
            drop(k);
            dispatch::preempt_point();
            return;
        }
        pipe.writers |= 1 << me;
        dispatch::block(k);
    }
}

/// One writer of pipe `p` closes its end; the last one wakes the readers for end-of-file.
pub fn close_writer(p: usize) {
    let mut k = KERNEL.lock();
    let pipe = &mut k.pipes.pipes[p];
    pipe.open_writers = pipe.open_writers.saturating_sub(1);
    if pipe.open_writers == 0 {
        let readers = core::mem::take(&mut pipe.readers);
        wake_all(&mut k, readers);
    }
    drop(k);
    dispatch::preempt_point();
}

/// Reads up to `len` bytes from pipe `p`, waiting while it is empty and has writers;
/// returns how many (0: end-of-file).
pub fn read(p: usize, len: u32) -> u32 {
    let me = hart::this().running.get();
    loop {
        let mut k = KERNEL.lock();
        let pipe = &mut k.pipes.pipes[p];
        if pipe.used > 0 {
            let got = pipe.used.min(len);
            pipe.used -= got;
            let writers = core::mem::take(&mut pipe.writers);
            wake_all(&mut k, writers);
            drop(k);
            dispatch::preempt_point();
            return got;
        }
        if pipe.open_writers == 0 {
            return 0;
        }
        pipe.readers |= 1 << me;
        dispatch::block(k);
    }
}

/// Reads exactly `len` bytes (hackbench's receive loop); false at end-of-file.
#[inline(always)]
pub fn read_exact(p: usize, len: u32) -> bool {
    let mut done = 0;
    while done < len {
        match read(p, len - done) {
            0 => return false,
            got => done += got,
        }
    }
    true
}
