# RV64C: every compressed form of RV64IC (the F/D forms are illegal here), including the
# RV64-only ones (c.ld, c.sd, c.ldsp, c.sdsp, c.addiw, c.addw, c.subw), and the reserved
# encodings, which are illegal instructions.
.option arch, +c

# Compressed op `op rd, rs` (CA/CR form, rd is also a source): rd = a op b.
.macro TEST_C_RR n, op, result, a, b
  CASE \n
  li s0, \a
  li s1, \b
  \op s0, s1
  EXPECT s0, \result
.endm

# Compressed op `op rd, imm` (CI/CB form): rd = a op imm.
.macro TEST_C_RI n, op, result, a, imm
  CASE \n
  li a5, \a
  \op a5, \imm
  EXPECT a5, \result
.endm

test_main:
  # --- quadrant 0 ---
  CASE 1
  c.addi4spn a0, sp, 1020
  addi a1, sp, 1020
  EXPECT_SAME a0, a1
  CASE 2
  la s0, c_data
  c.lw a0, 4(s0)                          # sign-extends
  EXPECT a0, 0xffffffff80000001
  CASE 3
  c.ld a1, 8(s0)
  EXPECT a1, 0x0123456789abcdef
  CASE 4
  la s1, c_scratch
  li a2, 0x1122334455667788
  c.sd a2, 0(s1)
  c.sw a2, 8(s1)
  ld a3, 0(s1)
  EXPECT a3, 0x1122334455667788
  lwu a3, 8(s1)
  EXPECT a3, 0x55667788
  CASE 5
  c.lw a4, 124(s0)                        # the largest c.lw offset
  EXPECT a4, 0x7c7c7c7c
  CASE 6
  c.ld a4, 248(s0)                        # the largest c.ld offset
  EXPECT a4, 0x0f8f8f8f8f8f8f8f

  # --- quadrant 1 ---
  CASE 10
  li a0, 3
  c.nop
  EXPECT a0, 3
  TEST_C_RI 11, c.addi, 2, 5, -3
  TEST_C_RI 12, c.addi, 36, 5, 31
  TEST_C_RI 13, c.addiw, 0xffffffff80000000, 0x7fffffff, 1
  TEST_C_RI 14, c.addiw, 0xffffffffffffffff, 0xffffffff, 0   # c.sext.w
  CASE 15
  c.li a0, -32
  EXPECT a0, -32
  c.li a0, 31
  EXPECT a0, 31
  CASE 16
  mv a1, sp
  c.addi16sp sp, -512
  sub a2, a1, sp
  EXPECT a2, 512
  c.addi16sp sp, 496
  c.addi16sp sp, 16
  EXPECT_SAME sp, a1
  CASE 17
  c.lui a0, 0xfffe0                       # sign-extended from bit 17
  EXPECT a0, 0xfffffffffffe0000
  c.lui a0, 1
  EXPECT a0, 0x1000
  CASE 18
  li s0, 0x8000000000000000
  c.srli s0, 63
  EXPECT s0, 1
  li s0, 0x8000000000000000
  c.srai s0, 63
  EXPECT s0, -1
  li s0, 0x8000000000000000
  c.srai s0, 1
  EXPECT s0, 0xc000000000000000
  CASE 19
  li s0, -1
  c.andi s0, -16
  EXPECT s0, -16
  li s0, 0xff
  c.andi s0, 0x1f
  EXPECT s0, 0x1f
  TEST_C_RR 20, c.sub, -1, 0, 1
  TEST_C_RR 21, c.xor, 0xf0f0, 0xff00, 0x0ff0
  TEST_C_RR 22, c.or, 0xfff0, 0xff00, 0x0ff0
  TEST_C_RR 23, c.and, 0x0f00, 0xff00, 0x0ff0
  TEST_C_RR 24, c.subw, 0x7fffffff, 0x80000000, 1
  TEST_C_RR 25, c.subw, 0xffffffffffffffff, 0x100000000, 1
  TEST_C_RR 26, c.addw, 0xffffffff80000000, 0x7fffffff, 1
  TEST_C_RR 27, c.addw, 0, 0xffffffff, 1
  CASE 28
  c.j 1f
  j fail
1:
  CASE 29
  li s0, 0
  c.beqz s0, 1f
  j fail
1:
  li s0, 1
  c.beqz s0, fail
  c.bnez s0, 1f
  j fail
1:
  li s0, 0
  c.bnez s0, fail
  CASE 30                                  # backward c.bnez loop
  li s1, 4
1:
  c.addi s1, -1
  c.bnez s1, 1b
  EXPECT s1, 0

  # --- quadrant 2 ---
  TEST_C_RI 40, c.slli, 0x8000000000000000, 1, 63
  TEST_C_RI 41, c.slli, 0x100000000, 1, 32
  CASE 42
  addi sp, sp, -256
  li a0, 0x8000000180000002
  sd a0, 248(sp)
  sw a0, 252(sp)
  c.lwsp a1, 252(sp)                      # the largest c.lwsp offset, sign-extends
  EXPECT a1, 0xffffffff80000002
  c.ldsp a2, 248(sp)
  EXPECT a2, 0x8000000280000002
  li a3, 0x0102030405060708
  c.sdsp a3, 504(sp)                      # the largest c.sdsp offset
  ld a4, 504(sp)
  EXPECT_SAME a3, a4
  c.swsp a3, 0(sp)
  lw a4, 0(sp)
  EXPECT a4, 0x05060708
  addi sp, sp, 256
  CASE 43
  la a0, 1f
  c.jr a0
  j fail
1:
  CASE 44
  la a0, 1f
  c.jalr a0                                 # ra = address of the next (2-byte) instruction
2:
  j fail
1:
  EXPECT_ADDR ra, 2b
  CASE 45
  li a1, 0x1234
  c.mv a0, a1
  EXPECT a0, 0x1234
  CASE 46
  li a0, -1
  li a1, 1
  c.add a0, a1
  EXPECT a0, 0
  CASE 47                                   # c.ebreak: a breakpoint at its own address
  ARM_TRAP 1f
2:
  c.ebreak
  j fail
1:
  EXPECT_TRAP_AT MODE_M, 3, 2b
  ld tp, trap_record + 16
  la a0, 2b
  beqz tp, 3f
  EXPECT_SAME tp, a0
3:

  # --- reserved encodings are illegal ---
  TEST_ILLEGAL 60, .half, 0x0000            # all zeros
  TEST_ILLEGAL 61, .half, 0x0004            # c.addi4spn with a zero immediate
  TEST_ILLEGAL 62, .half, 0x2001            # c.addiw with rd = x0
  TEST_ILLEGAL 63, .half, 0x6101            # c.addi16sp with a zero immediate
  TEST_ILLEGAL 64, .half, 0x6501            # c.lui with a zero immediate
  TEST_ILLEGAL 65, .half, 0x4002            # c.lwsp with rd = x0
  TEST_ILLEGAL 66, .half, 0x6002            # c.ldsp with rd = x0
  TEST_ILLEGAL 67, .half, 0x8002            # c.jr with rs1 = x0
  TEST_ILLEGAL 68, .half, 0x2000            # c.fld: no D extension
  TEST_ILLEGAL 69, .half, 0xa002            # c.fsdsp: no D extension
  TEST_ILLEGAL 70, .half, 0x9c41            # c.subw's reserved neighbour (funct2 = 10, bit 12 set)

  CASE 80                                    # a 32-bit instruction at a 2-byte boundary
  .balign 4
  c.nop
  li a0, 0x12345678
  EXPECT a0, 0x12345678
  j pass

.data
.balign 8
c_data:
  .word 0
  .word 0x80000001
  .dword 0x0123456789abcdef
  .fill 108, 1, 0
  .word 0x7c7c7c7c                          # offset 124
  .fill 120, 1, 0
  .dword 0x0f8f8f8f8f8f8f8f                 # offset 248
c_scratch:
  .dword 0, 0
