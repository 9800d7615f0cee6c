//! Everything that can go wrong before the guest runs, or when the embedder touches the machine.

use alloc::string::String;
use core::fmt;

/// Why a machine could not be built, loaded, restored, or accessed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// `Config::harts` outside 1..=8.
    Harts(usize),
    /// `Config::ram_bytes` not a multiple of 4 KiB between the minimum and maximum.
    RamSize { bytes: u64, min: u64, max: u64 },
    /// `Config::quantum` outside 1..=max.
    Quantum { quantum: u64, max: u64 },
    /// The computer running the emulator could not allocate this much RAM.
    OutOfMemory(u64),
    /// The boot arguments cannot go into the FDT.
    BootArgs(&'static str),
    /// A machine setting (`smp=`, `cache.*=`, or `Config::cache`) the machine cannot have.
    MachineOption(String),
    /// The file is shorter than an ELF header or lacks the magic.
    NotElf,
    /// `EI_CLASS` is not ELFCLASS64.
    Class(u8),
    /// `EI_DATA` is not little-endian.
    Endianness(u8),
    /// `EI_VERSION` / `e_version` is not 1.
    Version(u32),
    /// `e_machine` is not RISC-V (243).
    Machine(u16),
    /// `e_type` is not ET_EXEC.
    FileType(u16),
    /// A header table does not fit in the file, or its entry size is wrong.
    HeaderTable { what: &'static str, offset: u64, count: u64, entry_size: u64, file_size: u64 },
    /// More program headers than the loader accepts.
    TooManySegments { count: u64, max: u64 },
    /// A loadable segment's file bytes lie outside the file.
    SegmentOutsideFile { index: usize, offset: u64, size: u64, file_size: u64 },
    /// A loadable segment has more file bytes than memory bytes.
    FileSizeExceedsMemSize { index: usize, file_size: u64, mem_size: u64 },
    /// A loadable segment maps memory outside RAM.
    SegmentOutsideRam { index: usize, start: u64, end: u64, ram_start: u64, ram_end: u64 },
    /// Two loadable segments overlap.
    Overlap { first: usize, second: usize },
    /// A loadable segment covers the FDT's place at the top of RAM.
    OverlapsFdt { index: usize, fdt_start: u64, fdt_end: u64 },
    /// The ELF has no loadable segment.
    NoSegments,
    /// The entry point is not inside any loaded segment (flags do not matter, as on QEMU).
    Entry(u64),
    /// The symbol table or its string table is malformed.
    Symbols(&'static str),
    /// The generated FDT does not fit its space.
    FdtTooLarge { size: u64, max: u64 },
    /// An access by the embedder to physical memory outside RAM.
    PhysRange { addr: u64, len: u64, ram_start: u64, ram_end: u64 },
    /// A Linux kernel `Image` that cannot be booted, and why.
    KernelImage(&'static str),
    /// An initrd that cannot be loaded, and why.
    Initrd(&'static str),
    /// A machine snapshot's bytes that cannot be read, and why.
    Snapshot(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LoadError::*;
        match self {
            Harts(n) => write!(f, "{n} harts requested; the machine has 1 to 8"),
            RamSize { bytes, min, max } => write!(
                f,
                "RAM size {bytes} bytes is invalid: it must be a multiple of 4096 between {} MiB and {} MiB",
                min >> 20,
                max >> 20
            ),
            Quantum { quantum, max } => write!(f, "quantum {quantum} is invalid: it must be between 1 and {max} instructions"),
            OutOfMemory(bytes) => write!(f, "cannot allocate {} MiB of guest RAM on this computer", bytes >> 20),
            BootArgs(why) => write!(f, "boot arguments rejected: {why}"),
            MachineOption(why) => write!(f, "bad machine setting: {why}"),
            NotElf => write!(f, "not an ELF file (too short or bad magic)"),
            Class(c) => write!(f, "ELF class {c} is not 64-bit (2)"),
            Endianness(d) => write!(f, "ELF data encoding {d} is not little-endian (1)"),
            Version(v) => write!(f, "ELF version {v} is not 1"),
            Machine(m) => write!(f, "ELF machine {m} is not RISC-V (243)"),
            FileType(t) => write!(f, "ELF type {t} is not an executable (ET_EXEC = 2)"),
            HeaderTable { what, offset, count, entry_size, file_size } => write!(
                f,
                "{what} table ({count} entries of {entry_size} bytes at offset {offset:#x}) does not fit the {file_size}-byte file or has the wrong entry size"
            ),
            TooManySegments { count, max } => write!(f, "{count} program headers; at most {max} are accepted"),
            SegmentOutsideFile { index, offset, size, file_size } => write!(
                f,
                "program header {index} takes file bytes {offset:#x}..{:#x}, past the end of the {file_size}-byte file",
                offset.saturating_add(*size)
            ),
            FileSizeExceedsMemSize { index, file_size, mem_size } => {
                write!(f, "program header {index} has file size {file_size:#x} larger than its memory size {mem_size:#x}")
            }
            SegmentOutsideRam { index, start, end, ram_start, ram_end } => write!(
                f,
                "program header {index} maps {start:#x}..{end:#x} outside RAM {ram_start:#x}..{ram_end:#x}"
            ),
            Overlap { first, second } => write!(f, "program headers {first} and {second} overlap in memory"),
            OverlapsFdt { index, fdt_start, fdt_end } => write!(
                f,
                "program header {index} overlaps the device tree's place {fdt_start:#x}..{fdt_end:#x} at the top of RAM (give the machine more RAM)"
            ),
            NoSegments => write!(f, "the ELF has no loadable segment"),
            Entry(e) => write!(f, "entry point {e:#x} is not inside any loaded segment"),
            Symbols(why) => write!(f, "malformed symbol table: {why}"),
            FdtTooLarge { size, max } => write!(f, "the device tree needs {size} bytes but only {max} are reserved"),
            PhysRange { addr, len, ram_start, ram_end } => write!(
                f,
                "physical range {addr:#x}..{:#x} is outside RAM {ram_start:#x}..{ram_end:#x}",
                addr.saturating_add(*len)
            ),
            KernelImage(why) => write!(f, "cannot boot the Linux kernel image: {why}"),
            Initrd(why) => write!(f, "cannot load the initrd: {why}"),
            Snapshot(why) => write!(f, "cannot resume the machine's snapshot: {why}"),
        }
    }
}
