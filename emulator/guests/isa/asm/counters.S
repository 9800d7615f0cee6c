# Counters: cycle, instret and time increase; minstret/mcycle are writable in M; mcounteren
# and scounteren gate S and U reads; instret counts exactly; time matches the CLINT's mtime.

.equ CY, 1 << 0
.equ TM, 1 << 1
.equ IR, 1 << 2

test_main:
  CASE 1                                   # all three counters move over a loop
  csrr s0, cycle
  csrr s1, instret
  li a0, 1000
1:
  addi a0, a0, -1
  bnez a0, 1b
  csrr s2, cycle
  csrr s3, instret
  bgeu s0, s2, fail
  sub a1, s3, s1
  li a2, 2000                              # at least the loop's 2000 instructions
  bltu a1, a2, fail

  # --- mcounteren / scounteren gate lower modes ---
  CASE 10
  csrw mcounteren, zero
  GOTO_MODE MODE_S, 4f
4:
  ARM_TRAP 1f
2:
  csrr a0, cycle
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  CASE 11
  csrwi mcounteren, CY | TM | IR
  csrw scounteren, zero
  GOTO_MODE MODE_S, 4f
4:
  csrr a0, instret                         # allowed in S
  BACK_TO_M 1f
1:
  ld tp, trap_record
  EXPECT tp, 9
  CASE 12                                  # U needs scounteren too
  GOTO_MODE MODE_U, 4f
4:
  ARM_TRAP 1f
2:
  csrr a0, cycle
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  CASE 13
  csrwi scounteren, CY | TM | IR
  GOTO_MODE MODE_U, 4f
4:
  csrr a0, cycle
  csrr a0, instret
  BACK_TO_M 1f
1:
  ld tp, trap_record
  EXPECT tp, 8

  # Last, because QEMU 7.2 counts from the host's clock and has no time CSR on `spike`.
  CASE 90                                  # instret counts exactly: csrr, nop, nop
  csrr a0, instret
  nop
  nop
  csrr a1, instret
  sub a0, a1, a0
  EXPECT a0, 3
  CASE 91                                  # the time CSR is the CLINT's mtime
  li a1, CLINT_MTIME
  ld a2, 0(a1)
  csrr a3, time
  sub a0, a3, a2
  li a4, 10
  bgeu a0, a4, fail
  CASE 92                                  # and it advances
  li a0, 2000
1:
  addi a0, a0, -1
  bnez a0, 1b
  csrr a4, time
  bgeu a3, a4, fail
  CASE 93                                  # minstret is writable in M-mode
  li a0, 1000000
  csrw minstret, a0
  csrr a1, minstret
  sub a1, a1, a0
  li a2, 10
  bgeu a1, a2, fail
  CASE 94                                  # mcycle too
  csrw mcycle, zero
  csrr a1, mcycle
  li a2, 1000
  bgeu a1, a2, fail

  j pass
