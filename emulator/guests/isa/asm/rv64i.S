# RV64I: every base instruction, with rd aliasing and x0 rules.
test_main:
  # --- integer register-immediate ---
  TEST_RI 1, addi, 0x0, 0x0, 0
  TEST_RI 2, addi, 0x7ff, 0, 2047
  TEST_RI 3, addi, -2048, 0, -2048
  TEST_RI 4, addi, 0x80000000, 0x7fffffff, 1
  TEST_RI 5, addi, 0, -1, 1
  TEST_RI 6, slti, 1, -1, 0
  TEST_RI 7, slti, 0, 0, -1
  TEST_RI 8, slti, 0, 5, 5
  TEST_RI 9, sltiu, 1, 0, -1            # imm sign-extends, then compares unsigned
  TEST_RI 10, sltiu, 0, -1, 5
  TEST_RI 11, sltiu, 1, 0, 1            # seqz
  TEST_RI 12, xori, 0xffffffffffffff0f, 0xf0, -1
  TEST_RI 13, xori, 0xff00ff0f, 0xff00ff00, 0x00f
  TEST_RI 14, ori, 0xf00ff70f, 0xf00ff00f, 0x70f
  TEST_RI 15, ori, 0xffffffffffffffff, 0x0ff00ff0, -241
  TEST_RI 16, andi, 0xff00ff00, 0xff00ff00, -1
  TEST_RI 17, andi, 0x00000700, 0xff00ff00, 0x70f
  TEST_RI 18, slli, 0x8000000000000000, 1, 63
  TEST_RI 19, slli, 0x0000000100000000, 1, 32
  TEST_RI 20, slli, 0xffffffff80000000, 0xffffffffffffffff, 31
  TEST_RI 21, srli, 1, 0x8000000000000000, 63
  TEST_RI 22, srli, 0x00000000ffffffff, 0xffffffffffffffff, 32
  TEST_RI 23, srai, 0xffffffffffffffff, 0x8000000000000000, 63
  TEST_RI 24, srai, 0xffffffff80000000, 0x8000000000000000, 32
  TEST_RI 25, srai, 0x3fffffff, 0x7fffffff00000000, 33

  # --- RV64 word register-immediate: 32-bit result, sign-extended ---
  TEST_RI 26, addiw, 0xffffffff80000000, 0x7fffffff, 1
  TEST_RI 27, addiw, 0, 0xffffffff00000000, 0
  TEST_RI 28, addiw, 0x7fffffff, 0x80000000, -1
  TEST_RI 29, slliw, 0xffffffff80000000, 1, 31
  TEST_RI 30, slliw, 0, 0x100000000, 0
  TEST_RI 31, srliw, 1, 0xffffffff80000000, 31
  TEST_RI 32, srliw, 0xffffffff80000000, 0x80000000, 0
  TEST_RI 33, sraiw, 0xffffffffffffffff, 0x80000000, 31
  TEST_RI 34, sraiw, 0x00000000, 0x17fffffff, 31  # upper bits ignored
  TEST_RI 35, srliw, 0x7fffffff, 0xffffffffffffffff, 1

  # --- integer register-register ---
  TEST_RR 40, add, 0x80000000, 0x7fffffff, 1
  TEST_RR 41, add, 0, 0xffffffffffffffff, 1
  TEST_RR 42, add, 0x100000000, 0xffffffff, 1
  TEST_RR 43, sub, 0xffffffffffffffff, 0, 1
  TEST_RR 44, sub, 0x8000000000000000, 0x7fffffffffffffff, -1
  TEST_RR 45, sll, 0x8000000000000000, 1, 63
  TEST_RR 46, sll, 2, 1, 65               # only the low 6 bits of rs2 count
  TEST_RR 47, slt, 1, -5, 3
  TEST_RR 48, slt, 0, 3, -5
  TEST_RR 49, sltu, 0, -5, 3
  TEST_RR 50, sltu, 1, 3, -5
  TEST_RR 51, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f
  TEST_RR 52, srl, 1, 0x8000000000000000, 63
  TEST_RR 53, srl, 0x4000000000000000, 0x8000000000000000, 65
  TEST_RR 54, sra, 0xffffffffffffffff, 0x8000000000000000, 63
  TEST_RR 55, sra, 0xc000000000000000, 0x8000000000000000, 0xffffffffffffffc1
  TEST_RR 56, or, 0xff0fff0f, 0xff00ff00, 0x0f0f0f0f
  TEST_RR 57, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f

  # --- RV64 word register-register ---
  TEST_RR 60, addw, 0xffffffff80000000, 0x7fffffff, 1
  TEST_RR 61, addw, 0x00000000, 0xffffffff, 1
  TEST_RR 62, subw, 0x7fffffff, 0x80000000, 1
  TEST_RR 63, subw, 0xffffffffffffffff, 0x100000000, 1
  TEST_RR 64, sllw, 0xffffffff80000000, 1, 31
  TEST_RR 65, sllw, 2, 1, 33              # only the low 5 bits count
  TEST_RR 66, srlw, 0x7fffffff, 0xfffffffffffffffe, 1
  TEST_RR 67, srlw, 0xffffffff80000000, 0x80000000, 32
  TEST_RR 68, sraw, 0xffffffffc0000000, 0x80000000, 1
  TEST_RR 69, sraw, 0x3fffffff, 0xffffffff7fffffff, 33

  # --- lui, auipc ---
  CASE 70
  lui a0, 0x80000
  EXPECT a0, 0xffffffff80000000
  CASE 71
  lui a0, 0x7ffff
  EXPECT a0, 0x7ffff000
  CASE 72
1:
  auipc a0, 0
  EXPECT_ADDR a0, 1b
  CASE 73
1:
  auipc a0, 1
  la a1, 1b
  sub a0, a0, a1
  EXPECT a0, 0x1000

  # --- jal, jalr ---
  CASE 80
  jal a0, 1f
2:
  j fail
1:
  EXPECT_ADDR a0, 2b
  CASE 81
  la a1, 1f
  jalr a0, 0(a1)
2:
  j fail
1:
  EXPECT_ADDR a0, 2b
  CASE 82                                  # offset added, then bit 0 cleared
  la a1, 1f - 3
  jalr a0, 4(a1)
  j fail
1:
  CASE 83                                  # rd == rs1: the target uses the old value
  la a0, 1f
  jalr a0, 0(a0)
2:
  j fail
1:
  EXPECT_ADDR a0, 2b
  CASE 84                                  # rd = x0 stays zero
  jal zero, 1f
  j fail
1:
  EXPECT zero, 0

  # --- branches ---
  TEST_BRANCH 90, beq, 1, -1, -1
  TEST_BRANCH 91, beq, 0, 0, 1
  TEST_BRANCH 92, bne, 1, 0, 1
  TEST_BRANCH 93, bne, 0, 7, 7
  TEST_BRANCH 94, blt, 1, -1, 0
  TEST_BRANCH 95, blt, 0, 0, -1
  TEST_BRANCH 96, blt, 0, 3, 3
  TEST_BRANCH 97, bge, 1, 3, 3
  TEST_BRANCH 98, bge, 1, 0, -1
  TEST_BRANCH 99, bge, 0, -1, 0
  TEST_BRANCH 100, bltu, 1, 0, -1
  TEST_BRANCH 101, bltu, 0, -1, 0
  TEST_BRANCH 102, bgeu, 1, -1, 0
  TEST_BRANCH 103, bgeu, 0, 0, -1
  TEST_BRANCH 104, bgeu, 1, 5, 5
  CASE 105                                 # backward branch
  li a0, 3
1:
  addi a0, a0, -1
  bnez a0, 1b
  EXPECT a0, 0

  # --- loads: sign and zero extension ---
  TEST_LOAD 110, lb, 0xffffffffffffff80, load_data, 0
  TEST_LOAD 111, lbu, 0x80, load_data, 0
  TEST_LOAD 112, lb, 0x7f, load_data, 1
  TEST_LOAD 113, lh, 0xffffffffffff8001, load_data, 2
  TEST_LOAD 114, lhu, 0x8001, load_data, 2
  TEST_LOAD 115, lw, 0xffffffff80000001, load_data, 4
  TEST_LOAD 116, lwu, 0x80000001, load_data, 4
  TEST_LOAD 117, ld, 0x8000000000000001, load_data, 8
  TEST_LOAD 118, ld, 0x0123456789abcdef, load_data, 16
  TEST_LOAD 119, lw, 0x01234567, load_data + 32, -12  # negative offset
  CASE 120                                 # a load into x0 is discarded
  la a1, load_data
  lw zero, 0(a1)
  EXPECT zero, 0

  # --- stores: width and position ---
  TEST_STORE 130, sb, 0x1234567890abcdef, 0, 0xef
  TEST_STORE 131, sb, 0xaa, 7, 0xaa00000000000000
  TEST_STORE 132, sh, 0x1234567890abcdef, 2, 0xcdef0000
  TEST_STORE 133, sw, 0x1234567890abcdef, 4, 0x90abcdef00000000
  TEST_STORE 134, sd, 0x1234567890abcdef, 0, 0x1234567890abcdef
  TEST_STORE 135, sd, 0x1234567890abcdef, 8, 0
  CASE 136                                 # store with a negative offset
  la a1, store_area + 16
  li a2, 0x55
  sb a2, -16(a1)
  ld a0, -16(a1)
  EXPECT a0, 0x55

  # --- x0 is hard-wired ---
  CASE 140
  addi zero, zero, 5
  EXPECT zero, 0
  CASE 141
  lui zero, 0x12345
  EXPECT zero, 0
  CASE 142
  li a1, 9
  add a0, zero, a1
  EXPECT a0, 9

  # --- fence, and the hint/nop encodings, must do nothing visible ---
  CASE 150
  li a0, 1
  fence
  fence rw, rw
  fence.tso
  nop
  .word 0x0100000f                       # pause (a fence hint)
  EXPECT a0, 1

  j pass

.data
.balign 8
load_data:
  .byte 0x80, 0x7f
  .half 0x8001
  .word 0x80000001
  .dword 0x8000000000000001
  .dword 0x0123456789abcdef
  .dword 0
store_area:
  .dword 0, 0
