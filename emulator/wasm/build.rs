//! The compiled tier (`src/tier.rs`) adds each compiled region's function to the module's
//! function table, which the linker otherwise makes exactly as large as its own functions need.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=--growable-table");
    }
}
