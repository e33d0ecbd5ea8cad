// io_uring: submission and completion rings shared with user space.
//
// io_uring_setup() allocates the rings and maps them into the caller's
// address space (there is no mmap here), returning their addresses and
// Linux's offsets in the params. io_uring_enter() submits SQEs: each is
// tried at once without blocking; one that would block (a pipe with no
// data) or that asks for IOSQE_ASYNC goes to the process's io-wq pool,
// whose workers complete it. With IORING_SETUP_SQPOLL an iou-sqp thread
// submits instead. Every request ends as one CQE; errors are negative res.
#include "task.h"
#include "fs.h"
#include "io_wq.h"
#include "io_uring_abi.h"
#include "procfs.h"
#include "syscall.h"

#define IORING_MAP_BASE USER_MMAP_BASE   // rings are mapped from here up
#define IORING_MAP_STEP 0x100000UL       // one MiB per ring
#define RING_PAGES_MAX  16
#define REQ_PAGES_MAX   16
#define IO_RING_MAX_WQS 8   // processes whose io-wq may hold a ring's work

// Page 0 of the ring memory: both ring headers, then the SQ index array.
struct io_rings_hdr {
  u32 sq_head, sq_tail, sq_ring_mask, sq_ring_entries, sq_flags, sq_dropped;
  u32 cq_head, cq_tail, cq_ring_mask, cq_ring_entries, cq_overflow, cq_flags;
};
#define SQ_ARRAY_OFF 128

struct io_kiocb;

// The kernel side of a ring. User space can write every byte of the
// shared header page, so, as Linux's io_ring_ctx does, the kernel keeps
// its own masks and its own copies of the indices it owns (the SQ head,
// the CQ tail), only ever writes those out, and reads the user's indices
// (the SQ tail, the CQ head) once per use, trusting nothing in them.
struct io_ring_ctx {
  // Set up before the ring is published, then read-only:
  u32 sq_entries, cq_entries;
  u32 sq_mask, cq_mask;
  u32 setup_flags;
  void *pages[RING_PAGES_MAX];
  int npages, cqe_page, sqe_page;   // where CQEs and SQEs start
  u64 user_base;              // where the rings are mapped in mm
  struct mm_struct *mm;       // holds a reference
  void *req_pages[REQ_PAGES_MAX];
  int nreq_pages;
  u64 sq_idle_ticks;

  struct sleeplock submit_lock; // one submitter at a time; guards:
  u32 cached_sq_head;         // the next SQ entry to take
  u32 cached_sq_dropped;      // entries skipped for a bad index

  struct spinlock lock;       // guards:
  u32 cached_cq_tail;         // where the next CQE goes
  struct io_kiocb *free_reqs;
  int inflight;               // requests not yet completed
  struct io_wq *wqs[IO_RING_MAX_WQS];  // pools we queued work in (a ref each)
  int nr_wqs;
  struct task *sq_thread;     // SQPOLL
  bool sq_exit, sq_alive;
};

struct io_kiocb {
  struct io_wq_work work;     // first: io-wq hands this back
  struct io_ring_ctx *ctx;
  struct io_kiocb *next_free;
  u64 user_data;
  u8 opcode, flags;
  struct file *file;
  u64 off, addr;
  u32 len;
};

static struct io_rings_hdr *rings(struct io_ring_ctx *ctx) { return ctx->pages[0]; }

static u32 *sq_array(struct io_ring_ctx *ctx)
{
  return (u32 *)((char *)ctx->pages[0] + SQ_ARRAY_OFF);
}

// The ring's entries, by index (already masked with the kernel's own
// copy of the mask, which keeps it inside the ring's pages).
static struct io_uring_cqe *cqe_at(struct io_ring_ctx *ctx, u32 i)
{
  BUG_ON(i >= ctx->cq_entries);
  u64 off = (u64)i * sizeof(struct io_uring_cqe);
  return (void *)((char *)ctx->pages[ctx->cqe_page + off / PAGE_SIZE] + off % PAGE_SIZE);
}

static struct io_uring_sqe *sqe_at(struct io_ring_ctx *ctx, u32 i)
{
  BUG_ON(i >= ctx->sq_entries);
  u64 off = (u64)i * sizeof(struct io_uring_sqe);
  return (void *)((char *)ctx->pages[ctx->sqe_page + off / PAGE_SIZE] + off % PAGE_SIZE);
}

// ---- completions

// Take a free request, or NULL. Caller holds ctx->lock.
static struct io_kiocb *req_alloc(struct io_ring_ctx *ctx)
{
  struct io_kiocb *req = ctx->free_reqs;
  if (req) {
    ctx->free_reqs = req->next_free;
    ctx->inflight++;
  }
  return req;
}

// Post req's CQE with result res and free req. May sleep (file release).
static void io_req_complete(struct io_kiocb *req, long res)
{
  struct io_ring_ctx *ctx = req->ctx;
  if (req->file)
    fileclose(req->file);
  spin_lock(&ctx->lock);
  u32 tail = ctx->cached_cq_tail++;
  struct io_uring_cqe *cqe = cqe_at(ctx, tail & ctx->cq_mask);
  cqe->user_data = req->user_data;
  cqe->res = res;
  cqe->flags = 0;
  __sync_synchronize();   // the CQE before the tail that publishes it
  WRITE_ONCE(rings(ctx)->cq_tail, tail + 1);
  BUG_ON(ctx->inflight <= 0);   // only a request in flight completes
  req->next_free = ctx->free_reqs;
  ctx->free_reqs = req;
  ctx->inflight--;
  wakeup(&ctx->inflight);
  spin_unlock(&ctx->lock);
}

// ---- running requests

// Is f a file of the disk (not a pipe, device or /proc file)?
static bool io_file_is_reg(struct file *f)
{
  return f->type == FD_INODE && f->ip->dev != PROCDEV;
}

// Do req's operation, uncounted (io_issue_sqe() counts it). nonblock:
// the inline attempt at submission, which returns -EAGAIN instead of
// waiting, as Linux 5.12 does: for a read that the buffer cache cannot
// serve or that waits for a pipe or device, and for every write to a disk
// file (5.12 tries no buffered write inline).
// (Where the file system allows, 5.12 waits for a read's pages with a
// callback instead of a worker; here io-wq does all the waiting.)
static long io_do_op(struct io_kiocb *req, bool nonblock)
{
  struct file *f = req->file;
  switch (req->opcode) {
  case IORING_OP_NOP:
    return 0;
  case IORING_OP_FSYNC:
    return 0;   // the log commits each write before it returns
  case IORING_OP_READ:
    if (nonblock && (f->type == FD_DEVICE ||
                     (f->type == FD_PIPE && pipe_read_would_block(f->pipe))))
      return -EAGAIN;
    if (nonblock && io_file_is_reg(f))
      return req->off == ~0UL ? -EAGAIN : file_pread_nowait(f, req->addr, req->len, req->off);
    return req->off == ~0UL ? fileread(f, req->addr, req->len)
                            : file_pread(f, req->addr, req->len, req->off);
  case IORING_OP_WRITE:
    if (nonblock && f->type == FD_PIPE && pipe_write_would_block(f->pipe, req->len))
      return -EAGAIN;
    if (nonblock && io_file_is_reg(f))
      return -EAGAIN;
    return req->off == ~0UL ? filewrite(f, req->addr, req->len)
                            : file_pwrite(f, req->addr, req->len, req->off);
  }
  return -EINVAL;
}

// Count a read or write just done to the thread that did it, current:
// the submitter for an inline attempt, the iou-sqp thread under SQPOLL,
// an iou-wrk worker for a request punted to io-wq. So /proc/<pid>/io
// counts it to the process and /proc/<pid>/task/<tid>/io to that thread.
// No lock held: only current writes its counts.
static void io_account_rw(struct io_kiocb *req, long res)
{
  if (req->opcode == IORING_OP_READ) {
    if (res > 0)
      add_rchar(current, res);
    inc_syscr(current);
  } else if (req->opcode == IORING_OP_WRITE) {
    if (res > 0)
      add_wchar(current, res);
    inc_syscw(current);
  }
}

// Do req's operation and count it; returns the result. An inline attempt
// that would block (-EAGAIN) did nothing and is not counted: the worker
// that takes the request over counts it, so a request counts once.
static long io_issue_sqe(struct io_kiocb *req, bool nonblock)
{
  long res = io_do_op(req, nonblock);
  if (!(nonblock && res == -EAGAIN))
    io_account_rw(req, res);
  return res;
}

// io-wq runs this in a worker: the blocking attempt.
static void io_wq_submit_work(struct io_wq_work *work)
{
  struct io_kiocb *req = (struct io_kiocb *)work;
  long res = io_issue_sqe(req, false);
  if (res == -ERESTARTSYS)   // interrupted: cancelled, or a signal
    res = (work->flags & IO_WQ_WORK_CANCEL) ? -ECANCELED : -EINTR;
  io_req_complete(req, res);
}

static void io_wq_cancel_work(struct io_wq_work *work)
{
  io_req_complete((struct io_kiocb *)work, -ECANCELED);
}

// Note that ctx has work in wq, so that closing the ring, from whichever
// process, can cancel it there. Returns false if ctx is in too many
// pools already (processes sharing one ring).
static bool io_ring_track_wq(struct io_ring_ctx *ctx, struct io_wq *wq)
{
  bool ok = true;
  spin_lock(&ctx->lock);
  int i = 0;
  while (i < ctx->nr_wqs && ctx->wqs[i] != wq)
    i++;
  if (i == ctx->nr_wqs) {
    if (i < IO_RING_MAX_WQS) {
      io_wq_ref(wq);
      ctx->wqs[ctx->nr_wqs++] = wq;
    } else {
      ok = false;
    }
  }
  spin_unlock(&ctx->lock);
  return ok;
}

// Hand req to the process's io-wq pool. Unlike 5.12, a file's writes are
// not hashed to run one at a time: our log commits concurrent writes
// together (group commit), so letting them run in parallel is what makes
// a copy through io_uring faster than one through read/write.
static void io_queue_async_work(struct io_kiocb *req)
{
  struct io_wq *wq = io_wq_get();
  if (!wq || !io_ring_track_wq(req->ctx, wq)) {
    io_req_complete(req, wq ? -EBUSY : -ENOMEM);
    if (wq)
      io_wq_put(wq);
    return;
  }
  req->work.fn = io_wq_submit_work;
  req->work.cancel = io_wq_cancel_work;
  req->work.owner = req->ctx;
  req->work.flags = 0;
  if (req->file && req->file->type != FD_INODE)
    req->work.flags |= IO_WQ_WORK_UNBOUND;   // may wait forever: pipes, consoles
  io_wq_enqueue(wq, &req->work);
  io_wq_put(wq);   // the ring's reference (io_ring_track_wq()) keeps it
}

// Start one SQE: complete it at once, or punt it to io-wq.
static void io_submit_sqe(struct io_kiocb *req, const struct io_uring_sqe *sqe)
{
  req->user_data = sqe->user_data;
  req->opcode = sqe->opcode;
  req->flags = sqe->flags;
  req->off = sqe->off;
  req->addr = sqe->addr;
  req->len = sqe->len;
  req->file = NULL;
  if (req->opcode != IORING_OP_NOP && req->opcode != IORING_OP_FSYNC &&
      req->opcode != IORING_OP_READ && req->opcode != IORING_OP_WRITE) {
    io_req_complete(req, -EINVAL);
    return;
  }
  if (req->opcode != IORING_OP_NOP) {
    struct file *f = fget(sqe->fd);
    if (!f || f->type == FD_IO_URING) {
      if (f)
        fileclose(f);
      io_req_complete(req, -EBADF);
      return;
    }
    req->file = f;
  }
  if (req->flags & IOSQE_ASYNC) {
    io_queue_async_work(req);
    return;
  }
  long res = io_issue_sqe(req, true);
  if (res == -EAGAIN)
    io_queue_async_work(req);
  else
    io_req_complete(req, res);
}

// Consume up to n SQ entries, and never more than the ring holds, however
// far ahead user space moved its tail; an entry with a bad index is
// dropped (counted in sq_dropped). Returns how many were submitted, or
// -EBUSY if none could be because completions would not fit.
static int io_submit_sqes(struct io_ring_ctx *ctx, u32 n)
{
  struct io_rings_hdr *h = rings(ctx);
  int done = 0;
  if (n > ctx->sq_entries)
    n = ctx->sq_entries;
  sleep_lock(&ctx->submit_lock);
  for (u32 i = 0; i < n; i++) {   // each turn consumes an entry
    u32 head = ctx->cached_sq_head;
    if (head == READ_ONCE(h->sq_tail))
      break;
    __sync_synchronize();   // read the SQE after seeing the tail
    u32 idx = READ_ONCE(sq_array(ctx)[head & ctx->sq_mask]);
    if (idx >= ctx->sq_entries) {
      WRITE_ONCE(h->sq_dropped, ++ctx->cached_sq_dropped);
      WRITE_ONCE(h->sq_head, ++ctx->cached_sq_head);
      continue;
    }
    spin_lock(&ctx->lock);
    // A CQE for every request in flight or unreaped must fit the CQ ring
    // (a CQ head that user space scribbled on only hurts user space).
    u32 unreaped = ctx->cached_cq_tail - READ_ONCE(h->cq_head);
    bool full = (u32)ctx->inflight + unreaped >= ctx->cq_entries;
    struct io_kiocb *req = full ? NULL : req_alloc(ctx);
    spin_unlock(&ctx->lock);
    if (!req) {
      if (done == 0)
        done = -EBUSY;
      break;
    }
    struct io_uring_sqe sqe = *sqe_at(ctx, idx);
    WRITE_ONCE(h->sq_head, ++ctx->cached_sq_head);
    io_submit_sqe(req, &sqe);
    done++;
  }
  sleep_unlock(&ctx->submit_lock);
  return done;
}

// ---- SQPOLL

// The body of the iou-sqp thread: submit while work arrives or the idle
// window lasts, then set IORING_SQ_NEED_WAKEUP and sleep until
// io_uring_enter() wakes it. Like the 5.12-rc3 loop, it looks only at
// fatal_signal_pending(), never get_signal().
static void io_sq_thread(void *arg)
{
  struct io_ring_ctx *ctx = arg;
  struct io_rings_hdr *h = rings(ctx);
  u64 idle_since = jiffies;
  while (!READ_ONCE(ctx->sq_exit)) {
    if (io_submit_sqes(ctx, ctx->sq_entries) > 0) {
      idle_since = jiffies;
      continue;
    }
    // A SIGKILL ends the idle window, however long user space made it.
    // (Submitting cannot go on for ever without passing here: once the
    // group is dead nobody reaps, and a full CQ ring stops submission.)
    if (jiffies - idle_since < ctx->sq_idle_ticks && !fatal_signal_pending(current)) {
      schedule();   // spin politely through the idle window
      continue;
    }
    __atomic_fetch_or(&h->sq_flags, IORING_SQ_NEED_WAKEUP, __ATOMIC_SEQ_CST);
    // Looked at under ctx->lock, which io_sq_thread_stop() and
    // IORING_ENTER_SQ_WAKEUP hold to wake us: neither can fall between
    // the look and the sleep (the stop would wait out the 10 s).
    spin_lock(&ctx->lock);
    if (!ctx->sq_exit && READ_ONCE(ctx->cached_sq_head) == READ_ONCE(h->sq_tail))
      schedule_timeout_locked(10 * HZ, &ctx->lock);
    spin_unlock(&ctx->lock);
    __atomic_fetch_and(&h->sq_flags, ~IORING_SQ_NEED_WAKEUP, __ATOMIC_SEQ_CST);
    idle_since = jiffies;
    if (fatal_signal_pending(current))
      break;
  }
  spin_lock(&ctx->lock);
  ctx->sq_alive = false;
  ctx->sq_thread = NULL;
  wakeup(&ctx->sq_alive);
  spin_unlock(&ctx->lock);
  do_exit(0);
}

// ---- setup and teardown

// Is every page of the ring slot at base unmapped in pgd? (A program's
// segments cannot reach the slots, exec sees to that, but say so here.)
static bool io_ring_slot_free(pte_t *pgd, u64 base, int npages)
{
  for (int i = 0; i < npages; i++)
    if (lookup_pte(pgd, base + (u64)i * PAGE_SIZE))
      return false;
  return true;
}

// Map the ring pages into mm at a free slot. Returns 0, -ENOMEM, or
// -EEXIST. On failure what was mapped stays for io_ring_ctx_free() to
// take back, with the shootdown that needs.
static int io_map_rings(struct io_ring_ctx *ctx, struct mm_struct *mm)
{
  spin_lock(&mm->lock);
  u64 base = IORING_MAP_BASE;
  while (!io_ring_slot_free(mm->pgd, base, ctx->npages) && base < USER_TOP - IORING_MAP_STEP)
    base += IORING_MAP_STEP;
  int err = 0;
  ctx->user_base = base;
  for (int i = 0; i < ctx->npages && err == 0; i++)
    err = map_user_page(mm->pgd, base + i * PAGE_SIZE, ctx->pages[i], VM_READ | VM_WRITE);
  spin_unlock(&mm->lock);
  return err;
}

// Free everything of ctx (its sq thread and requests must be gone). The
// ring pages go back only once no CPU can still write them through a
// stale translation: a thread of mm may be spinning on the SQ tail on
// another CPU as the last close happens. May sleep; no lock held.
static void io_ring_ctx_free(struct io_ring_ctx *ctx)
{
  if (ctx->mm && ctx->user_base)
    unmap_user_pages_sync(ctx->mm, ctx->user_base, (u64)ctx->npages * PAGE_SIZE, false);
  if (ctx->mm) {
    mmput(ctx->mm);
  }
  for (int i = 0; i < ctx->npages; i++)
    if (ctx->pages[i])
      free_page(ctx->pages[i]);
  for (int i = 0; i < ctx->nreq_pages; i++)
    if (ctx->req_pages[i])
      free_page(ctx->req_pages[i]);
  free_page(ctx);
}

// Allocate ctx's ring and request pages for entries SQEs. -ENOMEM/-EINVAL.
static int io_allocate_rings(struct io_ring_ctx *ctx, u32 entries)
{
  ctx->sq_entries = entries;
  ctx->cq_entries = 2 * entries;
  u32 cqe_pages = PAGE_ALIGN(ctx->cq_entries * sizeof(struct io_uring_cqe)) / PAGE_SIZE;
  u32 sqe_pages = PAGE_ALIGN(entries * sizeof(struct io_uring_sqe)) / PAGE_SIZE;
  ctx->cqe_page = 1;
  ctx->sqe_page = 1 + cqe_pages;
  ctx->npages = 1 + cqe_pages + sqe_pages;
  u32 per_page = PAGE_SIZE / sizeof(struct io_kiocb);
  ctx->nreq_pages = (ctx->cq_entries + per_page - 1) / per_page;
  if (ctx->npages > RING_PAGES_MAX || ctx->nreq_pages > REQ_PAGES_MAX)
    return -EINVAL;
  for (int i = 0; i < ctx->npages; i++)
    if (!(ctx->pages[i] = alloc_page()))
      return -ENOMEM;
  for (int i = 0; i < ctx->nreq_pages; i++) {
    if (!(ctx->req_pages[i] = alloc_page()))
      return -ENOMEM;
    struct io_kiocb *reqs = ctx->req_pages[i];
    for (u32 j = 0; j < per_page; j++) {
      reqs[j].ctx = ctx;
      reqs[j].next_free = ctx->free_reqs;
      ctx->free_reqs = &reqs[j];
    }
  }
  ctx->sq_mask = entries - 1;
  ctx->cq_mask = ctx->cq_entries - 1;
  struct io_rings_hdr *h = rings(ctx);   // user space's copies
  h->sq_ring_mask = ctx->sq_mask;
  h->sq_ring_entries = entries;
  h->cq_ring_mask = ctx->cq_mask;
  h->cq_ring_entries = ctx->cq_entries;
  return 0;
}

// Tell user space where everything is (Linux's offsets, plus addresses).
static void io_fill_params(struct io_ring_ctx *ctx, struct io_uring_params *p)
{
  p->sq_entries = ctx->sq_entries;
  p->cq_entries = ctx->cq_entries;
  p->features = 0;
  p->sq_off = (struct io_sqring_offsets){
    offsetof(struct io_rings_hdr, sq_head), offsetof(struct io_rings_hdr, sq_tail),
    offsetof(struct io_rings_hdr, sq_ring_mask), offsetof(struct io_rings_hdr, sq_ring_entries),
    offsetof(struct io_rings_hdr, sq_flags), offsetof(struct io_rings_hdr, sq_dropped),
    SQ_ARRAY_OFF, 0, 0 };
  p->cq_off = (struct io_cqring_offsets){
    offsetof(struct io_rings_hdr, cq_head), offsetof(struct io_rings_hdr, cq_tail),
    offsetof(struct io_rings_hdr, cq_ring_mask), offsetof(struct io_rings_hdr, cq_ring_entries),
    offsetof(struct io_rings_hdr, cq_overflow), ctx->cqe_page * PAGE_SIZE,
    offsetof(struct io_rings_hdr, cq_flags), 0, 0 };
  p->sq_ring_ptr = p->cq_ring_ptr = ctx->user_base;
  p->sqes_ptr = ctx->user_base + ctx->sqe_page * PAGE_SIZE;
}

// Start the SQPOLL thread for ctx. Returns 0 or -ENOMEM.
static int io_sq_offload_create(struct io_ring_ctx *ctx, u32 idle_ms)
{
  ctx->sq_idle_ticks = (u64)(idle_ms ? idle_ms : 1000) * HZ / 1000;   // no u32 wrap
  struct task *t = create_io_thread(io_sq_thread, ctx, "iou-sqp-%d", current->tgid);
  if (!t)
    return -ENOMEM;
  ctx->sq_thread = t;
  ctx->sq_alive = true;
  wake_up_new_task(t);
  return 0;
}

// Stop ctx's SQPOLL thread and wait for it (unless we are it).
static void io_sq_thread_stop(struct io_ring_ctx *ctx)
{
  spin_lock(&ctx->lock);
  ctx->sq_exit = true;
  if (ctx->sq_thread)
    wake_up_state(ctx->sq_thread, 1 << TASK_INTERRUPTIBLE);
  while (ctx->sq_alive && ctx->sq_thread != current)
    sleep(&ctx->sq_alive, &ctx->lock);
  spin_unlock(&ctx->lock);
}

// The ring's file is closed for the last time: stop submitting, cancel
// every request in flight, in every pool that has some (the closer may be
// another process than the submitters), wait for them, then free it all.
void io_uring_release(struct io_ring_ctx *ctx)
{
  io_sq_thread_stop(ctx);
  for (int i = 0; i < ctx->nr_wqs; i++)
    io_wq_cancel_owner(ctx->wqs[i], ctx);
  spin_lock(&ctx->lock);
  while (ctx->inflight > 0)
    sleep(&ctx->inflight, &ctx->lock);
  spin_unlock(&ctx->lock);
  for (int i = 0; i < ctx->nr_wqs; i++)
    io_wq_put(ctx->wqs[i]);
  io_ring_ctx_free(ctx);
}

long sys_io_uring_setup(struct pt_regs *regs)
{
  u32 entries = ARG(0);
  u64 uparams = ARG(1);
  struct io_uring_params p;
  if (copy_from_user(&p, (void *)uparams, sizeof(p)) < 0)
    return -EFAULT;
  if (entries == 0 || entries > IORING_MAX_ENTRIES || (p.flags & ~IORING_SETUP_SQPOLL))
    return -EINVAL;
  while (entries & (entries - 1))   // round up to a power of two
    entries += entries & -entries;
  struct io_ring_ctx *ctx = alloc_page();
  if (!ctx)
    return -ENOMEM;
  _Static_assert(sizeof(struct io_ring_ctx) <= PAGE_SIZE, "ctx fits a page");
  spin_lock_init(&ctx->lock, "io_ring_ctx");
  sleep_lock_init(&ctx->submit_lock, "io_uring_submit");
  ctx->setup_flags = p.flags;
  int err = io_allocate_rings(ctx, entries);
  if (err == 0) {
    __atomic_fetch_add(&current->mm->users, 1, __ATOMIC_RELAXED);
    ctx->mm = current->mm;
    err = io_map_rings(ctx, ctx->mm);
  }
  struct file *f = err ? NULL : filealloc();
  if (!err && !f)
    err = -ENFILE;
  if (err == 0 && (p.flags & IORING_SETUP_SQPOLL))
    err = io_sq_offload_create(ctx, p.sq_thread_idle);
  if (err == 0) {
    io_fill_params(ctx, &p);
    if (copy_to_user((void *)uparams, &p, sizeof(p)) < 0)
      err = -EFAULT;
  }
  if (err == 0) {
    f->type = FD_IO_URING;
    f->ring = ctx;
    int fd = fd_install(f);
    if (fd < 0)
      fileclose(f);   // releases ctx too
    return fd;
  }
  if (f) {
    f->type = FD_IO_URING;
    f->ring = ctx;
    fileclose(f);
  } else {
    io_sq_thread_stop(ctx);
    io_ring_ctx_free(ctx);
  }
  return err;
}

// io_uring_enter(fd, to_submit, min_complete, flags): submit (or wake
// the SQPOLL thread), then with IORING_ENTER_GETEVENTS wait until
// min_complete CQEs are ready. Returns the number submitted or -errno.
long sys_io_uring_enter(struct pt_regs *regs)
{
  u32 to_submit = ARG(1), min_complete = ARG(2), flags = ARG(3);
  struct file *f = fget(ARG(0));   // keeps the ring while we use it
  if (!f)
    return -EBADF;
  long ret = 0;
  if (f->type != FD_IO_URING)
    ret = -EOPNOTSUPP;
  else if (flags & ~(IORING_ENTER_GETEVENTS | IORING_ENTER_SQ_WAKEUP))
    ret = -EINVAL;
  if (ret < 0) {
    fileclose(f);
    return ret;
  }
  struct io_ring_ctx *ctx = f->ring;
  if (ctx->setup_flags & IORING_SETUP_SQPOLL) {
    spin_lock(&ctx->lock);
    if ((flags & IORING_ENTER_SQ_WAKEUP) && ctx->sq_thread)
      wake_up_state(ctx->sq_thread, 1 << TASK_INTERRUPTIBLE);
    spin_unlock(&ctx->lock);
    ret = to_submit;
  } else if (to_submit) {
    ret = io_submit_sqes(ctx, to_submit);
  }
  if (ret >= 0 && (flags & IORING_ENTER_GETEVENTS)) {
    struct io_rings_hdr *h = rings(ctx);
    if (min_complete > ctx->cq_entries)
      min_complete = ctx->cq_entries;
    spin_lock(&ctx->lock);
    while (ctx->cached_cq_tail - READ_ONCE(h->cq_head) < min_complete) {
      if (sleep_interruptible(&ctx->inflight, &ctx->lock) < 0) {
        ret = ret ? ret : -ERESTARTSYS;
        break;
      }
    }
    spin_unlock(&ctx->lock);
  }
  fileclose(f);
  return ret;
}
