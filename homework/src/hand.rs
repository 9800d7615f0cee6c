//! The rules a single-hart problem states, as code: the schedule a student works out by hand.
//! It never answers a question (the kernel's run does); it decides whether a draw may be
//! asked at all. A draw is asked only when this schedule is the kernel's, turn for turn, so a
//! student who follows the stated rules reaches the kernel's answers.
//!
//! Time goes in half ms. Ticks come at whole ms and tasks arrive half way between two (at 0,
//! when the kernel creates every task before its first tick, or at 1.5, 2.5, ... ms), so no
//! arrival is ever at a tick. A turn starts at a tick (a hair after it: the switch costs the
//! kernel a few µs) or at a half ms (an arrival, or a task that finished there), and a task's
//! work ends as long after its turn began as it had left (a hair after a tick or an arrival at
//! that moment). A limit of n ms (a slice, a quantum, an
//! allotment) is checked at ticks: at the tick n ms after a start at a tick the task has run
//! a hair less than n ms, so the limit ends the turn one tick later. Those hairs are counted
//! here as `Dur`'s `eps`; where one would decide a tie that the rules do not, no schedule.

pub mod cfs;
pub mod deadline;
pub mod eevdf;
pub mod harts;
pub mod stride;

use alloc::vec::Vec;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Fifo,
    /// Round Robin with a slice of `q` ms.
    Rr { q: u64 },
    Sjf,
    /// Preemptive SJF as the kernel's `sjf.preempt=1` has it: an arrival preempts when its
    /// burst is below the running task's time left; the pick ranks whole bursts.
    Stcf,
    /// `levels` levels, quantum = allotment = 2^level ms, no priority boost.
    Mlfq { levels: u32 },
    /// Real-time priorities (higher first); tasks of priority 0 are the fair class below (a
    /// cooperative FIFO here). RR tasks (`rr`) have a slice of `q` ms; the others are FIFO.
    Rt { q: u64 },
}

#[derive(Clone, Copy, Debug)]
pub struct Job {
    /// When it arrives, in µs: 0, or half way between two ticks.
    pub arrive_us: u64,
    pub burst: u64,
    /// Real-time priority (0: fair), and whether it is SCHED_RR.
    pub prio: u32,
    pub rr: bool,
}

impl Job {
    pub fn new(arrive_us: u64, burst: u64) -> Job {
        Job { arrive_us, burst, prio: 0, rr: false }
    }

    /// The half ms it arrives at; `None` for an arrival at or near a tick, which these rules
    /// do not place.
    fn arrive_half(&self) -> Option<u64> {
        let half = self.arrive_us / 500;
        (self.arrive_us.is_multiple_of(500) && (half == 0 || !half.is_multiple_of(2))).then_some(half)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Preempt,
    Exit,
}

/// One turn of the hand schedule: job index, from, to (in half ms), how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub job: usize,
    pub from: u64,
    pub to: u64,
    pub end: End,
}

/// A duration in half ms less a hair per switch it was measured from (`eps` < 0), or more
/// (`eps` > 0: work left after a turn measured a hair short).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Dur {
    halves: i64,
    eps: i64,
}

impl Dur {
    fn ms(ms: u64) -> Dur {
        Dur { halves: 2 * ms as i64, eps: 0 }
    }

    fn add(self, o: Dur) -> Dur {
        Dur { halves: self.halves + o.halves, eps: self.eps + o.eps }
    }

    fn sub(self, o: Dur) -> Dur {
        Dur { halves: self.halves - o.halves, eps: self.eps - o.eps }
    }

    /// `self >= ms`: exactly equal counts (tick to tick) reach it, as the kernel's `>=` does.
    fn at_least(self, ms: u64) -> bool {
        let limit = 2 * ms as i64;
        self.halves > limit || (self.halves == limit && self.eps >= 0)
    }
}

/// The moments of one half ms: at a whole ms the tick, then turns that began just after a
/// tick end; at a half ms arrivals, then turns that began with an arrival end.
const ARRIVE: u8 = 0;
const EARLY: u8 = 1;
const TICK: u8 = 2;
const LATE: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Moment {
    half: u64,
    phase: u8,
}

impl Moment {
    /// Time from `self` to `later`: exact from a tick (tick to tick, as the kernel counts at
    /// ticks), a hair less from a switch or an arrival's charge (the kernel's few µs there).
    fn until(self, later: Moment) -> Dur {
        let halves = later.half as i64 - self.half as i64;
        let exact = self == later || self.phase == TICK;
        Dur { halves, eps: if exact { 0 } else { -1 } }
    }
}

struct Running {
    job: usize,
    start: Moment,
    /// Where this turn's share of the count (MLFQ's allotment, RR's quantum) starts: the
    /// turn's start, or the tick that last refilled it.
    base: Moment,
    /// MLFQ: it moved down a level in this turn.
    demoted: bool,
}

struct State {
    policy: Policy,
    left: Vec<Dur>,
    level: Vec<u32>,
    /// MLFQ's allotment used at the task's level, or RR's quantum used, before this turn.
    used: Vec<Dur>,
    /// Per level or priority (or one queue): job indices in order.
    queues: Vec<Vec<usize>>,
    done: Vec<bool>,
}

/// The hand schedule, or `None` when the stated rules leave some step to the kernel's µs
/// (work that would end a hair after the tick that ends its turn), or the run would not end
/// within a second.
pub fn schedule(policy: Policy, jobs: &[Job]) -> Option<Vec<Turn>> {
    let n = jobs.len();
    let queues = match policy {
        Policy::Mlfq { levels, .. } => levels as usize,
        Policy::Rt { .. } => 100,
        _ => 1,
    };
    let mut s = State {
        policy,
        left: jobs.iter().map(|j| Dur::ms(j.burst)).collect(),
        level: alloc::vec![0; n],
        used: alloc::vec![Dur::default(); n],
        queues: (0..queues).map(|_| Vec::new()).collect(),
        done: alloc::vec![false; n],
    };
    let mut turns = Vec::new();
    let mut running: Option<Running> = None;
    // Whether a turn's side of a tick can matter: only where limits are checked at ticks.
    let ticks_matter = match policy {
        Policy::Rr { .. } | Policy::Mlfq { .. } => true,
        Policy::Rt { .. } => jobs.iter().any(|j| j.rr),
        _ => false,
    };
    for half in 0..2000u64 {
        let phases: &[u8] = if half == 0 { &[ARRIVE, TICK, LATE] } else if half % 2 == 1 { &[ARRIVE, EARLY] } else { &[TICK, LATE] };
        for &phase in phases {
            let now = Moment { half, phase };
            match phase {
                ARRIVE => {
                    let arrivals: Vec<usize> = (0..n).filter(|&i| jobs[i].arrive_half() == Some(half)).collect();
                    for &i in &arrivals {
                        s.enqueue(jobs, i, false);
                    }
                    // At 0 the kernel creates every task, then starts scheduling at tick 0.
                    if half > 0 && !arrivals.is_empty() {
                        if let Some(r) = &mut running
                            && s.arrival_preempts(jobs, r, now, &arrivals)?
                        {
                            let r = running.take()?;
                            s.leave(jobs, &r, now, &mut turns, true)?;
                        }
                        if running.is_none() {
                            running = s.pick(jobs, Moment { half, phase: EARLY });
                        }
                    }
                }
                TICK => {
                    if let Some(r) = &mut running
                        && s.tick_preempts(jobs, r, now)
                    {
                        let r = running.take()?;
                        s.leave(jobs, &r, now, &mut turns, false)?;
                        running = s.pick(jobs, Moment { half, phase: LATE });
                    }
                }
                _ => {
                    // The work ends as long after the turn's start as it had left: after the
                    // arrivals at a half ms, after the tick at a whole ms. But a turn begun at a
                    // half ms whose work ends at a whole ms ends within µs of that tick: which
                    // comes first decides the schedule when another task waits for that tick.
                    if let Some(r) = &running
                        && r.start.half as i64 + s.left[r.job].halves == half as i64
                    {
                        if r.start.half % 2 == 1 && half % 2 == 0 && ticks_matter && s.queues.iter().any(|q| !q.is_empty()) {
                            return None;
                        }
                        let r = running.take()?;
                        s.done[r.job] = true;
                        turns.push(Turn { job: r.job, from: r.start.half, to: half, end: End::Exit });
                        running = s.pick(jobs, now);
                    }
                    if running.is_none() && half == 0 {
                        running = s.pick(jobs, now);
                    }
                }
            }
        }
        if s.done.iter().all(|&d| d) {
            return Some(turns);
        }
    }
    None
}

impl State {
    fn queue_of(&self, jobs: &[Job], i: usize) -> usize {
        match self.policy {
            Policy::Mlfq { .. } => self.level[i] as usize,
            Policy::Rt { .. } => jobs[i].prio as usize,
            _ => 0,
        }
    }

    /// Into its queue: at the back, or at the head (a real-time task a higher one preempted).
    fn enqueue(&mut self, jobs: &[Job], i: usize, head: bool) {
        let q = self.queue_of(jobs, i);
        if head { self.queues[q].insert(0, i) } else { self.queues[q].push(i) }
    }

    fn pick(&mut self, jobs: &[Job], at: Moment) -> Option<Running> {
        let job = match self.policy {
            Policy::Sjf | Policy::Stcf => {
                let q = &mut self.queues[0];
                // The shortest whole burst; the one queued first among equals.
                let best = (0..q.len()).min_by_key(|&k| (jobs[q[k]].burst, k))?;
                q.remove(best)
            }
            Policy::Rt { .. } => self.queues.iter_mut().rev().find(|q| !q.is_empty())?.remove(0),
            _ => self.queues.iter_mut().find(|q| !q.is_empty())?.remove(0),
        };
        if let Policy::Rr { .. } = self.policy {
            self.used[job] = Dur::default(); // the round-robin slice starts at every switch-in
        }
        Some(Running { job, start: at, base: at, demoted: false })
    }

    /// The count (allotment or quantum) the running task has used by `now`.
    fn used_by(&self, r: &Running, now: Moment) -> Dur {
        self.used[r.job].add(r.base.until(now))
    }

    /// The count starts again at `now`.
    fn refill(&mut self, r: &mut Running, now: Moment) {
        self.used[r.job] = Dur::default();
        r.base = now;
    }

    /// MLFQ: a task that has used its allotment at a level moves down one (not from the bottom).
    fn demote_if_used(&mut self, r: &mut Running, now: Moment) {
        let Policy::Mlfq { levels, .. } = self.policy else { return };
        let i = r.job;
        if self.level[i] + 1 < levels && self.used_by(r, now).at_least(1 << self.level[i]) {
            self.level[i] += 1;
            self.refill(r, now);
            r.demoted = true;
        }
    }

    /// Whether an arrival at `now` takes the CPU from the running task.
    /// `None` when a burst equals what is left: the kernel's count of what is left includes
    /// its own overhead, so the tie could go either way.
    fn arrival_preempts(&mut self, jobs: &[Job], r: &mut Running, now: Moment, arrivals: &[usize]) -> Option<bool> {
        Some(match self.policy {
            // Strictly shorter than what is left.
            Policy::Stcf => {
                let left = self.left[r.job].sub(r.start.until(now));
                let mut preempt = false;
                for &i in arrivals {
                    let margin = left.sub(Dur::ms(jobs[i].burst));
                    if margin.halves == 0 {
                        return None;
                    }
                    preempt |= margin.halves > 0;
                }
                preempt
            }
            Policy::Mlfq { .. } => {
                self.demote_if_used(r, now);
                arrivals.iter().any(|&i| self.level[i] < self.level[r.job])
            }
            Policy::Rt { .. } => arrivals.iter().any(|&i| jobs[i].prio > jobs[r.job].prio),
            _ => false,
        })
    }

    /// Whether the tick at `now` takes the CPU from the running task.
    fn tick_preempts(&mut self, jobs: &[Job], r: &mut Running, now: Moment) -> bool {
        let waiting = self.queues.iter().any(|q| !q.is_empty());
        match self.policy {
            Policy::Rr { q } => self.quantum_over(r, now, q, waiting),
            Policy::Rt { q } if jobs[r.job].rr => {
                let peers = !self.queues[jobs[r.job].prio as usize].is_empty();
                self.quantum_over(r, now, q, peers)
            }
            Policy::Mlfq { .. } => {
                self.demote_if_used(r, now);
                waiting && (r.demoted || r.start.until(now).at_least(1 << self.level[r.job]))
            }
            _ => false,
        }
    }

    /// RR at a tick: a spent quantum is refilled, and the task preempted when `peers` wait.
    fn quantum_over(&mut self, r: &mut Running, now: Moment, q: u64, peers: bool) -> bool {
        if !self.used_by(r, now).at_least(q) {
            return false;
        }
        self.refill(r, now);
        peers
    }

    /// The running task leaves the CPU with time left: charged, into its queue. `None` when it
    /// leaves a hair before its end: a turn of µs the rules do not have.
    fn leave(&mut self, jobs: &[Job], r: &Running, now: Moment, turns: &mut Vec<Turn>, by_arrival: bool) -> Option<()> {
        self.left[r.job] = self.left[r.job].sub(r.start.until(now));
        if self.left[r.job].halves <= 0 {
            return None;
        }
        self.used[r.job] = self.used_by(r, now);
        turns.push(Turn { job: r.job, from: r.start.half, to: now.half, end: End::Preempt });
        // A real-time task that a higher one preempted goes back to the head of its queue,
        // keeping what is left of its quantum (Linux's rule).
        let head = by_arrival && matches!(self.policy, Policy::Rt { .. }) && jobs[r.job].prio > 0;
        self.enqueue(jobs, r.job, head);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Jobs as (arrival in ms, burst); turns as (job, from, to) in ms.
    fn turns(policy: Policy, jobs: &[(f64, u64)]) -> Option<Vec<(usize, f64, f64)>> {
        let jobs: Vec<Job> = jobs.iter().map(|&(a, b)| Job::new((a * 1000.0) as u64, b)).collect();
        schedule(policy, &jobs).map(|t| t.iter().map(|t| (t.job, t.from as f64 / 2.0, t.to as f64 / 2.0)).collect())
    }

    #[test]
    fn fifo_and_sjf_run_whole_bursts() {
        assert_eq!(turns(Policy::Fifo, &[(0.0, 6), (0.0, 1), (0.0, 7)]), Some(alloc::vec![(0, 0.0, 6.0), (1, 6.0, 7.0), (2, 7.0, 14.0)]));
        assert_eq!(turns(Policy::Sjf, &[(0.0, 6), (0.0, 1), (0.0, 7)]), Some(alloc::vec![(1, 0.0, 1.0), (0, 1.0, 7.0), (2, 7.0, 14.0)]));
        assert_eq!(turns(Policy::Sjf, &[(0.0, 3), (0.0, 9), (2.5, 1)]), Some(alloc::vec![(0, 0.0, 3.0), (2, 3.0, 4.0), (1, 4.0, 13.0)]));
        // An idle CPU waits for the next arrival.
        assert_eq!(turns(Policy::Fifo, &[(0.0, 2), (4.5, 1)]), Some(alloc::vec![(0, 0.0, 2.0), (1, 4.5, 5.5)]));
        // An arrival off the half-ms grid is not one these rules place.
        assert_eq!(turns(Policy::Fifo, &[(0.0, 2), (4.0, 1)]), None);
    }

    #[test]
    fn a_limit_checked_at_ticks_lasts_one_tick_more_after_a_tick() {
        // q = 2: turns started at a tick last 3 ms.
        assert_eq!(
            turns(Policy::Rr { q: 2 }, &[(0.0, 4), (0.0, 5), (1.5, 7), (1.5, 7)]),
            Some(alloc::vec![(0, 0.0, 3.0), (1, 3.0, 6.0), (2, 6.0, 9.0), (3, 9.0, 12.0), (0, 12.0, 13.0), (1, 13.0, 15.0), (2, 15.0, 18.0), (3, 18.0, 21.0), (2, 21.0, 22.0), (3, 22.0, 23.0)])
        );
        // A task that arrives at an idle CPU at 1.5 ms reaches 2 ms at 3.5 and is preempted at
        // the tick at 4; the other's turn starts at that tick.
        assert_eq!(turns(Policy::Rr { q: 2 }, &[(1.5, 5), (2.5, 2)]), Some(alloc::vec![(0, 1.5, 4.0), (1, 4.0, 6.0), (0, 6.0, 8.5)]));
        // Three ms left at the start of a 3 ms turn: the work and the tick tie.
        assert_eq!(turns(Policy::Rr { q: 2 }, &[(0.0, 3), (0.0, 1)]), None);
    }

    #[test]
    fn stcf_preempts_an_arrival_shorter_than_what_is_left() {
        assert_eq!(turns(Policy::Stcf, &[(0.0, 8), (1.5, 3)]), Some(alloc::vec![(0, 0.0, 1.5), (1, 1.5, 4.5), (0, 4.5, 11.0)]));
        // Where limits are checked at ticks, work resumed at a half ms that ends at a whole ms
        // ends within µs of the tick; when no other task waits for that tick, it does not matter.
        assert_eq!(turns(Policy::Mlfq { levels: 2 }, &[(0.0, 8), (2.5, 1)]), Some(alloc::vec![(0, 0.0, 2.5), (1, 2.5, 3.5), (0, 3.5, 9.0)]));
        assert_eq!(turns(Policy::Stcf, &[(0.0, 4), (1.5, 3)]), Some(alloc::vec![(0, 0.0, 4.0), (1, 4.0, 7.0)]));
        // 4 ms left of a turn begun at 1.5 ms, when a 4 ms task arrives at 3.5: a tie.
        assert_eq!(turns(Policy::Stcf, &[(0.0, 1), (1.5, 6), (3.5, 4)]), None);
    }

    #[test]
    fn mlfq_moves_a_task_down_after_its_allotment() {
        assert_eq!(
            turns(Policy::Mlfq { levels: 3 }, &[(0.0, 6), (0.0, 3), (3.5, 8)]),
            Some(alloc::vec![(0, 0.0, 2.0), (1, 2.0, 3.5), (2, 3.5, 5.0), (0, 5.0, 8.0), (1, 8.0, 9.5), (2, 9.5, 12.0), (0, 12.0, 13.0), (2, 13.0, 17.0)])
        );
    }

    #[test]
    fn real_time_priorities_preempt_and_the_preempted_task_keeps_its_place() {
        let job = |arrive: f64, burst, prio, rr| Job { arrive_us: (arrive * 1000.0) as u64, burst, prio, rr };
        let jobs = [job(0.0, 4, 10, false), job(0.0, 3, 10, false), job(1.5, 2, 50, false), job(0.0, 2, 0, false)];
        let t: Vec<(usize, u64, u64)> = schedule(Policy::Rt { q: 0 }, &jobs).unwrap().iter().map(|t| (t.job, t.from, t.to)).collect();
        // job0 runs, job2 preempts it at 1.5, job0 resumes at the head, then job1, then the fair job3.
        assert_eq!(t, alloc::vec![(0, 0, 3), (2, 3, 7), (0, 7, 12), (1, 12, 18), (3, 18, 22)]);
    }
}
