//! The FDT builder, checked by parsing the blob back with a small independent reader.

use super::enc::*;
use super::util::*;
use crate::fdt::{machine_tree, Builder, Layout};
use alloc::string::String;
use alloc::vec::Vec;

pub fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// Flattens a blob into (path, property, value) triples.
pub fn parse(blob: &[u8]) -> Vec<(String, String, Vec<u8>)> {
    assert_eq!(be32(blob, 0), 0xd00d_feed);
    assert_eq!(be32(blob, 4) as usize, blob.len(), "totalsize");
    assert_eq!((be32(blob, 20), be32(blob, 24)), (17, 16), "versions");
    let (structure, strings) = (be32(blob, 8) as usize, be32(blob, 12) as usize);
    assert_eq!(structure + be32(blob, 36) as usize, strings, "struct size");
    assert_eq!(strings + be32(blob, 32) as usize, blob.len(), "strings size");
    let cstr = |at: usize| {
        let end = blob[at..].iter().position(|&b| b == 0).unwrap();
        String::from_utf8(blob[at..at + end].to_vec()).unwrap()
    };
    let mut out = Vec::new();
    let mut path: Vec<String> = Vec::new();
    let mut at = structure;
    loop {
        let token = be32(blob, at);
        at += 4;
        match token {
            1 => {
                let name = cstr(at);
                at += (name.len() + 4) & !3;
                path.push(name);
            }
            2 => {
                path.pop();
            }
            3 => {
                let (len, name_off) = (be32(blob, at) as usize, be32(blob, at + 4) as usize);
                let value = blob[at + 8..at + 8 + len].to_vec();
                at += 8 + ((len + 3) & !3);
                out.push((path.join("/"), cstr(strings + name_off), value));
            }
            9 => break,
            t => panic!("bad token {t}"),
        }
    }
    assert!(path.is_empty(), "unbalanced nodes");
    out
}

pub fn prop<'a>(tree: &'a [(String, String, Vec<u8>)], path: &str, name: &str) -> &'a [u8] {
    &tree.iter().find(|(p, n, _)| p == path && n == name).unwrap_or_else(|| panic!("{path} {name}")).2
}

#[test]
fn builder_round_trips_values_and_shares_names() {
    let mut b = Builder::default();
    b.begin("");
    b.prop_u32("x", &[1, 2]);
    b.begin("child@1");
    b.prop_strs("s", &["ab", "c"]);
    b.prop_u32("x", &[7]);
    b.prop("empty", &[]);
    b.end();
    b.end();
    let blob = b.finish();
    let tree = parse(&blob);
    assert_eq!(prop(&tree, "", "x"), [0, 0, 0, 1, 0, 0, 0, 2]);
    assert_eq!(prop(&tree, "/child@1", "s"), b"ab\0c\0");
    assert_eq!(prop(&tree, "/child@1", "x"), [0, 0, 0, 7]);
    assert_eq!(prop(&tree, "/child@1", "empty"), b"");
    let strings = be32(&blob, 12) as usize;
    assert_eq!(&blob[strings..], b"x\0s\0empty\0", "each name stored once");
}

#[test]
fn machine_tree_has_the_platform_nodes() {
    let extras = crate::linux::Extras::default();
    let blob = machine_tree(&Layout { harts: 2, ram_base: RAM, ram_bytes: 64 << 20, bootargs: "sched=rr seed=3", extras: &extras });
    let tree = parse(&blob);
    assert_eq!(prop(&tree, "/chosen", "bootargs"), b"sched=rr seed=3\0");
    assert_eq!(prop(&tree, "/chosen", "stdout-path"), b"/soc/serial@10000000\0");
    assert_eq!(prop(&tree, "/memory@80000000", "reg"), [0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x04, 0, 0, 0]);
    for cpu in ["/cpus/cpu@0", "/cpus/cpu@1"] {
        assert_eq!(prop(&tree, cpu, "riscv,isa"), b"rv64imac_zicsr_zifencei\0");
        assert_eq!(prop(&tree, cpu, "mmu-type"), b"riscv,sv39\0");
        assert_eq!(prop(&tree, cpu, "timebase-frequency"), 10_000_000u32.to_be_bytes());
    }
    assert_eq!(prop(&tree, "/cpus", "timebase-frequency"), 10_000_000u32.to_be_bytes());
    assert_eq!(prop(&tree, "/soc/serial@10000000", "compatible"), b"ns16550a\0");
    assert!(prop(&tree, "/soc/clint@2000000", "compatible").starts_with(b"sifive,clint0\0"));
    assert!(prop(&tree, "/soc/test@100000", "compatible").windows(13).any(|w| w == b"sifive,test0\0"));
    assert_eq!(prop(&tree, "/soc/trace@10200000", "compatible"), b"runqueue,trace\0");
    assert_eq!(prop(&tree, "/soc/clint@2000000", "interrupts-extended").len(), 2 * 4 * 4);
}

#[test]
fn the_guest_gets_the_fdt_in_a1() {
    let mut a = Asm::default();
    a.emit(add(18, A0, 0)).emit(add(19, A1, 0)).emit(lw(20, A1, 0));
    sbi_exit(&mut a, 0);
    let mut m = smode(&a, crate::Config { bootargs: "hello".into(), ..crate::Config::default() });
    assert_eq!(finish(&mut m).0, 0);
    assert_eq!(m.reg(0, 18), 0, "a0 = hart id");
    assert_eq!(m.reg(0, 19), m.fdt_addr());
    assert_eq!(m.fdt_addr(), RAM + (128 << 20) - (2 << 20));
    assert_eq!(m.reg(0, 20) as u32, 0xedfe_0dd0, "the magic, read little-endian");
    let mut blob = alloc::vec![0u8; 4096];
    m.read_phys(m.fdt_addr(), &mut blob).unwrap();
    let size = be32(&blob, 4) as usize;
    assert_eq!(prop(&parse(&blob[..size]), "/chosen", "bootargs"), b"hello\0");
}
