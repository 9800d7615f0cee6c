# Loader: a program linked the way standard M-mode test suites link theirs (suite_layout.ld,
# and suite_layout_noflags.ld where `.text.init` and `.tohost` share a PT_LOAD with empty
# flags). Reaching the first check means the entry's segment was loaded and entered; the
# checks then look at what the other segments brought.

test_main:
  CASE 1                                   # .text.init at the start of RAM, .tohost a page on
  la a0, _start
  EXPECT a0, 0x80000000
  la a1, tohost
  sub a1, a1, a0
  li a2, 0x1000
  bltu a1, a2, fail
  CASE 2                                   # initialised data arrived
  la a0, suite_data
  ld a1, 0(a0)
  EXPECT a1, 0x5ca1ab1e0ddba11
  CASE 3                                   # .bss is zero and writable
  la a0, suite_bss
  ld a1, 0(a0)
  EXPECT a1, 0
  sd a0, 0(a0)
  ld a1, 0(a0)
  EXPECT_SAME a1, a0
  j pass

.data
.balign 8
suite_data: .dword 0x5ca1ab1e0ddba11

.bss
.balign 8
suite_bss: .dword 0
