# Zifencei: code written by stores runs after fence.i, including code that already ran (and
# so sits in any decoded-instruction cache) and the instruction right after the fence.
# The patched instructions are 32-bit, so the assembler must not compress this file.
.option norvc

.equ ADDI_A2_BASE, 0x00000613             # addi a2, zero, 0; the immediate goes in bits 31:20

.macro ADDI_A2 reg, imm
  li \reg, ADDI_A2_BASE | (\imm << 20)
.endm

test_main:
  CASE 1                                   # run once, patch, fence.i, run again
  jal ra, patch_site
  EXPECT a2, 1
  la a0, patch_site
  ADDI_A2 a1, 2
  sw a1, 0(a0)
  fence.i
  jal ra, patch_site
  EXPECT a2, 2
  CASE 2                                   # patch the instruction just after the fence
  la a0, 1f
  ADDI_A2 a1, 3
  sw a1, 0(a0)
  fence.i
1:
  addi a2, zero, 1
  EXPECT a2, 3
  CASE 3                                   # the same location patched in a loop
  li a3, 0
  li a4, 5
2:
  la a0, 1f
  slli a1, a3, 20
  li t0, ADDI_A2_BASE
  or a1, a1, t0
  sw a1, 0(a0)
  fence.i
1:
  addi a2, zero, 0
  EXPECT_SAME a2, a3
  addi a3, a3, 1
  bne a3, a4, 2b
  CASE 4                                   # code copied into a data buffer and called there
  la a0, ram_code
  la a1, code_template
  lw t0, 0(a1)
  sw t0, 0(a0)
  lw t0, 4(a1)
  sw t0, 4(a0)
  fence.i
  li a2, 0
  jalr ra, 0(a0)
  EXPECT a2, 42
  ADDI_A2 t0, 43                           # and again after overwriting it
  sw t0, 0(a0)
  fence.i
  jalr ra, 0(a0)
  EXPECT a2, 43
  j pass

patch_site:
  addi a2, zero, 1
  ret

code_template:
  addi a2, zero, 42
  ret

.data
.balign 64
ram_code: .space 64
