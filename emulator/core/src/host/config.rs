//! The host's settings: the `host=` preset and the `host.*` words of the boot command line
//! (`docs/platform.md`, "The host below the guest"). Each word is one of the knobs seeds 000
//! and 003 turned on a real KVM host.

use alloc::format;
use alloc::string::String;
use runqueue_machine_settings::host::{self as words, Chrt, Preset};
use runqueue_settings::Settings;

/// A host thread's scheduling policy, as `chrt` sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// SCHED_OTHER (nice 0): the host's fair class.
    Other,
    /// SCHED_FIFO at a priority 1..=99.
    Fifo(u8),
    /// SCHED_RR at a priority 1..=99.
    Rr(u8),
}

impl Policy {
    pub fn rt_prio(self) -> Option<u8> {
        match self {
            Policy::Other => None,
            Policy::Fifo(p) | Policy::Rr(p) => Some(p),
        }
    }
}

/// The modelled host. `enabled == false` (`host=bare`, the default) is a machine with no host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostConfig {
    pub enabled: bool,
    /// Host CPUs; 0 = one more than the guest's harts (a housekeeping CPU beside them).
    pub cpus: u32,
    /// The vCPU threads' policy (`chrt`).
    pub vcpu: Policy,
    /// vCPU i pinned to one host CPU (`taskset` / libvirt's `vcpupin`): the i-th isolated CPU,
    /// or CPU i+1 when none is isolated.
    pub pin: bool,
    /// Bit c = host CPU c. `isolcpus`: out of every thread's default affinity (only pinned
    /// vCPUs run there); `nohz_full`: no tick while one thread runs; `rcu_nocbs`: RCU
    /// callbacks run in a kernel thread on a housekeeping CPU instead of in softirq here.
    pub isolcpus: u32,
    pub nohz_full: u32,
    pub rcu_nocbs: u32,
    /// Host CPUs that device interrupts (and the softirq work they leave) may hit; 0 = all.
    pub irq_affinity: u32,
    /// RT throttling: real-time threads get at most 950 ms of every second on a CPU
    /// (`sched_rt_runtime_us`; 0 writes -1 there).
    pub rt_throttle: bool,
    /// `idle=poll` on the host: an idle CPU spins, so waking it costs no C-state exit.
    pub idle_poll: bool,
    /// Exit latency of the deep C-state an idle CPU enters after `CSTATE_RESIDENCY`, in µs.
    pub cstate_us: u32,
    /// What one exit to the host and back costs the guest, in ns: every SBI call, every
    /// injected timer interrupt, every wakeup of a halted vCPU.
    pub exit_ns: u32,
    /// Timer interrupts reach the guest without an exit (posted interrupts on x86; the Sstc
    /// extension's guest timer on RISC-V): the "KVM+DirectIRQ" row of seed 000.
    pub direct_irq: bool,
    /// CPU-bound SCHED_OTHER threads (a build, another user's job).
    pub hogs: u32,
    /// Another guest's vCPU threads: SCHED_OTHER, busy 2 ms of every 5.
    pub guests: u32,
    /// The host kernel's own work: the tick, device interrupts, RCU callbacks, kworkers,
    /// ksoftirqd.
    pub noise: bool,
    /// A PREEMPT_RT host kernel (`host.kernel=rt`): device interrupts keep only their hard part
    /// (waking the handler's thread) and RCU callbacks leave softirq, both for threads a
    /// real-time vCPU of higher priority preempts; a stock kernel runs them ahead of every
    /// thread.
    pub rt_kernel: bool,
    /// Seeds the noise's jitter (the run's `seed=`).
    pub seed: u64,
}

impl HostConfig {
    pub const BARE: HostConfig = HostConfig {
        enabled: false,
        cpus: 0,
        vcpu: Policy::Other,
        pin: false,
        isolcpus: 0,
        nohz_full: 0,
        rcu_nocbs: 0,
        irq_affinity: 0,
        rt_throttle: true,
        idle_poll: false,
        cstate_us: 80,
        exit_ns: 2000,
        direct_irq: false,
        hogs: 0,
        guests: 0,
        noise: true,
        rt_kernel: false,
        seed: 0,
    };

    /// An ordinary host: every setting at its default, the host kernel's own work on.
    pub const UNTUNED: HostConfig = HostConfig { enabled: true, ..HostConfig::BARE };

    /// The CPUs the guest's vCPUs run on when tuned: 1..=harts, leaving CPU 0 to the host.
    fn guest_cpus(harts: usize) -> u32 {
        ((1u32 << harts) - 1) << 1
    }

    /// Seed 003's tuning: a PREEMPT_RT host kernel, vCPUs at SCHED_FIFO 99 pinned to isolated,
    /// tickless, callback-free CPUs, interrupts on CPU 0, RT throttling off, the host polling
    /// when idle.
    fn tuned(harts: usize) -> HostConfig {
        let guest = Self::guest_cpus(harts);
        HostConfig {
            rt_kernel: true,
            vcpu: Policy::Fifo(99),
            pin: true,
            isolcpus: guest,
            nohz_full: guest,
            rcu_nocbs: guest,
            irq_affinity: 1,
            rt_throttle: false,
            idle_poll: true,
            ..Self::UNTUNED
        }
    }

    /// The host CPU count in effect for a machine with `harts` harts.
    pub fn cpu_count(&self, harts: usize) -> u32 {
        if self.cpus == 0 { harts as u32 + 1 } else { self.cpus }
    }

    /// The host `host=` and the `host.*` words ask for (and `seed=`, which seeds its noise).
    /// Any `host.*` word without `host=` starts from `host=untuned`; with `host=bare` it is an
    /// error, as is a priority without a real-time policy or a CPU the host does not have.
    pub fn from_settings(s: &Settings, harts: usize) -> Result<HostConfig, String> {
        let knob = s.first_given(&words::TABLE[1..]);
        let mut host = match (s.is_given(&words::HOST), s.get(&words::HOST), knob) {
            (false, _, None) | (true, Preset::Bare, None) => HostConfig::BARE,
            (true, Preset::Bare, Some(k)) => return Err(format!("{k}: host=bare has no host to set; use host=untuned or host=tuned")),
            (false, _, Some(_)) | (true, Preset::Untuned, _) => HostConfig::UNTUNED,
            (true, Preset::Tuned, _) => HostConfig::tuned(harts),
        };
        host.seed = s.get(&runqueue_machine_settings::SEED) as u64;
        if s.is_given(&words::CPUS_COUNT) {
            host.cpus = s.get(&words::CPUS_COUNT) as u32;
        }
        if let Some(chrt) = s.get(&words::VCPU) {
            // A real-time policy keeps the preset's priority, or 99 as seed 000 used.
            let prio = host.vcpu.rt_prio().unwrap_or(99);
            host.vcpu = match chrt {
                Chrt::Other => Policy::Other,
                Chrt::Fifo => Policy::Fifo(prio),
                Chrt::Rr => Policy::Rr(prio),
            };
        }
        if let Some(pin) = s.get(&words::PIN) {
            host.pin = pin;
        }
        for (setting, mask) in [
            (&words::ISOLCPUS, &mut host.isolcpus),
            (&words::NOHZ_FULL, &mut host.nohz_full),
            (&words::RCU_NOCBS, &mut host.rcu_nocbs),
            (&words::IRQ_AFFINITY, &mut host.irq_affinity),
        ] {
            if s.is_given(setting) {
                *mask = s.get(setting);
            }
        }
        if let Some(throttle) = s.get(&words::RT_THROTTLE) {
            host.rt_throttle = throttle;
        }
        if let Some(poll) = s.get(&words::IDLE) {
            host.idle_poll = poll;
        }
        if let Some(rt) = s.get(&words::KERNEL) {
            host.rt_kernel = rt;
        }
        for (setting, value) in [(&words::CSTATE_US, &mut host.cstate_us), (&words::EXIT_NS, &mut host.exit_ns), (&words::HOGS, &mut host.hogs), (&words::GUESTS, &mut host.guests)] {
            if s.is_given(setting) {
                *value = s.get(setting) as u32;
            }
        }
        for (setting, flag) in [(&words::DIRECT_IRQ, &mut host.direct_irq), (&words::NOISE, &mut host.noise)] {
            if s.is_given(setting) {
                *flag = s.get(setting) == 1;
            }
        }
        if s.is_given(&words::VCPU_PRIO) {
            let p = s.get(&words::VCPU_PRIO) as u8;
            host.vcpu = match host.vcpu {
                Policy::Other => return Err("host.vcpu_prio: a priority needs host.vcpu=fifo or host.vcpu=rr".into()),
                Policy::Fifo(_) => Policy::Fifo(p),
                Policy::Rr(_) => Policy::Rr(p),
            };
        }
        host.check(harts)?;
        Ok(host)
    }

    /// Settings that name CPUs must name CPUs the host has, and leave one for housekeeping.
    pub(crate) fn check(&self, harts: usize) -> Result<(), String> {
        if !self.enabled {
            return Ok(());
        }
        let cpus = self.cpu_count(harts);
        let all = (1u32 << cpus) - 1;
        for (name, mask) in [("host.isolcpus", self.isolcpus), ("host.nohz_full", self.nohz_full), ("host.rcu_nocbs", self.rcu_nocbs)] {
            if mask & !all != 0 {
                return Err(format!("{name}: the host has CPUs 0 to {}", cpus - 1));
            }
            if mask == all {
                return Err(format!("{name}: every host CPU is named; one must stay for housekeeping"));
            }
        }
        if self.irq_affinity != 0 && self.irq_affinity & all == 0 {
            return Err(format!("host.irq_affinity: no CPU the host has (0 to {})", cpus - 1));
        }
        if self.pin && harts as u32 >= cpus && self.isolcpus == 0 {
            return Err(format!("host.pin: {harts} vCPUs pinned beside CPU 0 need host.cpus of at least {}", harts + 1));
        }
        Ok(())
    }
}
