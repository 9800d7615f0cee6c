//! A booted machine kept to start later runs from. A Linux init asks the machine for its words
//! (the trace device's words register) before anything depends on them, so every run whose
//! boot is the same (kernel, initrd, device tree, machine) is the same machine up to that
//! request. The embedder arms [`Machine::park_at_words`], takes a [`Snapshot`] where the
//! machine parks, and [`Machine::resume`]s a copy of it for each run with that run's words.
//! A resumed run is the cold run to the byte (`tests/snapshot.rs`): the snapshot holds every
//! bit of guest-visible state, the TLBs included; only decoded code is left behind, which is
//! a cache.

use crate::bus::{Bus, PAGE_SIZE};
use crate::code::CodeCache;
use crate::error::LoadError;
use crate::hart::Hart;
use crate::host::Host;
use crate::machine::{BootMode, Config, Fault, Layout, Machine};
use alloc::boxed::Box;
use alloc::format;
use alloc::vec::Vec;

/// A parked machine. RAM is kept sparsely (the pages that are not zero), so a snapshot of a
/// Linux boot holds its 20-odd MiB, not the machine's whole RAM.
#[derive(Clone)]
pub struct Snapshot {
    config: Config,
    boot_mode: BootMode,
    harts: Vec<Hart>,
    /// The bus without its RAM; its console and trace hold everything the machine printed
    /// before it parked.
    bus: Bus,
    pages: Vec<(u32, Box<[u8]>)>,
    clock: u64,
    cur: usize,
    pos: u64,
    fault: Option<Fault>,
    host: Option<Box<Host>>,
    host_trace: bool,
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

    /// The parked machine, with `console` and `trace`: what the embedder has taken from it so
    /// far (see [`Machine::take_console`]).
    pub fn snapshot(&mut self, console: &[u8], trace: &[u8]) -> Snapshot {
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
            .filter(|(_, page)| page.iter().any(|&b| b != 0))
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
        }
    }

    /// A machine that goes on from `snapshot` with the words of `bootargs`, its console and
    /// trace holding what the snapshot's machine printed before it parked, not yet taken. It
    /// runs interpreted until given a compiler ([`Machine::set_compiler`]).
    pub fn resume(snapshot: &Snapshot, bootargs: &str) -> Result<Machine, LoadError> {
        let ram_bytes = snapshot.config.ram_bytes;
        let mut bus = snapshot.bus.clone();
        bus.ram = Bus::new(ram_bytes, snapshot.harts.len()).ok_or(LoadError::OutOfMemory(ram_bytes))?.ram;
        for (i, page) in &snapshot.pages {
            let at = *i as usize * PAGE_SIZE as usize;
            bus.ram[at..at + page.len()].copy_from_slice(page);
        }
        bus.clear_code_pages();
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
    /// Bytes the snapshot holds (RAM pages and the rest of the machine, roughly).
    pub fn size(&self) -> usize {
        self.pages.len() * PAGE_SIZE as usize + self.bus.console.len() + self.bus.trace.len()
    }
}
