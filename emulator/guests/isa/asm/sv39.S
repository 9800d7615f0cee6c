# Sv39 translation in S- and U-mode: 4 KiB, 2 MiB and 1 GiB pages, permission faults, the U
# bit with SUM, MXR, misaligned superpages, invalid and reserved PTEs, non-canonical
# addresses, hardware-updated A/D bits (the emulator updates them, see its mmu.rs, as
# QEMU does), and sfence.vma after changing a PTE.

.equ PTE_V, 1 << 0
.equ PTE_R, 1 << 1
.equ PTE_W, 1 << 2
.equ PTE_X, 1 << 3
.equ PTE_U, 1 << 4
.equ PTE_A, 1 << 6
.equ PTE_D, 1 << 7
.equ RWXAD, PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D
.equ RWAD, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D

.equ MEGA_PA, 0x80400000                  # physical 2 MiB region behind MEGA_VA
.equ MEGA_VA, 0x40000000                  # l1[0]: a 2 MiB page
.equ PAGE_VA, 0x40200000                  # l1[1] -> l0: 4 KiB pages, one per slot below
.equ RW_VA, PAGE_VA + 0x0000              # page_a, RW
.equ RO_VA, PAGE_VA + 0x1000              # page_b, read-only
.equ USER_VA, PAGE_VA + 0x2000            # page_u, RW and U
.equ XONLY_VA, PAGE_VA + 0x3000           # page_x, execute-only
.equ INVALID_VA, PAGE_VA + 0x4000         # V = 0
.equ WONLY_VA, PAGE_VA + 0x5000           # W without R: reserved
.equ FRESH_VA, PAGE_VA + 0x6000           # page_c, RW with A = D = 0
.equ REMAP_VA, PAGE_VA + 0x7000           # page_a, then page_b after sfence.vma
.equ UCODE_VA, PAGE_VA + 0x8000           # u_code, RX and U
.equ NOLEAF_VA, PAGE_VA + 0x9000          # a pointer PTE at level 0
.equ BADMEGA_VA, 0x40400000               # l1[2]: 2 MiB leaf with a misaligned PPN
.equ GIGA_VA, 0xc0000000                  # root[3]: 1 GiB page onto RAM
.equ BADGIGA_VA, 0x100000000              # root[4]: 1 GiB leaf with a misaligned PPN
.equ NONCANON_VA, 0x0000008000000000      # bit 39 set, bit 38 clear

# table[index] = leaf or pointer to the physical address of `label`, with `flags`.
.macro PTE_TO_LABEL table, index, label, flags
  la a0, \label
  srli a0, a0, 12
  slli a0, a0, 10
  ori a0, a0, \flags
  la a1, \table
  sd a0, (\index * 8)(a1)
.endm

# table[index] = leaf onto the constant physical address `pa`, with `flags`.
.macro PTE_TO_PA table, index, pa, flags
  li a0, (\pa >> 12) << 10
  ori a0, a0, \flags
  la a1, \table
  sd a0, (\index * 8)(a1)
.endm

# In S-mode, `op a0, 0(va)` must not trap; for loads, a0 must then hold `value`.
.macro S_ACCESS_OK n, op, va, value
  CASE \n
  li a0, \value
  GOTO_MODE MODE_S, .Lin\@
.Lin\@:
  li a1, \va
  \op a0, 0(a1)
  BACK_TO_M .Lout\@
.Lout\@:
  EXPECT a0, \value
.endm

# In S-mode, `op a0, 0(va)` must raise page fault `cause` with tval = va.
.macro S_ACCESS_FAULT n, op, va, cause
  CASE \n
  GOTO_MODE MODE_S, .Lin\@
.Lin\@:
  li a1, \va
  ARM_TRAP .Lout\@
.Linsn\@:
  \op a0, 0(a1)
  j fail
.Lout\@:
  EXPECT_TRAP MODE_M, \cause, .Linsn\@, \va
.endm

# In S-mode, jumping to `va` must raise an instruction page fault at va.
.macro S_FETCH_FAULT n, va
  CASE \n
  GOTO_MODE MODE_S, .Lin\@
.Lin\@:
  li a1, \va
  ARM_TRAP .Lout\@
  jalr ra, 0(a1)
  j fail
.Lout\@:
  ld tp, trap_record
  EXPECT tp, 12
  ld tp, trap_record + 8
  EXPECT tp, \va
  ld tp, trap_record + 16
  EXPECT tp, \va
.endm

# Runs u_code in U-mode with a1 = va: a load from va, then an ecall.
.macro U_LOAD va
  li a1, \va
  GOTO_MODE_VA MODE_U, UCODE_VA
.endm

.macro GOTO_MODE_VA mode, va
  li t6, MSTATUS_MPP
  csrc mstatus, t6
  li t6, \mode << 11
  csrs mstatus, t6
  li t6, \va
  csrw mepc, t6
  mret
.endm

test_main:
  # --- the tables: RAM identity-mapped by a gigapage, test pages in 0x4000_0000.. ---
  PTE_TO_PA root, 2, 0x80000000, RWXAD
  PTE_TO_LABEL root, 1, l1, PTE_V
  PTE_TO_PA l1, 0, MEGA_PA, RWAD
  PTE_TO_LABEL l1, 1, l0, PTE_V
  PTE_TO_PA l1, 2, MEGA_PA + 0x1000, RWAD
  PTE_TO_PA root, 3, 0x80000000, RWAD
  PTE_TO_PA root, 4, 0x80000000 + 0x200000, RWAD
  PTE_TO_LABEL l0, 0, page_a, RWAD
  PTE_TO_LABEL l0, 1, page_b, PTE_V | PTE_R | PTE_A
  PTE_TO_LABEL l0, 2, page_u, RWAD | PTE_U
  PTE_TO_LABEL l0, 3, page_x, PTE_V | PTE_X | PTE_A
  PTE_TO_LABEL l0, 5, page_a, PTE_V | PTE_W | PTE_A | PTE_D
  PTE_TO_LABEL l0, 6, page_c, PTE_V | PTE_R | PTE_W
  PTE_TO_LABEL l0, 7, page_a, RWAD
  PTE_TO_LABEL l0, 8, u_code, PTE_V | PTE_R | PTE_X | PTE_U | PTE_A
  PTE_TO_LABEL l0, 9, page_a, PTE_V
  li a0, MEGA_PA
  li a1, 0x5555
  sd a1, 0(a0)
  CASE 1                                   # satp holds Sv39 with the root's PPN
  la a0, root
  srli a0, a0, 12
  li a1, 8 << 60
  or a0, a0, a1
  csrw satp, a0
  sfence.vma
  csrr a1, satp
  EXPECT_SAME a0, a1

  # --- page sizes ---
  S_ACCESS_OK 2, ld, RW_VA, 0x1111
  S_ACCESS_OK 3, ld, RO_VA, 0x2222
  S_ACCESS_OK 4, ld, MEGA_VA, 0x5555
  S_ACCESS_OK 5, sd, RW_VA + 8, 0x77      # a store through a 4 KiB page...
  CASE 6
  ld a0, page_a + 8                        # ...reaches its physical page
  EXPECT a0, 0x77
  CASE 7                                   # a gigapage: RAM again at 0xc000_0000
  GOTO_MODE MODE_S, 2f
2:
  la a1, page_a
  li a2, GIGA_VA - 0x80000000
  add a1, a1, a2
  ld a0, 0(a1)
  BACK_TO_M 1f
1:
  EXPECT a0, 0x1111
  CASE 8                                   # the last byte of the 2 MiB page
  li a0, MEGA_PA + 0x1fffff
  li a1, 0x9a
  sb a1, 0(a0)
  S_ACCESS_OK 9, lbu, MEGA_VA + 0x1fffff, 0x9a

  # --- faults: cause 12 fetch, 13 load, 15 store; tval = the virtual address ---
  S_ACCESS_FAULT 10, sd, RO_VA, 15
  S_ACCESS_FAULT 11, ld, INVALID_VA, 13
  S_ACCESS_FAULT 12, sd, INVALID_VA, 15
  S_ACCESS_FAULT 13, ld, WONLY_VA, 13
  S_ACCESS_FAULT 14, ld, BADMEGA_VA, 13
  S_ACCESS_FAULT 15, ld, BADGIGA_VA + 8, 13
  S_ACCESS_FAULT 16, ld, NONCANON_VA, 13
  S_ACCESS_FAULT 17, ld, NOLEAF_VA, 13
  CASE 18                                  # an AMO on a read-only page is a store fault
  GOTO_MODE MODE_S, 2f
2:
  li a1, RO_VA
  ARM_TRAP 1f
3:
  amoadd.d a0, a0, (a1)
  j fail
1:
  EXPECT_TRAP MODE_M, 15, 3b, RO_VA
  S_FETCH_FAULT 19, RW_VA                  # not executable
  S_FETCH_FAULT 20, INVALID_VA
  S_ACCESS_FAULT 21, ld, RW_VA + 0x10000000, 13     # nothing mapped in root[1] l1[128]

  # --- U pages, SUM ---
  S_ACCESS_FAULT 30, ld, USER_VA, 13       # S may not touch U pages without SUM
  CSR_SET mstatus, MSTATUS_SUM
  S_ACCESS_OK 31, ld, USER_VA, 0x3333
  S_ACCESS_OK 32, sd, USER_VA + 8, 0x3434
  S_FETCH_FAULT 33, UCODE_VA               # SUM never allows S to execute U pages
  CSR_CLEAR mstatus, MSTATUS_SUM
  CASE 34                                  # U may load from U pages
  ARM_TRAP 1f
  U_LOAD USER_VA
1:
  ld tp, trap_record
  EXPECT tp, 8
  EXPECT a0, 0x3333
  CASE 35                                  # ...but not from S pages
  ARM_TRAP 1f
  U_LOAD RW_VA
1:
  ld tp, trap_record
  EXPECT tp, 13
  ld tp, trap_record + 16
  EXPECT tp, RW_VA
  ld tp, trap_record + 8
  EXPECT tp, UCODE_VA

  CASE 36                                  # U may not execute S pages
  ARM_TRAP 1f
  GOTO_MODE MODE_U, 2f                     # 2f is in the identity map: an S page
2:
  j fail
1:
  EXPECT_TRAP_TVAL_AT MODE_M, 12, 2b, 2b

  # --- MXR: execute-only pages become readable ---
  S_ACCESS_FAULT 40, ld, XONLY_VA, 13
  CSR_SET mstatus, MSTATUS_MXR
  S_ACCESS_OK 41, ld, XONLY_VA, 0x4444
  S_ACCESS_FAULT 42, sd, XONLY_VA, 15      # but never writable
  CSR_CLEAR mstatus, MSTATUS_MXR

  # --- A and D: set by the hardware on first access and first write ---
  CASE 50
  ld a0, l0 + 6 * 8
  andi a0, a0, PTE_A | PTE_D
  EXPECT a0, 0
  S_ACCESS_OK 51, ld, FRESH_VA, 0x6666
  CASE 52
  ld a0, l0 + 6 * 8
  andi a0, a0, PTE_A | PTE_D
  EXPECT a0, PTE_A
  S_ACCESS_OK 53, sw, FRESH_VA + 4, 0x6767
  CASE 54
  ld a0, l0 + 6 * 8
  andi a0, a0, PTE_A | PTE_D
  EXPECT a0, PTE_A | PTE_D

  # --- sfence.vma makes a changed PTE visible (all in S-mode, no satp write between) ---
  CASE 60
  GOTO_MODE MODE_S, 2f
2:
  li a1, REMAP_VA
  ld a2, 0(a1)                             # 0x1111 via page_a
  la a3, page_b
  srli a3, a3, 12
  slli a3, a3, 10
  ori a3, a3, RWAD
  la a4, l0
  sd a3, 7 * 8(a4)
  sfence.vma a1
  ld a0, 0(a1)                             # 0x2222 via page_b
  sd zero, 7 * 8(a4)                       # now invalid
  sfence.vma
  ARM_TRAP 1f
3:
  ld a5, 0(a1)
  j fail
1:
  EXPECT a2, 0x1111
  EXPECT a0, 0x2222
  EXPECT_TRAP MODE_M, 13, 3b, REMAP_VA

  # --- M-mode is never translated; satp = 0 turns translation off in S ---
  CASE 70
  li a0, RW_VA
  ARM_TRAP 1f
  ld a0, 0(a0)                             # 0x4020_0000 is no RAM in M-mode
  j fail
1:
  ld tp, trap_record
  EXPECT tp, 5
  CASE 71
  csrw satp, zero
  sfence.vma
  GOTO_MODE MODE_S, 2f
2:
  ld a0, page_a                            # physical addresses again
  BACK_TO_M 1f
1:
  EXPECT a0, 0x1111
  j pass

# U-mode code, mapped at UCODE_VA: one load from a1, then back to M.
.balign 4096
u_code:
  ld a0, 0(a1)
  ecall
  j fail

.data
.balign 4096
root: .fill 512, 8, 0
l1: .fill 512, 8, 0
l0: .fill 512, 8, 0
page_a: .dword 0x1111
  .balign 4096
page_b: .dword 0x2222
  .balign 4096
page_u: .dword 0x3333
  .balign 4096
page_x: .dword 0x4444
  .balign 4096
page_c: .dword 0x6666
  .balign 4096
