//! The modelled host's words (`docs/platform.md`, "The host below the guest"). A knob whose
//! value the preset decides defaults to `preset` (or, for a CPU list, to none named), so that
//! the page, which leaves defaults off the command line, never drops a value that differs from
//! the preset's.

use runqueue_settings::{Choice, Features, Int, Kind, Setting, Tunable, tunables};

/// Most host CPUs: one more than the most harts, for a housekeeping CPU.
pub const MAX_CPUS: u32 = 9;

/// Host CPUs by number, as the host's cpu lists name them.
const CPUS: &[&str] = &["0", "1", "2", "3", "4", "5", "6", "7", "8"];

/// `host=`: no host, a stock one, or one tuned for real time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    Bare,
    Untuned,
    Tuned,
}

/// A host thread's scheduling class, as `chrt` sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chrt {
    Other,
    Fifo,
    Rr,
}

tunables! {
    pub const TABLE;
    pub HOST: Choice<Preset> = Setting::choice(Tunable {
        name: "host",
        kind: Kind::Choice(&["bare", "untuned", "tuned"]),
        default: "bare",
        unit: "",
        help: "the host under the harts: none (bare), a stock Linux host with its own work (untuned), or tuned for real time as seed 003 did (tuned: a PREEMPT_RT host kernel and its knobs); provided by the machine",
    }, &[Preset::Bare, Preset::Untuned, Preset::Tuned]);
    pub CPUS_COUNT: Int = Setting::int(Tunable {
        name: "host.cpus",
        kind: Kind::Int { min: 0, max: MAX_CPUS as i64 },
        default: "0",
        unit: "CPUs",
        help: "the host's CPUs; 0 = one more than smp (a housekeeping CPU beside the vCPUs)",
    });
    pub VCPU: Choice<Option<Chrt>> = Setting::choice(Tunable {
        name: "host.vcpu",
        kind: Kind::Choice(&["preset", "other", "fifo", "rr"]),
        default: "preset",
        unit: "",
        help: "the host policy of the vCPU threads, as chrt sets it: SCHED_OTHER, SCHED_FIFO or SCHED_RR; preset: as host= has it (untuned: other, tuned: fifo)",
    }, &[None, Some(Chrt::Other), Some(Chrt::Fifo), Some(Chrt::Rr)]);
    pub VCPU_PRIO: Int = Setting::int(Tunable {
        name: "host.vcpu_prio",
        kind: Kind::Int { min: 1, max: 99 },
        default: "99",
        unit: "",
        help: "real-time priority of the vCPU threads with host.vcpu=fifo or rr",
    });
    pub PIN: Choice<Option<bool>> = Setting::choice(Tunable {
        name: "host.pin",
        kind: Kind::Choice(&["preset", "0", "1"]),
        default: "preset",
        unit: "",
        help: "1: each vCPU thread pinned to its own host CPU (taskset, vcpupin): an isolated one if any, else CPU i+1; preset: as host= has it (untuned: 0, tuned: 1)",
    }, &[None, Some(false), Some(true)]);
    pub ISOLCPUS: Features = Setting::features(Tunable {
        name: "host.isolcpus",
        kind: Kind::Features(CPUS),
        default: "",
        unit: "CPUs",
        help: "host CPUs out of every thread's default affinity: only pinned vCPUs run there; none named: as host= has it (untuned: none, tuned: the vCPUs' CPUs)",
    });
    pub NOHZ_FULL: Features = Setting::features(Tunable {
        name: "host.nohz_full",
        kind: Kind::Features(CPUS),
        default: "",
        unit: "CPUs",
        help: "host CPUs whose tick stops while one thread runs there; none named: as host= has it (untuned: none, tuned: the vCPUs' CPUs)",
    });
    pub RCU_NOCBS: Features = Setting::features(Tunable {
        name: "host.rcu_nocbs",
        kind: Kind::Features(CPUS),
        default: "",
        unit: "CPUs",
        help: "host CPUs whose RCU callbacks run in a thread on a housekeeping CPU instead of in softirq there; none named: as host= has it (untuned: none, tuned: the vCPUs' CPUs)",
    });
    pub IRQ_AFFINITY: Features = Setting::features(Tunable {
        name: "host.irq_affinity",
        kind: Kind::Features(CPUS),
        default: "",
        unit: "CPUs",
        help: "host CPUs that device interrupts (and their softirq work) may hit; none named: as host= has it (untuned: all, tuned: 0)",
    });
    pub RT_THROTTLE: Choice<Option<bool>> = Setting::choice(Tunable {
        name: "host.rt_throttle",
        kind: Kind::Choice(&["preset", "0", "1"]),
        default: "preset",
        unit: "",
        help: "1: the host's real-time threads get at most 950 ms of each second on a CPU (sched_rt_runtime_us); 0: -1 there; preset: as host= has it (untuned: 1, tuned: 0)",
    }, &[None, Some(false), Some(true)]);
    /// `Some(true)`: the host polls when idle (`idle=poll`).
    pub IDLE: Choice<Option<bool>> = Setting::choice(Tunable {
        name: "host.idle",
        kind: Kind::Choice(&["preset", "halt", "poll"]),
        default: "preset",
        unit: "",
        help: "an idle host CPU halts in a C-state (waking it costs its exit latency) or polls, as idle=poll; preset: as host= has it (untuned: halt, tuned: poll)",
    }, &[None, Some(false), Some(true)]);
    /// `Some(true)`: a PREEMPT_RT host kernel.
    pub KERNEL: Choice<Option<bool>> = Setting::choice(Tunable {
        name: "host.kernel",
        kind: Kind::Choice(&["preset", "stock", "rt"]),
        default: "preset",
        unit: "",
        help: "the host's kernel: stock, whose interrupts and softirqs (RCU callbacks among them) run ahead of every thread, or PREEMPT_RT (rt), which runs device interrupt handlers in threads at SCHED_FIFO 50 and RCU callbacks in threads at SCHED_FIFO 1, which a vCPU of higher priority preempts; preset: as host= has it (untuned: stock, tuned: rt)",
    }, &[None, Some(false), Some(true)]);
    pub CSTATE_US: Int = Setting::int(Tunable {
        name: "host.cstate_us",
        kind: Kind::Int { min: 0, max: 10_000 },
        default: "80",
        unit: "us",
        help: "exit latency of the deep C-state a host CPU enters after 300 us idle",
    });
    pub EXIT_NS: Int = Setting::int(Tunable {
        name: "host.exit_ns",
        kind: Kind::Int { min: 0, max: 100_000 },
        default: "2000",
        unit: "ns",
        help: "what one exit to the host and back costs the guest: each SBI call, injected timer interrupt and wakeup of a halted vCPU",
    });
    pub DIRECT_IRQ: Int = Setting::int(Tunable {
        name: "host.direct_irq",
        kind: Kind::Int { min: 0, max: 1 },
        default: "0",
        unit: "",
        help: "1: timer interrupts reach the guest without an exit (posted interrupts; RISC-V's Sstc guest timer)",
    });
    pub HOGS: Int = Setting::int(Tunable {
        name: "host.hogs",
        kind: Kind::Int { min: 0, max: 16 },
        default: "0",
        unit: "threads",
        help: "CPU-bound SCHED_OTHER threads on the host, the first on the first vCPU's CPU",
    });
    pub GUESTS: Int = Setting::int(Tunable {
        name: "host.guests",
        kind: Kind::Int { min: 0, max: 16 },
        default: "0",
        unit: "vCPUs",
        help: "vCPU threads of another guest on the host (SCHED_OTHER, busy 2 ms of every 5)",
    });
    pub NOISE: Int = Setting::int(Tunable {
        name: "host.noise",
        kind: Kind::Int { min: 0, max: 1 },
        default: "1",
        unit: "",
        help: "1: the host kernel's own work runs: its tick, device interrupts, RCU callbacks, kworkers, ksoftirqd",
    });
}
