//! The data cache model's words (`docs/platform.md`, "Data cache model"). The machine checks
//! what a table cannot say (powers of two, whole sets) when it builds the cache.

use runqueue_settings::{Int, Kind, Setting, Tunable, tunables};

/// Largest cache per hart, in KiB: L2-sized, and it keeps the tag arrays small (1 MiB per
/// hart at the smallest line size).
pub const MAX_KB: u32 = 4096;
pub const MIN_LINE: u32 = 16;
pub const MAX_LINE: u32 = 4096;
/// Most ways: every access searches its set, so a fully associative cache would be slow.
pub const MAX_WAYS: u32 = 32;
pub const MAX_MISS_NS: u32 = 10_000;

tunables! {
    pub const TABLE;
    pub KB: Int = Setting::int(Tunable { name: "cache.kb", kind: Kind::Int { min: 0, max: MAX_KB as i64 }, default: "0", unit: "KiB", help: "size of each hart's data cache, 0 = none (with one, moving a task to another hart costs misses); provided by the machine, QEMU ignores it" });
    pub LINE: Int = Setting::int(Tunable { name: "cache.line", kind: Kind::Int { min: MIN_LINE as i64, max: MAX_LINE as i64 }, default: "64", unit: "bytes", help: "data cache line size, a power of two; provided by the machine, QEMU ignores it" });
    pub WAYS: Int = Setting::int(Tunable { name: "cache.ways", kind: Kind::Int { min: 1, max: MAX_WAYS as i64 }, default: "8", unit: "ways", help: "data cache associativity (lines per set); provided by the machine, QEMU ignores it" });
    pub MISS_NS: Int = Setting::int(Tunable { name: "cache.miss_ns", kind: Kind::Int { min: 0, max: MAX_MISS_NS as i64 }, default: "100", unit: "ns", help: "how long a data cache miss stalls the hart, a multiple of 10 ns (default: a DRAM access); provided by the machine, QEMU ignores it" });
}
