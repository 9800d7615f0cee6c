# Misaligned atomics must trap (the spec allows an address-misaligned or an access-fault
# exception): LR is a load (cause 4 or 5), SC and AMOs are stores (cause 6 or 7).
# QEMU reports misaligned AMOs as load-misaligned (cause 4), against the spec's cause table.
test_main:
  CASE 1
  la a1, amo_cell + 2
  ARM_TRAP 1f
2:
  amoadd.w a0, a2, (a1)
  j fail
1:
  ld tp, trap_record
  EXPECT_EITHER tp, 6, 7
  ld tp, trap_record + 8
  EXPECT_ADDR tp, 2b
  ld tp, trap_record + 16
  EXPECT_SAME tp, a1
  CASE 2
  la a1, amo_cell + 4
  ARM_TRAP 1f
2:
  lr.d a0, (a1)
  j fail
1:
  ld tp, trap_record
  EXPECT_EITHER tp, 4, 5
  ld tp, trap_record + 8
  EXPECT_ADDR tp, 2b
  CASE 3
  la a1, amo_cell + 1
  ARM_TRAP 1f
2:
  sc.w a0, a2, (a1)
  j fail
1:
  ld tp, trap_record
  EXPECT_EITHER tp, 6, 7
  j pass

.data
.balign 64
amo_cell: .dword 0
