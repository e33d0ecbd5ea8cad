// mgdb's symbols: the ELF symbol table of the program, to name the
// functions that addresses fall in (user/mgdb/mgdb.h).

#include "user.h"
#include "kernel/elf.h"
#include "mgdb.h"

static struct sym *syms;        // sorted by address
static int nsyms;
static ulong text_end;          // where the executable sections end

// Read size bytes at offset off of fd into a new buffer; NULL on failure.
static void *
read_at(int fd, ulong off, ulong size)
{
  char *p = malloc(size ? size : 1);
  long n, done = 0;

  if (!p || lseek(fd, off, SEEK_SET) != (long)off) {
    free(p);
    return NULL;
  }
  while (done < (long)size && (n = read(fd, p + done, size - done)) > 0)
    done += n;
  if (done != (long)size) {
    free(p);
    return NULL;
  }
  return p;
}

// Keep the named function and object symbols of the symbol table.
static void
take_symbols(struct elf64_shdr *sh, int nsh, struct elf64_sym *es, int nes, char *str, ulong strsize)
{
  syms = malloc(nes * sizeof *syms);
  for (int i = 0; syms && i < nes; i++) {
    int type = es[i].info & 0xf;
    if (es[i].shndx == 0 || es[i].shndx >= nsh || es[i].name >= strsize || type > 2)
      continue;
    const char *name = str + es[i].name;
    if (!name[0] || name[0] == '.' || name[0] == '$' || !(sh[es[i].shndx].flags & SHF_ALLOC))
      continue;
    struct sym s = { es[i].value, es[i].size, name, (sh[es[i].shndx].flags & SHF_EXECINSTR) != 0 };
    int j = nsyms++;
    for (; j > 0 && syms[j - 1].addr > s.addr; j--)
      syms[j] = syms[j - 1];
    syms[j] = s;
  }
}

// Load the symbols of ELF file path. Returns 0 or -1.
int
load_symbols(const char *path)
{
  struct elf64_hdr eh;
  struct elf64_shdr *sh = NULL, *st = NULL;
  void *tab = NULL;
  char *str = NULL;
  int fd;

  fd = open(path, O_RDONLY);
  if (fd < 0)
    return -1;
  if (read(fd, &eh, sizeof eh) == sizeof eh && memcmp(eh.ident, "\177ELF", 4) == 0 &&
      eh.shentsize == sizeof(struct elf64_shdr) &&
      (sh = read_at(fd, eh.shoff, (ulong)eh.shnum * sizeof *sh))) {
    for (int i = 0; i < eh.shnum; i++) {
      if ((sh[i].flags & SHF_EXECINSTR) && sh[i].addr + sh[i].size > text_end)
        text_end = sh[i].addr + sh[i].size;
      if (sh[i].type == SHT_SYMTAB && sh[i].link < eh.shnum && !st)
        st = &sh[i];
    }
    if (st && (tab = read_at(fd, st->offset, st->size)) &&
        (str = read_at(fd, sh[st->link].offset, sh[st->link].size)))
      take_symbols(sh, eh.shnum, tab, st->size / sizeof(struct elf64_sym), str, sh[st->link].size);
  }
  free(sh);
  free(tab);            // the names stay: syms point into str
  if (nsyms == 0)
    free(str);
  close(fd);
  return nsyms > 0 ? 0 : -1;
}

// The symbol holding addr, a code symbol if text is set (else any), or
// NULL. A symbol without a size (the assembly stubs) ends where the next
// one of its kind begins, or at the end of the code.
static struct sym *
sym_lookup(ulong addr, int text)
{
  struct sym *best = NULL;

  for (int i = 0; i < nsyms && syms[i].addr <= addr; i++)
    if (syms[i].text || !text)
      best = &syms[i];
  if (!best)
    return NULL;
  if (best->size)
    return addr < best->addr + best->size ? best : NULL;
  for (struct sym *n = best + 1; n < syms + nsyms; n++)
    if ((n->text || !text) && n->addr > best->addr)
      return addr < n->addr ? best : NULL;
  return best->text && addr < text_end ? best : NULL;
}

// The code symbol holding addr, or NULL.
struct sym *
sym_at(ulong addr)
{
  return sym_lookup(addr, 1);
}

// Print " <sym+off>" (GDB's "<sym>" at offset 0) if addr lies in a symbol.
void
print_sym(ulong addr)
{
  struct sym *s = sym_lookup(addr, 0);

  if (s && addr > s->addr)
    printf(" <%s+%lu>", s->name, addr - s->addr);
  else if (s)
    printf(" <%s>", s->name);
}

// The name of the function holding addr, or "??".
const char *
func_name(ulong addr)
{
  struct sym *s = sym_at(addr);

  return s ? s->name : "??";
}

// The symbol called name, or NULL.
struct sym *
sym_named(const char *name)
{
  for (int i = 0; i < nsyms; i++)
    if (strcmp(syms[i].name, name) == 0)
      return &syms[i];
  return NULL;
}
