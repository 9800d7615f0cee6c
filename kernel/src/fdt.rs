//! Just enough of a flattened-device-tree reader for boot: the command line, the RAM size,
//! the harts and whether Runqueue's trace device is present. Every read is bounds-checked,
//! so a damaged tree gives an error, never a fault.

pub const MAX_CPUS: usize = 8;

const MAGIC: u32 = 0xd00d_feed;
const BEGIN_NODE: u32 = 1;
const END_NODE: u32 = 2;
const PROP: u32 = 3;
const NOP: u32 = 4;
const END: u32 = 9;

pub struct BootInfo {
    pub bootargs: &'static str,
    pub mem_bytes: u64,
    /// Firmware hart ids of the `/cpus/cpu@N` nodes, in tree order.
    pub hart_ids: [usize; MAX_CPUS],
    pub cpus: usize,
    pub trace_device: bool,
}

struct Reader {
    blob: &'static [u8],
}

impl Reader {
    fn u32_at(&self, off: usize) -> Option<u32> {
        let b = self.blob.get(off..off + 4)?;
        Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The NUL-terminated string at `off`.
    fn str_at(&self, off: usize) -> Option<&'static str> {
        let rest = self.blob.get(off..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        core::str::from_utf8(&rest[..end]).ok()
    }
}

fn cells(value: &[u8], count: usize) -> Option<u64> {
    let mut v = 0u64;
    for i in 0..count {
        let b = value.get(i * 4..i * 4 + 4)?;
        v = (v << 32) | u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as u64;
    }
    Some(v)
}

/// Parses the tree at `addr`.
///
/// # Safety
/// `addr` must be the FDT address the firmware passed in a1 (readable, never written).
pub unsafe fn parse(addr: usize) -> Result<BootInfo, &'static str> {
    let header = unsafe { core::slice::from_raw_parts(addr as *const u8, 40) };
    let head = Reader { blob: header };
    if head.u32_at(0) != Some(MAGIC) {
        return Err("no device tree at the address in a1");
    }
    let total = head.u32_at(4).ok_or("truncated FDT header")? as usize;
    if !(40..=(64 << 20)).contains(&total) {
        return Err("implausible FDT size");
    }
    let r = Reader { blob: unsafe { core::slice::from_raw_parts(addr as *const u8, total) } };
    let structs = r.u32_at(8).ok_or("bad FDT header")? as usize;
    let strings = r.u32_at(12).ok_or("bad FDT header")? as usize;

    let mut info = BootInfo { bootargs: "", mem_bytes: 0, hart_ids: [0; MAX_CPUS], cpus: 0, trace_device: false };
    // Names of the nodes on the current path, by depth (only the first three levels matter).
    let mut path: [&str; 3] = [""; 3];
    let mut depth = 0usize;
    let (mut addr_cells, mut size_cells) = (2usize, 2usize);
    let mut off = structs;
    loop {
        let token = r.u32_at(off).ok_or("FDT structure runs off its end")?;
        off += 4;
        match token {
            BEGIN_NODE => {
                let name = r.str_at(off).ok_or("bad FDT node name")?;
                off = (off + name.len() + 1 + 3) & !3;
                if depth < path.len() {
                    path[depth] = name;
                }
                depth += 1;
            }
            END_NODE => depth = depth.checked_sub(1).ok_or("unbalanced FDT nodes")?,
            PROP => {
                let len = r.u32_at(off).ok_or("bad FDT property")? as usize;
                let name = r.str_at(strings + r.u32_at(off + 4).ok_or("bad FDT property")? as usize)
                    .ok_or("bad FDT property name")?;
                let value = r.blob.get(off + 8..off + 8 + len).ok_or("FDT property runs off its end")?;
                off = (off + 8 + len + 3) & !3;
                let node = if depth >= 1 && depth <= path.len() { path[depth - 1] } else { "" };
                let parent = if depth >= 2 && depth <= path.len() + 1 { path[depth - 2] } else { "" };
                match (depth, name) {
                    (1, "#address-cells") => addr_cells = cells(value, 1).unwrap_or(2) as usize,
                    (1, "#size-cells") => size_cells = cells(value, 1).unwrap_or(2) as usize,
                    (2, "bootargs") if node == "chosen" => {
                        let text = value.split(|&b| b == 0).next().unwrap_or(&[]);
                        info.bootargs = core::str::from_utf8(text).map_err(|_| "bootargs are not UTF-8")?;
                    }
                    (2, "reg") if node.starts_with("memory") => {
                        info.mem_bytes += cells(value.get(addr_cells * 4..).unwrap_or(&[]), size_cells).unwrap_or(0);
                    }
                    (3, "reg") if parent == "cpus" && node.starts_with("cpu@") && info.cpus < MAX_CPUS => {
                        info.hart_ids[info.cpus] = cells(value, 1).ok_or("bad cpu reg")? as usize;
                        info.cpus += 1;
                    }
                    (3, "compatible") if parent == "soc" && value.split(|&b| b == 0).any(|c| c == b"runqueue,trace") => {
                        info.trace_device = true;
                    }
                    _ => {}
                }
            }
            NOP => {}
            END => break,
            _ => return Err("unknown FDT token"),
        }
    }
    if info.cpus == 0 {
        return Err("the device tree lists no cpus");
    }
    Ok(info)
}
