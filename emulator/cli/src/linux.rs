//! Linux on the machine from the command line: `runqueue run --kernel linux-6.12|linux-6.1|linux-6.12-rt|PATH
//! [--initrd FILE]`. The named kernels and the init's initramfs are what `make linux` builds
//! (Debian's linux-source packages with `linux/config/`, cached outside the checkout by the hash
//! of their inputs) and links beside the CLI: `<target>/linux/linux-6.12/Image`,
//! `<target>/linux/initramfs/initramfs.cpio`; `RUNQUEUE_LINUX_DIR` names another such folder.

use crate::{Failure, read_file};
use std::path::{Path, PathBuf};

/// The kernels `make linux` builds.
pub const NAMED: &[&str] = &["linux-6.12", "linux-6.1", "linux-6.12-rt"];

/// What a run boots: the kernel (an ELF or a Linux `Image`) and the initrd, if any.
pub struct Boot {
    pub kernel: Vec<u8>,
    pub initrd: Option<Vec<u8>>,
}

/// Where `make linux` put its products for this CLI.
pub fn products_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("RUNQUEUE_LINUX_DIR") {
        return dir.into();
    }
    let exe = std::env::current_exe().unwrap_or_default();
    // target/release/runqueue -> target/linux (also from target/release/deps for tests)
    let release = exe.parent().map(|p| if p.ends_with("deps") { p.parent().unwrap_or(p) } else { p });
    release.and_then(Path::parent).unwrap_or(Path::new(".")).join("linux")
}

fn product(path: PathBuf, what: &str) -> Result<Vec<u8>, Failure> {
    if !path.exists() {
        return Err(Failure::Input(format!(
            "{what} is not built ({} is missing): run `make linux`, which builds Linux 6.12, 6.1 and 6.12-rt from Debian's \
             linux-source packages once per machine (a few minutes each on 2 cores) and links them beside the CLI",
            path.display()
        )));
    }
    read_file(&path, what)
}

/// Resolves `--kernel` and `--initrd`: a named kernel comes with the init's initramfs unless
/// `--initrd` gives another; a path boots as it is, with the initrd given if any.
pub fn boot(kernel: &str, initrd: Option<&PathBuf>) -> Result<Boot, Failure> {
    let dir = products_dir();
    let named = NAMED.contains(&kernel);
    let image = if named {
        product(dir.join(kernel).join("Image"), &format!("Linux {}", &kernel[6..]))?
    } else if kernel.starts_with("linux-") && !Path::new(kernel).exists() {
        return Err(Failure::Input(format!("no kernel named '{kernel}': the named kernels are {}, or give a path", NAMED.join(", "))));
    } else {
        read_file(&PathBuf::from(kernel), "kernel")?
    };
    let initrd = match initrd {
        Some(path) => Some(read_file(path, "initrd")?),
        None if named => Some(product(dir.join("initramfs").join("initramfs.cpio"), "the init's initramfs")?),
        None => None,
    };
    Ok(Boot { kernel: image, initrd })
}
