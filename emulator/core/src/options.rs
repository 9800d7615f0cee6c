//! The machine settings a kernel command line carries (`docs/platform.md`, "Machine options"):
//! `smp=`, the `cache.*=` words and the host's (`host=`, `host.*=`). The CLI, the page's wasm session and the grader all read
//! them here, so the same command line builds the same machine everywhere. The kernel accepts
//! the same words and ignores the cache's, so they reach the guest unchanged.

use crate::cache::CacheConfig;
use crate::error::LoadError;
use crate::host::HostConfig;
use alloc::format;
use alloc::string::String;

/// The words this parser owns, in the order of `MachineOptions::parse`'s slots.
const WORDS: [&str; 5] = ["smp", "cache.kb", "cache.line", "cache.ways", "cache.miss_ns"];

/// What the boot arguments ask of the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MachineOptions {
    /// `smp=`: the number of harts, when the command line names it. Its range is checked when
    /// the machine is built ([`LoadError::Harts`]).
    pub harts: Option<usize>,
    /// `cache.kb=`, `cache.line=`, `cache.ways=`, `cache.miss_ns=`; no cache by default.
    pub cache: CacheConfig,
    /// `host=` and `host.*=`; no host (`host=bare`) by default.
    pub host: HostConfig,
}

impl MachineOptions {
    /// Reads the machine's words from `bootargs` and leaves the others to the kernel. A value
    /// that is not a plain decimal number, an unknown `cache.` word, a word given twice, or a
    /// cache the machine cannot have is an error that names the word.
    pub fn parse(bootargs: &str) -> Result<MachineOptions, LoadError> {
        let mut options = MachineOptions { harts: None, cache: CacheConfig::default(), host: HostConfig::BARE };
        let mut seen = [false; WORDS.len()];
        for word in bootargs.split_ascii_whitespace() {
            let Some((key, value)) = word.split_once('=') else { continue };
            let Some(slot) = WORDS.iter().position(|w| *w == key) else {
                if key.starts_with("cache.") {
                    return Err(bad(format!("{word}: unknown cache setting; the cache's are {}", WORDS[1..].join(", "))));
                }
                continue;
            };
            if core::mem::replace(&mut seen[slot], true) {
                return Err(bad(format!("{key} is given twice")));
            }
            // Digits only: `parse` alone would take a leading `+`, which the kernel refuses.
            let number: u32 = match value.parse() {
                Ok(n) if value.bytes().all(|b| b.is_ascii_digit()) => n,
                _ => return Err(bad(format!("{word}: the value must be a whole number in decimal digits"))),
            };
            match slot {
                0 => options.harts = Some(number as usize),
                1 => options.cache.kb = number,
                2 => options.cache.line = number,
                3 => options.cache.ways = number,
                _ => options.cache.miss_ns = number,
            }
        }
        options.cache.check().map_err(bad)?;
        options.host = HostConfig::parse(bootargs, options.harts.unwrap_or(1)).map_err(bad)?;
        Ok(options)
    }
}

fn bad(why: String) -> LoadError {
    LoadError::MachineOption(why)
}
