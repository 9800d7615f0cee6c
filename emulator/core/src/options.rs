//! The machine a kernel command line asks for (`docs/platform.md`, "Machine options"): its
//! words (`runqueue-machine-settings`: `smp=`, `seed=`, `trace=`, `cache.*=`, `host=`,
//! `host.*=`) read by the one settings parser, the rest left to the kernel. Every caller (the
//! CLI's run, grade and bench, the page's wasm session, the kernel's claims) builds its machine
//! from one of these with [`Machine::boot`], so the same command line builds the same machine
//! everywhere. The words stay in the FDT's `bootargs`, where the kernel reads them too.

use crate::cache::CacheConfig;
use crate::error::LoadError;
use crate::host::HostConfig;
use crate::machine::{Config, Machine};
use alloc::format;
use alloc::string::{String, ToString};
use runqueue_machine_settings::{self as words, OWNED, TABLES, cache};
use runqueue_settings::{ArgError, Settings, Tables};

/// What the boot arguments ask of the machine, and what the caller adds (RAM, turn length).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineOptions {
    /// The kernel command line, as the guest will find it in the FDT.
    pub bootargs: String,
    /// The harts: `smp=`, or 1.
    pub harts: usize,
    /// `cache.kb=`, `cache.line=`, `cache.ways=`, `cache.miss_ns=`; no cache by default.
    pub cache: CacheConfig,
    /// `host=` and `host.*=`; no host (`host=bare`) by default.
    pub host: HostConfig,
    /// `trace=off` leaves the host's events out of the trace too.
    pub trace: bool,
    pub ram_bytes: u64,
    pub quantum: u64,
}

impl MachineOptions {
    /// Reads the machine's words from `bootargs` and leaves the others to the kernel. A bad
    /// value, an unknown `cache.` or `host.` word, a word given twice, or a cache or host the
    /// machine cannot have is an error that names the word.
    pub fn parse(bootargs: &str) -> Result<MachineOptions, LoadError> {
        let s = Settings::parse_part(bootargs, TABLES, OWNED).map_err(bad)?;
        let harts = s.get(&words::SMP) as usize;
        let cache = CacheConfig {
            kb: s.get(&cache::KB) as u32,
            line: s.get(&cache::LINE) as u32,
            ways: s.get(&cache::WAYS) as u32,
            miss_ns: s.get(&cache::MISS_NS) as u32,
        };
        cache.check().map_err(LoadError::MachineOption)?;
        let host = HostConfig::from_settings(&s, harts).map_err(LoadError::MachineOption)?;
        let defaults = Config::default();
        Ok(MachineOptions {
            bootargs: bootargs.trim().to_string(),
            harts,
            cache,
            host,
            trace: s.get(&words::TRACE),
            ram_bytes: defaults.ram_bytes,
            quantum: defaults.quantum,
        })
    }

    /// The same machine with `harts` harts, whatever `smp=` says (`runqueue run --smp`, the
    /// page's harts control); a command line without `smp=` gets `smp=harts`, so the kernel
    /// runs tasks on all of them.
    pub fn with_harts(mut self, harts: usize) -> MachineOptions {
        if !self.bootargs.split_ascii_whitespace().any(|w| w.starts_with("smp=")) {
            self.bootargs = format!("{} smp={harts}", self.bootargs).trim().to_string();
        }
        self.harts = harts;
        self
    }

    /// The configuration [`Machine::new`] builds from.
    pub fn config(&self) -> Config {
        Config {
            harts: self.harts,
            ram_bytes: self.ram_bytes,
            bootargs: self.bootargs.clone(),
            quantum: self.quantum,
            cache: self.cache,
            host: self.host,
            trace: self.trace,
        }
    }
}

impl Machine {
    /// Builds the machine `options` describe and loads `kernel` into it (an ELF, or a Linux
    /// `Image` with its `initrd`).
    pub fn boot(kernel: &[u8], initrd: Option<&[u8]>, options: &MachineOptions) -> Result<Machine, LoadError> {
        Machine::with_initrd(options.config(), kernel, initrd)
    }
}

fn bad(e: ArgError) -> LoadError {
    LoadError::MachineOption(e.show(&Tables(TABLES)).to_string())
}
