# Interrupts: CLINT software (msip) and timer (mtimecmp) interrupts, gating by mie, mip and
# mstatus.MIE, priority (MSI before MTI), M interrupts in lower modes, wfi wake-up, vectored
# mtvec, and S interrupts delegated through mideleg (SSIP and STIP written by M-mode).

.equ MIP_SSIP, 1 << 1
.equ MIP_MSIP, 1 << 3
.equ MIP_STIP, 1 << 5
.equ MIP_MTIP, 1 << 7
.equ SPIN_LIMIT, 1000000                  # loop bound for waiting on the timer

# Arms mtimecmp[0] `ticks` after the current mtime.
.macro TIMER_IN ticks
  li a0, CLINT_MTIME
  ld a0, 0(a0)
  addi a0, a0, \ticks
  li a1, CLINT_MTIMECMP
  sd a0, 0(a1)
.endm

.macro TIMER_OFF
  li a0, -1
  li a1, CLINT_MTIMECMP
  sd a0, 0(a1)
.endm

.macro MSIP value
  li a0, \value
  li a1, CLINT_MSIP
  sw a0, 0(a1)
.endm

# Spins until mip has `bit` set; fails the check if it never does.
.macro WAIT_PENDING bit
  li a2, SPIN_LIMIT
.Lwait\@:
  addi a2, a2, -1
  beqz a2, fail
  csrr a0, mip
  andi a0, a0, \bit
  beqz a0, .Lwait\@
.endm

test_main:
  csrw mie, zero
  TIMER_OFF
  # --- machine software interrupt ---
  CASE 1                                   # msip shows in mip, no trap while disabled
  MSIP 1
  EXPECT_CSR_BITS mip, MIP_MSIP, MIP_MSIP
  CSR_SET mstatus, MSTATUS_MIE             # MIE on, mie.MSIE off: nothing
  nop
  CSR_CLEAR mstatus, MSTATUS_MIE
  csrsi mie, MIP_MSIP                      # mie.MSIE on, MIE off: nothing
  nop
  CASE 2                                   # both on: taken at the next instruction
  ARM_TRAP 1f
  csrsi mstatus, MSTATUS_MIE
2:
  nop
  j fail
1:
  EXPECT_TRAP MODE_M, INTERRUPT | 3, 2b, 0
  EXPECT_CSR_BITS mstatus, MSTATUS_MIE | MSTATUS_MPIE, MSTATUS_MPIE
  CASE 3                                   # clearing msip clears mip.MSIP
  MSIP 0
  EXPECT_CSR_BITS mip, MIP_MSIP, 0
  csrw mie, zero

  # --- machine timer interrupt ---
  CASE 10                                  # mtime advances
  li a1, CLINT_MTIME
  ld a2, 0(a1)
  li a3, 2000
1:
  addi a3, a3, -1
  bnez a3, 1b
  ld a3, 0(a1)
  bgeu a2, a3, fail
  CASE 11                                  # mip.MTIP rises when mtime reaches mtimecmp
  TIMER_IN 50
  WAIT_PENDING MIP_MTIP
  CASE 12                                  # taken once enabled
  csrsi mstatus, MSTATUS_MIE
  ARM_TRAP 1f
  li a0, MIP_MTIP
  csrs mie, a0
2:
  nop
  j fail
1:
  EXPECT_TRAP MODE_M, INTERRUPT | 7, 2b, 0
  CASE 13                                  # a later mtimecmp clears mip.MTIP
  TIMER_OFF
  EXPECT_CSR_BITS mip, MIP_MTIP, 0
  csrw mie, zero

  # --- priority: software before timer ---
  CASE 20
  MSIP 1
  TIMER_IN 1
  WAIT_PENDING MIP_MTIP
  li a0, MIP_MTIP | MIP_MSIP
  csrs mie, a0
  ARM_TRAP 1f
  csrsi mstatus, MSTATUS_MIE
  j fail
1:
  ld tp, trap_record
  EXPECT tp, INTERRUPT | 3
  CASE 21
  MSIP 0
  ARM_TRAP 1f
  csrsi mstatus, MSTATUS_MIE
  j fail
1:
  ld tp, trap_record
  EXPECT tp, INTERRUPT | 7
  TIMER_OFF
  csrw mie, zero

  # --- M interrupts are always enabled in lower modes, whatever mstatus.MIE ---
  CASE 30
  MSIP 1
  csrsi mie, MIP_MSIP
  CSR_CLEAR mstatus, MSTATUS_MIE
  ARM_TRAP 1f
  GOTO_MODE MODE_S, 2f
2:
  nop
  j fail
1:
  ld tp, trap_record
  EXPECT tp, INTERRUPT | 3
  EXPECT_CSR_BITS mstatus, MSTATUS_MPP, MODE_S << 11
  MSIP 0
  csrw mie, zero

  # --- wfi wakes on a pending enabled interrupt, even with MIE off (no trap then) ---
  CASE 40
  CSR_CLEAR mstatus, MSTATUS_MIE
  li a0, MIP_MTIP
  csrs mie, a0
  TIMER_IN 1000
  wfi
  li a2, CLINT_MTIME
  ld a2, 0(a2)
  li a1, CLINT_MTIMECMP
  ld a1, 0(a1)
  bltu a2, a1, fail                        # woke before the deadline
  EXPECT_CSR_BITS mip, MIP_MTIP, MIP_MTIP
  TIMER_OFF
  csrw mie, zero

  # --- vectored mtvec: interrupts go to base + 4 * cause ---
  CASE 50
  la a0, vector_table
  ori a0, a0, 1
  csrw mtvec, a0
  li s11, -1
  MSIP 1
  csrsi mie, MIP_MSIP
  ARM_TRAP 1f
  csrsi mstatus, MSTATUS_MIE
  j fail
1:
  EXPECT s11, 3
  MSIP 0
  csrw mie, zero
  CASE 51                                  # exceptions still go to base
  li s11, -1
  ARM_TRAP 1f
  ecall
1:
  EXPECT s11, 0
  la a0, trap_m
  csrw mtvec, a0

  # --- S interrupts delegated through mideleg ---
  CASE 60                                  # sie/sip show only delegated bits
  li a0, MIP_SSIP | MIP_STIP | (1 << 9)
  csrw mideleg, a0
  li a0, -1
  csrw sie, a0
  EXPECT_CSR_BITS sie, 0xfff, MIP_SSIP | MIP_STIP | (1 << 9)
  EXPECT_CSR_BITS mie, 0xfff, MIP_SSIP | MIP_STIP | (1 << 9)
  csrw sie, zero
  CASE 61                                  # a delegated interrupt is not taken in M
  csrsi mip, MIP_SSIP
  csrsi mie, MIP_SSIP
  csrsi mstatus, MSTATUS_MIE
  nop
  csrci mstatus, MSTATUS_MIE
  EXPECT_CSR_BITS sip, MIP_SSIP, MIP_SSIP
  CASE 62                                  # ...but in S once sstatus.SIE is set
  ARM_TRAP 1f
  GOTO_MODE MODE_S, 3f
3:
  csrsi sstatus, MSTATUS_SIE
2:
  nop
  j fail
1:
  EXPECT_TRAP MODE_S, INTERRUPT | 1, 2b, 0
  csrci sip, MIP_SSIP                      # S clears its own software interrupt
  BACK_TO_M 1f
1:
  EXPECT_CSR_BITS mip, MIP_SSIP, 0
  CASE 63                                  # STIP set by M is taken in S, even from U
  li a0, MIP_STIP
  csrs mie, a0
  csrs mip, a0
  csrsi mstatus, MSTATUS_SIE
  ARM_TRAP 1f
  GOTO_MODE MODE_U, 2f
2:
  nop
  j fail
1:
  EXPECT_TRAP MODE_S, INTERRUPT | 5, 2b, 0
  csrr a0, sstatus
  andi a0, a0, MSTATUS_SPP
  EXPECT a0, 0
  BACK_TO_M 1f
1:
  li a0, MIP_STIP
  csrc mip, a0
  csrw mie, zero
  CASE 64                                  # an S interrupt not delegated goes to M, even from S
  csrw mideleg, zero
  csrsi mip, MIP_SSIP
  csrsi mie, MIP_SSIP
  ARM_TRAP 1f
  GOTO_MODE MODE_S, 2f
2:
  nop
  j fail
1:
  EXPECT_TRAP MODE_M, INTERRUPT | 1, 2b, 0
  csrci mip, MIP_SSIP
  csrw mie, zero
  j pass

# Vectored M-mode trap table: entry k records k in s11 and joins the common handler.
.option push
.option norvc
.balign 64
vector_table:
  .irp cause, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
  j vector_\cause
  .endr
  .irp cause, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
vector_\cause:
  li s11, \cause
  j trap_m
  .endr
.option pop
