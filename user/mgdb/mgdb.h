// mgdb's parts (user/mgdb/): what each file gives the others.

// symbols.c: the program's ELF symbols.
struct sym {
  ulong addr, size;
  const char *name;
  int text;                     // in an executable section
};
int load_symbols(const char *path);
struct sym *sym_at(ulong addr);
struct sym *sym_named(const char *name);
const char *func_name(ulong addr);
void print_sym(ulong addr);

// inferior.c: the process, its threads (struct lwp, user/lwp.h), run control.
extern int pid;                 // the inferior, 0 when not attached
extern struct lwp *cur;         // the selected thread
extern int running;             // resumed by continue, not yet interrupted
extern int gdb15, max_passes, timing;
char lwp_state(int tid);
void lwp_name(int tid, char *name, int size);
int wait_stop(int tid);
int get_regs(struct lwp *lp, struct user_regs *r);
int peek(struct lwp *lp, ulong addr, ulong *word);
void print_where(struct lwp *lp);
int attach_process(int p);
void stop_all(int verbose);
void resume_all(void);
void detach_all(void);
void poll_events(void);

// commands.c
int run_command(char *line);
int cmd_detach(void);
