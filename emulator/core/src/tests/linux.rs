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
    assert_eq!(buf % (2 << 20), 0, "the trace buffer starts on a 2 MiB boundary: the RAM below it is whole large pages");
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

/// An Image that spins a while, asks the trace device for its words at `at` (the trace
/// hand-over buffer), loads their first eight bytes into s5, spins again, and shuts down.
fn asks_for_words(at: u64) -> Vec<u8> {
    let mut a = Asm::default();
    let spin = |a: &mut Asm| {
        a.li(T2, 5000);
        let top = a.here();
        a.emit(addi(T2, T2, -1));
        let here = a.here();
        a.emit(bne(T2, ZERO, top - here));
    };
    a.emit(jal(ZERO, 64)).at(64);
    spin(&mut a);
    a.li(T0, crate::bus::TRACE_BASE as i64).li(T1, at as i64);
    a.emit(sd(T1, T0, 0x18)).emit(ld(S5, T1, 0));
    spin(&mut a);
    sbi_exit(&mut a, 0);
    let mut bytes = a.bytes;
    let size = bytes.len() as u64;
    bytes[16..24].copy_from_slice(&size.to_le_bytes());
    bytes[48..56].copy_from_slice(b"RISCV\0\0\0");
    bytes[56..60].copy_from_slice(b"RSC\x05");
    bytes
}

fn words_config(words: &str) -> Config {
    Config { bootargs: alloc::format!("console=hvc0 quiet isolcpus=1 {words}"), harts: 2, ..Config::default() }
}

fn buffer_of(config: &Config) -> u64 {
    (RAM + config.ram_bytes - crate::FDT_FROM_RAM_END - crate::linux::TRACE_BUFFER) & !((2 << 20) - 1)
}

/// Linux's command line holds only Linux's own words; the init gets the whole line from the
/// trace device when it asks, and a machine parked at that request, saved to bytes and
/// resumed with other words, runs on as the cold machine with those words does.
#[test]
fn the_init_gets_its_words_from_the_machine_and_a_parked_machine_resumes_from_bytes() {
    let (first, other) = (words_config("workload=spin"), words_config("nice=5 trace=off"));
    let kernel = asks_for_words(buffer_of(&first));
    let mut cold = Machine::new(other.clone(), &kernel).unwrap();
    finish(&mut cold);
    assert_eq!(prop(&tree(&cold), "/chosen", "bootargs"), b"console=hvc0 quiet isolcpus=1\0");
    assert_eq!(cold.reg(0, S5 as usize).to_le_bytes(), *b"console=", "the init read the whole line");
    let mut words = alloc::vec![0; other.bootargs.len() + 1];
    cold.read_phys(buffer_of(&other), &mut words).unwrap();
    assert_eq!(&words[..other.bootargs.len()], other.bootargs.as_bytes());
    assert_eq!(words[other.bootargs.len()], 0, "NUL-terminated");

    let mut parked = Machine::new(first.clone(), &kernel).unwrap();
    parked.park_at_words();
    assert_eq!(parked.run(1_000_000), crate::Stop::Budget);
    assert!(parked.is_parked());
    let at = parked.instret();
    assert_eq!(parked.run(1_000_000), crate::Stop::Budget, "a parked machine stays where it is");
    assert_eq!(parked.instret(), at);
    let bytes = parked.snapshot(7, b"", b"").to_bytes().unwrap();
    let snapshot = crate::Snapshot::from_bytes(&bytes).unwrap();
    let mut resumed = Machine::resume(&snapshot, &other.bootargs).unwrap();
    finish(&mut resumed);
    for r in 0..32 {
        assert_eq!(resumed.reg(0, r), cold.reg(0, r), "x{r}");
    }
    assert_eq!((resumed.instret(), resumed.time_ns()), (cold.instret(), cold.time_ns()));
    assert_eq!(Machine::boot_key(&first, &kernel, None).unwrap(), Machine::boot_key(&other, &kernel, None).unwrap());
    let isolated_elsewhere = Config { bootargs: "console=hvc0 quiet isolcpus=0 workload=spin".into(), ..first.clone() };
    assert_ne!(Machine::boot_key(&first, &kernel, None).unwrap(), Machine::boot_key(&isolated_elsewhere, &kernel, None).unwrap());
}

/// A machine parked where its init asks for its words.
fn parked(config: &Config) -> Machine {
    let mut m = Machine::new(config.clone(), &asks_for_words(buffer_of(config))).unwrap();
    m.park_at_words();
    m.run(1_000_000);
    assert!(m.is_parked());
    m
}

/// Bytes that are not a whole snapshot are refused with a reason, whatever is wrong with them.
#[test]
fn snapshot_bytes_that_are_cut_short_or_garbled_are_refused() {
    let mut m = parked(&words_config("workload=spin"));
    let bytes = m.snapshot(7, b"boot", b"").to_bytes().unwrap();
    assert!(crate::Snapshot::from_bytes(&bytes).is_ok());
    for cut in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
        let e = crate::Snapshot::from_bytes(&bytes[..cut]).err().unwrap_or_else(|| panic!("{cut} bytes accepted"));
        assert!(matches!(e, LoadError::Snapshot(_)), "{cut}: {e}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(crate::Snapshot::from_bytes(&longer).is_err(), "trailing bytes");
    let mut garbled = bytes.clone();
    garbled[3] ^= 1;
    assert!(alloc::format!("{}", crate::Snapshot::from_bytes(&garbled).err().unwrap()).contains("not a snapshot"));
}

/// A snapshot keeps every page that holds a non-zero byte, wherever in the page it is, and no
/// page that is all zero.
#[test]
fn a_snapshot_keeps_each_non_zero_byte_and_no_zero_page() {
    let config = words_config("workload=spin");
    let mut m = parked(&config);
    let before = m.snapshot(7, b"", b"").pages.len();
    let (first, last) = (crate::bus::RAM_BASE + (64 << 20), crate::bus::RAM_BASE + (80 << 20) + 4095);
    m.write_phys(first, &[1]).unwrap();
    m.write_phys(last, &[0x80]).unwrap();
    let snapshot = m.snapshot(7, b"", b"");
    assert_eq!(snapshot.pages.len(), before + 2, "one page for each byte");
    assert!(snapshot.pages.iter().all(|(_, page)| page.iter().any(|&b| b != 0)), "no zero page");
    let resumed = Machine::resume(&snapshot, &config.bootargs).unwrap();
    let mut byte = [0];
    resumed.read_phys(first, &mut byte).unwrap();
    assert_eq!(byte, [1]);
    resumed.read_phys(last, &mut byte).unwrap();
    assert_eq!(byte, [0x80]);
}

/// A cold Linux boot runs interpreted up to its park, however hot its loops grow, and the
/// compiler it was given compiles what runs after; a run resumed from its snapshot compiles from
/// the start. Either way the run ends as it would interpreted.
#[test]
fn a_cold_boot_compiles_only_once_it_has_parked() {
    let options = crate::MachineOptions::parse("console=hvc0 quiet isolcpus=1 workload=spin smp=2").unwrap();
    let kernel = asks_for_words(buffer_of(&options.config()));
    let mut plain = Machine::new(options.config(), &kernel).unwrap();
    finish(&mut plain);
    let mut snapshots = crate::Snapshots::new(1);
    for resumed in [false, true] {
        let asked = alloc::rc::Rc::new(core::cell::Cell::new(0));
        let mut run = crate::Started::new(&kernel, None, &options, &mut snapshots, |_, _| {}).unwrap();
        assert_eq!(run.resumed, resumed);
        run.set_compiler(Some(alloc::boxed::Box::new(super::jit::Idle(asked.clone()))));
        while !resumed && !run.machine.is_parked() {
            assert_eq!(run.machine.run(1000), crate::Stop::Budget);
        }
        assert_eq!(asked.get(), 0, "nothing compiled before the park");
        assert_eq!(run.keep_if_parked(&mut snapshots, b"", b"").is_some(), !resumed);
        finish(&mut run.machine);
        assert!(asked.get() > 0, "the loop after the park was compiled (resumed: {resumed})");
        assert_eq!((run.machine.reg(0, S5 as usize), run.machine.instret()), (plain.reg(0, S5 as usize), plain.instret()));
    }
}
