//! The machine's RAM from memory the WebAssembly instance grows for it. Grown memory is zero and
//! untouched, but the standard allocator does not know that: it cleared a fresh 128 MiB by hand,
//! touching every page, 55 ms of each Worker's boot in Chromium. So zeroed allocations of RAM's
//! size are grown here; one freed is kept, and cleared when it is handed out again (its pages are
//! in memory by then: a few milliseconds). Everything else goes to the standard allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;

/// Zeroed allocations this large are a machine's RAM (1 MiB at the least, 128 by default).
const RAM_SIZED: usize = 16 << 20;
const WASM_PAGE: usize = 64 << 10;
/// Regions kept: a page's Worker holds one machine, and tests a few at a time.
const REGIONS: usize = 8;

#[derive(Clone, Copy)]
struct Region {
    start: usize,
    size: usize,
    used: bool,
}

pub struct FreshRam(UnsafeCell<[Option<Region>; REGIONS]>);

// SAFETY: wasm32-unknown-unknown runs one thread per instance.
unsafe impl Sync for FreshRam {}

impl FreshRam {
    pub const fn new() -> FreshRam {
        FreshRam(UnsafeCell::new([None; REGIONS]))
    }

    #[allow(clippy::mut_from_ref)]
    fn regions(&self) -> &mut [Option<Region>; REGIONS] {
        // SAFETY: one thread, and no call below re-enters the allocator while this is borrowed.
        unsafe { &mut *self.0.get() }
    }

    /// The region at `p`, if the allocation `layout` describes is one: only a RAM-sized one can
    /// be, so the standard allocator's frees never search the list.
    fn region_at(&self, p: *mut u8, layout: Layout) -> Option<&mut Region> {
        if layout.size() < RAM_SIZED {
            return None;
        }
        self.regions().iter_mut().flatten().find(|r| r.start == p as usize)
    }
}

unsafe impl GlobalAlloc for FreshRam {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let size = layout.size();
        if size < RAM_SIZED || layout.align() > WASM_PAGE {
            return unsafe { System.alloc_zeroed(layout) };
        }
        let regions = self.regions();
        if let Some(r) = regions.iter_mut().flatten().find(|r| !r.used && r.size >= size) {
            r.used = true;
            // SAFETY: the region is ours, at least `size` bytes, and no one else's now.
            unsafe { std::ptr::write_bytes(r.start as *mut u8, 0, size) };
            return r.start as *mut u8;
        }
        let Some(slot) = regions.iter_mut().find(|r| r.is_none_or(|r| !r.used)) else {
            return unsafe { System.alloc_zeroed(layout) };
        };
        let pages = size.div_ceil(WASM_PAGE);
        let old = core::arch::wasm32::memory_grow(0, pages);
        if old == usize::MAX {
            return std::ptr::null_mut();
        }
        // A smaller region freed before is forgotten: its memory stays the instance's, unused.
        *slot = Some(Region { start: old * WASM_PAGE, size: pages * WASM_PAGE, used: true });
        (old * WASM_PAGE) as *mut u8
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        match self.region_at(p, layout) {
            Some(r) => r.used = false,
            None => unsafe { System.dealloc(p, layout) },
        }
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        if self.region_at(p, layout).is_none() {
            return unsafe { System.realloc(p, layout, size) };
        }
        // SAFETY: `size` is not zero and fits `layout`'s alignment, as `realloc`'s contract says.
        let fresh = unsafe { self.alloc(Layout::from_size_align_unchecked(size, layout.align())) };
        if !fresh.is_null() {
            unsafe {
                std::ptr::copy_nonoverlapping(p, fresh, layout.size().min(size));
                self.dealloc(p, layout);
            }
        }
        fresh
    }
}
