//! The data cache model: exact misses for known access patterns, LRU order, write-invalidate
//! between harts, stalls in mcycle and mtime but not minstret, time that stays consistent when
//! a stall overruns a hart's quantum, the boot-argument parser, and determinism.

use super::enc::*;
use super::util::*;
use crate::cache::{CacheConfig, DataCaches};
use crate::{Config, LoadError, Machine, MachineOptions, Stop};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// `kb` KiB, `line`-byte lines, `ways` ways, and a miss of one tick, so stall = misses.
fn caches(kb: u32, line: u32, ways: u32, harts: usize) -> DataCaches {
    let config = CacheConfig { kb, line, ways, miss_ns: 10 };
    config.check().unwrap();
    DataCaches::new(config, harts).unwrap()
}

/// Misses of reading 8 bytes at each offset in turn, on hart 0.
fn misses(c: &mut DataCaches, offsets: impl IntoIterator<Item = u64>) -> u64 {
    offsets.into_iter().map(|off| c.access(0, off, 8, false)).sum()
}

#[test]
fn a_walk_that_fits_misses_once_per_line_and_then_hits() {
    let mut c = caches(32, 64, 8, 1);
    let walk = || (0..16 * 1024).step_by(8);
    assert_eq!(misses(&mut c, walk()), 256, "16 KiB of 64-byte lines");
    assert_eq!(misses(&mut c, walk()), 0, "all of it is still there");
}

#[test]
fn a_walk_larger_than_the_cache_misses_every_line_every_time() {
    // LRU with a sequential walk of twice the cache: each line is evicted before it comes back.
    let mut c = caches(32, 64, 8, 1);
    let walk = || (0..64 * 1024).step_by(8);
    assert_eq!(misses(&mut c, walk()), 1024);
    assert_eq!(misses(&mut c, walk()), 1024);
}

#[test]
fn conflict_misses_follow_the_associativity() {
    // 1 KiB, 64-byte lines, 2 ways: 8 sets, so addresses 512 bytes apart share a set.
    let mut c = caches(1, 64, 2, 1);
    let (a, b, x) = (0, 512, 1024);
    assert_eq!(misses(&mut c, [a, b, a, b, a, b]), 2, "two lines fit a 2-way set");
    assert_eq!(misses(&mut c, [x, a, b, x, a, b]), 6, "three lines cycling through 2 ways all miss");
    let mut direct = caches(1, 64, 1, 1);
    assert_eq!(misses(&mut direct, [a, x, a, x]), 4, "direct-mapped (16 sets): two lines of one set thrash");
    assert_eq!(misses(&mut direct, [a, 64, a, 64]), 1 + 1, "different sets do not conflict");
}

#[test]
fn replacement_is_least_recently_used() {
    let mut c = caches(1, 64, 2, 1);
    let (a, b, x) = (0, 512, 1024);
    assert_eq!(misses(&mut c, [a, b, a]), 2);
    assert_eq!(misses(&mut c, [x]), 1, "evicts b, the least recently used");
    assert_eq!(misses(&mut c, [a]), 0, "a was used after b, so it stayed");
    assert_eq!(misses(&mut c, [b]), 1, "b was evicted");
}

#[test]
fn an_access_across_two_lines_looks_up_both() {
    let mut c = caches(1, 64, 2, 1);
    assert_eq!(c.access(0, 60, 8, false), 2);
    assert_eq!(c.access(0, 56, 8, false), 0);
    assert_eq!(c.access(0, 64, 8, false), 0);
}

#[test]
fn a_write_invalidates_the_line_in_the_other_harts_only() {
    let mut c = caches(32, 64, 8, 3);
    let read = |c: &mut DataCaches, hart, off| c.access(hart, off, 8, false);
    assert_eq!((read(&mut c, 0, 0), read(&mut c, 1, 0), read(&mut c, 2, 0)), (1, 1, 1));
    assert_eq!((read(&mut c, 0, 0), read(&mut c, 1, 0)), (0, 0), "reads do not invalidate");
    assert_eq!(c.access(0, 8, 8, true), 0, "a write hit");
    assert_eq!(read(&mut c, 0, 0), 0, "the writer keeps its line");
    assert_eq!((read(&mut c, 1, 0), read(&mut c, 2, 32)), (1, 1), "the others lost it");
    assert_eq!(read(&mut c, 1, 64), 1, "other lines were not touched... and this one was never read");
    assert_eq!(c.access(1, 64, 8, true), 0);
    assert_eq!(read(&mut c, 0, 64), 1, "a write miss invalidates too");
}

#[test]
fn the_penalty_is_the_miss_time_in_instructions() {
    let config = CacheConfig { kb: 4, miss_ns: 250, ..CacheConfig::default() };
    let mut c = DataCaches::new(config, 1).unwrap();
    assert_eq!((c.access(0, 0, 8, false), c.access(0, 0, 8, false)), (25, 0));
    assert!(DataCaches::new(CacheConfig::default(), 1).is_none(), "off by default");
}

fn options(args: &str) -> Result<MachineOptions, String> {
    MachineOptions::parse(args).map_err(|e| e.to_string())
}

#[test]
fn boot_arguments_give_the_cache_and_harts() {
    let none = options("sched=cfs workload=spin").unwrap();
    assert_eq!((none.harts, none.cache, none.host, none.trace), (1, CacheConfig::default(), crate::HostConfig::BARE, true));
    assert!(!none.cache.is_on());
    let set = options("smp=2 cache.kb=48 cache.ways=12 cache.miss_ns=80 cache.line=64 cfs.latency_ns=6000000").unwrap();
    assert_eq!(set.harts, 2);
    assert_eq!(set.cache, CacheConfig { kb: 48, line: 64, ways: 12, miss_ns: 80 });
    assert_eq!(options("cache.kb=32").unwrap().cache, CacheConfig { kb: 32, ..CacheConfig::default() });
    assert_eq!(options("cache.kb=0 cache.line=16").unwrap().cache.line, 16, "settings are checked even when off");
}

#[test]
fn bad_boot_arguments_are_refused_with_the_word() {
    for (args, says) in [
        ("smp=two", "bad value 'two' for smp: expected an integer in 1..=8 harts"),
        ("cache.kb=+32", "bad value '+32' for cache.kb: expected an integer in 0..=4096 KiB"),
        ("cache.kb=-1", "bad value '-1' for cache.kb"),
        ("cache.kb=99999999999", "bad value '99999999999' for cache.kb"),
        ("cache.kb=", "bad value '' for cache.kb"),
        ("cache.kb=5000", "an integer in 0..=4096 KiB"),
        ("cache.line=48", "cache.line=48: the line size must be a power of two from 16 to 4096"),
        ("cache.line=8", "an integer in 16..=4096 bytes"),
        ("cache.ways=0", "an integer in 1..=32 ways"),
        ("cache.miss_ns=15", "cache.miss_ns=15: the miss penalty must be a multiple of 10 ns"),
        ("cache.miss_ns=20000", "an integer in 0..=10000 ns"),
        ("cache.kb=48", "cache.kb=48 cache.line=64 cache.ways=8: the number of sets"),
        ("cache.kb=1 cache.line=4096", "the number of sets"),
        ("cache.size=32", "unknown argument 'cache.size'; accepted: smp, seed, trace, cache.kb, cache.line, cache.ways, cache.miss_ns, host"),
        ("cache.kb=32 cache.kb=64", "argument 'cache.kb' given twice"),
    ] {
        let why = options(args).unwrap_err();
        assert!(why.starts_with("bad machine setting: ") && why.contains(says), "{args}: {why}");
    }
    let config = Config { cache: CacheConfig { kb: 3, ..CacheConfig::default() }, ..Config::default() };
    let refused = Machine::new(config, &elf(RAM, &[0; 4], 0, &[])).err();
    assert!(matches!(refused, Some(LoadError::MachineOption(_))), "{refused:?}");
}

const BUF: i64 = (RAM + 0x10_0000) as i64;
const FLAG: i64 = (RAM + 0x20_0000) as i64;
const LINES: i64 = 16;
const HART1: usize = 0x400;

/// Reads (or writes) the first byte of each of the `LINES` lines of `BUF`; with `into`, puts
/// in that register the ticks the walk stalled: mcycle's advance less minstret's, less the two
/// instructions that mcycle counts and minstret does not (the first mcycle and the last
/// minstret read).
fn walk(a: &mut Asm, write: bool, into: Option<u32>) {
    a.li(S0, BUF).li(S1, LINES);
    if into.is_some() {
        a.emit(csrrs(T1, 0xb00, 0)).emit(csrrs(T2, 0xb02, 0));
    }
    let top = a.here();
    a.emit(if write { sd(ZERO, S0, 0) } else { ld(T0, S0, 0) });
    a.emit(addi(S0, S0, 64)).emit(addi(S1, S1, -1));
    let back = top - a.here();
    a.emit(bne(S1, ZERO, back));
    if let Some(rd) = into {
        a.emit(csrrs(A0, 0xb02, 0)).emit(csrrs(A1, 0xb00, 0));
        a.all(&[sub(A1, A1, T1), sub(A0, A0, T2), sub(rd, A1, A0), addi(rd, rd, -2)]);
    }
}

/// Sets FLAG to `value` (clobbers t0, t1: `set_flag` uses s2 for the address).
fn set_flag(a: &mut Asm, value: i64) {
    a.li(S2, FLAG).li(T1, value).emit(sd(T1, S2, 0));
}

fn wait_flag(a: &mut Asm, value: i64) {
    a.li(S2, FLAG).li(T1, value);
    let top = a.here();
    a.emit(ld(T0, S2, 0));
    let back = top - a.here();
    a.emit(bne(T0, T1, back));
}

/// Two harts: hart 1 reads the buffer, hart 0 then writes it (or reads it), and hart 1 walks
/// it twice more, keeping the stalls of those walks in x21 and x22. Hart 0 measures its own
/// walk in x23.
fn two_harts(hart0_writes: bool) -> Vec<u8> {
    let mut a = Asm::default();
    let to_hart1 = a.hole();
    wait_flag(&mut a, 1);
    walk(&mut a, hart0_writes, Some(23));
    set_flag(&mut a, 2);
    wait_flag(&mut a, 3);
    a.exit(0);
    a.patch(to_hart1, bne(A0, ZERO, HART1 as i32));
    a.at(HART1);
    walk(&mut a, false, None);
    set_flag(&mut a, 1);
    wait_flag(&mut a, 2);
    walk(&mut a, false, Some(21));
    walk(&mut a, false, Some(22));
    set_flag(&mut a, 3);
    a.emit(jal(ZERO, 0));
    elf(RAM, &a.bytes, 0, &[])
}

fn cache(miss_ns: u32) -> CacheConfig {
    CacheConfig { kb: 32, miss_ns, ..CacheConfig::default() }
}

/// Runs to exit in slices of `slice`; the console, instructions, time, and hart 1's and 0's
/// measured stalls.
fn run_two(elf: &[u8], config: Config, slice: u64) -> (Vec<u8>, u64, u64, [u64; 3]) {
    let mut m = Machine::new(config, elf).unwrap();
    loop {
        match m.run(slice) {
            Stop::Budget => continue,
            Stop::Exit(0) => break,
            other => panic!("{other:?}"),
        }
    }
    (m.take_console(), m.instret(), m.time_ns(), [m.reg(1, 21), m.reg(1, 22), m.reg(0, 23)])
}

#[test]
fn data_another_hart_wrote_misses_and_data_it_read_does_not() {
    let config = Config { harts: 2, quantum: 97, cache: cache(100), ..Config::default() };
    let (.., wrote) = run_two(&two_harts(true), config.clone(), u64::MAX);
    assert_eq!(wrote, [LINES as u64 * 10, 0, LINES as u64 * 10], "hart 0 wrote: hart 1 misses each line once");
    let (.., read) = run_two(&two_harts(false), config, u64::MAX);
    assert_eq!(read, [0, 0, LINES as u64 * 10], "hart 0 only read: hart 1 keeps its lines");
}

#[test]
fn without_the_cache_nothing_stalls() {
    let config = Config { harts: 2, quantum: 97, ..Config::default() };
    assert_eq!(run_two(&two_harts(true), config, u64::MAX).3, [0, 0, 0]);
}

#[test]
fn the_same_run_whatever_the_slicing_and_the_quantum() {
    let elf = two_harts(true);
    for (quantum, miss_ns) in [(97, 100), (3, 1000), (1, 30)] {
        let config = Config { harts: 2, quantum, cache: cache(miss_ns), ..Config::default() };
        let whole = run_two(&elf, config.clone(), u64::MAX);
        let stall = LINES as u64 * miss_ns as u64 / 10;
        assert_eq!(whole.3, [stall, 0, stall], "quantum {quantum}");
        assert_eq!(run_two(&elf, config.clone(), u64::MAX), whole);
        assert_eq!(run_two(&elf, config.clone(), 1000), whole);
        assert_eq!(run_two(&elf, config, 7), whole);
    }
}

/// Stalls take each hart's time, not its instruction count, and the time stays one clock:
/// with a quantum far shorter than a miss, each hart reads a never-decreasing mtime, and hart
/// 0's mcycle stays with the machine's clock (its turns neither gain nor lose time).
#[test]
fn a_stall_longer_than_the_quantum_keeps_time_consistent() {
    let mut a = Asm::default();
    // Each hart walks its own 200 lines (a miss each), reading mtime after every load; exit
    // code 1 if it ever went back.
    a.emit(slli(S0, A0, 16)).li(T0, BUF).emit(add(S0, S0, T0));
    a.li(S1, 200).li(S3, 0x200_bff8).emit(addi(S4, ZERO, 0));
    let top = a.here();
    a.emit(ld(T0, S0, 0)).emit(ld(T1, S3, 0));
    let fine = a.hole();
    a.exit(1);
    a.patch(fine, b(5, T1, S4, a.here() - fine)); // bge: not earlier than the last reading
    a.emit(addi(S4, T1, 0)).emit(addi(S0, S0, 64)).emit(addi(S1, S1, -1));
    let back = top - a.here();
    a.emit(bne(S1, ZERO, back));
    let park = a.hole();
    a.emit(csrrs(S2, 0xb00, 0)).emit(csrrs(S3, 0xb02, 0)); // s4 still holds the last mtime
    a.exit(0);
    a.patch(park, bne(A0, ZERO, a.here() - park));
    a.emit(jal(ZERO, 0));
    let config = Config { harts: 2, quantum: 3, cache: cache(1000), ..Config::default() };
    let mut m = Machine::new(config, &elf(RAM, &a.bytes, 0, &[])).unwrap();
    assert_eq!(finish(&mut m).0, 0, "mtime never went back");
    let (mcycle, minstret, mtime) = (m.reg(0, 18), m.reg(0, 19), m.reg(0, 20));
    assert_eq!(mcycle - (minstret - 1), 200 * 100, "each of the 200 misses stalled 100 ticks");
    assert!(mcycle.abs_diff(mtime * 10) <= 20, "mcycle {mcycle}, last mtime read {mtime}");
}
