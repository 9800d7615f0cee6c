//! Linux 6.12's fair server (`kernel/sched/deadline.c`, `dl_server_*`, commits 63ba8422f876
//! "Introduce deadline servers" and a110a81c52a9 "Deferrable dl server", both in 6.12): a
//! deadline entity per CPU, `runtime` per `period` (50 ms per 1000 ms,
//! `/sys/kernel/debug/sched/fair_server/cpuN/{runtime,period}`), that runs the fair class when
//! real-time tasks would starve it: `rt.starvation=server` puts it in the place of RT
//! throttling, and is the default under `sched=eevdf eevdf.version=6.12`, since 6.12 built
//! without `CONFIG_RT_GROUP_SCHED` (as distributions and Runqueue's Linux build it) throttles
//! real-time tasks no more (`update_curr_rt` charges `rt_time` only with RT groups). As in 6.12:
//! - it starts when a fair task becomes runnable on a hart with none (`dl_server_start` from
//!   `enqueue_task_fair`), with a new period unless the current one can still hold its
//!   runtime (the CBS wakeup rule), and stops when the last one leaves (`dl_server_stop`);
//! - it is deferred: fair tasks that run on their own use its runtime up, and it only takes the
//!   hart from real-time tasks at the zero-laxity point, `deadline - runtime left`, then runs
//!   fair tasks until that runtime is spent; at the deadline it is replenished for a new period.
//!   So a fair task starved by a FIFO hog runs at the end of each of the server's periods, which
//!   begin when it became runnable, and a hart with no fair task gives real-time tasks all its
//!   time.
//! Simplifications: idle time does not use its runtime up (6.12's `dl_server_update_idle_time`
//! does), and it ranks below deadline tasks rather than among them by deadline.

use runqueue_settings::{Choice, Int, Kind, Setting, Settings, Tunable, tunables};
use crate::hart::MAX_HARTS;

/// `rt.starvation`: what keeps real-time tasks from starving fair ones.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Starvation {
    Throttle,
    Server,
    None,
}

tunables! {
    pub const TUNABLES;
    pub STARVATION: Choice<Starvation> = Setting::choice(Tunable {
        name: "rt.starvation",
        kind: Kind::Choice(&["throttle", "server", "none"]),
        default: "throttle",
        unit: "",
        help: "what keeps real-time tasks from starving fair ones: RT throttling (rt.runtime_us per rt.period_us; the default, as Linux before 6.12 has it), Linux 6.12's fair server (dl.server_runtime_us per dl.server_period_us for fair tasks, per hart; the default under sched=eevdf eevdf.version=6.12), or nothing",
    }, &[Starvation::Throttle, Starvation::Server, Starvation::None]);
    pub RUNTIME: Int = Setting::int(Tunable {
        name: "dl.server_runtime_us",
        kind: Kind::Int { min: 0, max: 100_000_000 },
        default: "50000",
        unit: "us",
        help: "fair_server/cpuN/runtime: CPU time the fair server guarantees fair tasks per period on each hart (rt.starvation=server)",
    });
    pub PERIOD: Int = Setting::int(Tunable {
        name: "dl.server_period_us",
        kind: Kind::Int { min: 1000, max: 100_000_000 },
        default: "1000000",
        unit: "us",
        help: "fair_server/cpuN/period: the fair server's period",
    });
}

/// `rt.starvation` as given, else the default of the Linux the fair policy follows: 6.12's
/// fair server under `sched=eevdf eevdf.version=6.12` (6.12 without RT groups throttles no
/// real-time task), RT throttling otherwise.
pub fn starvation(s: &Settings) -> Starvation {
    if s.is_given(&STARVATION) {
        s.get(&STARVATION)
    } else if runqueue_policies::eevdf::follows_6_12(s) {
        Starvation::Server
    } else {
        Starvation::Throttle
    }
}

/// One hart's server.
#[derive(Clone, Copy)]
struct Server {
    /// Fair tasks are runnable there (`dl_server_start` until `dl_server_stop`).
    started: bool,
    deadline: u64,
    /// Runtime left in this period, in ns.
    left: u64,
}

pub struct FairServer {
    on: bool,
    runtime: u64,
    period: u64,
    harts: [Server; MAX_HARTS],
}

impl FairServer {
    pub const OFF: FairServer = FairServer { on: false, runtime: 0, period: 1, harts: [Server { started: false, deadline: 0, left: 0 }; MAX_HARTS] };

    pub fn configure(&mut self, s: &Settings) {
        self.on = starvation(s) == Starvation::Server;
        self.runtime = (s.get(&RUNTIME) as u64 * 1000).min(s.get(&PERIOD) as u64 * 1000);
        self.period = s.get(&PERIOD) as u64 * 1000;
    }

    /// Its bandwidth in millionths of a hart, which deadline admission leaves it.
    pub fn share_ppm(&self) -> u64 {
        if self.on { self.runtime * 1_000_000 / self.period } else { 0 }
    }

    /// `hart`'s server as of `now`: replenished for a new period once `now` has reached the
    /// deadline (`replenish_dl_entity`).
    fn at(&self, hart: usize, now: u64) -> Server {
        let mut s = self.harts[hart];
        if now >= s.deadline {
            s.deadline += (now - s.deadline) / self.period * self.period + self.period;
            s.left = self.runtime;
        }
        s
    }

    /// The first fair task became runnable on `hart` (`dl_server_start`): the CBS wakeup rule
    /// keeps the current period if its runtime left fits before the deadline at the
    /// server's bandwidth, else starts a new one now.
    pub fn start(&mut self, hart: usize, now: u64) {
        if !self.on {
            return;
        }
        let (runtime, period) = (self.runtime, self.period);
        let s = &mut self.harts[hart];
        let overflow = now >= s.deadline || s.left as u128 * period as u128 > (s.deadline - now) as u128 * runtime as u128;
        if overflow {
            (s.deadline, s.left) = (now + period, runtime);
        }
        s.started = true;
    }

    /// The last fair task left `hart` (`dl_server_stop`).
    pub fn stop(&mut self, hart: usize) {
        self.harts[hart].started = false;
    }

    /// Fair tasks ran `ran_ns` on `hart` until `now`: on their own or through the server, it
    /// is the server's runtime either way (`update_curr` calls `dl_server_update`). It is the
    /// runtime of the period it ran in: a serving stint ends at the deadline itself, and
    /// charging it after that period's replenishment would leave the next period empty.
    pub fn consume(&mut self, hart: usize, ran_ns: u64, now: u64) {
        if self.on && self.harts[hart].started {
            let mut s = self.at(hart, now.saturating_sub(ran_ns));
            s.left = s.left.saturating_sub(ran_ns);
            self.harts[hart] = s;
        }
    }

    /// The server runs fair tasks on `hart` now, ahead of real-time ones: started, at or past
    /// its zero-laxity point, with runtime left.
    pub fn active(&self, hart: usize, now: u64) -> bool {
        let s = self.at(hart, now);
        self.on && s.started && s.left > 0 && now + s.left >= s.deadline
    }

    /// When the server next changes something on `hart`: its zero-laxity point, its runtime
    /// running out while it runs a fair task (`charged_at`: when that task was last charged),
    /// or its replenishment.
    pub fn next_event(&self, hart: usize, fair_running_since: Option<u64>, now: u64) -> Option<u64> {
        if !self.on || !self.harts[hart].started {
            return None;
        }
        let active = self.active(hart, now);
        let s = self.at(hart, now);
        Some(match fair_running_since {
            Some(charged_at) if active => charged_at + s.left,
            _ if s.left == 0 => s.deadline,
            _ if active => return None,
            _ => s.deadline - s.left,
        })
    }
}
