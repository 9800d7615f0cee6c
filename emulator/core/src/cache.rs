//! The optional per-hart data cache (`docs/platform.md`, "Data cache model").
//!
//! The model keeps tags only: data always comes from RAM, and the cache decides which accesses
//! miss. A miss stalls the hart for the miss penalty: its time (mtime, mcycle) runs on while
//! its instruction count (minstret) does not. Each set keeps its lines most recently used
//! first, so a hit moves its line to the front and a miss evicts the last one (LRU). A write
//! drops the line from every other hart's cache (write-invalidate), which is all the coherence
//! a tags-only model needs: a task that wrote its data on one hart misses on the next.

use crate::NS_PER_INSTRUCTION;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use runqueue_machine_settings::cache as words;

/// The data cache's shape and cost (the `cache.*=` boot arguments, see
/// [`MachineOptions`](crate::MachineOptions)). `kb == 0` means no cache, the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    /// Size of each hart's cache in KiB; 0 = no cache.
    pub kb: u32,
    /// Line size in bytes, a power of two.
    pub line: u32,
    /// Lines per set.
    pub ways: u32,
    /// How long a miss stalls the hart, in ns: a multiple of one instruction's 10 ns.
    pub miss_ns: u32,
}

impl Default for CacheConfig {
    /// Off; when switched on with `cache.kb=`, 64-byte lines in 8 ways (a common L1 data
    /// cache) and a 100 ns miss (a DRAM access; sources in `docs/platform.md`).
    fn default() -> Self {
        CacheConfig { kb: 0, line: 64, ways: 8, miss_ns: 100 }
    }
}

impl CacheConfig {
    // The limits the machine's table declares (`runqueue_machine_settings::cache`).
    pub const MAX_KB: u32 = words::MAX_KB;
    pub const MIN_LINE: u32 = words::MIN_LINE;
    pub const MAX_LINE: u32 = words::MAX_LINE;
    pub const MAX_WAYS: u32 = words::MAX_WAYS;
    pub const MAX_MISS_NS: u32 = words::MAX_MISS_NS;

    pub fn is_on(&self) -> bool {
        self.kb != 0
    }

    /// Why this is not a cache the machine can have, in the boot arguments' words.
    pub fn check(&self) -> Result<(), String> {
        let CacheConfig { kb, line, ways, miss_ns } = *self;
        let (max_kb, min_line, max_line) = (Self::MAX_KB, Self::MIN_LINE, Self::MAX_LINE);
        let (max_ways, max_miss_ns) = (Self::MAX_WAYS, Self::MAX_MISS_NS);
        if kb > max_kb {
            return Err(format!("cache.kb={kb}: the size must be 0 (no cache) to {max_kb} KiB"));
        }
        if !line.is_power_of_two() || !(min_line..=max_line).contains(&line) {
            return Err(format!("cache.line={line}: the line size must be a power of two from {min_line} to {max_line} bytes"));
        }
        if !(1..=max_ways).contains(&ways) {
            return Err(format!("cache.ways={ways}: the associativity must be 1 to {max_ways} ways"));
        }
        if miss_ns > max_miss_ns || !(miss_ns as u64).is_multiple_of(NS_PER_INSTRUCTION) {
            return Err(format!(
                "cache.miss_ns={miss_ns}: the miss penalty must be a multiple of {NS_PER_INSTRUCTION} ns \
                 (one instruction's time) from 0 to {max_miss_ns} ns"
            ));
        }
        let (bytes, set_bytes) = (kb as u64 * 1024, line as u64 * ways as u64);
        if kb != 0 && (!bytes.is_multiple_of(set_bytes) || !(bytes / set_bytes).is_power_of_two()) {
            return Err(format!(
                "cache.kb={kb} cache.line={line} cache.ways={ways}: the number of sets, size / (line x ways), \
                 must be a whole power of two"
            ));
        }
        Ok(())
    }
}

/// The tag arrays of every hart's cache.
#[derive(Clone)]
pub struct DataCaches {
    harts: usize,
    line_shift: u32,
    sets: usize,
    ways: usize,
    /// Stall per miss, in ticks (instructions' time).
    penalty: u64,
    /// Hart `h`'s set `s` is the `ways` entries from `(h * sets + s) * ways`, most recently
    /// used first. An entry is a line number (RAM offset / line size) plus one; 0 is empty.
    /// Line numbers fit: RAM is at most 2 GiB. Saved and restored with the machine.
    pub tags: Vec<u32>,
}

impl DataCaches {
    /// Empty caches for `harts` harts; `None` when `config` has no cache. `config` must pass
    /// [`CacheConfig::check`].
    pub fn new(config: CacheConfig, harts: usize) -> Option<DataCaches> {
        if !config.is_on() {
            return None;
        }
        let ways = config.ways as usize;
        let sets = config.kb as usize * 1024 / config.line as usize / ways;
        Some(DataCaches {
            harts,
            line_shift: config.line.trailing_zeros(),
            sets,
            ways,
            penalty: config.miss_ns as u64 / NS_PER_INSTRUCTION,
            tags: alloc::vec![0; harts * sets * ways],
        })
    }

    /// Hart `hart` accesses `len` bytes at RAM offset `off`: each line they touch is looked
    /// up, and filled on a miss; a write drops the lines from the other harts' caches.
    /// Returns the stall in ticks.
    pub fn access(&mut self, hart: usize, off: u64, len: u64, write: bool) -> u64 {
        let (first, last) = (off >> self.line_shift, (off + len.max(1) - 1) >> self.line_shift);
        let mut stall = 0;
        for line in first..=last {
            if self.lookup(hart, line) {
                stall += self.penalty;
            }
            if write {
                (0..self.harts).filter(|&h| h != hart).for_each(|h| self.invalidate(h, line));
            }
        }
        stall
    }

    fn set(&mut self, hart: usize, line: u64) -> &mut [u32] {
        let start = (hart * self.sets + (line as usize & (self.sets - 1))) * self.ways;
        &mut self.tags[start..start + self.ways]
    }

    /// Moves `line` to the front of its set in `hart`'s cache; true when it was not there
    /// (a miss, which evicts the set's least recently used line).
    fn lookup(&mut self, hart: usize, line: u64) -> bool {
        let tag = line as u32 + 1;
        let set = self.set(hart, line);
        // Most accesses are to the line used last: nothing to reorder.
        if set[0] == tag {
            return false;
        }
        let way = set.iter().position(|&t| t == tag);
        // The lines used more recently than it (on a miss, all but the last) move back one.
        for i in (1..=way.unwrap_or(set.len() - 1)).rev() {
            set[i] = set[i - 1];
        }
        set[0] = tag;
        way.is_none()
    }

    /// Drops `line` from `hart`'s cache, keeping the order of the rest (empty entries last).
    fn invalidate(&mut self, hart: usize, line: u64) {
        let tag = line as u32 + 1;
        let set = self.set(hart, line);
        if let Some(way) = set.iter().position(|&t| t == tag) {
            let last = set.len() - 1;
            for i in way..last {
                set[i] = set[i + 1];
            }
            set[last] = 0;
        }
    }
}
