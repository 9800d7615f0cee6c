//! The WebAssembly binary format, as much of it as a region needs: LEB128 numbers, sections,
//! and a function body writer that keeps track of how deeply its blocks nest, so branches
//! name their targets by the label a `block`/`loop` returned rather than by a counted depth.

use alloc::vec::Vec;

/// Opcodes (WebAssembly 1.0, section 5.4). Only those the emitter writes by name; the op
/// table (`ops.rs`) holds the arithmetic and comparison opcodes it needs as plain bytes.
pub mod op {
    pub const BLOCK: u8 = 0x02;
    pub const LOOP: u8 = 0x03;
    pub const IF: u8 = 0x04;
    pub const ELSE: u8 = 0x05;
    pub const END: u8 = 0x0b;
    pub const BR: u8 = 0x0c;
    pub const BR_TABLE: u8 = 0x0e;
    pub const CALL: u8 = 0x10;
    pub const DROP: u8 = 0x1a;
    pub const LOCAL_GET: u8 = 0x20;
    pub const LOCAL_SET: u8 = 0x21;
    pub const I32_LOAD: u8 = 0x28;
    pub const I64_LOAD: u8 = 0x29;
    pub const I64_STORE: u8 = 0x37;
    pub const I32_CONST: u8 = 0x41;
    pub const I64_CONST: u8 = 0x42;
    pub const I32_EQZ: u8 = 0x45;
    pub const I64_EQZ: u8 = 0x50;
    pub const I64_EQ: u8 = 0x51;
    pub const I64_NE: u8 = 0x52;
    pub const I64_LT_U: u8 = 0x54;
    pub const I64_GT_U: u8 = 0x56;
    pub const I32_ADD: u8 = 0x6a;
    pub const I32_SUB: u8 = 0x6b;
    pub const I32_MUL: u8 = 0x6c;
    pub const I32_AND: u8 = 0x71;
    pub const I32_OR: u8 = 0x72;
    pub const I64_ADD: u8 = 0x7c;
    pub const I64_SUB: u8 = 0x7d;
    pub const I64_MUL: u8 = 0x7e;
    pub const I64_AND: u8 = 0x83;
    pub const I64_OR: u8 = 0x84;
    pub const I64_SHL: u8 = 0x86;
    pub const I64_SHR_S: u8 = 0x87;
    pub const I64_SHR_U: u8 = 0x88;
    pub const I32_WRAP_I64: u8 = 0xa7;
    pub const I64_EXTEND_I32_S: u8 = 0xac;
}

/// Value types, also used as a block's result type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Ty {
    I32 = 0x7f,
    I64 = 0x7e,
}

/// A block with no result.
const EMPTY: u8 = 0x40;

pub fn uleb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

pub fn sleb(out: &mut Vec<u8>, mut v: i64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        if done {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// A name or a byte string: its length, then its bytes.
pub fn bytes(out: &mut Vec<u8>, b: &[u8]) {
    uleb(out, b.len() as u64);
    out.extend_from_slice(b);
}

/// Section `id` with `body` as its contents.
pub fn section(out: &mut Vec<u8>, id: u8, body: &[u8]) {
    out.push(id);
    bytes(out, body);
}

/// A structured-control label: the nesting depth just inside the construct it names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Label(u32);

/// A local variable's index.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Local(pub u32);

/// One function body's instructions.
pub struct Code {
    pub bytes: Vec<u8>,
    depth: u32,
}

impl Code {
    pub fn new() -> Code {
        Code { bytes: Vec::new(), depth: 0 }
    }

    pub fn raw(&mut self, opcode: u8) -> &mut Self {
        self.bytes.push(opcode);
        self
    }

    pub fn raws(&mut self, opcodes: &[u8]) -> &mut Self {
        self.bytes.extend_from_slice(opcodes);
        self
    }

    fn open(&mut self, opcode: u8, result: Option<Ty>) -> Label {
        self.bytes.extend([opcode, result.map_or(EMPTY, |t| t as u8)]);
        self.depth += 1;
        Label(self.depth)
    }

    pub fn block(&mut self) -> Label {
        self.open(op::BLOCK, None)
    }

    pub fn looped(&mut self) -> Label {
        self.open(op::LOOP, None)
    }

    /// `if` on the i32 on the stack, with a result of type `result` when given.
    pub fn if_(&mut self, result: Option<Ty>) -> Label {
        self.open(op::IF, result)
    }

    pub fn else_(&mut self) -> &mut Self {
        self.raw(op::ELSE)
    }

    pub fn end(&mut self) -> &mut Self {
        self.depth -= 1;
        self.raw(op::END)
    }

    /// The function's own `end`, after every block is closed.
    pub fn finish(&mut self) -> &mut Self {
        debug_assert_eq!(self.depth, 0, "blocks left open");
        self.raw(op::END)
    }

    /// Relative depth of `label` from here.
    fn to(&self, label: Label) -> u64 {
        (self.depth - label.0) as u64
    }

    pub fn br(&mut self, label: Label) -> &mut Self {
        let depth = self.to(label);
        self.raw(op::BR);
        uleb(&mut self.bytes, depth);
        self
    }

    /// `br_table` on the i32 on the stack: `targets[i]`, or `default` past their end.
    pub fn br_table(&mut self, targets: &[Label], default: Label) -> &mut Self {
        self.raw(op::BR_TABLE);
        uleb(&mut self.bytes, targets.len() as u64);
        for &t in targets {
            let depth = self.to(t);
            uleb(&mut self.bytes, depth);
        }
        let depth = self.to(default);
        uleb(&mut self.bytes, depth);
        self
    }

    pub fn call(&mut self, function: u32) -> &mut Self {
        self.raw(op::CALL);
        uleb(&mut self.bytes, function as u64);
        self
    }

    pub fn get(&mut self, local: Local) -> &mut Self {
        self.raw(op::LOCAL_GET);
        uleb(&mut self.bytes, local.0 as u64);
        self
    }

    pub fn set(&mut self, local: Local) -> &mut Self {
        self.raw(op::LOCAL_SET);
        uleb(&mut self.bytes, local.0 as u64);
        self
    }

    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.raw(op::I32_CONST);
        sleb(&mut self.bytes, v as i64);
        self
    }

    pub fn i64(&mut self, v: i64) -> &mut Self {
        self.raw(op::I64_CONST);
        sleb(&mut self.bytes, v);
        self
    }

    /// A load or store `opcode` at the address on the stack plus `offset`; `align` is the
    /// log2 of the alignment promised (0 promises nothing).
    pub fn mem(&mut self, opcode: u8, align: u32, offset: u32) -> &mut Self {
        self.raw(opcode);
        uleb(&mut self.bytes, align as u64);
        uleb(&mut self.bytes, offset as u64);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leb128_matches_the_specification_examples() {
        let enc = |f: fn(&mut Vec<u8>, i64), v| {
            let mut out = Vec::new();
            f(&mut out, v);
            out
        };
        let u = |out: &mut Vec<u8>, v: i64| uleb(out, v as u64);
        assert_eq!(enc(u, 624485), [0xe5, 0x8e, 0x26]);
        assert_eq!(enc(u, 0), [0]);
        assert_eq!(enc(sleb, -123456), [0xc0, 0xbb, 0x78]);
        assert_eq!(enc(sleb, 63), [0x3f]);
        assert_eq!(enc(sleb, 64), [0xc0, 0x00]);
        assert_eq!(enc(sleb, -64), [0x40]);
        assert_eq!(enc(sleb, -65), [0xbf, 0x7f]);
        assert_eq!(enc(sleb, i64::MIN).len(), 10);
    }
}
