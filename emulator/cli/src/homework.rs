//! `runqueue homework`: a chapter's problems for a seed or for each student of a class, each
//! answered by running the bundled kernel on its workload, as Markdown: on the terminal, or as
//! a student sheet and a separate answer key per student (`--out DIR`).

use crate::run::{KERNEL, execute};
use crate::{Failure, write_file};
use clap::Args;
use runqueue_emu::MachineOptions;
use runqueue_homework::{Chapter, Level, Problem, lms, markdown, seed_of};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct HomeworkArgs {
    /// The chapter: fifo-rr, sjf, mlfq or rt (or a policy it covers: fifo, rr, stcf, ...).
    #[arg(long)]
    pub chapter: String,
    /// The first problem's seed (each further problem takes the next one).
    #[arg(long, conflicts_with_all = ["student", "roster"])]
    pub seed: Option<u64>,
    /// A student's name or id, which seeds their problems as the book's page does (repeat it
    /// for several students).
    #[arg(long)]
    pub student: Vec<String>,
    /// A class list: one student's name or id a line (blank lines and `#` comments skipped).
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// How many problems each sheet has.
    #[arg(long, default_value_t = 1)]
    pub count: u32,
    /// easy, medium or hard; every level in turn when not given.
    #[arg(long)]
    pub level: Option<String>,
    /// Also print the answers, each with its worked steps and the kernel's schedule.
    #[arg(long, conflicts_with = "out")]
    pub answers: bool,
    /// Print the problems as JSON (what the book's page shows) instead of Markdown.
    #[arg(long, conflicts_with = "out")]
    pub json: bool,
    /// Print the problems as a question bank a learning platform imports instead: `moodle`
    /// (Moodle XML: a category per level, a Cloze question per problem) or `qti` (QTI 1.2, as
    /// Canvas imports it: a question group per level and question). Each problem is a variant
    /// a quiz draws at random; `--count` makes that many per level.
    #[arg(long, value_name = "FORMAT", conflicts_with_all = ["out", "json", "answers"])]
    pub bank: Option<String>,
    /// Write each sheet to DIR/<sheet>/problems.md and its answer key to
    /// DIR/<sheet>/answers.md instead (a sheet per student, or one named after the seed).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Makes one problem, running the bundled kernel natively for each draw.
pub fn make(chapter: &'static Chapter, level: Level, seed: u64) -> Result<Problem, Failure> {
    runqueue_homework::generate(chapter, level, seed, |args, max| {
        let options = MachineOptions::parse(args).map_err(|e| e.to_string())?;
        let out = execute(KERNEL, &options, max, |_| {}).map_err(|e| e.to_string())?;
        match out.exit {
            Some(0) => Ok((out.console, out.trace)),
            Some(code) => Err(format!("the kernel exited with code {code} on `{args}`: {}", out.console.lines().last().unwrap_or(""))),
            None => Err(format!("the kernel did not finish `{args}` within {max} instructions")),
        }
    })
    .map_err(Failure::Input)
}

/// The problems of one sheet: `count` of them from seed `first`, the levels in turn.
pub fn sheet(chapter: &'static Chapter, levels: &[Level], first: u64, count: u32) -> Result<Vec<Problem>, Failure> {
    (0..u64::from(count))
        .map(|i| {
            let level = levels[i as usize % levels.len()];
            make(chapter, level, first + i / levels.len() as u64)
        })
        .collect()
}

/// A sheet as Markdown: its heading, then each problem, with the answers or without.
pub fn sheet_markdown(chapter: &Chapter, who: &str, problems: &[Problem], answers: bool) -> String {
    let kind = if answers { "answer key" } else { "homework" };
    let mut out = format!("# {}: {kind} for {who}\n\n", chapter.title);
    for (i, p) in problems.iter().enumerate() {
        out.push_str(&markdown::problem(p, i + 1, answers));
        out.push('\n');
    }
    out
}

pub fn homework(args: &HomeworkArgs) -> Result<ExitCode, Failure> {
    let chapter = Chapter::find(&args.chapter).map_err(Failure::Input)?;
    let levels: Vec<Level> = match &args.level {
        Some(l) => vec![Level::parse(l).map_err(Failure::Input)?],
        None => Level::ALL.to_vec(),
    };
    if args.count == 0 {
        return Err(Failure::Input("--count must be at least 1".into()));
    }
    let bank = args.bank.as_deref().map(lms::Format::parse).transpose().map_err(Failure::Input)?;
    let sheets = sheets(args)?;
    if let Some(format) = bank {
        let mut problems = Vec::new();
        for (_, first) in &sheets {
            for &level in &levels {
                problems.extend(sheet(chapter, &[level], *first, args.count)?);
            }
        }
        print!("{}", lms::bank(format, chapter, &problems));
        return Ok(ExitCode::SUCCESS);
    }
    for (who, first) in &sheets {
        let problems = sheet(chapter, &levels, *first, args.count)?;
        if let Some(dir) = &args.out {
            let dir = dir.join(file_name(who));
            std::fs::create_dir_all(&dir).map_err(|e| Failure::Input(format!("cannot create {}: {e}", dir.display())))?;
            write_file(&dir.join("problems.md"), sheet_markdown(chapter, who, &problems, false).as_bytes())?;
            write_file(&dir.join("answers.md"), sheet_markdown(chapter, who, &problems, true).as_bytes())?;
            eprintln!("wrote {}/problems.md and answers.md", dir.display());
        } else if args.json {
            println!("{}", serde_json::Value::Array(problems.iter().map(Problem::to_json).collect()));
        } else {
            print!("{}", sheet_markdown(chapter, who, &problems, args.answers));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Each sheet's heading and first seed: one per student, or the one seed given.
fn sheets(args: &HomeworkArgs) -> Result<Vec<(String, u64)>, Failure> {
    let mut names = args.student.clone();
    if let Some(path) = &args.roster {
        names.extend(read_roster(path)?);
    }
    if names.is_empty() {
        let seed = args.seed.ok_or_else(|| Failure::Input("give --seed N, --student NAME or --roster FILE".into()))?;
        return Ok(vec![(format!("seed {seed}"), seed)]);
    }
    if names.len() > 1 && args.out.is_none() && !args.json && args.bank.is_none() {
        eprintln!("(several students: --out DIR writes each one's sheet and key apart)");
    }
    names
        .into_iter()
        .map(|name| {
            let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
            if name.is_empty() { Err(Failure::Input("--student needs a name or id".into())) } else { Ok((name.clone(), seed_of(&name))) }
        })
        .collect()
}

fn read_roster(path: &Path) -> Result<Vec<String>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure::Input(format!("cannot read the roster {}: {e}", path.display())))?;
    let names: Vec<String> = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect();
    if names.is_empty() {
        return Err(Failure::Input(format!("the roster {} names no student", path.display())));
    }
    Ok(names)
}

/// A sheet's folder: its heading in lower case, letters and digits kept, the rest `-`.
fn file_name(who: &str) -> String {
    let slug: String = who.chars().map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    slug.split('-').filter(|w| !w.is_empty()).collect::<Vec<_>>().join("-")
}
