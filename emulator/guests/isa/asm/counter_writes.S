# Counter writes (privileged spec 3.1.11, "Machine Counter/Timers"): a CSR write to minstret or
# mcycle takes effect after the writing instruction has otherwise completed, and that
# instruction is not counted on top of it, so the next instruction reads exactly the value
# written. A read returns the count of the instructions before the reading one. The counters
# are 64 bits wide and wrap. cycle/instret show the same counters in S and U; time does not
# follow them. (The emulator counts one cycle per instruction, so mcycle is checked the same.)

.equ CY, 1 << 0
.equ TM, 1 << 1
.equ IR, 1 << 2

test_main:
  # Writes to the user read-only views are illegal, even in M-mode.
  CASE 1
  ARM_TRAP 1f
2:
  csrw instret, zero
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  CASE 2
  ARM_TRAP 1f
2:
  csrw cycle, zero
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  CASE 3
  ARM_TRAP 1f
2:
  csrw time, zero
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b

  # The instret and cycle views follow a written value, in M, S and U.
  CASE 5
  li a0, 0x123456789
  csrw minstret, a0
  csrw mcycle, a0
  csrr a1, instret
  csrr a2, cycle
  sub a1, a1, a0
  sub a2, a2, a0
  li a3, 10
  bgeu a1, a3, fail
  bgeu a2, a3, fail
  CASE 6
  csrwi mcounteren, CY | TM | IR
  csrwi scounteren, CY | TM | IR
  li a0, 0x40000000000
  csrw minstret, a0
  csrw mcycle, a0
  GOTO_MODE MODE_S, 4f
4:
  csrr a1, instret
  csrr a2, cycle
  BACK_TO_M 1f
1:
  sub a1, a1, a0
  sub a2, a2, a0
  li a3, 100
  bgeu a1, a3, fail
  bgeu a2, a3, fail
  CASE 7
  csrw minstret, a0
  csrw mcycle, a0
  GOTO_MODE MODE_U, 4f
4:
  csrr a1, instret
  csrr a2, cycle
  BACK_TO_M 1f
1:
  sub a1, a1, a0
  sub a2, a2, a0
  li a3, 100
  bgeu a1, a3, fail
  bgeu a2, a3, fail

  # Last, because QEMU 7.2 does not count exactly (its counters run on the host's clock) and
  # has no time CSR on `spike`.
  CASE 89                                  # writing minstret or mcycle does not move time
  csrr s0, time
  csrw minstret, zero
  csrw mcycle, zero
  csrr s1, time
  bltu s1, s0, fail
  CASE 90                                  # the next instruction reads the value written,
  li a0, 1000                              # then it counts on: one per instruction
  csrw minstret, a0
  csrr a1, minstret
  csrr a2, minstret
  csrr a3, minstret
  EXPECT a1, 1000
  EXPECT a2, 1001
  EXPECT a3, 1002
  CASE 92                                  # csrrw returns the count before its own write
  li a0, 500
  li a2, 7
  csrw minstret, a0
  nop
  csrrw a1, minstret, a2
  csrr a3, minstret
  EXPECT a1, 501
  EXPECT a3, 7
  CASE 93                                  # csrrs and csrrc write too
  li a0, 0x100
  csrw minstret, zero
  csrrs a1, minstret, a0
  csrrc a2, minstret, a0
  csrr a3, minstret
  EXPECT a1, 0
  EXPECT a2, 0x100
  EXPECT a3, 0
  CASE 94                                  # csrrsi/csrrci with 0 only read: counting goes on
  csrw minstret, zero
  csrrsi a1, minstret, 0
  csrrci a2, minstret, 0
  EXPECT a1, 0
  EXPECT a2, 1
  CASE 95                                  # 64-bit wrap
  li a0, -1
  csrw minstret, a0
  csrr a1, minstret
  csrr a2, minstret
  csrr a3, minstret
  EXPECT a1, -1
  EXPECT a2, 0
  EXPECT a3, 1
  CASE 96                                  # the views read the same
  li a0, 77
  csrw minstret, a0
  csrr a1, instret
  EXPECT a1, 77
  CASE 97                                  # mcycle: the same rules
  li a0, 1000
  csrw mcycle, a0
  csrr a1, mcycle
  csrr a2, cycle
  EXPECT a1, 1000
  EXPECT a2, 1001
  CASE 98
  li a0, -1
  csrw mcycle, a0
  csrr a1, mcycle
  csrr a2, mcycle
  EXPECT a1, -1
  EXPECT a2, 0

  j pass
