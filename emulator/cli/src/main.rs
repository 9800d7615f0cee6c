//! `runqueue`: run the teaching kernel (or any RV64 ELF) on Runqueue's emulator, grade labs,
//! and measure the emulator's speed.

use clap::{Parser, Subcommand};
use runqueue::run;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "runqueue", version, about = "Runqueue: CPU scheduling on a real riscv64 kernel, reproducibly")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Boot an ELF (by default the bundled teaching kernel) and run it until it shuts down.
    /// The exit code is the guest's.
    Run(run::RunArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Run(args) => run::run(&args),
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("runqueue: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
