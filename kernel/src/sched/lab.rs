//! A lab policy as the core holds it: a handle on one of its instances in the lab's protection
//! domain (`crate::domain`), through which every `Scheduler` call goes by the gate. The core
//! keeps none of the policy's state and trusts none of its answers: a pick is checked by the
//! dispatcher as any policy's is, and the fields it writes into the trace are checked here
//! again (`Fields`), as the domain could have written anything into the shared page.
//!
//! A lab policy declares and reads only its own tunables, `lab.<lab>.*`: the core refuses a
//! declaration of any other name (it could shadow a workload's or the machine's settings), and
//! hands the domain the values of its own alone.

use crate::domain;
use crate::task::MAX_TASKS;
use runqueue_lab_abi::{self as abi, Op, TaskAbi};
use runqueue_sched_api::{Carry, Described, Enqueue, Fields, Run, Scheduler, Task, Tid};
use runqueue_settings::{ArgError, Settings};

/// Instances built so far (one per run queue, in the order the core builds them).
static mut BUILT: usize = 0;

/// The (instance, tid) whose `milestone` the shared page holds, if no call came since: the core
/// asks for a task's milestone twice in a row when it changed (to see that it did, then for
/// the `state` event), and the second needs no trip through the gate.
static mut MILESTONE_HELD: Option<(usize, Tid)> = None;

/// `lab`'s policy (an index into `runqueue_lab::SPECS`), instance `slot`, and the highest tid
/// it has been given (a pick's allowed set need not go further).
pub struct Gate {
    lab: usize,
    slot: usize,
    high: Tid,
}

/// What a lab policy may call its tunables: `lab.<lab>.` and a name.
fn own(spec: &Described, name: &str) -> bool {
    let lab = spec.name.strip_prefix("lab-").unwrap_or(spec.name);
    name.strip_prefix("lab.").and_then(|n| n.strip_prefix(lab)).and_then(|n| n.strip_prefix('.')).is_some_and(|n| !n.is_empty())
}

/// Why a lab policy's declaration is refused, per lab (an `ArgError` holds static text).
fn not_own(spec: &Described) -> &'static str {
    match spec.name {
        "lab-sjf" => "a lab policy declares only lab.sjf.* tunables",
        "lab-mlfq" => "a lab policy declares only lab.mlfq.* tunables",
        "lab-bvt" => "a lab policy declares only lab.bvt.* tunables",
        _ => "a lab policy declares only lab.<its lab>.* tunables",
    }
}

/// Builds the next instance of `lab`'s policy in the domain, from its own settings: the words
/// of the command line that set them, which the domain reads again against the lab's table
/// (the line was read whole here already, so they parse there as they did here).
pub fn build(lab: usize, spec: &Described, settings: &Settings, run: &Run) -> Result<Gate, ArgError<'static>> {
    if let Some(t) = spec.tunables.iter().find(|t| !own(spec, t.name)) {
        return Err(ArgError::Invalid(t.name, not_own(spec)));
    }
    let slot = unsafe { BUILT };
    if slot >= abi::INSTANCES {
        return Err(ArgError::Invalid(spec.name, "the lab's protection domain holds at most 4 instances of a policy (one per hart)"));
    }
    unsafe { BUILT = slot + 1 };
    let s = domain::shared();
    (s.slot, s.lab) = (slot as u64, lab as u64);
    (s.harts, s.tick_ns, s.seed) = (run.harts as u64, run.tick_ns, run.seed);
    s.text_len = 0;
    let own_words = settings.args().split_ascii_whitespace().filter(|w| w.split_once('=').is_some_and(|(key, _)| spec.tunables.iter().any(|t| t.name == key)));
    for word in own_words {
        let at = s.text_len as usize;
        let Some(to) = s.text.get_mut(at..at + word.len() + 1) else {
            return Err(ArgError::Invalid(spec.name, "the lab's settings take more than 2048 bytes of the command line"));
        };
        to[..word.len()].copy_from_slice(word.as_bytes());
        to[word.len()] = b' ';
        s.text_len = (at + word.len() + 1) as u64;
    }
    let s = domain::call(Op::Build, spec.name);
    if s.status == abi::INVALID {
        return Err(invalid(s.text()));
    }
    Ok(Gate { lab, slot, high: 0 })
}

/// `build`'s refusal from the domain ("name\0why"), kept where an `ArgError` can point at it.
fn invalid(text: &[u8]) -> ArgError<'static> {
    static mut KEPT: [u8; abi::TEXT] = [0; abi::TEXT];
    let kept = unsafe { &mut *(&raw mut KEPT) };
    kept[..text.len()].copy_from_slice(text);
    let kept: &'static [u8] = &kept[..text.len()];
    let split = kept.iter().position(|&b| b == 0).unwrap_or(kept.len());
    let name = core::str::from_utf8(&kept[..split]).unwrap_or("?");
    let why = core::str::from_utf8(kept.get(split + 1..).unwrap_or(&[])).unwrap_or("(not UTF-8)");
    ArgError::Invalid(name, why)
}

impl Gate {
    fn name(&self) -> &'static str {
        runqueue_lab::SPECS[self.lab].name
    }

    /// Sets the call's common arguments and makes it.
    fn call(&self, op: Op, task: Option<&Task>, now: u64, arg: u64) -> &'static mut abi::Shared {
        unsafe { MILESTONE_HELD = None };
        let s = domain::shared();
        s.slot = self.slot as u64;
        s.now = now;
        s.arg = arg;
        if let Some(t) = task {
            s.task = TaskAbi::from_task(t);
        }
        domain::call(op, self.name())
    }

    /// The fields a `describe` or `milestone` wrote, checked by `Fields` as the core's own.
    fn fields(&self, op: Op, tid: Tid, out: &mut Fields) {
        let held = op == Op::Milestone && unsafe { MILESTONE_HELD } == Some((self.slot, tid));
        let s = if held { domain::shared() } else { self.call(op, None, 0, tid as u64) };
        if op == Op::Milestone {
            unsafe { MILESTONE_HELD = Some((self.slot, tid)) };
        }
        for f in &s.fields[..(s.field_count as usize).min(abi::MAX_FIELDS)] {
            let name = core::str::from_utf8(&f.name[..(f.len as usize).min(16)]).unwrap_or("?");
            if f.signed != 0 {
                out.field_int(name, f.value as i64);
            } else {
                out.field(name, f.value);
            }
        }
    }
}

impl Scheduler for Gate {
    fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64) {
        self.high = self.high.max(task.tid);
        self.call(Op::Enqueue, Some(task), now, abi::enqueue_code(why));
    }

    fn pick_next(&mut self, hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let s = domain::shared();
        s.hart = hart as u64;
        s.allowed = (1..=self.high.min(MAX_TASKS - 1)).filter(|&t| allowed(t)).fold(0, |m, t| m | 1 << t);
        let s = self.call(Op::PickNext, None, now, 0);
        (s.result != abi::NONE).then_some(s.result as usize)
    }

    fn charge(&mut self, task: &Task, ran_ns: u64, now: u64) {
        self.call(Op::Charge, Some(task), now, ran_ns);
    }

    fn tick(&mut self, current: &Task, now: u64) -> bool {
        self.call(Op::Tick, Some(current), now, 0).result != 0
    }

    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        domain::shared().other = TaskAbi::from_task(woken);
        self.call(Op::WakeupPreempts, Some(current), 0, 0).result != 0
    }

    fn block(&mut self, task: &Task, now: u64) {
        self.call(Op::Block, Some(task), now, 0);
    }

    fn exit(&mut self, task: &Task) {
        self.call(Op::Exit, Some(task), 0, 0);
    }

    fn fair_policies(&self) -> bool {
        self.call(Op::FairPolicies, None, 0, 0).result != 0
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        self.fields(Op::Describe, tid, out);
    }

    fn milestone(&self, tid: Tid, out: &mut Fields) {
        self.fields(Op::Milestone, tid, out);
    }

    fn detach(&mut self, task: &Task, queued: bool, now: u64) -> Option<Carry> {
        let s = self.call(Op::Detach, Some(task), now, queued as u64);
        (s.result != 0).then(|| s.carry())
    }

    fn attach(&mut self, task: &Task, carry: Carry, queued: bool, now: u64) {
        domain::shared().carry = carry.0;
        self.call(Op::Attach, Some(task), now, queued as u64);
    }
}
