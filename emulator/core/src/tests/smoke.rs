use super::enc::*;
use crate::{BootMode, Config, Machine, Stop};

#[test]
fn mmode_prints_and_exits() {
    let mut a = Asm::default();
    a.print("hi\n").exit(7);
    let elf = elf(0x8000_0000, &a.bytes, 0, &[]);
    let mut m = Machine::new(Config::default(), &elf).unwrap();
    assert_eq!(m.boot_mode(), BootMode::Machine);
    assert_eq!(m.run(1_000_000), Stop::Exit(7));
    assert_eq!(m.take_console(), b"hi\n");
}
