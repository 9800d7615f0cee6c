//! The parser against a small catalog of the kernel's shape.

extern crate std;

use crate::*;
use std::format;
use std::string::{String, ToString};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rules {
    Paper,
    Seed,
}

tunables! {
    const GLOBALS;
    SMP: Int = Setting::int(Tunable { name: "smp", kind: Kind::Int { min: 1, max: 4 }, default: "1", unit: "harts", help: "harts" });
    TRACE: Choice<bool> = Setting::choice(Tunable { name: "trace", kind: Kind::Choice(&["on", "off"]), default: "on", unit: "", help: "trace" }, &[true, false]);
    NICE: List = Setting::list(Tunable { name: "nice", kind: Kind::List { min: -20, max: 19 }, default: "0", unit: "", help: "nice" });
    CGROUP: Text = Setting::text(Tunable { name: "cgroup", kind: Kind::Text, default: "", unit: "", help: "groups" });
}

tunables! {
    const CFS;
    FEATURES: Features = Setting::features(Tunable { name: "cfs.features", kind: Kind::Features(&["A", "B", "C"]), default: "A,B", unit: "", help: "f" });
    ALPHA: Fraction = Setting::fraction(Tunable { name: "cfs.alpha", kind: Kind::Fraction, default: "1/16", unit: "", help: "a" });
}

tunables! {
    const BVT;
    RULES: Choice<Rules> = Setting::choice(Tunable { name: "bvt.rules", kind: Kind::Choice(&["paper", "seed"]), default: "paper", unit: "", help: "r" }, &[Rules::Paper, Rules::Seed]);
}

tunables! {
    const SPIN;
    TASKS: Int = Setting::int(Tunable { name: "wl.tasks", kind: Kind::Int { min: 1, max: 32 }, default: "10", unit: "", help: "tasks" });
}

tunables! {
    const EQUAL;
    EQUAL_TASKS: Int = Setting::int(Tunable { name: "wl.tasks", kind: Kind::Int { min: 1, max: 8 }, default: "4", unit: "", help: "tasks" });
    POLICY: Choices = Setting::choices(Tunable { name: "wl.policy", kind: Kind::Choices(&["normal", "idle"]), default: "normal", unit: "", help: "p" });
}

struct Test;

impl Catalog for Test {
    fn globals(&self) -> impl Iterator<Item = &'static Tunable> + Clone {
        GLOBALS.iter()
    }

    fn schedulers(&self) -> impl Iterator<Item = Entry> + Clone {
        [Entry { name: "cfs", help: "", tunables: CFS }, Entry { name: "bvt", help: "", tunables: BVT }, Entry { name: "fifo", help: "", tunables: &[] }].into_iter()
    }

    fn workloads(&self) -> impl Iterator<Item = Entry> + Clone {
        [Entry { name: "spin", help: "", tunables: SPIN }, Entry { name: "equal", help: "", tunables: EQUAL }].into_iter()
    }

    fn default_sched(&self) -> &'static str {
        "cfs"
    }

    fn default_workload(&self) -> &'static str {
        "spin"
    }
}

fn error(args: &str) -> String {
    match Settings::parse(args, &Test) {
        Ok(_) => panic!("{args} parsed"),
        Err(e) => e.show(&Test).to_string(),
    }
}

#[test]
fn values_read_as_their_handles_type_with_declared_defaults() {
    let s = Settings::parse("sched=bvt smp=2 nice=0,-5,5 bvt.rules=seed cfs.features=NO_A,C", &Test).unwrap();
    assert_eq!(s.sched().unwrap().name, "bvt");
    assert_eq!(s.workload().unwrap().name, "spin");
    assert_eq!(s.get(&SMP), 2);
    assert_eq!(s.get(&NICE).as_slice(), &[0, -5, 5]);
    assert_eq!(s.get(&RULES), Rules::Seed);
    assert_eq!(s.get(&FEATURES), 0b110, "features apply over the default set");
    assert!(s.get(&TRACE), "a default comes from the declaration");
    assert_eq!(s.get(&ALPHA), (1, 16));
    assert_eq!(s.get(&TASKS), 10);
    assert_eq!(s.get(&CGROUP), "");
    assert!(s.is_given(&SMP) && !s.is_given(&TRACE));
}

#[test]
fn a_workloads_words_follow_the_chosen_workload() {
    let s = Settings::parse("workload=equal wl.tasks=8 wl.policy=idle,normal", &Test).unwrap();
    assert_eq!(s.get(&EQUAL_TASKS), 8);
    assert_eq!(s.get(&POLICY).as_slice(), &[1, 0]);
    assert_eq!(error("workload=equal wl.tasks=9"), "bad value '9' for wl.tasks: expected an integer in 1..=8");
    assert_eq!(Settings::parse("wl.tasks=9", &Test).unwrap().get(&TASKS), 9);
}

#[test]
fn every_refusal_names_the_word_and_what_is_accepted() {
    assert_eq!(error("loose"), "argument 'loose' is not NAME=VALUE (or the word 'catalog')");
    assert_eq!(error("sched=nope"), "unknown scheduler 'nope'; accepted: cfs, bvt, fifo");
    assert_eq!(error("workload=nope"), "unknown workload 'nope'; accepted: spin, equal");
    assert_eq!(error("sched=cfs sched=bvt"), "argument 'sched' given twice");
    assert_eq!(error("smp=1 smp=x"), "argument 'smp' given twice", "a duplicate before its value");
    assert_eq!(
        error("bogus=1"),
        "unknown argument 'bogus'; accepted: sched, workload, smp, trace, nice, cgroup, cfs.features, cfs.alpha, bvt.rules, and spin's: wl.tasks (see 'catalog')"
    );
    assert_eq!(error("smp=5"), "bad value '5' for smp: expected an integer in 1..=4 harts");
    assert_eq!(error("trace=maybe"), "bad value 'maybe' for trace: expected one of: on, off");
    assert_eq!(error("cfs.features=D"), "bad value 'D' for cfs.features: expected comma-separated features, each NAME or NO_NAME, from: A, B, C");
    assert_eq!(error("cfs.alpha=3/2"), "bad value '3/2' for cfs.alpha: expected a fraction p/q between 0 and 1, e.g. 1/16");
    assert_eq!(error("nice=1,2,x"), "bad value '1,2,x' for nice: expected 1 to 16 comma-separated integers in -20..=19");
    let many: String = (0..17).map(|i| format!("{i},")).collect();
    assert!(error(&format!("nice={}", many.trim_end_matches(','))).starts_with("bad value"), "at most 16 items");
}

#[test]
fn a_part_reads_its_words_and_leaves_the_rest() {
    let s = Settings::parse_part("sched=cfs smp=3 catalog cfs.x=1", &[GLOBALS], &["cache."]).unwrap();
    assert_eq!(s.get(&SMP), 3);
    assert!(s.sched().is_none());
    let unknown = Settings::parse_part("cache.size=32", &[GLOBALS], &["cache."]).err().unwrap();
    assert_eq!(unknown.show(&Tables(&[GLOBALS])).to_string(), "unknown argument 'cache.size'; accepted: smp, trace, nice, cgroup");
    assert!(matches!(Settings::parse_part("smp=1 smp=2", &[GLOBALS], &[]), Err(ArgError::Duplicate("smp"))));
    assert!(matches!(Settings::parse_part("smp=lots", &[GLOBALS], &[]), Err(ArgError::BadValue(_, "lots"))));
}

#[test]
fn the_page_sees_every_word_in_order() {
    let seen: std::vec::Vec<String> = words("sched=nope loose smp=9 bogus=1 wl.tasks=20", &Test, Test.workload("spin"))
        .map(|w| match w {
            Ok(Word::Set(t, text)) => match Word::value(t, text) {
                Ok(_) => format!("ok {}", t.name),
                Err(e) => e.show(&Test).to_string(),
            },
            Ok(_) => "entry".into(),
            Err(e) => e.show(&Test).to_string(),
        })
        .collect();
    assert_eq!(seen.len(), 5);
    assert!(seen[0].starts_with("unknown scheduler 'nope'"));
    assert!(seen[1].contains("'loose'"));
    assert!(seen[2].starts_with("bad value '9' for smp"));
    assert!(seen[3].starts_with("unknown argument 'bogus'"));
    assert_eq!(seen[4], "ok wl.tasks");
}

#[test]
fn a_broken_default_is_found() {
    assert_eq!(Test.broken_default(), None);
    struct Broken;
    tunables! {
        const BAD;
        X: Int = Setting::int(Tunable { name: "x", kind: Kind::Int { min: 1, max: 4 }, default: "9", unit: "", help: "" });
    }
    impl Catalog for Broken {
        fn globals(&self) -> impl Iterator<Item = &'static Tunable> + Clone {
            BAD.iter()
        }
        fn schedulers(&self) -> impl Iterator<Item = Entry> + Clone {
            core::iter::empty()
        }
        fn workloads(&self) -> impl Iterator<Item = Entry> + Clone {
            core::iter::empty()
        }
        fn default_sched(&self) -> &'static str {
            ""
        }
        fn default_workload(&self) -> &'static str {
            ""
        }
    }
    assert_eq!(Broken.broken_default(), Some("x"));
    let _ = X;
}

#[test]
fn a_name_declared_twice_is_found() {
    assert_eq!(Test.clash(), None, "workloads may share wl.tasks");
    struct Twice(&'static [Tunable]);
    impl Catalog for Twice {
        fn globals(&self) -> impl Iterator<Item = &'static Tunable> + Clone {
            GLOBALS.iter()
        }
        fn schedulers(&self) -> impl Iterator<Item = Entry> + Clone {
            [Entry { name: "cfs", help: "", tunables: CFS }, Entry { name: "lab", help: "", tunables: self.0 }].into_iter()
        }
        fn workloads(&self) -> impl Iterator<Item = Entry> + Clone {
            [Entry { name: "spin", help: "", tunables: SPIN }, Entry { name: "equal", help: "", tunables: EQUAL }].into_iter()
        }
        fn default_sched(&self) -> &'static str {
            "cfs"
        }
        fn default_workload(&self) -> &'static str {
            "spin"
        }
    }
    assert_eq!(Twice(&[]).clash(), None);
    assert_eq!(Twice(GLOBALS).clash(), Some("smp"), "a policy's table naming a global");
    assert_eq!(Twice(CFS).clash(), Some("cfs.features"), "two policies naming one tunable");
    assert_eq!(Twice(SPIN).clash(), Some("wl.tasks"), "a policy naming a workload's");
}

#[test]
fn tunables_are_written_as_the_catalog_has_them() {
    let mut out = String::new();
    write_tunables(&mut out, GLOBALS[..2].iter()).unwrap();
    assert_eq!(
        out,
        r#"[{"name":"smp","type":"int","default":1,"min":1,"max":4,"unit":"harts","help":"harts"},{"name":"trace","type":"choice","default":"on","min":null,"max":null,"values":["on","off"],"unit":"","help":"trace"}]"#
    );
}

#[cfg(feature = "json")]
mod reading {
    use super::*;
    use crate::reading::{OwnedCatalog, read};
    use serde_json::{Value, json};
    use std::vec::Vec;

    /// `Test`'s tables as the kernel's catalog prints them.
    fn catalog() -> OwnedCatalog {
        let mut json = String::from(r#"{"version":2,"defaults":{"sched":"cfs","workload":"spin"},"globals":"#);
        write_tunables(&mut json, GLOBALS.iter()).unwrap();
        json.push_str(r#","schedulers":["#);
        for (i, e) in Test.schedulers().enumerate() {
            json.push_str(if i == 0 { "{" } else { ",{" });
            json.push_str(&format!(r#""name":"{}","help":"","tunables":"#, e.name));
            write_tunables(&mut json, e.tunables.iter()).unwrap();
            json.push('}');
        }
        json.push_str(r#"],"workloads":["#);
        for (i, e) in Test.workloads().enumerate() {
            json.push_str(if i == 0 { "{" } else { ",{" });
            json.push_str(&format!(r#""name":"{}","help":"","tunables":"#, e.name));
            write_tunables(&mut json, e.tunables.iter()).unwrap();
            json.push('}');
        }
        json.push_str("]}");
        OwnedCatalog::from_json(&json).unwrap()
    }

    #[test]
    fn a_catalog_read_back_parses_as_the_tables_do() {
        let c = catalog();
        let s = Settings::parse("sched=bvt bvt.rules=seed smp=2 cfs.features=NO_A", &c).unwrap();
        assert_eq!(s.sched().unwrap().name, "bvt");
        assert_eq!(Settings::parse("smp=7", &c).err().unwrap().show(&c).to_string(), Settings::parse("smp=7", &Test).err().unwrap().show(&Test).to_string());
    }

    #[test]
    fn every_word_is_applied_or_refused_with_data() {
        let base = json!({"sched": "cfs", "workload": "spin", "tunables": [["nice", "1"], ["smp", "1"]]});
        let out = read("sched=nope smp=9 loose workload=equal wl.tasks=9 bogus=1 trace=off nice=3 nice=4", &catalog(), &base);
        assert_eq!(out["sched"], "cfs");
        assert_eq!(out["workload"], "equal");
        assert_eq!(out["tunables"], json!([["nice", "3"], ["smp", "1"], ["trace", "off"]]));
        let errors: Vec<&Value> = out["errors"].as_array().unwrap().iter().collect();
        let kinds: Vec<&str> = errors.iter().map(|e| e["error"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["unknown-sched", "bad-value", "not-key-value", "bad-value", "unknown-key", "duplicate"]);
        assert_eq!(errors[0]["accepted"], json!(["cfs", "bvt", "fifo"]));
        assert_eq!((errors[1]["why"].as_str(), errors[1]["max"].as_i64()), (Some("out-of-range"), Some(4)));
        assert_eq!(errors[3]["max"], 8, "checked against the workload the line ends with");
        assert_eq!(errors[4]["elsewhere"], false);
        assert_eq!(errors[5]["name"], "nice");
        let wrong = read("wl.tasks=x wl.policy=idle", &catalog(), &json!({}));
        assert_eq!(wrong["errors"][0]["why"], "not-integer");
        assert_eq!(wrong["errors"][1]["elsewhere"], true, "another workload has it");
    }
}
