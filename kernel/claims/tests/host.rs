//! Claims of the host layer (seeds 000 and 003: cyclictest in a KVM guest whose vCPU threads a
//! host schedules), on the real kernel on the emulator's modelled host. The figures are ours;
//! each test names what it checks and where the seed's figure is.

use runqueue_kernel_claims::{Run, kernel};

/// cyclictest as seed 003 ran it (`-i200`, one measuring thread at SCHED_FIFO) for one second
/// of 5000 wakeups, in an otherwise idle guest, as the seed's loadavg of 0.00 says.
const CYCLICTEST: &str = "sched=cfs workload=cyclictest wl.load=0 wl.interval_us=200 wl.loops=5000";
/// The same for five seconds: the host's rarer long work shows up (the seed ran ten minutes).
const CYCLICTEST_5S: &str = "sched=cfs workload=cyclictest wl.load=0 wl.interval_us=200 wl.loops=25000";
/// cyclictest in a busy guest (eight fair tasks working 2 ms, sleeping 0.1 ms): its vCPU always
/// wants its CPU, so it competes with whatever else the host runs there.
const BUSY: &str = "sched=cfs workload=cyclictest wl.loops=1000";

fn worst_us(run: &Run) -> f64 {
    run.result.tasks[0].lat.as_ref().expect("cyclictest reports latency").max_ns as f64 / 1000.0
}

/// The host's own time on the measuring hart: steal events on hart 0, by culprit.
fn stolen_by(run: &Run, culprit: &str) -> u64 {
    run.events.iter().filter(|e| e.hart == 0 && e.get("by").is_some_and(|b| b.starts_with(culprit))).map(|e| e.num("ns").unwrap() as u64).sum()
}

/// 003: the worst case fell from 1475 us on the untuned host to 12 us tuned. Ours: the
/// untuned host's worst case is at least ten times the tuned one's, and what made it is the
/// host's work, which the tuned host keeps off the vCPU's CPU.
#[test]
fn tuning_the_host_cuts_the_guest_worst_case_tenfold() {
    let untuned = kernel(&format!("{CYCLICTEST_5S} host=untuned"));
    let tuned = kernel(&format!("{CYCLICTEST_5S} host=tuned"));
    let (u, t) = (worst_us(&untuned), worst_us(&tuned));
    assert!(u >= 10.0 * t, "untuned {u} us, tuned {t} us");
    for culprit in ["kworker", "rcu-softirq", "irq", "c-state"] {
        assert_eq!(stolen_by(&tuned, culprit), 0, "the tuned host let {culprit} onto the vCPU's CPU");
    }
    assert!(stolen_by(&untuned, "kworker") + stolen_by(&untuned, "rcu-softirq") > 0);
}

/// A CPU hog on each host CPU.
const HOGGED: &str = "host=untuned host.hogs=2";

/// 000: moving the vCPU threads to a real-time policy lowered the worst case. Ours: on a host
/// with a CPU hog beside each vCPU, SCHED_FIFO beats SCHED_OTHER by far.
#[test]
fn fifo_vcpus_escape_a_host_hog() {
    let other = worst_us(&kernel(&format!("{CYCLICTEST} {HOGGED}")));
    let fifo = worst_us(&kernel(&format!("{CYCLICTEST} {HOGGED} host.vcpu=fifo")));
    assert!(fifo * 3.0 < other, "SCHED_FIFO {fifo} us, SCHED_OTHER {other} us");
}

/// 003: `isolcpus` on the host plus `vcpupin` to the isolated CPUs. Ours, with a busy guest
/// (an idle one's vCPU wakes ahead of a hog anyway, placed behind it in vruntime): the hogs'
/// effect is gone: no hog ever took the vCPU's CPU, the worst case is within a quarter of the
/// same host without hogs, and well below the hogged one's.
#[test]
fn pinning_to_isolated_cpus_removes_the_hogs() {
    let hogged = kernel(&format!("{BUSY} {HOGGED}"));
    let pinned = kernel(&format!("{BUSY} {HOGGED} host.pin=1 host.isolcpus=1"));
    let quiet = worst_us(&kernel(&format!("{BUSY} host=untuned host.pin=1 host.isolcpus=1")));
    assert!(stolen_by(&hogged, "hog") > 0);
    assert_eq!(stolen_by(&pinned, "hog"), 0);
    let p = worst_us(&pinned);
    assert!((p - quiet).abs() <= 0.25 * quiet, "pinned beside hogs {p} us, without hogs {quiet} us");
    assert!(p * 3.0 < worst_us(&hogged), "pinned {p} us, hogged {} us", worst_us(&hogged));
}

/// RT throttling (seed 003 turns it off): a SCHED_FIFO vCPU that never idles (guest
/// `idle=poll`) is taken off its CPU for the last 50 ms of each second.
#[test]
fn rt_throttling_stalls_a_polling_fifo_vcpu_unless_off() {
    let base = "sched=cfs workload=cyclictest wl.load=0 wl.loops=1500 idle=poll host=untuned host.vcpu=fifo host.pin=1";
    let throttled = kernel(base);
    let free = kernel(&format!("{base} host.rt_throttle=0"));
    let stalled = stolen_by(&throttled, "rt-throttled");
    assert!(stalled >= 45_000_000, "throttled for {stalled} ns");
    assert!(worst_us(&throttled) > 40_000.0, "worst {} us", worst_us(&throttled));
    assert_eq!(stolen_by(&free, "rt-throttled"), 0);
    assert!(worst_us(&free) < 2_000.0, "worst {} us", worst_us(&free));
}

/// Nothing of the host is seen without one: `host=bare` leaves no steal in the trace.
#[test]
fn a_bare_machine_has_no_host() {
    let run = kernel("sched=cfs workload=cyclictest wl.load=0 wl.interval_us=200 wl.loops=500");
    assert!(run.events.iter().all(|e| e.get("by").is_none()));
}
