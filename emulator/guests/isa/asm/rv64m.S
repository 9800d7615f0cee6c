# RV64M: multiplication and division, including division by zero and signed overflow,
# which the spec defines instead of trapping.
.equ MIN64, 0x8000000000000000
.equ MIN32, 0xffffffff80000000
test_main:
  TEST_RR 1, mul, 0x0000000000001200, 0x100, 0x12
  TEST_RR 2, mul, 0x0000000000000001, -1, -1
  TEST_RR 3, mul, 0xfffffffffffffffe, 0xffffffffffffffff, 2
  TEST_RR 4, mul, 0x8000000000000000, 0x4000000000000000, 2     # low 64 bits only
  TEST_RR 10, mulh, 0, 2, 3
  TEST_RR 11, mulh, 0xffffffffffffffff, -1, 1
  TEST_RR 12, mulh, 0x4000000000000000, MIN64, MIN64
  TEST_RR 13, mulh, 0xc000000000000000, MIN64, 0x7fffffffffffffff
  TEST_RR 20, mulhu, 0xfffffffffffffffe, -1, -1
  TEST_RR 21, mulhu, 0, 0xffffffff, 0xffffffff
  TEST_RR 22, mulhu, 1, 0x100000000, 0x100000000
  TEST_RR 30, mulhsu, 0xffffffffffffffff, -1, -1    # signed -1 times unsigned 2^64-1
  TEST_RR 31, mulhsu, 0x7ffffffffffffffe, 0x7fffffffffffffff, -1
  TEST_RR 32, mulhsu, 0xc000000000000000, MIN64, 0x8000000000000000
  TEST_RR 40, div, 3, 20, 6
  TEST_RR 41, div, -3, -20, 6                 # rounds toward zero
  TEST_RR 42, div, -3, 20, -6
  TEST_RR 43, div, -1, 5, 0                   # by zero: all ones
  TEST_RR 44, div, MIN64, MIN64, -1           # overflow: the dividend
  TEST_RR 50, divu, 3, 20, 6
  TEST_RR 51, divu, 0x7fffffffffffffff, -1, 2
  TEST_RR 52, divu, -1, 5, 0
  TEST_RR 60, rem, 2, 20, 6
  TEST_RR 61, rem, -2, -20, 6                 # sign of the dividend
  TEST_RR 62, rem, 2, 20, -6
  TEST_RR 63, rem, 5, 5, 0                    # by zero: the dividend
  TEST_RR 64, rem, 0, MIN64, -1               # overflow: zero
  TEST_RR 70, remu, 2, 20, 6
  TEST_RR 71, remu, 1, -1, 2
  TEST_RR 72, remu, -5, -5, 0
  TEST_RR 80, mulw, 0xffffffff80000000, 0x40000000, 2        # sign-extended low word
  TEST_RR 81, mulw, 1, 0xffffffffffffffff, 0x00000000ffffffff
  TEST_RR 82, mulw, 0, 0x100000000, 5
  TEST_RR 90, divw, 3, 20, 6
  TEST_RR 91, divw, -3, 0xffffffffffffffec, 0x0000000700000006   # operands are low words
  TEST_RR 92, divw, -1, 5, 0
  TEST_RR 93, divw, MIN32, 0x80000000, -1
  TEST_RR 100, divuw, 0x7fffffff, 0xffffffff, 2
  TEST_RR 101, divuw, -1, 5, 0                # all ones, sign-extended from 32 bits
  TEST_RR 102, divuw, 0xffffffff80000000, 0x80000000, 1       # result sign-extended
  TEST_RR 110, remw, -2, 0xffffffffffffffec, 6
  TEST_RR 111, remw, 5, 0x5, 0
  TEST_RR 112, remw, 0, 0x80000000, -1
  TEST_RR 113, remw, 0xffffffff80000000, 0x180000000, 0         # by zero: the sign-extended low word
  TEST_RR 120, remuw, 3, 0xffffffff, 7
  TEST_RR 121, remuw, 0xffffffff80000001, 0x80000001, 0
  TEST_RR 122, remuw, 1, 0x1ffffffff, 2
  j pass
