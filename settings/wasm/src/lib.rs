//! The page's reading of a kernel command line: the same parser as the kernel's, over the
//! kernel's catalog (`catalog.json`), so the page checks nothing itself (`book/widget/catalog.js`
//! only words the problems this returns). A wasm of its own, a few tens of kilobytes: every
//! page with an experiment reads its settings at once, and the emulator's wasm waits until an
//! experiment is about to run.

use runqueue_settings::reading::{OwnedCatalog, read};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct SettingsReader(OwnedCatalog);

#[wasm_bindgen]
impl SettingsReader {
    /// `catalog` is the kernel's `CATALOG` JSON.
    #[wasm_bindgen(constructor)]
    pub fn new(catalog: &str) -> Result<SettingsReader, JsError> {
        OwnedCatalog::from_json(catalog).map(SettingsReader).map_err(|e| JsError::new(&e))
    }

    /// Reads `line` over `base` (JSON `{"sched", "workload", "tunables": [[name, value], ...]}`)
    /// and returns JSON `{"sched", "workload", "tunables", "errors"}` (`runqueue_settings::reading`).
    pub fn read(&self, line: &str, base: &str) -> Result<String, JsError> {
        let base = serde_json::from_str(base).map_err(|e| JsError::new(&format!("base settings: {e}")))?;
        Ok(read(line, &self.0, &base).to_string())
    }
}
