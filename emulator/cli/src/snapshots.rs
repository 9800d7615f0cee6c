//! The Linux boots this process has parked at their init's request for its words, so that a
//! process running many Linux experiments (the comparison suite, `bench --linux`, the tests)
//! boots each kernel once per boot key (`Machine::boot_key`) and starts the rest from there.
//! A one-off `runqueue run` boots cold: it finds nothing here.

use runqueue_emu::Snapshot;
use std::sync::{Arc, Mutex};

/// Snapshots kept, the most recently used first; each holds a booted Linux's 20-odd MiB.
const KEPT: usize = 4;

static KEPT_SNAPSHOTS: Mutex<Vec<(u64, Arc<Snapshot>)>> = Mutex::new(Vec::new());

/// The snapshot for `key`, if this process has one.
pub fn find(key: u64) -> Option<Arc<Snapshot>> {
    let mut kept = KEPT_SNAPSHOTS.lock().unwrap_or_else(|e| e.into_inner());
    let at = kept.iter().position(|(k, _)| *k == key)?;
    let entry = kept.remove(at);
    let snapshot = entry.1.clone();
    kept.insert(0, entry);
    Some(snapshot)
}

pub fn keep(key: u64, snapshot: Snapshot) {
    let mut kept = KEPT_SNAPSHOTS.lock().unwrap_or_else(|e| e.into_inner());
    kept.retain(|(k, _)| *k != key);
    kept.insert(0, (key, Arc::new(snapshot)));
    kept.truncate(KEPT);
}
