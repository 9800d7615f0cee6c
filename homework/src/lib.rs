//! Homework whose answers come from the kernel. For each policy chapter a generator draws a
//! small workload from a seed (a student's name or id, or an instructor's number), states the
//! rules a student needs to work it by hand, and asks questions; the kernel then runs that very
//! workload, and every answer is read from its RESULT line and trace. No answer comes from a
//! model: `hand.rs` works the stated rules by hand only to refuse a draw whose run a student
//! following them would not match (two events a hair apart that the rules order the other
//! way), and the next one is drawn.
//!
//! Running the kernel is the caller's job (the CLI natively; the page's Worker could in wasm),
//! so this crate needs neither files nor an emulator: `no_std` + `alloc`, like the lab grader.
//! The same seed gives the same problem and answers.
#![no_std]
extern crate alloc;

pub mod chapters;
pub mod hand;
pub mod lms;
pub mod markdown;
pub mod message;
pub mod problem;
pub mod rng;
pub mod run;

use alloc::format;
use alloc::string::String;
pub use chapters::{CHAPTERS, Chapter};
pub use message::Message;
pub use problem::{Answer, Problem, Question};
use rng::Rng;
pub use rng::seed_of;
use run::Run;
use runqueue_report::trace::Kind;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Easy,
    Medium,
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    pub fn parse(text: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == text || text.parse::<usize>() == Ok(l.index() + 1))
            .ok_or_else(|| format!("unknown level '{text}': choose easy, medium or hard (or 1, 2, 3)"))
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn message(self) -> Message {
        match self {
            Level::Easy => msg!("level-easy"),
            Level::Medium => msg!("level-medium"),
            Level::Hard => msg!("level-hard"),
        }
    }
}

/// Draws after which a generator gives up (each refused draw costs one kernel run).
pub const MAX_ATTEMPTS: u32 = 24;

/// One draw: the kernel command line to run, and what the generator needs to ask about it.
pub struct Plan {
    pub chapter: &'static Chapter,
    pub level: Level,
    pub seed: u64,
    pub attempt: u32,
    pub draft: chapters::Draft,
    /// How long after its workload's clock starts the kernel's scheduler takes its first task
    /// (the boot's last steps), in µs: every arrival is moved by it, so that the problem's
    /// time 0 is the kernel's first tick, whatever the boot took (see [`generate`]).
    pub lead_us: u64,
    rng: Rng,
}

impl Plan {
    /// The `attempt`-th draw of a problem.
    pub fn new(chapter: &'static Chapter, level: Level, seed: u64, attempt: u32) -> Plan {
        let mut rng = Rng::new(&[chapter.index as u64, level.index() as u64, seed, u64::from(attempt)]);
        let draft = (chapter.draft)(level, &mut rng);
        Plan { chapter, level, seed, attempt, draft, lead_us: 0, rng }
    }

    /// The kernel's command line for this draw.
    pub fn args(&self) -> String {
        self.draft.args(self.lead_us)
    }

    /// Instructions the run may take: every problem's workload ends within a second.
    pub fn max_insns(&self) -> u64 {
        200_000_000 * u64::from(self.draft.harts)
    }

    /// Reads the kernel's run of this draw and asks the questions; `Err(None)` when the run
    /// leaves a question ambiguous (draw again), `Err(Some(why))` when it is no run at all.
    pub fn finish(mut self, console: &str, trace: &str) -> Result<Problem, Option<String>> {
        let run = Run::parse(console, trace, self.lead_us * 1000).map_err(Some)?;
        if run.result.args != self.args() {
            return Err(Some(format!("the run's command line is not this problem's: {}", run.result.args)));
        }
        let questions = (self.chapter.ask)(self.level, &self.draft, &run, &mut self.rng).map_err(|_| None)?;
        let schedule = run.stints.iter().map(|s| (s.clone(), String::from(run.name(s.tid)))).collect();
        // The workload's own marks are its progress, not the schedule the solution's lanes draw.
        let events = run.events.into_iter().filter(|e| e.kind != Kind::Mark).collect();
        let args = self.args();
        let chapters::Draft { setup, table, rules, harts, .. } = self.draft;
        Ok(Problem { chapter: self.chapter.name, level: self.level, seed: self.seed, attempt: self.attempt, args, lead_us: self.lead_us, harts, setup, table, rules, questions, schedule, events })
    }
}

/// A refused draw: the kernel's run would not give every question one clear answer.
#[derive(Debug)]
pub struct Ambiguous;

/// Makes a problem, running the kernel with `run(args, max_insns) -> (console, trace)`
/// for each draw until one gives clear answers. Each draw runs twice: the first run measures
/// when the kernel's scheduler starts (its first task runs then, its ticks follow every ms), the
/// second has every task arrive that much later, so the problem's time 0 is the first tick.
pub fn generate(chapter: &'static Chapter, level: Level, seed: u64, mut run: impl FnMut(&str, u64) -> Result<(String, String), String>) -> Result<Problem, String> {
    for attempt in 0..MAX_ATTEMPTS {
        let mut plan = Plan::new(chapter, level, seed, attempt);
        let (console, trace) = run(&plan.args(), plan.max_insns())?;
        let first = Run::parse(&console, &trace, 0)?.stints.first().map(|s| s.from);
        plan.lead_us = first.ok_or("the kernel ran no task")? / 1000;
        let (console, trace) = run(&plan.args(), plan.max_insns())?;
        match plan.finish(&console, &trace) {
            Ok(p) => return Ok(p),
            Err(Some(why)) => return Err(why),
            Err(None) => {}
        }
    }
    Err(format!("no clear {} problem in {MAX_ATTEMPTS} draws from seed {seed}", chapter.name))
}
