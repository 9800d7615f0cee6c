//! Wakeup-latency statistics of a measuring task (cyclictest): min, average, max and a
//! histogram with 1 us buckets whose last bucket takes every larger sample (cyclictest -h).
//! They live in the kernel lock with the task table, and RESULT reports them as `lat`.

use crate::task::Tid;

pub const BUCKETS: usize = 200;

pub struct Latency {
    /// The task measured (0: no task measures latency in this run).
    pub tid: Tid,
    pub min_ns: u64,
    pub max_ns: u64,
    pub sum_ns: u64,
    pub samples: u64,
    pub hist_us: [u32; BUCKETS],
}

impl Latency {
    pub const NONE: Latency = Latency { tid: 0, min_ns: u64::MAX, max_ns: 0, sum_ns: 0, samples: 0, hist_us: [0; BUCKETS] };

    pub fn record(&mut self, ns: u64) {
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
        self.sum_ns += ns;
        self.samples += 1;
        self.hist_us[((ns / 1000) as usize).min(BUCKETS - 1)] += 1;
    }

    /// The histogram up to its last non-empty bucket.
    pub fn histogram(&self) -> &[u32] {
        let len = self.hist_us.iter().rposition(|&n| n > 0).map_or(0, |i| i + 1);
        &self.hist_us[..len]
    }
}
