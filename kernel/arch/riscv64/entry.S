# Boot. QEMU's -bios none starts every hart at 0x80000000 in machine mode
# with paging off. Each hart gets a boot stack, machine-mode setup drops it
# into supervisor mode at s_entry, which turns on Sv39 with boot_pgd and
# jumps to the kernel's linked (linear-map) address.
#include "arch_defs.h"
#define BOOT_STACK 16384

.section .text.boot
.global _start
_start:
	csrr a0, mhartid
	li t0, 8
	bgeu a0, t0, park
	la sp, boot_stacks           # physical: paging is off
	addi t0, a0, 1
	li t1, BOOT_STACK
	mul t0, t0, t1
	add sp, sp, t0
	call riscv_setup_machine_mode  # mrets to s_entry with a0 = hartid
park:
	wfi
	j park

# Supervisor mode, paging still off, a0 = hartid.
.global s_entry
s_entry:
	la t0, boot_pgd
	srli t0, t0, 12
	li t1, 8 << 60               # Sv39
	or t0, t0, t1
	sfence.vma
	csrw satp, t0
	sfence.vma
	# Both the identity map and the linear map are live: move to the latter.
	li t1, PAGE_OFFSET
	add sp, sp, t1
	la t0, 1f
	ld t0, 0(t0)
	jr t0
.balign 8
1:	.dword start_high
start_high:
	li tp, 0
	la t0, early_trap            # any trap before the real vector: stop
	csrw stvec, t0
	call start_kernel            # a0 = hartid; never returns
	j park

early_trap:
	wfi
	j early_trap

.section .boot_stack, "aw", @nobits
.balign 16
.global boot_stacks
boot_stacks:
	.space BOOT_STACK * 8

# The page table that turns paging on: the identity map of RAM (needed only
# until the jump above) and the kernel's linear map of devices and RAM.
# 1 GiB leaves; V R W (X for RAM) A D, G for the kernel's.
.section .data
.balign 4096
.global boot_pgd
boot_pgd:
	.dword 0
	.dword 0
	.dword (0x80000 << 10) | 0xCF      # 0x80000000: RAM, identity
	.fill 253, 8, 0
	.dword (0x00000 << 10) | 0xE7      # PAGE_OFFSET + 0: devices, RW
	.dword 0
	.dword (0x80000 << 10) | 0xEF      # PAGE_OFFSET + 2 GiB: RAM, RWX
	.fill 253, 8, 0
