//! A problem as Markdown, for an instructor's handout (`runqueue homework`): the setup, the
//! task table, the rules and the questions, and with the answers the kernel's values, each
//! question's worked steps and the kernel's schedule.

use crate::Problem;
use crate::message::Message;
use crate::msg;
use alloc::string::String;
use core::fmt::Write;

/// Problem `n` of a handout.
pub fn problem(p: &Problem, n: usize, answers: bool) -> String {
    let mut out = String::new();
    let chapter = crate::Chapter::find(p.chapter).map_or(p.chapter, |c| c.title);
    let _ = writeln!(out, "## {}\n", msg!("problem-title", n = n, chapter = chapter, level = p.level.message().english(), seed = p.seed).english());
    for m in &p.setup {
        let _ = writeln!(out, "{}\n", m.english());
    }
    let head: alloc::vec::Vec<String> = p.table.head.iter().map(Message::english).collect();
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let _ = writeln!(out, "|{}", " --- |".repeat(head.len()));
    for row in &p.table.rows {
        let cells: alloc::vec::Vec<String> = row.iter().map(|c| c.english()).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    let _ = writeln!(out, "\n**{}**\n", msg!("rules-title").english());
    for r in &p.rules {
        let _ = writeln!(out, "- {}", r.english());
    }
    let _ = writeln!(out, "\n**{}**\n", msg!("questions-title").english());
    for (i, q) in p.questions.iter().enumerate() {
        let _ = writeln!(out, "{}. {} {}", i + 1, q.prompt.english(), q.answer.tolerance().english());
    }
    if answers {
        let _ = writeln!(out, "\n**{}**\n", msg!("answers-title").english());
        for (i, q) in p.questions.iter().enumerate() {
            let steps: alloc::vec::Vec<String> = q.steps.iter().map(Message::english).collect();
            let _ = writeln!(out, "{}. **{}**. {}", i + 1, q.answer.text(), steps.join(" "));
        }
        let _ = writeln!(out, "\n{}\n", msg!("schedule-title").english());
        for s in p.schedule_text() {
            let _ = writeln!(out, "- {}", s.english());
        }
        let _ = writeln!(out, "\n{}", p.command_line().english());
    }
    out
}
