#![no_std]
//! The page's compiled tier: a [`Region`] of guest code (`runqueue_emu::jit`) as the bytes of
//! a WebAssembly module. The module imports the machine's memory as `env.memory` and exports
//! `run`, of type `(i32) -> ()`: called with a `*mut Frame` of the wasm32 build of the
//! emulator, it does what the interpreter would, tick for tick, until it leaves.
//!
//! The region's guest registers live in locals while it runs, its blocks are the cases of a
//! dispatch loop (`emit.rs`), and each op's semantics come from one table (`ops.rs`). The
//! module only makes sense in the wasm32 emulator, whose frame layout it reads (`offset_of!`
//! as this crate is compiled); built natively it still validates, which the tests check.

extern crate alloc;

mod emit;
mod encode;
mod helpers;
mod ops;

use alloc::vec::Vec;
use encode::{bytes, section, uleb, Ty};
use runqueue_emu::jit::Region;

/// Section ids and the other constants of the module's layout (WebAssembly 1.0, 5.5).
const MAGIC: &[u8] = b"\0asm\x01\0\0\0";
const TYPE: u8 = 1;
const IMPORT: u8 = 2;
const FUNCTION: u8 = 3;
const EXPORT: u8 = 7;
const CODE: u8 = 10;
const FUNC_TYPE: u8 = 0x60;
const MEMORY: u8 = 0x02;
const FUNC: u8 = 0x00;

/// The name `run` is exported under.
pub const EXPORT_NAME: &str = "run";

/// Type indices: the region's function, then helpers over i64 and over i32 operands.
const RUN_TYPE: u64 = 0;
fn helper_type(ty: Ty) -> u64 {
    match ty {
        Ty::I64 => 1,
        Ty::I32 => 2,
    }
}

/// The module for `region`.
pub fn module(region: &Region) -> Vec<u8> {
    let (run, helpers) = emit::function(region);
    let mut out = Vec::from(MAGIC);

    let mut types = Vec::new();
    uleb(&mut types, 3);
    types.extend([FUNC_TYPE, 1, Ty::I32 as u8, 0]);
    for ty in [Ty::I64, Ty::I32] {
        types.extend([FUNC_TYPE, 2, ty as u8, ty as u8, 1, ty as u8]);
    }
    section(&mut out, TYPE, &types);

    let mut imports = Vec::new();
    uleb(&mut imports, 1);
    bytes(&mut imports, b"env");
    bytes(&mut imports, b"memory");
    // No maximum, minimum 0: any memory matches.
    imports.extend([MEMORY, 0, 0]);
    section(&mut out, IMPORT, &imports);

    let mut functions = Vec::new();
    uleb(&mut functions, 1 + helpers.len() as u64);
    uleb(&mut functions, RUN_TYPE);
    for &(_, ty) in &helpers {
        uleb(&mut functions, helper_type(ty));
    }
    section(&mut out, FUNCTION, &functions);

    let mut exports = Vec::new();
    uleb(&mut exports, 1);
    bytes(&mut exports, EXPORT_NAME.as_bytes());
    exports.extend([FUNC, 0]);
    section(&mut out, EXPORT, &exports);

    let mut code = Vec::new();
    uleb(&mut code, 1 + helpers.len() as u64);
    bytes(&mut code, &run);
    for &(helper, ty) in &helpers {
        let mut body = Vec::new();
        match helper.locals() {
            0 => uleb(&mut body, 0),
            n => {
                uleb(&mut body, 1);
                uleb(&mut body, n as u64);
                body.push(ty as u8);
            }
        }
        let mut c = helper.body(ty);
        c.finish();
        body.extend_from_slice(&c.bytes);
        bytes(&mut code, &body);
    }
    section(&mut out, CODE, &code);
    out
}
