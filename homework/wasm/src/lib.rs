//! The page's check of a homework answer (`book/widget/homework.js`): `Answer::check`, the
//! CLI's own reading of what a student types (numbers within the stated tolerance, task names
//! or their numbers, orders), so the page and `runqueue homework` never disagree. A wasm of its
//! own, fetched when a reader first uses a homework field.

use runqueue_homework::Answer;
use runqueue_homework::problem::Unreadable;
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

/// Checks `typed` against `answer` (the JSON of `Answer::to_json`, as the page carries it) and
/// returns JSON `{"right": bool}`, or `{"unreadable": "not-a-number" | "unknown-name" |
/// "wrong-count", "count": n}` when it cannot be read as an answer (`count`: the names an
/// order needs).
#[wasm_bindgen]
pub fn check(answer: &str, typed: &str) -> Result<String, JsError> {
    let json: Value = serde_json::from_str(answer).map_err(|e| JsError::new(&format!("the answer is not JSON: {e}")))?;
    let answer = Answer::from_json(&json).map_err(|e| JsError::new(&e))?;
    Ok(verdict(answer.check(typed)).to_string())
}

fn verdict(checked: Result<bool, Unreadable>) -> Value {
    match checked {
        Ok(right) => json!({"right": right}),
        Err(why) => {
            let count = if let Unreadable::WrongCount(n) = why { n } else { 0 };
            json!({"unreadable": why.key(), "count": count})
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_the_checks_in_json() {
        let order = r#"{"kind":"order","value":["job2","job0","job1"],"text":"job2, job0, job1"}"#;
        assert_eq!(check(order, "2 0 1").unwrap(), r#"{"right":true}"#);
        assert_eq!(check(order, "job0 job2 job1").unwrap(), r#"{"right":false}"#);
        assert_eq!(check(order, "job0 job2").unwrap(), r#"{"count":3,"unreadable":"wrong-count"}"#);
        assert_eq!(check(order, "job0 job9 job1").unwrap(), r#"{"count":0,"unreadable":"unknown-name"}"#);
        let time = r#"{"kind":"number","value":8.62,"decimals":2,"unit":"ms","abs":0.5,"rel":0.03,"text":"8.62"}"#;
        assert_eq!(check(time, "8,6 ms").unwrap(), r#"{"right":true}"#);
        assert_eq!(check(time, "eight").unwrap(), r#"{"count":0,"unreadable":"not-a-number"}"#);
    }
}
