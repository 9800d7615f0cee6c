# Deliberately wrong: proves the runner reports a failing check. Checks 1 and 2 pass; check 3
# expects `add` to subtract, so this program must exit with code 3 (see tests/isa.rs).
test_main:
  TEST_RR 1, add, 5, 2, 3
  TEST_RR 2, sub, -1, 2, 3
  TEST_RR 3, add, -1, 2, 3
  j pass
