//! Sentences worded from templates: each `{name}` replaced by the part of that name, in one
//! pass, so a part that holds `{name}` itself (a student's panic message, say) stays as it is.
//! The grader's and the homework's messages are worded this way, in the CLI and in the page.

use alloc::string::String;

pub fn fill(template: &str, parts: &[(&str, String)]) -> String {
    let mut rest = template;
    let mut out = String::new();
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').map_or(rest.len(), |c| open + c);
        let name = rest.get(open + 1..close).unwrap_or("");
        out.push_str(&rest[..open]);
        match parts.iter().find(|(n, _)| *n == name) {
            Some((_, value)) => out.push_str(value),
            None => out.push_str(rest.get(open..=close).unwrap_or(&rest[open..])),
        }
        rest = rest.get(close + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}
