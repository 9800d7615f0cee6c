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
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    pub tid: u32,
    pub name: String,
    pub finish_ns: u64,
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_missing_fields() {
        let json = r#"{"version":1,"workload":"spin","sched":"cfs","smp":1,"seed":0,"args":"sched=cfs","time_ns":5,"tasks":[{"tid":1,"name":"spin0","finish_ns":5,"cpu_ns":4,"wait_ns":1,"switches":2,"iterations":3}]}"#;
        let r = RunResult::parse(json).unwrap();
        assert_eq!(r.task("spin0").unwrap().cpu_ns, 4);
        assert_eq!(serde_json::to_string(&r).unwrap(), json);
        assert!(RunResult::parse(r#"{"version":1}"#).is_err());
    }
}
