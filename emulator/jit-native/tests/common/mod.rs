//! What the compiled tier's tests share: a compiler that counts what it compiles, and running a
//! program on two machines, with and without it, comparing them at every stop.

#![allow(dead_code)] // each test file uses its own part

use runqueue_emu::jit::{CompiledFn, Compiler, Region};
use runqueue_emu::{Config, Machine, Stop};
use runqueue_jit::Native;
use std::cell::Cell;
use std::rc::Rc;

/// [`Native`], counting the regions it compiled, and compiling a region at the first jump to
/// its entry: the tests' programs are short, and they are here to run compiled code.
pub struct Counting {
    native: Native,
    compiled: Rc<Cell<usize>>,
}

impl Compiler for Counting {
    fn compile(&mut self, region: &Region) -> Option<CompiledFn> {
        let code = self.native.compile(region);
        self.compiled.set(self.compiled.get() + code.is_some() as usize);
        code
    }

    fn reset(&mut self) {
        self.native.reset()
    }

    fn hot(&self) -> u8 {
        1
    }

    fn rounds(&self) -> u16 {
        1
    }
}

/// Installs the native compiler in `machine`; the counter tells how many regions it compiled.
pub fn install(machine: &mut Machine) -> Rc<Cell<usize>> {
    let compiled = Rc::new(Cell::new(0));
    let native = Native::new().expect("Cranelift supports this host");
    machine.set_compiler(Some(Box::new(Counting { native, compiled: compiled.clone() })));
    compiled
}

/// Physical ranges whose bytes must agree between the two machines.
pub type Ranges<'a> = &'a [(u64, usize)];

/// Everything the two machines must agree on at a stop.
fn state(machine: &Machine, memory: Ranges) -> (u64, u64, Vec<u64>, Vec<Vec<u8>>) {
    let regs = (0..32).map(|r| machine.reg(0, r)).collect();
    let bytes = memory
        .iter()
        .map(|&(addr, len)| {
            let mut buf = vec![0; len];
            machine.read_phys(addr, &mut buf).expect("the compared ranges are in RAM");
            buf
        })
        .collect();
    (machine.pc(0), machine.instret(), regs, bytes)
}

/// Runs `elf` (registers preset from `regs`) on a machine with the compiler and on one without,
/// in slices whose lengths come from `slices` (so runs stop at every point of a loop), until
/// both exit or `max` instructions ran. `Err` describes the first stop where they differ.
/// `Ok` gives the regions compiled.
pub fn lockstep(elf: &[u8], regs: &[(usize, u64)], memory: Ranges, mut slices: impl FnMut() -> u64, max: u64) -> Result<usize, String> {
    let config = || Config { ram_bytes: 16 << 20, ..Config::default() };
    let mut fast = Machine::new(config(), elf).map_err(|e| e.to_string())?;
    let mut interp = Machine::new(config(), elf).map_err(|e| e.to_string())?;
    let compiled = install(&mut fast);
    for &(r, v) in regs {
        fast.set_reg(0, r, v);
        interp.set_reg(0, r, v);
    }
    loop {
        let slice = slices();
        let (a, b) = (fast.run(slice), interp.run(slice));
        let (sa, sb) = (state(&fast, memory), state(&interp, memory));
        if sa != sb || a != b {
            let regs = (0..32).filter(|&r| sa.2[r] != sb.2[r]).map(|r| format!("x{r}: {:#x} vs {:#x}", sa.2[r], sb.2[r]));
            let memory = (0..memory.len()).filter(|&i| sa.3[i] != sb.3[i]).map(|i| format!("memory at {:#x}", memory[i].0));
            return Err(format!(
                "compiled vs interpreted after {} instructions: stop {a:?} vs {b:?}, pc {:#x} vs {:#x}, instret {} vs {}; {}",
                sb.1,
                sa.0,
                sb.0,
                sa.1,
                sb.1,
                regs.chain(memory).collect::<Vec<_>>().join(", ")
            ));
        }
        if a != Stop::Budget || interp.instret() >= max {
            return Ok(compiled.get());
        }
    }
}
