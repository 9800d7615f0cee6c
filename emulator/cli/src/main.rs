//! `runqueue`: run the teaching kernel (or any RV64 ELF) on Runqueue's emulator, grade labs,
//! and measure the emulator's speed.

use clap::{Parser, Subcommand};
use runqueue::{Failure, bench, grade, homework, run, settings, write_file};
use std::path::PathBuf;
use std::process::ExitCode;

mod huge_ram;

#[global_allocator]
static RAM: huge_ram::HugeRam = huge_ram::HugeRam;

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
    /// Grade a lab solution: build the kernel with it, run the lab's tests, score the traces.
    /// Exit code 0 only with full marks.
    Grade(grade::GradeArgs),
    /// A chapter's homework problems (Markdown), seeded per student, each answered by the
    /// kernel's own run of its workload; `--out DIR` writes sheets and answer keys apart.
    Homework(homework::HomeworkArgs),
    /// Measure the emulator's speed on the benchmark guest, optionally beside peers.
    Bench(BenchArgs),
    /// Read a kernel command line as the book's page does and print, as JSON, what it sets and
    /// why each refused word is wrong.
    Settings(settings::SettingsArgs),
    /// Print the digest of what a run depends on besides its arguments: the bundled kernel and
    /// benchmark, the emulator's sources and the compiler that built this binary. Runs with the
    /// same digest and arguments print the same bytes (the book's figures cache on it).
    Inputs,
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Also write the figures as JSON here.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also run the same guest on QEMU (`-machine spike`) and report the ratio.
    #[arg(long)]
    qemu: bool,
    /// Also run the same guest on TinyEMU's `temu` at this path.
    #[arg(long, value_name = "PATH")]
    tinyemu: Option<PathBuf>,
    /// A tenth of the work, for a quick look.
    #[arg(long)]
    quick: bool,
    /// Measure Linux instead (needs `make linux`): each kernel's boot, and one experiment on
    /// Linux 6.12 and 6.1 beside the same on the teaching kernel.
    #[arg(long)]
    linux: bool,
    /// Settings for our machine, as on a kernel command line, e.g. "cache.kb=32" for a data
    /// cache (docs/platform.md); peers do not get them.
    #[arg(long, value_name = "ARGS", default_value = "")]
    machine: String,
    /// How our emulator runs the guest (fast, interp, reference); a comma-separated list runs
    /// it once per mode, the first as "ours" and the others beside it like peers.
    #[arg(long, value_name = "MODES", value_delimiter = ',', default_value = "fast")]
    exec: Vec<runqueue::tier::ExecMode>,
}

fn bench(args: &BenchArgs) -> Result<ExitCode, Failure> {
    if args.linux {
        println!("{}", runqueue::bench_linux::run().map_err(Failure::Input)?);
        return Ok(ExitCode::SUCCESS);
    }
    let options =
        bench::BenchOptions { qemu: args.qemu, tinyemu: args.tinyemu.clone(), quick: args.quick, machine: args.machine.clone(), exec: args.exec.clone() };
    let report = bench::run(&options).map_err(Failure::Input)?;
    println!("{report}");
    if let Some(path) = &args.json {
        write_file(path, report.to_json().as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    // A reader that stops early (`runqueue homework ... | head`) ends the command quietly, as
    // it ends any Unix tool, instead of a panic on the closed pipe (Rust ignores SIGPIPE).
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Grade(args) => grade::grade(&args),
        Command::Bench(args) => bench(&args),
        Command::Homework(args) => homework::homework(&args),
        Command::Settings(args) => settings::settings(&args),
        Command::Inputs => {
            println!("{}", env!("RUNQUEUE_INPUTS"));
            Ok(ExitCode::SUCCESS)
        }
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("runqueue: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
