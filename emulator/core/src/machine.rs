//! The machine: harts, memory and devices, and the deterministic scheduler that interleaves
//! harts in fixed quanta and skips idle time (`docs/platform.md`, "Deterministic time").

use crate::bus::{Bus, Htif, RAM_BASE};
use crate::cache::{CacheConfig, DataCaches};
use crate::code::CodeCache;
use crate::error::LoadError;
use crate::exec::Exit;
use crate::hart::{irq, Hart, RunState, PRV_M, PRV_S};
use crate::host::{Host, HostConfig};
use crate::{elf, fdt, linux, sbi, FDT_FROM_RAM_END, MAX_HARTS, NS_PER_INSTRUCTION};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

pub const MIN_RAM: u64 = 4 << 20;
pub const MAX_RAM: u64 = 2 << 30;
pub const MAX_QUANTUM: u64 = 100_000_000;
pub const MAX_BOOTARGS: usize = 4096;
/// medeleg and mideleg as OpenSBI leaves them for the kernel.
const FIRMWARE_MEDELEG: u64 = 0xb109;
const FIRMWARE_MIDELEG: u64 = 0x222;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub harts: usize,
    pub ram_bytes: u64,
    pub bootargs: String,
    /// Ticks (instructions, traps, cache stalls) each hart runs before the next hart's turn.
    pub quantum: u64,
    /// Each hart's data cache; none by default.
    pub cache: CacheConfig,
    /// The modelled host under the harts; none (`host=bare`) by default.
    pub host: HostConfig,
    /// The guest traces (`trace=on`, the default); off, the host's events are left out too.
    pub trace: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config { harts: 1, ram_bytes: 128 << 20, bootargs: String::new(), quantum: 1000, cache: CacheConfig::default(), host: HostConfig::BARE, trace: true }
    }
}

/// How the interpreter runs the guest. Both give the same guest-visible behaviour to the
/// instruction; `Reference` runs one instruction per block, with interrupts and time looked at
/// between every two, as the check on the fast mode's shortcuts (`make test-determinism`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Exec {
    #[default]
    Fast,
    Reference,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BootMode {
    /// S-mode ELF; the emulator is the SBI firmware.
    Supervisor,
    /// M-mode ELF (HTIF `tohost`, or entry at the start of RAM), no SBI.
    Machine,
}

/// Something the guest did that stops the machine for good.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub what: String,
    pub hart: usize,
    pub pc: u64,
    pub time_ns: u64,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (hart {}, pc {:#x}, at {} ns)", self.what, self.hart, self.pc, self.time_ns)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The instruction budget ran out; call `run` again to continue.
    Budget,
    /// The guest shut the machine down with this exit code.
    Exit(i32),
    Fault(Fault),
}

pub struct Machine {
    pub(crate) config: Config,
    pub(crate) boot_mode: BootMode,
    pub(crate) harts: Vec<Hart>,
    pub(crate) bus: Bus,
    pub(crate) code: CodeCache,
    /// Global ticks at the start of the current round.
    pub(crate) clock: u64,
    /// The hart whose turn it is, and how far into its quantum it is.
    pub(crate) cur: usize,
    pub(crate) pos: u64,
    pub(crate) fault: Option<Fault>,
    pub(crate) host: Option<alloc::boxed::Box<Host>>,
    /// Host events go into the trace (a host, and the guest's trace not off).
    pub(crate) host_trace: bool,
}

pub(crate) fn validate(config: &Config) -> Result<(), LoadError> {
    if !(1..=MAX_HARTS).contains(&config.harts) {
        return Err(LoadError::Harts(config.harts));
    }
    let ram = config.ram_bytes;
    if !ram.is_multiple_of(4096) || !(MIN_RAM..=MAX_RAM).contains(&ram) {
        return Err(LoadError::RamSize { bytes: ram, min: MIN_RAM, max: MAX_RAM });
    }
    if !(1..=MAX_QUANTUM).contains(&config.quantum) {
        return Err(LoadError::Quantum { quantum: config.quantum, max: MAX_QUANTUM });
    }
    if config.bootargs.len() > MAX_BOOTARGS {
        return Err(LoadError::BootArgs("longer than 4096 bytes"));
    }
    if config.bootargs.contains('\0') {
        return Err(LoadError::BootArgs("they contain a NUL character"));
    }
    config.cache.check().map_err(LoadError::MachineOption)?;
    config.host.check(config.harts).map_err(LoadError::MachineOption)
}

/// A `steal` trace line (`docs/trace.md`): hart `h` executed nothing for `ticks` before `end`.
fn trace_steal(trace: &mut Vec<u8>, end: u64, h: usize, ticks: u64, by: &str, cpu: usize) {
    use core::fmt::Write;
    // Stamped in whole mtime ticks, as the kernel's own lines are, so each hart's times stay
    // in order.
    let t = end / crate::TICKS_PER_MTIME * crate::TICKS_PER_MTIME * NS_PER_INSTRUCTION;
    let mut line = String::new();
    let _ = writeln!(line, "T {t} {h} steal 0 ns={} by={by} cpu={cpu}", ticks * NS_PER_INSTRUCTION);
    trace.extend_from_slice(line.as_bytes());
}

/// Where a kernel, its initrd and the device tree go in RAM, and the tree itself.
pub(crate) struct Layout {
    extras: linux::Extras,
    pub(crate) tree: Vec<u8>,
    image: elf::Image,
    fdt_addr: u64,
}

impl Layout {
    pub(crate) fn of(config: &Config, kernel: &[u8], initrd: Option<&[u8]>) -> Result<Layout, LoadError> {
        validate(config)?;
        let ram_end = RAM_BASE + config.ram_bytes;
        let fdt_addr = ram_end - FDT_FROM_RAM_END;
        let is_linux = linux::is_image(kernel);
        let extras = linux::Extras::place(fdt_addr, RAM_BASE, initrd.map(|i| i.len() as u64), is_linux, &config.bootargs)?;
        // Linux's own command line holds only its own words; its init asks for the rest.
        let bootargs = if is_linux { linux::kernel_words(&config.bootargs) } else { config.bootargs.clone() };
        let tree = fdt::machine_tree(&fdt::Layout { harts: config.harts, ram_base: RAM_BASE, ram_bytes: config.ram_bytes, bootargs: &bootargs, extras: &extras });
        if tree.len() as u64 > FDT_FROM_RAM_END {
            return Err(LoadError::FdtTooLarge { size: tree.len() as u64, max: FDT_FROM_RAM_END });
        }
        let bottom = extras.bottom(fdt_addr);
        let image = if is_linux {
            linux::parse(kernel, RAM_BASE, bottom)?
        } else {
            elf::parse(kernel, RAM_BASE, ram_end, bottom..fdt_addr + tree.len() as u64)?
        };
        Ok(Layout { extras, tree, image, fdt_addr })
    }
}

impl Machine {
    /// Builds the machine and loads `elf` into it.
    pub fn new(config: Config, elf: &[u8]) -> Result<Machine, LoadError> {
        Machine::with_initrd(config, elf, None)
    }

    /// Builds the machine and loads `kernel` into it: an ELF, or a Linux `Image` (`linux.rs`),
    /// with `initrd` (if any) at the top of RAM below the device tree, which names it.
    pub fn with_initrd(config: Config, kernel: &[u8], initrd: Option<&[u8]>) -> Result<Machine, LoadError> {
        let Layout { extras, tree, image, fdt_addr } = Layout::of(&config, kernel, initrd)?;
        let mut bus = Bus::new(config.ram_bytes, config.harts).ok_or(LoadError::OutOfMemory(config.ram_bytes))?;
        bus.dcache = DataCaches::new(config.cache, config.harts);
        for seg in &image.segments {
            let off = (seg.paddr - RAM_BASE) as usize;
            bus.ram[off..off + seg.file_size].copy_from_slice(&kernel[seg.offset..seg.offset + seg.file_size]);
        }
        if let (Some(bytes), Some(at)) = (initrd, &extras.initrd) {
            let off = (at.start - RAM_BASE) as usize;
            bus.ram[off..off + bytes.len()].copy_from_slice(bytes);
        }
        let fdt_off = (fdt_addr - RAM_BASE) as usize;
        bus.ram[fdt_off..fdt_off + tree.len()].copy_from_slice(&tree);
        if let Some(tohost) = image.tohost {
            if bus.ram_offset(tohost, 8).is_none() {
                return Err(LoadError::Symbols("tohost lies outside RAM"));
            }
            bus.htif = Some(Htif { tohost, fromhost: image.fromhost.filter(|&f| bus.ram_offset(f, 8).is_some()) });
        }
        let boot_mode = if image.tohost.is_some() || image.entry == RAM_BASE { BootMode::Machine } else { BootMode::Supervisor };
        let harts = (0..config.harts)
            .map(|id| {
                let mut h = Hart::new(id);
                h.pc = image.entry;
                h.x[10] = id as u64;
                h.x[11] = fdt_addr;
                if boot_mode == BootMode::Supervisor {
                    h.firmware = true;
                    h.prv = PRV_S;
                    h.csr.medeleg = FIRMWARE_MEDELEG;
                    h.csr.mideleg = FIRMWARE_MIDELEG;
                    h.csr.mcounteren = 0xffff_ffff;
                    h.csr.pmp.grant_all();
                    if id != 0 {
                        h.state = RunState::Stopped;
                    }
                } else {
                    h.prv = PRV_M;
                }
                h.update_ctx();
                h
            })
            .collect();
        let code = CodeCache::new(config.ram_bytes);
        let host = config.host.enabled.then(|| alloc::boxed::Box::new(Host::new(config.host, config.harts)));
        let host_trace = host.is_some() && config.trace;
        bus.words = config.bootargs.as_bytes().to_vec();
        Ok(Machine { config, boot_mode, harts, bus, code, clock: 0, cur: 0, pos: 0, fault: None, host, host_trace })
    }

    /// Why the machine is finished, if it is.
    fn finished(&self) -> Option<Stop> {
        if let Some(f) = &self.fault {
            return Some(Stop::Fault(f.clone()));
        }
        self.bus.exit.map(Stop::Exit)
    }

    fn fault(&mut self, hart: usize, what: String) -> Stop {
        let pc = self.harts.get(hart).map_or(0, |h| h.pc);
        let fault = Fault { what, hart, pc, time_ns: self.time_ns() };
        self.fault = Some(fault.clone());
        Stop::Fault(fault)
    }

    /// Runs until about `budget` more ticks have passed (all harts together: instructions,
    /// traps, and data cache stalls, which take a hart's time like instructions), the guest
    /// shuts down, or it faults.
    pub fn run(&mut self, budget: u64) -> Stop {
        let mut left = budget;
        loop {
            if let Some(stop) = self.finished() {
                return stop;
            }
            if left == 0 {
                return Stop::Budget;
            }
            if self.cur == 0 && self.pos == 0
                && let Err(stop) = self.skip_idle()
            {
                return stop;
            }
            if self.cur == 0 {
                self.plan_host_round();
            }
            let quantum = self.config.quantum;
            let h = self.cur;
            let hart = &mut self.harts[h];
            hart.clock_base = (self.clock + self.pos).wrapping_sub(hart.ticks);
            let descheduled = self.host.as_ref().is_some_and(|host| !host.plan(h).runs);
            match hart.state {
                _ if descheduled => self.pos = quantum,
                RunState::Stopped => self.pos = quantum,
                // Sleeps to the end of the turn, or wakes where its timer fires within it.
                RunState::Waiting => self.wait_in_turn(h),
                RunState::Running => {}
            }
            let until_stall = if self.harts[h].state == RunState::Running && self.pos < quantum { self.host_stalls(h) } else { u64::MAX };
            let hart = &mut self.harts[h];
            if hart.state != RunState::Running || self.pos >= quantum {
                self.next_turn();
                continue;
            }
            hart.clock_base = (self.clock + self.pos).wrapping_sub(hart.ticks);
            let before = hart.ticks;
            let exit = hart.run(&mut self.bus, &mut self.code, (quantum - self.pos).min(left).min(until_stall));
            let ran = hart.ticks - before;
            self.pos += ran;
            left = left.saturating_sub(ran);
            self.carry_overrun(h);
            match exit {
                Exit::Sbi => {
                    sbi::call(&mut self.harts, &mut self.bus, h);
                    // An SBI call in a guest is an exit to the host.
                    if let Some(host) = &self.host {
                        self.pos += host.exit_ticks();
                        self.carry_overrun(h);
                    }
                }
                Exit::TrapLoop => {
                    let vector = self.harts[h].pc;
                    return self.fault(h, alloc::format!("the trap handler at {vector:#x} cannot be fetched, so every trap would trap again"));
                }
                Exit::Halt => {
                    if let Some(what) = self.bus.fault.take() {
                        return self.fault(h, what);
                    }
                    if self.bus.parked.is_some() {
                        return Stop::Budget;
                    }
                }
                Exit::Limit | Exit::Wait => {}
            }
        }
    }

    /// Only a stall (a cache miss, or time the host took) runs a hart past its turn's end; it
    /// starts its next turn that much later (`next_turn`), so its time never runs backwards.
    fn carry_overrun(&mut self, h: usize) {
        let quantum = self.config.quantum;
        if self.pos > quantum {
            self.harts[h].overrun += self.pos - quantum;
            self.pos = quantum;
        }
    }

    /// The host decides the round that starts now, from what each hart has to do (once: hart
    /// 0's turn may begin late, after a stall, and be entered more than once).
    fn plan_host_round(&mut self) {
        let Some(host) = &mut self.host else { return };
        let (t0, q) = (self.clock, self.config.quantum);
        if host.planned(t0) {
            return;
        }
        let mut wants = [false; MAX_HARTS];
        let mut timers = [u64::MAX; MAX_HARTS];
        for (h, hart) in self.harts.iter_mut().enumerate() {
            hart.clock_base = t0.wrapping_sub(hart.ticks);
            timers[h] = self.bus.timer_deadline(h);
            wants[h] = match hart.state {
                RunState::Running => true,
                RunState::Stopped => false,
                RunState::Waiting => hart.wake_pending(&self.bus) || timers[h] < t0 + q,
            };
        }
        let n = self.harts.len();
        host.plan_round(t0, q, &wants[..n], &timers[..n]);
    }

    /// Applies the host's stalls that have begun by now to hart `h` (its time moves on, it
    /// executes nothing) and returns the ticks until the next one.
    fn host_stalls(&mut self, h: usize) -> u64 {
        let Some(host) = &mut self.host else { return u64::MAX };
        let now = self.clock + self.pos;
        if let Some(steal) = host.take_resumed(h)
            && self.host_trace
        {
            let by = host.culprit_name(steal.by);
            trace_steal(&mut self.bus.trace, now, h, now - steal.since, &by, steal.cpu);
        }
        let cpu = host.cpu_of(h);
        let mut now = now;
        while let Some(stall) = host.next_stall(h, now) {
            let end = stall.at + stall.len;
            if let Some(by) = stall.by
                && self.host_trace
                && end > now
            {
                trace_steal(&mut self.bus.trace, end, h, end - now.max(stall.at), by, cpu);
            }
            now = now.max(end);
        }
        let until = host.next_stall_at(h).map_or(u64::MAX, |at| at.saturating_sub(now));
        self.pos = now - self.clock;
        self.carry_overrun(h);
        until
    }

    /// A waiting hart wakes now if an enabled interrupt is pending, or later in this turn
    /// when its timer fires; otherwise it sleeps through the turn.
    fn wait_in_turn(&mut self, h: usize) {
        let quantum = self.config.quantum;
        let hart = &mut self.harts[h];
        if !hart.wake_pending(&self.bus) {
            match self.wake_tick(h) {
                Some(t) if t < self.clock + quantum => self.pos = t - self.clock,
                _ => {
                    self.pos = quantum;
                    return;
                }
            }
        }
        let hart = &mut self.harts[h];
        hart.clock_base = (self.clock + self.pos).wrapping_sub(hart.ticks);
        hart.state = RunState::Running;
        hart.suspended = false;
    }

    /// The global tick at which hart `h`'s enabled timer interrupt fires, if in the future.
    fn wake_tick(&self, h: usize) -> Option<u64> {
        let hart = &self.harts[h];
        let timer_bit = if hart.firmware { irq::STI } else { irq::MTI };
        let deadline = self.bus.timer_deadline(h);
        (hart.csr.mie & timer_bit != 0 && deadline != u64::MAX && deadline > self.clock + self.pos).then_some(deadline)
    }

    /// Stalls take a hart's quantum like instructions do, so every hart's time advances by the
    /// same quantum per round: a hart that overran its last turn starts this one that far in,
    /// or sits it out.
    fn next_turn(&mut self) {
        self.cur += 1;
        if self.cur == self.harts.len() {
            self.cur = 0;
            self.clock += self.config.quantum;
        }
        let hart = &mut self.harts[self.cur];
        self.pos = hart.overrun.min(self.config.quantum);
        hart.overrun -= self.pos;
    }

    /// At a round start with no hart running, jumps the clock to the round in which the
    /// first timer fires. Fails when nothing can ever wake any hart.
    fn skip_idle(&mut self) -> Result<(), Stop> {
        if self.harts.iter().any(|h| h.state == RunState::Running) {
            return Ok(());
        }
        let mut earliest = None::<u64>;
        for h in 0..self.harts.len() {
            let hart = &mut self.harts[h];
            if hart.state != RunState::Waiting {
                continue;
            }
            hart.clock_base = self.clock.wrapping_sub(hart.ticks);
            if hart.wake_pending(&self.bus) {
                return Ok(());
            }
            if let Some(t) = self.wake_tick(h) {
                earliest = Some(earliest.map_or(t, |e| e.min(t)));
            }
        }
        let Some(t) = earliest else {
            let what = if self.harts.iter().all(|h| h.state == RunState::Stopped) {
                "every hart is stopped"
            } else {
                "every hart waits for an interrupt, and no enabled interrupt can ever arrive"
            };
            return Err(self.fault(0, what.into()));
        };
        let quantum = self.config.quantum;
        self.clock += (t - self.clock) / quantum * quantum;
        Ok(())
    }

    pub fn set_exec(&mut self, exec: Exec) {
        self.harts.iter_mut().for_each(|h| h.reference = exec == Exec::Reference);
    }

    /// Hot code is compiled by `compiler` from now on (`None`: everything is interpreted).
    /// The reference mode never compiles, and neither does a machine with a data cache.
    pub fn set_compiler(&mut self, compiler: Option<alloc::boxed::Box<dyn crate::jit::Compiler>>) {
        self.code.set_compiler(compiler);
    }

    /// Instructions retired by all harts (a trap counts as one; cache stalls do not).
    pub fn instret(&self) -> u64 {
        self.harts.iter().map(|h| h.retired()).sum()
    }

    /// Emulated time: the global clock plus the current hart's progress in its turn.
    pub fn time_ns(&self) -> u64 {
        (self.clock + self.pos).saturating_mul(NS_PER_INSTRUCTION)
    }

    pub fn boot_mode(&self) -> BootMode {
        self.boot_mode
    }

    pub fn take_console(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.bus.console)
    }

    pub fn take_trace(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.bus.trace)
    }

    pub fn push_input(&mut self, bytes: &[u8]) {
        self.bus.uart.input.extend(bytes.iter().copied());
    }

    fn phys_range(&self, addr: u64, len: usize) -> Result<usize, LoadError> {
        self.bus.ram_offset(addr, len as u64).ok_or(LoadError::PhysRange {
            addr,
            len: len as u64,
            ram_start: RAM_BASE,
            ram_end: self.bus.ram_end(),
        })
    }

    pub fn read_phys(&self, addr: u64, buf: &mut [u8]) -> Result<(), LoadError> {
        let off = self.phys_range(addr, buf.len())?;
        buf.copy_from_slice(&self.bus.ram[off..off + buf.len()]);
        Ok(())
    }

    pub fn write_phys(&mut self, addr: u64, data: &[u8]) -> Result<(), LoadError> {
        let off = self.phys_range(addr, data.len())?;
        self.bus.ram[off..off + data.len()].copy_from_slice(data);
        // Host writes are rare: forget all decoded code rather than track the range.
        self.code.clear(&mut self.bus);
        Ok(())
    }

    pub fn harts(&self) -> usize {
        self.harts.len()
    }

    /// The pc of `hart` (0 for a hart that does not exist).
    pub fn pc(&self, hart: usize) -> u64 {
        self.harts.get(hart).map_or(0, |h| h.pc)
    }

    /// Register `index` (0..32) of `hart`; 0 when either does not exist.
    pub fn reg(&self, hart: usize, index: usize) -> u64 {
        match self.harts.get(hart) {
            Some(h) if index < 32 => h.x[index],
            _ => 0,
        }
    }

    /// Sets a register; writes to x0 or to registers that do not exist are ignored.
    pub fn set_reg(&mut self, hart: usize, index: usize, value: u64) {
        if let Some(h) = self.harts.get_mut(hart)
            && (1..32).contains(&index)
        {
            h.x[index] = value;
        }
    }

    /// Reads a CSR of `hart` as M-mode would; `None` if the hart or CSR does not exist.
    pub fn csr(&self, hart: usize, addr: u16) -> Option<u64> {
        self.harts.get(hart)?.csr_read(addr, &self.bus)
    }

    pub fn exit_code(&self) -> Option<i32> {
        self.bus.exit
    }

    /// The physical address of the FDT handed to the guest in a1.
    pub fn fdt_addr(&self) -> u64 {
        self.bus.ram_end() - FDT_FROM_RAM_END
    }
}
