//! Runqueue's machine for the browser. The book's Web Worker drives a [`Session`] in slices:
//! it runs the emulator, collects the console and the trace, and parses both with
//! `runqueue-report`, the same code the CLI uses, so the page shows exactly what
//! `runqueue run` prints.

mod events;
#[cfg(target_arch = "wasm32")]
mod fresh_ram;
mod grading;
#[cfg(target_arch = "wasm32")]
mod tier;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static RAM: fresh_ram::FreshRam = fresh_ram::FreshRam::new();

pub use grading::Grading;

use runqueue_emu::{MachineOptions, Snapshot, Snapshots, Started, Stop};
use runqueue_report::{RunResult, chrome, console, ftrace, ftrace_raw, linux};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The Linux boots parked at their init's request for its words, this Worker's and those
    /// the page handed it (`keep_snapshot`): a reader's second run on the same kernel (and the
    /// same Linux words and harts) starts there, not from the kernel's first instruction.
    static SNAPSHOTS: RefCell<Snapshots> = const { RefCell::new(Snapshots::new(2)) };
}

/// How the last [`Session::run`] ended, as the Worker sees it.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The slice's instruction budget ran out; call `run` again to continue.
    Budget = 0,
    /// The guest shut down; see `exit_code`.
    Exit = 1,
    /// The machine stopped on a fault; see `fault`.
    Fault = 2,
}

/// One booted machine plus everything it has printed so far.
#[wasm_bindgen]
pub struct Session {
    started: Started,
    console: Vec<u8>,
    /// Complete trace lines, kept whole for the Perfetto download.
    trace: String,
    /// Trace bytes after the last newline, waiting for the rest of their line; or Linux's raw
    /// trace (`ftrace_raw`), waiting for the machine to stop.
    partial: Vec<u8>,
    /// Why Linux's raw trace could not be printed as its text.
    trace_error: Option<String>,
    /// Where the trace lines not yet handed out by `take_events` start: byte offset, line number.
    unread: (usize, usize),
    fault: Option<String>,
    harts: u32,
    /// Regions the compiled tier has compiled (see `tier.rs`).
    compiled: Rc<Cell<u32>>,
    /// The snapshot this session's boot left, until the Worker takes it.
    kept: Option<Arc<Snapshot>>,
}

#[wasm_bindgen]
impl Session {
    /// Boots `elf` on the machine the kernel command line `bootargs` asks for (`smp=`,
    /// `cache.*=`, `host=`, ...), read by the same parser and built by the same function as the
    /// CLI's. Anything wrong with the file or the configuration comes back as an error with the
    /// loader's message. Hot code runs in the compiled tier (`set_compiled_tier`).
    #[wasm_bindgen(constructor)]
    pub fn new(elf: &[u8], bootargs: &str) -> Result<Session, JsError> {
        Session::with_initrd(elf, None, bootargs)
    }

    /// [`Session::new`] for any kernel: an ELF, or a Linux `Image` with its initramfs, whose
    /// command line gets Linux's console words first, as `runqueue run --kernel` gives it.
    pub fn with_initrd(kernel: &[u8], initrd: Option<Box<[u8]>>, bootargs: &str) -> Result<Session, JsError> {
        let options = MachineOptions::parse(&runqueue_emu::command_line(kernel, bootargs)).map_err(|e| JsError::new(&format!("cannot boot: {e}")))?;
        let started = SNAPSHOTS
            .with_borrow_mut(|snapshots| Started::new(kernel, initrd.as_deref(), &options, snapshots, |_, _| {}))
            .map_err(|e| JsError::new(&format!("cannot boot this file: {e}")))?;
        let mut session = Session {
            started,
            console: Vec::new(),
            trace: String::new(),
            partial: Vec::new(),
            trace_error: None,
            unread: (0, 1),
            fault: None,
            harts: options.harts as u32,
            compiled: Rc::new(Cell::new(0)),
            kept: None,
        };
        session.set_compiled_tier(true, false)?;
        Ok(session)
    }

    /// Turns the compiled tier on or off (off: every instruction is interpreted). `eager`
    /// compiles a region at the first jump to its entry instead of after `jit::ROUNDS` rounds
    /// of `jit::HOT` jumps: slower, but it puts far more of a short run through compiled code,
    /// which is what the determinism test wants. Every way the run is the same to the byte; only its speed
    /// differs. Outside a browser (the native build) there is no tier to turn on.
    pub fn set_compiled_tier(&mut self, on: bool, eager: bool) -> Result<(), JsError> {
        #[cfg(target_arch = "wasm32")]
        let compiler: Option<Box<dyn runqueue_emu::jit::Compiler>> = match on {
            true => Some(Box::new(tier::WasmCompiler::new(self.compiled.clone(), eager).map_err(|e| JsError::new(&format!("no compiled tier: {e:?}")))?)),
            false => None,
        };
        #[cfg(not(target_arch = "wasm32"))]
        let compiler = {
            let _ = (on, eager);
            None
        };
        self.started.set_compiler(compiler);
        Ok(())
    }

    /// Keeps a snapshot of a Linux boot that an earlier Worker's session made (the bytes of its
    /// `take_snapshot`), so that a session booting the same way starts from it.
    pub fn keep_snapshot(bytes: &[u8]) -> Result<(), JsError> {
        let snapshot = Snapshot::from_bytes(bytes).map_err(|e| JsError::new(&e.to_string()))?;
        SNAPSHOTS.with_borrow_mut(|snapshots| snapshots.keep(snapshot));
        Ok(())
    }

    /// The snapshot this session's Linux boot left where its init asked for its words, as
    /// bytes for a later Worker's `keep_snapshot`; once, and only after it has parked.
    /// Whether the machine has parked and its snapshot waits for `take_snapshot`.
    pub fn has_snapshot(&self) -> bool {
        self.kept.is_some()
    }

    pub fn take_snapshot(&mut self) -> Option<Vec<u8>> {
        self.kept.take().and_then(|s| s.to_bytes())
    }

    /// Whether the session started from a snapshot of an earlier Linux boot.
    pub fn resumed(&self) -> bool {
        self.started.resumed
    }

    /// Regions of hot guest code compiled to WebAssembly since boot.
    pub fn compiled_regions(&self) -> u32 {
        self.compiled.get()
    }

    /// Runs at most about `budget` more instructions (all harts together).
    pub fn run(&mut self, budget: f64) -> Status {
        let stop = self.started.machine.run(budget.max(0.0) as u64);
        self.collect_trace();
        if self.started.machine.is_parked() {
            let trace = [self.trace.as_bytes(), &self.partial].concat();
            self.kept = SNAPSHOTS.with_borrow_mut(|snapshots| self.started.keep_if_parked(snapshots, &self.console, &trace));
            return Status::Budget;
        }
        match stop {
            Stop::Budget => Status::Budget,
            Stop::Exit(_) => Status::Exit,
            Stop::Fault(fault) => {
                self.fault = Some(format!("{fault}"));
                Status::Fault
            }
        }
    }

    /// Console bytes printed since the last call.
    pub fn take_console(&mut self) -> Vec<u8> {
        let fresh = self.started.machine.take_console();
        self.console.extend_from_slice(&fresh);
        fresh
    }

    /// Trace events completed since the last call, as a JSON array (see `events.rs`). Linux's
    /// trace (ftrace text, which its init hands over as the run ends) is read whole once the
    /// machine has stopped: its reader keeps state from line to line.
    pub fn take_events(&mut self) -> Result<String, JsError> {
        self.trace_ok()?;
        let (offset, line) = self.unread;
        let fresh = &self.trace[offset..];
        let json = if !linux::is_ftrace(&self.trace) {
            events::to_json(fresh, line)
        } else if self.started.machine.exit_code().is_some() && !fresh.is_empty() {
            linux::parse(&self.trace).map(|all| events::events_json(&all))
        } else {
            return Ok("[]".into());
        };
        let json = json.map_err(|e| JsError::new(&e.to_string()))?;
        self.unread = (self.trace.len(), line + fresh.lines().count());
        Ok(json)
    }

    /// Everything the console printed since boot (invalid UTF-8 replaced), for the grader.
    pub fn console_text(&mut self) -> String {
        self.take_console();
        String::from_utf8_lossy(&self.console).into_owned()
    }

    /// The whole trace so far, as the kernel's lines (`docs/trace.md`), for the grader.
    pub fn trace_text(&self) -> String {
        self.trace.clone()
    }

    pub fn push_input(&mut self, bytes: &[u8]) {
        self.started.machine.push_input(bytes);
    }

    /// Instructions retired so far, all harts (exact below 2^53).
    pub fn instret(&self) -> f64 {
        self.started.machine.instret() as f64
    }

    /// Emulated time in nanoseconds.
    pub fn time_ns(&self) -> f64 {
        self.started.machine.time_ns() as f64
    }

    pub fn exit_code(&self) -> Option<i32> {
        self.started.machine.exit_code()
    }

    /// What stopped the machine, after `run` returned `Status::Fault`.
    pub fn fault(&self) -> Option<String> {
        self.fault.clone()
    }

    /// The JSON of the console's RESULT line, byte for byte as the kernel printed it, or
    /// `undefined` when there is none yet. An error when the line does not match the schema.
    pub fn result_json(&self) -> Result<Option<String>, JsError> {
        let text = String::from_utf8_lossy(&self.console);
        let split = console::split(&text);
        let Some(json) = console::result_json(&split.console) else {
            return Ok(None);
        };
        RunResult::parse(json).map_err(|e| JsError::new(&e))?;
        Ok(Some(json.to_string()))
    }

    /// The whole trace so far in Chrome trace-event JSON, for Perfetto.
    pub fn chrome_trace(&self) -> Result<String, JsError> {
        let events = linux::parse_any(self.trace_ok()?).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(chrome::to_json(&events))
    }

    /// The whole trace so far as Linux's ftrace text, byte for byte what `runqueue run
    /// --ftrace` writes for the same run.
    pub fn ftrace_text(&self) -> Result<String, JsError> {
        ftrace::of_trace(self.trace_ok()?, self.harts).map_err(|e| JsError::new(&e.to_string()))
    }
}

impl Session {
    /// Moves the machine's trace bytes into `trace`, whole lines only. Linux's init hands its
    /// trace over in the ring buffer's binary form as the run ends: it becomes Linux's own text
    /// once the machine has stopped.
    fn collect_trace(&mut self) {
        let fresh = self.started.machine.take_trace();
        let raw = self.trace.is_empty() && (ftrace_raw::is_raw(&self.partial) || self.partial.is_empty() && ftrace_raw::is_raw(&fresh));
        if !raw {
            return events::append_whole_lines(&fresh, &mut self.partial, &mut self.trace);
        }
        self.partial.extend_from_slice(&fresh);
        if self.started.machine.exit_code().is_some() {
            match ftrace_raw::to_text(&self.partial) {
                Ok(text) => (self.trace, self.partial) = (text, Vec::new()),
                Err(e) => self.trace_error = Some(e.to_string()),
            }
        }
    }

    /// The trace so far, or why Linux's raw trace could not be printed.
    fn trace_ok(&self) -> Result<&str, JsError> {
        match &self.trace_error {
            Some(e) => Err(JsError::new(e)),
            None => Ok(&self.trace),
        }
    }
}
