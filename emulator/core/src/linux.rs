//! Booting Linux the way QEMU's `-kernel` and U-Boot's `booti` do: a kernel `Image` with the
//! RISC-V image header (Linux's `Documentation/arch/riscv/boot-image-header.rst`) is copied to
//! the start of RAM plus its `text_offset` and entered there in S-mode, and an initramfs is
//! placed in RAM and named in `/chosen` (`linux,initrd-start`, `linux,initrd-end`). For an
//! `Image` the machine also gives Linux a random seed drawn from the command line's `seed=`
//! (`/chosen/rng-seed`, so Linux's randomness is the same on every run with the same arguments)
//! and a buffer for the Runqueue init to hand its trace to the trace device through
//! (`/reserved-memory/runqueue-trace`, `no-map`: Linux never touches it), through which the init
//! also gets its words from the machine (`kernel_words`).

use crate::elf::{Image, Segment};
use crate::error::LoadError;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;

/// `magic2` at offset 56 of the header: "RSC\x05".
const MAGIC2: [u8; 4] = *b"RSC\x05";
const HEADER_SIZE: usize = 64;
/// Where the kernel goes when the header asks for no offset: 2 MiB into RAM, as QEMU puts it.
const DEFAULT_TEXT_OFFSET: u64 = 2 << 20;
/// The trace hand-over buffer below the FDT.
pub const TRACE_BUFFER: u64 = 1 << 20;
/// Where the trace buffer starts: a 2 MiB boundary, so the RAM below it is whole 2 MiB pages,
/// the only size Linux 6.1 maps a region with large pages (else 4 KiB ones: a third longer boot).
const LARGE_PAGE: u64 = 2 << 20;
const PAGE: u64 = 4096;

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// Whether `file` starts with a RISC-V Linux image header.
pub fn is_image(file: &[u8]) -> bool {
    file.len() >= HEADER_SIZE && file[56..60] == MAGIC2
}

/// What Linux needs on its command line before the reader's words on this machine: its
/// console is the SBI's, and boot messages would bury the workload's table.
/// `scripts/linux-qemu.sh` reads this line to boot QEMU with the same words.
const MACHINE_WORDS: &str = "console=hvc0 quiet";

/// Linux's own boot parameters that the machine puts on Linux's command line. Every other word
/// is the Runqueue init's: the init asks the trace device for the whole line once it starts, so
/// runs that differ only in the init's words boot the same way up to that request, and one
/// snapshot taken there starts them all (`snapshot.rs`). A word Linux would read that is not
/// here never reaches it, and the init refuses it by name.
pub const LINUX_WORDS: &[&str] = &[
    "console", "earlycon", "quiet", "loglevel", "ignore_loglevel", "initcall_debug", "isolcpus", "nohz_full", "nohz",
    "rcu_nocbs", "irqaffinity", "threadirqs", "skew_tick", "preempt", "maxcpus", "nr_cpus", "nosoftlockup", "mitigations",
];

/// The words of `bootargs` that go on Linux's own command line (`LINUX_WORDS`), in order.
pub fn kernel_words(bootargs: &str) -> String {
    let linux = |w: &&str| LINUX_WORDS.contains(&w.split_once('=').map_or(*w, |(k, _)| k));
    bootargs.split_ascii_whitespace().filter(linux).collect::<alloc::vec::Vec<_>>().join(" ")
}

/// The command line `kernel` boots with for the reader's `words`, the same from the CLI and the
/// page: Linux's console words first for an `Image`, the words alone for an ELF.
pub fn command_line(kernel: &[u8], words: &str) -> String {
    if is_image(kernel) { format!("{MACHINE_WORDS} {}", words.trim()) } else { words.trim().to_string() }
}

/// The kernel as one segment at `ram_start + text_offset`, as long as the image says it is in
/// memory (its `image_size`, which counts the BSS), checked against the space below `limit`.
pub fn parse(file: &[u8], ram_start: u64, limit: u64) -> Result<Image, LoadError> {
    let offset = match u64_at(file, 8) {
        0 => DEFAULT_TEXT_OFFSET,
        o if o % PAGE == 0 => o,
        _ => return Err(LoadError::KernelImage("its text_offset is not a multiple of 4 KiB")),
    };
    let mem_size = u64_at(file, 16).max(file.len() as u64);
    let paddr = ram_start + offset;
    if paddr.checked_add(mem_size).is_none_or(|end| end > limit) {
        return Err(LoadError::KernelImage("it does not fit in RAM below the initrd and the device tree (give the machine more RAM)"));
    }
    let segment = Segment { paddr, vaddr: paddr, offset: 0, file_size: file.len(), mem_size };
    Ok(Image { entry: paddr, segments: vec![segment], tohost: None, fromhost: None })
}

/// What the top of RAM holds besides the FDT, from the top down: the trace buffer (Linux only),
/// then the initrd.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    pub initrd: Option<core::ops::Range<u64>>,
    pub trace_buffer: Option<core::ops::Range<u64>>,
    pub rng_seed: Option<[u8; 64]>,
}

impl Extras {
    /// Lays the extras out below `fdt_addr`; `ram_start` bounds the initrd.
    pub fn place(fdt_addr: u64, ram_start: u64, initrd_len: Option<u64>, linux: bool, bootargs: &str) -> Result<Extras, LoadError> {
        let mut top = fdt_addr;
        let trace_buffer = linux.then(|| {
            top = (top - TRACE_BUFFER) & !(LARGE_PAGE - 1);
            top..top + TRACE_BUFFER
        });
        let initrd = match initrd_len {
            Some(len) => {
                let start = top.checked_sub(len).map(|s| s & !(PAGE - 1)).filter(|&s| s >= ram_start + DEFAULT_TEXT_OFFSET);
                let start = start.ok_or(LoadError::Initrd("it does not fit in RAM (give the machine more RAM)"))?;
                Some(start..start + len)
            }
            None => None,
        };
        let rng_seed = linux.then(|| seed_bytes(seed_of(bootargs)));
        Ok(Extras { initrd, trace_buffer, rng_seed })
    }

    /// The lowest address the extras and the FDT take.
    pub fn bottom(&self, fdt_addr: u64) -> u64 {
        [self.initrd.as_ref(), self.trace_buffer.as_ref()].into_iter().flatten().map(|r| r.start).fold(fdt_addr, u64::min)
    }
}

/// The `seed=` word of the command line (0 when absent or not a number).
fn seed_of(bootargs: &str) -> u64 {
    bootargs.split_ascii_whitespace().filter_map(|w| w.strip_prefix("seed=")).find_map(|v| v.parse().ok()).unwrap_or(0)
}

/// 64 bytes of SplitMix64 from `seed`: what Linux mixes into its pool at boot.
fn seed_bytes(mut state: u64) -> [u8; 64] {
    let mut out = [0; 64];
    for chunk in out.chunks_exact_mut(8) {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out
}
