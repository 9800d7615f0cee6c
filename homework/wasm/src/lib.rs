//! The page's homework in wasm (`book/widget/homework.js` and `homework-worker.js`):
//! `Answer::check`, the CLI's own reading of what a student types (numbers within the stated
//! tolerance, task names or their numbers, orders), so the page and `runqueue homework` never
//! disagree; and `generate`, a student's own problem drawn from their name or id by the CLI's
//! own generator, the kernel's runs made by the page's emulator through a callback. A wasm of
//! its own, fetched when a reader first uses a homework field or asks for their problem.

use runqueue_homework::problem::Unreadable;
use runqueue_homework::{Answer, Chapter, Level, markdown, seed_of};
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

/// The problem of `chapter` at `level` that `runqueue homework --chapter C --level L --student
/// S` prints for `student`, as `[json, markdown]`: the problem as `--json` prints it (inside its
/// `[...]`), and as `--answers` prints it (after its sheet's heading). `run(args, max_insns)` runs the kernel on a command line
/// for at most that many instructions and returns `[console, trace]` of its finished run, or
/// throws why it has none.
#[wasm_bindgen]
pub fn generate(chapter: &str, level: &str, student: &str, run: &js_sys::Function) -> Result<js_sys::Array, JsError> {
    let chapter = Chapter::find(chapter).map_err(|e| JsError::new(&e))?;
    let level = Level::parse(level).map_err(|e| JsError::new(&e))?;
    if student.trim().is_empty() {
        return Err(JsError::new("a student's name or id is needed"));
    }
    let problem = runqueue_homework::generate(chapter, level, seed_of(student), |args, max| run_with(run, args, max)).map_err(|e| JsError::new(&e))?;
    let json = problem.to_json().to_string();
    Ok(js_sys::Array::of2(&json.into(), &markdown::problem(&problem, 1, true).into()))
}

/// One kernel run through the page's callback.
fn run_with(run: &js_sys::Function, args: &str, max: u64) -> Result<(String, String), String> {
    let thrown = |e: JsValue| e.as_string().or_else(|| js_sys::Error::from(e).message().as_string()).unwrap_or_else(|| "the kernel run failed".into());
    let out = run.call2(&JsValue::NULL, &JsValue::from_str(args), &JsValue::from_f64(max as f64)).map_err(thrown)?;
    let pair = js_sys::Array::from(&out);
    match (pair.get(0).as_string(), pair.get(1).as_string()) {
        (Some(console), Some(trace)) if pair.length() == 2 => Ok((console, trace)),
        _ => Err("the kernel run gave no [console, trace]".into()),
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
