//! Unit tests that need the crate's internals; programs are hand-encoded with `enc`.

mod enc;
mod smoke;
mod decode;
mod traps;
mod util;
mod sbi;
mod paging;
