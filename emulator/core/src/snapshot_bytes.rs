//! A [`Snapshot`] as bytes, so that it can travel: from the page's Worker that booted Linux to
//! the page, and from there to the next run's Worker. A versioned little-endian format; every
//! field of the machine that a run can see is in it (the resumed run is the cold run to the
//! byte: `emulator/cli/tests/linux.rs`), and malformed bytes are an error, never a panic.

use crate::bus::{Bus, Htif, PAGE_SIZE};
use crate::cache::{CacheConfig, DataCaches};
use crate::error::LoadError;
use crate::hart::{Csrs, Hart, RunState};
use crate::host::HostConfig;
use crate::machine::{BootMode, Config, Fault, MAX_BOOTARGS, validate};
use crate::mmu::{Entry, Tlb};
use crate::snapshot::Snapshot;
use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

const MAGIC: &[u8; 8] = b"RQSNAP\0\x01";

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
    LoadError::Snapshot(why.to_string())
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
    fn flag(&mut self) -> Result<bool, LoadError> {
        Ok(self.u8()? != 0)
    }
    fn u64(&mut self) -> Result<u64, LoadError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().map_err(|_| bad("it is truncated"))?))
    }
    fn len(&mut self, max: usize) -> Result<usize, LoadError> {
        usize::try_from(self.u64()?).ok().filter(|&n| n <= max).ok_or_else(|| bad("a length is out of range"))
    }
    fn bytes(&mut self) -> Result<&'a [u8], LoadError> {
        let n = self.len(self.data.len())?;
        self.take(n)
    }
    fn opt(&mut self) -> Result<Option<u64>, LoadError> {
        let present = self.flag()?;
        let v = self.u64()?;
        Ok(present.then_some(v))
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

fn hart_words(h: &mut Hart) -> [&mut u64; 8] {
    [&mut h.pc, &mut h.ticks, &mut h.clock_base, &mut h.tlb_epoch, &mut h.data_ctx, &mut h.fetch_ctx, &mut h.stalls, &mut h.overrun]
}

fn hart_flags(h: &mut Hart) -> [&mut bool; 5] {
    [&mut h.firmware, &mut h.just_trapped, &mut h.cut, &mut h.suspended, &mut h.reference]
}

impl Snapshot {
    /// The snapshot as bytes for [`Snapshot::from_bytes`]; `None` for a machine with a
    /// modelled host, whose state is not written (such a machine is never parked).
    pub fn to_bytes(&self) -> Option<Vec<u8>> {
        let (config, bus) = (&self.config, &self.bus);
        if self.host.is_some() || config.host.enabled {
            return None;
        }
        let mut w = Writer::default();
        w.0.extend_from_slice(MAGIC);
        for v in [self.key, config.harts as u64, config.ram_bytes, config.quantum, self.clock, self.cur as u64, self.pos] {
            w.u64(v);
        }
        let cache = config.cache;
        [cache.kb, cache.line, cache.ways, cache.miss_ns].into_iter().for_each(|v| w.u64(v.into()));
        w.bytes(config.bootargs.as_bytes());
        w.u8(config.trace as u8);
        w.u8(self.boot_mode as u8);
        w.u8(self.fault.is_some() as u8);
        if let Some(f) = &self.fault {
            w.bytes(f.what.as_bytes());
            [f.hart as u64, f.pc, f.time_ns].into_iter().for_each(|v| w.u64(v));
        }
        for h in &self.harts {
            let mut h = h.clone();
            h.x[..32].iter().for_each(|&r| w.u64(r));
            hart_words(&mut h).into_iter().for_each(|v| w.u64(*v));
            hart_flags(&mut h).into_iter().for_each(|v| w.u8(*v as u8));
            w.u8(h.prv);
            w.u8(h.state as u8);
            w.opt(h.reservation.map(|r| r.0));
            w.u64(h.reservation.map_or(0, |r| r.1));
            csr_fields(&mut h.csr).into_iter().for_each(|v| w.u64(*v));
            (0..2).for_each(|i| w.u64(h.csr.pmp.read_cfg(i * 2)));
            (0..crate::pmp::ENTRIES).for_each(|i| w.u64(h.csr.pmp.read_addr(i)));
            for set in h.tlb.sets() {
                set.iter().for_each(|e| {
                    w.u64(e.tag);
                    w.u64(e.addend);
                });
            }
        }
        for h in 0..crate::MAX_HARTS {
            w.u8(bus.msip[h] as u8);
            w.u64(bus.mtimecmp[h]);
        }
        w.u64(bus.trace_addr);
        let u = &bus.uart;
        [u.ier, u.lcr, u.mcr, u.scr, u.fcr, u.dll, u.dlm, u.thre_pending as u8].into_iter().for_each(|v| w.u8(v));
        w.bytes(&u.input.iter().copied().collect::<Vec<u8>>());
        w.bytes(&bus.console);
        w.bytes(&bus.trace);
        w.opt(bus.htif.map(|h| h.tohost));
        w.opt(bus.htif.and_then(|h| h.fromhost));
        w.opt(bus.exit.map(|e| e as u32 as u64));
        w.u64(bus.code_epoch);
        let tags: Vec<u8> = bus.dcache.iter().flat_map(|c| c.tags.iter().flat_map(|t| t.to_le_bytes())).collect();
        w.bytes(&tags);
        w.bytes(&bus.words);
        w.u8(bus.park_at_words as u8);
        w.opt(bus.parked);
        w.u64(self.pages.len() as u64);
        for (i, page) in &self.pages {
            w.u64(*i as u64);
            w.0.extend_from_slice(page);
        }
        Some(w.0)
    }

    /// The snapshot `bytes` hold; an error naming what is wrong with them otherwise.
    pub fn from_bytes(bytes: &[u8]) -> Result<Snapshot, LoadError> {
        let mut r = Reader { data: bytes, at: 0 };
        if r.take(MAGIC.len()).ok() != Some(&MAGIC[..]) {
            return Err(bad("it is not a snapshot of this version of the Runqueue machine"));
        }
        let [key, harts, ram_bytes, quantum, clock, cur, pos] = [r.u64()?, r.u64()?, r.u64()?, r.u64()?, r.u64()?, r.u64()?, r.u64()?];
        let mut cache = [0u32; 4];
        for field in &mut cache {
            *field = u32::try_from(r.u64()?).map_err(|_| bad("a data cache setting is out of range"))?;
        }
        let [kb, line, ways, miss_ns] = cache;
        let harts = usize::try_from(harts).map_err(|_| bad("too many harts"))?;
        let bootargs = r.string()?;
        let config = Config { harts, ram_bytes, bootargs, quantum, cache: CacheConfig { kb, line, ways, miss_ns }, host: HostConfig::BARE, trace: r.flag()? };
        validate(&config)?;
        let boot_mode = match r.u8()? {
            0 => BootMode::Supervisor,
            1 => BootMode::Machine,
            _ => return Err(bad("unknown boot mode")),
        };
        if cur >= harts as u64 || pos > quantum {
            return Err(bad("the turn's position is out of range"));
        }
        let fault = match r.flag()? {
            false => None,
            true => Some(Fault { what: r.string()?, hart: r.u64()? as usize, pc: r.u64()?, time_ns: r.u64()? }),
        };
        let mut hart_list = Vec::new();
        for id in 0..harts {
            let mut h = Hart::new(id);
            for x in &mut h.x[..32] {
                *x = r.u64()?;
            }
            h.x[0] = 0;
            for v in hart_words(&mut h) {
                *v = r.u64()?;
            }
            for v in hart_flags(&mut h) {
                *v = r.flag()?;
            }
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
            let reservation = r.opt()?;
            let value = r.u64()?;
            h.reservation = reservation.map(|a| (a, value));
            for v in csr_fields(&mut h.csr) {
                *v = r.u64()?;
            }
            let cfg = [r.u64()?, r.u64()?];
            for i in 0..crate::pmp::ENTRIES {
                h.csr.pmp.write_addr(i, r.u64()?);
            }
            (0..2).for_each(|i| h.csr.pmp.write_cfg(i * 2, cfg[i]));
            let mut tlb = Tlb::new();
            for set in tlb.sets_mut() {
                for e in set.iter_mut() {
                    *e = Entry { tag: r.u64()?, addend: r.u64()? };
                }
            }
            h.tlb = tlb;
            hart_list.push(h);
        }
        let mut bus = Bus::new(PAGE_SIZE, harts).ok_or(LoadError::OutOfMemory(PAGE_SIZE))?;
        bus.ram = Vec::new();
        for h in 0..crate::MAX_HARTS {
            bus.msip[h] = r.flag()?;
            bus.mtimecmp[h] = r.u64()?;
        }
        bus.trace_addr = r.u64()?;
        let u = &mut bus.uart;
        for field in [&mut u.ier, &mut u.lcr, &mut u.mcr, &mut u.scr, &mut u.fcr, &mut u.dll, &mut u.dlm] {
            *field = r.u8()?;
        }
        u.thre_pending = r.flag()?;
        u.input = r.bytes()?.iter().copied().collect();
        bus.console = r.bytes()?.to_vec();
        bus.trace = r.bytes()?.to_vec();
        let (tohost, fromhost) = (r.opt()?, r.opt()?);
        bus.htif = tohost.map(|tohost| Htif { tohost, fromhost });
        bus.exit = r.opt()?.map(|e| e as u32 as i32);
        bus.code_epoch = r.u64()?;
        bus.dcache = DataCaches::new(config.cache, harts);
        let tags = r.bytes()?;
        if tags.len() != bus.dcache.as_ref().map_or(0, |c| c.tags.len()) * 4 {
            return Err(bad("the data cache's tags do not fit its size"));
        }
        if let Some(c) = &mut bus.dcache {
            for (tag, b) in c.tags.iter_mut().zip(tags.chunks_exact(4)) {
                *tag = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
        }
        bus.words = r.bytes()?.to_vec();
        if bus.words.len() > MAX_BOOTARGS {
            return Err(bad("the guest's words are too long"));
        }
        bus.park_at_words = r.flag()?;
        bus.parked = r.opt()?;
        let page_count = ram_bytes / PAGE_SIZE;
        let pages = r.len(page_count as usize)?;
        let mut list = Vec::with_capacity(pages);
        for _ in 0..pages {
            let index = r.u64()?;
            if index >= page_count {
                return Err(bad("a RAM page lies outside RAM"));
            }
            list.push((index as u32, Box::from(r.take(PAGE_SIZE as usize)?)));
        }
        if r.at != bytes.len() {
            return Err(bad("it has bytes after its end"));
        }
        Ok(Snapshot::from_parts(config, boot_mode, hart_list, bus, list, clock, cur as usize, pos, fault, key))
    }
}
