// ELF64 as the linker writes it, shared by the kernel (exec) and the user
// programs that read program files (mgdb and ptracetests: symbols, the
// text segment). Uses only u8/u16/u32/u64, which both sides define.
#ifndef TASKLAB_ELF_H
#define TASKLAB_ELF_H

#define ELF_MAGIC "\177ELF"    // ident[0..3]
#define ELFCLASS64  2          // ident[4]
#define ELFDATA2LSB 1          // ident[5]: little endian

struct elf64_hdr {
  u8 ident[16];
  u16 type, machine;
  u32 version;
  u64 entry, phoff, shoff;
  u32 flags;
  u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
  u32 type, flags;
  u64 offset, vaddr, paddr, filesz, memsz, align;
};

struct elf64_shdr {
  u32 name, type;
  u64 flags, addr, offset, size;
  u32 link, info;
  u64 addralign, entsize;
};

struct elf64_sym {
  u32 name;
  u8 info, other;
  u16 shndx;
  u64 value, size;
};

#define PT_LOAD       1        // elf64_phdr.type: a segment to map
#define PF_X          0x1      // elf64_phdr.flags: executable
#define PF_W          0x2      //   writable
#define PF_R          0x4      //   readable
#define SHT_SYMTAB    2        // elf64_shdr.type: the symbol table
#define SHF_ALLOC     0x2      // elf64_shdr.flags: in memory at run time
#define SHF_EXECINSTR 0x4      //   code

#endif
