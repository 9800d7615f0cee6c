//! Unit tests that need the crate's internals; programs are hand-encoded with `enc`.

mod enc;
mod smoke;
