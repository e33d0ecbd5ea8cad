// gdbserver: the requests of GDB's remote protocol, one function each
// (GDB's gdbserver/server.cc). An unknown request gets the empty reply,
// which the protocol defines as "not supported"; a malformed one gets
// E01. Thread ids are tids in hex (no multiprocess extension); signals
// go over the wire in GDB's own numbering (gdb/signals.def).

#include "gdbserver.h"

int extended_protocol, server_done;

static char own_buf[PBUFSIZ];
static char reply[2 * PBUFSIZ];
static struct event last;       // the last stop or exit, for '?'
static int general_tid;         // Hg: the thread g, m, ... act on

// GDB's signal numbers for Linux's 0..31 (SIGSTKFLT has none: unknown).
static const uchar gdb_signals[32] = {
  0, 1, 2, 3, 4, 5, 6, 10, 8, 9, 30, 11, 31, 13, 14, 15,
  143, 20, 19, 17, 18, 21, 22, 16, 24, 25, 26, 27, 28, 23, 32, 12,
};

static int
to_gdb_signal(int sig)
{
  return sig > 0 && sig < 32 ? gdb_signals[sig] : 143;
}

static int
from_gdb_signal(int g)
{
  for (int s = 1; s < 32; s++)
    if (gdb_signals[s] == g)
      return s;
  return 0;
}

// The thread requests act on: Hg's, else the last to stop, else any.
static struct lwp *
current_lwp(void)
{
  struct lwp *lp = find_lwp(general_tid);

  if (!lp)
    lp = find_lwp(last.tid);
  if (!lp && nlwp)
    lp = &lwps[0];
  return lp;
}

// The stop reply for ev: T (a thread stopped), W (exited), X (killed).
static void
stop_reply(const struct event *ev, char *out)
{
  if (ev->kind == EV_STOP)
    snprintf(out, PBUFSIZ, "T%02xthread:%x;%s", to_gdb_signal(ev->sig), ev->tid,
             ev->swbreak ? "swbreak:;" : "");
  else if (ev->kind == EV_SIGNALLED)
    snprintf(out, PBUFSIZ, "X%02x", to_gdb_signal(ev->sig));
  else
    snprintf(out, PBUFSIZ, "W%02x", ev->sig & 0xff);
}

// qXfer reads: the part of text from off, at most len bytes: "m..." if
// more follows, "l..." if this is the end.
static void
xfer_reply(const char *text, const char *args)
{
  ulong off, len, total = strlen(text);
  const char *p = args;

  if (!unpack_hex(&p, &off) || *p++ != ',' || !unpack_hex(&p, &len)) {
    putpkt("E01");
    return;
  }
  if (off >= total) {
    putpkt("l");
    return;
  }
  if (len > PBUFSIZ - 2)
    len = PBUFSIZ - 2;
  if (len > total - off)
    len = total - off;
  reply[0] = off + len < total ? 'm' : 'l';
  memcpy(reply + 1, text + off, len);
  putpkt_bin(reply, len + 1);
}

// The threads as qXfer:threads:read lists them, with their names.
static const char *
threads_xml(void)
{
  static char xml[MAXLWP * 64 + 64];
  char name[32];
  int n = snprintf(xml, sizeof xml, "<?xml version=\"1.0\"?>\n<threads>\n");

  for (int i = 0; i < nlwp; i++) {
    if (thread_name(lwps[i].tid, name, sizeof name) < 0)
      name[0] = 0;
    n += snprintf(xml + n, sizeof xml - n, "<thread id=\"%x\" name=\"%s\"/>\n", lwps[i].tid, name);
  }
  snprintf(xml + n, sizeof xml - n, "</threads>\n");
  return xml;
}

static void
handle_query(char *p)
{
  static int thread_index;

  if (!strncmp(p, "qSupported", 10)) {
    snprintf(reply, PBUFSIZ, "PacketSize=%x;qXfer:features:read+;qXfer:threads:read+;"
             "swbreak+;vContSupported+", PBUFSIZ);
    putpkt(reply);
  } else if (!strncmp(p, "qXfer:features:read:target.xml:", 31)) {
    xfer_reply(target_xml(), p + 31);
  } else if (!strncmp(p, "qXfer:threads:read::", 20)) {
    xfer_reply(threads_xml(), p + 20);
  } else if (!strcmp(p, "qAttached")) {
    putpkt(inferior_attached ? "1" : "0");
  } else if (!strcmp(p, "qC")) {
    snprintf(reply, PBUFSIZ, "QC%x", current_lwp() ? current_lwp()->tid : 0);
    putpkt(current_lwp() ? reply : "");
  } else if (!strcmp(p, "qfThreadInfo") || !strcmp(p, "qsThreadInfo")) {
    if (p[1] == 'f')
      thread_index = 0;
    if (thread_index < nlwp) {
      snprintf(reply, PBUFSIZ, "m%x", lwps[thread_index++].tid);
      putpkt(reply);
    } else {
      putpkt("l");
    }
  } else if (!strncmp(p, "qSymbol:", 8)) {
    putpkt("OK");
  } else {
    putpkt("");
  }
}

// g: all registers of the current thread.
static void
handle_g(void)
{
  struct user_regs r;
  struct lwp *lp = current_lwp();

  if (!lp || lwp_regs(lp, &r) < 0) {
    putpkt("E01");
    return;
  }
  regs_to_hex(&r, reply);
  putpkt(reply);
}

// G, p, P: write all registers, read one, write one.
static void
handle_regs(char *p)
{
  struct user_regs r;
  struct lwp *lp = current_lwp();
  const char *q = p + 1;
  ulong n;

  if (!lp || lwp_regs(lp, &r) < 0) {
    putpkt("E01");
    return;
  }
  if (*p == 'G') {
    putpkt(hex_to_regs(p + 1, &r) == 0 && lwp_set_regs(lp, &r) == 0 ? "OK" : "E01");
  } else if (!unpack_hex(&q, &n)) {
    putpkt("E01");
  } else if (*p == 'p') {
    putpkt(reg_to_hex(&r, n, reply) < 0 ? "E01" : reply);
  } else {
    putpkt(*q == '=' && hex_to_reg(&r, n, q + 1) == 0 && lwp_set_regs(lp, &r) == 0 ? "OK" : "E01");
  }
}

// m addr,len and M addr,len:hex.
static void
handle_memory(char *p)
{
  static uchar buf[PBUFSIZ / 2];
  const char *q = p + 1;
  ulong addr, len;
  int n;

  if (!unpack_hex(&q, &addr) || *q++ != ',' || !unpack_hex(&q, &len) ||
      (*p == 'M' && *q++ != ':') || (*p == 'm' && *q)) {
    putpkt("E01");
    return;
  }
  if (len > sizeof buf - 1)
    len = *p == 'm' ? sizeof buf - 1 : 0;   // a shorter read is allowed; a write is not
  if (*p == 'm') {
    n = read_inferior_memory(addr, buf, len);
    if (n == 0 && len > 0) {
      putpkt("E01");
      return;
    }
    bin2hex(buf, reply, n);
    putpkt(reply);
  } else if (len == 0 || strlen(q) != 2 * len || hex2bin(q, buf, len) < 0) {
    putpkt(len == 0 && !*q ? "OK" : "E01");
  } else {
    putpkt(write_inferior_memory(addr, buf, len) == 0 ? "OK" : "E01");
  }
}

// Z0,addr,kind / z0,addr,kind: software breakpoints; other kinds of
// breakpoint and watchpoint are not supported.
static void
handle_breakpoint(char *p)
{
  const char *q = p + 3;
  ulong addr, kind;

  if (p[1] != '0') {
    putpkt("");
    return;
  }
  if (p[2] != ',' || !unpack_hex(&q, &addr) || *q++ != ',' || !unpack_hex(&q, &kind)) {
    putpkt("E01");
    return;
  }
  if (*p == 'Z')
    putpkt(insert_breakpoint(addr, kind) == 0 ? "OK" : "E01");
  else
    putpkt(remove_breakpoint(addr, kind) == 0 ? "OK" : "E01");
}

// Resume as the vCont actions say, wait for the next event, report it.
// Actions: c, Csig, s, Ssig, t, each for one thread (":tid") or all; the
// leftmost action that names a thread is its action.
static void
handle_vcont(char *p)
{
  char act[MAXLWP];
  int sigs[MAXLWP], any = 0;

  memset(act, 0, sizeof act);
  while (*p == ';') {
    char a = *++p;
    ulong v = 0, tid = 0;
    int all = 1;
    const char *q = p + 1;
    if ((a == 'C' || a == 'S') && !unpack_hex(&q, &v))
      goto bad;
    if (*q == ':') {
      q++;
      if (!strncmp(q, "-1", 2)) {
        q += 2;
      } else if (unpack_hex(&q, &tid)) {
        all = 0;
      } else {
        goto bad;
      }
    }
    if (a != 'c' && a != 'C' && a != 's' && a != 'S' && a != 't')
      goto bad;
    if ((a == 's' || a == 'S') && !HAVE_SINGLE_STEP)
      goto bad;
    for (int i = 0; i < nlwp; i++)
      if (!act[i] && (all || lwps[i].tid == (int)tid)) {
        act[i] = a;
        sigs[i] = from_gdb_signal(v);
      }
    p = (char *)q;
  }
  if (*p)
    goto bad;
  for (int i = 0; i < nlwp; i++)
    if (act[i] && act[i] != 't') {
      resume_lwp(&lwps[i], act[i] == 's' || act[i] == 'S', sigs[i]);
      any = 1;
    }
  if (!any) {
    putpkt("E01");
    return;
  }
  inferior_running = 1;
  wait_for_event(&last);
  stop_reply(&last, reply);
  putpkt(reply);
  if (last.kind != EV_STOP && !extended_protocol)
    server_done = 1;
  return;
bad:
  putpkt("E01");
}

// vAttach;pid (extended-remote's attach).
static void
handle_vattach(char *p)
{
  const char *q = p;
  ulong pid;
  int r;

  if (inferior_pid || !unpack_hex(&q, &pid) || *q) {
    putpkt("E01");
    return;
  }
  if ((r = attach_inferior(pid)) < 0) {
    snprintf(reply, PBUFSIZ, "E%02x", -r & 0xff);
    putpkt(reply);
    return;
  }
  last.kind = EV_STOP;
  last.tid = pid;
  last.sig = SIGSTOP;
  last.swbreak = 0;
  stop_reply(&last, reply);
  putpkt(reply);
}

static void
handle_v(char *p)
{
  if (!strcmp(p, "vCont?")) {
    putpkt(HAVE_SINGLE_STEP ? "vCont;c;C;s;S;t" : "vCont;c;C;t");
  } else if (!strncmp(p, "vCont;", 6) && inferior_pid) {
    handle_vcont(p + 5);
  } else if (!strncmp(p, "vAttach;", 8) && extended_protocol) {
    handle_vattach(p + 8);
  } else if (!strncmp(p, "vKill;", 6) && inferior_pid) {
    kill_inferior();
    putpkt("OK");
  } else {
    putpkt("");   // vMustReplyEmpty, vRun, vFile...: not supported
  }
}

// One request.
static void
handle_packet(char *p)
{
  switch (*p) {
  case '?':
    if (inferior_pid)
      stop_reply(&last, reply);
    else
      snprintf(reply, PBUFSIZ, "W00");
    putpkt(reply);
    break;
  case 'q':
    handle_query(p);
    break;
  case 'H': {
    const char *q = p + 2;
    ulong tid;
    if ((p[1] == 'g' || p[1] == 'c') && (!strcmp(q, "0") || !strcmp(q, "-1") ||
                                         (unpack_hex(&q, &tid) && !*q && find_lwp(tid)))) {
      if (p[1] == 'g')
        general_tid = strcmp(p + 2, "0") && strcmp(p + 2, "-1") ? (int)tid : 0;
      putpkt("OK");
    } else {
      putpkt("E01");
    }
    break;
  }
  case 'T': {
    const char *q = p + 1;
    ulong tid;
    putpkt(unpack_hex(&q, &tid) && !*q && find_lwp(tid) ? "OK" : "E01");
    break;
  }
  case 'g':
    handle_g();
    break;
  case 'G': case 'p': case 'P':
    handle_regs(p);
    break;
  case 'm': case 'M':
    handle_memory(p);
    break;
  case 'Z': case 'z':
    handle_breakpoint(p);
    break;
  case 'v':
    handle_v(p);
    break;
  case 'c': case 's':
    if (!inferior_pid || p[1]) {
      putpkt("E01");
    } else {
      snprintf(reply, PBUFSIZ, ";%c:%x;c", p[0], current_lwp()->tid);
      handle_vcont(p[0] == 'c' ? ";c" : reply);
    }
    break;
  case 'D':
    if (!inferior_pid) {
      putpkt("E01");
      break;
    }
    putpkt("OK");
    detach_inferior();
    if (!extended_protocol)
      server_done = 1;
    break;
  case 'k':
    kill_inferior();
    if (!extended_protocol)
      server_done = 1;
    break;
  case '!':
    putpkt(extended_protocol ? "OK" : "");
    break;
  default:
    putpkt("");
  }
}

// Answer GDB until it is done with us (detach, kill, exit in plain
// remote mode); with --multi (extended-remote) until the line is gone.
// A program started or attached from the command line is reported as
// stopped by SIGTRAP, as gdbserver does: GDB's "target remote" does not
// know that an attach's SIGSTOP is ours, and would pass it on when it
// continues, stopping the whole process (its shell would say Stopped).
void
serve(void)
{
  if (inferior_pid) {
    last.kind = EV_STOP;
    last.tid = inferior_pid;
    last.sig = SIGTRAP;
  }
  while (!server_done) {
    if (getpkt(own_buf) < 0)
      break;
    handle_packet(own_buf);
  }
}
