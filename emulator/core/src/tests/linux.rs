//! Booting a Linux `Image` (the RISC-V image header) with an initrd, as QEMU's `-kernel` and
//! `-initrd` do (`linux.rs`), and what the device tree tells such a kernel.

use super::enc::*;
use super::fdt::{be32, parse, prop};
use super::util::*;
use crate::{Config, LoadError, Machine};
use alloc::vec::Vec;

/// An Image whose code (after the 64-byte header, which starts with a jump over it) records
/// where it runs, a0 and a1, then shuts down.
fn image(text_offset: u64, bss: u64) -> Vec<u8> {
    let mut a = Asm::default();
    a.emit(jal(ZERO, 64)).at(64);
    a.emit(auipc(S2, 0)).emit(add(S3, A0, ZERO)).emit(add(S4, A1, ZERO));
    sbi_exit(&mut a, 0);
    let mut bytes = a.bytes;
    bytes[8..16].copy_from_slice(&text_offset.to_le_bytes());
    let size = bytes.len() as u64 + bss;
    bytes[16..24].copy_from_slice(&size.to_le_bytes());
    bytes[48..56].copy_from_slice(b"RISCV\0\0\0");
    bytes[56..60].copy_from_slice(b"RSC\x05");
    bytes
}

fn tree(m: &Machine) -> Vec<(alloc::string::String, alloc::string::String, Vec<u8>)> {
    let mut blob = alloc::vec![0u8; 64 << 10];
    m.read_phys(m.fdt_addr(), &mut blob).unwrap();
    let size = be32(&blob, 4) as usize;
    parse(&blob[..size])
}

fn cells64(b: &[u8]) -> u64 {
    b.iter().fold(0, |v, &x| v << 8 | x as u64)
}

fn with_seed(seed: u32) -> Config {
    Config { bootargs: alloc::format!("console=hvc0 seed={seed}"), ..Config::default() }
}

#[test]
fn an_image_runs_in_s_mode_two_mib_into_ram_with_the_fdt_and_its_initrd() {
    let initrd: Vec<u8> = (0..10_000u32).map(|i| (i * 7) as u8).collect();
    let mut m = Machine::with_initrd(with_seed(1), &image(0, 8192), Some(&initrd)).unwrap();
    assert_eq!(finish(&mut m).0, 0, "SBI calls work: the image is entered in S-mode");
    assert_eq!(m.reg(0, S2 as usize), RAM + (2 << 20) + 64, "entered at the image's start, 2 MiB into RAM");
    assert_eq!((m.reg(0, S3 as usize), m.reg(0, S4 as usize)), (0, m.fdt_addr()), "a0 = hart, a1 = FDT");
    let t = tree(&m);
    let (start, end) = (cells64(prop(&t, "/chosen", "linux,initrd-start")), cells64(prop(&t, "/chosen", "linux,initrd-end")));
    assert_eq!((end - start, start % 4096), (initrd.len() as u64, 0));
    let mut back = alloc::vec![0; initrd.len()];
    m.read_phys(start, &mut back).unwrap();
    assert_eq!(back, initrd, "the initrd is where the FDT says");
    let reg = prop(&t, "/reserved-memory/runqueue-trace", "reg");
    let (buf, len) = (cells64(&reg[..8]), cells64(&reg[8..]));
    assert_eq!(prop(&t, "/reserved-memory/runqueue-trace", "no-map"), b"");
    assert!(end <= buf && buf + len <= m.fdt_addr(), "initrd, then the trace buffer, then the FDT");
}

#[test]
fn linux_randomness_comes_from_seed_and_only_from_it() {
    let seed = |s| {
        let mut m = Machine::new(with_seed(s), &image(0, 0)).unwrap();
        finish(&mut m);
        prop(&tree(&m), "/chosen", "rng-seed").to_vec()
    };
    assert_eq!(seed(1).len(), 64);
    assert_eq!(seed(1), seed(1));
    assert_ne!(seed(1), seed(2));
}

#[test]
fn text_offset_moves_the_image_and_an_elf_gets_only_the_initrd() {
    let mut m = Machine::new(Config::default(), &image(4 << 20, 0)).unwrap();
    finish(&mut m);
    assert_eq!(m.reg(0, S2 as usize), RAM + (4 << 20) + 64);
    // The teaching kernel's machine is unchanged: an ELF gets no seed and no trace buffer.
    let mut a = Asm::default();
    sbi_exit(&mut a, 0);
    let elf = elf(KERNEL, &a.bytes, 0, &[]);
    let mut m = Machine::with_initrd(with_seed(1), &elf, Some(b"cpio")).unwrap();
    finish(&mut m);
    let t = tree(&m);
    assert!(t.iter().any(|(p, n, _)| p == "/chosen" && n == "linux,initrd-start"));
    assert!(!t.iter().any(|(p, n, _)| n == "rng-seed" || p.starts_with("/reserved-memory")));
    let plain = Machine::new(with_seed(1), &elf).unwrap();
    assert!(!tree(&plain).iter().any(|(_, n, _)| n.starts_with("linux,")));
}

#[test]
fn images_and_initrds_that_do_not_fit_are_refused_with_a_reason() {
    let small = Config { ram_bytes: 8 << 20, ..Config::default() };
    let refused = |kernel: &[u8], initrd: Option<&[u8]>| Machine::with_initrd(small.clone(), kernel, initrd).err();
    assert!(matches!(refused(&image(0, 16 << 20), None), Some(LoadError::KernelImage(_))), "BSS past RAM");
    assert!(matches!(refused(&image(0x1234, 0), None), Some(LoadError::KernelImage(_))), "unaligned text_offset");
    assert!(matches!(refused(&image(0, 0), Some(&alloc::vec![0; 6 << 20])), Some(LoadError::Initrd(_))), "initrd past RAM");
    // An initrd that fits but leaves the kernel no room below it.
    assert!(matches!(refused(&image(0, 3 << 20), Some(&alloc::vec![0; 2 << 20])), Some(LoadError::KernelImage(_))));
    let e = refused(&image(0, 16 << 20), None).unwrap();
    assert!(alloc::format!("{e}").contains("more RAM"), "{e}");
}
