// What a run of the CLI depends on besides its arguments. build.rs (which `include!`s this file)
// hashes it into the digest `runqueue inputs` prints; the book's figures and the determinism
// check keep runs by that digest (in ~/.cache/runqueue), so a clone elsewhere, or a rebuild of
// the same sources, reuses them, and a change to any of these runs them again.

/// Every crate the CLI is built from, by its folder from the root (tests/inputs.rs checks the
/// list against the path dependencies of their Cargo.toml files): each one's `src/`,
/// `Cargo.toml` and `build.rs` count.
pub const INPUT_CRATES: &[&str] = &["emulator/cli", "emulator/core", "emulator/jit-native", "emulator/settings", "homework", "labs/grader", "report", "settings"];

/// Files of the root that count: the workspace's profiles and the locked dependencies.
pub const INPUT_FILES: &[&str] = &["Cargo.toml", "Cargo.lock"];

/// What counts in a crate's folder.
pub const CRATE_PARTS: &[&str] = &["src", "Cargo.toml", "build.rs"];

/// FNV-1a, 128 bits: a stable digest with no dependency (for a cache key, not for security).
pub struct Digest(u128);

impl Default for Digest {
    fn default() -> Digest {
        Digest::new()
    }
}

impl Digest {
    pub fn new() -> Digest {
        Digest(0x6c62272e07bb014262b821756295c58d)
    }

    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u128;
            self.0 = self.0.wrapping_mul(0x0000000001000000000000000000013b);
        }
    }

    /// A named part: its name, its length, its bytes (so no two layouts hash alike).
    pub fn part(&mut self, name: &str, bytes: &[u8]) {
        self.update(name.as_bytes());
        self.update(&[0]);
        self.update(&(bytes.len() as u64).to_le_bytes());
        self.update(bytes);
    }

    pub fn hex(&self) -> String {
        format!("{:032x}", self.0)
    }
}
