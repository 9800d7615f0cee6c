//! Every module the compiler makes for real code validates, and has the shape the page's
//! loader expects (imports `env.memory`, exports `run: (i32) -> ()`). The regions come from
//! real runs: the teaching kernel on two harts and the benchmark guest, with a compiler
//! installed that builds each region's module, checks it and leaves the region to the
//! interpreter.
//!
//! The guests are the ones `make kernel` (or building the CLI) puts in the target folder.

use runqueue_emu::jit::{CompiledFn, Compiler, Kind, Region};
use runqueue_emu::{Config, Machine};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use wasmparser::{Parser, Payload, TypeRef, ValType, Validator};

#[derive(Default)]
struct Seen {
    regions: usize,
    ops: usize,
    kinds: Vec<Kind>,
    failures: Vec<String>,
}

struct Checker(Rc<RefCell<Seen>>);

impl Compiler for Checker {
    fn compile(&mut self, region: &Region) -> Option<CompiledFn> {
        let bytes = runqueue_jit_wasm::module(region);
        let mut seen = self.0.borrow_mut();
        seen.regions += 1;
        seen.ops += region.op_count();
        for (_, op) in region.blocks.iter().flat_map(|b| &b.ops) {
            if !seen.kinds.contains(&op.kind) {
                seen.kinds.push(op.kind);
            }
        }
        if let Err(e) = check(&bytes) {
            seen.failures.push(format!("{e}\nregion: {region:?}"));
        }
        None
    }

    fn reset(&mut self) {}

    // Every region a jump enters is checked, not only those a real run would compile.
    fn hot(&self) -> u8 {
        1
    }

    fn rounds(&self) -> u16 {
        1
    }
}

/// Validates the module and checks its interface.
fn check(bytes: &[u8]) -> Result<(), String> {
    Validator::new().validate_all(bytes).map_err(|e| format!("invalid module: {e}"))?;
    let (mut memory, mut run) = (false, false);
    for payload in Parser::new(0).parse_all(bytes) {
        match payload.map_err(|e| e.to_string())? {
            Payload::ImportSection(imports) => {
                for import in imports.into_imports() {
                    let import = import.map_err(|e| e.to_string())?;
                    memory |= (import.module, import.name) == ("env", "memory") && matches!(import.ty, TypeRef::Memory(_));
                }
            }
            Payload::TypeSection(types) => {
                let first = types.into_iter_err_on_gc_types().next().ok_or("no types")?.map_err(|e| e.to_string())?;
                if first.params() != [ValType::I32] || !first.results().is_empty() {
                    return Err(format!("function 0 has type {first:?}"));
                }
            }
            Payload::ExportSection(exports) => {
                for export in exports {
                    let export = export.map_err(|e| e.to_string())?;
                    run |= export.name == runqueue_jit_wasm::EXPORT_NAME && export.index == 0;
                }
            }
            _ => {}
        }
    }
    if memory && run { Ok(()) } else { Err(format!("imports env.memory: {memory}, exports run: {run}")) }
}

fn guest(name: &str) -> Vec<u8> {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("..");
    let path = target.join("riscv/riscv64imac-unknown-none-elf/release").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (build the guests with `make kernel` or `cargo build -p runqueue`)", path.display()))
}

fn regions_of(elf: &[u8], config: Config, budget: u64) -> Seen {
    let seen = Rc::new(RefCell::new(Seen::default()));
    let mut machine = Machine::new(config, elf).expect("the guest boots");
    machine.set_compiler(Some(Box::new(Checker(seen.clone()))));
    machine.run(budget);
    drop(machine);
    Rc::try_unwrap(seen).ok().expect("the machine is gone").into_inner()
}

fn assert_valid(what: &str, seen: &Seen, min_regions: usize) {
    assert!(seen.failures.is_empty(), "{what}: {} of {} modules fail:\n{}", seen.failures.len(), seen.regions, seen.failures[0]);
    assert!(seen.regions >= min_regions, "{what}: only {} regions were compiled", seen.regions);
    eprintln!("{what}: {} regions, {} ops, {} kinds valid", seen.regions, seen.ops, seen.kinds.len());
}

#[test]
fn kernel_regions_validate() {
    let config = Config { harts: 2, bootargs: "sched=cfs workload=fairness-unequal smp=2".into(), ..Config::default() };
    let seen = regions_of(&guest("runqueue-kernel"), config, 60_000_000);
    assert_valid("kernel", &seen, 50);
    // The kernel's hot code exercises every shape of the op table: loads, stores, branches,
    // jumps, W ops and the M extension's helpers.
    for kind in [Kind::Ld, Kind::Sd, Kind::Lbu, Kind::Sw, Kind::Bne, Kind::Jal, Kind::Jalr, Kind::Addiw, Kind::Mul, Kind::Divu] {
        assert!(seen.kinds.contains(&kind), "no region of the kernel holds {kind:?}");
    }
}

#[test]
fn bench_regions_validate() {
    let seen = regions_of(&guest("runqueue-bench"), Config::default(), 30_000_000);
    assert_valid("bench", &seen, 5);
}
