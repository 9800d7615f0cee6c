//! The `RESULT {json}` line (`docs/trace.md`).

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub version: u32,
    pub workload: String,
    pub sched: String,
    pub smp: u32,
    pub seed: u64,
    pub args: String,
    pub time_ns: u64,
    pub tasks: Vec<TaskResult>,
    /// Linux only: each group with a `cpu.max`, from its `cpu.stat` over the run (Linux's trace
    /// has no throttling event; the teaching kernel's has `throttle` and `unthrottle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<GroupResult>>,
}

/// A group's `cpu.stat` over the run: bandwidth periods that saw it active, periods in which
/// it was throttled, and the time its run queues spent throttled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupResult {
    pub name: String,
    pub nr_periods: u64,
    pub nr_throttled: u64,
    pub throttled_ns: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    pub tid: u32,
    pub name: String,
    /// When it arrived (`arrive_ms=`, or at once), since the workload's start.
    pub arrive_ns: u64,
    /// From arrival to first run.
    pub response_ns: u64,
    pub finish_ns: u64,
    /// From arrival to finish.
    pub turnaround_ns: u64,
    pub cpu_ns: u64,
    pub wait_ns: u64,
    pub switches: u64,
    pub iterations: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lat: Option<Latency>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<LockWaits>,
}

/// A task's use of the kernel's mutexes: acquisitions, how many had to wait, the time from
/// asking to holding (average over all acquisitions, worst), and the waits during which a task
/// ranked between it and the owner ran instead of the owner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LockWaits {
    pub acquired: u64,
    pub contended: u64,
    pub avg_wait_ns: u64,
    pub max_wait_ns: u64,
    pub inversions: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    pub min_ns: u64,
    pub avg_ns: u64,
    pub max_ns: u64,
    pub samples: u64,
    pub hist_us: Vec<u64>,
}

impl RunResult {
    pub fn parse(json: &str) -> Result<RunResult, String> {
        serde_json::from_str(json).map_err(|e| alloc::format!("RESULT line is not valid: {e}"))
    }

    pub fn task(&self, name: &str) -> Option<&TaskResult> {
        self.tasks.iter().find(|t| t.name == name)
    }

    /// Tasks finished per second of the run.
    pub fn throughput_per_s(&self) -> f64 {
        self.tasks.len() as f64 * 1e9 / self.time_ns.max(1) as f64
    }

    /// The share of the harts' time spent running tasks, 0 to 1.
    pub fn utilisation(&self) -> f64 {
        self.tasks.iter().map(|t| t.cpu_ns).sum::<u64>() as f64 / (self.time_ns.max(1) as f64 * self.smp.max(1) as f64)
    }

    /// The mean of one figure over the tasks, in ns (e.g. `|t| t.wait_ns`).
    pub fn mean(&self, figure: impl Fn(&TaskResult) -> u64) -> f64 {
        self.tasks.iter().map(figure).sum::<u64>() as f64 / self.tasks.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_missing_fields() {
        let json = r#"{"version":1,"workload":"spin","sched":"cfs","smp":1,"seed":0,"args":"sched=cfs","time_ns":5,"tasks":[{"tid":1,"name":"spin0","arrive_ns":0,"response_ns":1,"finish_ns":5,"turnaround_ns":5,"cpu_ns":4,"wait_ns":1,"switches":2,"iterations":3}]}"#;
        let r = RunResult::parse(json).unwrap();
        assert_eq!(r.task("spin0").unwrap().cpu_ns, 4);
        assert_eq!((r.throughput_per_s(), r.utilisation(), r.mean(|t| t.turnaround_ns)), (2e8, 0.8, 5.0));
        assert_eq!(serde_json::to_string(&r).unwrap(), json);
        assert!(RunResult::parse(r#"{"version":1}"#).is_err());
    }
}
