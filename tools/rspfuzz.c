// rspfuzz PORT SEED ROUNDS: a fuzz test of gdbserver's packet parser, run
// from the host against the gdbserver in the guest (make check's gdb
// suite). It connects to QEMU's end of /ttyS1 (127.0.0.1:PORT) and sends,
// ROUNDS times, one of: garbage bytes; a packet with a wrong checksum
// (gdbserver must NAK it); a packet longer than PacketSize (acked, answered
// as unsupported); half a packet cut by a new one (gdbserver must take the
// new one); a random request with random or boundary arguments (memory
// far outside the program, huge lengths, bad hex, register numbers past
// the end, malformed vCont, H, Z, qXfer). Requests that would change the
// program (resume it, write its memory or registers, detach, kill) are
// sent only in malformed shapes. After every round a '?' must get a
// well-formed stop reply. Then the client vanishes in the middle of a
// packet and comes back: '?' must still work. Every check prints one line;
// the run closes with "N passed, N failed". Seeded: the same SEED sends
// the same bytes.
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "loopback.h"

#define REPLY_SECS 60     // a busy host slows QEMU: this long with no reply is a hang
#define MAXPKT 8192

static int sock, port, passed, failed;
static unsigned long rng;

static unsigned long rnd(void)
{
  rng = rng * 6364136223846793005UL + 1442695040888963407UL;
  return rng >> 33;
}

static void check(const char *what, int ok, const char *detail)
{
  if (ok) {
    printf("PASS rspfuzz: %s\n", what);
    passed++;
  } else {
    printf("FAIL rspfuzz: %s: %s\n", what, detail);
    failed++;
  }
}

// The next byte from gdbserver, or -1 after REPLY_SECS of silence.
static int getbyte(void)
{
  struct pollfd p = { .fd = sock, .events = POLLIN };
  unsigned char c;
  if (poll(&p, 1, REPLY_SECS * 1000) <= 0 || read(sock, &c, 1) != 1)
    return -1;
  return c;
}

static void send_raw(const char *p, long n)
{
  while (n > 0) {
    long w = write(sock, p, n);
    if (w <= 0)
      return;
    p += w;
    n -= w;
  }
}

// Send data framed, with a right checksum or (bad) a wrong one.
static void send_packet(const char *data, long n, int bad)
{
  static char out[MAXPKT + 8];
  unsigned sum = 0;
  out[0] = '$';
  memcpy(out + 1, data, n);
  for (long i = 0; i < n; i++)
    sum += (unsigned char)data[i];
  snprintf(out + 1 + n, 4, "#%02x", (sum + (bad ? 1 : 0)) & 0xff);
  send_raw(out, n + 4);
}

// Wait for gdbserver's ack: '+' (1), '-' (0), or nothing (-1).
static int get_ack(void)
{
  int c;
  while ((c = getbyte()) >= 0 && c != '+' && c != '-')
    ;
  return c < 0 ? -1 : c == '+';
}

// Read one reply packet into buf and ack it. Returns its length, or -1
// (silence, or a reply whose checksum is wrong: reported in buf).
static int get_reply(char *buf, int size)
{
  int c, n = 0;
  unsigned sum = 0;
  while ((c = getbyte()) >= 0 && c != '$')
    ;
  if (c < 0) {
    snprintf(buf, size, "no reply in %d s", REPLY_SECS);
    return -1;
  }
  while ((c = getbyte()) >= 0 && c != '#') {
    sum += c;
    if (n < size - 1)
      buf[n++] = c;
  }
  buf[n] = 0;
  int h1 = getbyte(), h2 = getbyte();
  char hex[3] = { (char)h1, (char)h2, 0 };
  if (c < 0 || h2 < 0 || strtoul(hex, 0, 16) != (sum & 0xff)) {
    snprintf(buf, size, "a reply with a bad or missing checksum");
    return -1;
  }
  send_raw("+", 1);
  return n;
}

// Send a request and read its reply (into buf). Returns the reply's
// length or -1.
static int request(const char *data, char *buf, int size)
{
  send_packet(data, strlen(data), 0);
  if (get_ack() != 1) {
    snprintf(buf, size, "no '+' for \"%.40s\"", data);
    return -1;
  }
  return get_reply(buf, size);
}

// '?' gets a stop reply: "T" + two hex digits + "thread:...".
static int stop_reply_ok(char *why, int size)
{
  char r[512];
  if (request("?", r, sizeof r) < 0) {
    snprintf(why, size, "'?': %.200s", r);
    return 0;
  }
  if (r[0] != 'T' || !strstr(r, "thread:")) {
    snprintf(why, size, "'?' got \"%.60s\"", r);
    return 0;
  }
  return 1;
}

// A random request from those that cannot change the program, with
// random or boundary arguments, into out.
static void random_request(char *out, int size)
{
  static const char *addrs[] = { "0", "ffffffffffffffff", "40000000", "80000000", "fffffffffffff000",
                                 "1", "10000000000000000", "zz", "" };
  static const char *lens[] = { "0", "1", "8", "7ff", "800", "ffffffff", "10000000000", "-1", "" };
  const char *a = addrs[rnd() % 9], *l = lens[rnd() % 9];
  int kind_default = 0;
  switch (rnd() % 16) {
  case 0: snprintf(out, size, "m%s,%s", a, l); break;
  case 1: snprintf(out, size, "M40000000,%s:%s", l, rnd() % 2 ? "zz" : "00112233"); break;
  case 2: snprintf(out, size, "M%s,4:0011", a); break;   // too short: refused
  case 3: snprintf(out, size, "p%lx", rnd() % 2 ? rnd() % 200 : rnd()); break;
  case 4: snprintf(out, size, "P%lx=zz", rnd() % 100); break;
  case 5: snprintf(out, size, "G%s", rnd() % 2 ? "00" : "zz"); break;
  case 6: snprintf(out, size, "Z%lu,%s,%s", rnd() % 6, a, l); break;
  case 7: snprintf(out, size, "z0,%s,%s", a, l); break;
  case 8: snprintf(out, size, "H%c%s", "gcx"[rnd() % 3], rnd() % 2 ? "-2" : "7fffffff"); break;
  case 9: snprintf(out, size, "vCont;%s", rnd() % 2 ? "x" : "c:zz"); break;
  case 10: snprintf(out, size, "qXfer:features:read:target.xml:%s,%s", a, l); break;
  case 11: snprintf(out, size, "qXfer:threads:read::%s,%s", a, l); break;
  case 12: snprintf(out, size, "T%s", a); break;
  case 13: snprintf(out, size, "vAttach;%s", a); break;
  case 14: snprintf(out, size, "q%s", rnd() % 2 ? "Supported:xmlRegisters=i386" : "Unknown"); break;
  default: snprintf(out, size, "%c%s", (char)(33 + rnd() % 90), a); kind_default = 1; break;
  }
  // Never a resume, a detach or a kill in a well-formed shape.
  if ((strchr("cCsSDkGMP", out[0]) && kind_default) || strchr("cCsSDk", out[0]) || !strncmp(out, "vKill", 5) || !strncmp(out, "vCont;c", 7) ||
      !strncmp(out, "vCont;s", 7) || !strncmp(out, "vCont;C", 7) || !strncmp(out, "vCont;S", 7) ||
      !strncmp(out, "vCont;t", 7))
    snprintf(out, size, "X%s", a);
}

// One round of bad input. Returns 0, or -1 with why set.
static int round_once(char *why, int size)
{
  static char big[MAXPKT];
  char req[256], r[MAXPKT];
  int kind = rnd() % 5, n;
  switch (kind) {
  case 0:   // garbage outside a packet (never '$' or Ctrl-C)
    n = 1 + rnd() % 64;
    for (int i = 0; i < n; i++) {
      big[i] = (char)(rnd() % 256);
      if (big[i] == '$' || big[i] == 3)
        big[i] = '#';
    }
    send_raw(big, n);
    return 0;
  case 1:   // a wrong checksum: NAK
    send_packet("?", 1, 1);
    if (get_ack() != 0) {
      snprintf(why, size, "no '-' for a packet with a wrong checksum");
      return -1;
    }
    return 0;
  case 2:   // longer than PacketSize: acked, answered empty
    n = 4097 + rnd() % 3000;
    memset(big, 'm', n);
    send_packet(big, n, 0);
    if (get_ack() != 1 || get_reply(r, sizeof r) != 0) {
      snprintf(why, size, "a %d-byte packet did not get '+' and the empty reply", n);
      return -1;
    }
    return 0;
  case 3:   // half a packet, then a new one: the new one counts
    send_raw("$m0,4", 5);
    return 0;
  default:
    random_request(req, sizeof req);
    if (request(req, r, sizeof r) < 0) {
      snprintf(why, size, "\"%.60s\": %.120s", req, r);
      return -1;
    }
    return 0;
  }
}

int main(int argc, char **argv)
{
  if (argc != 4 || atoi(argv[1]) <= 0 || atol(argv[3]) <= 0) {
    fprintf(stderr, "usage: rspfuzz PORT SEED ROUNDS\n");
    return 2;
  }
  port = atoi(argv[1]);
  rng = strtoul(argv[2], 0, 0);
  long rounds = atol(argv[3]), bad = 0;
  char why[256] = "", first[256] = "";
  printf("rspfuzz: seed %s, %ld rounds (replay: rspfuzz PORT %s %ld)\n", argv[2], rounds, argv[2], rounds);
  if ((sock = loopback_connect(port, 60)) < 0) {
    check("connect", 0, strerror(errno));
    goto out;
  }
  send_raw("+", 1);
  check("a stop reply to '?' before the fuzz", stop_reply_ok(why, sizeof why), why);
  for (long i = 0; i < rounds; i++)
    if (round_once(why, sizeof why) < 0 || !stop_reply_ok(why, sizeof why)) {
      if (!bad++)
        snprintf(first, sizeof first, "round %ld: %s", i, why);
      if (bad > 3)
        break;   // gdbserver is gone: no use going on
    }
  snprintf(why, sizeof why, "%ld rounds failed, the first %s", bad, first);
  check("every bad packet answered as the protocol says, and '?' after each", bad == 0, why);
  // The client vanishes in the middle of a packet, and comes back.
  send_raw("$m1000,", 7);
  close(sock);
  if ((sock = loopback_connect(port, 60)) < 0) {
    check("reconnect", 0, strerror(errno));
    goto out;
  }
  check("after a client vanished mid-packet, a new one is answered", stop_reply_ok(why, sizeof why), why);
  char r[512];
  int n = request("D", r, sizeof r);
  check("detach", n == 2 && !strcmp(r, "OK"), n < 0 ? r : "the reply was not OK");
  close(sock);
out:
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
