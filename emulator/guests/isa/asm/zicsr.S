# Zicsr: the six CSR instructions, their x0 rules (no write when rs1 = x0 or uimm = 0 for the
# set/clear forms, no read side effect needed when rd = x0 for csrrw), read-only CSR writes
# trapping, unknown CSRs trapping, and the WARL behaviour of a few M-mode CSRs.

# Runs `insn` (a CSR instruction written out as one macro argument) and expects it to trap
# as an illegal instruction.
.macro TEST_CSR_TRAPS n, insn:vararg
  CASE \n
  ARM_TRAP .Lresume\@
.Linsn\@:
  \insn
  j fail
.Lresume\@:
  EXPECT_TRAP_AT MODE_M, 2, .Linsn\@
.endm

test_main:
  CASE 1                                   # csrrw: old value out, new value in
  li a1, 0x1111
  csrw mscratch, a1
  li a2, 0x2222
  csrrw a0, mscratch, a2
  EXPECT a0, 0x1111
  EXPECT_CSR mscratch, 0x2222
  CASE 2                                   # csrrs sets bits
  li a2, 0x00f0
  csrrs a0, mscratch, a2
  EXPECT a0, 0x2222
  EXPECT_CSR mscratch, 0x22f2
  CASE 3                                   # csrrc clears bits
  li a2, 0x0202
  csrrc a0, mscratch, a2
  EXPECT a0, 0x22f2
  EXPECT_CSR mscratch, 0x20f0
  CASE 4                                   # csrrwi: 5-bit zero-extended immediate
  csrrwi a0, mscratch, 31
  EXPECT a0, 0x20f0
  EXPECT_CSR mscratch, 31
  CASE 5
  csrrci a0, mscratch, 0x11
  EXPECT a0, 31
  EXPECT_CSR mscratch, 0xe
  CASE 6
  csrrsi a0, mscratch, 0x10
  EXPECT a0, 0xe
  EXPECT_CSR mscratch, 0x1e
  CASE 7                                   # rd = x0: still writes
  li a1, -1
  csrrw zero, mscratch, a1
  EXPECT_CSR mscratch, -1
  CASE 8                                   # a full 64-bit value survives
  li a1, 0x8000000000000001
  csrw mscratch, a1
  csrr a0, mscratch
  EXPECT a0, 0x8000000000000001
  CASE 9                                   # rd aliasing rs1: reads old, writes the source's value
  li a0, 77
  csrrw a0, mscratch, a0
  EXPECT a0, 0x8000000000000001
  EXPECT_CSR mscratch, 77

  # --- read-only CSRs: reads are fine, writes trap ---
  CASE 20
  csrr a0, mhartid                         # csrrs with rs1 = x0 never writes
  EXPECT a0, 0
  csrrsi a0, mhartid, 0                    # uimm = 0 never writes
  csrrc a0, mvendorid, zero
  csrr a0, marchid
  csrr a0, mimpid
  csrr a0, cycle
  csrr a0, instret
  TEST_CSR_TRAPS 21, csrrw a0, mhartid, zero
  TEST_CSR_TRAPS 23, csrrwi a0, cycle, 1
  TEST_CSR_TRAPS 24, csrrci a0, mvendorid, 1
  TEST_CSR_TRAPS 25, csrrw zero, instret, a1
  TEST_CSR_TRAPS 26, csrrsi a0, time, 4
  TEST_CSR_TRAPS 27, csrr a0, 0x0ff          # an unallocated CSR
  TEST_CSR_TRAPS 28, csrw 0x7ff, a1          # and one more, written
  TEST_CSR_TRAPS 29, csrr a0, fcsr           # no F extension, so no fcsr

  # --- WARL fields ---
  CASE 40                                  # misa: RV64 with I, M, A, C, S, U and no F/D
  csrr a0, misa
  srli a1, a0, 62
  EXPECT a1, 2
  li a2, (1 << 8) | (1 << 12) | (1 << 0) | (1 << 2) | (1 << 18) | (1 << 20)
  and a1, a0, a2
  EXPECT_SAME a1, a2
  andi a1, a0, (1 << 5) | (1 << 3)
  EXPECT a1, 0
  CASE 42                                  # mtvec keeps direct and vectored modes
  la a1, trap_m
  ori a2, a1, 1
  csrw mtvec, a2
  csrr a0, mtvec
  EXPECT_SAME a0, a2
  csrw mtvec, a1
  csrr a0, mtvec
  EXPECT_SAME a0, a1
  CASE 43                                  # mie: only the standard S and M interrupt bits
  li a1, 0xaaa
  csrw mie, a1
  EXPECT_CSR_BITS mie, 0xfff, 0xaaa
  csrw mie, zero
  EXPECT_CSR mie, 0
  CASE 44                                  # sstatus is a view of mstatus without M fields
  csrw mstatus, zero
  csrs sstatus, MSTATUS_SIE
  EXPECT_CSR_BITS mstatus, MSTATUS_SIE, MSTATUS_SIE
  CSR_SET mstatus, MSTATUS_MIE | MSTATUS_MPIE
  EXPECT_CSR_BITS sstatus, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP, 0
  CSR_CLEAR mstatus, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_SIE
  CASE 45                                  # MPP holds only implemented modes (M, S, U)
  li a1, MSTATUS_MPP
  csrs mstatus, a1
  EXPECT_CSR_BITS mstatus, MSTATUS_MPP, MSTATUS_MPP
  csrc mstatus, a1
  li a1, 1 << 11
  csrs mstatus, a1
  EXPECT_CSR_BITS mstatus, MSTATUS_MPP, 1 << 11
  CASE 46                                  # mstatus.UXL/SXL: 64-bit U and S modes
  csrr a0, mstatus
  srli a0, a0, 32
  andi a0, a0, 0xf
  EXPECT a0, 0xa
  CASE 47                                  # sscratch and stvec are plain read/write
  li a1, 0x5555aaaa5555aaaa
  csrw sscratch, a1
  EXPECT_CSR sscratch, 0x5555aaaa5555aaaa

  # Last, because QEMU 7.2 gets these wrong: rs1 != x0 is a write attempt even when its value is
  # zero (Zicsr: "will still attempt to write the unmodified value back"), so it must trap.
  li a1, 0
  TEST_CSR_TRAPS 90, csrrs a0, mhartid, a1
  CASE 91                                  # mepc bit 0 is always zero (QEMU 7.2 keeps it)
  li a1, 0x80001003
  csrw mepc, a1
  EXPECT_CSR mepc, 0x80001002
  j pass
