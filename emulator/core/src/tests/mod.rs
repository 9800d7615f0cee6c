//! Unit tests that need the crate's internals; programs are hand-encoded with `enc`.

mod enc;
mod smoke;
mod decode;
mod traps;
mod util;
mod sbi;
mod paging;
mod elf;
mod fdt;
mod devices;
mod csr;
mod machine;
mod pmp;
mod cache;
mod host;
mod speed;
mod jit;
mod linux;
