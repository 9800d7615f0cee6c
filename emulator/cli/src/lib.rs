//! The `runqueue` command's library: what the binary does, callable from tests and tools.

pub mod bench;
pub mod bench_linux;
pub mod bounded;
pub mod grade;
pub mod homework;
pub mod inputs;
pub mod linux;
pub mod mutant;
pub mod run;
pub mod settings;
pub mod tier;
pub mod vet;

use std::path::PathBuf;

/// Exit code for a problem on the host side: bad input, an unreadable file, an emulator fault.
pub const EXIT_ERROR: u8 = 125;
/// Exit code when the guest did not shut down within its instruction budget.
pub const EXIT_BUDGET: u8 = 124;

/// A failure the user can act on; `exit_code` tells scripts which kind it was.
#[derive(Debug)]
pub enum Failure {
    Input(String),
    Budget(String),
}

impl Failure {
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Input(_) => EXIT_ERROR,
            Failure::Budget(_) => EXIT_BUDGET,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Input(s) | Failure::Budget(s) => f.write_str(s),
        }
    }
}

/// Reads a file, saying which one when it cannot.
pub fn read_file(path: &PathBuf, what: &str) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::Input(format!("cannot read {what} {}: {e}", path.display())))
}

/// Writes a file, saying which one when it cannot.
pub fn write_file(path: &PathBuf, bytes: &[u8]) -> Result<(), Failure> {
    std::fs::write(path, bytes).map_err(|e| Failure::Input(format!("cannot write {}: {e}", path.display())))
}
