//! The rules of the many-cores problems, as code: batch jobs under FIFO with a run queue per
//! hart (`rq=perhart`). A job that arrives joins the least loaded hart it may use (the fewest
//! tasks, its running one counted; the lowest-numbered on a tie), as the kernel's `place_new`
//! does; a hart that finishes its job and finds its own queue empty pulls one waiting job from
//! the busiest other hart (newidle balancing): the coldest, which under FIFO is the one created
//! first, that may run on it. Like `hand.rs` it never answers a question; it decides whether
//! the kernel's run is the one a student following those rules works out.
//!
//! Time goes in half ms, as in `hand.rs`: arrivals at 0 or half way between ticks, and a job
//! that runs from a half ms for whole ms ends at a half ms. Where two things at one moment
//! could go either way (an arrival when a job ends, two harts ending together while jobs
//! wait, an idle hart that could only pull at a later tick), no schedule: the draw is refused.

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
    let n = jobs.len();
    let h = harts as usize;
    let may = |i: usize, hart: usize| allowed[i] == 0 || allowed[i] & (1 << hart) != 0;
    let mut queue: Vec<Vec<usize>> = vec![Vec::new(); h];
    // The running job of each hart and when it ends.
    let mut running: Vec<Option<(usize, u64, u64)>> = vec![None; h];
    let mut out = Schedule { turns: Vec::new(), placed: vec![0; n], moves: Vec::new() };
    let mut done = 0;
    let load = |queue: &[Vec<usize>], running: &[Option<(usize, u64, u64)>], k: usize| queue[k].len() + running[k].is_some() as usize;
    for half in 0..2000u64 {
        let arrivals: Vec<usize> = (0..n).filter(|&i| jobs[i].arrive_half() == Some(half)).collect();
        let ending: Vec<usize> = (0..h).filter(|&k| running[k].is_some_and(|(_, _, to)| to == half)).collect();
        if !arrivals.is_empty() && !ending.is_empty() {
            return None;
        }
        for &i in &arrivals {
            let k = (0..h).filter(|&k| may(i, k)).min_by_key(|&k| (load(&queue, &running, k), k))?;
            out.placed[i] = k as u32;
            queue[k].push(i);
        }
        for &k in &ending {
            let (job, from, to) = running[k].take()?;
            out.turns.push(Turn { job, hart: k as u32, from, to });
            done += 1;
        }
        if ending.len() > 1 && queue.iter().any(|q| !q.is_empty()) {
            return None;
        }
        for k in 0..h {
            if running[k].is_some() {
                continue;
            }
            if queue[k].is_empty() {
                // Newidle: pull from the busiest hart with a job to spare, when this hart has
                // just finished one. An idle hart could pull only at a tick: not in these rules.
                let crowded = (0..h).filter(|&b| b != k && load(&queue, &running, b) >= 2);
                let Some(busiest) = crowded.max_by_key(|&b| (load(&queue, &running, b), core::cmp::Reverse(b))) else {
                    continue;
                };
                let Some(pos) = queue[busiest].iter().enumerate().filter(|&(_, &i)| may(i, k)).min_by_key(|&(_, &i)| i).map(|(p, _)| p) else {
                    continue;
                };
                if !ending.contains(&k) {
                    return None;
                }
                let job = queue[busiest].remove(pos);
                out.moves.push(Move { job, from: busiest as u32, to: k as u32, at: half });
                queue[k].push(job);
            }
            let job = queue[k].remove(0);
            running[k] = Some((job, half, half + 2 * jobs[job].burst));
        }
        if done == n {
            out.turns.sort_by_key(|t| (t.from, t.hart));
            return Some(out);
        }
    }
    None
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
        // An arrival as a job ends, or two harts ending together while a job waits: unclear.
        assert_eq!(schedule(2, &jobs(&[(0.0, 3), (0.5, 2), (2.5, 1)]), &[0; 3]), None);
        assert_eq!(schedule(2, &jobs(&[(0.0, 2), (0.0, 2), (0.0, 3), (0.0, 1), (0.0, 1)]), &[0; 5]), None);
    }
}
