//! Trace events for the page, as the compact JSON the Worker posts straight to the charts
//! (`runqueue_report::trace::page_json`), and the stream's cut into whole lines.

use runqueue_report::trace::{self, Event, ParseError};

/// Parses whole trace lines (`text`, whose first line is line `first_line` of the stream).
pub fn to_json(text: &str, first_line: usize) -> Result<String, ParseError> {
    let mut events = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if !line.trim().is_empty() {
            events.push(trace::parse_line(line, first_line + i)?);
        }
    }
    Ok(events_json(&events))
}

/// `events` as the page's JSON array.
pub fn events_json(events: &[Event]) -> String {
    trace::page_json(events).to_string()
}

/// Appends `fresh` bytes to `partial`, then moves every complete line from `partial` to
/// `trace`: a slice can end in the middle of a line, whose rest comes with the next slice.
pub fn append_whole_lines(fresh: &[u8], partial: &mut Vec<u8>, trace: &mut String) {
    partial.extend_from_slice(fresh);
    if let Some(end) = partial.iter().rposition(|&b| b == b'\n') {
        let lines: Vec<u8> = partial.drain(..=end).collect();
        trace.push_str(&String::from_utf8_lossy(&lines));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn events_keep_their_fields_and_numbers() {
        let json = to_json(
            "T 1500 1 out 3 why=preempt ran=1000\n\nT 2000 0 new 4 name=long\n",
            1,
        )
        .unwrap();
        let v: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 2);
        assert_eq!(v[0]["t"], 1500);
        assert_eq!(v[0]["k"], "out");
        assert_eq!(v[0]["f"]["ran"], 1000);
        assert_eq!(v[0]["f"]["why"], "preempt");
        assert_eq!(v[1]["f"]["name"], "long");
    }

    #[test]
    fn lines_split_across_slices_are_joined() {
        let (mut partial, mut trace) = (Vec::new(), String::new());
        append_whole_lines(b"T 1 0 in 1\nT 2 0 ou", &mut partial, &mut trace);
        assert_eq!(
            (trace.as_str(), partial.as_slice()),
            ("T 1 0 in 1\n", &b"T 2 0 ou"[..])
        );
        append_whole_lines(b"t 1 why=exit\n", &mut partial, &mut trace);
        assert_eq!(trace, "T 1 0 in 1\nT 2 0 out 1 why=exit\n");
        assert!(partial.is_empty());
        assert_eq!(to_json(&trace, 1).unwrap().matches("\"k\"").count(), 2);
    }

    #[test]
    fn a_bad_line_names_its_number_in_the_whole_stream() {
        let err = to_json("T 1 0 in 1\ngarbage\n", 41).unwrap_err();
        assert_eq!(err.line, 42);
    }
}
