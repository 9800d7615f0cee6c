#![no_std]
#![no_main]
runqueue_isa_tests::isa_test!("suite_layout.S");
