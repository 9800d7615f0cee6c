# RV64A: LR/SC success and failure, every AMO in .w and .d, sign extension of .w results.

# `op` on the doubleword `initial` with `operand`: rd must get `old`, memory must hold `new`.
# For .w forms the high word of `initial` is a sentinel that must survive.
.macro TEST_AMO n, op, initial, operand, old, new
  CASE \n
  la a1, amo_cell
  li a2, \initial
  sd a2, 0(a1)
  li a2, \operand
  \op a0, a2, (a1)
  EXPECT a0, \old
  ld a3, 0(a1)
  EXPECT a3, \new
.endm

.equ S, 0x5a5a5a5a00000000        # sentinel high word for .w forms

test_main:
  TEST_AMO 1, amoswap.w, S + 0x11111111, 0x80000000, 0x11111111, S + 0x80000000
  TEST_AMO 2, amoswap.w, S + 0x80000000, 1, 0xffffffff80000000, S + 1
  TEST_AMO 3, amoadd.w, S + 0x7fffffff, 1, 0x7fffffff, S + 0x80000000
  TEST_AMO 4, amoadd.w, S + 0xffffffff, 1, -1, S                  # carry does not reach the sentinel
  TEST_AMO 5, amoxor.w, S + 0xff00ff00, 0x0ff00ff0, 0xffffffffff00ff00, S + 0xf0f0f0f0
  TEST_AMO 6, amoand.w, S + 0xff00ff00, 0x0ff00ff0, 0xffffffffff00ff00, S + 0x0f000f00
  TEST_AMO 7, amoor.w, S + 0xff00ff00, 0x0ff00ff0, 0xffffffffff00ff00, S + 0xfff0fff0
  TEST_AMO 8, amomin.w, S + 0x80000000, 1, 0xffffffff80000000, S + 0x80000000
  TEST_AMO 9, amomin.w, S + 5, 0xfffffffffffffffe, 5, S + 0xfffffffe
  TEST_AMO 10, amomax.w, S + 0x80000000, 1, 0xffffffff80000000, S + 1
  TEST_AMO 11, amomax.w, S + 5, 0x0000000100000003, 5, S + 5          # only the low word of rs2
  TEST_AMO 12, amominu.w, S + 0x80000000, 1, 0xffffffff80000000, S + 1
  TEST_AMO 13, amominu.w, S + 3, 0xffffffff, 3, S + 3
  TEST_AMO 14, amomaxu.w, S + 0x80000000, 1, 0xffffffff80000000, S + 0x80000000
  TEST_AMO 15, amomaxu.w, S + 3, 0xfffffffffffffff0, 3, S + 0xfffffff0

  TEST_AMO 20, amoswap.d, 0x1111111111111111, 0x8000000000000000, 0x1111111111111111, 0x8000000000000000
  TEST_AMO 21, amoadd.d, 0x00000000ffffffff, 1, 0x00000000ffffffff, 0x0000000100000000
  TEST_AMO 22, amoadd.d, -1, 1, -1, 0
  TEST_AMO 23, amoxor.d, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xff00ff00ff00ff00, 0xf0f0f0f0f0f0f0f0
  TEST_AMO 24, amoand.d, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xff00ff00ff00ff00, 0x0f000f000f000f00
  TEST_AMO 25, amoor.d, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xff00ff00ff00ff00, 0xfff0fff0fff0fff0
  TEST_AMO 26, amomin.d, 0x8000000000000000, 1, 0x8000000000000000, 0x8000000000000000
  TEST_AMO 27, amomin.d, 5, -2, 5, -2
  TEST_AMO 28, amomax.d, 0x8000000000000000, 1, 0x8000000000000000, 1
  TEST_AMO 29, amomax.d, -7, -9, -7, -7
  TEST_AMO 30, amominu.d, 0x8000000000000000, 1, 0x8000000000000000, 1
  TEST_AMO 31, amominu.d, 3, -1, 3, 3
  TEST_AMO 32, amomaxu.d, 0x8000000000000000, 1, 0x8000000000000000, 0x8000000000000000
  TEST_AMO 33, amomaxu.d, 3, -1, 3, -1
  TEST_AMO 34, amoadd.d.aqrl, 40, 2, 40, 42                            # ordering bits change nothing here

  CASE 35                                  # rd = x0 still performs the operation
  la a1, amo_cell
  sd zero, 0(a1)
  li a2, 9
  amoadd.d zero, a2, (a1)
  ld a0, 0(a1)
  EXPECT a0, 9

  # --- LR/SC ---
  CASE 40                                  # lr.w sign-extends; sc.w succeeds and writes
  la a1, amo_cell
  li a2, 0x0123456780000000
  sd a2, 0(a1)
  lr.w a0, (a1)
  EXPECT a0, 0xffffffff80000000
  li a3, 0x55
  sc.w a4, a3, (a1)
  EXPECT a4, 0
  ld a0, 0(a1)
  EXPECT a0, 0x0123456700000055
  CASE 41                                  # a second sc.w has no reservation left
  li a3, 0x66
  sc.w a4, a3, (a1)
  beqz a4, fail
  ld a0, 0(a1)
  EXPECT a0, 0x0123456700000055
  CASE 42                                  # lr.d / sc.d
  li a2, 0x8000000000000001
  sd a2, 0(a1)
  lr.d a0, (a1)
  EXPECT a0, 0x8000000000000001
  li a3, 7
  sc.d a4, a3, (a1)
  EXPECT a4, 0
  ld a0, 0(a1)
  EXPECT a0, 7
  CASE 43                                  # sc.d without any lr fails and writes nothing
  li a3, 8
  sc.d a4, a3, (a1)
  beqz a4, fail
  ld a0, 0(a1)
  EXPECT a0, 7
  CASE 44                                  # sc to an address outside the reservation fails
  la a2, far_cell
  sd zero, 0(a2)
  lr.d a0, (a1)
  li a3, 9
  sc.d a4, a3, (a2)
  beqz a4, fail
  ld a0, 0(a2)
  EXPECT a0, 0
  CASE 45                                  # an LR/SC retry loop (the usual atomic increment)
  sd zero, 0(a1)
  li a5, 3
1:
  lr.w a0, (a1)
  addi a0, a0, 1
  sc.w a4, a0, (a1)
  bnez a4, 1b
  addi a5, a5, -1
  bnez a5, 1b
  lw a0, 0(a1)
  EXPECT a0, 3

  j pass

.data
.balign 64
amo_cell: .dword 0
.balign 256
far_cell: .dword 0
