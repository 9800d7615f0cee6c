//! The host's settings: the `host=` preset and the `host.*` words of the boot command line
//! (`docs/platform.md`, "The host below the guest"). Each word is one of the knobs seeds 000
//! and 003 turned on a real KVM host.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Most host CPUs: one more than the most harts, for a housekeeping CPU.
pub const MAX_HOST_CPUS: u32 = 9;

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

    /// Reads `host=` and the `host.*` words (and `seed=`) from `bootargs`. Any `host.*` word
    /// without `host=` starts from `host=untuned`; with `host=bare` it is an error, as is an
    /// unknown word, a bad value, a word given twice, or a CPU the host does not have.
    pub fn parse(bootargs: &str, harts: usize) -> Result<HostConfig, String> {
        let words: Vec<(&str, &str)> = bootargs.split_ascii_whitespace().filter_map(|w| w.split_once('=')).collect();
        let mut base = HostConfig::BARE;
        let preset = words.iter().find(|(k, _)| *k == "host").map(|(_, v)| *v);
        let knobs: Vec<&(&str, &str)> = words.iter().filter(|(k, _)| k.starts_with("host.")).collect();
        match preset {
            None if knobs.is_empty() => {}
            None | Some("untuned") => base = HostConfig::UNTUNED,
            Some("tuned") => base = HostConfig::tuned(harts),
            Some("bare") => {
                if let Some((k, _)) = knobs.first() {
                    return Err(format!("{k}: host=bare has no host to set; use host=untuned or host=tuned"));
                }
            }
            Some(other) => return Err(format!("host={other}: the host is bare, untuned or tuned")),
        }
        if let Some((_, seed)) = words.iter().find(|(k, _)| *k == "seed") {
            base.seed = seed.parse().unwrap_or(0);
        }
        let mut seen: Vec<&str> = Vec::new();
        let mut prio = None;
        for &&(key, value) in &knobs {
            if seen.contains(&key) {
                return Err(format!("{key} is given twice"));
            }
            seen.push(key);
            let set = match key {
                "host.vcpu_prio" => number(value, 1, 99).map(|p| prio = Some(p as u8)),
                _ => base.set(key, value),
            };
            set.map_err(|why| format!("{key}={value}: {why}"))?;
        }
        if let Some(p) = prio {
            base.vcpu = match base.vcpu {
                Policy::Other => return Err("host.vcpu_prio: a priority needs host.vcpu=fifo or host.vcpu=rr".into()),
                Policy::Fifo(_) => Policy::Fifo(p),
                Policy::Rr(_) => Policy::Rr(p),
            };
        }
        if words.iter().filter(|(k, _)| *k == "host").count() > 1 {
            return Err("host is given twice".into());
        }
        base.check(harts)?;
        Ok(base)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        // `preset`: as `host=` has it (the page's default for the knobs the presets decide).
        if value == "preset" && ["host.vcpu", "host.pin", "host.rt_throttle", "host.idle", "host.kernel"].contains(&key) {
            return Ok(());
        }
        match key {
            "host.cpus" => self.cpus = number(value, 0, MAX_HOST_CPUS)?,
            "host.vcpu" => {
                // A real-time policy keeps the preset's priority, or 99 as seed 000 used.
                let prio = self.vcpu.rt_prio().unwrap_or(99);
                self.vcpu = match value {
                    "other" => Policy::Other,
                    "fifo" => Policy::Fifo(prio),
                    "rr" => Policy::Rr(prio),
                    _ => return Err("the vCPU threads' policy is other, fifo or rr".into()),
                }
            }
            "host.pin" => self.pin = flag(value)?,
            "host.isolcpus" => self.isolcpus = cpu_list(value)?,
            "host.nohz_full" => self.nohz_full = cpu_list(value)?,
            "host.rcu_nocbs" => self.rcu_nocbs = cpu_list(value)?,
            "host.irq_affinity" => self.irq_affinity = cpu_list(value)?,
            "host.rt_throttle" => self.rt_throttle = flag(value)?,
            "host.idle" => {
                self.idle_poll = match value {
                    "halt" => false,
                    "poll" => true,
                    _ => return Err("an idle host CPU halts or polls".into()),
                }
            }
            "host.kernel" => {
                self.rt_kernel = match value {
                    "stock" => false,
                    "rt" => true,
                    _ => return Err("the host kernel is stock or rt (PREEMPT_RT)".into()),
                }
            }
            "host.cstate_us" => self.cstate_us = number(value, 0, 10_000)?,
            "host.exit_ns" => self.exit_ns = number(value, 0, 100_000)?,
            "host.direct_irq" => self.direct_irq = flag(value)?,
            "host.hogs" => self.hogs = number(value, 0, 16)?,
            "host.guests" => self.guests = number(value, 0, 16)?,
            "host.noise" => self.noise = flag(value)?,
            _ => return Err(format!("unknown host setting; the host's are {}", KNOBS.join(", "))),
        }
        Ok(())
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

const KNOBS: [&str; 17] = [
    "host.cpus",
    "host.vcpu",
    "host.vcpu_prio",
    "host.pin",
    "host.isolcpus",
    "host.nohz_full",
    "host.rcu_nocbs",
    "host.irq_affinity",
    "host.rt_throttle",
    "host.idle",
    "host.kernel",
    "host.cstate_us",
    "host.exit_ns",
    "host.direct_irq",
    "host.hogs",
    "host.guests",
    "host.noise",
];

fn number(value: &str, min: u32, max: u32) -> Result<u32, String> {
    match value.parse::<u32>() {
        Ok(n) if value.bytes().all(|b| b.is_ascii_digit()) && (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("a whole number from {min} to {max}")),
    }
}

fn flag(value: &str) -> Result<bool, String> {
    match value {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err("0 or 1".into()),
    }
}

/// `1,2,3`: a CPU mask (the kernel's lists, as `isolcpus=` has them).
fn cpu_list(value: &str) -> Result<u32, String> {
    value.split(',').filter(|c| !c.is_empty()).try_fold(0u32, |mask, c| Ok(mask | 1 << number(c, 0, MAX_HOST_CPUS - 1)?))
}
