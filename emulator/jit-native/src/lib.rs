//! Runqueue's native compiled tier: a [`Compiler`] that turns the interpreter's hot regions
//! (`runqueue_emu::jit`) into host machine code with Cranelift.
//!
//! All code lives in one `JITModule`; [`Compiler::reset`] frees it whole and starts a new one,
//! which is what the code cache asks for when it drops every region at once.

mod translate;

use cranelift_codegen::ir::{AbiParam, Signature};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Module};
use runqueue_emu::jit::{CompiledFn, Compiler, Region};

/// The compiler to hand to `Machine::set_compiler`.
pub struct Native {
    module: JITModule,
    ctx: Context,
    builder: FunctionBuilderContext,
}

impl Native {
    /// A compiler for this host, or why there is none (an unsupported host architecture).
    pub fn new() -> Result<Native, String> {
        let module = new_module()?;
        let ctx = module.make_context();
        Ok(Native { module, ctx, builder: FunctionBuilderContext::new() })
    }

    fn signature(&self) -> Signature {
        let mut sig = Signature::new(self.module.isa().default_call_conv());
        sig.params.push(AbiParam::new(self.module.isa().pointer_type()));
        sig
    }
}

fn new_module() -> Result<JITModule, String> {
    let mut flags = settings::builder();
    // Cranelift's optimiser buys little on code this plain, and costs a third of compile time
    // (docs/bench.md): a region is compiled while the guest waits.
    flags.set("opt_level", "none").map_err(|e| e.to_string())?;
    // The translator builds well-formed functions; checking each costs a tenth of compile time.
    flags.set("enable_verifier", "false").map_err(|e| e.to_string())?;
    let isa = cranelift_native::builder()
        .map_err(|e| format!("no native code generator for this host: {e}"))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| e.to_string())?;
    Ok(JITModule::new(JITBuilder::with_isa(isa, default_libcall_names())))
}

impl Compiler for Native {
    fn compile(&mut self, region: &Region) -> Option<CompiledFn> {
        let sig = self.signature();
        self.ctx.func.signature = sig.clone();
        translate::region(&mut self.ctx.func, &mut self.builder, region, self.module.isa().frontend_config());
        let defined = self
            .module
            .declare_anonymous_function(&sig)
            .and_then(|id| self.module.define_function(id, &mut self.ctx).map(|()| id));
        self.module.clear_context(&mut self.ctx);
        // A region Cranelift rejects is left to the interpreter, which runs every op anyway.
        let id = defined.ok()?;
        self.module.finalize_definitions().ok()?;
        let code = self.module.get_finalized_function(id);
        // SAFETY: the function was built with `CompiledFn`'s signature: one pointer argument,
        // the platform's C calling convention, no result.
        Some(unsafe { std::mem::transmute::<*const u8, CompiledFn>(code) })
    }

    fn reset(&mut self) {
        let fresh = new_module().expect("the host built a module before");
        let old = std::mem::replace(&mut self.module, fresh);
        // SAFETY: the code cache calls `reset` only once no handed-out function will run again.
        unsafe { old.free_memory() };
    }
}
