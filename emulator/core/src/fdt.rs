//! A small flattened-device-tree (DTB, version 17) builder and the machine's tree.

use alloc::vec::Vec;

const MAGIC: u32 = 0xd00d_feed;
const BEGIN_NODE: u32 = 1;
const END_NODE: u32 = 2;
const PROP: u32 = 3;
const END: u32 = 9;
const HEADER_SIZE: usize = 40;
const RESERVE_MAP_SIZE: usize = 16;

/// Builds the structure and strings blocks, then assembles a blob.
#[derive(Default)]
pub struct Builder {
    structure: Vec<u8>,
    strings: Vec<u8>,
}

impl Builder {
    fn word(&mut self, w: u32) {
        self.structure.extend_from_slice(&w.to_be_bytes());
    }

    fn pad(&mut self) {
        while !self.structure.len().is_multiple_of(4) {
            self.structure.push(0);
        }
    }

    pub fn begin(&mut self, name: &str) {
        self.word(BEGIN_NODE);
        self.structure.extend_from_slice(name.as_bytes());
        self.structure.push(0);
        self.pad();
    }

    pub fn end(&mut self) {
        self.word(END_NODE);
    }

    /// Offset of `name` in the strings block, adding it the first time.
    fn name_offset(&mut self, name: &str) -> u32 {
        let mut at = 0;
        while at < self.strings.len() {
            let len = self.strings[at..].iter().position(|&b| b == 0).unwrap_or(0);
            if &self.strings[at..at + len] == name.as_bytes() {
                return at as u32;
            }
            at += len + 1;
        }
        self.strings.extend_from_slice(name.as_bytes());
        self.strings.push(0);
        at as u32
    }

    pub fn prop(&mut self, name: &str, value: &[u8]) {
        let offset = self.name_offset(name);
        self.word(PROP);
        self.word(value.len() as u32);
        self.word(offset);
        self.structure.extend_from_slice(value);
        self.pad();
    }

    pub fn prop_u32(&mut self, name: &str, values: &[u32]) {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_be_bytes()).collect();
        self.prop(name, &bytes);
    }

    /// A `reg` with two address cells and two size cells.
    pub fn prop_reg(&mut self, base: u64, size: u64) {
        self.prop_u32("reg", &[(base >> 32) as u32, base as u32, (size >> 32) as u32, size as u32]);
    }

    /// A string list: each string NUL-terminated.
    pub fn prop_strs(&mut self, name: &str, values: &[&str]) {
        let mut bytes = Vec::new();
        for v in values {
            bytes.extend_from_slice(v.as_bytes());
            bytes.push(0);
        }
        self.prop(name, &bytes);
    }

    pub fn finish(mut self) -> Vec<u8> {
        self.word(END);
        let off_rsvmap = HEADER_SIZE;
        let off_struct = off_rsvmap + RESERVE_MAP_SIZE;
        let off_strings = off_struct + self.structure.len();
        let total = off_strings + self.strings.len();
        let header = [
            MAGIC,
            total as u32,
            off_struct as u32,
            off_strings as u32,
            off_rsvmap as u32,
            17,
            16,
            0,
            self.strings.len() as u32,
            self.structure.len() as u32,
        ];
        let mut blob: Vec<u8> = header.iter().flat_map(|w| w.to_be_bytes()).collect();
        blob.extend_from_slice(&[0; RESERVE_MAP_SIZE]);
        blob.extend_from_slice(&self.structure);
        blob.extend_from_slice(&self.strings);
        blob
    }
}

/// What the machine's tree describes.
pub struct Layout<'a> {
    pub harts: usize,
    pub ram_base: u64,
    pub ram_bytes: u64,
    pub bootargs: &'a str,
    /// The initrd, the random seed and the trace buffer of a Linux boot (`linux.rs`).
    pub extras: &'a crate::linux::Extras,
}

/// The device tree of the Runqueue machine (`docs/platform.md`).
pub fn machine_tree(layout: &Layout) -> Vec<u8> {
    use crate::bus::{CLINT_BASE, CLINT_SIZE, FINISHER_BASE, TRACE_BASE, UART_BASE, UART_SIZE};
    let mut b = Builder::default();
    b.begin("");
    b.prop_u32("#address-cells", &[2]);
    b.prop_u32("#size-cells", &[2]);
    b.prop_strs("compatible", &["runqueue,machine", "riscv-virtio"]);
    b.prop_strs("model", &["Runqueue RV64 machine"]);

    b.begin("chosen");
    b.prop_strs("bootargs", &[layout.bootargs]);
    let stdout = alloc::format!("/soc/serial@{UART_BASE:x}");
    b.prop_strs("stdout-path", &[&stdout]);
    let extras = layout.extras;
    if let Some(initrd) = &extras.initrd {
        let cells = |a: u64| [(a >> 32) as u32, a as u32];
        b.prop_u32("linux,initrd-start", &cells(initrd.start));
        b.prop_u32("linux,initrd-end", &cells(initrd.end));
    }
    if let Some(seed) = &extras.rng_seed {
        b.prop("rng-seed", seed);
    }
    b.end();

    if let Some(buffer) = &extras.trace_buffer {
        b.begin("reserved-memory");
        b.prop_u32("#address-cells", &[2]);
        b.prop_u32("#size-cells", &[2]);
        b.prop("ranges", &[]);
        b.begin("runqueue-trace");
        b.prop_reg(buffer.start, buffer.end - buffer.start);
        b.prop("no-map", &[]);
        b.end();
        b.end();
    }

    b.begin(&alloc::format!("memory@{:x}", layout.ram_base));
    b.prop_strs("device_type", &["memory"]);
    b.prop_reg(layout.ram_base, layout.ram_bytes);
    b.end();

    b.begin("cpus");
    b.prop_u32("#address-cells", &[1]);
    b.prop_u32("#size-cells", &[0]);
    b.prop_u32("timebase-frequency", &[crate::TIMEBASE_HZ]);
    let intc_phandle = |hart: usize| hart as u32 + 1;
    for hart in 0..layout.harts {
        b.begin(&alloc::format!("cpu@{hart}"));
        b.prop_strs("device_type", &["cpu"]);
        b.prop_u32("reg", &[hart as u32]);
        b.prop_strs("status", &["okay"]);
        b.prop_strs("compatible", &["riscv"]);
        b.prop_strs("riscv,isa", &["rv64imac_zicsr_zifencei"]);
        b.prop_strs("mmu-type", &["riscv,sv39"]);
        b.prop_u32("timebase-frequency", &[crate::TIMEBASE_HZ]);
        b.begin("interrupt-controller");
        b.prop_u32("#interrupt-cells", &[1]);
        b.prop("interrupt-controller", &[]);
        b.prop_strs("compatible", &["riscv,cpu-intc"]);
        b.prop_u32("phandle", &[intc_phandle(hart)]);
        b.end();
        b.end();
    }
    b.end();

    b.begin("soc");
    b.prop_u32("#address-cells", &[2]);
    b.prop_u32("#size-cells", &[2]);
    b.prop_strs("compatible", &["simple-bus"]);
    b.prop("ranges", &[]);

    b.begin(&alloc::format!("serial@{UART_BASE:x}"));
    b.prop_strs("compatible", &["ns16550a"]);
    b.prop_reg(UART_BASE, UART_SIZE);
    b.prop_u32("clock-frequency", &[3_686_400]);
    b.end();

    b.begin(&alloc::format!("clint@{CLINT_BASE:x}"));
    b.prop_strs("compatible", &["sifive,clint0", "riscv,clint0"]);
    b.prop_reg(CLINT_BASE, CLINT_SIZE);
    // Machine software (3) and timer (7) interrupts of each hart.
    let irqs: Vec<u32> = (0..layout.harts).flat_map(|h| [intc_phandle(h), 3, intc_phandle(h), 7]).collect();
    b.prop_u32("interrupts-extended", &irqs);
    b.end();

    b.begin(&alloc::format!("test@{FINISHER_BASE:x}"));
    b.prop_strs("compatible", &["sifive,test1", "sifive,test0", "syscon"]);
    b.prop_reg(FINISHER_BASE, 0x1000);
    b.end();

    b.begin(&alloc::format!("trace@{TRACE_BASE:x}"));
    b.prop_strs("compatible", &["runqueue,trace"]);
    b.prop_reg(TRACE_BASE, 0x1000);
    b.end();

    b.end(); // soc
    b.end(); // root
    b.finish()
}
