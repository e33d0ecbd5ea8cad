// threads: a multi-threaded program to look at with ps, top and mgdb.
//
//   threads N [spin]
//
// Starts N threads besides the main one. Each new thread loops forever,
// either sleeping 50 ms per round or, with "spin", spinning without a
// system call (so top shows it near 100% CPU). The main thread always
// sleeps in a loop. Once every thread is running it prints, once,
//
//   threads: pid P ready (1+N threads)
//
// and then runs until it is killed. Every thread counts its rounds in
// progress[] (index 0 is the main thread), so a debugger can see with
// x/Nx that the program moves on after a detach.

#include "user.h"

#define MAXTHREADS 60           // the user thread library's table holds 64
#define ROUND_TICKS 5           // a sleeping round: 50 ms

volatile unsigned long progress[MAXTHREADS + 1];
static volatile int started;    // threads that have begun their loop

// A new thread's body when sleeping: count a round, sleep, again.
static void
sleeper(void *arg)
{
  long i = (long)arg;

  __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
  for (;;) {
    progress[i]++;
    sleep(ROUND_TICKS);
  }
}

// A new thread's body with "spin": count rounds without ever sleeping.
static void
spinner(void *arg)
{
  long i = (long)arg;

  __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
  for (;;)
    progress[i]++;
}

static void
usage(void)
{
  fprintf(STDERR, "usage: threads N [spin]   (0 <= N <= %d)\n", MAXTHREADS);
  exit(2);
}

int
main(int argc, char **argv)
{
  int n, spin = 0, tid;

  if (argc < 2 || argc > 3 || argv[1][0] < '0' || argv[1][0] > '9')
    usage();
  n = atoi(argv[1]);
  if (n > MAXTHREADS)
    usage();
  if (argc == 3) {
    if (strcmp(argv[2], "spin") != 0)
      usage();
    spin = 1;
  }
  for (long i = 1; i <= n; i++) {
    tid = thread_create(spin ? spinner : sleeper, (void *)i);
    if (tid < 0) {
      fprintf(STDERR, "threads: thread_create: %s\n", strerror(tid));
      exit(1);
    }
  }
  while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < n)
    sleep(1);
  printf("threads: pid %d ready (1+%d threads)\n", getpid(), n);
  for (;;) {
    progress[0]++;
    sleep(ROUND_TICKS);
  }
}
