# Physical memory protection (privileged spec 3.7), for a machine with 16 entries and a
# granularity of 4 bytes (G = 0), as QEMU `virt`: the CSRs and their WARL rules, then the
# checks on S-, U- and M-mode fetches, loads, stores and page-table reads.
#
# Entry 15 covers everything with RWX while a check runs, so entries 0..14 decide first (the
# lowest-numbered matching entry wins). Locked entries stay locked until reset, so the checks
# that lock entries come last, on entries 8..12, over bytes nothing else uses.

.equ PMP_R, 1 << 0
.equ PMP_W, 1 << 1
.equ PMP_X, 1 << 2
.equ PMP_TOR, 1 << 3
.equ PMP_NA4, 2 << 3
.equ PMP_NAPOT, 3 << 3
.equ PMP_L, 1 << 7
.equ ALL_RWX, PMP_NAPOT | PMP_R | PMP_W | PMP_X
.equ ADDR_MASK, (1 << 54) - 1            # pmpaddr holds bits 55..2 of an address
.equ MSTATUS_MPP_S, 1 << 11
.equ SATP_SV39, 8 << 60
.equ CAUSE_FETCH, 1
.equ CAUSE_LOAD, 5
.equ CAUSE_STORE, 7

# Entries 0..14 off, entry 15 over everything with RWX.
.macro PMP_RESET
  csrw pmpcfg0, zero
  li t0, ALL_RWX << 56
  csrw pmpcfg2, t0
  li t0, -1
  csrw pmpaddr15, t0
  sfence.vma
.endm

# Entry 0 = `cfg` over the bytes `pmpaddr` describes (a register holding an address >> 2, with
# the NAPOT size bits already in it).
.macro PMP0 cfg, addr_reg
  csrw pmpaddr0, \addr_reg
  li t0, \cfg
  csrw pmpcfg0, t0
  sfence.vma
.endm

# Runs `insn` in `mode` followed by an ecall; back in M-mode, s11 holds the address of `insn`.
.macro TRY mode, insn:vararg
  ARM_TRAP .Lback\@
  GOTO_MODE \mode, .Lgo\@
.Lgo\@:
  \insn
  ecall
.Lback\@:
  la s11, .Lgo\@
.endm

# `insn` in `mode` must complete: the trap that follows is its ecall.
.macro ALLOWED mode, insn:vararg
  TRY \mode, \insn
  ld tp, trap_record + 32
  EXPECT tp, MODE_M
  ld tp, trap_record
  EXPECT tp, 8 + \mode
.endm

# `insn` in `mode` must raise `cause` in M-mode, with mepc at it and mtval = register `tval`.
.macro DENIED mode, cause, tval, insn:vararg
  TRY \mode, \insn
  ld tp, trap_record + 32
  EXPECT tp, MODE_M
  ld tp, trap_record
  EXPECT tp, \cause
  ld tp, trap_record + 8
  EXPECT_SAME tp, s11
  ld tp, trap_record + 16
  EXPECT_SAME tp, \tval
.endm

# `insn` in `mode` must jump to the address in register `target`, whose fetch raises an
# access fault.
.macro DENIED_FETCH mode, target, insn:vararg
  TRY \mode, \insn
  ld tp, trap_record + 32
  EXPECT tp, MODE_M
  ld tp, trap_record
  EXPECT tp, CAUSE_FETCH
  ld tp, trap_record + 8
  EXPECT_SAME tp, \target
  ld tp, trap_record + 16
  EXPECT_SAME tp, \target
.endm

# Expects an illegal-instruction trap from `insn` in M-mode.
.macro ILLEGAL_CSR insn:vararg
  ARM_TRAP .Lresume\@
.Linsn\@:
  \insn
  j fail
.Lresume\@:
  EXPECT_TRAP_AT MODE_M, 2, .Linsn\@
.endm

test_main:
  PMP_RESET

  # ---- the CSRs ----------------------------------------------------------------------------
  CASE 1                                   # RV64 has no odd pmpcfg CSRs
  ILLEGAL_CSR csrr a0, 0x3a1              # pmpcfg1
  CASE 2
  ILLEGAL_CSR csrw 0x3a3, zero             # pmpcfg3
  CASE 3                                   # M-mode only
  GOTO_MODE MODE_S, 4f
4:
  ILLEGAL_CSR csrr a0, pmpcfg0
  GOTO_MODE MODE_S, 4f
4:
  ILLEGAL_CSR csrr a0, pmpaddr0
  CASE 4                                   # all 16 pmpaddr hold a value (G = 0: read as written)
  li a0, 0x12345677
  csrw pmpaddr1, a0
  csrw pmpaddr7, a0
  csrw pmpaddr14, a0
  EXPECT_CSR pmpaddr1, 0x12345677
  EXPECT_CSR pmpaddr7, 0x12345677
  EXPECT_CSR pmpaddr14, 0x12345677
  CASE 5                                   # pmpcfg2 holds entries 8..15
  li a0, (ALL_RWX << 56) | (PMP_NA4 | PMP_R) << 8 | PMP_TOR | PMP_X
  csrw pmpcfg2, a0
  csrr a1, pmpcfg2
  EXPECT_SAME a1, a0
  CASE 6                                   # every A mode is kept (NA4 too, since G = 0)
  li a0, 0x00 | (PMP_TOR | PMP_R) << 8 | (PMP_NA4 | PMP_R) << 16 | (PMP_NAPOT | PMP_R) << 24
  csrw pmpcfg0, a0
  csrr a1, pmpcfg0
  EXPECT_SAME a1, a0
  CASE 7                                   # X, W and R kept as written (W only with R)
  li a0, (PMP_R) | (PMP_R | PMP_W) << 8 | (PMP_X) << 16 | (PMP_R | PMP_W | PMP_X) << 24
  csrw pmpcfg0, a0
  csrr a1, pmpcfg0
  EXPECT_SAME a1, a0
  PMP_RESET

  # ---- S-mode: an entry decides, by its permissions ---------------------------------------
  la a1, pmp_area                          # a1: the address each access uses
  srli a2, a1, 2
  ori a2, a2, 0x1ff                        # a2: NAPOT, the 4 KiB page at pmp_area
  CASE 10                                  # R only: loads pass, stores and fetches fault
  PMP0 PMP_NAPOT | PMP_R, a2
  ALLOWED MODE_S, ld a0, 0(a1)
  CASE 11
  DENIED MODE_S, CAUSE_STORE, a1, sd a0, 0(a1)
  CASE 12
  DENIED_FETCH MODE_S, a1, jr a1
  CASE 13                                  # W with R: stores pass
  PMP0 PMP_NAPOT | PMP_R | PMP_W, a2
  ALLOWED MODE_S, sd a0, 0(a1)
  CASE 14                                  # AMOs need W
  ALLOWED MODE_S, amoadd.d a0, zero, (a1)
  PMP0 PMP_NAPOT | PMP_R, a2
  DENIED MODE_S, CAUSE_STORE, a1, amoadd.d a0, zero, (a1)
  CASE 15                                  # no permission: the load faults
  PMP0 PMP_NAPOT, a2
  DENIED MODE_S, CAUSE_LOAD, a1, ld a0, 0(a1)
  CASE 16                                  # ...but the lowest entry wins: entry 15 allows it
  csrw pmpcfg0, zero
  sfence.vma
  ALLOWED MODE_S, ld a0, 0(a1)
  CASE 17                                  # U-mode is checked the same way
  PMP0 PMP_NAPOT | PMP_R, a2
  ALLOWED MODE_U, ld a0, 0(a1)
  DENIED MODE_U, CAUSE_STORE, a1, sd a0, 0(a1)
  CASE 18                                  # M-mode ignores an entry that is not locked
  PMP0 PMP_NAPOT, a2
  ALLOWED MODE_M, sd a0, 0(a1)

  # ---- the address modes ------------------------------------------------------------------
  CASE 20                                  # NA4: exactly 4 bytes
  addi a3, a1, 0x40
  srli a2, a3, 2
  PMP0 PMP_NA4, a2
  DENIED MODE_S, CAUSE_LOAD, a3, lw a0, 0(a3)
  ALLOWED MODE_S, lw a0, 4(a3)
  ALLOWED MODE_S, lw a0, -4(a3)
  CASE 21                                  # an access partly in the winning entry fails, even
  PMP0 PMP_NA4 | PMP_R | PMP_W, a2         # where both entries would allow it
  ALLOWED MODE_S, lw a0, 0(a3)
  DENIED MODE_S, CAUSE_LOAD, a3, ld a0, 0(a3)
  DENIED MODE_S, CAUSE_STORE, a3, sd a0, 0(a3)
  CASE 22                                  # NAPOT of 8 bytes (no trailing one)
  addi a3, a1, 0x80
  srli a2, a3, 2
  PMP0 PMP_NAPOT, a2
  DENIED MODE_S, CAUSE_LOAD, a3, ld a0, 0(a3)
  addi a4, a3, 4
  DENIED MODE_S, CAUSE_LOAD, a4, lw a0, 4(a3)
  ALLOWED MODE_S, lw a0, 8(a3)
  ALLOWED MODE_S, lw a0, -4(a3)
  CASE 23                                  # NAPOT of 32 bytes (two trailing ones)
  ori a2, a2, 3
  PMP0 PMP_NAPOT, a2
  addi a4, a3, 0x18
  DENIED MODE_S, CAUSE_LOAD, a4, ld a0, 0x18(a3)
  ALLOWED MODE_S, ld a0, 0x20(a3)
  CASE 24                                  # TOR: pmpaddr0 (off) is the bottom, pmpaddr1 the top
  addi a3, a1, 0x100
  srli a2, a3, 2
  csrw pmpaddr0, a2
  addi a2, a2, 4                           # 16 bytes
  csrw pmpaddr1, a2
  li t0, (PMP_TOR | PMP_R) << 8
  csrw pmpcfg0, t0
  sfence.vma
  ALLOWED MODE_S, ld a0, 8(a3)
  addi a4, a3, 8
  DENIED MODE_S, CAUSE_STORE, a4, sd a0, 8(a3)
  ALLOWED MODE_S, sd a0, 16(a3)
  ALLOWED MODE_S, sd a0, -8(a3)
  CASE 25                                  # TOR with top <= bottom matches nothing
  addi a2, a2, -5
  csrw pmpaddr1, a2
  sfence.vma
  ALLOWED MODE_S, sd a0, 8(a3)
  ALLOWED MODE_S, sd a0, -8(a3)
  addi a2, a2, 1
  csrw pmpaddr1, a2
  sfence.vma
  ALLOWED MODE_S, sd a0, 8(a3)
  CASE 26                                  # TOR in entry 0: the bottom is address 0
  srli a2, a1, 2
  csrw pmpaddr0, a2
  li t0, PMP_TOR | PMP_X                   # [0, pmp_area): the program and the harness
  csrw pmpcfg0, t0
  sfence.vma
  la a4, pmp_area - 8
  DENIED MODE_S, CAUSE_LOAD, a4, ld a0, -8(a1)
  ALLOWED MODE_S, ld a0, 0(a1)

  # ---- no matching entry: S and U fail, M succeeds ----------------------------------------
  CASE 30                                  # entry 1: RAM below pmp_area, RWX; entry 15 off
  li a2, 0x80000000 >> 2
  csrw pmpaddr0, a2
  srli a2, a1, 2
  csrw pmpaddr1, a2
  li t0, (PMP_TOR | PMP_R | PMP_W | PMP_X) << 8
  csrw pmpcfg0, t0
  csrw pmpcfg2, zero
  sfence.vma
  ALLOWED MODE_S, ld a0, -8(a1)
  DENIED MODE_S, CAUSE_LOAD, a1, ld a0, 0(a1)
  DENIED MODE_U, CAUSE_STORE, a1, sd a0, 0(a1)
  ALLOWED MODE_M, sd a0, 0(a1)
  CASE 31                                  # a device too
  li a4, CLINT_MTIME
  DENIED MODE_S, CAUSE_LOAD, a4, ld a0, 0(a4)
  CASE 32                                  # and fetches
  DENIED_FETCH MODE_S, a1, jr a1
  CASE 33                                  # what M-mode just reached, S still cannot
  ALLOWED MODE_M, ld a0, 0(a1)
  DENIED MODE_S, CAUSE_LOAD, a1, ld a0, 0(a1)
  TRY MODE_M, jr a1                        # M fetches there (zeros: an illegal instruction)
  ld tp, trap_record
  EXPECT tp, 2
  DENIED_FETCH MODE_S, a1, jr a1
  PMP_RESET

  # ---- fetches: the entry holding each instruction decides --------------------------------
  CASE 40                                  # X only: runs, cannot be read
  la a4, pmp_code
  srli a2, a4, 2
  ori a2, a2, 0x1ff
  PMP0 PMP_NAPOT | PMP_X, a2
  ALLOWED MODE_S, jalr ra, a4
  DENIED MODE_S, CAUSE_LOAD, a4, lw a0, 0(a4)
  CASE 41                                  # without X the first instruction faults
  PMP0 PMP_NAPOT | PMP_R, a2
  DENIED_FETCH MODE_S, a4, jalr ra, a4
  PMP_RESET

  # ---- MPRV: M-mode loads and stores checked as MPP ---------------------------------------
  CASE 50
  srli a2, a1, 2
  ori a2, a2, 0x1ff
  PMP0 PMP_NAPOT | PMP_R, a2
  CSR_CLEAR mstatus, MSTATUS_MPP
  CSR_SET mstatus, MSTATUS_MPRV | MSTATUS_MPP_S
  ld a0, 0(a1)
  CASE 51
  ARM_TRAP 1f
2:
  sd a0, 0(a1)
  j fail
1:
  EXPECT_TRAP_AT MODE_M, CAUSE_STORE, 2b
  ld tp, trap_record + 16
  EXPECT_SAME tp, a1
  CASE 52                                  # the trap left MPP = M: the store is M-mode's
  sd a0, 0(a1)
  CSR_CLEAR mstatus, MSTATUS_MPRV

  # ---- page-table reads are S-mode accesses -----------------------------------------------
  CASE 60                                  # Sv39 through MPRV: one 1 GiB page over RAM
  la a3, pmp_root
  li a0, (0x80000000 >> 12 << 10) | 0xcf   # V R W X A D
  sd a0, 16(a3)                            # VPN[2] = 2 maps 0x8000_0000
  srli a2, a3, 12
  li t0, SATP_SV39
  or a2, a2, t0
  csrw satp, a2
  sfence.vma
  PMP_RESET
  CSR_CLEAR mstatus, MSTATUS_MPP
  CSR_SET mstatus, MSTATUS_MPRV | MSTATUS_MPP_S
  ld a0, 0(a1)
  CSR_CLEAR mstatus, MSTATUS_MPRV
  CASE 61                                  # the root table in an entry without R
  srli a2, a3, 2
  ori a2, a2, 0x1ff
  PMP0 PMP_NAPOT, a2
  ARM_TRAP 1f
  CSR_CLEAR mstatus, MSTATUS_MPP
  CSR_SET mstatus, MSTATUS_MPRV | MSTATUS_MPP_S
2:
  ld a0, 0(a1)
  j fail
1:
  EXPECT_TRAP_AT MODE_M, CAUSE_LOAD, 2b
  ld tp, trap_record + 16
  EXPECT_SAME tp, a1
  CSR_CLEAR mstatus, MSTATUS_MPRV
  csrw satp, zero
  sfence.vma
  PMP_RESET

  # ---- locked entries: M-mode is held to them, and they ignore writes ---------------------
  CASE 70                                  # entry 8: NA4 over pmp_area + 0x200, R, locked
  addi a3, a1, 0x200
  srli a2, a3, 2
  csrw pmpaddr8, a2
  li t0, (ALL_RWX << 56) | PMP_L | PMP_NA4 | PMP_R
  csrw pmpcfg2, t0
  sfence.vma
  ALLOWED MODE_M, lw a0, 0(a3)
  DENIED MODE_M, CAUSE_STORE, a3, sw a0, 0(a3)
  ALLOWED MODE_S, lw a0, 0(a3)
  ALLOWED MODE_M, sw a0, 4(a3)
  CASE 71                                  # its pmpcfg byte and pmpaddr ignore writes
  li t0, ALL_RWX << 56
  csrw pmpcfg2, t0
  EXPECT_CSR pmpcfg2, (ALL_RWX << 56) | PMP_L | PMP_NA4 | PMP_R
  csrw pmpaddr8, zero
  csrr a0, pmpaddr8
  EXPECT_SAME a0, a2
  CASE 72                                  # the L bit cannot be cleared with csrc
  li t0, PMP_L
  csrc pmpcfg2, t0
  EXPECT_CSR pmpcfg2, (ALL_RWX << 56) | PMP_L | PMP_NA4 | PMP_R
  CASE 73                                  # entry 11: locked TOR over pmpaddr10..pmpaddr11
  addi a3, a1, 0x300
  srli a2, a3, 2
  csrw pmpaddr10, a2
  addi a4, a2, 2                           # 8 bytes
  csrw pmpaddr11, a4
  li t0, (ALL_RWX << 56) | (PMP_L | PMP_TOR | PMP_R | PMP_W) << 24 | PMP_L | PMP_NA4 | PMP_R
  csrw pmpcfg2, t0
  sfence.vma
  ALLOWED MODE_M, sd a0, 0(a3)
  DENIED_FETCH MODE_M, a3, jr a3
  CASE 74                                  # a locked TOR entry locks its bottom address too
  csrw pmpaddr10, zero
  csrw pmpaddr11, zero
  csrr a0, pmpaddr10
  EXPECT_SAME a0, a2
  csrr a0, pmpaddr11
  EXPECT_SAME a0, a4
  CASE 75                                  # ...but not the bottom entry's configuration
  li t0, (ALL_RWX << 56) | (PMP_NA4 | PMP_X) << 16
  csrw pmpcfg2, t0
  EXPECT_CSR pmpcfg2, (ALL_RWX << 56) | (PMP_L | PMP_TOR | PMP_R | PMP_W) << 24 | (PMP_NA4 | PMP_X) << 16 | PMP_L | PMP_NA4 | PMP_R
  # Last, because QEMU 7.2 differs from the spec here: it does not check fetches against an
  # entry smaller than a page, it takes a TOR top of 0 as the top of the address space, it
  # keeps what is written to pmpaddr bits 63..54 and to the reserved pmpcfg bits, stores W
  # without R, and has no pmpcfg4..14 or pmpaddr16..63 (read-only zero in the spec when only
  # 16 entries exist).
  PMP_RESET
  la a4, pmp_code
  CASE 90                                  # an NA4 entry without X inside the page: the
  addi a5, a4, 8                           # instructions before it run, it faults
  srli a2, a5, 2
  PMP0 PMP_NA4, a2
  TRY MODE_S, jalr ra, a4
  EXPECT_TRAP_TVAL_AT MODE_M, CAUSE_FETCH, pmp_code_3rd, pmp_code_3rd
  CASE 91                                  # and the ones after it run
  addi a5, a4, 12
  ALLOWED MODE_S, jalr ra, a5
  CASE 92                                  # a 32-bit instruction with its upper half in it
  la a5, pmp_code2 + 2
  srli a2, a5, 2
  addi a2, a2, 1                           # NA4 over pmp_code2 + 4 .. + 8
  PMP0 PMP_NA4, a2
  la a4, pmp_code2
  TRY MODE_S, jalr ra, a4
  EXPECT_TRAP_AT MODE_M, CAUSE_FETCH, pmp_code2_wide
  ld tp, trap_record + 16                  # mtval: the instruction or its faulting half
  la t5, pmp_code2_wide
  beq tp, t5, 1f
  addi t5, t5, 2
  EXPECT_SAME tp, t5
1:
  CASE 93                                  # the same code runs in M-mode
  ALLOWED MODE_M, jalr ra, a4
  CASE 94                                  # entry 12: locked, no X, inside code M-mode runs
  la a4, pmp_code
  addi a5, a4, 8
  srli a2, a5, 2
  csrw pmpaddr12, a2
  li t0, PMP_L | PMP_NA4 | PMP_R
  slli t0, t0, 32
  csrs pmpcfg2, t0
  sfence.vma
  TRY MODE_M, jalr ra, a4
  EXPECT_TRAP_TVAL_AT MODE_M, CAUSE_FETCH, pmp_code_3rd, pmp_code_3rd

  CASE 95                                  # TOR with a top of 0 matches nothing
  PMP_RESET
  csrw pmpaddr0, zero
  li t0, PMP_TOR
  csrw pmpcfg0, t0
  sfence.vma
  ALLOWED MODE_S, ld a0, 0(a1)
  csrw pmpcfg0, zero
  CASE 96                                  # pmpaddr bits 63..54 read zero
  li a0, -1
  csrw pmpaddr1, a0
  EXPECT_CSR pmpaddr1, ADDR_MASK
  CASE 97                                  # reserved pmpcfg bits 6..5 read zero
  li a0, 0x60 | PMP_R
  csrw pmpcfg0, a0
  EXPECT_CSR pmpcfg0, PMP_R
  CASE 98                                  # W without R is reserved: W is dropped
  li a0, PMP_W | PMP_X | (PMP_NA4 | PMP_W) << 8
  csrw pmpcfg0, a0
  EXPECT_CSR pmpcfg0, PMP_X | PMP_NA4 << 8
  csrw pmpcfg0, zero
  CASE 99                                  # the entries past 16: read-only zero, no trap
  li a0, -1
  csrw pmpcfg4, a0
  csrw pmpcfg14, a0
  csrw pmpaddr16, a0
  csrw pmpaddr63, a0
  EXPECT_CSR pmpcfg4, 0
  EXPECT_CSR pmpcfg14, 0
  EXPECT_CSR pmpaddr16, 0
  EXPECT_CSR pmpaddr63, 0
  CASE 100                                 # pmpcfg15 is odd: it does not exist on RV64
  ILLEGAL_CSR csrr a0, 0x3af              # pmpcfg15

  j pass

# Code the fetch checks jump to (with jalr ra): four 4-byte instructions, then back with an
# ecall, which TRY expects.
.section .text.pmp, "ax", @progbits
.balign 4096
.option push
.option norvc
pmp_code:
  nop
  nop
pmp_code_3rd:
  nop
  nop
  ecall
.option pop
  .balign 64
# A 2-byte instruction, then a 4-byte one at offset 2.
pmp_code2:
  .half 0x0001                             # c.nop
pmp_code2_wide:
  .word 0x00000013                         # nop
  ecall

.section .data.pmp, "aw", @progbits
.balign 4096
pmp_area: .space 4096
pmp_root: .space 4096
