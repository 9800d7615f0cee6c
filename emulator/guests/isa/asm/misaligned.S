# Misaligned loads and stores: performed without a trap (docs/platform.md), with the right
# bytes, sign extension, across doubleword and page boundaries.

# `op` at byte offset `offset` of `bytes` must give `result`.
.macro TEST_MIS_LOAD n, op, result, offset
  TEST_LOAD \n, \op, \result, bytes, \offset
.endm

test_main:
  TEST_MIS_LOAD 1, lh, 0x0201, 1
  TEST_MIS_LOAD 2, lhu, 0x0807, 7
  TEST_MIS_LOAD 3, lh, 0xffffffffffff8e8d, 15        # crosses a doubleword, sign-extends
  TEST_MIS_LOAD 4, lw, 0x04030201, 1
  TEST_MIS_LOAD 5, lw, 0x08070605, 5
  TEST_MIS_LOAD 6, lw, 0xffffffff8f8e8d8c, 14
  TEST_MIS_LOAD 7, lwu, 0x8f8e8d8c, 14
  TEST_MIS_LOAD 8, ld, 0x0807060504030201, 1
  TEST_MIS_LOAD 9, ld, 0x8988870807060504, 4
  TEST_MIS_LOAD 10, ld, 0x8c8b8a8988870807, 7
  TEST_STORE 20, sh, 0xabcd, 1, 0x0000000000abcd00
  TEST_STORE 21, sw, 0x12345678, 3, 0x0012345678000000
  TEST_STORE 22, sd, 0x1122334455667788, 5, 0x6677880000000000
  CASE 23                                  # ...and the rest lands in the next doubleword
  ld a0, 8(a1)
  EXPECT a0, 0x0000001122334455
  CASE 30                                  # across a page boundary, both ways
  la a1, page_end - 3
  li a2, 0x0102030405060708
  sd a2, 0(a1)
  ld a0, 0(a1)
  EXPECT_SAME a0, a2
  lw a0, 1(a1)
  EXPECT a0, 0x04050607
  CASE 31                                  # a compressed misaligned load
  la s0, bytes + 3
  .option push
  .option arch, +c
  c.lw a0, 0(s0)
  .option pop
  EXPECT a0, 0x06050403
  j pass

.data
bytes:
  .byte 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07
  .byte 0x08, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d
  .byte 0x8e, 0x8f
.balign 8
store_area: .dword 0, 0
.balign 4096
  .space 4096
page_end:
  .space 8
