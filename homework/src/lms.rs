//! A chapter's problems as a question bank a learning platform imports: Moodle XML and QTI 1.2
//! (what Canvas imports), in English. Each generated problem is one variant; a quiz draws one
//! variant per student, so classmates get different numbers, and every answer in the bank is
//! the kernel's, as in the handout's key.
//!
//! - Moodle: a category per chapter and level holds one embedded-answers (Cloze) question per
//!   variant: the setup, the task table and the rules, then every question with its answer
//!   field (NUMERICAL with the tolerance as an absolute margin, MULTICHOICE for a task or a
//!   hart, SHORTANSWER for an order, typed as the key prints it). The worked answers and the
//!   kernel's schedule are the general feedback. A quiz takes "a random question" from the
//!   category.
//! - QTI 1.2: a section per level and question slot that draws one of its items (Canvas's
//!   question group); each item repeats its problem's setup, table and rules before its own
//!   question, since an item stands alone there.

use crate::message::Message;
use crate::problem::{Answer, Problem, Question, fmt_places};
use crate::{Chapter, msg};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// The bank's formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Moodle,
    Qti,
}

impl Format {
    pub fn parse(text: &str) -> Result<Format, String> {
        match text {
            "moodle" => Ok(Format::Moodle),
            "qti" => Ok(Format::Qti),
            _ => Err(format!("unknown question bank format '{text}': choose moodle (Moodle XML) or qti (QTI 1.2, Canvas)")),
        }
    }
}

/// The bank of `problems` (all of one chapter) in `format`.
pub fn bank(format: Format, chapter: &Chapter, problems: &[Problem]) -> String {
    match format {
        Format::Moodle => moodle(chapter, problems),
        Format::Qti => qti(chapter, problems),
    }
}

/// Text for XML character data and attribute values.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// Markdown's inline code (`sched=sjf`) as HTML, the rest escaped.
fn html_text(message: &Message) -> String {
    let escaped = xml_escape(&message.english());
    let mut out = String::new();
    for (i, piece) in escaped.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{piece}</code>");
        } else {
            out.push_str(piece);
        }
    }
    out
}

/// The problem as the student reads it before the questions: setup, task table, rules.
fn statement_html(p: &Problem) -> String {
    let mut out = String::new();
    for m in &p.setup {
        let _ = write!(out, "<p>{}</p>", html_text(m));
    }
    out.push_str("<table border=\"1\"><thead><tr>");
    for h in &p.table.head {
        let _ = write!(out, "<th>{}</th>", html_text(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in &p.table.rows {
        out.push_str("<tr>");
        for cell in row {
            let _ = write!(out, "<td>{}</td>", xml_escape(&cell.english()));
        }
        out.push_str("</tr>");
    }
    let _ = write!(out, "</tbody></table><p><strong>{}</strong></p><ul>", html_text(&msg!("rules-title")));
    for r in &p.rules {
        let _ = write!(out, "<li>{}</li>", html_text(r));
    }
    out.push_str("</ul>");
    out
}

/// A question's text: its prompt and how it is checked.
fn prompt_html(q: &Question) -> String {
    format!("{} {}", html_text(&q.prompt), html_text(&q.answer.tolerance()))
}

/// The margin a number may be off by and still count, as an absolute amount.
pub fn margin(answer: &Answer) -> f64 {
    match answer {
        Answer::Number { value, tol, .. } => tol.room(*value),
        _ => 0.0,
    }
}

/// Margins and bounds (`0.2586`, `8.3614`): four decimals, enough for any tolerance asked.
fn decimal(v: f64) -> String {
    fmt_places(v, 4)
}

/// The worked answers and the kernel's schedule, as the key has them.
fn feedback_html(p: &Problem) -> String {
    let mut out = format!("<p><strong>{}</strong></p><ol>", html_text(&msg!("answers-title")));
    for q in &p.questions {
        let steps: Vec<String> = q.steps.iter().map(html_text).collect();
        let _ = write!(out, "<li><strong>{}</strong>. {}</li>", xml_escape(&q.answer.text()), steps.join(" "));
    }
    let _ = write!(out, "</ol><p>{}</p><ul>", html_text(&msg!("schedule-title")));
    for s in p.schedule_text() {
        let _ = write!(out, "<li>{}</li>", html_text(&s));
    }
    let _ = write!(out, "</ul><p>{}</p>", html_text(&p.command_line()));
    out
}

/// A variant's name: chapter, level and seed (an instructor regenerates it from these).
fn variant_name(chapter: &Chapter, p: &Problem) -> String {
    format!("{} ({}, seed {})", chapter.title, p.level.name(), p.seed)
}

/// Escapes what Moodle's Cloze syntax reserves inside an answer.
fn cloze_escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if matches!(c, '}' | '#' | '~' | '/' | '"' | '\\' | '{' | ':' | '=') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One Cloze answer field.
fn cloze_field(answer: &Answer) -> String {
    match answer {
        Answer::Number { value, decimals, .. } => format!("{{1:NUMERICAL:={value:.decimals$}:{}}}", decimal(margin(answer))),
        Answer::Choice { value, choices } => {
            let options: Vec<String> = choices.iter().map(|c| if c == value { format!("={}", cloze_escape(c)) } else { cloze_escape(c) }).collect();
            format!("{{1:MULTICHOICE:{}}}", options.join("~"))
        }
        Answer::Order { value } => format!("{{1:SHORTANSWER:={}}}", cloze_escape(&value.join(", "))),
    }
}

/// Character data that may hold anything but `]]>`.
fn cdata(text: &str) -> String {
    format!("<![CDATA[{}]]>", text.replace("]]>", "]]]]><![CDATA[>"))
}

fn moodle(chapter: &Chapter, problems: &[Problem]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n");
    let mut category = None;
    for p in problems {
        let path = format!("$course$/top/Runqueue/{}/{}", chapter.title, p.level.name());
        if category.as_ref() != Some(&path) {
            let _ = writeln!(out, "  <question type=\"category\"><category><text>{}</text></category></question>", xml_escape(&path));
            category = Some(path);
        }
        let mut text = statement_html(p);
        let _ = write!(text, "<p><strong>{}</strong></p><ol>", html_text(&msg!("questions-title")));
        for q in &p.questions {
            let _ = write!(text, "<li>{} {}</li>", prompt_html(q), cloze_field(&q.answer));
        }
        text.push_str("</ol>");
        let _ = writeln!(out, "  <question type=\"cloze\">");
        let _ = writeln!(out, "    <name><text>{}</text></name>", xml_escape(&variant_name(chapter, p)));
        let _ = writeln!(out, "    <questiontext format=\"html\"><text>{}</text></questiontext>", cdata(&text));
        let _ = writeln!(out, "    <generalfeedback format=\"html\"><text>{}</text></generalfeedback>", cdata(&feedback_html(p)));
        let _ = writeln!(out, "    <penalty>0.3333333</penalty>\n    <hidden>0</hidden>\n    <idnumber>{}</idnumber>", xml_escape(&variant_id(chapter, p)));
        let _ = writeln!(out, "  </question>");
    }
    out.push_str("</quiz>\n");
    out
}

/// A variant's identifier, unique in the bank.
fn variant_id(chapter: &Chapter, p: &Problem) -> String {
    format!("runqueue-{}-{}-{}", chapter.name, p.level.name(), p.seed)
}

fn qti_field(out: &mut String, label: &str, entry: &str) {
    let _ = write!(out, "<qtimetadatafield><fieldlabel>{label}</fieldlabel><fieldentry>{}</fieldentry></qtimetadatafield>", xml_escape(entry));
}

/// One QTI item: the problem's statement, then question `q`.
fn qti_item(out: &mut String, ident: &str, title: &str, p: &Problem, q: &Question) {
    let kind = match q.answer {
        Answer::Number { .. } => "numerical_question",
        Answer::Choice { .. } => "multiple_choice_question",
        Answer::Order { .. } => "short_answer_question",
    };
    let _ = write!(out, "<item ident=\"{}\" title=\"{}\"><itemmetadata><qtimetadata>", xml_escape(ident), xml_escape(title));
    qti_field(out, "question_type", kind);
    qti_field(out, "points_possible", "1");
    out.push_str("</qtimetadata></itemmetadata><presentation><material><mattext texttype=\"text/html\">");
    out.push_str(&xml_escape(&format!("{}<p>{}</p>", statement_html(p), prompt_html(q))));
    out.push_str("</mattext></material>");
    let condition = match &q.answer {
        Answer::Number { value, decimals, .. } => {
            out.push_str("<response_str ident=\"response1\" rcardinality=\"Single\"><render_fib fibtype=\"Decimal\"><response_label ident=\"answer1\"/></render_fib></response_str>");
            let m = margin(&q.answer);
            format!(
                "<or><varequal respident=\"response1\">{value:.decimals$}</varequal><and><vargte respident=\"response1\">{}</vargte><varlte respident=\"response1\">{}</varlte></and></or>",
                decimal(value - m),
                decimal(value + m)
            )
        }
        Answer::Choice { value, choices } => {
            out.push_str("<response_lid ident=\"response1\" rcardinality=\"Single\"><render_choice>");
            for (i, c) in choices.iter().enumerate() {
                let _ = write!(out, "<response_label ident=\"c{i}\"><material><mattext texttype=\"text/plain\">{}</mattext></material></response_label>", xml_escape(c));
            }
            out.push_str("</render_choice></response_lid>");
            let right = choices.iter().position(|c| c == value).unwrap_or(0);
            format!("<varequal respident=\"response1\">c{right}</varequal>")
        }
        Answer::Order { value } => {
            out.push_str("<response_str ident=\"response1\" rcardinality=\"Single\"><render_fib><response_label ident=\"answer1\" rshuffle=\"No\"/></render_fib></response_str>");
            format!("<varequal respident=\"response1\">{}</varequal>", xml_escape(&value.join(", ")))
        }
    };
    out.push_str("</presentation><resprocessing><outcomes><decvar maxvalue=\"100\" minvalue=\"0\" varname=\"SCORE\" vartype=\"Decimal\"/></outcomes>");
    let _ = write!(out, "<respcondition continue=\"No\"><conditionvar>{condition}</conditionvar><setvar action=\"Set\" varname=\"SCORE\">100</setvar></respcondition>");
    out.push_str("</resprocessing><itemfeedback ident=\"general_fb\"><flow_mat><material><mattext texttype=\"text/html\">");
    out.push_str(&xml_escape(&feedback_html(p)));
    out.push_str("</mattext></material></flow_mat></itemfeedback></item>\n");
}

fn qti(chapter: &Chapter, problems: &[Problem]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<questestinterop xmlns=\"http://www.imsglobal.org/xsd/ims_qtiasiv1p2\">\n");
    let _ = writeln!(out, "<assessment ident=\"runqueue-{}\" title=\"{}\"><section ident=\"root_section\">", chapter.name, xml_escape(chapter.title));
    // One group per level and question slot, in the order the problems ask them.
    let mut groups: Vec<(crate::Level, usize, &str)> = Vec::new();
    for p in problems {
        for (i, q) in p.questions.iter().enumerate() {
            if !groups.iter().any(|&(l, n, s)| l == p.level && n == i && s == q.slot) {
                groups.push((p.level, i, q.slot));
            }
        }
    }
    for (level, index, slot) in groups {
        let _ = write!(
            out,
            "<section ident=\"runqueue-{}-{}-q{}\" title=\"{} ({}), question {}\"><selection_ordering><selection><selection_number>1</selection_number><selection_extension><points_per_item>1</points_per_item></selection_extension></selection></selection_ordering>\n",
            chapter.name,
            level.name(),
            index + 1,
            xml_escape(chapter.title),
            level.name(),
            index + 1
        );
        for p in problems.iter().filter(|p| p.level == level) {
            if let Some(q) = p.questions.get(index).filter(|q| q.slot == slot) {
                let ident = format!("{}-q{}", variant_id(chapter, p), index + 1);
                qti_item(&mut out, &ident, &format!("{}, question {}", variant_name(chapter, p), index + 1), p, q);
            }
        }
        out.push_str("</section>\n");
    }
    out.push_str("</section></assessment></questestinterop>\n");
    out
}
