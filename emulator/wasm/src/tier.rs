//! The page's compiled tier: each hot region (`runqueue_emu::jit`) becomes a WebAssembly
//! module of its own (`runqueue-jit-wasm`), compiled synchronously (allowed in a Worker) and
//! instantiated on the emulator's own memory. Its `run` export goes into the emulator's
//! function table, and the table index is the region's `CompiledFn`: a function pointer in
//! wasm32 is a table index, so the interpreter's call is a `call_indirect` of type
//! `(i32) -> ()`, with no trip through JavaScript.

use std::rc::Rc;
use std::cell::Cell;
use js_sys::{Function, Object, Reflect, Uint8Array, WebAssembly};
use runqueue_emu::jit::{CompiledFn, Compiler, Region, HOT, ROUNDS};
use wasm_bindgen::{JsCast, JsValue};

pub struct WasmCompiler {
    table: WebAssembly::Table,
    /// `{env: {memory}}`: what every region's module imports.
    imports: Object,
    /// Table slots holding a region's function, and slots freed by `reset` for reuse.
    used: Vec<u32>,
    free: Vec<u32>,
    /// Regions compiled since the machine booted (shared with the session, which reports it).
    compiled: Rc<Cell<u32>>,
    /// Eager: a region is compiled at the first jump to its entry, for tests.
    eager: bool,
}

impl WasmCompiler {
    pub fn new(compiled: Rc<Cell<u32>>, eager: bool) -> Result<WasmCompiler, JsValue> {
        let env = Object::new();
        Reflect::set(&env, &"memory".into(), &wasm_bindgen::memory())?;
        let imports = Object::new();
        Reflect::set(&imports, &"env".into(), &env)?;
        let table = wasm_bindgen::function_table().dyn_into::<WebAssembly::Table>()?;
        Ok(WasmCompiler { table, imports, used: Vec::new(), free: Vec::new(), compiled, eager })
    }

    fn install(&mut self, region: &Region) -> Result<u32, JsValue> {
        let bytes = runqueue_jit_wasm::module(region);
        let module = WebAssembly::Module::new(&Uint8Array::from(&bytes[..]).into())?;
        let instance = WebAssembly::Instance::new(&module, &self.imports)?;
        let run = Reflect::get(&instance.exports(), &runqueue_jit_wasm::EXPORT_NAME.into())?.dyn_into::<Function>()?;
        let index = match self.free.pop() {
            Some(index) => index,
            None => self.table.grow(1)?,
        };
        self.table.set(index, &run)?;
        self.used.push(index);
        Ok(index)
    }
}

impl Compiler for WasmCompiler {
    fn compile(&mut self, region: &Region) -> Option<CompiledFn> {
        // A region the engine refuses (it never should: the tests validate every module) or
        // a table that cannot grow stays with the interpreter.
        let index = self.install(region).ok()?;
        self.compiled.set(self.compiled.get() + 1);
        // SAFETY: on wasm32 a function pointer is its index in the function table, and the
        // function there has the type `extern "C" fn(*mut Frame)` lowers to: (i32) -> ().
        Some(unsafe { core::mem::transmute::<usize, CompiledFn>(index as usize) })
    }

    fn hot(&self) -> u8 {
        if self.eager { 1 } else { HOT }
    }

    fn rounds(&self) -> u16 {
        if self.eager { 1 } else { ROUNDS }
    }

    fn reset(&mut self) {
        // Emptied slots let the engine drop the old instances.
        for &index in &self.used {
            let _ = self.table.set_raw(index, &JsValue::NULL);
        }
        self.free.append(&mut self.used);
    }
}
