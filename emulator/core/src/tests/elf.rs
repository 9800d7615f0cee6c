//! Every loader and configuration error, with its message.

use super::enc::*;
use super::util::*;
use crate::{Config, LoadError, Machine};
use alloc::string::ToString;
use alloc::vec::Vec;

fn good() -> Vec<u8> {
    let mut a = Asm::default();
    a.exit(0);
    elf(KERNEL, &a.bytes, 0, &[])
}

fn set(f: &mut [u8], at: usize, bytes: &[u8]) {
    f[at..at + bytes.len()].copy_from_slice(bytes);
}

/// Program header field offsets (header 0 at 64).
const PH: usize = 64;
const P_VADDR: usize = PH + 16;
const P_FILESZ: usize = PH + 32;
const P_MEMSZ: usize = PH + 40;

fn load(f: &[u8]) -> LoadError {
    match Machine::new(Config::default(), f) {
        Err(e) => e,
        Ok(_) => panic!("loaded"),
    }
}

/// Adds a second program header copying the first, then applies `edit` to it.
fn with_second_segment(edit: impl FnOnce(&mut [u8])) -> Vec<u8> {
    let mut f = good();
    let first = f[PH..PH + 56].to_vec();
    set(&mut f, PH + 56, &first);
    set(&mut f, 56, &2u16.to_le_bytes());
    edit(&mut f[PH + 56..PH + 112]);
    f
}

#[test]
fn header_errors() {
    assert_eq!(load(b"\x7fEL"), LoadError::NotElf);
    assert_eq!(load(&[0u8; 64]), LoadError::NotElf);
    let cases: [(usize, &[u8], LoadError); 6] = [
        (4, &[1], LoadError::Class(1)),
        (5, &[2], LoadError::Endianness(2)),
        (6, &[0], LoadError::Version(0)),
        (18, &62u16.to_le_bytes(), LoadError::Machine(62)),
        (16, &3u16.to_le_bytes(), LoadError::FileType(3)),
        (56, &65u16.to_le_bytes(), LoadError::TooManySegments { count: 65, max: 64 }),
    ];
    for (at, bytes, err) in cases {
        let mut f = good();
        set(&mut f, at, bytes);
        assert_eq!(load(&f), err);
    }
    let mut f = good();
    let len = f.len() as u64;
    set(&mut f, 32, &len.to_le_bytes()); // phoff past the end
    assert!(matches!(load(&f), LoadError::HeaderTable { what: "program header", .. }));
    let mut f = good();
    set(&mut f, 54, &32u16.to_le_bytes()); // wrong phentsize
    assert!(matches!(load(&f), LoadError::HeaderTable { entry_size: 32, .. }));
}

#[test]
fn segment_errors_name_the_segment() {
    let mut f = good();
    set(&mut f, P_FILESZ, &0x10_0000u64.to_le_bytes());
    set(&mut f, P_MEMSZ, &0x10_0000u64.to_le_bytes());
    assert!(matches!(load(&f), LoadError::SegmentOutsideFile { index: 0, .. }));

    let mut f = good();
    set(&mut f, P_MEMSZ, &4u64.to_le_bytes());
    assert!(matches!(load(&f), LoadError::FileSizeExceedsMemSize { index: 0, mem_size: 4, .. }));

    let f = with_second_segment(|ph| ph[24..32].copy_from_slice(&0x9000_0000u64.to_le_bytes()));
    let e = load(&f);
    assert_eq!(
        e.to_string(),
        "program header 1 maps 0x90000000..0x90002000 outside RAM 0x80000000..0x88000000"
    );
    let f = with_second_segment(|ph| ph[24..32].copy_from_slice(&(u64::MAX - 4).to_le_bytes()));
    assert!(matches!(load(&f), LoadError::SegmentOutsideRam { index: 1, .. }));

    let f = with_second_segment(|ph| ph[24..32].copy_from_slice(&(KERNEL + 0x1000).to_le_bytes()));
    assert_eq!(load(&f), LoadError::Overlap { first: 0, second: 1 });

    let f = with_second_segment(|ph| ph[24..32].copy_from_slice(&(RAM + (128 << 20) - 0x1000).to_le_bytes()));
    assert!(matches!(load(&f), LoadError::SegmentOutsideRam { .. }));
    let f = with_second_segment(|ph| ph[24..32].copy_from_slice(&(RAM + (126 << 20)).to_le_bytes()));
    assert!(matches!(load(&f), LoadError::OverlapsFdt { index: 1, .. }), "{}", load(&f));

    let mut f = good();
    set(&mut f, PH, &6u32.to_le_bytes()); // PT_PHDR: nothing loadable
    assert_eq!(load(&f), LoadError::NoSegments);

    let mut f = good();
    set(&mut f, 24, &(KERNEL + 0x3000).to_le_bytes());
    assert_eq!(load(&f), LoadError::Entry(KERNEL + 0x3000));
}

/// Segment flags do not decide what is loaded or where the entry may be, as on QEMU, Spike and
/// TinyEMU: an M-mode test suite's linker script puts `.text.init` and `.tohost` in one
/// `PT_LOAD` whose flags come out empty, and such a program must run.
#[test]
fn an_entry_in_a_segment_without_flags_runs() {
    for flags in [0u32, 6] {
        let mut f = good();
        set(&mut f, PH + 4, &flags.to_le_bytes());
        let mut m = Machine::new(Config::default(), &f).unwrap_or_else(|e| panic!("flags {flags}: {e}"));
        assert_eq!(m.pc(0), KERNEL);
        assert_eq!(finish(&mut m).0, 0);
    }
}

#[test]
fn entry_is_translated_from_virtual_to_physical() {
    let mut f = good();
    set(&mut f, P_VADDR, &0xffff_ffc0_0020_0000u64.to_le_bytes());
    set(&mut f, 24, &0xffff_ffc0_0020_0000u64.to_le_bytes());
    let mut m = Machine::new(Config::default(), &f).unwrap();
    assert_eq!(m.pc(0), KERNEL);
    assert_eq!(finish(&mut m).0, 0);
}

#[test]
fn symbol_table_errors() {
    let f = elf(KERNEL, &[0x73, 0, 0, 0], 0, &[("tohost", KERNEL + 0x1000)]);
    let m = Machine::new(Config::default(), &f).unwrap();
    assert_eq!(m.boot_mode(), crate::BootMode::Machine, "a tohost symbol means M-mode");
    let shoff = u64::from_le_bytes(f[40..48].try_into().unwrap()) as usize;
    let mut bad = f.clone();
    set(&mut bad, shoff + 64 + 24, &(f.len() as u64).to_le_bytes()); // symtab offset past the end
    assert!(matches!(load(&bad), LoadError::Symbols(_)));
    let mut bad = f.clone();
    set(&mut bad, shoff + 64 + 40, &9u32.to_le_bytes()); // string table index out of range
    assert!(matches!(load(&bad), LoadError::Symbols(_)));
    let tohost_outside = elf(RAM, &[0x73, 0, 0, 0], 0, &[("tohost", 0x1000)]);
    assert_eq!(load(&tohost_outside), LoadError::Symbols("tohost lies outside RAM"));
}

#[test]
fn config_errors() {
    let f = good();
    let bad = |c: Config| Machine::new(c, &f).err().expect("rejected");
    assert_eq!(bad(Config { harts: 0, ..Config::default() }), LoadError::Harts(0));
    assert_eq!(bad(Config { harts: 9, ..Config::default() }), LoadError::Harts(9));
    assert!(matches!(bad(Config { ram_bytes: 1 << 20, ..Config::default() }), LoadError::RamSize { .. }));
    assert!(matches!(bad(Config { ram_bytes: (64 << 20) + 1, ..Config::default() }), LoadError::RamSize { .. }));
    assert!(matches!(bad(Config { quantum: 0, ..Config::default() }), LoadError::Quantum { .. }));
    assert!(matches!(bad(Config { bootargs: "a\0b".into(), ..Config::default() }), LoadError::BootArgs(_)));
    let e = bad(Config { harts: 9, ..Config::default() }).to_string();
    assert_eq!(e, "9 harts requested; the machine has 1 to 8");
}

#[test]
fn host_memory_access_is_checked() {
    let mut m = Machine::new(Config::default(), &good()).unwrap();
    let mut buf = [0u8; 4];
    assert!(matches!(m.read_phys(0x1000, &mut buf), Err(LoadError::PhysRange { .. })));
    assert!(matches!(m.write_phys(RAM + (128 << 20) - 2, &buf), Err(LoadError::PhysRange { .. })));
    m.write_phys(RAM + 0x100, b"abcd").unwrap();
    m.read_phys(RAM + 0x100, &mut buf).unwrap();
    assert_eq!(&buf, b"abcd");
    assert_eq!((m.reg(5, 1), m.pc(9), m.csr(3, 0x300)), (0, 0, None), "absent harts read as nothing");
}
