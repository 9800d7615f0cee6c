//! SCHED_BATCH and SCHED_IDLE as Linux's fair class has them (sched(7)), shared by CFS and
//! EEVDF: the weight of an idle task and the policies' part of the wakeup-preemption check.
//! Neither changes how the policy orders its queue: a batch task is a normal one whose wakeups
//! wait for the tick, an idle task a very light one that gives way to any other at once.

use crate::cfs::weight_of;
use runqueue_sched_api::{FairPolicy, Int, Run, Setting, Settings, Task};

/// `WEIGHT_IDLEPRIO` (`kernel/sched/sched.h`): `set_load_weight` (`core.c`) gives a SCHED_IDLE
/// task this weight whatever its nice: beside a nice-0 task (1024) it gets 3/1027 of a CPU.
pub const WEIGHT_IDLEPRIO: u64 = 3;

/// The load weight of a task of `nice` and `policy`.
pub fn weight(nice: i32, policy: FairPolicy) -> u64 {
    if policy == FairPolicy::Idle { WEIGHT_IDLEPRIO } else { weight_of(nice) }
}

/// What the two tasks' policies decide about `woken` preempting `current`, before any
/// comparison of vruntimes or deadlines, as `check_preempt_wakeup` (CFS, Linux 2.6.32-6.5) and
/// `check_preempt_wakeup_fair` (6.6, and 6.12 with `se_is_idle`) have it: a task that is not
/// SCHED_IDLE preempts a SCHED_IDLE one at once, and a SCHED_BATCH or SCHED_IDLE task never
/// preempts ("their preemption is driven by the tick"). `None`: the policies leave it to the
/// scheduler.
pub fn wakeup_verdict(current: &Task, woken: &Task) -> Option<bool> {
    if current.policy == FairPolicy::Idle && woken.policy != FairPolicy::Idle {
        return Some(true);
    }
    (woken.policy != FairPolicy::Normal).then_some(false)
}

/// `get_update_sysctl_factor` with Linux's default `SCHED_TUNABLESCALING_LOG`: 1 + log2 of the
/// CPUs, at most 8 of them counted (1, 2, 2, 3 on 1-4 harts).
pub fn scaling_factor(harts: usize) -> u64 {
    1 + harts.clamp(1, 8).ilog2() as u64
}

/// A granularity's value in ns: as the command line gave it (a debugfs write sets the value
/// itself), else `default` (Linux's one-CPU value) times the scaling factor, as Linux sets it
/// at boot (`sched_init_granularity`).
pub fn scaled_or(s: &Settings, setting: &Setting<Int>, default: u64, run: &Run) -> u64 {
    if s.is_given(setting) { s.get(setting) as u64 } else { default * scaling_factor(run.harts) }
}

/// `scaled_or` with the tunable's own default.
pub fn scaled(s: &Settings, setting: &Setting<Int>, run: &Run) -> u64 {
    scaled_or(s, setting, s.get(setting) as u64, run)
}
