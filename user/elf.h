// ELF64 as the linker writes it: the parts that mgdb and ptracetests read
// from a program file (symbols, the executable segment). Include after
// user.h.
#ifndef TASKLAB_ELF_H
#define TASKLAB_ELF_H

struct elf_ehdr {
  uchar ident[16];
  ushort type, machine;
  uint version;
  ulong entry, phoff, shoff;
  uint flags;
  ushort ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct elf_phdr {
  uint type, flags;
  ulong offset, vaddr, paddr, filesz, memsz, align;
};
struct elf_shdr {
  uint name, type;
  ulong flags, addr, offset, size;
  uint link, info;
  ulong addralign, entsize;
};
struct elf_sym {
  uint name;
  uchar info, other;
  ushort shndx;
  ulong value, size;
};

#define PT_LOAD       1         // elf_phdr.type: a segment to map
#define PF_X          0x1       // elf_phdr.flags: executable
#define SHT_SYMTAB    2         // elf_shdr.type: the symbol table
#define SHF_ALLOC     0x2       // elf_shdr.flags: in memory at run time
#define SHF_EXECINSTR 0x4       // elf_shdr.flags: code

#endif
