# Privilege: mret/sret and the MPP/SPP/MPIE/SPIE/MIE/SIE stack, privileged instructions and
# CSRs from lower modes, and exception delegation through medeleg to S-mode.

test_main:
  # --- mret pops the M stack: MIE = MPIE, MPIE = 1, MPP = U ---
  CASE 1
  CSR_CLEAR mstatus, MSTATUS_MIE | MSTATUS_MPIE
  GOTO_MODE MODE_M, 1f
1:
  EXPECT_CSR_BITS mstatus, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP, MSTATUS_MPIE
  CASE 2                                   # MPIE = 1 becomes MIE (no interrupt is enabled in mie)
  csrw mie, zero
  CSR_SET mstatus, MSTATUS_MPIE
  GOTO_MODE MODE_M, 1f
1:
  EXPECT_CSR_BITS mstatus, MSTATUS_MIE | MSTATUS_MPIE, MSTATUS_MIE | MSTATUS_MPIE
  CSR_CLEAR mstatus, MSTATUS_MIE

  # --- a trap pushes: MPIE = MIE, MIE = 0, MPP = previous mode ---
  CASE 3
  CSR_SET mstatus, MSTATUS_MIE
  CSR_CLEAR mstatus, MSTATUS_MPIE
  ARM_TRAP 1f
  ecall
1:
  EXPECT_CSR_BITS mstatus, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP, MSTATUS_MPIE | MSTATUS_MPP

  # --- lower modes cannot touch M-mode state ---
  CASE 10                                  # S-mode reading mstatus
  GOTO_MODE MODE_S, 4f
4:
  ARM_TRAP 1f
2:
  csrr a0, mstatus
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  EXPECT_CSR_BITS mstatus, MSTATUS_MPP, MODE_S << 11
  CASE 11                                  # S-mode executing mret
  GOTO_MODE MODE_S, 4f
4:
  ARM_TRAP 1f
2:
  mret
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  CASE 12                                  # U-mode reading sstatus
  GOTO_MODE MODE_U, 4f
4:
  ARM_TRAP 1f
2:
  csrr a0, sstatus
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  EXPECT_CSR_BITS mstatus, MSTATUS_MPP, MODE_U << 11
  CASE 13                                  # U-mode executing sret
  GOTO_MODE MODE_U, 4f
4:
  ARM_TRAP 1f
2:
  sret
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  CASE 14                                  # U-mode executing sfence.vma
  GOTO_MODE MODE_U, 4f
4:
  ARM_TRAP 1f
2:
  sfence.vma
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  CASE 15                                  # S-mode sret with mstatus.TSR set
  CSR_SET mstatus, 1 << 22
  GOTO_MODE MODE_S, 4f
4:
  ARM_TRAP 1f
2:
  sret
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  CSR_CLEAR mstatus, 1 << 22
  CASE 16                                  # S-mode satp access with mstatus.TVM set
  CSR_SET mstatus, 1 << 20
  GOTO_MODE MODE_S, 4f
4:
  ARM_TRAP 1f
2:
  csrr a0, satp
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  CSR_CLEAR mstatus, 1 << 20
  CASE 17                                  # S-mode may use its own CSRs
  GOTO_MODE MODE_S, 4f
4:
  li a0, 0x77
  csrw sscratch, a0
  csrr a1, sscratch
  csrr a2, sstatus
  BACK_TO_M 1f
1:
  EXPECT a1, 0x77

  # --- sret pops the S stack: SIE = SPIE, SPIE = 1, SPP = U; it can return to U ---
  CASE 20
  GOTO_MODE MODE_S, 4f
4:
  li a0, MSTATUS_SIE | MSTATUS_SPP
  csrc sstatus, a0
  li a0, MSTATUS_SPIE
  csrs sstatus, a0
  la a0, 5f
  csrw sepc, a0
  sret
5:
  ARM_TRAP 1f                              # in U now: sstatus is out of reach
2:
  csrr a0, sstatus
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 2, 2b
  EXPECT_CSR_BITS mstatus, MSTATUS_MPP | MSTATUS_SPP | MSTATUS_SIE | MSTATUS_SPIE, MSTATUS_SIE | MSTATUS_SPIE
  csrci sstatus, MSTATUS_SIE
  CASE 21                                  # sret with SPP = S stays in S
  GOTO_MODE MODE_S, 4f
4:
  li a0, MSTATUS_SPP
  csrs sstatus, a0
  la a0, 5f
  csrw sepc, a0
  sret
5:
  csrr a1, sstatus                         # does not trap in S
  andi a1, a1, MSTATUS_SPP
  BACK_TO_M 1f
1:
  EXPECT a1, 0
  EXPECT_CSR_BITS mstatus, MSTATUS_MPP, MODE_S << 11

  # --- delegation through medeleg ---
  CASE 30                                  # traps from M stay in M whatever medeleg says
  li a0, -1
  csrw medeleg, a0
  ARM_TRAP 1f
2:
  ecall
1:
  EXPECT_TRAP MODE_M, 11, 2b, 0
  csrw medeleg, zero
  CASE 31                                  # a delegated U ecall goes to S with scause/sepc/SPP
  li a0, 1 << 8
  csrw medeleg, a0
  GOTO_MODE MODE_U, 4f
4:
  ARM_TRAP 1f
2:
  ecall
  j fail
1:
  EXPECT_TRAP MODE_S, 8, 2b, 0
  csrr a0, sstatus
  andi a0, a0, MSTATUS_SPP
  EXPECT a0, 0
  BACK_TO_M 1f                             # an S ecall is not delegated
1:
  EXPECT_TRAP MODE_M, 9, 1b - 4, 0
  CASE 32                                  # a delegated illegal instruction from U, with stval
  li a0, 1 << 2
  csrw medeleg, a0
  GOTO_MODE MODE_U, 4f
4:
  ARM_TRAP 1f
2:
  .word 0x00002007
  j fail
1:
  EXPECT_ILLEGAL MODE_S, 2b, 0x00002007
  BACK_TO_M 1f
1:
  CASE 33                                  # an exception in M is never delegated
2:
  ARM_TRAP 1f
  .word 0x00002007
1:
  ld tp, trap_record + 32
  EXPECT tp, MODE_M
  CASE 34                                  # a delegated breakpoint from S: SPP = S, SIE -> SPIE
  li a0, 1 << 3
  csrw medeleg, a0
  csrsi sstatus, MSTATUS_SIE
  GOTO_MODE MODE_S, 4f
4:
  ARM_TRAP 1f
2:
  ebreak
  j fail
1:
  EXPECT_TRAP_AT MODE_S, 3, 2b
  csrr a0, sstatus
  andi a0, a0, MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE
  BACK_TO_M 1f
1:
  EXPECT a0, MSTATUS_SPP | MSTATUS_SPIE
  csrw medeleg, zero
  CASE 35                                  # stvec vectored mode does not apply to exceptions
  li a0, 1 << 8
  csrw medeleg, a0
  la a0, trap_s
  ori a0, a0, 1
  csrw stvec, a0
  GOTO_MODE MODE_U, 4f
4:
  ARM_TRAP 1f
2:
  ecall
1:
  EXPECT_TRAP_AT MODE_S, 8, 2b
  BACK_TO_M 1f
1:
  la a0, trap_s
  csrw stvec, a0
  csrw medeleg, zero
  j pass
