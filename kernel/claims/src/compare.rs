//! What a student reads off the charts, taken the same way from a run of either kernel (the
//! teaching kernel's trace, or Linux's own ftrace read as the same events), and the comparison
//! suite's record of each figure against Linux's (`tests/fidelity.rs`).

use crate::Run;
use runqueue_report::{Kind, TaskResult};
use std::io::Write;

/// A latency distribution as the charts summarise it, in ns (median and 99th percentile from
/// the trace's marks; to the microsecond of the RESULT's histogram for a run without them).
#[derive(Clone, Copy, Debug)]
pub struct Spread {
    pub min: u64,
    pub median: u64,
    pub p99: u64,
    pub max: u64,
}

/// The rank (from 1) of the `q`-quantile of `n` values, by nearest rank.
fn rank(q: f64, n: u64) -> u64 {
    (q * n as f64).ceil().max(1.0) as u64
}

/// The `q`-quantile of `sorted` (not empty), by nearest rank.
fn nearest_rank(sorted: &[u64], q: f64) -> u64 {
    sorted[rank(q, sorted.len() as u64) as usize - 1]
}

/// The bucket (1 us wide) holding the `q`-quantile of histogram `hist`, by nearest rank.
fn quantile_us(hist: &[u64], q: f64) -> u64 {
    let rank = rank(q, hist.iter().sum::<u64>());
    let mut seen = 0;
    hist.iter().position(|&n| {
        seen += n;
        seen >= rank
    }).unwrap_or(hist.len()) as u64
}

impl Run {
    pub fn task(&self, name: &str) -> &TaskResult {
        self.result.task(name).unwrap_or_else(|| panic!("no task {name} in {} `{}`", self.result.sched, self.result.args))
    }

    /// `name`'s share of the CPU time the workload's tasks got, in percent.
    pub fn share(&self, name: &str) -> f64 {
        let total: u64 = self.result.tasks.iter().map(|t| t.cpu_ns).sum();
        100.0 * self.task(name).cpu_ns as f64 / total.max(1) as f64
    }

    /// Events of `name` of `kind` after the workload's start.
    fn count(&self, name: &str, kind: Kind, also: impl Fn(&runqueue_report::Event) -> bool) -> usize {
        let (tid, start) = (self.task(name).tid, self.start_ns());
        self.events.iter().filter(|e| e.kind == kind && e.tid == tid && e.time_ns >= start && also(e)).count()
    }

    /// Times `name` left a CPU still runnable: preempted, or yielding. Linux's trace cannot
    /// tell the two apart: a task preempted on its way back to user space, as a tick preempts
    /// a user program, leaves with `prev_state=R` as a yielding one does (`R+` is only a
    /// preemption inside the kernel), so the suite compares them together on workloads that
    /// do not yield.
    pub fn preemptions(&self, name: &str) -> usize {
        self.count(name, Kind::Out, |e| matches!(e.get("why"), Some("preempt" | "yield")))
    }

    /// Times `name` moved to another hart's run queue.
    pub fn migrations(&self, name: &str) -> usize {
        self.count(name, Kind::Migrate, |_| true)
    }

    /// The wakeup latencies `name` measured (its RESULT's `lat`): median, 99th percentile and
    /// maximum, and as the floor the fastest of those it was woken for (a `lat=` mark with a
    /// wakeup of `name` since its previous one). A sleep whose expiry comes before the task has
    /// switched out (the one after a late wakeup, when the next expiry is near) returns
    /// without a wakeup, in a few microseconds, which says nothing of the wakeup path.
    pub fn latency(&self, name: &str) -> Spread {
        let task = self.task(name);
        let lat = task.lat.as_ref().unwrap_or_else(|| panic!("{name} measured no latency in {} `{}`", self.result.sched, self.result.args));
        let (mut woken, mut floor, mut marked) = (false, None::<u64>, Vec::new());
        for e in self.events.iter().filter(|e| e.tid == task.tid) {
            match (e.kind, e.num("lat")) {
                (Kind::Wake, _) => woken = true,
                (Kind::Mark, Some(ns)) => {
                    marked.push(ns as u64);
                    if std::mem::take(&mut woken) {
                        floor = Some(floor.map_or(ns as u64, |f| f.min(ns as u64)));
                    }
                }
                _ => {}
            }
        }
        // The trace's marks are every sample to the ns; the histogram stops at its last bucket,
        // which holds every latency past it, so its quantiles there would read as that bucket.
        marked.sort_unstable();
        let quantile = |q| if !marked.is_empty() && marked.len() as u64 == lat.samples { nearest_rank(&marked, q) } else { quantile_us(&lat.hist_us, q) * 1000 };
        Spread { min: floor.unwrap_or(lat.min_ns), median: quantile(0.5), p99: quantile(0.99), max: lat.max_ns }
    }

    /// CPU time `name` got in each `period` counted from its first run after the start (a
    /// stint across a period's start is split at it), up to the run's end.
    pub fn cpu_per_period(&self, name: &str, period: u64) -> Vec<u64> {
        let (tid, start) = (self.task(name).tid, self.start_ns());
        let mine: Vec<_> = self.events.iter().filter(|e| e.tid == tid && e.time_ns >= start && matches!(e.kind, Kind::In | Kind::Out)).collect();
        let first = mine.iter().find(|e| e.kind == Kind::In).map_or(start, |e| e.time_ns);
        let periods = (start + self.result.time_ns).saturating_sub(first) / period;
        let mut per = vec![0; periods as usize];
        let mut since = None;
        for e in mine {
            match (e.kind, since) {
                (Kind::In, _) => since = Some(e.time_ns),
                (Kind::Out, Some(mut at)) => {
                    while at < e.time_ns {
                        let window = (at - first) / period;
                        let end = (first + (window + 1) * period).min(e.time_ns);
                        if let Some(slot) = per.get_mut(window as usize) {
                            *slot += end - at;
                        }
                        at = end;
                    }
                    since = None;
                }
                _ => {}
            }
        }
        per
    }

    /// Throttling of the groups with `cpu.max`: times a run queue was throttled and the time
    /// they spent so. Linux's come from `cpu.stat` (its RESULT's `groups`: `nr_throttled`
    /// counts periods); the teaching kernel's from its `throttle` and `unthrottle` events (a
    /// throttle per queue and period), a throttle still open at the end counting to the end.
    pub fn throttling(&self) -> (u64, u64) {
        if let Some(groups) = &self.result.groups {
            return (groups.iter().map(|g| g.nr_throttled).sum(), groups.iter().map(|g| g.throttled_ns).sum());
        }
        let end = self.start_ns() + self.result.time_ns;
        let mut open = std::collections::BTreeMap::new();
        let (mut times, mut ns) = (0, 0);
        for e in &self.events {
            let queue = (e.get("cg").map(str::to_owned), e.get("rq").map(str::to_owned));
            match e.kind {
                Kind::Throttle => {
                    times += 1;
                    open.insert(queue, e.time_ns);
                }
                Kind::Unthrottle => ns += open.remove(&queue).map_or(0, |at| e.time_ns - at),
                _ => {}
            }
        }
        (times, ns + open.values().map(|&at| end.saturating_sub(at)).sum::<u64>())
    }
}

/// How far the teaching kernel's figure may be from Linux's.
#[derive(Clone, Copy, Debug)]
pub enum Within {
    /// At most this far, in the figure's own unit (points of a share, ms, counts).
    Abs(f64),
    /// At most this fraction of Linux's figure.
    Rel(f64),
}

impl Within {
    fn allows(self, ours: f64, linux: f64) -> bool {
        match self {
            Within::Abs(d) => (ours - linux).abs() <= d,
            Within::Rel(r) => (ours - linux).abs() <= r * linux.abs(),
        }
    }

    fn text(self, unit: &str) -> String {
        match self {
            Within::Abs(d) => format!("±{d} {unit}"),
            Within::Rel(r) => format!("±{}%", r * 100.0),
        }
    }
}

/// A figure as the suite's table prints it: whole, or to two decimals.
fn round(v: f64) -> String {
    if v.fract() == 0.0 { format!("{v}") } else { format!("{v:.2}") }
}

/// One case of the suite: its figures, each beside Linux's with its tolerance. `check` prints
/// them as rows of the suite's table (and appends them to `RUNQUEUE_FIDELITY_TABLE`, a markdown
/// file, when set), then fails naming every figure out of its tolerance that is not a known
/// divergence, and every known divergence that agrees again.
pub struct Comparison {
    case: String,
    rows: Vec<String>,
    failures: Vec<String>,
    /// Whether the last figure was within its tolerance, and its failure's text if not.
    last: Option<(bool, String)>,
}

impl Comparison {
    pub fn new(case: &str) -> Comparison {
        Comparison { case: case.into(), rows: Vec::new(), failures: Vec::new(), last: None }
    }

    /// Figure `what` in `unit`: ours against Linux's.
    pub fn figure(&mut self, what: &str, unit: &str, ours: f64, linux: f64, within: Within) -> &mut Comparison {
        self.row(what, unit, ours, linux, round(linux), within)
    }

    /// Figure `what` against Linux's over several runs of it (an odd number), which differ
    /// by where Linux's balancer first acts, and that moves with the boot's length (each
    /// seed's): ours against their median. The row shows their range after the median.
    pub fn figure_over(&mut self, what: &str, unit: &str, ours: f64, linux: &[f64], within: Within) -> &mut Comparison {
        assert!(linux.len() % 2 == 1, "{what}: a median of an odd number of runs");
        let mut sorted = linux.to_vec();
        sorted.sort_by(f64::total_cmp);
        let (min, median, max) = (sorted[0], sorted[sorted.len() / 2], sorted[sorted.len() - 1]);
        let text = format!("{} ({} to {}, {} seeds)", round(median), round(min), round(max), linux.len());
        self.row(what, unit, ours, median, text, within)
    }

    fn row(&mut self, what: &str, unit: &str, ours: f64, linux: f64, linux_text: String, within: Within) -> &mut Comparison {
        let ok = within.allows(ours, linux);
        self.rows.push(format!("| {} | {what} | {} | {linux_text} | {} | {} |", self.case, round(ours), within.text(unit), if ok { "yes" } else { "**no**" }));
        let failure = format!("{what}: ours {} {unit}, Linux {} {unit}, allowed {}", round(ours), round(linux), within.text(unit));
        if !ok {
            self.failures.push(failure.clone());
        }
        self.last = Some((ok, failure));
        self
    }

    /// Marks the last figure a known divergence, `why` saying what differs (the book says it
    /// too): its row reads "known", and the case fails if the figure agrees with Linux again,
    /// so that the mark and the book's note go when the difference does.
    pub fn known(&mut self, why: &str) -> &mut Comparison {
        self.known_if(true, why)
    }

    /// `known` where `applies` (a divergence of one kernel pair of a case's loop).
    pub fn known_if(&mut self, applies: bool, why: &str) -> &mut Comparison {
        let (ok, failure) = self.last.take().expect("known() follows a figure");
        if !applies {
            return self;
        }
        let row = self.rows.last_mut().unwrap();
        if ok {
            self.failures.push(format!("{failure}: marked a known divergence, but within its tolerance now"));
        } else {
            self.failures.retain(|f| *f != failure);
            *row = row.replace("| **no** |", &format!("| known: {why} |"));
        }
        self
    }

    /// Prints the rows and fails on any figure out of its tolerance.
    pub fn check(&self) {
        Comparison::check_all(core::slice::from_ref(self));
    }

    /// `check` for several cases at once: all are printed before any fails.
    pub fn check_all(cases: &[Comparison]) {
        let table = cases.iter().flat_map(|c| &c.rows).cloned().collect::<Vec<_>>().join("\n");
        println!("{table}");
        if let Some(path) = std::env::var_os("RUNQUEUE_FIDELITY_TABLE")
            && let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path)
        {
            let _ = writeln!(f, "{table}");
        }
        let failures: Vec<String> = cases.iter().filter(|c| !c.failures.is_empty()).map(|c| format!("{}: differs from Linux:\n  {}", c.case, c.failures.join("\n  "))).collect();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::{Comparison, Within};
    use crate::Run;
    use runqueue_report::{RunResult, trace};

    /// A cyclic task (tid 2) that measured `lats` (us), woken before each but those in `unwoken`;
    /// its histogram stops at 199 us, as the kernels' do.
    fn cyclic(lats: &[u64], unwoken: &[usize]) -> Run {
        let mut hist = vec![0; 200];
        let mut text = String::new();
        for (i, &us) in lats.iter().enumerate() {
            hist[us.min(199) as usize] += 1;
            let t = 1_000_000 * (i as u64 + 1);
            if !unwoken.contains(&i) {
                text += &format!("T {t} 0 wake 2\nT {} 0 in 2\n", t + 1000);
            }
            text += &format!("T {} 0 mark 2 lat={}\n", t + 2000, us * 1000);
        }
        let (min, max) = (lats.iter().min().unwrap() * 1000, lats.iter().max().unwrap() * 1000);
        let task = format!(
            r#"{{"tid":2,"name":"cyclic","arrive_ns":0,"response_ns":0,"finish_ns":0,"turnaround_ns":0,"cpu_ns":0,"wait_ns":0,"switches":0,"iterations":{},"lat":{{"min_ns":{min},"avg_ns":0,"max_ns":{max},"samples":{},"hist_us":{hist:?}}}}}"#,
            lats.len(),
            lats.len()
        );
        let result = format!(r#"{{"version":1,"workload":"cyclictest","sched":"linux-6.12","smp":1,"seed":0,"args":"","time_ns":0,"tasks":[{task}]}}"#);
        Run { result: RunResult::parse(&result).unwrap(), events: trace::parse(&text).unwrap(), console: String::new() }
    }

    #[test]
    fn the_latency_floor_is_the_fastest_wakeup() {
        let run = cyclic(&[77, 76, 965, 5, 78], &[3]);
        let s = run.latency("cyclic");
        assert_eq!((s.min, s.median, s.max), (76_000, 77_000, 965_000), "the sleep the timer ended before it began is no floor");
        assert_eq!(cyclic(&[77, 76, 965, 5, 78], &[]).latency("cyclic").min, 5_000);
    }

    #[test]
    fn quantiles_past_the_histogram_come_from_the_marks() {
        let s = cyclic(&[264, 266, 97, 265], &[]).latency("cyclic");
        assert_eq!((s.median, s.p99), (264_000, 266_000), "not the histogram's last bucket, 199 us");
    }

    #[test]
    #[should_panic(expected = "last finish: ours 2700 ms, Linux 2600 ms, allowed ±3%")]
    fn a_figure_over_seeds_is_their_median() {
        let mut c = Comparison::new("case");
        c.figure_over("last finish", "ms", 2600.0, &[2777.0, 2600.0, 2500.0], Within::Rel(0.03));
        assert!(c.rows[0].contains("| 2600 | 2600 (2500 to 2777, 3 seeds) |"), "{}", c.rows[0]);
        c.check();
        c.figure_over("last finish", "ms", 2700.0, &[2777.0, 2600.0, 2500.0], Within::Rel(0.03));
        c.check();
    }

    #[test]
    fn a_known_divergence_passes_while_it_diverges() {
        let mut c = Comparison::new("case");
        c.figure("share", "points", 60.0, 50.0, Within::Abs(2.0)).known("why");
        c.check();
    }

    #[test]
    #[should_panic(expected = "marked a known divergence, but within its tolerance now")]
    fn a_known_divergence_that_agrees_again_fails() {
        let mut c = Comparison::new("case");
        c.figure("share", "points", 51.0, 50.0, Within::Abs(2.0)).known("why");
        c.check();
    }

    #[test]
    #[should_panic(expected = "share: ours 60 points, Linux 50 points")]
    fn a_figure_out_of_its_tolerance_fails() {
        let mut c = Comparison::new("case");
        c.figure("share", "points", 60.0, 50.0, Within::Abs(2.0));
        c.figure("other", "", 1.0, 1.0, Within::Rel(0.1)).known_if(false, "not this pair");
        c.check();
    }
}
