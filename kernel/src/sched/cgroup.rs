//! The cgroup v2 CPU controller's configuration from the command line: which group each task
//! is in (`cgroup=`), and each group's `cpu.weight` / `cpu.weight.nice`, `cpu.max` and, for
//! seed 002's BVT, `bvt.group_warp_us`. The values and limits are Linux's
//! (`Documentation/admin-guide/cgroup-v2.rst`, `kernel/sched/core.c` as of 6.12): weight
//! 1..10000, default 100, giving `shares = weight * 1024 / 100`; `cpu.weight.nice` gives the
//! weight of that nice; `cpu.max` is "quota period" in µs (quota >= 1 ms, period 1 ms..1 s,
//! default 100 ms).

use runqueue_settings::{ArgError, Kind, Setting, Settings, Text, Tunable, tunables};
use crate::task::MAX_TASKS;
use runqueue_sched_api::MAX_GROUPS;

tunables! {
    /// cgroup v2's CPU controller: each task's group and each group's knobs.
    pub const TUNABLES;
    pub CGROUP: Text = Setting::text(Tunable {
        name: "cgroup",
        kind: Kind::Text,
        default: "",
        unit: "",
        help: "the cgroup of each task in creation order, as paths (a, a/x); NAME*N for N tasks in a row; tasks past the list stay in the root. CFS, EEVDF and BVT schedule groups, lottery makes each a ticket currency",
    });
    pub WEIGHT: Text = Setting::text(Tunable {
        name: "cpu.weight",
        kind: Kind::Text,
        default: "",
        unit: "",
        help: "cpu.weight of groups as GROUP:WEIGHT,... (1..10000, default 100): a group's share of its parent's CPU is its weight over its runnable siblings'",
    });
    pub WEIGHT_NICE: Text = Setting::text(Tunable {
        name: "cpu.weight.nice",
        kind: Kind::Text,
        default: "",
        unit: "",
        help: "cpu.weight.nice of groups as GROUP:NICE,... (-20..19): the group weighs what a task of that nice does",
    });
    pub MAX: Text = Setting::text(Tunable {
        name: "cpu.max",
        kind: Kind::Text,
        default: "",
        unit: "us",
        help: "cpu.max of groups as GROUP:QUOTA/PERIOD,... in us (QUOTA max = no limit; /PERIOD may be left out for 100000): the group runs at most QUOTA per PERIOD over all harts, then is throttled",
    });
    /// Read by the core, which gives the warp to the group's entity; the policy only asks for it
    /// (`Scheduler::warps_groups`).
    pub GROUP_WARP: Text = Setting::text(Tunable {
        name: "bvt.group_warp_us",
        kind: Kind::Text,
        default: "",
        unit: "us",
        help: "seed 002's bvt_warp_ns per cgroup as GROUP:US,... (bvt.rules=patch): the group's entity warps, its tasks do not",
    });
}

const DEFAULT_PERIOD_US: u64 = 100_000;
const NICE_0_LOAD: u64 = 1024;

/// One group: its path, parent (`None`: the root) and knobs.
#[derive(Clone, Copy)]
pub struct Group {
    pub path: &'static str,
    pub parent: Option<usize>,
    /// `tg->shares`, in load units (1024 = weight 100).
    pub shares: u64,
    /// `cpu.max`: quota and period in ns; no quota: unlimited.
    pub quota_ns: Option<u64>,
    pub period_ns: u64,
    /// Seed 002's `bvt_warp_ns`.
    pub warp_ns: u64,
}

impl Group {
    const NONE: Group = Group { path: "", parent: None, shares: NICE_0_LOAD, quota_ns: None, period_ns: DEFAULT_PERIOD_US * 1000, warp_ns: 0 };
}

/// The groups of a run, in order of first mention, and each task's.
#[derive(Clone, Copy)]
pub struct Tree {
    pub groups: [Group; MAX_GROUPS],
    pub len: usize,
    /// The group of each tid (`None`: the root); tids follow creation order from 1.
    pub of_task: [Option<u8>; MAX_TASKS],
}

fn bad(name: &'static str, why: &'static str) -> ArgError<'static> {
    ArgError::Invalid(name, why)
}

fn bad_word(name: &'static str, word: &'static str, why: &'static str) -> ArgError<'static> {
    ArgError::BadWord(name, word, why)
}

fn parse_u64(text: &str) -> Option<u64> {
    (!text.is_empty() && text.len() <= 12 && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.bytes().fold(0, |a, b| a * 10 + (b - b'0') as u64))
}

fn parse_i64(text: &str) -> Option<i64> {
    match text.strip_prefix('-') {
        Some(rest) => parse_u64(rest).map(|v| -(v as i64)),
        None => parse_u64(text).map(|v| v as i64),
    }
}

impl Tree {
    pub const EMPTY: Tree = Tree { groups: [Group::NONE; MAX_GROUPS], len: 0, of_task: [None; MAX_TASKS] };

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn group_of(&self, tid: usize) -> Option<usize> {
        self.of_task[tid].map(usize::from)
    }

    /// Reads `cgroup=` and the keyed lists; every mistake is an error naming its word.
    pub fn parse(s: &Settings<'static>) -> Result<Tree, ArgError<'static>> {
        let mut tree = Tree::EMPTY;
        let text = s.get(&CGROUP);
        let mut next_tid = 1;
        for item in text.split(',').filter(|_| !text.is_empty()) {
            let (path, count) = match item.split_once('*') {
                Some((p, n)) => (p, parse_u64(n).filter(|n| *n >= 1).ok_or(bad_word("cgroup", item, "NAME*N needs a count N of at least 1"))? as usize),
                None => (item, 1),
            };
            let g = tree.intern(path)?;
            for _ in 0..count {
                *tree.of_task.get_mut(next_tid).filter(|_| next_tid < MAX_TASKS).ok_or(bad("cgroup", "more entries than tasks the kernel can hold (63)"))? = Some(g as u8);
                next_tid += 1;
            }
        }
        let weighted = tree.keyed(s, &WEIGHT, |g, v| {
            let w = parse_u64(v).filter(|w| (1..=10_000).contains(w)).ok_or(bad("cpu.weight", "a weight is an integer in 1..=10000"))?;
            g.shares = (w * NICE_0_LOAD + 50) / 100;
            Ok(())
        })?;
        let niced = tree.keyed(s, &WEIGHT_NICE, |g, v| {
            let nice = parse_i64(v).filter(|n| (-20..=19).contains(n)).ok_or(bad("cpu.weight.nice", "a nice is an integer in -20..=19"))?;
            g.shares = runqueue_policies::cfs::weight_of(nice as i32);
            Ok(())
        })?;
        if weighted & niced != 0 {
            return Err(bad("cpu.weight.nice", "a group given both cpu.weight and cpu.weight.nice (give one)"));
        }
        tree.keyed(s, &MAX, |g, v| {
            let (quota, period) = v.split_once('/').unwrap_or((v, ""));
            let period = if period.is_empty() { DEFAULT_PERIOD_US } else { parse_u64(period).ok_or(bad("cpu.max", "the period is an integer number of us"))? };
            if !(1000..=1_000_000).contains(&period) {
                return Err(bad("cpu.max", "the period must be 1000..=1000000 us"));
            }
            g.period_ns = period * 1000;
            g.quota_ns = match quota {
                "max" => None,
                q => match parse_u64(q) {
                    Some(0) => return Err(bad("cpu.max", "a quota of 0 would never let the group run (use at least 1000 us, or max)")),
                    Some(q) if q >= 1000 => Some(q * 1000),
                    _ => return Err(bad("cpu.max", "the quota is max or an integer of at least 1000 us")),
                },
            };
            Ok(())
        })?;
        tree.keyed(s, &GROUP_WARP, |g, v| {
            g.warp_ns = parse_u64(v).filter(|w| *w <= 1_000_000).ok_or(bad("bvt.group_warp_us", "a warp is an integer in 0..=1000000 us"))? * 1000;
            Ok(())
        })?;
        Ok(tree)
    }

    /// The index of the group at `path`, creating it and its ancestors.
    fn intern(&mut self, path: &'static str) -> Result<usize, ArgError<'static>> {
        if path.is_empty() || path.split('/').any(|c| c.is_empty()) {
            return Err(bad_word("cgroup", path, "an empty group name (paths are like a or a/x)"));
        }
        let valid = |c: &str| c != "." && c != ".." && c.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.');
        if !path.split('/').all(valid) {
            return Err(bad_word("cgroup", path, "group names are letters, digits, '_', '-' and '.' (not . or ..)"));
        }
        let mut parent = None;
        for (end, _) in path.match_indices('/').chain(core::iter::once((path.len(), ""))) {
            let prefix = &path[..end];
            parent = Some(match self.find(prefix) {
                Some(g) => g,
                None => {
                    let g = self.len;
                    *self.groups.get_mut(g).ok_or(bad("cgroup", "too many groups (at most 8, nested ones counted)"))? = Group { path: prefix, parent, ..Group::NONE };
                    self.len += 1;
                    g
                }
            });
        }
        Ok(parent.unwrap_or(0))
    }

    fn find(&self, path: &str) -> Option<usize> {
        self.groups[..self.len].iter().position(|g| g.path == path)
    }

    /// Applies `GROUP:VALUE,...` of `setting` with `set`; returns the groups it named as a bit
    /// mask. A group no `cgroup=` entry made is an error.
    fn keyed(&mut self, s: &Settings<'static>, setting: &Setting<Text>, set: impl Fn(&mut Group, &'static str) -> Result<(), ArgError<'static>>) -> Result<u32, ArgError<'static>> {
        let (name, text) = (setting.name(), s.get(setting));
        let mut named = 0u32;
        for item in text.split(',').filter(|_| !text.is_empty()) {
            let (path, value) = item.split_once(':').ok_or(bad_word(name, item, "entries are GROUP:VALUE, separated by commas"))?;
            let g = self.find(path).ok_or(bad_word(name, path, "no such group (groups are made by cgroup=)"))?;
            if named & (1 << g) != 0 {
                return Err(bad_word(name, path, "group named twice"));
            }
            named |= 1 << g;
            set(&mut self.groups[g], value).map_err(|e| match e {
                ArgError::Invalid(n, why) => bad_word(n, item, why),
                other => other,
            })?;
        }
        Ok(named)
    }
}
