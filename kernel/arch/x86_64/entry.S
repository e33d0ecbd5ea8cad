# Boot. Every CPU passes through here once: the boot CPU from QEMU's
# multiboot loader (32-bit protected mode, paging off, eax = 0x2BADB002,
# ebx = the multiboot information), the others from the real-mode
# trampoline below, which smp.c copies to low memory and starts with
# INIT-SIPI-SIPI. Both meet in start32, which turns on PAE paging with
# boot_pml4 and long mode, then jumps to the kernel's linked (high)
# address and calls start_kernel(cpu) on the CPU's boot stack.
#include "arch_defs.h"
#include "param.h"

#define PHYS(x) ((x) - PAGE_OFFSET)
#define TRAMPOLINE 0x8000            /* SIPI vector 0x08 */
#define TRAMP(x) (TRAMPOLINE + (x) - trampoline_start)

# The multiboot (version 1) header. QEMU 7.2's -kernel loader refuses an
# ELF64 file unless the header sets flag bit 16, the "a.out kludge": then
# it ignores the ELF headers and loads the file's bytes from this header's
# file offset (minus header_addr - load_addr) to load_addr, up to
# load_end_addr, zeroes up to bss_end_addr and jumps to entry_addr. All
# five are physical addresses. The linker script keeps the image one
# contiguous run in the file so that this is the same thing.
#define MB_MAGIC  0x1BADB002
#define MB_FLAGS  ((1 << 16) | (1 << 1))   /* a.out kludge, memory info */
.section .text.boot, "ax"
.balign 4
mb_header:
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)
	.long PHYS(mb_header)        # header_addr
	.long PHYS(_image_start)     # load_addr
	.long PHYS(_edata)           # load_end_addr
	.long PHYS(_end)             # bss_end_addr (the boot stacks included)
	.long PHYS(entry32)          # entry_addr

.code32
.global entry32
entry32:
	cli
	movl %ebx, PHYS(multiboot_info)
	xorl %edi, %edi              # cpu 0
	jmp start32

# From the trampoline: protected mode, flat segments, paging off.
ap_start32:
	movl PHYS(ap_cpu_id), %edi

# edi = cpu number. Switch on long mode (SDM vol. 3 9.8.5): PAE, the page
# table, EFER.LME, then paging; the far jump enters 64-bit code.
start32:
	movl $0x80000001, %eax       # does the CPU have NX (EDX bit 20)?
	cpuid
	xorl %esi, %esi
	btl $20, %edx
	jnc 1f
	movl $EFER_NXE, %esi
1:	movl %cr4, %eax
	orl $(1 << 5), %eax          # PAE
	movl %eax, %cr4
	movl $PHYS(boot_pml4), %eax
	movl %eax, %cr3
	movl $MSR_EFER, %ecx
	rdmsr
	orl $(EFER_LME | EFER_SCE), %eax
	orl %esi, %eax
	wrmsr
	movl %cr0, %eax
	orl $0x80010005, %eax        # PG, WP, EM (no FPU: x87/SSE trap), PE
	movl %eax, %cr0
	lgdt PHYS(boot_gdt_desc)
	ljmp $KERNEL_CS, $PHYS(start64)

.code64
start64:
	movabsq $start64_high, %rax  # still on the identity map: go high
	jmp *%rax
start64_high:
	lgdt boot_gdt_desc64(%rip)   # the high copy survives the identity map
	movw $KERNEL_DS, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorl %eax, %eax
	movw %ax, %fs
	movw %ax, %gs                # zeroes the GS base: set it after this
	movl %edi, %edi
	leaq boot_stacks(%rip), %rsp # this CPU's boot stack
	movq %rdi, %rax
	incq %rax
	imulq $KSTACK_SIZE, %rax
	addq %rax, %rsp
	imulq $X86_CPU_SIZE, %rdi, %rax   # GS base: this CPU's struct x86_cpu
	leaq x86_cpus(%rip), %rdx
	addq %rdx, %rax
	movq %rax, %rdx
	shrq $32, %rdx
	movl $MSR_GS_BASE, %ecx
	wrmsr
	movl %esi, x86_nx_enabled(%rip)
	movl $1, ap_started(%rip)    # tell smp.c this CPU made it
	xorl %ebp, %ebp              # backtraces end here
	call start_kernel            # rdi = cpu; never returns
1:	hlt
	jmp 1b

# The AP trampoline, copied to TRAMPOLINE (physical): a CPU woken by a
# SIPI starts here in real mode at TRAMPOLINE:0000. It loads the boot GDT,
# enters protected mode and jumps to ap_start32 in the kernel image.
.code16
.global trampoline_start, trampoline_end
trampoline_start:
	cli
	cld
	xorw %ax, %ax
	movw %ax, %ds
	lgdtl TRAMP(tramp_gdt_desc)
	movl %cr0, %eax
	orl $1, %eax
	movl %eax, %cr0
	ljmpl $BOOT_CS32, $TRAMP(tramp32)
.code32
tramp32:
	movw $KERNEL_DS, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movl $PHYS(ap_start32), %eax
	jmp *%eax
.balign 8
tramp_gdt_desc:
	.word boot_gdt_end - boot_gdt - 1
	.long PHYS(boot_gdt)
trampoline_end:
.code64

.section .rodata
# The boot GDT: null, 64-bit kernel code, kernel data, 32-bit code (for the
# trampoline). cpu.c gives each CPU its own GDT with the user segments and
# a TSS; the kernel selectors stay the same.
.balign 16
boot_gdt:
	.quad 0
	.quad 0x00AF9A000000FFFF     # KERNEL_CS: 64-bit, DPL 0
	.quad 0x00CF92000000FFFF     # KERNEL_DS
	.quad 0x00CF9A000000FFFF     # BOOT_CS32: 32-bit, for the trampoline
boot_gdt_end:
boot_gdt_desc:
	.word boot_gdt_end - boot_gdt - 1
	.long PHYS(boot_gdt)
.balign 8
boot_gdt_desc64:
	.word boot_gdt_end - boot_gdt - 1
	.quad boot_gdt

.section .data
.balign 8
.global multiboot_info, ap_cpu_id, ap_started, x86_nx_enabled
multiboot_info: .long 0       # physical address from ebx (in .data: bss is cleared later)
ap_cpu_id:      .long 0       # smp.c: the number of the CPU being started
ap_started:     .long 0       # set by each CPU once it runs at its high address
x86_nx_enabled: .long 0       # EFER.NXE is on: PTE_NX may be used

# The boot page table, kept as the kernel's own (arch_kernel_pgd): slot 0
# maps physical 0..1 GiB at 0 (needed while paging turns on, and by every
# AP coming up); slot 511 holds the linear map (PAGE_OFFSET: 0..1 GiB) and
# the device window (IO_VIRT_BASE: 3..4 GiB, uncached). 2 MiB pages: the
# default QEMU CPU has no 1 GiB pages.
.balign 4096
.global boot_pml4
boot_pml4:
	.quad PHYS(boot_pdpt_low) + 3      # present, writable
	.fill 510, 8, 0
	.quad PHYS(boot_pdpt_high) + 3
boot_pdpt_low:
	.quad PHYS(boot_pd_ram) + 3
	.fill 511, 8, 0
boot_pdpt_high:
	.fill 509, 8, 0
	.quad PHYS(boot_pd_io) + 3         # IO_VIRT_BASE
	.quad PHYS(boot_pd_ram) + 3        # PAGE_OFFSET
	.quad 0
boot_pd_ram:
	.set i, 0
	.rept 512
	.quad (i << 21) | 0x83             # present, writable, 2 MiB
	.set i, i + 1
	.endr
boot_pd_io:
	.set i, 0
	.rept 512
	.quad (IO_PHYS_BASE + (i << 21)) | 0x9B   # ... and PWT, PCD: uncached
	.set i, i + 1
	.endr

.section .boot_stack, "aw", @nobits
.balign 16
.global boot_stacks
boot_stacks:
	.space KSTACK_SIZE * NCPU
