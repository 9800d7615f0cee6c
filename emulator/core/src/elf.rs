//! ELF64 loader: validates every field it relies on and never trusts an offset or a size.

use crate::error::LoadError;
use alloc::vec::Vec;

const PT_LOAD: u32 = 1;
const SHT_SYMTAB: u32 = 2;
const EHDR_SIZE: usize = 64;
const PHDR_SIZE: u64 = 56;
const SHDR_SIZE: u64 = 64;
const SYM_SIZE: u64 = 24;
/// More program headers than any sane bare-metal image has.
pub const MAX_SEGMENTS: u64 = 64;

/// A loadable segment, already checked against the file and RAM.
#[derive(Clone, Debug)]
pub struct Segment {
    /// Physical load address (`p_paddr`, as QEMU uses it).
    pub paddr: u64,
    pub vaddr: u64,
    pub offset: usize,
    pub file_size: usize,
    pub mem_size: u64,
}

/// A validated executable.
#[derive(Clone, Debug)]
pub struct Image {
    /// Physical entry address.
    pub entry: u64,
    pub segments: Vec<Segment>,
    pub tohost: Option<u64>,
    pub fromhost: Option<u64>,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// Checks that `count` entries of `entry_size` at `offset` fit a file of `len` bytes and returns
/// the table's byte range.
fn table(what: &'static str, offset: u64, count: u64, entry_size: u64, expected: u64, len: usize) -> Result<core::ops::Range<usize>, LoadError> {
    let err = LoadError::HeaderTable { what, offset, count, entry_size, file_size: len as u64 };
    if entry_size != expected {
        return Err(err);
    }
    let end = count.checked_mul(entry_size).and_then(|n| n.checked_add(offset)).ok_or(err.clone())?;
    if end > len as u64 {
        return Err(err);
    }
    Ok(offset as usize..end as usize)
}

/// Parses and validates `file` for a machine whose RAM is `ram_start..ram_end`, with the
/// range `reserved` kept free for the FDT.
pub fn parse(file: &[u8], ram_start: u64, ram_end: u64, reserved: core::ops::Range<u64>) -> Result<Image, LoadError> {
    if file.len() < EHDR_SIZE || file[..4] != *b"\x7fELF" {
        return Err(LoadError::NotElf);
    }
    if file[4] != 2 {
        return Err(LoadError::Class(file[4]));
    }
    if file[5] != 1 {
        return Err(LoadError::Endianness(file[5]));
    }
    let version = u32_at(file, 20);
    if file[6] != 1 || version != 1 {
        return Err(LoadError::Version(if file[6] != 1 { file[6] as u32 } else { version }));
    }
    let machine = u16_at(file, 18);
    if machine != 243 {
        return Err(LoadError::Machine(machine));
    }
    let kind = u16_at(file, 16);
    if kind != 2 {
        return Err(LoadError::FileType(kind));
    }
    let entry = u64_at(file, 24);
    let phnum = u16_at(file, 56) as u64;
    if phnum > MAX_SEGMENTS {
        return Err(LoadError::TooManySegments { count: phnum, max: MAX_SEGMENTS });
    }
    let phdrs = table("program header", u64_at(file, 32), phnum, u16_at(file, 54) as u64, PHDR_SIZE, file.len())?;

    let mut segments = Vec::new();
    let mut indices = Vec::new();
    for (index, ph) in file[phdrs].chunks_exact(PHDR_SIZE as usize).enumerate() {
        if u32_at(ph, 0) != PT_LOAD {
            continue;
        }
        let (offset, vaddr, paddr) = (u64_at(ph, 8), u64_at(ph, 16), u64_at(ph, 24));
        let (file_size, mem_size) = (u64_at(ph, 32), u64_at(ph, 40));
        if file_size > mem_size {
            return Err(LoadError::FileSizeExceedsMemSize { index, file_size, mem_size });
        }
        if offset.checked_add(file_size).is_none_or(|end| end > file.len() as u64) {
            return Err(LoadError::SegmentOutsideFile { index, offset, size: file_size, file_size: file.len() as u64 });
        }
        if mem_size == 0 {
            continue;
        }
        let end = paddr.checked_add(mem_size);
        if paddr < ram_start || end.is_none_or(|e| e > ram_end) {
            let end = end.unwrap_or(u64::MAX);
            return Err(LoadError::SegmentOutsideRam { index, start: paddr, end, ram_start, ram_end });
        }
        let end = paddr + mem_size;
        if paddr < reserved.end && reserved.start < end {
            return Err(LoadError::OverlapsFdt { index, fdt_start: reserved.start, fdt_end: reserved.end });
        }
        for (other, seg) in indices.iter().zip(&segments) {
            let seg: &Segment = seg;
            if paddr < seg.paddr + seg.mem_size && seg.paddr < end {
                return Err(LoadError::Overlap { first: *other, second: index });
            }
        }
        segments.push(Segment { paddr, vaddr, offset: offset as usize, file_size: file_size as usize, mem_size });
        indices.push(index);
    }
    if segments.is_empty() {
        return Err(LoadError::NoSegments);
    }
    let entry_paddr = segments
        .iter()
        .find(|s| entry >= s.vaddr && entry - s.vaddr < s.mem_size)
        .map(|s| entry - s.vaddr + s.paddr)
        .ok_or(LoadError::Entry(entry))?;
    let (tohost, fromhost) = find_htif(file)?;
    Ok(Image { entry: entry_paddr, segments, tohost, fromhost })
}

/// Finds the `tohost` and `fromhost` symbols in `.symtab`, if the file has one.
fn find_htif(file: &[u8]) -> Result<(Option<u64>, Option<u64>), LoadError> {
    let shoff = u64_at(file, 40);
    let shnum = u16_at(file, 60) as u64;
    if shoff == 0 || shnum == 0 {
        return Ok((None, None));
    }
    let shdrs = table("section header", shoff, shnum, u16_at(file, 58) as u64, SHDR_SIZE, file.len())?;
    let sections: Vec<&[u8]> = file[shdrs].chunks_exact(SHDR_SIZE as usize).collect();
    let Some(symtab) = sections.iter().find(|s| u32_at(s, 4) == SHT_SYMTAB) else {
        return Ok((None, None));
    };
    let range = |s: &[u8]| -> Result<core::ops::Range<usize>, LoadError> {
        let (off, size) = (u64_at(s, 24), u64_at(s, 32));
        match off.checked_add(size) {
            Some(end) if end <= file.len() as u64 => Ok(off as usize..end as usize),
            _ => Err(LoadError::Symbols("a section lies outside the file")),
        }
    };
    let strtab = sections.get(u32_at(symtab, 40) as usize).ok_or(LoadError::Symbols("the string table index is out of range"))?;
    let names = &file[range(strtab)?];
    let symbols = &file[range(symtab)?];
    if u64_at(symtab, 56) != SYM_SIZE && !symbols.is_empty() {
        return Err(LoadError::Symbols("symbol entries are not 24 bytes"));
    }
    let (mut tohost, mut fromhost) = (None, None);
    for sym in symbols.chunks_exact(SYM_SIZE as usize) {
        let start = u32_at(sym, 0) as usize;
        let name = names.get(start..).ok_or(LoadError::Symbols("a symbol name lies outside the string table"))?;
        let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
        match name {
            b"tohost" => tohost = Some(u64_at(sym, 8)),
            b"fromhost" => fromhost = Some(u64_at(sym, 8)),
            _ => {}
        }
    }
    Ok((tohost, fromhost))
}
