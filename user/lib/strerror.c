// strerror() and errname(): Linux's names and messages for errnos.

#include "user.h"

// One errno: its symbol and glibc's message for it.
struct errinfo {
  const char *name;
  const char *msg;
};

// Indexed by errno; the numbers Linux assigns (1..40), including
// those kernel/errno.h does not define yet, so messages never go stale.
static const struct errinfo errtab[] = {
  [0]  = { "0",            "Success" },
  [1]  = { "EPERM",        "Operation not permitted" },
  [2]  = { "ENOENT",       "No such file or directory" },
  [3]  = { "ESRCH",        "No such process" },
  [4]  = { "EINTR",        "Interrupted system call" },
  [5]  = { "EIO",          "Input/output error" },
  [6]  = { "ENXIO",        "No such device or address" },
  [7]  = { "E2BIG",        "Argument list too long" },
  [8]  = { "ENOEXEC",      "Exec format error" },
  [9]  = { "EBADF",        "Bad file descriptor" },
  [10] = { "ECHILD",       "No child processes" },
  [11] = { "EAGAIN",       "Resource temporarily unavailable" },
  [12] = { "ENOMEM",       "Cannot allocate memory" },
  [13] = { "EACCES",       "Permission denied" },
  [14] = { "EFAULT",       "Bad address" },
  [15] = { "ENOTBLK",      "Block device required" },
  [16] = { "EBUSY",        "Device or resource busy" },
  [17] = { "EEXIST",       "File exists" },
  [18] = { "EXDEV",        "Invalid cross-device link" },
  [19] = { "ENODEV",       "No such device" },
  [20] = { "ENOTDIR",      "Not a directory" },
  [21] = { "EISDIR",       "Is a directory" },
  [22] = { "EINVAL",       "Invalid argument" },
  [23] = { "ENFILE",       "Too many open files in system" },
  [24] = { "EMFILE",       "Too many open files" },
  [25] = { "ENOTTY",       "Inappropriate ioctl for device" },
  [26] = { "ETXTBSY",      "Text file busy" },
  [27] = { "EFBIG",        "File too large" },
  [28] = { "ENOSPC",       "No space left on device" },
  [29] = { "ESPIPE",       "Illegal seek" },
  [30] = { "EROFS",        "Read-only file system" },
  [31] = { "EMLINK",       "Too many links" },
  [32] = { "EPIPE",        "Broken pipe" },
  [33] = { "EDOM",         "Numerical argument out of domain" },
  [34] = { "ERANGE",       "Numerical result out of range" },
  [35] = { "EDEADLK",      "Resource deadlock avoided" },
  [36] = { "ENAMETOOLONG", "File name too long" },
  [37] = { "ENOLCK",       "No locks available" },
  [38] = { "ENOSYS",       "Function not implemented" },
  [39] = { "ENOTEMPTY",    "Directory not empty" },
  [40] = { "ELOOP",        "Too many levels of symbolic links" },
};

#define NERRTAB (sizeof errtab / sizeof errtab[0])

// Return the size of err, which may be given as errno or -errno.
static unsigned
errnum(int err)
{
  return err < 0 ? -(unsigned)err : (unsigned)err;
}

// Return the table entry for err (either sign), or NULL if unknown.
static const struct errinfo *
lookup(int err)
{
  unsigned n = errnum(err);

  return n < NERRTAB ? &errtab[n] : NULL;
}

// Return the message for err, positive or negative, e.g. "No such
// process" for ESRCH; "Unknown error N" (in a static buffer, so valid
// until the next unknown code) for codes it does not know.
const char *
strerror(int err)
{
  static char unknown[32];
  const struct errinfo *e = lookup(err);

  if (e)
    return e->msg;
  snprintf(unknown, sizeof unknown, "Unknown error %u", errnum(err));
  return unknown;
}

// Return the symbol for err, positive or negative, e.g. "ESRCH";
// for unknown codes, "E" and the number in a static buffer ("E200").
const char *
errname(int err)
{
  static char unknown[32];
  const struct errinfo *e = lookup(err);

  if (e)
    return e->name;
  snprintf(unknown, sizeof unknown, "E%u", errnum(err));
  return unknown;
}
