//! `runqueue homework` end to end: for many seeds of every chapter and level, each answer in
//! the key is what a fresh run of the kernel on the problem's command line says (read here from
//! its RESULT and trace, not through the homework crate's reading of them); the key's answer
//! checks as right and a wrong one as wrong; the same seed gives the same bytes; bad input is
//! refused with a clear message.

use runqueue::homework::make;
use runqueue::run::{KERNEL, execute};
use runqueue_emu::MachineOptions;
use runqueue_homework::{Answer, CHAPTERS, Level, Problem, Question};
use runqueue_report::trace::{self, Event, Kind};
use runqueue_report::{RunResult, console};
use std::process::{Command, Output};

/// Seeds per chapter and level (spread over the range a student's name gives): each problem
/// costs a few kernel runs of a few ms.
const SEEDS: u64 = 16;
const SEED_STEP: u64 = 61_871_347;

/// A fresh run of the problem's command line: its RESULT, its events on the problem's clock
/// (ns from its time 0, the workload's start plus the lead), and that 0 on the machine's clock.
fn rerun(p: &Problem) -> (RunResult, Vec<Event>, u64) {
    let options = MachineOptions::parse(&p.args).expect("the problem's command line");
    let out = execute(KERNEL, &options, 1_000_000_000, |_| {}).expect("the kernel boots");
    assert_eq!(out.exit, Some(0), "{}", p.args);
    let split = console::split(&out.console);
    let result = RunResult::parse(console::result_json(&split.console).expect("a RESULT line")).unwrap();
    let mut events = trace::parse(&out.trace).unwrap();
    events.extend(trace::parse(&split.trace).unwrap());
    // Every task arrives by the timer at the workload's start plus its `wl.arrive_us`.
    let first = &result.tasks[0];
    let new = events.iter().find(|e| e.kind == Kind::New && e.tid == first.tid).unwrap();
    let zero = new.time_ns - first.arrive_ns + p.lead_us * 1000;
    for e in &mut events {
        e.time_ns = e.time_ns.saturating_sub(zero);
    }
    events.sort_by_key(|e| e.time_ns);
    (result, events, zero)
}

fn part<'a>(q: &'a Question, name: &str) -> &'a str {
    q.prompt.parts.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str()).unwrap_or_else(|| panic!("{} has no {name}", q.slot))
}

fn ns_of_ms(text: &str) -> u64 {
    (text.parse::<f64>().unwrap() * 1e6).round() as u64
}

/// What the kernel's run says the answer to `q` is, as the key prints it (`zero`: the problem's
/// 0 on the machine's clock, for the absolute deadlines events report).
fn kernel_answer(q: &Question, result: &RunResult, events: &[Event], zero: u64) -> String {
    let ms = |ns: u64| format!("{:.2}", ns as f64 / 1e6);
    let vms = |ns: i64| format!("{:.3}", ns as f64 / 1e6);
    let task = |name: &str| result.task(name).unwrap_or_else(|| panic!("no task {name}"));
    let mean = |f: fn(&runqueue_report::TaskResult) -> u64| ms(result.tasks.iter().map(f).sum::<u64>() / result.tasks.len() as u64);
    match q.slot {
        "order" => {
            let mut tasks: Vec<_> = result.tasks.iter().collect();
            tasks.sort_by_key(|t| (t.finish_ns, t.tid));
            tasks.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
        }
        "turnaround" => ms(task(part(q, "task")).turnaround_ns),
        "response" => ms(task(part(q, "task")).response_ns),
        "avg-turnaround" => mean(|t| t.turnaround_ns),
        "avg-response" => mean(|t| t.response_ns),
        "running" => {
            let t = ns_of_ms(part(q, "t"));
            let last_in = events.iter().filter(|e| e.time_ns <= t && matches!(e.kind, Kind::In | Kind::Out)).last().unwrap();
            assert_eq!(last_in.kind, Kind::In, "a task runs at {t}");
            result.tasks.iter().find(|r| r.tid == last_in.tid).unwrap().name.clone()
        }
        "level" => {
            let (tid, t) = (task(part(q, "task")).tid, ns_of_ms(part(q, "t")));
            events.iter().filter(|e| e.tid == tid && e.time_ns <= t).filter_map(|e| e.num("lvl")).last().unwrap().to_string()
        }
        "reaches-level" => {
            let (tid, level) = (task(part(q, "task")).tid, part(q, "level").parse::<i64>().unwrap());
            ms(events.iter().find(|e| e.tid == tid && e.kind == Kind::State && e.num("lvl") == Some(level)).unwrap().time_ns)
        }
        "share" => {
            let total: u64 = result.tasks.iter().map(|t| t.cpu_ns).sum();
            format!("{:.1}", task(part(q, "task")).cpu_ns as f64 * 100.0 / total as f64)
        }
        "vruntime-growth" | "pass-growth" => {
            // The task's turn that ended at `to`: its `out` event's vr (pass) less its `in` event's.
            let tid = task(part(q, "task")).tid;
            let mine: Vec<&Event> = events.iter().filter(|e| e.tid == tid && matches!(e.kind, Kind::In | Kind::Out)).collect();
            let to = ns_of_ms(part(q, "to"));
            let out = mine.iter().position(|e| e.kind == Kind::Out && e.time_ns.abs_diff(to) <= 5_000).unwrap_or_else(|| panic!("no turn of {} ends at {to}", part(q, "task")));
            assert_eq!(mine[out - 1].kind, Kind::In);
            let key = if q.slot == "pass-growth" { "pass" } else { "vr" };
            let grew = mine[out].num(key).unwrap() - mine[out - 1].num(key).unwrap();
            if key == "pass" { grew.to_string() } else { format!("{:.3}", grew as f64 / 1e6) }
        }
        "first-run" | "first-turn" => {
            let tid = task(part(q, "task")).tid;
            let from = events.iter().find(|e| e.tid == tid && e.kind == Kind::In).unwrap().time_ns;
            let to = events.iter().find(|e| e.tid == tid && e.kind == Kind::Out).unwrap().time_ns;
            ms(if q.slot == "first-run" { from } else { to - from })
        }
        "job-finish" | "job-response" => {
            // Job k ends with the task's k-th yield; it was released where job k - 1's deadline
            // passed (the deadline is the period).
            let (tid, k) = (task(part(q, "task")).tid, part(q, "k").parse::<usize>().unwrap());
            let yields: Vec<&Event> = events.iter().filter(|e| e.tid == tid && e.kind == Kind::Out && e.get("why") == Some("yield")).collect();
            let finish = yields[k - 1].time_ns;
            ms(if q.slot == "job-finish" { finish } else { finish + zero - yields[k - 2].num("dl").unwrap() as u64 })
        }
        "throttled" | "runs-again" => {
            // The task's first preemption with its budget used up, and its next turn.
            let tid = task(part(q, "task")).tid;
            let throttled = events.iter().find(|e| e.tid == tid && e.kind == Kind::Out && e.get("why") == Some("preempt") && e.num("left").unwrap() <= 0).unwrap().time_ns;
            ms(if q.slot == "throttled" { throttled } else { events.iter().find(|e| e.tid == tid && e.kind == Kind::In && e.time_ns > throttled).unwrap().time_ns })
        }
        // EEVDF: a deadline or lag the kernel's trace reports, in virtual ms to the µs.
        "first-deadline" => {
            let tid = task(part(q, "task")).tid;
            vms(events.iter().find(|e| e.tid == tid && e.kind == Kind::New).unwrap().num("vd").unwrap())
        }
        "deadline" => {
            // The `out` that ends the task's turn at `to`, whose vruntime the prompt gives.
            let tid = task(part(q, "task")).tid;
            let to = ns_of_ms(part(q, "to"));
            let out = events.iter().find(|e| e.tid == tid && e.kind == Kind::Out && e.time_ns.abs_diff(to) <= 5_000).unwrap_or_else(|| panic!("no turn of {} ends at {to}", part(q, "task")));
            assert_eq!(part(q, "vr"), vms(out.num("vr").unwrap()), "the vruntime the prompt gives");
            vms(out.num("vd").unwrap())
        }
        "lag" => {
            // The `in` at `t`, where every task's vruntime is the prompt's.
            let tid = task(part(q, "task")).tid;
            let t = ns_of_ms(part(q, "t"));
            let inn = events.iter().find(|e| e.tid == tid && e.kind == Kind::In && e.time_ns.abs_diff(t) <= 5_000).unwrap_or_else(|| panic!("{} is not switched in at {t}", part(q, "task")));
            let given: Vec<String> = result.tasks.iter().map(|r| format!("{} = {}", r.name, vms(events.iter().filter(|e| e.tid == r.tid && e.time_ns <= inn.time_ns).filter_map(|e| e.num("vr")).last().unwrap()))).collect();
            assert_eq!(part(q, "vruntimes"), given.join(", "), "the vruntimes the prompt gives");
            vms(inn.num("lag").unwrap())
        }
        "placed" => {
            let tid = task(part(q, "task")).tid;
            events.iter().find(|e| e.tid == tid && e.kind == Kind::New).and_then(|e| e.get("rq")).expect("a new event with rq=").to_string()
        }
        "running-on" => {
            // The last switch on that hart at or before t.
            let (hart, t) = (part(q, "hart").parse::<u32>().unwrap(), ns_of_ms(part(q, "t")));
            let last = events.iter().filter(|e| e.hart == hart && e.time_ns <= t && matches!(e.kind, Kind::In | Kind::Out)).last().unwrap();
            assert_eq!(last.kind, Kind::In, "hart {hart} runs a task at {t}");
            result.tasks.iter().find(|r| r.tid == last.tid).unwrap().name.clone()
        }
        "migrations" => events.iter().filter(|e| e.kind == Kind::Migrate).count().to_string(),
        "last-hart" => {
            let tid = task(part(q, "task")).tid;
            events.iter().filter(|e| e.tid == tid && e.kind == Kind::Out).last().expect("the task ran").hart.to_string()
        }
        other => panic!("no check for the question {other}"),
    }
}

/// An answer the key must mark wrong: a number past its tolerance, another task, another order.
fn wrong(answer: &Answer) -> String {
    match answer {
        Answer::Number { value, tol, .. } => format!("{}", value + tol.abs.max(tol.rel * value.abs()) + 0.5),
        Answer::Choice { value, choices } => choices.iter().find(|c| *c != value).unwrap().clone(),
        Answer::Order { value } => {
            let mut v = value.clone();
            v.rotate_left(1);
            v.join(", ")
        }
    }
}

#[test]
fn every_answer_is_the_kernels_and_only_it_is_marked_right() {
    let mut questions = 0;
    for chapter in CHAPTERS {
        for level in Level::ALL {
            for seed in (1..=SEEDS).map(|i| i * SEED_STEP % 1_000_000_000) {
                let p = make(chapter, level, seed).unwrap_or_else(|e| panic!("{} {} {seed}: {e:?}", chapter.name, level.name()));
                let what = format!("{} {} seed {seed} (`{}`)", chapter.name, level.name(), p.args);
                let (result, events, zero) = rerun(&p);
                for q in &p.questions {
                    assert_eq!(q.answer.text(), kernel_answer(q, &result, &events, zero), "{what}: {}", q.prompt.english());
                    assert_eq!(q.answer.check(&q.answer.text()), Ok(true), "{what}: {}", q.slot);
                    let bad = wrong(&q.answer);
                    if q.answer.text().split(", ").count() > 1 || !matches!(q.answer, Answer::Order { .. }) {
                        assert_eq!(q.answer.check(&bad), Ok(false), "{what}: {} marked {bad:?} right", q.slot);
                    }
                    questions += 1;
                }
            }
        }
    }
    assert!(questions >= CHAPTERS.len() * 3 * SEEDS as usize * 3, "{questions} questions");
}

fn runqueue(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runqueue")).args(args).output().expect("the runqueue binary runs")
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_students_differ() {
    let sheet = ["homework", "--chapter", "sjf", "--seed", "5", "--count", "3", "--answers"];
    let (a, b) = (runqueue(&sheet), runqueue(&sheet));
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(String::from_utf8_lossy(&a.stdout), String::from_utf8_lossy(&b.stdout));
    let json = |who: &str| String::from_utf8(runqueue(&["homework", "--chapter", "mlfq", "--student", who, "--json"]).stdout).unwrap();
    assert_eq!(json("Ada Lovelace"), json("  ada  LOVELACE"));
    // A student's problems are the seed of their name's (`seed_of`, which the page uses too).
    let seeded = runqueue(&["homework", "--chapter", "mlfq", "--seed", &runqueue_homework::seed_of("Ada Lovelace").to_string(), "--json"]);
    assert_eq!(json("Ada Lovelace"), String::from_utf8(seeded.stdout).unwrap());
    assert_ne!(json("Ada Lovelace"), json("Grace Hopper"));
}

#[test]
fn out_writes_a_sheet_without_answers_and_a_key_per_student() {
    let dir = std::env::temp_dir().join(format!("runqueue-homework-{}", std::process::id()));
    let roster = dir.join("class.txt");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&roster, "# week 3\nAda Lovelace\n\nGrace Hopper\n").unwrap();
    let out = runqueue(&["homework", "--chapter", "rr", "--roster", roster.to_str().unwrap(), "--count", "2", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for who in ["ada-lovelace", "grace-hopper"] {
        let sheet = std::fs::read_to_string(dir.join(who).join("problems.md")).unwrap();
        let key = std::fs::read_to_string(dir.join(who).join("answers.md")).unwrap();
        assert_eq!(sheet.matches("## Problem").count(), 2, "{sheet}");
        assert!(!sheet.contains("Answers, from the kernel's run"), "{sheet}");
        assert_eq!(key.matches("Answers, from the kernel's run").count(), 2, "{key}");
        assert!(key.starts_with(&sheet.lines().next().unwrap().replace("homework", "answer key")), "{key}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Asserts a refusal: exit code 125 (2 for what clap refuses), a message naming `needle`, no panic.
fn assert_refused(args: &[&str], code: i32, needle: &str) {
    let out = runqueue(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(stderr.contains(needle), "{args:?}: expected {needle:?} in: {stderr}");
    assert!(!stderr.contains("panicked") && out.stdout.is_empty(), "{args:?}: {stderr}");
}

#[test]
fn bad_input_is_refused_clearly() {
    assert_refused(&["homework", "--chapter", "bogus", "--seed", "1"], 125, "unknown chapter 'bogus': choose one of fifo-rr, sjf, mlfq, lottery-stride, cfs, eevdf, rt, deadline, many-cores");
    assert_refused(&["homework", "--chapter", "sjf", "--seed", "abc"], 2, "invalid value 'abc' for '--seed <SEED>'");
    assert_refused(&["homework", "--chapter", "sjf", "--seed", "-3"], 2, "unexpected argument '-3'");
    assert_refused(&["homework", "--chapter", "sjf", "--seed", "1", "--level", "expert"], 125, "unknown level 'expert'");
    assert_refused(&["homework", "--chapter", "sjf", "--seed", "1", "--count", "0"], 125, "--count must be at least 1");
    assert_refused(&["homework", "--chapter", "sjf"], 125, "give --seed N, --student NAME or --roster FILE");
    assert_refused(&["homework", "--chapter", "sjf", "--student", "  "], 125, "--student needs a name or id");
    assert_refused(&["homework", "--chapter", "sjf", "--roster", "/nonexistent/class.txt"], 125, "cannot read the roster /nonexistent/class.txt");
    assert_refused(&["homework", "--chapter", "sjf", "--seed", "1", "--student", "Ada"], 2, "cannot be used with");
}

/// How far a number printed as `answer` prints it may be from the exact one (half its last
/// digit, and the four decimals a bound is written with).
fn printed(answer: &Answer) -> f64 {
    let Answer::Number { decimals, .. } = answer else { return 0.0 };
    0.5 / 10f64.powi(*decimals as i32) + 1e-4
}

/// One answer field of a bank, as the platform would read it.
#[derive(Debug, PartialEq)]
enum Field {
    /// The value and the margin either side.
    Number(f64, f64),
    Choice(String, Vec<String>),
    Text(String),
}

/// The answer fields of a Moodle Cloze question's text: `{1:NUMERICAL:=7.30:1}`,
/// `{1:MULTICHOICE:=job1~job0}`, `{1:SHORTANSWER:=job1, job0}` (Moodle's syntax, `\` escapes).
fn cloze_fields(text: &str) -> Vec<Field> {
    let unescape = |s: &str| {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            out.push(if c == '\\' { chars.next().unwrap() } else { c });
        }
        out
    };
    let mut fields = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{1:") {
        let body = &rest[start + 3..];
        let mut end = 0;
        let bytes = body.as_bytes();
        while bytes[end] != b'}' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        let (kind, answer) = body[..end].split_once(':').unwrap();
        fields.push(match kind {
            "NUMERICAL" => {
                let (value, margin) = answer.strip_prefix('=').unwrap().rsplit_once(':').unwrap();
                Field::Number(value.parse().unwrap(), margin.parse().unwrap())
            }
            "MULTICHOICE" => {
                let options: Vec<&str> = answer.split('~').collect();
                let right = options.iter().find_map(|o| o.strip_prefix('=')).unwrap();
                Field::Choice(unescape(right), options.iter().map(|o| unescape(o.trim_start_matches('='))).collect())
            }
            "SHORTANSWER" => Field::Text(unescape(answer.strip_prefix('=').unwrap())),
            other => panic!("unknown Cloze field {other}"),
        });
        rest = &body[end..];
    }
    fields
}

/// What a question's field must be: the kernel's answer from a fresh run, the problem's margin.
fn expected_field(q: &Question, result: &RunResult, events: &[Event], zero: u64) -> Field {
    let kernel = kernel_answer(q, result, events, zero);
    match &q.answer {
        // The margin the book's own check allows either side (`Answer::check`).
        Answer::Number { value, tol, .. } => Field::Number(kernel.parse().unwrap(), tol.abs.max(tol.rel * value.abs())),
        Answer::Choice { choices, .. } => Field::Choice(kernel, choices.clone()),
        Answer::Order { .. } => Field::Text(kernel),
    }
}

fn assert_field(got: &Field, want: &Field, what: &str) {
    match (got, want) {
        (Field::Number(v, m), Field::Number(wv, wm)) => {
            assert!((v - wv).abs() < 1e-9 && (m - wm).abs() < 1e-4, "{what}: bank has {v} ± {m}, the kernel {wv} ± {wm}");
        }
        _ => assert_eq!(got, want, "{what}"),
    }
}

/// The chapter, level and seed of a variant, from its identifier `runqueue-CHAPTER-LEVEL-SEED`.
fn variant(id: &str) -> (&'static runqueue_homework::Chapter, Level, u64) {
    let mut parts = id.strip_prefix("runqueue-").unwrap().rsplitn(3, '-');
    let seed = parts.next().unwrap().parse().unwrap();
    let level = Level::parse(parts.next().unwrap()).unwrap();
    (runqueue_homework::Chapter::find(parts.next().unwrap()).unwrap(), level, seed)
}

/// The question banks a course imports: each file parses as XML; every variant of the Moodle
/// bank is a Cloze question whose fields, read as Moodle reads them, hold the kernel's answer
/// of a fresh run with the problem's margin; every QTI item's scoring accepts exactly that
/// (its `varequal`, or the range `vargte`..`varlte`); each QTI group draws one of its items.
#[test]
fn the_question_banks_hold_the_kernels_answers() {
    let bank = |chapter: &str, format: &str| {
        let out = runqueue(&["homework", "--chapter", chapter, "--seed", "11", "--count", "2", "--bank", format]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let mut checked = 0;
    for chapter in CHAPTERS {
        let moodle = bank(chapter.name, "moodle");
        let doc = roxmltree::Document::parse(&moodle).unwrap_or_else(|e| panic!("{}: Moodle XML: {e}", chapter.name));
        let questions: Vec<_> = doc.root_element().children().filter(|n| n.has_tag_name("question")).collect();
        let categories = questions.iter().filter(|q| q.attribute("type") == Some("category")).count();
        assert_eq!(categories, 3, "{}: a category per level", chapter.name);
        for q in questions.iter().filter(|q| q.attribute("type") == Some("cloze")) {
            let child = |name: &str| q.children().find(|n| n.has_tag_name(name)).unwrap();
            let id = child("idnumber").text().unwrap();
            let text = child("questiontext").children().find(|n| n.has_tag_name("text")).unwrap().text().unwrap();
            let (c, level, seed) = variant(id);
            let p = make(c, level, seed).unwrap();
            let (result, events, zero) = rerun(&p);
            let fields = cloze_fields(text);
            assert_eq!(fields.len(), p.questions.len(), "{id}: {text}");
            for (field, q) in fields.iter().zip(&p.questions) {
                assert_field(field, &expected_field(q, &result, &events, zero), &format!("{id} {}", q.slot));
                checked += 1;
            }
        }
        assert_eq!(questions.len(), 3 + 3 * 2, "{}: two variants per level", chapter.name);

        let qti = bank(chapter.name, "qti");
        let doc = roxmltree::Document::parse(&qti).unwrap_or_else(|e| panic!("{}: QTI: {e}", chapter.name));
        let groups: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("section") && n.attribute("ident") != Some("root_section")).collect();
        assert!(!groups.is_empty());
        for group in groups {
            let picks = group.descendants().find(|n| n.has_tag_name("selection_number")).unwrap().text().unwrap();
            assert_eq!(picks, "1", "{:?}", group.attribute("ident"));
            for item in group.children().filter(|n| n.has_tag_name("item")) {
                let ident = item.attribute("ident").unwrap();
                let (id, number) = ident.rsplit_once("-q").unwrap();
                let (c, level, seed) = variant(id);
                let p = make(c, level, seed).unwrap();
                let q = &p.questions[number.parse::<usize>().unwrap() - 1];
                let (result, events, zero) = rerun(&p);
                let condition = item.descendants().find(|n| n.has_tag_name("conditionvar")).unwrap();
                let value = |tag: &str| condition.descendants().find(|n| n.has_tag_name(tag)).map(|n| n.text().unwrap().to_string());
                let got = match &q.answer {
                    Answer::Number { .. } => {
                        let (low, high): (f64, f64) = (value("vargte").unwrap().parse().unwrap(), value("varlte").unwrap().parse().unwrap());
                        // The range is centred on the kernel's exact value, `varequal` is it as printed.
                        assert!((value("varequal").unwrap().parse::<f64>().unwrap() - (low + high) / 2.0).abs() <= printed(&q.answer), "{ident}");
                        Field::Number((low + high) / 2.0, (high - low) / 2.0)
                    }
                    Answer::Choice { .. } => {
                        let right = value("varequal").unwrap();
                        let labels: Vec<_> = item.descendants().filter(|n| n.has_tag_name("response_label")).collect();
                        let text = |l: &roxmltree::Node| l.descendants().find(|n| n.has_tag_name("mattext")).unwrap().text().unwrap().to_string();
                        let chosen = labels.iter().find(|l| l.attribute("ident") == Some(right.as_str())).map(text).unwrap();
                        Field::Choice(chosen, labels.iter().map(text).collect())
                    }
                    Answer::Order { .. } => Field::Text(value("varequal").unwrap()),
                };
                let want = expected_field(q, &result, &events, zero);
                if let (Field::Number(v, m), Field::Number(wv, wm)) = (&got, &want) {
                    assert!((v - wv).abs() <= printed(&q.answer) && (m - wm).abs() < 1e-3, "{ident}: QTI range {v} ± {m}, the kernel {wv} ± {wm}");
                } else {
                    assert_eq!(got, want, "{ident}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= CHAPTERS.len() * 2 * 3 * 3 * 2, "{checked} answers checked");
    assert_refused(&["homework", "--chapter", "sjf", "--seed", "1", "--bank", "xls"], 125, "unknown question bank format");
}
