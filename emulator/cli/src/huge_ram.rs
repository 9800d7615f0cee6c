//! The machine's RAM in transparent huge pages. A Linux boot writes all over its 128 MiB, and
//! the host then faulted in one 4 KiB page at a time: 45,000 faults, about a tenth of a cold
//! boot's time, and a snapshot's scan for non-zero pages faulted in the untouched rest. Hosts
//! that hand out huge pages only where asked (`madvise` in
//! /sys/kernel/mm/transparent_hugepage/enabled, Debian's default) are asked for the RAM only.

use std::alloc::{GlobalAlloc, Layout, System};

/// Zeroed allocations this large are a machine's RAM (the smallest `--mem` is 1 MiB; the
/// default 128): nothing else the CLI allocates zeroed comes near.
const RAM_SIZED: usize = 16 << 20;

pub struct HugeRam;

// SAFETY: every call goes to `System`; `madvise` only advises on memory the allocation owns.
unsafe impl GlobalAlloc for HugeRam {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() && layout.size() >= RAM_SIZED {
            // The whole pages inside the allocation; advice a host does not take is no error.
            let start = (p as usize).next_multiple_of(4096);
            let end = (p as usize + layout.size()) & !4095;
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) }
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        unsafe { System.realloc(p, layout, size) }
    }
}
