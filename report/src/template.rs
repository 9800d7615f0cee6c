//! Sentences worded from templates: each `{name}` replaced by the part of that name, in one
//! pass, so a part that holds `{name}` itself (a student's panic message, say) stays as it is.
//! The grader's and the homework's messages are worded this way, in the CLI and in the page.

use alloc::string::{String, ToString};
use serde_json::{Map, Value};

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

/// The sentence `key` of `table` (key, template) with its parts filled in; "" for a key it lacks.
pub fn word(table: &[(&str, &str)], key: &str, parts: &[(&str, String)]) -> String {
    fill(table.iter().find(|(k, _)| *k == key).map_or("", |(_, t)| t), parts)
}

/// `{"key": key, "parts": {name: value}}`: a message as the page words it from its own table.
pub fn keyed_json(key: &str, parts: &[(&str, String)]) -> Map<String, Value> {
    let parts: Map<String, Value> = parts.iter().map(|(n, v)| (n.to_string(), Value::String(v.clone()))).collect();
    let mut m = Map::new();
    m.insert("key".into(), Value::String(key.into()));
    m.insert("parts".into(), Value::Object(parts));
    m
}
