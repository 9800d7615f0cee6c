//! `runqueue settings`: a kernel command line read as the book's page reads it
//! (`runqueue_settings::reading`), printed as JSON: what it sets, and every word it refuses
//! with why. The figure generator spells each experiment's line through it, as the page does.

use crate::run::{KERNEL, execute};
use crate::{Failure, read_file};
use clap::Args;
use runqueue_emu::MachineOptions;
use runqueue_settings::reading::{OwnedCatalog, read};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct SettingsArgs {
    /// The command line to read, e.g. "sched=rr rr.slice_ms=10".
    pub line: String,
    /// The settings the line applies over, as JSON: {"sched", "workload", "tunables": [[name, value], ...]}.
    #[arg(long, value_name = "JSON", default_value = "{}")]
    pub base: String,
    /// The kernel's catalog (the JSON of `runqueue run --append catalog`); the bundled kernel's
    /// when omitted.
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<PathBuf>,
}

/// The bundled kernel's `CATALOG` JSON.
pub fn kernel_catalog() -> Result<String, Failure> {
    let options = MachineOptions::parse("catalog").map_err(|e| Failure::Input(e.to_string()))?;
    let out = execute(KERNEL, &options, 1 << 30, |_| {})?;
    let line = out.console.lines().find_map(|l| l.strip_prefix("CATALOG "));
    line.map(str::to_string).ok_or_else(|| Failure::Input("the bundled kernel printed no CATALOG line".into()))
}

pub fn settings(args: &SettingsArgs) -> Result<ExitCode, Failure> {
    let json = match &args.catalog {
        Some(path) => String::from_utf8_lossy(&read_file(path, "catalog")?).into_owned(),
        None => kernel_catalog()?,
    };
    let catalog = OwnedCatalog::from_json(json.trim()).map_err(Failure::Input)?;
    let base = serde_json::from_str(&args.base).map_err(|e| Failure::Input(format!("--base is not JSON: {e}")))?;
    println!("{}", read(&args.line, &catalog, &base));
    Ok(ExitCode::SUCCESS)
}
