/* Runqueue's init for Linux: the book's workloads as Linux programs (see linux/README.md).
 * Built with Linux's own nolibc, static, for rv64imac without floating point. */
#ifndef RQ_H
#define RQ_H

#include "nolibc.h"

typedef uint64_t u64;
typedef int64_t i64;

#define MAX_TASKS 64
#define MAX_LIST 64
#define INSNS_PER_US 100
#define LAT_BUCKETS 200

/* ---- output (out.c) ---- */
struct buf { char *p; size_t len, cap; };
void put(struct buf *b, const char *s);
void putn(struct buf *b, const char *s, size_t n);
void putc_(struct buf *b, char c);
void putu(struct buf *b, u64 v);
void puti(struct buf *b, i64 v);
/* v (ns) as milliseconds with three decimals, right-aligned in `width`. */
void putms(struct buf *b, u64 ns, int width);
void pad_left(struct buf *b, const char *s, int width);
void pad_right(struct buf *b, const char *s, int width);
void json_str(struct buf *b, const char *s);
void flush(int fd, struct buf *b);
void say(const char *s);
/* Prints "init: <what>" and stops the machine with exit code 2, as the teaching kernel refuses
 * a bad argument. */
void fail(const char *what, const char *detail) __attribute__((noreturn));

/* Splits off the next token of *s at any of `seps` (as strsep, skipping empty tokens). */
static inline char *token(char **s, const char *seps)
{
    char *start = *s;
    while (*start && strchr(seps, *start))
        start++;
    if (!*start)
        return 0;
    char *end = start;
    while (*end && !strchr(seps, *end))
        end++;
    *s = *end ? end + 1 : end;
    *end = 0;
    return start;
}

/* ---- system calls nolibc leaves out, and the machine (sys.c) ---- */
u64 now_ns(void);
void sleep_until_ns(u64 t);
void sleep_ns(u64 ns);
void spin(u64 insns);
void spin_ns(u64 ns);
int sched_attr_set(int pid, int policy, int nice, int prio, u64 runtime, u64 deadline, u64 period, u64 flags);
int set_affinity(int pid, u64 mask);
int futex_wait(volatile uint32_t *addr, uint32_t val);
int futex_wake(volatile uint32_t *addr, int n);
int write_file(const char *path, const char *text);
/* Reads a whole small file into buf (NUL-terminated); -1 if it cannot. */
long read_file(const char *path, char *buf, size_t cap);
void power_off(int code) __attribute__((noreturn));
int cpus_online(void);
/* The CPUs the calling task may run on. */
u64 own_cpus(void);
/* The init's CPUs at boot: Linux gives the init the housekeeping CPUs (all but isolcpus=), and
 * a task with no affinity= keeps them, as any program started from it does. */
extern u64 housekeeping;

/* ---- settings (args.c) ---- */
struct list { int n; i64 v[MAX_LIST]; };
struct settings;
int setting_given(const char *name);
i64 get_int(const char *name);
const char *get_text(const char *name);
struct list get_list(const char *name);
/* The value's index in a choice tunable. */
int get_choice(const char *name);
/* Parses the command line; on a bad word prints why and stops. */
void parse_args(const char *cmdline, const char *release);
extern const char *cmdline_text;
/* Linux's own command line when the run's words came from the machine, else NULL. */
extern const char *linux_cmdline;

/* ---- tasks and the shared record of a run (task.c) ---- */
struct lat { u64 min_ns, max_ns, sum_ns, samples; uint32_t hist_us[LAT_BUCKETS]; };

struct task {
    char name[16];
    int pid;
    u64 arrive_ns, first_ns, finish_ns, cpu_ns, wait_ns, switches, iterations;
    int measures_latency;
    struct lat lat;
    /* what the task runs */
    void (*entry)(struct task *t, const u64 *args);
    u64 args[6];
    /* how it is scheduled: filled by the workload, then overridden by the global lists */
    int policy, nice, prio;          /* SCHED_* policy, nice, real-time priority */
    u64 dl_runtime, dl_deadline, dl_period, slice_ns;
    u64 affinity;                    /* 0: all CPUs */
    const char *cgroup;              /* NULL: the root */
};

struct shared {
    volatile uint32_t go;            /* the workload's start: tasks wait for it */
    volatile uint32_t stop;          /* loads run until it is set */
    volatile uint32_t left;          /* receivers still reading (hackbench) */
    volatile uint32_t ready;         /* tasks waiting for the start */
    volatile uint32_t finished;      /* tasks done */
    u64 start_ns;
    int count;
    struct task tasks[MAX_TASKS];
};
extern struct shared *run;

/* A new task of the workload (index >= 0: the name gets it as a suffix, as spin3). */
struct task *task_new(const char *name, int index, void (*entry)(struct task *, const u64 *), const u64 *args, int nargs);
void iteration_done(struct task *t);
void latency_sample(struct task *t, u64 ns);
void mark(const char *key, u64 value);
/* Closes the init's copies of the tasks' file descriptors (workloads.c). */
void close_task_fds(void);
void run_tasks(void);

/* What cpu.stat says of a group with a cpu.max over the run (Linux's trace has no throttling
 * event, so the RESULT line carries it). */
struct group_stat { char name[32]; u64 nr_periods, nr_throttled, throttled_usec; };
#define MAX_LIMITED 16
extern struct group_stat limited[MAX_LIMITED];
extern int nlimited;

/* ---- workloads (workloads.c) and the report (report.c) ---- */
struct tunable { const char *name; int kind; i64 min, max; const char *def; const char *const *choices; };
enum { K_INT, K_LIST, K_CHOICE, K_TEXT, K_FEATURES };
struct workload {
    const char *name;
    const struct tunable *tunables;
    void (*spawn)(void);
};
extern const struct workload workloads[];
const struct workload *find_workload(const char *name);
void report(u64 end_ns);
extern int trace_on;
extern const char *sched_name;
extern int smp;

#endif
