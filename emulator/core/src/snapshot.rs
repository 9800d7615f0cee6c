//! Save and restore of the whole machine in a versioned little-endian format. Decoded code
//! and TLBs are caches and are rebuilt; RAM is stored sparsely (only pages that are not zero).
//! The data cache model is machine state, not a host cache: its tags decide future stalls, so
//! they are saved.

use crate::bus::{Bus, Htif, PAGE_SIZE};
use crate::cache::{CacheConfig, DataCaches};
use crate::code::CodeCache;
use crate::error::LoadError;
use crate::hart::{Csrs, Hart, RunState};
use crate::host::HostConfig;
use crate::machine::{validate, BootMode, Config, Fault, Machine};
use crate::MAX_HARTS;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

const MAGIC: &[u8; 8] = b"RQSTATE\0";
/// 2: PMP registers after the CSRs. 3: the data cache (its settings and tags, each hart's
/// stalls and overrun). 4: whether the machine has a modelled host, whose state is not saved:
/// such a state is refused on restore.
const VERSION: u32 = 4;

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.0.extend_from_slice(b);
    }
    fn opt(&mut self, v: Option<u64>) {
        self.u8(v.is_some() as u8);
        self.u64(v.unwrap_or(0));
    }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

fn bad(why: &str) -> LoadError {
    LoadError::State(why.to_string())
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], LoadError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.data.len()).ok_or_else(|| bad("it is truncated"))?;
        let s = &self.data[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, LoadError> {
        Ok(self.take(1)?[0])
    }
    fn u64(&mut self) -> Result<u64, LoadError> {
        let mut b = [0; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }
    fn bytes(&mut self) -> Result<&'a [u8], LoadError> {
        let n = self.u64()?;
        self.take(usize::try_from(n).map_err(|_| bad("a length is too large"))?)
    }
    fn opt(&mut self) -> Result<Option<u64>, LoadError> {
        let present = self.u8()?;
        let v = self.u64()?;
        Ok((present != 0).then_some(v))
    }
    fn string(&mut self) -> Result<String, LoadError> {
        String::from_utf8(self.bytes()?.to_vec()).map_err(|_| bad("a string is not UTF-8"))
    }
}

fn csr_fields(c: &mut Csrs) -> [&mut u64; 20] {
    [
        &mut c.mstatus, &mut c.medeleg, &mut c.mideleg, &mut c.mie, &mut c.mip, &mut c.mtvec, &mut c.stvec,
        &mut c.mscratch, &mut c.sscratch, &mut c.mepc, &mut c.sepc, &mut c.mcause, &mut c.scause, &mut c.mtval,
        &mut c.stval, &mut c.satp, &mut c.mcounteren, &mut c.scounteren, &mut c.cycle_delta, &mut c.instret_delta,
    ]
}

impl Machine {
    /// The whole machine state, to hand back to [`Machine::restore_state`].
    pub fn save_state(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.0.extend_from_slice(MAGIC);
        w.0.extend_from_slice(&VERSION.to_le_bytes());
        w.u64(self.config.harts as u64);
        w.u64(self.config.ram_bytes);
        w.u64(self.config.quantum);
        let cache = self.config.cache;
        [cache.kb, cache.line, cache.ways, cache.miss_ns].into_iter().for_each(|v| w.u64(v.into()));
        w.bytes(self.config.bootargs.as_bytes());
        w.u8(self.host.is_some() as u8);
        w.u8(self.boot_mode as u8);
        w.u64(self.clock);
        w.u64(self.cur as u64);
        w.u64(self.pos);
        w.u8(self.fault.is_some() as u8);
        if let Some(f) = &self.fault {
            w.bytes(f.what.as_bytes());
            w.u64(f.hart as u64);
            w.u64(f.pc);
            w.u64(f.time_ns);
        }
        for h in &self.harts {
            h.x[..32].iter().for_each(|&r| w.u64(r));
            w.u64(h.pc);
            w.u8(h.prv);
            w.u8(h.state as u8);
            w.u8(h.suspended as u8);
            w.u8(h.just_trapped as u8);
            w.u8(h.firmware as u8);
            w.u64(h.ticks);
            w.u64(h.stalls);
            w.u64(h.overrun);
            w.opt(h.reservation.map(|r| r.0));
            w.u64(h.reservation.map_or(0, |r| r.1));
            let mut csrs = h.csr.clone();
            csr_fields(&mut csrs).into_iter().for_each(|v| w.u64(*v));
            let (pmpcfg, pmpaddr) = h.csr.pmp.registers();
            pmpcfg.into_iter().chain(pmpaddr).for_each(|v| w.u64(v));
        }
        let b = &self.bus;
        for h in 0..MAX_HARTS {
            w.u8(b.msip[h] as u8);
            w.u64(b.mtimecmp[h]);
        }
        w.u64(b.trace_addr);
        let u = &b.uart;
        for v in [u.ier, u.lcr, u.mcr, u.scr, u.fcr, u.dll, u.dlm, u.thre_pending as u8] {
            w.u8(v);
        }
        w.bytes(&u.input.iter().copied().collect::<Vec<u8>>());
        w.bytes(&b.console);
        w.bytes(&b.trace);
        w.opt(b.htif.map(|h| h.tohost));
        w.opt(b.htif.and_then(|h| h.fromhost));
        w.opt(b.exit.map(|e| e as u32 as u64));
        let tags: Vec<u8> = b.dcache.iter().flat_map(|c| c.tags.iter().flat_map(|t| t.to_le_bytes())).collect();
        w.bytes(&tags);
        let pages: Vec<(usize, &[u8])> =
            b.ram.chunks(PAGE_SIZE as usize).enumerate().filter(|(_, p)| p.iter().any(|&x| x != 0)).collect();
        w.u64(pages.len() as u64);
        for (i, p) in pages {
            w.u64(i as u64);
            w.0.extend_from_slice(p);
        }
        w.0
    }

    /// Replaces the whole machine with a saved state. On error the machine is unchanged.
    pub fn restore_state(&mut self, state: &[u8]) -> Result<(), LoadError> {
        let mut r = Reader { data: state, at: 0 };
        if r.take(8).ok() != Some(&MAGIC[..]) {
            return Err(bad("it is not a Runqueue machine state"));
        }
        let version = u32::from_le_bytes(r.take(4)?.try_into().map_err(|_| bad("it is truncated"))?);
        if version != VERSION {
            return Err(LoadError::State(alloc::format!("format version {version} is not the supported version {VERSION}")));
        }
        let harts = r.u64()?;
        let ram_bytes = r.u64()?;
        let quantum = r.u64()?;
        let mut cache_fields = [0u32; 4];
        for field in &mut cache_fields {
            *field = u32::try_from(r.u64()?).map_err(|_| bad("a data cache setting is out of range"))?;
        }
        let [kb, line, ways, miss_ns] = cache_fields;
        let cache = CacheConfig { kb, line, ways, miss_ns };
        let config = Config { harts: harts.min(u64::from(u32::MAX)) as usize, ram_bytes, quantum, bootargs: r.string()?, cache, trace: true, host: HostConfig::BARE };
        if r.u8()? != 0 {
            return Err(LoadError::State("it is of a machine with a modelled host, whose state a snapshot does not hold (snapshots need host=bare)".into()));
        }
        validate(&config)?;
        let boot_mode = match r.u8()? {
            0 => BootMode::Supervisor,
            1 => BootMode::Machine,
            _ => return Err(bad("unknown boot mode")),
        };
        let (clock, cur, pos) = (r.u64()?, r.u64()?, r.u64()?);
        if cur >= harts || pos > quantum {
            return Err(bad("the scheduler position is out of range"));
        }
        let fault = match r.u8()? {
            0 => None,
            _ => Some(Fault { what: r.string()?, hart: r.u64()? as usize, pc: r.u64()?, time_ns: r.u64()? }),
        };
        let mut hart_list = Vec::new();
        for id in 0..config.harts {
            let mut h = Hart::new(id);
            for i in 0..32 {
                h.x[i] = r.u64()?;
            }
            h.x[0] = 0;
            h.pc = r.u64()?;
            h.prv = match r.u8()? {
                p @ (0 | 1 | 3) => p,
                _ => return Err(bad("a hart has an invalid privilege level")),
            };
            h.state = match r.u8()? {
                0 => RunState::Running,
                1 => RunState::Waiting,
                2 => RunState::Stopped,
                _ => return Err(bad("a hart has an invalid run state")),
            };
            h.suspended = r.u8()? != 0;
            h.just_trapped = r.u8()? != 0;
            h.firmware = r.u8()? != 0;
            h.ticks = r.u64()?;
            h.stalls = r.u64()?;
            h.overrun = r.u64()?;
            if h.stalls > h.ticks {
                return Err(bad("a hart has stalled longer than it has run"));
            }
            let res_addr = r.opt()?;
            let res_val = r.u64()?;
            h.reservation = res_addr.map(|a| (a, res_val));
            for field in csr_fields(&mut h.csr) {
                *field = r.u64()?;
            }
            let pmpcfg = [r.u64()?, r.u64()?];
            let mut pmpaddr = [0; crate::pmp::ENTRIES];
            for a in &mut pmpaddr {
                *a = r.u64()?;
            }
            h.csr.pmp.restore(pmpcfg, pmpaddr);
            h.update_ctx();
            hart_list.push(h);
        }
        let mut bus = Bus::new(config.ram_bytes, config.harts).ok_or(LoadError::OutOfMemory(config.ram_bytes))?;
        for h in 0..MAX_HARTS {
            bus.msip[h] = r.u8()? != 0;
            bus.mtimecmp[h] = r.u64()?;
        }
        bus.trace_addr = r.u64()?;
        let u = &mut bus.uart;
        for field in [&mut u.ier, &mut u.lcr, &mut u.mcr, &mut u.scr, &mut u.fcr, &mut u.dll, &mut u.dlm] {
            *field = r.u8()?;
        }
        u.thre_pending = r.u8()? != 0;
        u.input = r.bytes()?.iter().copied().collect();
        bus.console = r.bytes()?.to_vec();
        bus.trace = r.bytes()?.to_vec();
        let tohost = r.opt()?;
        let fromhost = r.opt()?;
        bus.htif = tohost.map(|tohost| Htif { tohost, fromhost });
        bus.exit = r.opt()?.map(|e| e as u32 as i32);
        bus.dcache = DataCaches::new(config.cache, config.harts);
        let tags = r.bytes()?;
        let held = bus.dcache.as_ref().map_or(0, |c| c.tags.len());
        if tags.len() != held * 4 {
            return Err(bad("the data cache's tags do not fit its size"));
        }
        if let Some(c) = &mut bus.dcache {
            for (tag, bytes) in c.tags.iter_mut().zip(tags.chunks_exact(4)) {
                *tag = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            }
        }
        let pages = r.u64()?;
        let page_count = config.ram_bytes / PAGE_SIZE;
        if pages > page_count {
            return Err(bad("more RAM pages than the machine has"));
        }
        for _ in 0..pages {
            let index = r.u64()?;
            if index >= page_count {
                return Err(bad("a RAM page lies outside RAM"));
            }
            let at = (index * PAGE_SIZE) as usize;
            bus.ram[at..at + PAGE_SIZE as usize].copy_from_slice(r.take(PAGE_SIZE as usize)?);
        }
        if r.at != state.len() {
            return Err(bad("it has trailing bytes"));
        }
        let code = CodeCache::new(config.ram_bytes);
        *self = Machine { config, boot_mode, harts: hart_list, bus, code, clock, cur: cur as usize, pos, fault, host: None, host_trace: false };
        Ok(())
    }
}
