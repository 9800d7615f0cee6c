# Exceptions taken in M-mode: each cause with its mcause, mepc and mtval.
.equ NOWHERE, 0x50000000                  # no RAM and no device (docs/platform.md)
.equ PAST_RAM, 0x88000000 + 0x1000        # past the default 128 MiB of RAM

# Loads or stores (`op`) at the constant address `addr` and expects access fault `cause`.
.macro TEST_ACCESS_FAULT n, op, cause, addr
  CASE \n
  li a1, \addr
  ARM_TRAP .Lresume\@
.Linsn\@:
  \op a0, 0(a1)
  j fail
.Lresume\@:
  EXPECT_TRAP MODE_M, \cause, .Linsn\@, \addr
.endm

# Jumps to the constant address `addr` and expects an instruction access fault there.
.macro TEST_FETCH_FAULT n, addr
  CASE \n
  li a1, \addr
  ARM_TRAP .Lresume\@
  jalr ra, 0(a1)
  j fail
.Lresume\@:
  ld tp, trap_record + 32
  EXPECT tp, MODE_M
  ld tp, trap_record
  EXPECT tp, 1
  ld tp, trap_record + 8
  EXPECT tp, \addr
  ld tp, trap_record + 16
  EXPECT tp, \addr
.endm

test_main:
  # --- illegal instructions (mtval: the instruction bits, or 0) ---
  TEST_ILLEGAL 1, .word, 0x00002007        # flw: no F extension
  TEST_ILLEGAL 2, .word, 0x00000053        # fadd.s
  TEST_ILLEGAL 3, .word, 0x0000000b        # custom-0 opcode
  TEST_ILLEGAL 4, .word, 0x00000000        # all zeros
  TEST_ILLEGAL 5, .word, 0xffffffff        # all ones
  TEST_ILLEGAL 6, .word, 0x0000703b        # an OP-32 funct3 with no instruction
  TEST_ILLEGAL 7, .word, 0x4000103b        # OP-32 funct7 = 0x20 with funct3 = 1
  TEST_ILLEGAL 8, .word, 0x08001013        # slli with a reserved funct6
  TEST_ILLEGAL 9, .word, 0x0200101b        # slliw with shamt[5] set
  TEST_ILLEGAL 10, .word, 0x30200073 | (1 << 15)   # mret with rs1 != 0
  TEST_ILLEGAL 11, .word, 0x0000402f        # AMO funct3 = 4 (no such width)

  # --- breakpoint (mtval: the pc, or 0) ---
  CASE 20
  ARM_TRAP 1f
2:
  ebreak
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 3, 2b
  ld tp, trap_record + 16
  beqz tp, 3f
  EXPECT_ADDR tp, 2b
3:

  # --- environment calls from M, S and U ---
  CASE 21
  ARM_TRAP 1f
2:
  ecall
  j fail
1:
  EXPECT_TRAP MODE_M, 11, 2b, 0
  CASE 22
  GOTO_MODE MODE_S, 4f
4:
  ARM_TRAP 1f
2:
  ecall
  j fail
1:
  EXPECT_TRAP MODE_M, 9, 2b, 0
  EXPECT_CSR_BITS mstatus, MSTATUS_MPP, MODE_S << 11
  CASE 23
  GOTO_MODE MODE_U, 4f
4:
  ARM_TRAP 1f
2:
  ecall
  j fail
1:
  EXPECT_TRAP MODE_M, 8, 2b, 0
  EXPECT_CSR_BITS mstatus, MSTATUS_MPP, MODE_U << 11

  # --- access faults outside RAM and devices ---
  TEST_ACCESS_FAULT 30, ld, 5, NOWHERE
  TEST_ACCESS_FAULT 31, lbu, 5, PAST_RAM
  TEST_ACCESS_FAULT 32, sd, 7, NOWHERE
  TEST_ACCESS_FAULT 33, sb, 7, PAST_RAM
  TEST_FETCH_FAULT 35, NOWHERE
  TEST_FETCH_FAULT 36, PAST_RAM
  CASE 37                                  # a faulting compressed load: mepc is its address
  li s0, NOWHERE
  ARM_TRAP 1f
2:
  .option push
  .option arch, +c
  c.ld a0, 8(s0)
  .option pop
  j fail
1:
  EXPECT_TRAP MODE_M, 5, 2b, NOWHERE + 8
  CASE 38                                  # the faulting load leaves rd unchanged
  li a0, 1234
  li a1, NOWHERE
  ARM_TRAP 1f
  ld a0, 0(a1)
  j fail
1:
  EXPECT a0, 1234

  # --- jalr clears bit 0 of the target; 2-byte aligned targets are fine with C ---
  CASE 40
  la a1, 1f
  addi a1, a1, 1
  jalr ra, 0(a1)
  j fail
  .balign 4
1:
  CASE 41
  la a1, 1f
  jalr ra, 0(a1)
  j fail
  .balign 4
  .half 0x0001                             # c.nop, so 1f is 2 mod 4
1:
  andi a0, a1, 3
  EXPECT a0, 2

  # --- misaligned fetch: only possible when C can be turned off in misa ---
  CASE 42
  .option push
  .option norvc
  .balign 4
  li a0, 1 << 2
  csrc misa, a0
  csrr a1, misa
  and a1, a1, a0
  bnez a1, 5f                              # misa.C is read-only: nothing to test
  la a1, 3f
  ARM_TRAP 1f
2:
  jalr ra, 0(a1)
  j fail
  .balign 4
  nop
  .half 0x0001
3:
  .half 0x0001
  j fail
1:
  csrs misa, a0
  EXPECT_TRAP_TVAL_AT MODE_M, 0, 2b, 3b
  .balign 4
5:
  .option pop

  # Last, because QEMU 7.2 reports it as a load fault: an AMO is a store/AMO access (cause 7).
  CASE 90
  li a1, NOWHERE
  ARM_TRAP 1f
2:
  amoadd.d a0, a0, (a1)
  j fail
1:
  EXPECT_TRAP MODE_M, 7, 2b, NOWHERE
  j pass
