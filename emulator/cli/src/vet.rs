//! Vetting a lab solution before the grader builds it into a kernel.
//!
//! A student's file is compiled on the grading machine, so before it is built it must not be
//! able to reach outside the lab API or read the machine at compile time. [`vet`] reads the
//! file with a real Rust tokenizer (`proc-macro2`), so comments and the insides of string
//! literals never count, and refuses, at the first offence in source order:
//!
//! - the names of the macros that read files or the environment, emit machine code or paste
//!   identifiers (`include`, `include_str`, `include_bytes`, `env`, `option_env`, `asm`,
//!   `global_asm`, `naked_asm`, `concat_idents`) as *any* identifier, raw ones too: a macro's
//!   argument (`m!(env)` with `$i!(...)` inside `m`) or an alias (`use core::env as e;`) would
//!   otherwise call them under another name;
//! - every attribute but a short list a policy needs (`ALLOWED_ATTRIBUTES`: `derive`, lint
//!   levels, `inline`, `doc`, `cfg`, `repr`, ..., and `cfg_attr` applying only those): the
//!   compiler keeps adding attributes, some of which read files or change how the kernel is
//!   linked (`path`, `debugger_visualizer`, `no_mangle`, `link_section`, ...), so a list of
//!   refused ones is never complete; and attributes a macro assembles (a `$` inside `#[...]`,
//!   or a `#` that does not start an attribute), which no check before the build could read;
//! - the `extern` and `unsafe` keywords anywhere;
//! - `mod NAME;`, a module read from another file (an inline `mod NAME { ... }` is fine);
//! - a file over 256 KiB, or one the tokenizer cannot read.
//!
//! Lifetimes (`'env`) are not identifiers and are not refused; neither are longer names that
//! merely start like a reserved one (`environment`, `included`).

use proc_macro2::{Delimiter, LexError, Spacing, TokenStream, TokenTree};
use std::fmt;

/// The largest lab solution the grader reads, in bytes.
pub const MAX_BYTES: usize = 256 * 1024;

/// `include!`, `include_str!`, `include_bytes!`, `env!`, `option_env!`.
pub const RULE_FILES: &str = "no compile-time file or environment access";
/// `asm!`, `global_asm!`, `naked_asm!`.
pub const RULE_ASM: &str = "no assembly";
/// `concat_idents!`.
pub const RULE_PASTE: &str = "no pasted identifiers";
/// Any attribute outside `ALLOWED_ATTRIBUTES`, and attributes built by macros.
pub const RULE_ATTRIBUTES: &str = "only the attributes a policy needs";
/// The `extern` keyword.
pub const RULE_EXTERN: &str = "no foreign code";
/// The `unsafe` keyword.
pub const RULE_UNSAFE: &str = "no unsafe code";
/// `mod NAME;`.
pub const RULE_MOD: &str = "no modules from other files";
/// Files over [`MAX_BYTES`].
pub const RULE_SIZE: &str = "at most 256 KiB";
/// Files the tokenizer cannot read.
pub const RULE_TOKENS: &str = "readable Rust";

/// Why a lab solution is refused before it is built: the rule it breaks and the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 1-based line of the offending token.
    pub line: usize,
    /// One of the `RULE_*` constants.
    pub rule: &'static str,
    /// What is wrong there, in a sentence.
    pub detail: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {} (rule: {})", self.line, self.detail, self.rule)
    }
}

impl std::error::Error for Refusal {}

/// Identifiers refused anywhere: (name, rule, what the macro of that name does).
const RESERVED: &[(&str, &str, &str)] = &[
    ("include", RULE_FILES, "compiles a file of the grading machine into your code"),
    ("include_str", RULE_FILES, "reads a file of the grading machine at compile time"),
    ("include_bytes", RULE_FILES, "reads a file of the grading machine at compile time"),
    ("env", RULE_FILES, "reads the grading machine's environment at compile time"),
    ("option_env", RULE_FILES, "reads the grading machine's environment at compile time"),
    ("asm", RULE_ASM, "puts machine code into the kernel"),
    ("global_asm", RULE_ASM, "puts machine code into the kernel"),
    ("naked_asm", RULE_ASM, "puts machine code into the kernel"),
    ("concat_idents", RULE_PASTE, "pastes identifiers together, which could spell a reserved name"),
];

/// The attributes a lab solution may use: deriving, lints, code generation hints,
/// documentation, conditional compilation, layout, and unit tests. `cfg_attr` may apply these
/// only; the tool attributes of `rustfmt::` and `clippy::` pass too.
pub const ALLOWED_ATTRIBUTES: &[&str] = &[
    "derive", "allow", "warn", "deny", "forbid", "expect", "inline", "cold", "track_caller", "must_use", "doc", "cfg",
    "cfg_attr", "repr", "non_exhaustive", "deprecated", "test", "should_panic", "ignore",
];

/// Tools whose attributes (`#[rustfmt::skip]`, `#[clippy::...]`) only their tool reads.
const TOOLS: &[&str] = &["rustfmt", "clippy"];

/// What some refused attributes would do, for their refusal's message.
const WHAT_ATTRIBUTES_DO: &[(&str, &str)] = &[
    ("no_mangle", "exports a symbol to the linker"),
    ("export_name", "exports a symbol to the linker"),
    ("link_section", "places code or data in a linker section of its choice"),
    ("link", "links a native library"),
    ("link_name", "binds to a symbol of the linker's"),
    ("path", "reads a module from another file of the grading machine"),
    ("debugger_visualizer", "makes the compiler read a file of the grading machine"),
    ("used", "keeps a symbol for the linker"),
    ("naked", "makes a function of raw machine code"),
    ("global_allocator", "replaces the kernel's memory allocator"),
    ("panic_handler", "replaces the kernel's panic handler"),
    ("target_feature", "changes the machine code the compiler may emit"),
];

const ONLY_LAB_API: &str = "lab solutions may use only the lab API";

/// Refuses a lab solution that could reach outside the lab API or read the grading machine at
/// compile time; the first offence in source order wins. See the module's documentation.
pub fn vet(source: &str) -> Result<(), Refusal> {
    if source.len() > MAX_BYTES {
        let line = source.as_bytes()[..MAX_BYTES].iter().filter(|&&b| b == b'\n').count() + 1;
        return Err(Refusal {
            line,
            rule: RULE_SIZE,
            detail: format!(
                "the file is {} bytes, and the grader reads at most {MAX_BYTES} (256 KiB), which this line goes past",
                source.len()
            ),
        });
    }
    let tokens: TokenStream = source.parse().map_err(|e| unreadable(source, &e))?;
    walk(tokens)
}

/// Where the tokenizer stopped, and a guess at why from the text there.
fn unreadable(source: &str, e: &LexError) -> Refusal {
    let start = e.span().start();
    let line = start.line.max(1);
    let rest: String = source.lines().nth(line - 1).unwrap_or("").chars().skip(start.column).collect();
    let why = match rest.chars().next() {
        Some(c @ ('(' | '[' | '{')) => format!("this `{c}` is never closed"),
        Some(c @ (')' | ']' | '}')) => format!("this `{c}` closes nothing, or does not match the bracket it closes"),
        Some('"') => "a string that does not end".to_string(),
        Some('\'') => "a character literal that does not end, or is more than one character".to_string(),
        _ if rest.starts_with("/*") => "a block comment that does not end".to_string(),
        _ if ["r\"", "r#", "b\"", "br", "c\"", "cr", "b'"].iter().any(|p| rest.starts_with(p)) => {
            "a string or character literal that does not end".to_string()
        }
        Some(c) => format!("`{c}` does not start a Rust token"),
        None => "the file ends in the middle of a token".to_string(),
    };
    Refusal { line, rule: RULE_TOKENS, detail: format!("the grader cannot read this line as Rust: {why} (the tokenizer says: {e})") }
}

/// The line a token starts on.
fn line_of(tt: &TokenTree) -> usize {
    tt.span().start().line
}

fn is_punct(tt: Option<&TokenTree>, c: char) -> bool {
    matches!(tt, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// An identifier's name without the `r#` of a raw identifier, and whether it was raw.
fn name_of(tt: &TokenTree) -> Option<(String, bool)> {
    let TokenTree::Ident(id) = tt else { return None };
    let s = id.to_string();
    Some(match s.strip_prefix("r#") {
        Some(bare) => (bare.to_string(), true),
        None => (s, false),
    })
}

/// Visits every token in source order, depth first, without recursion (a file may nest
/// brackets deeply). A frame is one group's tokens, the next one to visit, and whether the
/// group is (inside) an attribute.
fn walk(tokens: TokenStream) -> Result<(), Refusal> {
    let mut stack: Vec<(Vec<TokenTree>, usize, bool)> = vec![(tokens.into_iter().collect(), 0, false)];
    while let Some((tokens, next, in_attribute)) = stack.last_mut() {
        let i = *next;
        let Some(tt) = tokens.get(i).cloned() else {
            stack.pop();
            continue;
        };
        *next += 1;
        let in_attribute = *in_attribute;
        let (before, after) = (if i > 0 { tokens.get(i - 1) } else { None }, &tokens[i + 1..]);
        match &tt {
            TokenTree::Ident(_) => check_ident(&tt, before, after)?,
            TokenTree::Punct(p) if p.as_char() == '#' => check_attribute(&tt, after)?,
            TokenTree::Punct(p) if p.as_char() == '$' && in_attribute => {
                return Err(Refusal {
                    line: line_of(&tt),
                    rule: RULE_ATTRIBUTES,
                    detail: "an attribute built from a macro's variable (`#[$...]`) cannot be checked before the build; write the attribute out".into(),
                });
            }
            _ => {}
        }
        if let TokenTree::Group(g) = &tt {
            // The brackets of `#[...]` or `#![...]`.
            let opens_attribute = g.delimiter() == Delimiter::Bracket
                && (is_punct(before, '#') || (is_punct(before, '!') && i >= 2 && is_punct(tokens.get(i - 2), '#')));
            let inner = g.stream().into_iter().collect();
            stack.push((inner, 0, in_attribute || opens_attribute));
        }
    }
    Ok(())
}

fn check_ident(tt: &TokenTree, before: Option<&TokenTree>, after: &[TokenTree]) -> Result<(), Refusal> {
    // A lifetime (`'env`) is a quote joined to an identifier; no macro can make it a name.
    if matches!(before, Some(TokenTree::Punct(p)) if p.as_char() == '\'' && p.spacing() == Spacing::Joint) {
        return Ok(());
    }
    let (name, raw) = name_of(tt).expect("an identifier");
    let line = line_of(tt);
    if let Some(&(_, rule, does)) = RESERVED.iter().find(|(n, _, _)| *n == name) {
        // `name!` calls the macro; `!=` is a comparison.
        let called = matches!(after.first(), Some(TokenTree::Punct(p)) if p.as_char() == '!' && p.spacing() == Spacing::Alone);
        let detail = if called {
            format!("`{name}!` {does}; {ONLY_LAB_API}")
        } else {
            format!(
                "`{name}` is a name reserved in lab solutions (`{name}!` {does}), and it may not appear anywhere, \
                 not even as a variable, an alias or a macro's argument: rename it"
            )
        };
        return Err(Refusal { line, rule, detail });
    }
    match name.as_str() {
        "unsafe" => Err(Refusal {
            line,
            rule: RULE_UNSAFE,
            detail: format!("`unsafe` lets code reach any memory of the kernel; {ONLY_LAB_API}, which needs no unsafe code"),
        }),
        "extern" => Err(Refusal {
            line,
            rule: RULE_EXTERN,
            detail: format!("`extern` declares foreign functions, crates or calling conventions; {ONLY_LAB_API}"),
        }),
        // `mod NAME { ... }`, also as `mod $name { ... }` inside a macro; anything else may be
        // `mod NAME;`, which reads another file.
        "mod" if !raw => {
            let named = match after {
                [TokenTree::Ident(_), rest @ ..] => Some(rest),
                [TokenTree::Punct(p), TokenTree::Ident(_), rest @ ..] if p.as_char() == '$' => Some(rest),
                _ => None,
            };
            match named {
                Some([TokenTree::Group(g), ..]) if g.delimiter() == Delimiter::Brace => Ok(()),
                _ => Err(Refusal {
                    line,
                    rule: RULE_MOD,
                    detail: "`mod NAME;` reads a module from another file of the grading machine; write the module inline, as `mod NAME { ... }`".into(),
                }),
            }
        }
        _ => Ok(()),
    }
}

/// The refusal of an attribute whose path is `path` (its identifiers; `at` is the last).
fn refused_attribute(path: &[String], at: &TokenTree) -> Refusal {
    let name = path.join("::");
    let last = path.last().map_or("", String::as_str);
    let does = WHAT_ATTRIBUTES_DO.iter().find(|(n, _)| *n == last).map_or(String::new(), |(_, d)| format!(" {d}, and"));
    Refusal {
        line: line_of(at),
        rule: RULE_ATTRIBUTES,
        detail: format!("the attribute `{name}`{does} is not one a lab solution may use (those are: {})", ALLOWED_ATTRIBUTES.join(", ")),
    }
}

/// At a `#`: it must start an attribute, `#[...]` or `#![...]`, and the attributes that one
/// applies, through `unsafe(...)` and `cfg_attr(...)`, must be allowed ones. What an allowed
/// attribute takes (lint names, derived traits, a `cfg` predicate) is not looked into: none of
/// it reaches the machine.
fn check_attribute(hash: &TokenTree, after: &[TokenTree]) -> Result<(), Refusal> {
    let brackets = match after {
        [TokenTree::Group(g), ..] => Some(g),
        [TokenTree::Punct(p), TokenTree::Group(g), ..] if p.as_char() == '!' => Some(g),
        _ => None,
    };
    let body = match brackets {
        Some(g) if g.delimiter() == Delimiter::Bracket => g.stream(),
        _ => {
            return Err(Refusal {
                line: line_of(hash),
                rule: RULE_ATTRIBUTES,
                detail: "a `#` that does not start an attribute (`#[...]` or `#![...]`) can only feed a macro that builds one, \
                         which cannot be checked before the build; write attributes out"
                    .into(),
            });
        }
    };
    // Metas to look at, last first: each is the tokens of one `path`, `path = value` or
    // `path(args)`. Kept as a stack, not recursion: `cfg_attr`s may nest deeply.
    let mut metas: Vec<Vec<TokenTree>> = vec![body.into_iter().collect()];
    while let Some(meta) = metas.pop() {
        // The path: identifiers joined by `::`.
        let mut path = Vec::new();
        let mut last = None;
        let mut i = 0;
        while let Some(tt) = meta.get(i) {
            match tt {
                TokenTree::Ident(_) => {
                    path.push(name_of(tt).expect("an identifier").0);
                    last = Some(tt);
                }
                TokenTree::Punct(p) if p.as_char() == ':' => {}
                _ => break,
            }
            i += 1;
        }
        let Some(last) = last else { continue };
        let args = match meta.get(i) {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => Some(g.stream().into_iter().collect::<Vec<_>>()),
            _ => None,
        };
        match (path.as_slice(), args) {
            // `unsafe(no_mangle)` (edition 2024) applies the attribute inside; the `unsafe`
            // itself is refused when the walk reaches it.
            ([word], Some(args)) if word == "unsafe" => metas.push(args),
            // `cfg_attr(predicate, a, b)` may apply a and b.
            ([word], Some(args)) if word == "cfg_attr" => {
                let mut parts: Vec<Vec<TokenTree>> = args.split(|tt| is_punct(Some(tt), ',')).skip(1).map(<[TokenTree]>::to_vec).collect();
                parts.reverse();
                metas.extend(parts);
            }
            ([word], _) if ALLOWED_ATTRIBUTES.contains(&word.as_str()) => {}
            ([tool, _, ..], _) if TOOLS.contains(&tool.as_str()) => {}
            _ => return Err(refused_attribute(&path, last)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutant::{apply, parse_mutant};
    use std::path::Path;

    fn refused(source: &str) -> Refusal {
        vet(source).expect_err(&format!("should be refused:\n{source}"))
    }

    /// Asserts that `source` is refused under `rule` at `line`, and returns the refusal's text.
    #[track_caller]
    fn check(source: &str, line: usize, rule: &str) -> String {
        let r = refused(source);
        assert_eq!((r.line, r.rule), (line, rule), "{r}\nfor:\n{source}");
        r.to_string()
    }

    #[track_caller]
    fn accepted(source: &str) {
        if let Err(r) = vet(source) {
            panic!("should be accepted, but: {r}\n{source}");
        }
    }

    #[test]
    fn reference_solutions_and_skeletons_pass() {
        // Read when the test runs, not compiled in: a starter repository has no solutions.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for lab in ["sjf", "mlfq", "bvt"] {
            for file in ["solution.rs", "skeleton.rs"] {
                let name = format!("labs/{lab}/{file}");
                let source = std::fs::read_to_string(root.join(&name)).unwrap();
                if let Err(r) = vet(&source) {
                    panic!("{name} is refused: {r}");
                }
            }
        }
    }

    #[test]
    fn the_message_is_one_line_naming_the_rule_and_the_line() {
        let text = check("fn f() {}\n\nconst T: &str = include_str!(\"../tests/hidden.tests\");\n", 3, RULE_FILES);
        assert_eq!(
            text,
            "line 3: `include_str!` reads a file of the grading machine at compile time; lab solutions may use only \
             the lab API (rule: no compile-time file or environment access)"
        );
        assert!(!text.contains('\n'));
    }

    #[test]
    fn compile_time_file_and_environment_macros_are_refused() {
        check("fn f() {}\nconst T: &str = include_str!(\"/etc/passwd\");", 2, RULE_FILES);
        check("fn f() {}\n\ninclude!(\"../../solution.rs\");", 3, RULE_FILES);
        check("fn f() {}\nconst T: &[u8] = include_bytes!(\"/etc/passwd\");", 2, RULE_FILES);
        check("fn f() {}\nconst H: &str = env!(\"HOME\");", 2, RULE_FILES);
        check("fn f() {}\nconst H: Option<&str> = option_env!(\"HOME\");", 2, RULE_FILES);
        // A path to the macro is the same macro.
        check("fn f() {}\nconst H: &str = core::env!(\"HOME\");", 2, RULE_FILES);
    }

    #[test]
    fn assembly_and_pasted_identifiers_are_refused() {
        check("fn f() {}\nuse core::arch::asm;\nfn g() { unsafe { asm!(\"nop\") } }", 2, RULE_ASM);
        check("fn f() {}\ncore::arch::global_asm!(\".section .text\");", 2, RULE_ASM);
        check("fn f() {}\n\nfn g() { core::arch::naked_asm!(\"ret\") }", 3, RULE_ASM);
        check("fn f() {}\nfn g() { let _ = concat_idents!(e, nv); }", 2, RULE_PASTE);
    }

    #[test]
    fn a_reserved_name_is_refused_as_any_identifier() {
        // A variable: the message says the name is reserved and to rename it.
        let text = check("fn f() {\n    let env = 3;\n}", 2, RULE_FILES);
        assert!(text.contains("`env` is a name reserved in lab solutions") && text.contains("rename it"), "{text}");
        // `!=` after it is a comparison, not a macro call.
        let text = check("fn f() -> bool {\n    env != 3\n}", 2, RULE_FILES);
        assert!(text.starts_with("line 2: `env` is a name reserved"), "{text}");
        // A macro that calls whatever name it is given.
        let evasion = "macro_rules! m {\n    ($i:ident) => { $i!(\"HOME\") };\n}\nconst H: &str = m!(env);\n";
        check(evasion, 4, RULE_FILES);
        // An alias.
        let text = check("fn f() {}\nuse core::env as e;\nconst H: &str = e!(\"HOME\");", 2, RULE_FILES);
        assert!(text.contains("`env`"), "{text}");
        // Raw identifiers.
        check("fn f() {}\nconst H: &str = r#env!(\"HOME\");", 2, RULE_FILES);
        check("fn f() {}\nfn g() { let r#include_bytes = 1; }", 2, RULE_FILES);
        check("fn f() {}\nfn g() { let r#asm = 1; }", 2, RULE_ASM);
        // Every reserved name, as a plain identifier.
        for (name, rule, _) in RESERVED {
            check(&format!("fn f() {{}}\nfn g() {{ let {name} = 1; }}"), 2, rule);
        }
    }

    #[test]
    fn names_that_only_look_like_reserved_ones_pass() {
        accepted(
            "//! Uses env!(\"HOME\") and include_str!(\"x\") and unsafe and extern only in comments.\n\
             /// A doc comment may say `include_bytes!`, `unsafe` or `mod x;` too.\n\
             fn f<'env>(environment: &'env u64, envelope: u64, included: u64, asm_like: u64) -> u64 {\n\
                 /* a block comment: env!(\"X\") /* nested: unsafe */ extern */\n\
                 let unused = \"env!(\\\"HOME\\\") unsafe { } mod m; #[no_mangle]\";\n\
                 let _ = (unused, r\"extern crate core;\", 'e');\n\
                 *environment + envelope + included + asm_like\n\
             }\n\
             struct Place { used: u64, path: u8, link: u8 }\n\
             mod inline { pub fn g() {} }\n\
             pub mod inline_too {}\n",
        );
        // Ordinary attributes, inner and outer, including `unsafe_code` as a lint's name.
        accepted("#![allow(unsafe_code)]\n#[derive(Clone, Copy)]\n#[allow(dead_code)]\n#[inline(always)]\n#[cfg_attr(test, derive(Debug))]\nstruct S;");
    }

    #[test]
    fn attributes_outside_the_allowed_list_are_refused() {
        for (name, does) in WHAT_ATTRIBUTES_DO {
            for form in [
                format!("#[{name}]"),
                format!("#[{name} = \"x\"]"),
                format!("#[{name}(name = \"x\")]"),
                format!("#[unsafe({name})]"),
                format!("#[unsafe({name} = \"x\")]"),
                format!("#[cfg_attr(all(), {name})]"),
                format!("#[cfg_attr(all(), inline, cfg_attr(any(), unsafe({name} = \"x\")))]"),
                format!("#[r#{name}]"),
                format!("#![{name}]"),
            ] {
                let text = check(&format!("fn f() {{}}\n{form}\nfn g() {{}}"), 2, RULE_ATTRIBUTES);
                assert!(text.contains(&format!("the attribute `{name}` {does}, and is not one a lab solution may use")), "{text}");
            }
            let text = check(&format!("fn f() {{}}\n#[core::prelude::v1::{name}]\nfn g() {{}}"), 2, RULE_ATTRIBUTES);
            assert!(text.contains(&format!("the attribute `core::prelude::v1::{name}`")), "{text}");
        }
        // The attribute is judged before what is inside it.
        check("fn f() {}\n#[unsafe(no_mangle)]\npub fn trap() {}", 2, RULE_ATTRIBUTES);
        check("fn f() {}\n#[path = \"../../../labs/sjf/tests/hidden.rs\"]\nmod hidden;", 2, RULE_ATTRIBUTES);
        // One the list never heard of: refused all the same, naming the list.
        let text = check("#![debugger_visualizer(gdb_script_file = \"/etc/passwd\")]\nfn f() {}", 1, RULE_ATTRIBUTES);
        assert!(text.contains("makes the compiler read a file of the grading machine"), "{text}");
        let text = check("fn f() {}\n#[some_future_attribute]\nfn g() {}", 2, RULE_ATTRIBUTES);
        assert!(text.contains("the attribute `some_future_attribute` is not one a lab solution may use (those are: derive, allow,"), "{text}");
        check("fn f() {}\n#[cfg_attr(test, inline, optimize(speed))]\nfn g() {}", 2, RULE_ATTRIBUTES);
        check("fn f() {}\n#[allow(dead_code)]\n#[instruction_set(arm::t32)]\nfn g() {}", 3, RULE_ATTRIBUTES);
    }

    #[test]
    fn the_allowed_attributes_pass_whatever_they_take() {
        for name in ALLOWED_ATTRIBUTES {
            accepted(&format!("#[{name}]\nfn g() {{}}"));
        }
        // What an allowed attribute takes is not an attribute: a lint may be called `used`.
        accepted("#[allow(\n    used, path, no_mangle)]\nfn g() {}\n#![allow(link)]");
        accepted("#[rustfmt::skip]\n#[clippy::cognitive_complexity = \"100\"]\nfn g() {}");
        accepted("#[cfg_attr(test, derive(Debug), allow(dead_code))]\n#[repr(C)]\nstruct S;");
    }

    #[test]
    fn attributes_assembled_by_macros_are_refused() {
        // `#[$x]` with `x` a meta the caller chooses.
        check("macro_rules! a {\n    ($x:meta) => { #[$x] pub fn f() {} };\n}\na!(no_mangle);", 2, RULE_ATTRIBUTES);
        // A `#` handed to a macro apart from its brackets.
        let text = check("macro_rules! a {\n    ($h:tt $b:ident) => { $h [$b] pub fn f() {} };\n}\na!(# no_mangle);", 4, RULE_ATTRIBUTES);
        assert!(text.contains("does not start an attribute"), "{text}");
        check("macro_rules! a {\n    ($h:tt $b:tt) => { $h $b pub fn f() {} };\n}\na!(# [no_mangle]);", 4, RULE_ATTRIBUTES);
        check("fn f() {}\nm!(#);", 2, RULE_ATTRIBUTES);
        // The same for inner attributes.
        check("macro_rules! a {\n    ($x:meta) => { mod m { #![$x] } };\n}\na!(no_mangle);", 2, RULE_ATTRIBUTES);
        check("fn f() {}\nm!(#!);", 2, RULE_ATTRIBUTES);
    }

    #[test]
    fn extern_is_refused() {
        check("fn f() {}\nextern \"C\" {\n    fn sbi_call();\n}", 2, RULE_EXTERN);
        check("fn f() {}\n\nextern crate alloc;", 3, RULE_EXTERN);
        check("fn f() {}\npub extern \"C\" fn g() {}", 2, RULE_EXTERN);
        check("fn f() {}\nfn g() { let r#extern = 1; }", 2, RULE_EXTERN);
    }

    #[test]
    fn unsafe_is_refused() {
        check("fn f() {}\nfn g() -> u8 {\n    unsafe { core::ptr::read_volatile(0x1000_0000 as *const u8) }\n}", 3, RULE_UNSAFE);
        check("fn f() {}\nunsafe fn g() {}", 2, RULE_UNSAFE);
        check("fn f() {}\nstruct S;\nunsafe impl Sync for S {}", 3, RULE_UNSAFE);
        check("fn f() {}\nunsafe extern \"C\" {\n    fn g();\n}", 2, RULE_UNSAFE);
        check("fn f() {}\nfn g() { let r#unsafe = 1; }", 2, RULE_UNSAFE);
        // `unsafe(...)` around an attribute that is not refused is still `unsafe`.
        check("fn f() {}\n#[unsafe(inline)]\nfn g() {}", 2, RULE_UNSAFE);
    }

    #[test]
    fn a_module_from_another_file_is_refused() {
        let text = check("fn f() {}\nmod helpers;", 2, RULE_MOD);
        assert!(text.contains("mod NAME { ... }"), "{text}");
        check("fn f() {}\n\npub(crate) mod r#helpers;", 3, RULE_MOD);
        // Built by a macro: `mod $name;`, or the `mod` keyword handed to one.
        check("macro_rules! m {\n    ($n:ident) => { mod $n; };\n}\nm!(x);", 2, RULE_MOD);
        check("fn f() {}\nm!(mod);", 2, RULE_MOD);
        // Inline modules pass, also as a macro writes them.
        accepted("mod a {\n    mod b {}\n}\nmacro_rules! m {\n    ($n:ident) => { mod $n {} };\n}\nm!(c);");
    }

    #[test]
    fn the_first_offence_in_source_order_wins() {
        check("fn f() {}\nfn g() { unsafe {} }\nconst H: &str = env!(\"HOME\");", 2, RULE_UNSAFE);
        check("fn f() {}\nconst H: &str = env!(\"HOME\");\nfn g() { unsafe {} }", 2, RULE_FILES);
        check("fn f() {\n    (((\n        mod x;\n    )));\n    env!(\"X\");\n}", 3, RULE_MOD);
    }

    #[test]
    fn a_file_over_256_kib_is_refused() {
        let mut big = format!("//{}\n", " ".repeat(MAX_BYTES - 3));
        assert_eq!(big.len(), MAX_BYTES);
        accepted(&big);
        big.push_str("fn f() {}\n");
        let text = check(&big, 2, RULE_SIZE);
        assert!(text.contains(&format!("{} bytes", MAX_BYTES + 10)), "{text}");
    }

    #[test]
    fn a_file_the_tokenizer_cannot_read_is_refused_with_the_line() {
        let text = check("fn f() {\n    let s = \"abc;\n}\n", 2, RULE_TOKENS);
        assert!(text.contains("the grader cannot read this line") && text.contains("does not end"), "{text}");
        let text = check("fn f() {\n}\n}\n", 3, RULE_TOKENS);
        assert!(text.contains("this `}` closes nothing"), "{text}");
        let text = check("fn f() {\n    g(;\n}\n", 3, RULE_TOKENS);
        assert!(text.contains("this `}` closes nothing, or does not match"), "{text}");
        let text = check("fn f() {}\nfn g() {\n    h();\n", 2, RULE_TOKENS);
        assert!(text.contains("this `{` is never closed"), "{text}");
        let text = check("fn f() {}\n/* never ends\n", 2, RULE_TOKENS);
        assert!(text.contains("block comment"), "{text}");
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        let depth = 100_000;
        accepted(&format!("fn f() {{ let _ = {}1{}; }}", "(".repeat(depth), ")".repeat(depth)));
        check(&format!("fn f() {{ let _ = {}\nunsafe{{}}{}; }}", "[".repeat(depth), "]".repeat(depth)), 2, RULE_UNSAFE);
        let attribute = format!("{}no_mangle{}", "cfg_attr(all(), ".repeat(depth / 20), ")".repeat(depth / 20));
        check(&format!("fn f() {{}}\n#[{attribute}]\nfn g() {{}}"), 2, RULE_ATTRIBUTES);
    }

    /// `labs/grader/forbidden/*.mutant`: each turns the SJF reference solution into one that
    /// vetting must refuse, with a message that says what the header's `says:` says.
    #[test]
    fn every_forbidden_fixture_is_refused() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let solution = std::fs::read_to_string(root.join("labs/sjf/solution.rs")).unwrap();
        let dir = root.join("labs/grader/forbidden");
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        assert_eq!(files.len(), 17, "{files:?}");
        for file in files {
            assert!(file.extension().is_some_and(|e| e == "mutant"), "{}: not a .mutant file", file.display());
            let m = parse_mutant(&std::fs::read_to_string(&file).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            assert_eq!(m.catches, "vet", "{}", file.display());
            let says = m.says.as_deref().unwrap_or_else(|| panic!("{}: no `says:`", file.display()));
            let source = apply(&solution, &m.edits).unwrap_or_else(|e| panic!("{} no longer applies to solution.rs: {e}", file.display()));
            match vet(&source) {
                Ok(()) => panic!("{} ({}) is accepted", file.display(), m.bug),
                Err(r) => {
                    assert!(r.to_string().contains(says), "{}: the refusal should say {says:?}: {r}", file.display());
                    // The line refused is one the fixture added, not one of the solution's.
                    let refused = source.lines().nth(r.line - 1).unwrap();
                    assert!(!solution.lines().any(|l| l == refused), "{}: {r} refuses the solution's own line {refused:?}", file.display());
                }
            }
        }
    }
}
