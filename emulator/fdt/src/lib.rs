//! A read-only flattened device tree (FDT, "DTB") reader small enough for bare-metal programs:
//! the teaching kernel reads its boot information with it, the guest programs their questions.
//!
//! It walks the structure block once per query: a program asks a handful of questions at boot,
//! so an index would cost more than it saves. Malformed input ends the walk early (`walk` says
//! so; a query then finds nothing) instead of faulting, because a buggy emulator or a damaged
//! tree must give a readable failure, not a second bug.

#![no_std]

const MAGIC: u32 = 0xd00d_feed;
const BEGIN_NODE: u32 = 1;
const END_NODE: u32 = 2;
const PROP: u32 = 3;
const NOP: u32 = 4;
const END: u32 = 9;
/// Deeper trees exist, but nothing a guest asks about is nested further.
const MAX_DEPTH: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Error {
    BadMagic(u32),
    /// The header's offsets or sizes point outside the blob.
    BadLayout,
    /// The structure block is cut short, nests too deep or holds a token this reader does not
    /// know.
    BadStructure,
}

impl Error {
    pub fn describe(self) -> &'static str {
        match self {
            Error::BadMagic(_) => "no device tree at that address (bad magic)",
            Error::BadLayout => "the device tree's header points outside it",
            Error::BadStructure => "the device tree's structure is damaged",
        }
    }
}

pub struct Fdt<'a> {
    structure: &'a [u8],
    strings: &'a [u8],
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    let word = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([word[0], word[1], word[2], word[3]]))
}

/// The NUL-terminated string starting at `at`, if it is valid UTF-8.
fn c_str(bytes: &[u8], at: usize) -> Option<&str> {
    let tail = bytes.get(at..)?;
    let len = tail.iter().position(|&b| b == 0)?;
    core::str::from_utf8(&tail[..len]).ok()
}

impl<'a> Fdt<'a> {
    pub fn new(blob: &'a [u8]) -> Result<Self, Error> {
        let magic = be32(blob, 0).ok_or(Error::BadLayout)?;
        if magic != MAGIC {
            return Err(Error::BadMagic(magic));
        }
        let field = |i: usize| be32(blob, 4 * i).map(|v| v as usize).ok_or(Error::BadLayout);
        let (total, off_struct, off_strings) = (field(1)?, field(2)?, field(3)?);
        let (size_strings, size_struct) = (field(8)?, field(9)?);
        let blob = blob.get(..total).ok_or(Error::BadLayout)?;
        let slice = |off: usize, len: usize| off.checked_add(len).and_then(|end| blob.get(off..end)).ok_or(Error::BadLayout);
        Ok(Fdt { structure: slice(off_struct, size_struct)?, strings: slice(off_strings, size_strings)? })
    }

    /// Reads the blob a boot loader left at `addr`, trusting only its header's total size.
    ///
    /// # Safety
    /// `addr` must point to readable memory at least as long as the header claims.
    pub unsafe fn from_addr(addr: usize) -> Result<Fdt<'static>, Error> {
        let header = unsafe { core::slice::from_raw_parts(addr as *const u8, 8) };
        let total = be32(header, 4).ok_or(Error::BadLayout)? as usize;
        if total > 1 << 20 {
            return Err(Error::BadLayout);
        }
        Fdt::new(unsafe { core::slice::from_raw_parts(addr as *const u8, total) })
    }

    /// Walks the tree, calling `visit(path, property)` on entering each node (property `None`)
    /// and for each of its properties. `path` holds the node names from the root's children down.
    /// A damaged structure block stops the walk with `Err` after the visits before the damage.
    pub fn walk(&self, mut visit: impl FnMut(&[&'a str], Option<(&'a str, &'a [u8])>)) -> Result<(), Error> {
        let mut path: [&str; MAX_DEPTH] = [""; MAX_DEPTH];
        let mut depth = 0usize; // nodes entered, the root included
        let mut at = 0usize;
        loop {
            let token = be32(self.structure, at).ok_or(Error::BadStructure)?;
            at += 4;
            match token {
                BEGIN_NODE => {
                    let name = c_str(self.structure, at).ok_or(Error::BadStructure)?;
                    at = (at + name.len() + 1 + 3) & !3;
                    if depth > MAX_DEPTH {
                        return Err(Error::BadStructure);
                    }
                    if depth > 0 {
                        path[depth - 1] = name;
                    }
                    depth += 1;
                    visit(&path[..depth - 1], None);
                }
                END_NODE => depth = depth.checked_sub(1).ok_or(Error::BadStructure)?,
                PROP => {
                    let len = be32(self.structure, at).ok_or(Error::BadStructure)? as usize;
                    let name_off = be32(self.structure, at + 4).ok_or(Error::BadStructure)?;
                    let start = at + 8;
                    let value = self.structure.get(start..start.saturating_add(len)).ok_or(Error::BadStructure)?;
                    let name = c_str(self.strings, name_off as usize).ok_or(Error::BadStructure)?;
                    at = (start + len + 3) & !3;
                    if depth == 0 {
                        return Err(Error::BadStructure);
                    }
                    visit(&path[..depth - 1], Some((name, value)));
                }
                NOP => {}
                END => return Ok(()),
                // A token this reader does not know: stop rather than guess.
                _ => return Err(Error::BadStructure),
            }
        }
    }

    /// The value of property `name` of the node at `path` ("/chosen", "/cpus/cpu@0").
    pub fn property(&self, path: &str, name: &str) -> Option<&'a [u8]> {
        let mut found = None;
        let _ = self.walk(|node, prop| {
            if let Some((prop_name, value)) = prop
                && found.is_none()
                && prop_name == name
                && path_is(node, path)
            {
                found = Some(value);
            }
        });
        found
    }

    /// A string property without its terminating NUL.
    pub fn str_property(&self, path: &str, name: &str) -> Option<&'a str> {
        let value = self.property(path, name)?;
        core::str::from_utf8(value.strip_suffix(&[0]).unwrap_or(value)).ok()
    }

    /// The number of nodes directly under `parent` whose name starts with `prefix`.
    pub fn count_children(&self, parent: &str, prefix: &str) -> usize {
        let mut count = 0;
        let _ = self.walk(|node, prop| {
            if let (None, Some((last, above))) = (prop, node.split_last())
                && last.starts_with(prefix)
                && path_is(above, parent)
            {
                count += 1;
            }
        });
        count
    }

    /// The path components of the first node whose `compatible` list holds `compatible`.
    pub fn find_compatible(&self, compatible: &str, mut found: impl FnMut(&[&'a str])) -> bool {
        let mut hit = false;
        let _ = self.walk(|node, prop| {
            if let Some(("compatible", value)) = prop
                && !hit
                && value.split(|&b| b == 0).any(|c| c == compatible.as_bytes())
            {
                hit = true;
                found(node);
            }
        });
        hit
    }
}

/// The number held in the first `count` 32-bit cells of a property (`reg`, `#size-cells`),
/// big-endian as the tree stores it; `None` when the value is shorter.
pub fn cells(value: &[u8], count: usize) -> Option<u64> {
    let mut v = 0u64;
    for i in 0..count {
        v = (v << 32) | be32(value, i * 4)? as u64;
    }
    Some(v)
}

/// Whether node components `node` spell `path` ("/" is the root).
fn path_is(node: &[&str], path: &str) -> bool {
    let mut wanted = path.split('/').filter(|c| !c.is_empty());
    node.iter().all(|c| wanted.next() == Some(c)) && wanted.next().is_none()
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    /// Builds a blob by hand: / { model; chosen { bootargs }; cpus { cpu@0 {}; cpu@1 { compatible } } }.
    fn sample() -> Vec<u8> {
        let strings = b"model\0bootargs\0compatible\0";
        let mut s = Vec::new();
        let word = |s: &mut Vec<u8>, v: u32| s.extend_from_slice(&v.to_be_bytes());
        let pad = |s: &mut Vec<u8>| s.resize(s.len().next_multiple_of(4), 0);
        let name = |s: &mut Vec<u8>, n: &str| {
            s.extend_from_slice(n.as_bytes());
            s.push(0);
            pad(s);
        };
        let prop = |s: &mut Vec<u8>, off: u32, v: &[u8]| {
            word(s, PROP);
            word(s, v.len() as u32);
            word(s, off);
            s.extend_from_slice(v);
            pad(s);
        };
        word(&mut s, BEGIN_NODE);
        name(&mut s, "");
        prop(&mut s, 0, b"toy\0");
        word(&mut s, BEGIN_NODE);
        name(&mut s, "chosen");
        prop(&mut s, 6, b"sched=rr smp=2\0");
        word(&mut s, END_NODE);
        word(&mut s, BEGIN_NODE);
        name(&mut s, "cpus");
        for cpu in ["cpu@0", "cpu@1"] {
            word(&mut s, BEGIN_NODE);
            name(&mut s, cpu);
            if cpu == "cpu@1" {
                prop(&mut s, 15, b"x,a\0riscv\0");
            }
            word(&mut s, END_NODE);
        }
        word(&mut s, END_NODE);
        word(&mut s, END_NODE);
        word(&mut s, END);
        let off_struct = 40u32;
        let off_strings = off_struct + s.len() as u32;
        let total = off_strings + strings.len() as u32;
        let mut blob = Vec::new();
        for v in [MAGIC, total, off_struct, off_strings, 0, 17, 16, 0, strings.len() as u32, s.len() as u32] {
            word(&mut blob, v);
        }
        blob.extend_from_slice(&s);
        blob.extend_from_slice(strings);
        blob
    }

    #[test]
    fn reads_properties_children_and_compatible() {
        let blob = sample();
        let fdt = Fdt::new(&blob).unwrap();
        assert_eq!(fdt.str_property("/", "model"), Some("toy"));
        assert_eq!(fdt.str_property("/chosen", "bootargs"), Some("sched=rr smp=2"));
        assert_eq!(fdt.str_property("/cpus", "bootargs"), None);
        assert_eq!(fdt.count_children("/cpus", "cpu@"), 2);
        assert_eq!(fdt.count_children("/", "cpu@"), 0);
        let mut at = Vec::new();
        assert!(fdt.find_compatible("riscv", |p| at = p.to_vec()));
        assert_eq!(at, ["cpus", "cpu@1"]);
        assert!(!fdt.find_compatible("ris", |_| {}));
    }

    #[test]
    fn reads_cells() {
        let reg = [0, 0, 0, 1, 0x80, 0, 0, 0, 0, 0, 0, 0x10];
        assert_eq!(cells(&reg, 2), Some(0x1_8000_0000));
        assert_eq!(cells(&reg[8..], 1), Some(16));
        assert_eq!(cells(&reg[8..], 2), None);
        assert_eq!(cells(&reg, 0), Some(0));
    }

    #[test]
    fn rejects_bad_headers_and_survives_truncation() {
        let mut blob = sample();
        blob[0] = 0;
        assert_eq!(Fdt::new(&blob).err(), Some(Error::BadMagic(0x000d_feed)));
        let blob = sample();
        assert_eq!(Fdt::new(&blob[..blob.len() - 1]).err(), Some(Error::BadLayout));
        // A structure block cut short: queries find nothing rather than reading past it.
        let mut cut = sample();
        cut[36..40].copy_from_slice(&20u32.to_be_bytes());
        let fdt = Fdt::new(&cut).unwrap();
        assert_eq!(fdt.str_property("/chosen", "bootargs"), None);
        assert_eq!(fdt.walk(|_, _| {}), Err(Error::BadStructure));
        assert_eq!(Fdt::new(&sample()).unwrap().walk(|_, _| {}), Ok(()));
    }
}
