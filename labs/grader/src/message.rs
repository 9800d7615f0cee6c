//! What the grader tells a student about one test, as data: a key naming the message and the
//! parts that vary. The CLI and results.json print it in English from [`ENGLISH`]; the page
//! prints it in its reader's language from its own table of the same keys
//! (`book/widget/grade-text.js`, which `web/tests/grade-text.test.mjs` holds to this one).
//! Parts quoted from elsewhere (the kernel's console, the compiler, a violation found by a
//! reference model) stay as they are.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub key: &'static str,
    pub parts: Vec<(&'static str, String)>,
}

/// Each message's English, its parts written `{name}`.
pub const ENGLISH: &[(&str, &str)] = &[
    ("unknown-check", "the test file names an unknown check {check} (an instructor's mistake, not yours)"),
    ("refused", "your solution was refused before it was built: {why}"),
    ("not-built", "your solution does not compile:\n{error}"),
    ("not-finished", "the kernel did not finish: {why}"),
    ("panicked", "the kernel stopped: {message}"),
    ("protection-fault", "your policy reached outside its protection domain, which only an exploit of a hole in the compiler's safety checks can do, so every test is graded zero: {message}"),
    ("graded-zero", "graded zero: your policy reached outside its protection domain in test {test}"),
    ("exit-code", "the kernel exited with code {code}; its last line: {last}"),
    ("no-result", "the kernel printed no RESULT line: the workload did not complete"),
    ("garbled", "the trace is garbled ({error}): does your code print to the trace?"),
    ("inconsistent", "FIRST VIOLATION {violation}"),
    ("bad-parameters", "cannot read the test's parameters: {error}"),
    ("check-failed", "check {check} ({what}) failed.\nFIRST VIOLATION {violation}"),
    ("nothing-checked", "check {check}: the run gave it nothing to check (the test's workload is too short?)"),
    ("checked", "{check}: {count} decisions checked, all as the reference model"),
];

impl Message {
    pub fn new(key: &'static str, parts: &[(&'static str, &dyn ToString)]) -> Message {
        debug_assert!(ENGLISH.iter().any(|(k, _)| *k == key), "no English for {key}");
        Message { key, parts: parts.iter().map(|(name, value)| (*name, printable(&value.to_string()))).collect() }
    }

    /// The message in English, as the CLI prints it (a part holding `{name}` stays as it is).
    pub fn english(&self) -> String {
        runqueue_report::template::word(ENGLISH, self.key, &self.parts)
    }

    /// `{"key": ..., "parts": {name: value}}`, for the page.
    pub fn to_json(&self) -> Value {
        Value::Object(runqueue_report::template::keyed_json(self.key, &self.parts))
    }
}

/// `text` with every control character made visible, so that a quoted part (a student's panic
/// message, say) cannot move the cursor, clear or recolour the terminal the table is printed
/// on, or reorder what it shows: C0 controls but newline and tab, and DEL, in caret notation
/// (ESC is `^[`), C1 controls and the bidirectional overrides and isolates as `\u{..}`.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            '\0'..='\x1f' => {
                out.push('^');
                out.push(char::from(c as u8 + 0x40));
            }
            '\x7f' => out.push_str("^?"),
            '\u{80}'..='\u{9f}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {
                out.push_str(&alloc::format!("\\u{{{:x}}}", c as u32));
            }
            _ => out.push(c),
        }
    }
    out
}

/// Several messages as the CLI prints them: one a line.
pub fn english(messages: &[Message]) -> String {
    messages.iter().map(Message::english).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_is_filled_and_every_template_names_its_parts() {
        let m = Message::new("exit-code", &[("code", &3), ("last", &"panicked")]);
        assert_eq!(m.english(), "the kernel exited with code 3; its last line: panicked");
        let quoted = Message::new("check-failed", &[("check", &"x.y"), ("what", &"{violation}"), ("violation", &"v {check}")]);
        assert_eq!(quoted.english(), "check x.y ({violation}) failed.\nFIRST VIOLATION v {check}", "parts are not templates");
        assert_eq!(m.to_json().to_string(), r#"{"key":"exit-code","parts":{"code":"3","last":"panicked"}}"#);
        // A quoted part cannot drive the terminal.
        let escapes = Message::new("panicked", &[("message", &"a\x1b[2J\x1b[Hb\r\x07\x7f\u{9b}31m\u{202e}\tc\nd")]);
        assert_eq!(escapes.english(), "the kernel stopped: a^[[2J^[[Hb^M^G^?\\u{9b}31m\\u{202e}\tc\nd");
        for (key, template) in ENGLISH {
            assert_eq!(ENGLISH.iter().filter(|(k, _)| k == key).count(), 1, "{key} twice");
            assert!(!template.is_empty(), "{key}");
        }
    }
}
