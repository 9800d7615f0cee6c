//! The modelled host: its settings' parser, steal that matches the host's scheduling (a vCPU
//! sharing its CPU with a hog runs half the time at SCHED_OTHER and all of it at SCHED_FIFO,
//! until RT throttling takes 50 ms of the second), traced steal that adds up, determinism
//! from the seed.

use super::enc::*;
use super::util::*;
use crate::{HostConfig, HostPolicy, Machine, MachineOptions, Stop};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Spins `iterations` two-instruction loops between two reads of mtime; exits with the
/// mtime ticks that passed in s1.
fn spinner(iterations: i64) -> Vec<u8> {
    let mut a = Asm::default();
    a.li(S0, 0x200_bff8).emit(ld(S1, S0, 0));
    a.li(T2, iterations);
    a.emit(addi(T2, T2, -1)).emit(bne(T2, ZERO, -4));
    a.emit(ld(S2, S0, 0)).emit(sub(S1, S2, S1));
    a.exit(0);
    elf(RAM, &a.bytes, 0, &[])
}

/// mtime ticks the spinner took, and the trace, under `bootargs`.
fn spin(iterations: i64, bootargs: &str) -> (u64, String) {
    let mut m = Machine::boot(&spinner(iterations), None, &MachineOptions::parse(bootargs).unwrap()).unwrap();
    assert_eq!(m.run(1 << 31), Stop::Exit(0));
    (m.reg(0, S1 as usize), String::from_utf8(m.take_trace()).unwrap())
}

/// The spinner's own time: 2 instructions of 10 ns per iteration, in 100 ns mtime ticks.
fn alone(iterations: i64) -> u64 {
    iterations as u64 * 2 / 10
}

#[test]
fn presets_and_knobs_parse_and_bad_ones_say_why() {
    assert_eq!(MachineOptions::parse("sched=cfs").unwrap().host, HostConfig::BARE);
    let untuned = MachineOptions::parse("host=untuned").unwrap().host;
    assert!(untuned.enabled && untuned.vcpu == HostPolicy::Other && untuned.rt_throttle);
    let tuned = MachineOptions::parse("smp=2 host=tuned").unwrap().host;
    assert_eq!((tuned.vcpu, tuned.pin, tuned.isolcpus, tuned.irq_affinity, tuned.rt_throttle), (HostPolicy::Fifo(99), true, 0b110, 1, false));
    let kept = MachineOptions::parse("smp=2 host=tuned host.vcpu=preset host.rt_throttle=preset host.isolcpus=").unwrap().host;
    assert_eq!((kept.vcpu, kept.rt_throttle, kept.isolcpus), (HostPolicy::Fifo(99), false, 0), "preset keeps the preset's; an empty list is none");
    let knob = MachineOptions::parse("host.vcpu=rr host.vcpu_prio=5 host.hogs=2 seed=7").unwrap().host;
    assert_eq!((knob.enabled, knob.vcpu, knob.hogs, knob.seed), (true, HostPolicy::Rr(5), 2, 7), "a knob alone starts from untuned");
    for (bad, why) in [
        ("host=bare host.hogs=1", "host=bare has no host"),
        ("host=cloud", "bad value 'cloud' for host: expected one of: bare, untuned, tuned"),
        ("host.vcpu_prio=5", "needs host.vcpu=fifo"),
        ("host.isolcpus=1 host.cpus=2 host.nohz_full=0,1", "one must stay for housekeeping"),
        ("host.isolcpus=5", "CPUs 0 to 1"),
        ("host.hogs=1 host.hogs=2", "given twice"),
        ("host.warp=1", "unknown argument 'host.warp'"),
        ("host.pin=yes", "expected one of: preset, 0, 1"),
    ] {
        let e = MachineOptions::parse(bad).unwrap_err().to_string();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn a_hog_halves_a_fair_vcpu_and_not_a_fifo_one() {
    let n = 2_000_000; // 40 ms of work
    // A hog on each of the two CPUs: an unpinned vCPU would wake on an idle CPU if there were one.
    let quiet = "host.noise=0 host.hogs=2";
    let (bare, _) = spin(n, "");
    assert!(bare.abs_diff(alone(n)) <= 2, "no host: {bare} ticks");
    let (fair, trace) = spin(n, quiet);
    let ratio = fair as f64 / bare as f64;
    assert!((1.8..2.2).contains(&ratio), "SCHED_OTHER beside a hog: {fair} ticks, {ratio:.2}x");
    assert!(trace.lines().all(|l| l.contains(" steal 0 ") && l.contains("by=hog")), "{trace}");
    // The traced steal is the time the hart lost.
    let stolen: u64 = trace.lines().map(|l| l.split("ns=").nth(1).unwrap().split(' ').next().unwrap().parse::<u64>().unwrap()).sum();
    assert!((stolen / 100).abs_diff(fair - bare) <= 1000, "traced {stolen} ns, lost {} ticks", fair - bare);
    let (fifo, _) = spin(n, &alloc::format!("{quiet} host.vcpu=fifo"));
    assert!(fifo.abs_diff(bare) <= 1, "SCHED_FIFO beside a hog: {fifo} ticks, alone {bare}");
    let (pinned, _) = spin(n, &alloc::format!("{quiet} host.pin=1 host.isolcpus=1"));
    assert!(pinned.abs_diff(bare) <= 1, "pinned to an isolated CPU: {pinned}, alone {bare}");
}

#[test]
fn rt_throttling_takes_fifty_ms_of_the_second_unless_it_is_off() {
    let n = 60_000_000; // 1.2 s of work
    let quiet = "host.noise=0 host.hogs=2 host.vcpu=fifo";
    let (throttled, _) = spin(n, quiet);
    let lost = throttled - alone(n);
    assert!(lost.abs_diff(500_000) <= 1000, "lost {lost} ticks of 100 ns, expected 50 ms");
    let (free, _) = spin(n, &alloc::format!("{quiet} host.rt_throttle=0"));
    assert_eq!(free, alone(n));
}

#[test]
fn the_noise_is_the_seeds() {
    let n = 500_000;
    let (t0, trace0) = spin(n, "host=untuned");
    let (t0_again, trace0_again) = spin(n, "host=untuned");
    assert_eq!((t0, &trace0), (t0_again, &trace0_again));
    assert!(t0 > alone(n), "the tick and interrupts take some time");
    let (_, trace1) = spin(n, "host=untuned seed=1");
    assert_ne!(trace0, trace1);
    let (_, off) = spin(n, "host=untuned trace=off");
    assert!(off.is_empty(), "trace=off keeps host events out too");
}

