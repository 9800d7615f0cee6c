//! The rules of the many-cores problems, as code: batch jobs under FIFO with a run queue per
//! hart (`rq=perhart`). A job that arrives joins the least loaded hart it may use (the fewest
//! tasks, its running one counted; the lowest-numbered on a tie), as the kernel's `place_new`
//! does; a hart that finishes its job and finds its own queue empty pulls one waiting job from
//! the busiest other hart (newidle balancing): the coldest, which under FIFO is the one created
//! first, that may run on it. Like `hand.rs` it never answers a question; it decides whether
//! the kernel's run is the one a student following those rules works out.
//!
//! Time goes in half ms, as in `hand.rs`: arrivals at 0 or half way between ticks, and a job
//! that runs from a half ms for whole ms ends at a half ms. Things at one moment (arrivals,
//! jobs ending on several harts) are worked in every order the kernel's µs could give them;
//! where the order changes what happens, or an idle hart could pull only at a later tick, no
//! schedule: the draw is refused.

use super::Job;
use alloc::vec;
use alloc::vec::Vec;

/// One job's run on a hart, from start to finish (in half ms): FIFO never preempts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub job: usize,
    pub hart: u32,
    pub from: u64,
    pub to: u64,
}

/// A move of a waiting job to an idle hart's queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub job: usize,
    pub from: u32,
    pub to: u32,
    pub at: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// In the order they start.
    pub turns: Vec<Turn>,
    /// The hart each job's arrival placed it on.
    pub placed: Vec<u32>,
    pub moves: Vec<Move>,
}

/// The hand schedule of `jobs` on `harts` harts; `allowed[i]` is job i's mask of harts (0:
/// any). `None` where the rules leave a step to the kernel's µs, or past a second.
pub fn schedule(harts: u32, jobs: &[Job], allowed: &[u32]) -> Option<Schedule> {
    let mut s = State { jobs, allowed, queue: vec![Vec::new(); harts as usize], running: vec![None; harts as usize], out: Schedule { turns: Vec::new(), placed: vec![0; jobs.len()], moves: Vec::new() } };
    for half in 0..2000u64 {
        let arrivals: Vec<usize> = (0..jobs.len()).filter(|&i| jobs[i].arrive_half() == Some(half)).collect();
        let ending: Vec<usize> = (0..s.running.len()).filter(|&k| s.running[k].is_some_and(|(_, _, to)| to == half)).collect();
        // What happens at one moment, in every order the kernel's µs could give it (the
        // arrivals, each hart's finish): the same outcome, or no schedule.
        let mut steps: Vec<Option<usize>> = ending.iter().map(|&k| Some(k)).collect();
        if !arrivals.is_empty() {
            steps.push(None);
        }
        let mut outcome: Option<State> = None;
        for order in orders(steps.len()) {
            let mut next = s.clone();
            for &i in &order {
                match steps[i] {
                    None => next.arrive(&arrivals, half),
                    Some(k) => next.finish(k, half),
                }?;
            }
            next.start_idle(half)?;
            next.out.moves.sort_by_key(|m| (m.at, m.job));
            next.out.turns.sort_by_key(|t| (t.from, t.hart));
            match &outcome {
                Some(o) if !o.same(&next) => return None,
                Some(_) => {}
                None => outcome = Some(next),
            }
        }
        if let Some(o) = outcome {
            s = o;
        }
        if s.out.turns.len() == jobs.len() {
            return Some(s.out);
        }
    }
    None
}

/// Every order of `n` steps (n is at most a hart count plus one).
fn orders(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for rest in orders(n - 1) {
        for at in 0..=rest.len() {
            let mut o = rest.clone();
            o.insert(at, n - 1);
            all.push(o);
        }
    }
    all
}

#[derive(Clone)]
struct State<'a> {
    jobs: &'a [Job],
    allowed: &'a [u32],
    /// Per hart: the waiting jobs, in the order they joined.
    queue: Vec<Vec<usize>>,
    /// Per hart: the running job, when it started and when it ends.
    running: Vec<Option<(usize, u64, u64)>>,
    out: Schedule,
}

impl State<'_> {
    fn same(&self, o: &State) -> bool {
        self.queue == o.queue && self.running == o.running && self.out == o.out
    }

    fn may(&self, job: usize, hart: usize) -> bool {
        self.allowed[job] == 0 || self.allowed[job] & (1 << hart) != 0
    }

    /// Tasks on hart `k`, the running one counted.
    fn load(&self, k: usize) -> usize {
        self.queue[k].len() + self.running[k].is_some() as usize
    }

    /// Jobs arriving together join, one after the other, the least loaded hart each may use.
    fn arrive(&mut self, arrivals: &[usize], half: u64) -> Option<()> {
        for &i in arrivals {
            let k = (0..self.queue.len()).filter(|&k| self.may(i, k)).min_by_key(|&k| (self.load(k), k))?;
            self.out.placed[i] = k as u32;
            self.queue[k].push(i);
        }
        self.start_idle(half)
    }

    /// Hart `k`'s job finishes; it runs the next of its queue, or pulls one (newidle).
    fn finish(&mut self, k: usize, half: u64) -> Option<()> {
        let (job, from, to) = self.running[k].take()?;
        self.out.turns.push(Turn { job, hart: k as u32, from, to });
        if self.queue[k].is_empty()
            && let Some((busiest, pos)) = self.pullable(k)
        {
            let job = self.queue[busiest].remove(pos);
            self.out.moves.push(Move { job, from: busiest as u32, to: k as u32, at: half });
            self.queue[k].push(job);
        }
        self.run_next(k, half);
        Some(())
    }

    /// What an idle hart `k` would pull: from the busiest other hart with two tasks or more
    /// (the lowest-numbered on a tie), its waiting job created first that may run on `k`.
    fn pullable(&self, k: usize) -> Option<(usize, usize)> {
        let crowded = (0..self.queue.len()).filter(|&b| b != k && self.load(b) >= 2);
        let busiest = crowded.max_by_key(|&b| (self.load(b), core::cmp::Reverse(b)))?;
        let pos = self.queue[busiest].iter().enumerate().filter(|&(_, &i)| self.may(i, k)).min_by_key(|&(_, &i)| i)?.0;
        Some((busiest, pos))
    }

    fn run_next(&mut self, k: usize, half: u64) {
        if self.running[k].is_none() && !self.queue[k].is_empty() {
            let job = self.queue[k].remove(0);
            self.running[k] = Some((job, half, half + 2 * self.jobs[job].burst));
        }
    }

    /// Idle harts run what joined their queue; one that could pull only at a later tick (it
    /// did not just finish a job) is not in these rules.
    fn start_idle(&mut self, half: u64) -> Option<()> {
        for k in 0..self.queue.len() {
            self.run_next(k, half);
            if self.running[k].is_none() && self.pullable(k).is_some() {
                return None;
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs(list: &[(f64, u64)]) -> Vec<Job> {
        list.iter().map(|&(a, b)| Job::new((a * 1000.0) as u64, b)).collect()
    }

    #[test]
    fn arrivals_go_to_the_least_loaded_hart_and_an_idle_hart_pulls() {
        // Together at 0: harts 0, 1, 0, 1; each hart runs its own queue.
        let s = schedule(2, &jobs(&[(0.0, 5), (0.0, 2), (0.0, 3), (0.0, 4)]), &[0; 4]).unwrap();
        assert_eq!(s.placed, [0, 1, 0, 1]);
        assert!(s.moves.is_empty());
        // job1 ends at 1 with its queue empty: hart 1 pulls job2 from hart 0; job3 arrives at
        // 1.5 to a tie (one task each) and joins hart 0, from which hart 1 pulls it at 4.
        let s = schedule(2, &jobs(&[(0.0, 6), (0.0, 1), (0.0, 3), (1.5, 4)]), &[0; 4]).unwrap();
        assert_eq!(s.placed, [0, 1, 0, 0]);
        assert_eq!(s.moves, [Move { job: 2, from: 0, to: 1, at: 2 }, Move { job: 3, from: 0, to: 1, at: 8 }]);
        let turns: Vec<_> = s.turns.iter().map(|t| (t.job, t.hart, t.from, t.to)).collect();
        assert_eq!(turns, [(0, 0, 0, 12), (1, 1, 0, 2), (2, 1, 2, 8), (3, 1, 8, 16)]);
        // A job pinned to hart 0 is placed there and never pulled.
        let s = schedule(2, &jobs(&[(0.0, 6), (0.0, 1), (0.0, 3)]), &[0, 0, 1]).unwrap();
        assert_eq!(s.placed, [0, 1, 0]);
        assert!(s.moves.is_empty());
        // Two harts ending together, each running the next of its own queue: either order
        // gives the same; hart 1 then pulls job4 when job3 ends.
        let s = schedule(2, &jobs(&[(0.0, 2), (0.0, 2), (0.0, 3), (0.0, 1), (0.0, 1)]), &[0; 5]).unwrap();
        assert_eq!(s.moves, [Move { job: 4, from: 0, to: 1, at: 6 }]);
        // But with hart 1's queue empty and two jobs waiting on hart 0, which hart goes first
        // decides which job moves; an arrival as a job ends decides where the arrival goes.
        assert_eq!(schedule(2, &jobs(&[(0.0, 4), (0.0, 1), (0.0, 2), (0.0, 3), (0.5, 2)]), &[0; 5]), None);
        assert_eq!(schedule(2, &jobs(&[(0.0, 3), (0.5, 2), (2.5, 1), (0.5, 1)]), &[0; 4]), None);
    }
}
