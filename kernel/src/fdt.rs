//! What the kernel needs of the flattened device tree at boot: the command line, the RAM size,
//! the harts and whether Runqueue's trace device is present. The tree is read with the machine's
//! one FDT reader (`emulator/fdt`), whose every read is bounds-checked, so a damaged tree gives
//! an error, never a fault.

use runqueue_fdt::{Fdt, cells};

pub const MAX_CPUS: usize = 8;

pub struct BootInfo {
    pub bootargs: &'static str,
    pub mem_bytes: u64,
    /// Firmware hart ids of the `/cpus/cpu@N` nodes, in tree order.
    pub hart_ids: [usize; MAX_CPUS],
    pub cpus: usize,
    pub trace_device: bool,
}

/// Parses the tree at `addr`, in one walk.
///
/// # Safety
/// `addr` must be the FDT address the firmware passed in a1 (readable, never written).
pub unsafe fn parse(addr: usize) -> Result<BootInfo, &'static str> {
    let fdt = unsafe { Fdt::from_addr(addr) }.map_err(|e| e.describe())?;
    let mut info = BootInfo { bootargs: "", mem_bytes: 0, hart_ids: [0; MAX_CPUS], cpus: 0, trace_device: false };
    let (mut addr_cells, mut size_cells) = (2usize, 2usize);
    let mut bad: Option<&'static str> = None;
    fdt.walk(|path, prop| {
        let Some((name, value)) = prop else { return };
        match (path, name) {
            ([], "#address-cells") => addr_cells = cells(value, 1).unwrap_or(2) as usize,
            ([], "#size-cells") => size_cells = cells(value, 1).unwrap_or(2) as usize,
            (["chosen"], "bootargs") => {
                let text = value.split(|&b| b == 0).next().unwrap_or(&[]);
                match core::str::from_utf8(text) {
                    Ok(args) => info.bootargs = args,
                    Err(_) => bad = Some("bootargs are not UTF-8"),
                }
            }
            ([memory], "reg") if memory.starts_with("memory") => {
                info.mem_bytes += cells(value.get(addr_cells * 4..).unwrap_or(&[]), size_cells).unwrap_or(0);
            }
            (["cpus", cpu], "reg") if cpu.starts_with("cpu@") && info.cpus < MAX_CPUS => match cells(value, 1) {
                Some(id) => {
                    info.hart_ids[info.cpus] = id as usize;
                    info.cpus += 1;
                }
                None => bad = Some("bad cpu reg"),
            },
            (["soc", _], "compatible") if value.split(|&b| b == 0).any(|c| c == b"runqueue,trace") => {
                info.trace_device = true;
            }
            _ => {}
        }
    })
    .map_err(|e| e.describe())?;
    if let Some(why) = bad {
        return Err(why);
    }
    if info.cpus == 0 {
        return Err("the device tree lists no cpus");
    }
    Ok(info)
}
