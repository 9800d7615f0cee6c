//! What a problem says, as data: a key naming each sentence and the parts that vary (numbers
//! and task names, already formatted). The CLI, the exports and an English page word it from
//! [`ENGLISH`]; a Chinese page from its own table of the same keys
//! (`book/widget/homework-text.js`, which `web/tests/homework-text.test.mjs` holds to this one).

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub key: &'static str,
    pub parts: Vec<(&'static str, String)>,
}

/// Builds a [`Message`]: `msg!("key", name = value, ...)`.
#[macro_export]
macro_rules! msg {
    ($key:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::message::Message::new($key, &[$((stringify!($name), &$value as &dyn core::fmt::Display)),*])
    };
}

impl Message {
    pub fn new(key: &'static str, parts: &[(&'static str, &dyn core::fmt::Display)]) -> Message {
        debug_assert!(ENGLISH.iter().any(|(k, _)| *k == key), "no English for {key}");
        Message { key, parts: parts.iter().map(|(name, value)| (*name, value.to_string())).collect() }
    }

    /// The message in English (a part holding `{name}` stays as it is).
    pub fn english(&self) -> String {
        runqueue_report::template::word(ENGLISH, self.key, &self.parts)
    }

    /// `{"key": ..., "parts": {name: value}, "en": english}`, for the page.
    pub fn to_json(&self) -> Value {
        let mut m = runqueue_report::template::keyed_json(self.key, &self.parts);
        m.insert("en".into(), Value::String(self.english()));
        Value::Object(m)
    }
}

/// Each message's English, its parts written `{name}`. Times are in ms unless a message says.
pub const ENGLISH: &[(&str, &str)] = &[
    // Headings and labels.
    ("problem-title", "Problem {n}: {chapter}, {level} (seed {seed})"),
    ("level-easy", "easy"),
    ("level-medium", "medium"),
    ("level-hard", "hard"),
    ("rules-title", "Rules"),
    ("questions-title", "Questions"),
    ("answers-title", "Answers, from the kernel's run"),
    ("schedule-title", "The kernel's schedule"),
    ("command-line", "The kernel's command line: {args}. Its arrivals are {lead} ms later than the table's: the kernel's scheduler starts that long after its workload's clock, and the problem's time 0 is that start, the first tick."),
    ("command-line-start", "The kernel's command line: {args}. The kernel's scheduler starts {lead} ms after its workload's clock, and the problem's time 0 is that start, the first tick."),
    ("stint", "{from}-{to} ms: {task} on hart {hart} ({why})"),
    ("why-preempt", "preempted"),
    ("why-yield", "yielded"),
    ("why-sleep", "went to sleep"),
    ("why-block", "blocked"),
    ("why-exit", "finished"),
    ("col-task", "task"),
    ("col-arrive", "arrives at (ms)"),
    ("col-burst", "needs (ms of CPU)"),
    ("col-prio", "priority"),
    ("fair-class", "fair (CFS)"),
    ("col-nice", "nice"),
    ("col-weight", "weight"),
    ("col-start-vruntime", "vruntime at the start (ms)"),
    ("col-tickets", "tickets"),
    ("col-stride", "stride"),
    ("tolerance-time", "(in ms; right within {abs} ms or {rel} %, whichever is more)"),
    ("tolerance-exact", "(exact)"),
    ("tolerance-number", "(right within {amount})"),
    ("tolerance-points", "(in %; right within {amount} percentage points)"),
    ("answer-order", "Give the names in order, separated by commas."),
    ("answer-choice", "One of: {choices}."),
    // Rules every problem on one hart states.
    ("rule-machine", "One hart. The workload starts at time 0 and times are in ms from then; a tick comes every 1 ms, at 0, 1, 2, ... ms, and tasks arrive at 0 or half way between two ticks (0.5, 1.5, ... ms)."),
    ("rule-overhead", "The kernel's own work (ticks, switches, the trace) adds about 2 % to every task's run time and a few µs to each switch, so the kernel's figures are a little later than a hand calculation: answers within the stated tolerance of the kernel's count as right."),
    ("rule-tie-creation", "Tasks that arrive together are queued in the order of the table. A task finishes as long after its turn began as it had work left."),
    ("rule-fifo", "FIFO: the task at the front of the queue runs until it finishes; a task that arrives goes to the back."),
    ("rule-rr", "Round Robin with a slice of {q} ms: the slice is checked at each tick, and a task that has run {q} ms in its turn goes to the back of the queue, behind any task that arrived meanwhile."),
    ("rule-tick-turn", "Limits of CPU time (a slice, a quantum, an allotment) are checked only at ticks: a turn ends at the first tick at which the task has used the limit. A turn that starts at a tick (at 0, after a preemption at a tick, or when a task finishes there) starts a few µs after it, so at the tick n ms later it has run a hair less than n ms: a limit of n ms ends it at the following tick, after n + 1 ms. A turn that starts at a half ms reaches n ms half way between two ticks and ends at the next tick, after n + 0.5 ms."),
    ("rule-sjf", "SJF: when the CPU is free, the waiting task with the shortest burst runs, to completion."),
    ("rule-stcf", "STCF (shortest time to completion first, sjf.preempt=1): a task that arrives with a burst shorter than what the running task has left (its burst less what it has run) preempts it at once, and the preempted task waits in the queue."),
    ("rule-stcf-pick", "When the CPU is free, the waiting task with the shortest whole burst runs: the kernel ranks waiting tasks by their declared burst, which a preemption does not shorten (unlike the textbook's STCF, which ranks by time left)."),
    ("rule-declared", "Each task declares its burst, so the scheduler knows it (the kernel's sjf starts its prediction from the declared burst)."),
    ("rule-mlfq", "MLFQ with {levels} levels, 0 the highest and {bottom} the lowest. At level L a turn lasts at most 2^L ms (1, 2, 4, ... ms: the quantum), and a task that has used 2^L ms of CPU at level L over all its turns there (the allotment) moves down to level L + 1 and, if another task waits, leaves the CPU at once; level {bottom} keeps its tasks. The highest level with a waiting task runs first, its tasks taking turns in the order they joined it; a task whose quantum ran out goes to the back of its level. New tasks start at level 0; one that arrives above the running task's level preempts it at once."),
    ("rule-mlfq-no-boost", "There is no priority boost."),
    ("rule-rt", "Real-time tasks run before every fair task, the highest priority first (99 is the highest); a real-time task that arrives with a higher priority than the running task's preempts it at once, and the preempted task goes back to the head of its priority's queue."),
    ("rule-rt-fifo", "SCHED_FIFO: a real-time task runs until it finishes or a higher priority preempts it; tasks of one priority take turns in the order they arrived."),
    ("rule-rt-rr", "SCHED_RR with a quantum of {q} ms: a task that has used its quantum (counted over its turns, until it is used up) goes to the back of its priority's queue if another task of that priority waits, and gets a fresh quantum; a task preempted by a higher priority keeps what is left of its quantum."),
    ("rule-rt-fair", "The fair task runs only when no real-time task is runnable; a real-time arrival preempts it at once, and it waits at the back of the fair queue."),
    ("rule-busy-machine", "One hart; a tick comes every 1 ms, at 0, 1, 2, ... ms. The tasks are created just before 0, in the order of the table, and the first to run starts at 0."),
    ("rule-cfs-vruntime", "Running d ms adds d × 1024 / weight ms to a task's vruntime (its weight is Linux's for its nice). A new task starts at min_vruntime plus its slice in virtual time (START_DEBIT): the table gives each task's start."),
    ("rule-cfs-slice", "A task's slice is its weight's part of the period, sched_latency = 6 ms (with up to 8 tasks): 6 ms × its weight / {total}, the weight of all {n} tasks (never less than sched_min_granularity, 0.75 ms)."),
    ("rule-cfs-tick", "The task with the smallest vruntime runs (the one higher in the table among equals). Turns change only at ticks: at each tick the running task's vruntime is brought up to date, and it is preempted if it has run longer than its slice in this turn, or if its vruntime is ahead of the smallest waiting one by more than its slice (check_preempt_tick). The task with the smallest vruntime then runs; the preempted task waits behind any of equal vruntime."),
    ("rule-cfs-hair", "A turn that starts at a tick starts a few tens of µs after it (the switch), so at the tick n ms later the task has run about 0.06 ms less than n ms, and its vruntime grew that much less than n × 1024 / weight ms. The questions ask only about turns where no such hair decides."),
    ("rule-stride", "Stride scheduling: a task's stride is {stride1} / its tickets, rounded down (the table's), and its pass starts at its stride. Each quantum of {q} ms, from tick to tick, the task with the smallest pass runs (among equal passes, the one that has waited longest: at first the table's order); at the quantum's end its pass grows by its stride × the CPU time it had / {q} ms, its stride for a whole quantum. The same task runs the next quantum too if its pass is still the smallest."),
    ("rule-stride-hair", "A quantum that starts with a switch starts a few tens of µs after its tick, so in it the task's pass grows a hair less than its stride. The questions ask only about quanta where no such hair decides."),
    // Setups.
    ("setup-jobs", "These tasks run on {policy}. Each needs the CPU for its burst and then exits; none sleeps."),
    ("setup-rt", "These tasks run on one hart, most with real-time priorities, perhaps one in the fair class. Each needs the CPU for its burst and then exits; none sleeps."),
    ("setup-cfs", "These {n} tasks run on CFS (sched=cfs) with Linux's defaults. Each is busy all the time, never sleeping, for {run} ms; then it exits the next time it looks at the clock (every 1 ms of its own CPU time)."),
    ("setup-stride", "These {n} tasks run on stride scheduling (sched=stride), each holding the tickets of the table. Each is busy all the time, never sleeping, for {run} ms; then it exits the next time it looks at the clock (every 1 ms of its own CPU time)."),
    ("policy-fifo", "FIFO (first in, first out)"),
    ("policy-rr", "Round Robin"),
    ("policy-sjf", "SJF (shortest job first, non-preemptive)"),
    ("policy-stcf", "STCF (preemptive shortest job first)"),
    ("policy-mlfq", "MLFQ (the multi-level feedback queue)"),
    // Questions.
    ("q-order", "In which order do the tasks finish?"),
    ("q-turnaround", "What is the turnaround time of {task} (from its arrival to its finish)?"),
    ("q-response", "What is the response time of {task} (from its arrival to its first run)?"),
    ("q-running", "Which task runs at {t} ms?"),
    ("q-avg-turnaround", "What is the average turnaround time of all the tasks?"),
    ("q-avg-response", "What is the average response time of all the tasks?"),
    ("q-level", "At which level is {task} at {t} ms?"),
    ("q-reaches", "When does {task} reach level {level}?"),
    ("q-share", "What share of all the tasks' CPU time does {task} get over the {run} ms run?"),
    ("q-first-run", "When does {task} first run?"),
    ("q-first-turn", "How long is {task}'s first turn?"),
    ("q-growth", "In its turn from {from} to {to} ms, {task} ran {ran} ms by the kernel's count. By how much did its vruntime grow in that turn?"),
    ("q-pass-growth", "In its turn from {from} to {to} ms, {task} ran {ran} ms by the kernel's count. By how much did its pass grow in that turn?"),
    // Steps of the worked answers.
    ("s-finished", "{task} finished at {t} ms."),
    ("s-turnaround", "{task} arrived at {arrive} ms and finished at {finish} ms: {finish} - {arrive} = {value} ms."),
    ("s-response", "{task} arrived at {arrive} ms and first ran at {first} ms: {first} - {arrive} = {value} ms."),
    ("s-running", "At {t} ms the kernel was running {task}, from {from} to {to} ms."),
    ("s-average", "({terms}) / {n} = {value} ms."),
    ("s-level", "{task} moved to levels {moves}; at {t} ms it was at level {level}."),
    ("s-share", "{task} ran {cpu} ms of the {total} ms all the tasks ran: {value} %."),
    ("s-share-weight", "Its weight's share is {weight} / {sum} = {ideal} %."),
    ("s-share-tickets", "Its tickets' share is {tickets} / {sum} = {ideal} %."),
    ("s-growth", "{task}'s vruntime went from {before} to {after} ms: {ran} × {nice0} / {weight} = {value} ms."),
    ("s-pass-growth", "{task}'s pass went from {before} to {after}: {stride} × {ran} / {q} = {value}."),
    ("s-first-run", "{task} first ran at {t} ms."),
    ("s-first-turn", "{task}'s first turn ran from {from} to {to} ms: {value} ms."),
    ("s-reaches", "{task} moved to level {level} at {t} ms."),
    // Chapter 8, EEVDF.
    ("setup-eevdf", "These {n} tasks run on EEVDF (sched=eevdf) with Linux 6.12's defaults. Each is busy all the time, never sleeping, for {run} ms; then it exits the next time it looks at the clock (every 1 ms of its own CPU time)."),
    ("rule-eevdf-vruntime", "Running d ms adds d × 1024 / weight ms to a task's vruntime v (its weight is Linux's for its nice). V is the average of the tasks' vruntimes weighted by their weights, all the tasks counted (the running one too): V = Σ weight × v / Σ weight. A task's lag is V − v; it is eligible when its lag is not negative (v ≤ V)."),
    ("rule-eevdf-start", "Every task starts at vruntime 0 (so V = 0, and every task is eligible) with its virtual deadline half a request away (PLACE_DEADLINE_INITIAL): 0.35 ms × 1024 / weight."),
    ("rule-eevdf-tick", "Every task requests {r} ms (the base slice). Turns change only at ticks: at each tick the running task's vruntime is brought up to date, and as the request is shorter than a tick, it has always reached its virtual deadline and gets a new one, its vruntime then plus a request in its virtual time: vd = v + {r} × 1024 / weight ms. Then the eligible task with the earliest virtual deadline runs: the running task stays only if it is still eligible and its deadline is earlier than every eligible waiting task's, and among waiting tasks of equal deadline the one that has waited longest (at first the table's order) goes first. Between ticks no task is preempted (RUN_TO_PARITY)."),
    ("rule-eevdf-hair", "A turn that starts at a tick starts a few tens of µs after it (the switch), so at the next tick the task has run about 0.07 ms less than 1 ms, and a task that leaves the CPU is charged the few µs after the tick too: the kernel's vruntimes differ from whole ticks by those hairs. The questions ask only about turns where no such hair decides."),
    ("q-first-deadline", "What virtual deadline does {task} start with?"),
    ("q-deadline", "{task}'s turn from {from} to {to} ms ends at the tick; when it leaves the CPU, a few µs after that tick, its vruntime is {vr} ms by the kernel's count. What virtual deadline does it leave with?"),
    ("q-lag", "At {t} ms {task} is switched in. The tasks' vruntimes are then (in ms) {vruntimes}. What is {task}'s lag, V − its vruntime?"),
    ("s-first-deadline", "{task} starts at vruntime 0 = V with its deadline half a request away: {half} × {nice0} / {weight} = {value} ms (the kernel's `new` event)."),
    ("s-deadline", "At the tick that ended its turn (at {to} ms) {task}'s vruntime reached its deadline, so it got a new one: its vruntime then plus {r} × {nice0} / {weight} = {request} ms. It left with vruntime {vr} ms and deadline {value} ms (the kernel's `out` event; the vruntime includes the few µs after the tick)."),
    ("s-average-vruntime", "V = ({terms}) / {total} = {value} ms."),
    ("s-lag", "{task}'s lag is V − v = {average} − {vr} = {value} ms by the kernel's `in` event: not negative, so it is eligible."),
    // Chapter 10, SCHED_DEADLINE.
    ("col-dl-runtime", "runtime (ms)"),
    ("col-dl-period", "period = deadline (ms)"),
    ("col-dl-work", "work per job (ms)"),
    ("rule-dl-machine", "One hart. Every task is a SCHED_DEADLINE task whose relative deadline equals its period T. The tasks are created at 0, in the order of the table, and each task's periods start at 0, T, 2T, ... ms: a job is released at the start of each, with the end of that period as its deadline. Times are in ms from 0."),
    ("rule-dl-edf", "Earliest deadline first: the runnable task whose deadline is earliest runs; among equal deadlines the one higher in the table (it was created a few µs earlier). A task whose period starts while another runs preempts it at once if its new deadline is earlier. There are no ticks to wait for: every switch happens at the moment of its event."),
    ("rule-dl-cbs", "Each task has a budget, its runtime, refilled at the start of each of its periods (the constant bandwidth server). Running uses the budget up; the moment it is used up (a timer, not a tick) the task is throttled: it waits for its next period, when the budget is refilled and the deadline moves one period on, and its unfinished job goes on from where it stopped."),
    ("rule-dl-yield", "A job that has done its work yields (wl.yield=1): it gives up what is left of its budget and waits for its next period, where its next job is released. A job that finishes at the moment another task's period starts finishes first."),
    ("rule-dl-overhead", "The kernel's own work (switches, timers, the trace) is charged to the running task's budget and adds about 5 % and a few tens of µs to each job, so the kernel's times are a little later than a hand calculation's; a budget still runs out after exactly its runtime of CPU. Answers within the stated tolerance of the kernel's count as right."),
    ("setup-dl", "These {n} periodic SCHED_DEADLINE tasks (workload=deadline) run on one hart, their runtimes adding up to at most 95 % of it (all admission control allows). Each job's work is {pct} % of its task's runtime (the table's), which leaves room in its budget for the kernel's work. The questions are about the first {window} ms."),
    ("setup-dl-overrun", "These {n} periodic SCHED_DEADLINE tasks (workload=deadline) run on one hart, their runtimes adding up to at most 95 % of it (all admission control allows). Every job's work is {pct} % of its task's runtime (the table's), more than its budget, so every task overruns (the workload gives all tasks the same share: it cannot make only one overrun). The questions are about the first {window} ms."),
    ("q-job-finish", "When does job {k} of {task} finish?"),
    ("q-job-response", "What is the response time of job {k} of {task}, from its release (the start of its period) to its finish?"),
    ("q-throttled", "When is {task} first throttled (its budget used up)?"),
    ("q-runs-again", "After that, when does {task} run again?"),
    ("s-job-finish", "Job {k} of {task} finished its work and yielded at {t} ms."),
    ("s-job-response", "Job {k} of {task} was released at {release} ms, where its previous job's deadline passed and its period began, and finished at {finish} ms: {finish} - {release} = {value} ms."),
    ("s-throttled", "{task} had used up its budget at {t} ms ({left} µs left by the kernel's count): throttled until its next period."),
    ("s-runs-again", "{task} ran again at {t} ms, with its budget refilled and its deadline moved on to {deadline} ms."),
    // Chapter 11, many cores.
    ("setup-harts", "These tasks run on {harts} harts under FIFO (sched=fifo), each hart with its own run queue (rq=perhart, the default). Each needs the CPU for its burst and then exits; none sleeps."),
    ("rule-harts", "{harts} harts, numbered 0 to {last}, each with a tick every 1 ms. The workload starts at time 0 and times are in ms from then; tasks arrive at 0 or half way between two ticks (0.5, 1.5, ... ms)."),
    ("rule-harts-fifo", "Each hart runs the task at the front of its own queue until it finishes; a task that joins a queue goes to its back."),
    ("rule-place", "A task that arrives joins the queue of the hart with the fewest tasks, its running task counted (the lowest-numbered hart on a tie); tasks that arrive together are placed one after the other, in the order of the table. A task that joins an idle hart's queue runs at once."),
    ("rule-pull", "A hart that finishes a task and finds its own queue empty takes one waiting task at once from the hart with the most tasks, if that hart has at least two (its running task counted; the lowest-numbered on a tie): of the tasks waiting there that may run on it, the one highest in the table (the first to arrive). That is a migration; nothing else moves a task between harts in these problems."),
    ("rule-pin", "{task} is pinned to hart {hart} (affinity=): it joins that hart's queue whatever the loads, and no other hart takes it."),
    ("col-harts", "may run on hart"),
    ("any-hart", "any"),
    ("q-placed", "Which hart's queue does {task} join when it arrives?"),
    ("q-running-on", "Which task runs on hart {hart} at {t} ms?"),
    ("q-migrations", "How many migrations (moves of a task from one hart's queue to another's) are there in the whole run?"),
    ("q-last-hart", "On which hart does {task} finish?"),
    ("s-placed", "{task} arrived at {t} ms; its new event in the trace says rq={hart}: it joined hart {hart}'s queue."),
    ("s-running-on", "At {t} ms hart {hart} was running {task}, from {from} to {to} ms."),
    ("s-migrations", "Migrate events in the trace: {n}."),
    ("s-moved", "{task} moved from hart {from} to hart {to} at {t} ms."),
    ("s-last-hart", "{task}'s last turn ran on hart {hart}, from {from} to {to} ms."),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_is_a_word_and_keys_are_unique() {
        for (i, (key, text)) in ENGLISH.iter().enumerate() {
            assert!(ENGLISH[..i].iter().all(|(k, _)| k != key), "{key} twice");
            let mut rest = *text;
            while let Some(open) = rest.find('{') {
                let close = rest[open..].find('}').expect("closed") + open;
                assert!(rest[open + 1..close].chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{key}");
                rest = &rest[close + 1..];
            }
        }
        let m = msg!("q-running", t = "3.50");
        assert_eq!(m.english(), "Which task runs at 3.50 ms?");
        assert_eq!(msg!("s-finished", task = "{t}", t = 1).english(), "{t} finished at 1 ms.");
    }
}
