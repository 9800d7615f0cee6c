# Shared harness for the conformance programs (assembled in front of each test file).
#
# Conventions every test follows:
#   gp (x3)  number of the current check: a failure reports it as the exit code
#   tp (x4), t6 (x31)  harness scratch: macros and trap handlers clobber them
#   the test's code starts at `test_main` in M-mode with sp on a 16 KiB stack; it ends with
#   `j pass`, or `j fail` to report the current check.
#
# Traps: both handlers record cause/epc/tval and the handling mode in `trap_record`, then
# jump (without xRET, so the trap's CSR state can be inspected) to the address armed with
# ARM_TRAP, in the handler's mode. An unarmed trap is a failure of the current check.

# Global asm gets only the base ISA by default; the machine is rv64imac_zicsr_zifencei.
.option arch, +m, +a, +zicsr, +zifencei

.equ MSTATUS_SIE,  1 << 1
.equ MSTATUS_MIE,  1 << 3
.equ MSTATUS_SPIE, 1 << 5
.equ MSTATUS_MPIE, 1 << 7
.equ MSTATUS_SPP,  1 << 8
.equ MSTATUS_MPP,  3 << 11
.equ MSTATUS_MPRV, 1 << 17
.equ MSTATUS_SUM,  1 << 18
.equ MSTATUS_MXR,  1 << 19
.equ MODE_U, 0
.equ MODE_S, 1
.equ MODE_M, 3
.equ INTERRUPT, 1 << 63
.equ CLINT_MSIP,     0x02000000
.equ CLINT_MTIMECMP, 0x02004000
.equ CLINT_MTIME,    0x0200bff8
.equ NO_CHECK, 0xfff          # reported when a trap hits before the first check

# ---- checks ----------------------------------------------------------------------------

.macro CASE n
  li gp, \n
.endm

# Fails the current check unless register `reg` holds the constant `value`.
.macro EXPECT reg, value
  li t6, \value
  beq \reg, t6, .Lexpect\@
  j fail
.Lexpect\@:
.endm

# Fails unless register `reg` holds `a` or `b`.
.macro EXPECT_EITHER reg, a, b
  li t6, \a
  beq \reg, t6, .Leither\@
  EXPECT \reg, \b
.Leither\@:
.endm

# Fails the current check unless registers `a` and `b` are equal.
.macro EXPECT_SAME a, b
  beq \a, \b, .Lsame\@
  j fail
.Lsame\@:
.endm

# Fails the current check unless register `reg` holds the address of `label`.
.macro EXPECT_ADDR reg, label
  la t6, \label
  beq \reg, t6, .Laddr\@
  j fail
.Laddr\@:
.endm

# Fails the current check unless CSR `csr` holds `value`.
.macro EXPECT_CSR csr, value
  csrr tp, \csr
  EXPECT tp, \value
.endm

# Fails the current check unless the bits `mask` of CSR `csr` equal `value`.
.macro EXPECT_CSR_BITS csr, mask, value
  csrr tp, \csr
  li t6, \mask
  and tp, tp, t6
  EXPECT tp, \value
.endm

# ---- traps -----------------------------------------------------------------------------

# The next trap resumes at `label` (once).
.macro ARM_TRAP label
  la t6, \label
  la tp, trap_record
  sd t6, 24(tp)
  li t6, -1
  sd t6, 0(tp)
.endm

# Sets / clears the bits `mask` (any 64-bit constant) in CSR `csr`.
.macro CSR_SET csr, mask
  li t6, \mask
  csrs \csr, t6
.endm
.macro CSR_CLEAR csr, mask
  li t6, \mask
  csrc \csr, t6
.endm

# Fails unless the last trap was handled in `mode` with `cause`, epc = `epc_label`, tval = `tval`.
.macro EXPECT_TRAP mode, cause, epc_label, tval
  EXPECT_TRAP_AT \mode, \cause, \epc_label
  ld tp, trap_record + 16
  EXPECT tp, \tval
.endm

# As EXPECT_TRAP, with tval the address of `tval_label`.
.macro EXPECT_TRAP_TVAL_AT mode, cause, epc_label, tval_label
  EXPECT_TRAP_AT \mode, \cause, \epc_label
  ld tp, trap_record + 16
  EXPECT_ADDR tp, \tval_label
.endm

# Checks mode, cause and epc of the last trap, not tval.
.macro EXPECT_TRAP_AT mode, cause, epc_label
  ld tp, trap_record + 32
  EXPECT tp, \mode
  ld tp, trap_record
  EXPECT tp, \cause
  ld tp, trap_record + 8
  EXPECT_ADDR tp, \epc_label
.endm

# Leaves M-mode for `mode` at `label` via mret (MPIE is left as it is).
.macro GOTO_MODE mode, label
  li t6, MSTATUS_MPP
  csrc mstatus, t6
  li t6, \mode << 11
  csrs mstatus, t6
  la t6, \label
  csrw mepc, t6
  mret
.endm

# From any mode, returns to M-mode at `label` with an ecall (medeleg must not delegate it).
.macro BACK_TO_M label
  ARM_TRAP \label
  ecall
.endm

# ---- entry, exit, trap handlers ---------------------------------------------------------

.section .text.init, "ax", @progbits
.globl _start
_start:
  csrr t0, mhartid
  bnez t0, park_hart
  la t0, trap_m
  csrw mtvec, t0
  la t0, trap_s
  csrw stvec, t0
  li gp, NO_CHECK
  # One PMP region over everything, RWX: QEMU refuses S/U accesses without a PMP rule.
  li t0, -1
  csrw pmpaddr0, t0
  li t0, 0x1f
  csrw pmpcfg0, t0
  la sp, stack_top
  j test_main

# Only hart 0 runs the checks.
park_hart:
  wfi
  j park_hart

.globl pass
pass:
  li t6, 1
  j report

.globl fail
fail:
  slli t6, gp, 1
  ori t6, t6, 1
report:
  la tp, tohost
  sd t6, 0(tp)
1:
  j 1b

.balign 4
trap_m:
  csrw mscratch, tp
  la tp, trap_record
  csrr t6, mcause
  sd t6, 0(tp)
  csrr t6, mepc
  sd t6, 8(tp)
  csrr t6, mtval
  sd t6, 16(tp)
  li t6, MODE_M
  sd t6, 32(tp)
  ld t6, 24(tp)
  beqz t6, fail
  sd zero, 24(tp)
  csrr tp, mscratch
  jr t6

.balign 4
trap_s:
  csrw sscratch, tp
  la tp, trap_record
  csrr t6, scause
  sd t6, 0(tp)
  csrr t6, sepc
  sd t6, 8(tp)
  csrr t6, stval
  sd t6, 16(tp)
  li t6, MODE_S
  sd t6, 32(tp)
  ld t6, 24(tp)
  beqz t6, fail
  sd zero, 24(tp)
  csrr tp, sscratch
  jr t6

.section .tohost, "aw", @progbits
.balign 8
.globl tohost
tohost: .dword 0
.size tohost, 8
.globl fromhost
fromhost: .dword 0
.size fromhost, 8

.section .data.harness, "aw", @progbits
.balign 8
# cause, epc, tval, resume address (0 = unarmed), handling mode
trap_record: .dword 0, 0, 0, 0, 0

.section .bss.stack, "aw", @nobits
.balign 16
stack_bottom: .space 16384
stack_top:

.text

# ---- operation checks (register-register, register-immediate) ---------------------------

# rd = a op b, then the same with rd aliasing rs1 and rs2, then with rd = x0.
.macro TEST_RR n, op, result, a, b
  CASE \n
  li a1, \a
  li a2, \b
  \op a0, a1, a2
  EXPECT a0, \result
  mv a3, a1
  \op a3, a3, a2
  EXPECT a3, \result
  mv a3, a2
  \op a3, a1, a3
  EXPECT a3, \result
  \op zero, a1, a2
  EXPECT zero, 0
.endm

# rd = a op imm, then with rd aliasing rs1.
.macro TEST_RI n, op, result, a, imm
  CASE \n
  li a1, \a
  \op a0, a1, \imm
  EXPECT a0, \result
  \op a1, a1, \imm
  EXPECT a1, \result
.endm

# Conditional branch `op a, b`: `taken` is 1 if it must branch, 0 if not.
.macro TEST_BRANCH n, op, taken, a, b
  CASE \n
  li a1, \a
  li a2, \b
  li a0, 0
  \op a1, a2, .Ltaken\@
  li a0, 2
  j .Ldone\@
.Ltaken\@:
  li a0, 1
.Ldone\@:
  .if \taken
  EXPECT a0, 1
  .else
  EXPECT a0, 2
  .endif
.endm

# Load `op` at `offset` from `base_label` must give `result`.
.macro TEST_LOAD n, op, result, base_label, offset
  CASE \n
  la a1, \base_label
  \op a0, \offset(a1)
  EXPECT a0, \result
.endm

# Store `value` with `op`, then load the whole doubleword and expect `result` (cleared first).
.macro TEST_STORE n, op, value, offset, result
  CASE \n
  la a1, store_area
  sd zero, 0(a1)
  sd zero, 8(a1)
  li a2, \value
  \op a2, \offset(a1)
  ld a0, 0(a1)
  EXPECT a0, \result
.endm

# Fails unless the last trap was an illegal instruction at `epc_label` whose tval is 0 or
# `bits` (the spec allows either).
.macro EXPECT_ILLEGAL mode, epc_label, bits
  EXPECT_TRAP_AT \mode, 2, \epc_label
  ld tp, trap_record + 16
  EXPECT_EITHER tp, 0, \bits
.endm

# Runs the 16- or 32-bit encoding `bits` (as `.half`/`.word` directive `dir`) and expects an
# illegal-instruction trap in M-mode.
.macro TEST_ILLEGAL n, dir, bits
  CASE \n
  ARM_TRAP .Lresume\@
.Linsn\@:
  \dir \bits
  j fail
.Lresume\@:
  EXPECT_ILLEGAL MODE_M, .Linsn\@, \bits
.endm
