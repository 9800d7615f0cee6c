//! The scheduler core: the task table, the per-hart scheduler loop, ticks, sleeps and
//! wakeups, and the calls workload tasks make. The core does all accounting (CPU, wait,
//! switches, iterations, finish) and emits every trace event; the policy only decides.
//!
//! Switching follows xv6: a task gives its hart back to that hart's scheduler loop, which
//! then picks the next task. The leaving task is put back in the run queue only after its
//! registers are saved (back in the loop), so no other hart can pick it up half-saved.
//! One spinlock (`KERNEL`) guards the task table and the policy. With `rq=perhart` each hart
//! has its own fair run queue (`balance` places tasks and balances the queues); Linux gives
//! each queue its own lock as well, which this kernel does not: its critical sections are
//! short and the harts few, and the book compares scheduling decisions, not lock contention.

pub mod balance;

use crate::arch::{self, swtch};
use crate::hart::{self, Leave, MAX_HARTS};
use crate::latency::Latency;
use crate::lock::SpinLock;
use crate::mutex::{self, Mutexes};
use crate::pipe::Pipes;
use crate::sched::class::Classes;
use crate::task::{self, Args, Class, Entry, FairPolicy, MAX_TASKS, Params, State, Task, Tid};
use crate::power::{self, Exit};
use crate::{report, sbi, trace};
pub use balance::Smp;
use core::sync::atomic::{AtomicU64, Ordering};
use runqueue_sched_api::{self as api, Enqueue};
use runqueue_sched_api::Line;
use runqueue_settings::{ArgError, Choice, Int, Kind, Setting, Settings, Tunable, tunables};

/// What the final report says about the run.
#[derive(Clone, Copy)]
pub struct RunInfo {
    pub args: &'static str,
    pub sched: &'static str,
    pub workload: &'static str,
    pub smp: usize,
    pub seed: u64,
}

pub struct Kernel {
    pub tasks: [Task; MAX_TASKS],
    /// Tids 1..=count are in use.
    pub count: usize,
    live: usize,
    policy: Classes,
    /// The pipes tasks block on (`pipe.rs`).
    pub pipes: Pipes,
    /// The mutexes tasks take (`mutex.rs`).
    pub mutexes: Mutexes,
    /// What a latency-measuring task recorded (`latency.rs`).
    pub latency: Latency,
    /// The task on each hart (0: idle).
    current: [Tid; MAX_HARTS],
    /// A hart kicked for a waiting task, until it next picks: how firmly that task will hold it
    /// (`Classes::standing`), so that another wakeup does not count on the same hart.
    claimed: [Option<(u8, u64)>; MAX_HARTS],
    harts: usize,
    tick_ns: u64,
    smp: Smp,
    pub run: RunInfo,
    /// Hash of the last `state` each task reported, to emit only changes.
    milestone: [u64; MAX_TASKS],
    /// The latest time any hart has booked (see `clock`).
    last_now: u64,
    /// `idle=poll`: an idle hart spins instead of halting.
    idle_poll: bool,
}

tunables! {
    /// The scheduler tick.
    pub const TICK;
    pub TICK_US: Int = Setting::int(Tunable { name: "tick_us", kind: Kind::Int { min: 100, max: 100_000 }, default: "1000", unit: "us", help: "period of each hart's scheduler tick" });
}

tunables! {
    /// What an idle hart does.
    pub const IDLE;
    /// `true`: it polls (`idle=poll`).
    IDLE_POLL: Choice<bool> = Setting::choice(
        Tunable {
            name: "idle",
            kind: Kind::Choice(&["halt", "poll"]),
            default: "halt",
            unit: "",
            help: "an idle hart halts (wfi) until an interrupt, or polls, as Linux's idle=poll: under a modelled host a halted vCPU gives its CPU back and pays to wake",
        },
        &[false, true],
    );
}

pub static KERNEL: SpinLock<Kernel> = SpinLock::new(Kernel {
    tasks: [Task::FREE; MAX_TASKS],
    count: 0,
    live: 0,
    policy: Classes::EMPTY,
    pipes: Pipes::new(),
    mutexes: Mutexes::new(),
    latency: Latency::NONE,
    current: [0; MAX_HARTS],
    claimed: [None; MAX_HARTS],
    harts: 1,
    tick_ns: 1_000_000,
    smp: Smp::ONE,
    run: RunInfo { args: "", sched: "", workload: "", smp: 1, seed: 0 },
    milestone: [0; MAX_TASKS],
    last_now: 0,
    idle_poll: false,
});

/// When the workload started (absolute ns): tasks measure their run time from here.
static START_NS: AtomicU64 = AtomicU64::new(0);

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

impl Kernel {
    /// Now, for booking under the lock. Harts' clocks may differ by a few instructions (on
    /// the emulator each hart's `time` includes its progress in the current round), so the
    /// core never lets booked time go backwards: a stint charged by one hart then ended by
    /// another must not come out negative.
    pub fn clock(&mut self) -> u64 {
        self.last_now = self.last_now.max(arch::now_ns());
        self.last_now
    }

    /// Installs the policy and the run's parameters; called once, before any task exists.
    pub fn configure(&mut self, settings: &Settings<'static>, run: RunInfo, tick_ns: u64, smp: Smp) -> Result<(), ArgError<'static>> {
        self.policy.configure(settings, smp.perhart, &api::Run { harts: run.smp, tick_ns, seed: run.seed })?;
        self.mutexes.configure(settings.get(&mutex::PI) == 1, settings.get(&mutex::CEILING) as u8);
        self.harts = run.smp;
        self.run = run;
        self.tick_ns = tick_ns;
        self.smp = smp;
        self.idle_poll = settings.get(&IDLE_POLL);
        Ok(())
    }

    /// Creates a runnable task; `Err` says why it cannot exist.
    pub fn spawn(&mut self, name: &str, index: Option<usize>, params: Params, entry: Entry, args: Args) -> Result<Tid, &'static str> {
        let tid = self.count + 1;
        if tid >= MAX_TASKS {
            return Err("too many tasks for the task table (at most 63)");
        }
        let every = (1u32 << self.harts) - 1;
        let allowed = if params.harts == 0 { every } else { params.harts & every };
        if allowed == 0 {
            return Err("a task may run on no hart this run has (check smp= and affinity=)");
        }
        // `isolcpus`: only a task pinned to isolated harts alone runs there.
        let housekeeping = allowed & !self.smp.isolated;
        let allowed = if housekeeping != 0 { housekeeping } else { allowed };
        self.policy.admit(&params.class, params.policy)?;
        self.count = tid;
        self.live += 1;
        let now = self.clock();
        let t = &mut self.tasks[tid];
        *t = Task::new(tid, params, allowed, entry, args, now);
        t.set_name(name, index);
        task::prepare(tid, trampoline);
        if params.arrive_ns > 0 {
            // Hart 0's timer (armed when its loop starts) brings it in.
            t.state = State::Sleeping { until: start_ns() + params.arrive_ns, hart: 0 };
            t.arriving = true;
        } else {
            self.arrive(tid, now);
        }
        Ok(tid)
    }

    /// A task joins the run queue for the first time: the policy and the trace see it new.
    fn arrive(&mut self, tid: Tid, now: u64) {
        self.tasks[tid].arrived_at = now;
        let multiqueue = self.multiqueue();
        if multiqueue {
            self.place_new(tid);
        }
        self.policy.enqueue(&self.tasks[tid], Enqueue::New, now);
        let (policy, t) = (&self.policy, &self.tasks[tid]);
        trace::event(now, "new", tid, |l| {
            l.push(" name=").push(t.name()).push(" class=").push(t.class.name());
            if t.policy != FairPolicy::Normal {
                l.push(" policy=").push(t.policy.name());
            }
            if t.nice != 0 {
                l.field_int("nice", t.nice as i64);
            }
            if multiqueue {
                l.field("rq", t.queue as u64);
            }
            policy.describe(t, l);
        });
        self.milestone[tid] = self.milestone_hash(tid);
        self.restart_ticks_for(tid);
    }

    fn milestone_hash(&self, tid: Tid) -> u64 {
        let mut line = Line::new();
        self.policy.milestone(&self.tasks[tid], &mut line);
        fnv(line.as_bytes())
    }

    /// Emits a `state` event if the policy's milestone for `tid` changed since the last one.
    fn note_milestone(&mut self, tid: Tid, now: u64) {
        if !trace::enabled() {
            return;
        }
        let hash = self.milestone_hash(tid);
        if hash != self.milestone[tid] {
            self.milestone[tid] = hash;
            let (policy, t) = (&self.policy, &self.tasks[tid]);
            trace::event(now, "state", tid, |l| policy.milestone(t, l));
        }
    }

    /// Hands the CPU time `tid` used since its last charge to the accounting and the policy.
    fn charge(&mut self, tid: Tid, now: u64) {
        let t = &mut self.tasks[tid];
        let ran = now.saturating_sub(t.charged_at);
        t.charged_at = now;
        t.cpu_ns += ran;
        t.stint_ns += ran;
        self.policy.charge(&self.tasks[tid], ran, now);
    }

    /// Asks the policy for `hart`'s next task and switches the books to it. A hart that finds
    /// its queue empty first tries to pull a task from another (newidle balancing).
    fn pick(&mut self, hart: usize, now: u64) -> Option<Tid> {
        self.claimed[hart] = None;
        let tid = match self.ask_policy(hart, now) {
            Some(tid) => tid,
            None if self.multiqueue() => {
                self.newidle_balance(hart, now);
                self.ask_policy(hart, now)?
            }
            None => return None,
        };
        // The policy's answer is checked, never trusted: a lab policy is students' code.
        let why = if tid == 0 || tid > self.count || self.tasks[tid].state != State::Runnable {
            "which is not runnable"
        } else if self.tasks[tid].allowed & (1 << hart) == 0 {
            "which may not run on that hart"
        } else {
            ""
        };
        if !why.is_empty() {
            crate::println!("kernel bug: scheduler '{}' picked task {tid} for hart {hart}, {why}", self.run.sched);
            power::exit(Exit::Fault);
        }
        self.current[hart] = tid;
        if self.multiqueue() {
            self.busy(hart);
        }
        let t = &mut self.tasks[tid];
        t.state = State::Running(hart);
        t.queue = hart;
        t.wait_ns += now.saturating_sub(t.runnable_since);
        t.switches += 1;
        if t.first_run_at == 0 {
            t.first_run_at = now;
        }
        t.switched_in_at = now;
        t.charged_at = now;
        t.stint_ns = 0;
        hart::get(hart).need_resched.store(false, Ordering::Relaxed);
        let (policy, t) = (&self.policy, &self.tasks[tid]);
        trace::event(now, "in", tid, |l| policy.describe(t, l));
        if self.mutexes.contended() {
            mutex::note_inversions(self);
        }
        Some(tid)
    }

    fn ask_policy(&mut self, hart: usize, now: u64) -> Option<Tid> {
        let Kernel { tasks, policy, .. } = self;
        let allowed = |t: Tid| t < MAX_TASKS && tasks[t].allowed & (1 << hart) != 0;
        policy.pick_next(hart, now, &allowed)
    }

    /// Books the end of `hart`'s current task's stint, for the reason it gave.
    fn switch_out(&mut self, hart: usize, why: Leave, now: u64) {
        let tid = self.current[hart];
        self.current[hart] = 0;
        self.charge(tid, now);
        let ran = now.saturating_sub(self.tasks[tid].switched_in_at);
        let label = match why {
            Leave::Preempted => "preempt",
            Leave::Yielded => "yield",
            Leave::Sleep(_) => "sleep",
            Leave::Block => "block",
            Leave::Exit => "exit",
        };
        // A preempted or yielding task stays runnable: its `out` carries its policy state once
        // it is back in the queue (after the charge, and a yield's pushed deadline), so a
        // reader of the trace can rebuild the queue.
        let requeued = matches!(why, Leave::Preempted | Leave::Yielded);
        if !requeued {
            trace::event(now, "out", tid, |l| {
                l.push(" why=").push(label).field("ran", ran);
            });
        }
        let timer = self.timer_hart(hart);
        let t = &mut self.tasks[tid];
        t.last_ran = now;
        match why {
            Leave::Preempted | Leave::Yielded => {
                if self.multiqueue() {
                    self.leave_disallowed(tid, hart, now);
                }
                let t = &mut self.tasks[tid];
                t.state = State::Runnable;
                t.runnable_since = now;
                let reason = if why == Leave::Preempted { Enqueue::Preempted } else { Enqueue::Yielded };
                self.policy.enqueue(&self.tasks[tid], reason, now);
                let (policy, t) = (&self.policy, &self.tasks[tid]);
                trace::event(now, "out", tid, |l| {
                    l.push(" why=").push(label).field("ran", ran);
                    policy.describe(t, l);
                });
                if self.tasks[tid].class != Class::Fair && self.harts > 1 {
                    // A real-time or deadline task displaced from this hart goes to another
                    // at once if it outranks what runs there (Linux's push).
                    self.kick_for(tid, hart, Some(hart), now);
                }
            }
            Leave::Sleep(until) => {
                t.state = State::Sleeping { until, hart: timer };
                self.policy.block(&self.tasks[tid], now);
                self.program_timer(hart);
                if timer != hart {
                    hart::rearm(timer);
                }
            }
            Leave::Block => {
                t.state = State::Blocked;
                let woken_meanwhile = core::mem::take(&mut t.wake_pending);
                self.policy.block(&self.tasks[tid], now);
                self.note_milestone(tid, now);
                if woken_meanwhile {
                    self.wake(tid, now, hart, true);
                }
                return;
            }
            Leave::Exit => {
                t.state = State::Exited;
                t.exit_ns = now;
                let (cpu, wait) = (t.cpu_ns, t.wait_ns);
                trace::event(now, "exit", tid, |l| {
                    l.field("cpu", cpu).field("wait", wait);
                });
                self.policy.exit(&self.tasks[tid]);
                self.live -= 1;
                if self.live == 0 {
                    report::print(self, now);
                    power::exit(Exit::Done);
                }
                return;
            }
        }
        self.note_milestone(tid, now);
    }

    /// Makes a sleeping task runnable and decides whether it should take a hart at once.
    /// `sync`: the waker is about to wait itself (pipes), so the wakee may take its hart. A
    /// task its policy still holds queued (`Classes::delayed`) wakes where it is.
    fn wake(&mut self, tid: Tid, now: u64, local: usize, sync: bool) {
        let multiqueue = self.multiqueue() && self.tasks[tid].class == Class::Fair;
        if multiqueue && !self.tasks[tid].arriving && !self.policy.delayed(&self.tasks[tid]) {
            self.place_wakeup(tid, local, sync, now);
        }
        if multiqueue {
            self.end_idle(self.tasks[tid].queue, now);
        }
        let t = &mut self.tasks[tid];
        t.state = State::Runnable;
        t.runnable_since = now;
        if core::mem::take(&mut t.arriving) {
            self.arrive(tid, now);
        } else {
            self.policy.enqueue(&self.tasks[tid], Enqueue::Wakeup, now);
            let (policy, t) = (&self.policy, &self.tasks[tid]);
            trace::event(now, "wake", tid, |l| {
                if multiqueue {
                    l.field("rq", t.queue as u64);
                }
                policy.describe(t, l)
            });
            self.note_milestone(tid, now);
            self.restart_ticks_for(tid);
        }
        self.find_hart(tid, local, now);
    }

    /// Gets a hart for runnable `tid`: with per-hart queues a fair task's own queue's hart runs
    /// it, at once if idle or if it preempts the task there; others go to `kick_for`.
    fn find_hart(&mut self, tid: Tid, local: usize, now: u64) {
        if !(self.multiqueue() && self.tasks[tid].class == Class::Fair) {
            self.kick_for(tid, local, None, now);
            return;
        }
        let h = self.tasks[tid].queue;
        let running = self.current[h];
        if running == 0 {
            if h != local {
                hart::kick(h);
            }
            return;
        }
        self.charge(running, now);
        if self.policy.wakeup_preempts(&self.tasks[running], &self.tasks[tid]) {
            hart::kick(h);
        }
    }

    /// Gives `tid` the class `class` (a priority inherited through a mutex, or given back):
    /// the classes move it (`Classes::change_class`), then a runnable task is offered a hart
    /// as a woken one is, and a running task that now stands lower gives way if a task
    /// waiting for its hart outranks it. False when `class` is already its class.
    pub fn set_class(&mut self, tid: Tid, class: Class, now: u64) -> bool {
        let old = self.tasks[tid].class;
        if old == class {
            return false;
        }
        let state = self.tasks[tid].state;
        if let State::Running(_) = state {
            // Its CPU time so far goes to the class it ran in.
            self.charge(tid, now);
        }
        self.tasks[tid].class = class;
        if let Err(why) = self.policy.change_class(&self.tasks[tid], old, state == State::Runnable, now) {
            crate::println!("error: sched={}: {why}", self.run.sched);
            power::exit(Exit::BadArgs);
        }
        match state {
            State::Runnable => self.find_hart(tid, arch::hart_index(), now),
            State::Running(h) if self.policy.recheck(&self.tasks[tid], now) => hart::kick(h),
            _ => {}
        }
        true
    }

    /// Ticket transfers (`mutex.rs`): `waiter` now waits for a mutex `owner` holds, or its wait
    /// is over (`None`).
    pub fn lend(&mut self, waiter: Tid, owner: Option<Tid>) {
        self.policy.lend(&self.tasks[waiter], owner.map(|o| &self.tasks[o]));
    }

    /// The task running on hart `h` (0: none), and how many harts this run has.
    pub fn running_on(&self, h: usize) -> Tid {
        self.current[h]
    }

    pub fn harts(&self) -> usize {
        self.harts
    }

    /// How firmly `tid` holds a hart: its class rank, then its priority (`Classes::standing`).
    pub fn standing(&self, tid: Tid) -> (u8, u64) {
        self.policy.standing(&self.tasks[tid])
    }

    /// Finds a hart for runnable `tid` among those it may use (but `skip`): an idle one, or
    /// the one whose running task stands lowest among those it preempts; that hart is
    /// kicked. Harts are tried from `local` on, so ties go to the nearest. A hart already
    /// kicked for another task stands as that task does (Linux's `cpupri` counts a task
    /// pushed to a CPU before it runs there).
    fn kick_for(&mut self, tid: Tid, local: usize, skip: Option<usize>, now: u64) {
        let allowed = self.tasks[tid].allowed;
        let order = (local..self.harts).chain(0..local).filter(|&h| allowed & (1 << h) != 0 && Some(h) != skip);
        let mine = self.policy.standing(&self.tasks[tid]);
        if let Some(h) = order.clone().find(|&h| self.current[h] == 0 && self.claimed[h].is_none()) {
            self.claim(h, local, mine);
            return;
        }
        let mut victim: Option<(usize, (u8, u64))> = None;
        for h in order {
            let (standing, preempts) = match self.claimed[h] {
                Some(claim) => (claim, claim < mine),
                None if self.current[h] == 0 => continue,
                None => {
                    let running = self.current[h];
                    self.charge(running, now);
                    (self.policy.standing(&self.tasks[running]), self.policy.wakeup_preempts(&self.tasks[running], &self.tasks[tid]))
                }
            };
            if !preempts {
                continue;
            }
            if standing == (0, 0) && self.claimed[h].is_none() {
                // A fair task: none stands lower, so the nearest one goes.
                self.claim(h, local, mine);
                return;
            }
            if victim.is_none_or(|(_, s)| standing < s) {
                victim = Some((h, standing));
            }
        }
        if let Some((h, _)) = victim {
            self.claim(h, local, mine);
        }
    }

    /// Kicks hart `h` for a task that stands at `standing` there.
    fn claim(&mut self, h: usize, local: usize, standing: (u8, u64)) {
        if self.harts > 1 {
            self.claimed[h] = Some(standing);
        }
        if h != local || self.current[h] != 0 {
            hart::kick(h);
        }
    }

    /// Ends `tid`'s wait (a pipe it waits on changed). A task that registered as a waiter but
    /// has not finished blocking yet (another hart's waker got the lock in between) blocks
    /// and is woken at once when its hart books the block.
    pub fn wake_waiter(&mut self, tid: Tid) {
        let now = self.clock();
        match self.tasks[tid].state {
            State::Blocked => self.wake(tid, now, arch::hart_index(), true),
            _ => self.tasks[tid].wake_pending = true,
        }
    }

    fn wake_sleepers(&mut self, now: u64, local: usize) {
        for tid in 1..=self.count {
            if let State::Sleeping { until, .. } = self.tasks[tid].state
                && until <= now
            {
                self.wake(tid, now, local, false);
            }
        }
    }

    /// Arms `hart`'s timer for its next tick, the earliest sleeper it must wake, or the
    /// earliest event of the classes above the fair one (`Classes::next_event`).
    #[inline(always)]
    fn program_timer(&mut self, hart: usize) {
        let mut deadline = if self.tick_stopped_for(hart) { u64::MAX } else { hart::get(hart).next_tick_ns.get() };
        for t in &self.tasks[1..=self.count] {
            if let State::Sleeping { until, hart: h } = t.state
                && h == hart
            {
                deadline = deadline.min(until);
            }
        }
        if self.policy.timed() {
            deadline = self.class_event(hart, deadline);
        }
        sbi::set_timer(deadline.div_ceil(arch::NS_PER_TICK));
    }

    /// A tick on `hart`: charge and ask the policy whether the running task must go.
    fn tick(&mut self, hart: usize, now: u64) -> bool {
        let tid = self.current[hart];
        if tid == 0 {
            return false;
        }
        self.charge(tid, now);
        let preempt = self.policy.tick(&self.tasks[tid], now);
        self.note_milestone(tid, now);
        preempt
    }

    /// A timer event of the classes above the fair one (not a tick): charge the running task
    /// and ask only the class checks (`Classes::recheck`). Out of line: all-fair runs never
    /// come here, and their hot paths stay as they were.
    #[inline(never)]
    fn recheck(&mut self, hart: usize, now: u64) -> bool {
        let tid = self.current[hart];
        if tid == 0 {
            return false;
        }
        self.charge(tid, now);
        self.policy.recheck(&self.tasks[tid], now)
    }

    /// `deadline`, or the earlier event of the classes above the fair one on `hart`.
    #[inline(never)]
    fn class_event(&mut self, hart: usize, deadline: u64) -> u64 {
        let running = Some(self.current[hart]).filter(|&t| t != 0).map(|t| &self.tasks[t]);
        self.policy.next_event(hart, running, self.last_now).map_or(deadline, |at| at.min(deadline))
    }
}

/// Where every task starts: interrupts on, run the workload's function, exit.
extern "C" fn trampoline() -> ! {
    // The scheduler loop switched here with its one level of `push_off`; a fresh task owns
    // no lock, so it starts from zero.
    hart::this().noff.set(0);
    let (entry, args) = {
        let k = KERNEL.lock();
        let t = &k.tasks[hart::this().running.get()];
        (t.entry, t.args)
    };
    arch::intr_on();
    entry(args);
    exit()
}

/// Gives this hart back to its scheduler loop; returns when the task runs again (maybe on
/// another hart).
fn leave(why: Leave) {
    hart::push_off();
    switch_away(why);
}

/// `leave` for a caller that already holds exactly one `push_off` (the scheduler loop
/// expects one level); pops it when the task runs again.
fn switch_away(why: Leave) {
    let h = hart::this();
    h.leave.set(why);
    let intena = h.intena.get();
    unsafe { swtch(task::context(h.running.get()), h.sched_ctx.get()) };
    // Possibly another hart now: look it up again.
    hart::this().intena.set(intena);
    hart::pop_off();
}

/// Spins of one idle pass with `idle=poll`, about 2 µs: short enough that a woken task waits
/// little for the next look at the queues, long enough to leave the lock mostly free.
const IDLE_POLL_SPINS: u32 = 100;

/// Each hart's scheduler loop: pick a task, run it until it gives the hart back, book why.
pub fn scheduler_loop() -> ! {
    let index = arch::hart_index();
    let h = hart::this();
    hart::push_off();
    let idle_poll = {
        let mut k = KERNEL.lock();
        h.next_tick_ns.set(arch::now_ns() + k.tick_ns);
        k.program_timer(index);
        k.idle_poll
    };
    loop {
        let next = {
            let mut k = KERNEL.lock();
            let now = k.clock();
            let next = k.pick(index, now);
            if k.policy.timed() {
                // The new task's budget or throttling, or a server throttled by the last one.
                k.program_timer(index);
            }
            next
        };
        match next {
            Some(tid) => {
                h.running.set(tid);
                unsafe { swtch(h.sched_ctx.get(), task::context(tid)) };
                crate::stack::check(tid);
                let why = h.leave.get();
                h.running.set(0);
                let mut k = KERNEL.lock();
                let now = k.clock();
                k.switch_out(index, why, now);
                if k.multiqueue() {
                    k.active_balance(index, now);
                }
            }
            None => {
                // Nothing to run: wait for a tick, a sleeper's timer or another hart's IPI.
                // `wfi` with interrupts masked still returns when one is pending; only then
                // are they taken. Enabling them first would lose a wakeup that arrives just
                // before the `wfi` (the hart would sleep on until the next tick). Polling
                // takes them as they come, without the lock, for a short while per pass.
                if idle_poll {
                    arch::intr_on();
                    for _ in 0..IDLE_POLL_SPINS {
                        core::hint::spin_loop();
                    }
                } else {
                    arch::wait_for_interrupt();
                    arch::intr_on();
                }
                arch::intr_off();
            }
        }
    }
}

/// The timer interrupt: tick if one is due, wake due sleepers, re-arm, maybe preempt.
pub fn on_timer() {
    let index = arch::hart_index();
    let h = hart::this();
    let mut preempt = false;
    {
        let mut k = KERNEL.lock();
        let now = k.clock();
        let next = h.next_tick_ns.get();
        if now >= next && !k.tick_stopped_for(index) {
            let missed = (now - next) / k.tick_ns;
            h.next_tick_ns.set(next + (missed + 1) * k.tick_ns);
            if h.no_preempt.get() {
                h.ticks_held.set(h.ticks_held.get() + 1);
            }
            preempt = k.tick(index, now);
            if k.multiqueue() {
                k.periodic_balance(index, now);
            }
        } else if k.policy.timed() {
            preempt = k.recheck(index, now);
        }
        k.wake_sleepers(now, index);
        k.program_timer(index);
    }
    if preempt {
        h.need_resched.store(true, Ordering::Relaxed);
    }
    preempt_point();
}

/// An IPI: re-arm the timer if another hart asked (a `nohz_full` hart's tick restarts, or a
/// sleep timer moved here), then reschedule if asked.
pub fn on_ipi() {
    if hart::this().rearm.swap(false, Ordering::Acquire) {
        KERNEL.lock().program_timer(arch::hart_index());
    }
    preempt_point();
}

/// Called on the way out of an interrupt: switch away if a reschedule was asked for.
pub fn preempt_point() {
    let h = hart::this();
    if h.running.get() == 0 || !h.need_resched.swap(false, Ordering::Acquire) {
        return;
    }
    if h.no_preempt.get() {
        h.deferred.set(true);
    } else {
        leave(Leave::Preempted);
    }
}

/// When the workload starts, in emulated time since the machine started: later than the boot
/// takes (about 1 ms; up to 4.4 ms in the book's runs, on a modelled host whose hogs share the
/// vCPU's CPU), so that how long the boot took (reading the command line, building the policy,
/// planning the tasks) never shows in a run. Changing the boot's code then changes no trace,
/// RESULT or figure.
pub const START_AT_NS: u64 = 5_000_000;

/// Waits until `START_AT_NS` and starts the workload's clock there (its tasks are about to be
/// created, the harts to run them).
pub fn start_workload() {
    wait_until(START_AT_NS);
    START_NS.store(arch::now_ns(), Ordering::Relaxed);
}

/// Waits for `ns`: busy (a modelled host sees its vCPU run, whatever the boot did), then halted
/// for the last stretch until the timer, which ends the wait at the same instant however long
/// the work before it took. Interrupts stay masked: `wfi` returns once the timer is pending.
fn wait_until(ns: u64) {
    const HALTED_NS: u64 = 20_000;
    while arch::now_ns() + HALTED_NS < ns {
        core::hint::spin_loop();
    }
    sbi::set_timer(ns.div_ceil(arch::NS_PER_TICK));
    while arch::now_ns() < ns {
        arch::wait_for_interrupt();
    }
    sbi::set_timer(u64::MAX);
}

pub fn start_ns() -> u64 {
    START_NS.load(Ordering::Relaxed)
}

/// The period of `period` ns that `now` falls in, counted from the workload's start: RT
/// throttling's and cgroup bandwidth's fixed periods begin with the workload, not the machine.
pub fn period_of(now: u64, period: u64) -> u64 {
    now.saturating_sub(start_ns()) / period
}

/// When period `index` of `period` ns ends (`period_of`).
pub fn period_end(index: u64, period: u64) -> u64 {
    start_ns() + (index + 1) * period
}

// ---- The calls a workload task makes ----

/// Time since the workload started, in ns.
pub fn now_ns() -> u64 {
    arch::now_ns() - start_ns()
}

pub fn yield_now() {
    leave(Leave::Yielded);
}

/// Sets the running task's allowed harts (`sched_setaffinity`; a mask with none of this run's
/// harts is ignored). If its hart is no longer allowed, it leaves it for one that is.
pub fn set_affinity(mask: u32) {
    let mut k = KERNEL.lock();
    let mask = mask & ((1u32 << k.harts) - 1);
    let tid = hart::this().running.get();
    if mask == 0 {
        return;
    }
    k.tasks[tid].allowed = mask;
    let stays = mask & (1 << arch::hart_index()) != 0;
    drop(k);
    if !stays {
        leave(Leave::Preempted);
    }
}

/// Blocks the running task until `Kernel::wake_waiter` wakes it. The caller registered the
/// task as a waiter under `k` and gives up the lock here; interrupts stay masked from that
/// check to the switch, so no tick can preempt the task half-way into blocking.
pub fn block(k: crate::lock::Guard<'_, Kernel>) {
    hart::push_off();
    drop(k);
    switch_away(Leave::Block);
}

/// Sleeps at least `ns` (woken by the timer of the hart it fell asleep on).
pub fn sleep_ns(ns: u64) {
    leave(Leave::Sleep(arch::now_ns() + ns));
}

/// Sleeps until `ns` after the workload's start (not at all if that has passed).
pub fn sleep_until(ns: u64) {
    let now = now_ns();
    if ns > now {
        sleep_ns(ns - now);
    }
}

pub fn exit() -> ! {
    leave(Leave::Exit);
    unreachable!("an exited task was switched back in")
}

/// Counts one unit of the workload's work as done (and marks it in the trace).
pub fn iteration_done() {
    let mut k = KERNEL.lock();
    let tid = hart::this().running.get();
    let t = &mut k.tasks[tid];
    t.iterations += 1;
    let done = t.iterations;
    let now = k.clock();
    trace::event(now, "mark", tid, |l| {
        l.field("iter", done);
    });
}

/// Records one wakeup latency of the running task (cyclictest), with a `mark ... lat=`.
pub fn latency_sample(ns: u64) {
    let mut k = KERNEL.lock();
    let tid = hart::this().running.get();
    k.latency.tid = tid;
    k.latency.record(ns);
    let now = k.clock();
    trace::event(now, "mark", tid, |l| {
        l.field("lat", ns);
    });
}

/// A workload's own event: `mark <tid> <key>=<value>`.
pub fn mark(key: &str, value: u64) {
    let mut k = KERNEL.lock();
    let now = k.clock();
    trace::event(now, "mark", hart::this().running.get(), |l| {
        l.field(key, value);
    });
}

/// Runs `f` with preemption held off for at least `ns`: ticks still arrive (and are
/// counted), but a preemption they or a wakeup ask for waits until the region ends.
/// Returns the number of ticks taken inside the region.
pub fn nopreempt(ns: u64, mut f: impl FnMut()) -> u64 {
    let h = hart::this();
    h.no_preempt.set(true);
    h.ticks_held.set(0);
    let end = arch::now_ns() + ns;
    while arch::now_ns() < end {
        f();
    }
    // Preemption is off, so this is still the same hart.
    hart::push_off();
    h.no_preempt.set(false);
    let ticks = h.ticks_held.get();
    let deferred = h.deferred.replace(false);
    hart::pop_off();
    if deferred {
        leave(Leave::Preempted);
    }
    ticks
}
