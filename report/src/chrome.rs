//! Chrome trace-event JSON (the format Perfetto and chrome://tracing open): one track per
//! hart with a slice for each stint a task ran, instants for wakeups, exits and marks, a
//! counter track per task for each numeric policy state (vruntime, level, ...), and with a
//! modelled host, a track per hart's vCPU with a slice for each time the host took.

use crate::trace::{Event, Kind};
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value, json};

const PID: u32 = 1;
/// Track ids of the vCPUs' host tracks: this plus the hart.
const HOST_TRACK: u32 = 1000;

/// Microseconds with nanosecond precision, as the format wants.
fn us(ns: u64) -> Value {
    json!(ns as f64 / 1000.0)
}

fn args(e: &Event) -> Value {
    let mut m = Map::new();
    for (k, v) in &e.fields {
        let value = v.parse::<i64>().map(Value::from).unwrap_or_else(|_| Value::from(v.as_str()));
        m.insert(k.clone(), value);
    }
    Value::Object(m)
}

pub fn to_json(events: &[Event]) -> String {
    let mut names: BTreeMap<u32, String> = BTreeMap::new();
    let mut harts: BTreeMap<u32, ()> = BTreeMap::new();
    let mut vcpus: BTreeMap<u32, ()> = BTreeMap::new();
    let mut out: Vec<Value> = Vec::new();
    for e in events {
        harts.insert(e.hart, ());
        if let (Kind::New, Some(n)) = (e.kind, e.get("name")) {
            names.insert(e.tid, n.into());
        }
        let name = names.get(&e.tid).cloned().unwrap_or_else(|| alloc::format!("task {}", e.tid));
        let base = |ph: &str, label: &str| {
            json!({"ph": ph, "name": label, "pid": PID, "tid": e.hart, "ts": us(e.time_ns), "args": args(e)})
        };
        match e.kind {
            Kind::Steal => {
                let ns = e.num("ns").unwrap_or(0).max(0) as u64;
                vcpus.insert(e.hart, ());
                out.push(json!({"ph": "X", "name": e.get("by").unwrap_or("host"), "pid": PID, "tid": HOST_TRACK + e.hart,
                    "ts": us(e.time_ns.saturating_sub(ns)), "dur": us(ns), "args": args(e)}));
            }
            Kind::In => out.push(base("B", &name)),
            Kind::Out => out.push(base("E", &name)),
            Kind::State => {
                for (k, v) in &e.fields {
                    if let Ok(n) = v.parse::<i64>() {
                        out.push(json!({"ph": "C", "name": alloc::format!("{name} {k}"), "pid": PID,
                            "ts": us(e.time_ns), "args": {k.as_str(): n}}));
                    }
                }
            }
            kind => {
                let mut v = base("i", &alloc::format!("{} {}", kind.as_str(), name));
                v["s"] = json!("t");
                out.push(v);
            }
        }
    }
    for h in harts.keys() {
        out.push(json!({"ph": "M", "name": "thread_name", "pid": PID, "tid": h,
            "args": {"name": alloc::format!("hart {h}")}}));
    }
    for h in vcpus.keys() {
        out.push(json!({"ph": "M", "name": "thread_name", "pid": PID, "tid": HOST_TRACK + h,
            "args": {"name": alloc::format!("vcpu {h}: taken by the host")}}));
    }
    out.push(json!({"ph": "M", "name": "process_name", "pid": PID, "args": {"name": "runqueue"}}));
    let doc = json!({"traceEvents": out, "displayTimeUnit": "ns"});
    serde_json::to_string(&doc).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::parse;

    #[test]
    fn stints_become_begin_end_pairs_on_the_hart_track() {
        let ev = parse("T 0 0 new 1 name=a\nT 1000 1 in 1 vr=5\nT 3000 1 out 1 why=exit\nT 3000 1 state 1 vr=9 lvl=x\n").unwrap();
        let v: Value = serde_json::from_str(&to_json(&ev)).unwrap();
        let evs = v["traceEvents"].as_array().unwrap();
        let b = evs.iter().find(|e| e["ph"] == "B").unwrap();
        assert_eq!((b["name"].as_str(), b["tid"].as_u64(), b["ts"].as_f64()), (Some("a"), Some(1), Some(1.0)));
        assert_eq!(b["args"]["vr"], 5);
        assert!(evs.iter().any(|e| e["ph"] == "E" && e["ts"] == 3.0));
        let counters: Vec<_> = evs.iter().filter(|e| e["ph"] == "C").collect();
        assert_eq!(counters.len(), 1, "only numeric state becomes a counter");
        assert!(evs.iter().any(|e| e["ph"] == "M" && e["args"]["name"] == "hart 1"));
    }

    #[test]
    fn host_steal_is_a_slice_on_the_vcpu_track_ending_at_its_time() {
        let ev = parse("T 5000 1 steal 0 ns=3000 by=hog0 cpu=2\n").unwrap();
        let v: Value = serde_json::from_str(&to_json(&ev)).unwrap();
        let evs = v["traceEvents"].as_array().unwrap();
        let x = evs.iter().find(|e| e["ph"] == "X").unwrap();
        assert_eq!((x["name"].as_str(), x["tid"].as_u64(), x["ts"].as_f64(), x["dur"].as_f64()), (Some("hog0"), Some(1001), Some(2.0), Some(3.0)));
        assert!(evs.iter().any(|e| e["ph"] == "M" && e["tid"] == 1001));
    }
}
