//! Mutants: a lab solution kept as the edits that change it (`docs/labs.md`, "Mutants").
//! The grader's tests apply each lab's known wrong solutions (`labs/<lab>/mutants/`) and the
//! files the vetting step must refuse (`labs/grader/forbidden/`) to a reference solution.

/// A mutant file: the bug it plants, the check that must catch it (a test's name, or `vet`),
/// what that check's output must say, and its edits as (find, replace) pairs. An attack on the
/// grader (`labs/grader/attacks/`) may name its honest `twin` (a mutant, as a path under
/// `labs/` without `.mutant`): its edits then apply to the twin's solution.
#[derive(Debug)]
pub struct Mutant {
    pub bug: String,
    pub catches: String,
    pub says: Option<String>,
    pub twin: Option<String>,
    pub edits: Vec<(String, String)>,
}

/// Reads a mutant: header lines (`bug:`, `catches:`, optional `says:` and `twin:`, `#` comments), then
/// `@@ find` / `@@ replace` blocks ended by `@@ end`.
pub fn parse_mutant(text: &str) -> Result<Mutant, String> {
    let mut m = Mutant { bug: String::new(), catches: String::new(), says: None, twin: None, edits: Vec::new() };
    let mut lines = text.lines();
    // The header, up to the first block.
    for line in lines.by_ref() {
        if line == "@@ find" {
            break;
        }
        match line.split_once(": ") {
            Some(("bug", v)) => m.bug = v.to_string(),
            Some(("catches", v)) => m.catches = v.to_string(),
            Some(("says", v)) => m.says = Some(v.to_string()),
            Some(("twin", v)) => m.twin = Some(v.to_string()),
            _ if line.is_empty() || line.starts_with('#') => {}
            _ => return Err(format!("unexpected header line {line:?} (bug:, catches:, says:, twin:)")),
        }
    }
    if m.bug.is_empty() || m.catches.is_empty() {
        return Err("the header needs `bug: ...` and `catches: <test>`".into());
    }
    // Blocks: `@@ find`, lines, `@@ replace`, lines, then `@@ find` again or `@@ end`.
    let (mut find, mut replace, mut in_find) = (Vec::new(), Vec::new(), true);
    for line in lines {
        match line {
            "@@ replace" if in_find => in_find = false,
            "@@ find" | "@@ end" if !in_find => {
                m.edits.push((find.join("\n"), replace.join("\n")));
                (find, replace, in_find) = (Vec::new(), Vec::new(), true);
                if line == "@@ end" {
                    return if m.edits.iter().any(|(f, _)| f.is_empty()) { Err("a block finds nothing".into()) } else { Ok(m) };
                }
            }
            l if l.starts_with("@@ ") => return Err(format!("{l:?} out of place (@@ find, @@ replace, @@ end)")),
            l if in_find => find.push(l),
            l => replace.push(l),
        }
    }
    Err("no `@@ end` after the last block (truncated?)".into())
}

/// The solution with the mutant's edits; each block must match exactly once.
pub fn apply(solution: &str, edits: &[(String, String)]) -> Result<String, String> {
    let mut text = solution.to_string();
    for (i, (find, replace)) in edits.iter().enumerate() {
        match text.matches(find.as_str()).count() {
            1 => text = text.replacen(find.as_str(), replace, 1),
            n => return Err(format!("block {} matches the solution {n} times, not once:\n{find}", i + 1)),
        }
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mutant_block_that_does_not_match_is_an_error() {
        let text = "bug: b\ncatches: t\n@@ find\nfn a() {}\n@@ replace\nfn b() {}\n@@ end\n";
        let m = parse_mutant(text).unwrap();
        assert_eq!(apply("x\nfn a() {}\ny", &m.edits).unwrap(), "x\nfn b() {}\ny");
        assert!(apply("fn c() {}", &m.edits).unwrap_err().contains("0 times"));
        assert!(apply("fn a() {}\nfn a() {}", &m.edits).unwrap_err().contains("2 times"));
        assert!(parse_mutant(&text.replace("@@ end\n", "")).unwrap_err().contains("@@ end"));
        assert!(parse_mutant(&text.replace("catches: t\n", "")).unwrap_err().contains("catches"));
        assert!(parse_mutant(&text.replace("@@ replace", "@@ swap")).unwrap_err().contains("out of place"));
    }
}
