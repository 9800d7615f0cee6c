//! The SBI (v2.0) the emulator provides to S-mode ELFs, in place of OpenSBI.

use crate::bus::Bus;
use alloc::vec::Vec;
use crate::hart::{irq, Hart, RunState, PRV_S};

const EXT_LEGACY_SET_TIMER: u64 = 0x00;
const EXT_LEGACY_PUTCHAR: u64 = 0x01;
const EXT_LEGACY_GETCHAR: u64 = 0x02;
const EXT_LEGACY_SHUTDOWN: u64 = 0x08;
const EXT_BASE: u64 = 0x10;
const EXT_TIME: u64 = 0x5449_4d45;
const EXT_IPI: u64 = 0x73_5049;
const EXT_RFENCE: u64 = 0x5246_4e43;
const EXT_HSM: u64 = 0x48_534d;
const EXT_SRST: u64 = 0x5352_5354;
const EXT_DBCN: u64 = 0x4442_434e;

const SUCCESS: i64 = 0;
const ERR_FAILED: i64 = -1;
const ERR_NOT_SUPPORTED: i64 = -2;
const ERR_INVALID_PARAM: i64 = -3;
const ERR_INVALID_ADDRESS: i64 = -5;
const ERR_ALREADY_AVAILABLE: i64 = -6;

const SPEC_VERSION: u64 = 2 << 24;
/// Implementation id reported by `sbi_get_impl_id` ("RQ", not a registered id).
pub const IMPL_ID: u64 = 0x5251;
const IMPL_VERSION: u64 = 1;

const HSM_STARTED: u64 = 0;
const HSM_STOPPED: u64 = 1;
const HSM_SUSPENDED: u64 = 4;
const HSM_SUSPEND_RETENTIVE: u64 = 0;

/// Longest DBCN transfer handled in one call.
const DBCN_MAX: u64 = 4096;

fn known_extension(ext: u64) -> bool {
    matches!(ext, EXT_BASE | EXT_TIME | EXT_IPI | EXT_RFENCE | EXT_HSM | EXT_SRST | EXT_DBCN
        | EXT_LEGACY_SET_TIMER | EXT_LEGACY_PUTCHAR | EXT_LEGACY_GETCHAR | EXT_LEGACY_SHUTDOWN)
}

/// Harts selected by an SBI hart mask (`base == -1` selects all).
fn selected(harts: usize, mask: u64, base: u64) -> Result<Vec<usize>, i64> {
    if base == u64::MAX {
        return Ok((0..harts).collect());
    }
    let list: Vec<u64> = (0..64u64).filter(|b| mask >> b & 1 != 0).map(|b| base.saturating_add(b)).collect();
    if list.iter().any(|&h| h >= harts as u64) {
        return Err(ERR_INVALID_PARAM);
    }
    Ok(list.into_iter().map(|h| h as usize).collect())
}

/// Handles the SBI call of hart `cur`, whose pc is at its `ecall`.
pub fn call(harts: &mut [Hart], bus: &mut Bus, cur: usize) {
    let h = &harts[cur];
    let (ext, fid) = (h.x[17], h.x[16]);
    let args = [h.x[10], h.x[11], h.x[12], h.x[13], h.x[14], h.x[15]];
    let legacy = ext <= EXT_LEGACY_SHUTDOWN;
    let result: Result<u64, i64> = match ext {
        EXT_LEGACY_SET_TIMER => {
            bus.mtimecmp[cur] = args[0];
            Ok(0)
        }
        EXT_LEGACY_PUTCHAR => {
            bus.console.push(args[0] as u8);
            Ok(0)
        }
        EXT_LEGACY_GETCHAR => Ok(bus.uart.input.pop_front().map_or(u64::MAX, u64::from)),
        EXT_LEGACY_SHUTDOWN => {
            bus.exit = Some(0);
            Ok(0)
        }
        EXT_BASE => match fid {
            0 => Ok(SPEC_VERSION),
            1 => Ok(IMPL_ID),
            2 => Ok(IMPL_VERSION),
            3 => Ok(known_extension(args[0]) as u64),
            4..=6 => Ok(0),
            _ => Err(ERR_NOT_SUPPORTED),
        },
        EXT_TIME if fid == 0 => {
            bus.mtimecmp[cur] = args[0];
            Ok(0)
        }
        EXT_IPI if fid == 0 => selected(harts.len(), args[0], args[1]).map(|targets| {
            for t in targets {
                harts[t].csr.mip |= irq::SSI;
            }
            0
        }),
        EXT_RFENCE if fid <= 2 => selected(harts.len(), args[0], args[1]).map(|targets| {
            for t in targets {
                harts[t].tlb.flush();
            }
            0
        }),
        EXT_HSM => hsm(harts, cur, fid, &args),
        EXT_SRST if fid == 0 => match (args[0], args[1]) {
            (0..=2, reason) => {
                bus.exit = Some(if reason == 0 { 0 } else { 1 });
                Ok(0)
            }
            _ => Err(ERR_INVALID_PARAM),
        },
        EXT_DBCN => dbcn(bus, fid, &args),
        _ => Err(ERR_NOT_SUPPORTED),
    };
    let h = &mut harts[cur];
    if legacy {
        h.x[10] = match result {
            Ok(v) => v,
            Err(e) => e as u64,
        };
    } else {
        let (err, value) = match result {
            Ok(v) => (SUCCESS, v),
            Err(e) => (e, 0),
        };
        h.x[10] = err as u64;
        h.x[11] = value;
    }
    h.pc = h.pc.wrapping_add(4);
}

fn hsm(harts: &mut [Hart], cur: usize, fid: u64, args: &[u64; 6]) -> Result<u64, i64> {
    match fid {
        0 => {
            let target = args[0] as usize;
            let t = harts.get_mut(target).filter(|_| args[0] < 8).ok_or(ERR_INVALID_PARAM)?;
            if t.state != RunState::Stopped {
                return Err(ERR_ALREADY_AVAILABLE);
            }
            if args[1] & 1 != 0 {
                return Err(ERR_INVALID_ADDRESS);
            }
            t.state = RunState::Running;
            t.prv = PRV_S;
            t.pc = args[1];
            t.x[10] = target as u64;
            t.x[11] = args[2];
            t.csr.satp = 0;
            t.csr.mstatus &= !crate::hart::mstatus::SIE;
            t.tlb.flush();
            t.update_ctx();
            Ok(0)
        }
        1 => {
            harts[cur].state = RunState::Stopped;
            Ok(0)
        }
        2 => {
            let t = harts.get(args[0] as usize).ok_or(ERR_INVALID_PARAM)?;
            Ok(match t.state {
                RunState::Running => HSM_STARTED,
                RunState::Waiting if t.suspended => HSM_SUSPENDED,
                RunState::Waiting => HSM_STARTED,
                RunState::Stopped => HSM_STOPPED,
            })
        }
        3 if args[0] == HSM_SUSPEND_RETENTIVE => {
            harts[cur].state = RunState::Waiting;
            harts[cur].suspended = true;
            Ok(0)
        }
        // Non-retentive and platform-specific suspend types are not offered.
        3 if args[0] == 0x8000_0000 || (0x1000_0000..0x8000_0000).contains(&args[0]) || args[0] >= 0x9000_0000 => Err(ERR_NOT_SUPPORTED),
        3 => Err(ERR_INVALID_PARAM),
        _ => Err(ERR_NOT_SUPPORTED),
    }
}

/// Debug console: bytes move directly between guest physical memory and the console.
fn dbcn(bus: &mut Bus, fid: u64, args: &[u64; 6]) -> Result<u64, i64> {
    let (len, addr) = (args[0].min(DBCN_MAX), args[1] | (args[2] << 32));
    match fid {
        0 => {
            let off = bus.ram_offset(addr, len).ok_or(ERR_INVALID_PARAM)?;
            let bytes = bus.ram[off..off + len as usize].to_vec();
            bus.console.extend_from_slice(&bytes);
            Ok(len)
        }
        1 => {
            let n = len.min(bus.uart.input.len() as u64);
            let off = bus.ram_offset(addr, n).ok_or(ERR_INVALID_PARAM)?;
            for i in 0..n as usize {
                bus.ram[off + i] = bus.uart.input.pop_front().unwrap_or(0);
            }
            bus.note_ram_write(addr, n);
            Ok(n)
        }
        2 => {
            bus.console.push(args[0] as u8);
            Ok(0)
        }
        _ => Err(ERR_FAILED),
    }
}
