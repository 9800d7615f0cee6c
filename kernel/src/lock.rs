//! A spinlock that also masks interrupts on its hart while held (xv6's `push_off`), so an
//! interrupt handler on the same hart can never spin on a lock its own hart holds.
//!
//! It is a ticket lock: harts get the lock in the order they asked for it. A test-and-set
//! lock lets a hart lose every race for as long as the others keep re-taking it, and on a
//! deterministic machine that interleaves harts in fixed turns such a losing streak repeats
//! itself: a hart with work waiting could sit spinning for milliseconds.

use crate::hart;
use core::cell::UnsafeCell;
use core::ops::{Deref, DerefMut};
use core::sync::atomic::{AtomicU32, Ordering};

pub struct SpinLock<T> {
    /// The next ticket to hand out, and the ticket whose holder may enter.
    next: AtomicU32,
    serving: AtomicU32,
    data: UnsafeCell<T>,
}

unsafe impl<T: Send> Sync for SpinLock<T> {}

impl<T> SpinLock<T> {
    pub const fn new(data: T) -> Self {
        SpinLock { next: AtomicU32::new(0), serving: AtomicU32::new(0), data: UnsafeCell::new(data) }
    }

    pub fn lock(&self) -> Guard<'_, T> {
        hart::push_off();
        let ticket = self.next.fetch_add(1, Ordering::Relaxed);
        while self.serving.load(Ordering::Acquire) != ticket {
            core::hint::spin_loop();
        }
        Guard { lock: self }
    }
}

pub struct Guard<'a, T> {
    lock: &'a SpinLock<T>,
}

impl<T> Deref for Guard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        unsafe { &*self.lock.data.get() }
    }
}

impl<T> DerefMut for Guard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        unsafe { &mut *self.lock.data.get() }
    }
}

impl<T> Drop for Guard<'_, T> {
    fn drop(&mut self) {
        // Only the holder writes `serving`, so a plain increment is enough.
        let lock = self.lock;
        lock.serving.store(lock.serving.load(Ordering::Relaxed).wrapping_add(1), Ordering::Release);
        hart::pop_off();
    }
}
