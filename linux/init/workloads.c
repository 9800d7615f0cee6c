/* The book's workloads (the teaching kernel's kernel/src/workload/) as Linux processes, with the
 * same names, tunables and defaults where they mean the same thing. Work is counted in
 * instructions (spin), so a unit costs the same CPU time on both kernels. */
#include "rq.h"

#define T_TASKS(d) { "wl.tasks", K_INT, 1, 32, d, NULL }
#define T_UNITS(d) { "wl.units", K_INT, 1, 10000000, d, NULL }
#define T_UNIT_INSNS(d) { "wl.unit_insns", K_INT, 2, 1000000000, d, NULL }
#define T_RUN_MS(d) { "wl.run_ms", K_INT, 1, 60000, d, NULL }

static i64 arg(const char *name) { return get_int(name); }

/* Units of `insns`, each counted and followed by sched_yield(), `units` of them or until
 * `until_ns` after the start (0: no time limit). */
static void units_then_yield(struct task *t, const u64 *a)
{
    u64 units = a[0], insns = a[1], until = a[2], marks = a[3];
    for (u64 i = 0; until ? now_ns() - run->start_ns < until : i < units; i++) {
        spin(insns);
        if (marks)
            iteration_done(t);
        else
            t->iterations++;
        sched_yield();
    }
}

/* ---- fairness-equal, fairness-unequal, yield-speed (seed 001) ---- */
static const struct tunable equal_t[] = { T_TASKS("4"), T_UNITS("100"), T_UNIT_INSNS("300000"), { NULL } };
static void equal(void)
{
    for (int i = 0; i < arg("wl.tasks"); i++)
        task_new("task", i, units_then_yield, (u64[]){ arg("wl.units"), arg("wl.unit_insns"), 0, 1 }, 4);
}

static const struct tunable unequal_t[] = { T_TASKS("4"), T_UNIT_INSNS("100000"), T_RUN_MS("1000"), { NULL } };
static void unequal(void)
{
    for (int i = 0; i < arg("wl.tasks"); i++)
        task_new("task", i, units_then_yield, (u64[]){ 0, (i + 1) * arg("wl.unit_insns"), arg("wl.run_ms") * 1000000, 1 }, 4);
}

/* The point of yield-speed is the cost of a switch: a trace marker per unit would double it. */
static const struct tunable yield_t[] = { T_TASKS("4"), T_UNITS("5000"), T_UNIT_INSNS("200"), { NULL } };
static void yield_speed(void)
{
    for (int i = 0; i < arg("wl.tasks"); i++)
        task_new("task", i, units_then_yield, (u64[]){ arg("wl.units"), arg("wl.unit_insns"), 0, 0 }, 4);
}

/* ---- realtime, occupy (seed 001) ---- */
static const struct tunable realtime_t[] = {
    { "wl.short_units", K_LIST, 1, 10000000, "2500,500,1000,2500", NULL },
    { "wl.short_insns", K_LIST, 2, 1000000000, "20,10,4,2", NULL },
    { "wl.long_units", K_INT, 1, 1000000, "8", NULL },
    { "wl.long_insns", K_INT, 2, 1000000000, "10000000", NULL },
    { NULL },
};
static void realtime(void)
{
    struct list units = get_list("wl.short_units"), insns = get_list("wl.short_insns");
    if (units.n != insns.n)
        fail("wl.short_insns: needs as many values as wl.short_units", "");
    for (int i = 0; i < units.n; i++)
        task_new("short", i, units_then_yield, (u64[]){ units.v[i], insns.v[i], 0, 1 }, 4);
    task_new("long", -1, units_then_yield, (u64[]){ arg("wl.long_units"), arg("wl.long_insns"), 0, 1 }, 4);
}

static const struct tunable occupy_t[] = {
    { "wl.short_units", K_INT, 1, 10000000, "12000", NULL },
    { "wl.short_insns", K_INT, 2, 1000000000, "5000", NULL },
    { "wl.long_units", K_INT, 1, 1000000, "20", NULL },
    { "wl.long_insns", K_INT, 2, 1000000000, "2500000", NULL },
    { NULL },
};
static void occupy(void)
{
    for (int i = 0; i < 2; i++)
        task_new("short", i, units_then_yield, (u64[]){ arg("wl.short_units"), arg("wl.short_insns"), 0, 1 }, 4);
    task_new("long", -1, units_then_yield, (u64[]){ arg("wl.long_units"), arg("wl.long_insns"), 0, 1 }, 4);
}

/* ---- spin: busy loops that never yield ---- */
static const struct tunable spin_t[] = {
    T_TASKS("10"), T_RUN_MS("1000"), T_UNIT_INSNS("100000"),
    { "wl.hold_us", K_INT, 0, 0, "0", NULL },
    { "wl.hop", K_INT, 0, 1, "0", NULL },
    { NULL },
};
static void spinner(struct task *t, const u64 *a)
{
    u64 insns = a[0], until = a[1], hop_cpus = a[2];
    int cpu = 0;
    while (now_ns() - run->start_ns < until) {
        spin(insns);
        iteration_done(t);
        if (hop_cpus > 1) {
            cpu = (cpu + 1) % hop_cpus;
            set_affinity(0, 1ull << cpu);
        }
    }
}
static void spin_wl(void)
{
    u64 hop = arg("wl.hop") ? (u64)smp : 0;
    for (int i = 0; i < arg("wl.tasks"); i++)
        task_new("spin", i, spinner, (u64[]){ arg("wl.unit_insns"), arg("wl.run_ms") * 1000000, hop }, 3);
}

/* ---- intr (seed 004): work 8 ms, sleep 1 ms ---- */
static const struct tunable intr_t[] = {
    T_TASKS("10"), T_RUN_MS("2000"),
    { "wl.work_us", K_INT, 1, 1000000, "8000", NULL },
    { "wl.sleep_us", K_INT, 0, 1000000, "1000", NULL },
    { "wl.hogs", K_INT, 0, 16, "0", NULL },
    { NULL },
};
static void work_sleep(struct task *t, const u64 *a)
{
    u64 insns = a[0], sleep = a[1], until = a[2];
    while (now_ns() - run->start_ns < until) {
        spin(insns);
        if (sleep)
            sleep_ns(sleep);
        iteration_done(t);
    }
}
static void intr(void)
{
    u64 work = arg("wl.work_us") * INSNS_PER_US, until = arg("wl.run_ms") * 1000000;
    for (int i = 0; i < arg("wl.tasks"); i++)
        task_new("intr", i, work_sleep, (u64[]){ work, arg("wl.sleep_us") * 1000, until }, 3);
    for (int i = 0; i < arg("wl.hogs"); i++)
        task_new("hog", i, work_sleep, (u64[]){ work, 0, until }, 3);
}

/* ---- hackbench (pipe mode, seed 002) ---- */
static const struct tunable hackbench_t[] = {
    { "wl.groups", K_INT, 1, 8, "2", NULL },
    { "wl.fds", K_INT, 1, 16, "5", NULL },
    { "wl.loops", K_INT, 1, 100000, "200", NULL },
    { "wl.msg_bytes", K_INT, 1, 4096, "100", NULL },
    { "wl.msg_insns", K_INT, 0, 10000000, "2000", NULL },
    { "wl.pipe_bytes", K_INT, 4096, 1048576, "65536", NULL },
    { "wl.hog", K_INT, 0, 4, "0", NULL },
    { NULL },
};
static int pipes[MAX_TASKS][2];
static int npipes;

/* Once the tasks are forked, the init lets go of its ends of their pipes: an open write end
 * in the init would keep a receiver that reads to the end of file (a load that runs until
 * stopped) waiting for ever. */
void close_task_fds(void)
{
    for (int p = 0; p < npipes; p++) {
        close(pipes[p][0]);
        close(pipes[p][1]);
    }
}

/* a: first pipe, pipes, messages per pipe (0: until stopped), bytes, insns */
static void sender(struct task *t, const u64 *a)
{
    char msg[4096] = { 0 };
    for (u64 p = a[0]; p < a[0] + a[1]; p++)
        close(pipes[p][0]);
    for (u64 sent = 0; a[2] ? sent < a[2] : !run->stop; sent++) {
        for (u64 p = a[0]; p < a[0] + a[1]; p++) {
            spin(a[4]);
            if (write(pipes[p][1], msg, a[3]) != (ssize_t)a[3])
                fail("hackbench: a pipe write failed in ", t->name);
        }
        iteration_done(t);
    }
}
/* a: its pipe, messages (0: to end of file), bytes, insns */
static void receiver(struct task *t, const u64 *a)
{
    char msg[4096];
    int fd = pipes[a[0]][0];
    for (int p = 0; p < npipes; p++) {
        close(pipes[p][1]);
        if (p != (int)a[0])
            close(pipes[p][0]);
    }
    for (u64 got = 0; !a[1] || got < a[1]; got++) {
        u64 want = a[2], have = 0;
        while (have < want) {
            ssize_t n = read(fd, msg, want - have);
            if (n <= 0)
                goto done;
            have += n;
        }
        spin(a[3]);
        iteration_done(t);
    }
done:
    __atomic_sub_fetch(&run->left, 1, __ATOMIC_SEQ_CST);
}
static void hog(struct task *t, const u64 *a)
{
    (void)a;
    while (__atomic_load_n(&run->left, __ATOMIC_SEQ_CST)) {
        spin(100000);
        iteration_done(t);
    }
}
/* Every task's other pipe ends are closed in the task, so a reader sees end of file when its
 * writers are done. `loops` 0: senders run until run->stop. Each pipe holds `pipe_bytes`
 * (F_SETPIPE_SZ, which Linux rounds up to a power of two of pages). */
static void hackbench_groups(int groups, int fds, u64 loops, u64 bytes, u64 insns, u64 pipe_bytes)
{
    if (groups * fds > 31)
        fail("wl.groups: groups x fds must be at most 31", "");
    run->left = groups * fds;
    for (int g = 0; g < groups; g++) {
        int first = npipes;
        for (int r = 0; r < fds; r++) {
            if (pipe(pipes[npipes]) < 0)
                fail("hackbench: cannot make a pipe", "");
            if (pipe_bytes != 65536 && my_syscall3(__NR_fcntl, pipes[npipes][1], 1031 /* F_SETPIPE_SZ */, pipe_bytes) < 0)
                fail("hackbench: Linux refused the pipe size wl.pipe_bytes", "");
            task_new("recv", g * fds + r, receiver, (u64[]){ npipes, loops ? fds * loops : 0, bytes, insns }, 4);
            npipes++;
        }
        for (int w = 0; w < fds; w++)
            task_new("send", g * fds + w, sender, (u64[]){ first, fds, loops, bytes, insns }, 5);
    }
}
static void hackbench(void)
{
    hackbench_groups(arg("wl.groups"), arg("wl.fds"), arg("wl.loops"), arg("wl.msg_bytes"), arg("wl.msg_insns"), arg("wl.pipe_bytes"));
    for (int h = 0; h < arg("wl.hog"); h++)
        task_new("hog", h, hog, NULL, 0);
}

/* ---- cyclictest (rt-tests, seeds 000 and 003) ---- */
static const char *const cyc_policies[] = { "fifo", "rr", "fair", NULL };
static const char *const load_types[] = { "work", "hackbench", NULL };
static const struct tunable cyclictest_t[] = {
    { "wl.interval_us", K_INT, 100, 1000000, "1000", NULL },
    { "wl.loops", K_INT, 1, 1000000, "1000", NULL },
    { "wl.policy", K_CHOICE, 0, 0, "fifo", cyc_policies },
    { "wl.prio", K_INT, 1, 99, "80", NULL },
    { "wl.load_type", K_CHOICE, 0, 0, "work", load_types },
    { "wl.load", K_INT, 0, 32, "8", NULL },
    { "wl.load_work_us", K_INT, 1, 1000000, "2000", NULL },
    { "wl.load_sleep_us", K_INT, 0, 1000000, "100", NULL },
    { "wl.hold_us", K_INT, 0, 0, "0", NULL },
    { "wl.isolate", K_INT, 0, 1, "0", NULL },
    { NULL },
};
static void measuring(struct task *t, const u64 *a)
{
    u64 interval = a[0], next = now_ns() + interval;
    for (u64 i = 0; i < a[1]; i++) {
        sleep_until_ns(next);
        u64 now = now_ns();
        latency_sample(t, now > next ? now - next : 0);
        iteration_done(t);
        next += interval;
    }
    __atomic_store_n(&run->stop, 1, __ATOMIC_SEQ_CST);
}
static void loader(struct task *t, const u64 *a)
{
    while (!__atomic_load_n(&run->stop, __ATOMIC_SEQ_CST)) {
        spin_ns(a[0]);
        if (a[1])
            sleep_ns(a[1]);
        iteration_done(t);
    }
}
static void cyclictest(void)
{
    int isolate = arg("wl.isolate");
    if (isolate && smp < 2)
        fail("wl.isolate: keeping the load off the measuring CPU needs smp=2 or more", "");
    struct task *m = task_new("cyclic", -1, measuring, (u64[]){ arg("wl.interval_us") * 1000, arg("wl.loops") }, 2);
    int policy = get_choice("wl.policy");
    m->policy = policy == 0 ? 1 : policy == 1 ? 2 : 0;
    m->prio = policy == 2 ? 0 : arg("wl.prio");
    m->affinity = isolate ? 1 : 0;
    int first_load = run->count;
    if (get_choice("wl.load_type") == 1) {
        if (arg("wl.load") > 16)
            fail("wl.load: a hackbench load has at most 16 sender/receiver pairs", "");
        if (arg("wl.load"))
            hackbench_groups(1, arg("wl.load"), 0, 100, 2000, 65536);
    } else {
        for (int i = 0; i < arg("wl.load"); i++)
            task_new("load", i, loader, (u64[]){ arg("wl.load_work_us") * 1000, arg("wl.load_sleep_us") * 1000 }, 2);
    }
    for (int i = first_load; isolate && i < run->count; i++)
        run->tasks[i].affinity = ((1ull << smp) - 1) & ~1ull;
}

/* ---- deadline: periodic tasks under SCHED_DEADLINE or rate-monotonic SCHED_FIFO ---- */
static const char *const dl_classes[] = { "edf", "rm", NULL };
static const struct tunable deadline_t[] = {
    { "wl.period_us", K_LIST, 1000, 1000000, "5000,7000", NULL },
    { "wl.runtime_us", K_LIST, 100, 1000000, "2000,3850", NULL },
    { "wl.deadline_us", K_LIST, 0, 1000000, "0", NULL },
    { "wl.work_pct", K_INT, 1, 200, "90", NULL },
    { "wl.sleep_us", K_INT, 0, 1000000, "0", NULL },
    { "wl.yield", K_INT, 0, 1, "0", NULL },
    { "wl.class", K_CHOICE, 0, 0, "edf", dl_classes },
    T_RUN_MS("1000"),
    { NULL },
};
#define RM_EPOCH_NS 2000000
/* a: period, work, run_ns, sleep, yields, epoch */
static void periodic(struct task *t, const u64 *a)
{
    u64 period = a[0], work = a[1], sleep = a[3];
    u64 release = a[5] ? a[5] : now_ns() - run->start_ns;
    while (release < a[2]) {
        if (!a[4])
            sleep_until_ns(run->start_ns + release);
        spin(work / 2);
        if (sleep)
            sleep_ns(sleep);
        spin(work - work / 2);
        u64 done = now_ns() - run->start_ns;
        mark("resp", done - release);
        if (done <= release + period)
            iteration_done(t);
        else
            mark("miss", done - release - period);
        release += period;
        if (a[4])
            sched_yield();
    }
}
static void deadline(void)
{
    struct list periods = get_list("wl.period_us"), runtimes = get_list("wl.runtime_us"), deadlines = get_list("wl.deadline_us");
    if (periods.n != runtimes.n)
        fail("wl.runtime_us: needs one value per period in wl.period_us", "");
    int rm = get_choice("wl.class") == 1;
    for (int i = 0; i < periods.n; i++) {
        u64 period = periods.v[i] * 1000, runtime = runtimes.v[i] * 1000;
        u64 dl = i < deadlines.n && deadlines.v[i] ? (u64)deadlines.v[i] * 1000 : period;
        u64 work = runtimes.v[i] * INSNS_PER_US * arg("wl.work_pct") / 100;
        struct task *t = task_new("job", i, periodic,
            (u64[]){ period, work, arg("wl.run_ms") * 1000000, arg("wl.sleep_us") * 1000, arg("wl.yield"), rm ? RM_EPOCH_NS : 0 }, 6);
        if (rm) {
            int higher = 0;
            for (int j = 0; j < periods.n; j++)
                higher += periods.v[j] < periods.v[i] || (periods.v[j] == periods.v[i] && j < i);
            t->policy = 1;
            t->prio = 99 - higher;
        } else {
            t->policy = 6;
            t->dl_runtime = runtime;
            t->dl_deadline = dl;
            t->dl_period = period;
        }
    }
}

/* ---- bursts, arrivals: batch jobs ---- */
static const struct tunable bursts_t[] = { { "wl.burst_ms", K_LIST, 1, 60000, "24,3,3", NULL }, { NULL } };
static void job(struct task *t, const u64 *a)
{
    for (u64 left = a[0]; left;) {
        u64 unit = left < 1000 * INSNS_PER_US ? left : 1000 * INSNS_PER_US;
        spin(unit);
        left -= unit;
        iteration_done(t);
    }
}
static void bursts(void)
{
    struct list b = get_list("wl.burst_ms");
    for (int i = 0; i < b.n; i++)
        task_new("job", i, job, (u64[]){ b.v[i] * 1000 * INSNS_PER_US }, 1);
}

static const struct tunable arrivals_t[] = {
    { "wl.jobs", K_INT, 1, 60, "40", NULL },
    { "wl.gap_us", K_INT, 0, 1000000, "10000", NULL },
    { "wl.burst_us", K_INT, 100, 1000000, "7000", NULL },
    { NULL },
};
/* SplitMix64, as the teaching kernel draws (runqueue_policies::lottery::SplitMix64). */
static u64 splitmix(u64 *s)
{
    u64 z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static void arrivals(void)
{
    u64 gap = arg("wl.gap_us"), burst = arg("wl.burst_us"), seed = arg("seed"), at = 0;
    for (int i = 0; i < arg("wl.jobs"); i++) {
        if (i)
            at += splitmix(&seed) % (2 * gap + 1);
        u64 b = burst / 2 + splitmix(&seed) % (burst + 1);
        struct task *t = task_new("job", i, job, (u64[]){ b * INSNS_PER_US }, 1);
        t->arrive_ns = at * 1000;
    }
}

const struct workload workloads[] = {
    { "fairness-equal", equal_t, equal },
    { "fairness-unequal", unequal_t, unequal },
    { "yield-speed", yield_t, yield_speed },
    { "realtime", realtime_t, realtime },
    { "occupy", occupy_t, occupy },
    { "spin", spin_t, spin_wl },
    { "intr", intr_t, intr },
    { "hackbench", hackbench_t, hackbench },
    { "cyclictest", cyclictest_t, cyclictest },
    { "deadline", deadline_t, deadline },
    { "bursts", bursts_t, bursts },
    { "arrivals", arrivals_t, arrivals },
    { NULL },
};

const struct workload *find_workload(const char *name)
{
    for (const struct workload *w = workloads; w->name; w++)
        if (!strcmp(w->name, name))
            return w;
    return NULL;
}
