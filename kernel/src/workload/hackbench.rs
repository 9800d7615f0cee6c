//! `hackbench` (rt-tests, pipe mode, seed 002): groups of senders and receivers. Each
//! receiver owns a pipe; each sender of a group writes `wl.loops` messages to every receiver
//! of its group, and each receiver reads all of them. Almost all the time goes to blocking
//! and waking, which makes the total time a measure of wakeup placement and preemption.
//! `wl.hog=1` adds a CPU hog that spins until the last receiver is done (seed 002's `eatcpu`
//! on the same CPU); `wl.warp_us` is the BVT warp of the hackbench tasks (not the hog's).
//! `spawn_groups` also serves as another workload's load (cyclictest's `wl.load_type`):
//! then senders write until `stop`, close their ends, and receivers read to end-of-file.

use super::{Spawner, WorkloadSpec, get};
use runqueue_settings::{ArgError, Int, Kind, Setting, Settings, Tunable, tunables};
use crate::dispatch::{iteration_done, nopreempt};
use crate::pipe;
use crate::task::{Args, Params};
use crate::work::spin;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

const MAX_FDS: usize = 16;

/// Receivers still reading; the hog stops when it reaches zero.
static RECEIVERS_LEFT: AtomicU64 = AtomicU64::new(0);

/// Senders spawned with `loops = 0` write until this is set.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Ends a hackbench started as a load (`Groups::loops == 0`).
pub fn stop() {
    STOPPED.store(true, Ordering::Relaxed);
}

/// A hackbench set-up: `groups` of `fds` senders and receivers.
pub struct Groups {
    pub groups: usize,
    pub fds: usize,
    /// Messages per sender and receiver pair; 0: until `stop`.
    pub loops: u64,
    pub msg_bytes: u64,
    pub msg_insns: u64,
    pub pipe_bytes: u32,
    /// If not 0, each message's work is a non-preemptible section this long (ns).
    pub hold_ns: u64,
    pub params: Params,
}

/// Creates the groups' pipes, receivers and senders.
pub fn spawn_groups(g: &Groups, sp: &mut Spawner) -> Result<(), ArgError<'static>> {
    RECEIVERS_LEFT.store((g.groups * g.fds) as u64, Ordering::Relaxed);
    // A receiver reads until end-of-file when the senders run until stopped.
    let messages = if g.loops == 0 { u64::MAX } else { g.fds as u64 * g.loops };
    for group in 0..g.groups {
        // Pipe numbers of this group's receivers, as a bit mask for the senders.
        let mut pipes = 0u64;
        for r in 0..g.fds {
            let p = sp.pipe(g.pipe_bytes, g.fds as u32)?;
            pipes |= 1 << p;
            sp.spawn_with(g.params, "recv", Some(group * g.fds + r), receiver, &[p as u64, messages, g.msg_bytes, g.msg_insns, g.hold_ns])?;
        }
        for w in 0..g.fds {
            sp.spawn_with(g.params, "send", Some(group * g.fds + w), sender, &[pipes, g.loops, g.msg_bytes, g.msg_insns, g.hold_ns])?;
        }
    }
    Ok(())
}

/// A message's work: `insns` instructions, the first `hold_ns` of them not preemptible.
fn message_work(insns: u64, hold_ns: u64) {
    if hold_ns > 0 {
        nopreempt(hold_ns, || spin(1000));
    }
    spin(insns);
}

tunables! {
    const TUNABLES;
    GROUPS: Int = Setting::int(Tunable { name: "wl.groups", kind: Kind::Int { min: 1, max: 8 }, default: "2", unit: "groups", help: "groups of senders and receivers (hackbench -g)" });
    FDS: Int = Setting::int(Tunable { name: "wl.fds", kind: Kind::Int { min: 1, max: MAX_FDS as i64 }, default: "5", unit: "pairs", help: "senders and receivers per group (hackbench -f)" });
    LOOPS: Int = Setting::int(Tunable { name: "wl.loops", kind: Kind::Int { min: 1, max: 100_000 }, default: "200", unit: "messages", help: "messages each sender sends each receiver of its group (hackbench -l)" });
    MSG_BYTES: Int = Setting::int(Tunable { name: "wl.msg_bytes", kind: Kind::Int { min: 1, max: pipe::PIPE_BUF as i64 }, default: "100", unit: "bytes", help: "message size (hackbench -s)" });
    MSG_INSNS: Int = Setting::int(Tunable { name: "wl.msg_insns", kind: Kind::Int { min: 0, max: 10_000_000 }, default: "2000", unit: "instructions", help: "work to make and to take each message (a system call's cost)" });
    PIPE_BYTES: Int = Setting::int(Tunable { name: "wl.pipe_bytes", kind: Kind::Int { min: pipe::PIPE_BUF as i64, max: 1 << 20 }, default: "65536", unit: "bytes", help: "capacity of each pipe (Linux: 65536); a full pipe blocks its senders" });
    HOG: Int = Setting::int(Tunable { name: "wl.hog", kind: Kind::Int { min: 0, max: 4 }, default: "0", unit: "tasks", help: "CPU hogs that spin until hackbench is done (never yielding: under a cooperative policy, fifo or sjf, hackbench then never runs and the run does not end)" });
    WARP_US: Int = Setting::int(Tunable { name: "wl.warp_us", kind: Kind::Int { min: 0, max: 1_000_000 }, default: "0", unit: "us", help: "BVT warp W of the hackbench tasks (seed 002: 100, 1000, 4000, 40000)" });
}

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "hackbench",
    help: "senders and receivers passing messages through pipes, optionally beside a CPU hog: total time",
    tunables: TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        let (groups, fds) = (get(s, &GROUPS) as usize, get(s, &FDS) as usize);
        if groups * fds * 2 + get(s, &HOG) as usize > 63 || groups * fds > pipe::MAX_PIPES {
            return Err(ArgError::Invalid("wl.groups", "groups x fds must be at most 31 (a sender and a receiver per pair, 63 tasks in all)"));
        }
        let g = Groups {
            groups,
            fds,
            loops: get(s, &LOOPS),
            msg_bytes: get(s, &MSG_BYTES),
            msg_insns: get(s, &MSG_INSNS),
            pipe_bytes: get(s, &PIPE_BYTES) as u32,
            hold_ns: 0,
            params: Params { warp_ns: get(s, &WARP_US) * 1000, ..Params::FAIR },
        };
        spawn_groups(&g, sp)?;
        for h in 0..get(s, &HOG) as usize {
            sp.spawn("hog", Some(h), hog, &[])?;
        }
        Ok(())
    },
};

fn sender([pipes, loops, bytes, insns, hold_ns, ..]: Args) {
    let mut sent = 0;
    while if loops == 0 { !STOPPED.load(Ordering::Relaxed) } else { sent < loops } {
        for p in (0..64).filter(|p| pipes & (1 << p) != 0) {
            message_work(insns, hold_ns);
            pipe::write(p, bytes as u32);
        }
        iteration_done();
        sent += 1;
    }
    for p in (0..64).filter(|p| pipes & (1 << p) != 0) {
        pipe::close_writer(p);
    }
}

fn receiver([p, messages, bytes, insns, hold_ns, ..]: Args) {
    for _ in 0..messages {
        if !pipe::read_exact(p as usize, bytes as u32) {
            break;
        }
        message_work(insns, hold_ns);
        iteration_done();
    }
    RECEIVERS_LEFT.fetch_sub(1, Ordering::Relaxed);
}

/// Spins in 1 ms units until every receiver is done.
fn hog(_: Args) {
    while RECEIVERS_LEFT.load(Ordering::Relaxed) > 0 {
        spin(100_000);
        iteration_done();
    }
}
