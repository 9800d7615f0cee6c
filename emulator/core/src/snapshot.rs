//! A booted machine kept to start later runs from. A Linux init asks the machine for its words
//! (the trace device's words register) before anything depends on them, so every run whose
//! boot is the same (kernel, initrd, device tree, machine) is the same machine up to that
//! request. The embedder arms [`Machine::park_at_words`], takes a [`Snapshot`] where the
//! machine parks, and [`Machine::resume`]s a copy of it for each run with that run's words.
//! A resumed run is the cold run to the byte (`tests/linux.rs` here and in `emulator/cli`): the
//! snapshot holds every bit of guest-visible state, the TLBs included; only decoded code is
//! left behind, which is a cache.

use crate::bus::{Bus, PAGE_SIZE};
use crate::code::CodeCache;
use crate::error::LoadError;
use crate::hart::Hart;
use crate::host::Host;
use crate::jit::Compiler;
use crate::machine::{BootMode, Config, Fault, Layout, Machine};
use crate::options::MachineOptions;
use alloc::boxed::Box;
use alloc::format;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// A parked machine. RAM is kept sparsely (the pages that are not zero), so a snapshot of a
/// Linux boot holds its 8-odd MiB, not the machine's whole RAM.
#[derive(Clone)]
pub struct Snapshot {
    pub(crate) config: Config,
    pub(crate) boot_mode: BootMode,
    pub(crate) harts: Vec<Hart>,
    /// The bus without its RAM; its console and trace hold everything the machine printed
    /// before it parked.
    pub(crate) bus: Bus,
    pub(crate) pages: Vec<(u32, Box<[u8]>)>,
    pub(crate) clock: u64,
    pub(crate) cur: usize,
    pub(crate) pos: u64,
    pub(crate) fault: Option<Fault>,
    pub(crate) host: Option<Box<Host>>,
    pub(crate) host_trace: bool,
    /// The boot key of the runs it can start ([`Machine::boot_key`]).
    pub(crate) key: u64,
}

/// FNV-1a, 64 bits, over each part followed by a separator.
fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for part in parts {
        for &b in part.iter().chain(&[0xff]) {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// Whether a RAM page is all zero, a word at a time: a byte at a time, scanning a 128 MiB
/// machine's RAM took most of the 45 ms a snapshot cost.
fn is_zero(page: &[u8]) -> bool {
    page.chunks_exact(8).all(|w| u64::from_ne_bytes(w.try_into().unwrap_or_default()) == 0)
}

impl Machine {
    /// What a run's boot up to the init's request for its words depends on: the kernel, the
    /// initrd, the device tree (Linux's own words, the harts, RAM, the random seed) and the
    /// machine's settings. Runs with the same key may start from one snapshot.
    pub fn boot_key(config: &Config, kernel: &[u8], initrd: Option<&[u8]>) -> Result<u64, LoadError> {
        let layout = Layout::of(config, kernel, initrd)?;
        let machine = Config { bootargs: alloc::string::String::new(), ..config.clone() };
        Ok(fnv(&[kernel, initrd.unwrap_or_default(), &layout.tree, format!("{machine:?}").as_bytes()]))
    }

    /// From now on, the machine stops when its guest asks for its words: [`Machine::run`]
    /// returns `Stop::Budget` with [`Machine::is_parked`] true, until [`Machine::unpark`].
    pub fn park_at_words(&mut self) {
        self.bus.park_at_words = true;
    }

    pub fn is_parked(&self) -> bool {
        self.bus.parked.is_some()
    }

    /// Gives a parked machine's guest the words of `bootargs` (the whole command line) and
    /// lets it run on; the machine parks no more.
    pub fn unpark(&mut self, bootargs: &str) {
        self.bus.park_at_words = false;
        self.config.bootargs = bootargs.into();
        self.bus.words = bootargs.as_bytes().to_vec();
        if let Some(addr) = self.bus.parked.take() {
            // The register checked the address when it was written.
            self.bus.give_words(addr);
        }
    }

    /// The parked machine, which boots as `key` says ([`Machine::boot_key`]), with `console`
    /// and `trace`: what the embedder has taken from it so far (see [`Machine::take_console`]).
    pub fn snapshot(&mut self, key: u64, console: &[u8], trace: &[u8]) -> Snapshot {
        let ram = core::mem::take(&mut self.bus.ram);
        let mut bus = self.bus.clone();
        self.bus.ram = ram;
        bus.console.splice(0..0, console.iter().copied());
        bus.trace.splice(0..0, trace.iter().copied());
        let pages = self
            .bus
            .ram
            .chunks_exact(PAGE_SIZE as usize)
            .enumerate()
            .filter(|(_, page)| !is_zero(page))
            .map(|(i, page)| (i as u32, Box::from(page)))
            .collect();
        Snapshot {
            config: self.config.clone(),
            boot_mode: self.boot_mode,
            harts: self.harts.clone(),
            bus,
            pages,
            clock: self.clock,
            cur: self.cur,
            pos: self.pos,
            fault: self.fault.clone(),
            host: self.host.clone(),
            host_trace: self.host_trace,
            key,
        }
    }

    /// A machine that goes on from `snapshot` with the words of `bootargs`, its console and
    /// trace holding what the snapshot's machine printed before it parked, not yet taken. It
    /// runs interpreted until given a compiler ([`Machine::set_compiler`]).
    pub fn resume(snapshot: &Snapshot, bootargs: &str) -> Result<Machine, LoadError> {
        let ram_bytes = snapshot.config.ram_bytes;
        let mut bus = snapshot.bus.clone();
        if !bus.fresh_ram(ram_bytes) {
            return Err(LoadError::OutOfMemory(ram_bytes));
        }
        for (i, page) in &snapshot.pages {
            let at = *i as usize * PAGE_SIZE as usize;
            bus.ram[at..at + page.len()].copy_from_slice(page);
        }
        let mut machine = Machine {
            config: snapshot.config.clone(),
            boot_mode: snapshot.boot_mode,
            harts: snapshot.harts.clone(),
            bus,
            code: CodeCache::new(ram_bytes),
            clock: snapshot.clock,
            cur: snapshot.cur,
            pos: snapshot.pos,
            fault: snapshot.fault.clone(),
            host: snapshot.host.clone(),
            host_trace: snapshot.host_trace,
        };
        machine.unpark(bootargs);
        Ok(machine)
    }
}

impl Snapshot {
    /// A snapshot of a machine without a modelled host, from its parts (`snapshot_bytes.rs`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_parts(
        config: Config,
        boot_mode: BootMode,
        harts: Vec<Hart>,
        bus: Bus,
        pages: Vec<(u32, Box<[u8]>)>,
        clock: u64,
        cur: usize,
        pos: u64,
        fault: Option<Fault>,
        key: u64,
    ) -> Snapshot {
        Snapshot { config, boot_mode, harts, bus, pages, clock, cur, pos, fault, host: None, host_trace: false, key }
    }

    /// The boot key of the runs it can start.
    pub fn key(&self) -> u64 {
        self.key
    }
}

/// The snapshots an embedder keeps (a process, a page's Worker), the most recently used first.
pub struct Snapshots {
    kept: Vec<(u64, Arc<Snapshot>)>,
    cap: usize,
}

impl Snapshots {
    /// Keeps at most `cap` snapshots (a Linux boot's is about 8 MiB).
    pub const fn new(cap: usize) -> Snapshots {
        Snapshots { kept: Vec::new(), cap }
    }

    pub fn has(&self, key: u64) -> bool {
        self.kept.iter().any(|(k, _)| *k == key)
    }

    fn find(&mut self, key: u64) -> Option<Arc<Snapshot>> {
        let at = self.kept.iter().position(|(k, _)| *k == key)?;
        let entry = self.kept.remove(at);
        let snapshot = entry.1.clone();
        self.kept.insert(0, entry);
        Some(snapshot)
    }

    /// Keeps `snapshot` under its key, the most recently used.
    pub fn keep(&mut self, snapshot: Snapshot) -> Arc<Snapshot> {
        let key = snapshot.key;
        self.kept.retain(|(k, _)| *k != key);
        let snapshot = Arc::new(snapshot);
        self.kept.insert(0, (key, snapshot.clone()));
        self.kept.truncate(self.cap);
        snapshot
    }
}

/// A run's machine, started from a snapshot when one boots the same way; else booted cold,
/// and then parked where its init asks for its words, so that the snapshot can be kept.
pub struct Started {
    pub machine: Machine,
    /// The key to keep the snapshot under when the machine parks (a cold Linux boot).
    keep_as: Option<u64>,
    /// Started from a snapshot.
    pub resumed: bool,
    /// The compiled tier, held back from a cold Linux boot until it parks (`set_compiler`).
    held: Option<Box<dyn Compiler>>,
}

impl Started {
    /// Linux (an `Image`) resumes from `snapshots` when they hold its boot key, after `load`
    /// has had the chance to add it (the CLI reads its files there); anything else boots cold.
    pub fn new(
        kernel: &[u8],
        initrd: Option<&[u8]>,
        options: &MachineOptions,
        snapshots: &mut Snapshots,
        load: impl FnOnce(u64, &mut Snapshots),
    ) -> Result<Started, LoadError> {
        if !crate::linux::is_image(kernel) {
            return Ok(Started { machine: Machine::boot(kernel, initrd, options)?, keep_as: None, resumed: false, held: None });
        }
        let key = Machine::boot_key(&options.config(), kernel, initrd)?;
        if !snapshots.has(key) {
            load(key, snapshots);
        }
        if let Some(snapshot) = snapshots.find(key) {
            return Ok(Started { machine: Machine::resume(&snapshot, &options.bootargs)?, keep_as: None, resumed: true, held: None });
        }
        let mut machine = Machine::boot(kernel, initrd, options)?;
        // A modelled host's state is not kept: such a machine always boots cold.
        if options.host.enabled {
            return Ok(Started { machine, keep_as: None, resumed: false, held: None });
        }
        machine.park_at_words();
        Ok(Started { machine, keep_as: Some(key), resumed: false, held: None })
    }

    /// After each `run`: if the machine has parked, keeps its snapshot (`console` and `trace`:
    /// what the embedder has taken from it) and lets it go on; returns the snapshot kept.
    pub fn keep_if_parked(&mut self, snapshots: &mut Snapshots, console: &[u8], trace: &[u8]) -> Option<Arc<Snapshot>> {
        let key = self.keep_as.filter(|_| self.machine.is_parked())?;
        let kept = snapshots.keep(self.machine.snapshot(key, console, trace));
        let bootargs = self.machine.config.bootargs.clone();
        self.machine.unpark(&bootargs);
        self.keep_as = None;
        if let Some(compiler) = self.held.take() {
            self.machine.set_compiler(Some(compiler));
        }
        Some(kept)
    }

    /// Hot code is compiled by `compiler` from now on (`None`: everything is interpreted); a
    /// cold Linux boot gets it only once it has parked. The boot is code that runs a few times:
    /// the loops that grow hot in it (`memset`, string copies) run a few instructions a call,
    /// so compiling them cost the boot more than it saved (`linux/README.md`, "Speed").
    pub fn set_compiler(&mut self, compiler: Option<Box<dyn Compiler>>) {
        match self.keep_as {
            Some(_) => self.held = compiler,
            None => self.machine.set_compiler(compiler),
        }
    }
}
