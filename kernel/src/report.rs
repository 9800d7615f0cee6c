//! The end of a run (`docs/trace.md`): a table for people, then one `RESULT {json}` line.

use crate::console::{self, Uart};
use crate::dispatch::{self, Kernel};
use runqueue_settings::write_string;
use crate::latency::Latency;
use crate::mutex::LockStats;
use core::fmt::{self, Write};

/// ns as milliseconds with three decimals.
struct Ms(u64);

impl fmt::Display for Ms {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let text = {
            let mut l = runqueue_sched_api::Line::new();
            l.num(self.0 / 1_000_000).byte(b'.');
            let frac = self.0 % 1_000_000 / 1000;
            l.num(frac / 100).num(frac / 10 % 10).num(frac % 10);
            l
        };
        f.pad(core::str::from_utf8(text.as_bytes()).unwrap_or("?"))
    }
}

pub fn print(k: &Kernel, now: u64) {
    console::with(|u| {
        let _ = table(u, k, now).and_then(|_| result(u, k, now));
    });
}

fn table(u: &mut Uart, k: &Kernel, now: u64) -> fmt::Result {
    let start = dispatch::start_ns();
    let r = &k.run;
    writeln!(u, "\n{} under {} on {} hart(s): {} ms", r.workload, r.sched, r.smp, Ms(now - start))?;
    writeln!(
        u,
        "{:>4}  {:<16}{:>12}{:>12}{:>12}{:>14}{:>12}{:>12}{:>10}{:>12}",
        "tid", "name", "arrive_ms", "response_ms", "finish_ms", "turnaround_ms", "cpu_ms", "wait_ms", "switches", "iterations"
    )?;
    for t in &k.tasks[1..=k.count] {
        writeln!(
            u,
            "{:>4}  {:<16}{:>12}{:>12}{:>12}{:>14}{:>12}{:>12}{:>10}{:>12}",
            t.tid,
            t.name(),
            Ms(t.arrived_at.saturating_sub(start)),
            Ms(response_ns(t)),
            Ms(t.exit_ns - start),
            Ms(t.exit_ns.saturating_sub(t.arrived_at)),
            Ms(t.cpu_ns),
            Ms(t.wait_ns),
            t.switches,
            t.iterations
        )?;
    }
    // Thousandths, printed as Ms prints ns: x * 1e6 shows x with three decimals.
    let (time, tasks) = ((now - start).max(1) as u128, k.count as u128);
    let busy: u128 = k.tasks[1..=k.count].iter().map(|t| t.cpu_ns as u128).sum();
    let throughput = tasks * 1_000_000_000 * 1_000_000 / time;
    let utilisation = busy * 100 * 1_000_000 / (time * r.smp as u128);
    writeln!(u, "throughput {} tasks/s, utilisation {} %", Ms(throughput as u64), Ms(utilisation as u64))
}

/// From arrival to first run (every task has run by the time the report is printed).
fn response_ns(t: &crate::task::Task) -> u64 {
    t.first_run_at.saturating_sub(t.arrived_at)
}

fn result(u: &mut Uart, k: &Kernel, now: u64) -> fmt::Result {
    let start = dispatch::start_ns();
    let r = &k.run;
    u.write_str("RESULT {\"version\":1,\"workload\":")?;
    write_string(u, r.workload)?;
    u.write_str(",\"sched\":")?;
    write_string(u, r.sched)?;
    write!(u, ",\"smp\":{},\"seed\":{},\"args\":", r.smp, r.seed)?;
    write_string(u, r.args)?;
    write!(u, ",\"time_ns\":{},\"tasks\":[", now - start)?;
    for (i, t) in k.tasks[1..=k.count].iter().enumerate() {
        write!(u, "{}{{\"tid\":{},\"name\":", if i == 0 { "" } else { "," }, t.tid)?;
        write_string(u, t.name())?;
        write!(
            u,
            ",\"arrive_ns\":{},\"response_ns\":{},\"finish_ns\":{},\"turnaround_ns\":{},\"cpu_ns\":{},\"wait_ns\":{},\"switches\":{},\"iterations\":{}",
            t.arrived_at.saturating_sub(start),
            response_ns(t),
            t.exit_ns - start,
            t.exit_ns.saturating_sub(t.arrived_at),
            t.cpu_ns,
            t.wait_ns,
            t.switches,
            t.iterations
        )?;
        if k.latency.tid == t.tid && k.latency.samples > 0 {
            latency(u, &k.latency)?;
        }
        let locks = &k.mutexes.stats[t.tid];
        if locks.acquired > 0 {
            lock(u, locks)?;
        }
        u.write_char('}')?;
    }
    u.write_str("]}\n")
}

fn lock(u: &mut Uart, s: &LockStats) -> fmt::Result {
    write!(
        u,
        ",\"lock\":{{\"acquired\":{},\"contended\":{},\"avg_wait_ns\":{},\"max_wait_ns\":{},\"inversions\":{}}}",
        s.acquired,
        s.contended,
        s.wait_ns / s.acquired,
        s.max_wait_ns,
        s.inversions
    )
}

fn latency(u: &mut Uart, l: &Latency) -> fmt::Result {
    write!(u, ",\"lat\":{{\"min_ns\":{},\"avg_ns\":{},\"max_ns\":{},\"samples\":{},\"hist_us\":[", l.min_ns, l.sum_ns / l.samples, l.max_ns, l.samples)?;
    for (i, n) in l.histogram().iter().enumerate() {
        write!(u, "{}{n}", if i == 0 { "" } else { "," })?;
    }
    u.write_str("]}")
}
