/* A workload's tasks as Linux processes. The init creates them all, gives each its policy,
 * nice, affinity and cgroup with the real interfaces, then starts them together: each waits on a
 * futex until the workload's start, as the teaching kernel's tasks all become runnable at once.
 * A task measures itself (first run, finish, and /proc/self/schedstat's CPU time, run-queue
 * wait and times switched in) into memory the init shares with it. */
#include "rq.h"

struct shared *run;
static volatile uint32_t *ready, *finished;

struct task *task_new(const char *name, int index, void (*entry)(struct task *, const u64 *), const u64 *args, int nargs)
{
    if (run->count == MAX_TASKS)
        fail("too many tasks (at most 64)", "");
    struct task *t = &run->tasks[run->count++];
    struct buf b = { 0 };
    put(&b, name);
    if (index >= 0)
        putu(&b, index);
    memcpy(t->name, b.p, b.len < 15 ? b.len : 15);
    free(b.p);
    t->entry = entry;
    for (int i = 0; i < nargs && i < 6; i++)
        t->args[i] = args[i];
    return t;
}

/* The workload's own events go to ftrace through trace_marker, opened once per task before the
 * start so that a mark costs one write. */
static int marker = -1;

void iteration_done(struct task *t)
{
    t->iterations++;
    mark("iter", t->iterations);
}

/* key=value on one line of the trace (the buffer fits any key here and a 64-bit value). */
void mark(const char *key, u64 value)
{
    if (marker < 0)
        return;
    char text[48];
    struct buf b = { text, 0, sizeof text };
    put(&b, key);
    putc_(&b, '=');
    putu(&b, value);
    write(marker, b.p, b.len);
}

void latency_sample(struct task *t, u64 ns)
{
    struct lat *l = &t->lat;
    t->measures_latency = 1;
    if (!l->samples || ns < l->min_ns)
        l->min_ns = ns;
    if (ns > l->max_ns)
        l->max_ns = ns;
    l->sum_ns += ns;
    l->samples++;
    u64 bucket = ns / 1000;
    l->hist_us[bucket < LAT_BUCKETS ? bucket : LAT_BUCKETS - 1]++;
    mark("lat", ns);
}

/* /proc/self/schedstat: ns on a CPU, ns waiting on a run queue, times run. */
static void schedstat(u64 out[3])
{
    char text[96];
    out[0] = out[1] = out[2] = 0;
    if (read_file("/proc/self/schedstat", text, sizeof text) <= 0)
        return;
    char *s = text;
    for (int i = 0; i < 3; i++) {
        while (*s == ' ')
            s++;
        while (*s >= '0' && *s <= '9')
            out[i] = out[i] * 10 + (*s++ - '0');
    }
}

static void task_main(struct task *t)
{
    u64 before[3], after[3];
    if (trace_on)
        marker = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
    schedstat(before);
    __atomic_add_fetch(ready, 1, __ATOMIC_SEQ_CST);
    futex_wake(ready, 1);
    while (!run->go)
        futex_wait(&run->go, 0);
    if (t->arrive_ns)
        sleep_until_ns(run->start_ns + t->arrive_ns);
    t->first_ns = now_ns() - run->start_ns;
    t->entry(t, t->args);
    t->finish_ns = now_ns() - run->start_ns;
    schedstat(after);
    t->cpu_ns = after[0] - before[0];
    t->wait_ns = after[1] - before[1];
    t->switches = after[2] - before[2];
    if (__atomic_add_fetch(finished, 1, __ATOMIC_SEQ_CST) == (uint32_t)run->count)
        futex_wake(finished, 1);
    exit(0);
}

/* cgroup= names a group per task ("a,a/x,b*3"); the n-th task's group, or NULL. */
static const char *group_of(int n)
{
    static char groups[MAX_TASKS][32];
    static int parsed = -1;
    if (parsed < 0) {
        parsed = 0;
        char *rest = strdup(get_text("cgroup"));
        for (char *item; parsed < MAX_TASKS && (item = token(&rest, ","));) {
            char *star = strchr(item, '*');
            int times = 1;
            if (star) {
                *star = 0;
                times = atoi(star + 1);
                if (times < 1)
                    fail("cgroup: bad repeat count after '*' in ", item);
            }
            if (!*item || strlen(item) > 24)
                fail("cgroup: bad group name ", item);
            while (times-- > 0 && parsed < MAX_TASKS)
                strcpy(groups[parsed++], item);
        }
    }
    return n < parsed ? groups[n] : NULL;
}

static void cg_write(const char *group, const char *file, const char *text)
{
    struct buf p = { 0 };
    put(&p, "/sys/fs/cgroup/");
    if (group) {
        put(&p, group);
        putc_(&p, '/');
    }
    put(&p, file);
    putc_(&p, 0);
    if (write_file(p.p, text) < 0) {
        struct buf b = { 0 };
        put(&b, p.p);
        put(&b, " refused '");
        put(&b, text);
        put(&b, "'");
        fail("cgroup: ", b.p);
    }
    free(p.p);
}

/* Makes `group` and its parents, each with the cpu controller enabled for its children. */
static void cg_make(const char *group)
{
    char path[64] = "/sys/fs/cgroup/";
    char *end = path + strlen(path);
    strcpy(end, group);
    for (char *s = end;; s++) {
        if (*s == '/' || !*s) {
            char c = *s;
            *s = 0;
            mkdir(path, 0755);
            *s = c;
            if (!c)
                break;
        }
    }
    /* enable +cpu down the path */
    char parent[64];
    strcpy(parent, group);
    for (char *slash = strrchr(parent, '/'); slash; slash = strrchr(parent, '/')) {
        *slash = 0;
        cg_write(parent, "cgroup.subtree_control", "+cpu");
    }
}

/* GROUP:VALUE,... of a text setting, applied with `apply`. */
static void per_group(const char *setting, void (*apply)(const char *group, const char *value))
{
    char *rest = strdup(get_text(setting));
    for (char *item; (item = token(&rest, ","));) {
        char *colon = strchr(item, ':');
        if (!colon)
            fail(setting, ": expected GROUP:VALUE items");
        *colon = 0;
        cg_make(item);
        apply(item, colon + 1);
    }
}

struct group_stat limited[MAX_LIMITED];
int nlimited;

/* cpu.stat's counters of group `into`, added to it with `sign` (so the start's are taken away). */
static void add_cpu_stat(struct group_stat *into, int sign)
{
    static const char *const keys[] = { "nr_periods", "nr_throttled", "throttled_usec" };
    u64 *fields[] = { &into->nr_periods, &into->nr_throttled, &into->throttled_usec };
    char path[64] = "/sys/fs/cgroup/", text[512];
    strlcat(path, into->name, sizeof path);
    strlcat(path, "/cpu.stat", sizeof path);
    if (read_file(path, text, sizeof text) < 0)
        fail("cgroup: cannot read ", path);
    /* one "key value" per line */
    char *rest = text;
    for (char *line; (line = token(&rest, "\n"));) {
        char *space = strchr(line, ' ');
        if (!space)
            continue;
        *space = 0;
        for (int k = 0; k < 3; k++)
            if (!strcmp(line, keys[k]))
                *fields[k] += sign * atol(space + 1);
    }
}

static void set_weight(const char *g, const char *v) { cg_write(g, "cpu.weight", v); }
static void set_weight_nice(const char *g, const char *v) { cg_write(g, "cpu.weight.nice", v); }
static void set_max(const char *g, const char *v)
{
    /* QUOTA/PERIOD in us (PERIOD defaults to 100000), as Linux's "QUOTA PERIOD". */
    char text[48];
    const char *slash = strchr(v, '/');
    size_t n = slash ? (size_t)(slash - v) : strlen(v);
    if (n > 20 || (slash && strlen(slash + 1) > 20))
        fail("cpu.max: bad value ", v);
    memcpy(text, v, n);
    text[n] = ' ';
    strcpy(text + n + 1, slash ? slash + 1 : "100000");
    cg_write(g, "cpu.max", text);
    if (nlimited == MAX_LIMITED)
        fail("cpu.max: at most 16 groups", "");
    strcpy(limited[nlimited++].name, g);
}

static void setup_groups(void)
{
    if (!*get_text("cgroup") && !*get_text("cpu.weight") && !*get_text("cpu.max") && !*get_text("cpu.weight.nice"))
        return;
    cg_write(NULL, "cgroup.subtree_control", "+cpu");
    for (int i = 0; i < run->count; i++)
        if (group_of(i))
            cg_make(group_of(i));
    per_group("cpu.weight", set_weight);
    per_group("cpu.weight.nice", set_weight_nice);
    per_group("cpu.max", set_max);
}

/* The command line's per-task lists over what the workload chose, n-th value for the n-th task. */
static void apply_lists(void)
{
    struct list nice = get_list("nice"), rtprio = get_list("rtprio"), policy = get_list("policy");
    struct list affinity = get_list("affinity"), arrive = get_list("arrive_ms"), slice = get_list("slice_us");
    int rr = get_choice("rtpolicy") == 1;
    for (int i = 0; i < run->count; i++) {
        struct task *t = &run->tasks[i];
        if (setting_given("nice") && i < nice.n)
            t->nice = nice.v[i];
        if (setting_given("rtprio") && i < rtprio.n) {
            t->prio = rtprio.v[i];
            t->policy = t->prio ? (rr ? 2 : 1) : 0;
        }
        if (setting_given("policy") && i < policy.n && t->policy != 1 && t->policy != 2)
            t->policy = (int[]){ 0, 3, 5 }[policy.v[i]];
        if (setting_given("affinity") && i < affinity.n)
            t->affinity = affinity.v[i];
        if (setting_given("arrive_ms") && i < arrive.n)
            t->arrive_ns = arrive.v[i] * 1000000;
        if (setting_given("slice_us") && i < slice.n)
            t->slice_ns = slice.v[i] * 1000;
        t->cgroup = group_of(i);
    }
}

/* The init's pid as text, for cgroup.procs. */
static char *pid_text(int pid)
{
    struct buf b = { 0 };
    putu(&b, pid);
    putc_(&b, 0);
    return b.p;
}

/* What a child inherits at fork: its name, its CPUs and its cgroup are the init's, so the init
 * takes the next task's before forking it (the task never runs anywhere else), and the task's
 * policy is set on it after (the init's is not inherited: SCHED_FLAG_RESET_ON_FORK). */
static void become(const struct task *t)
{
    prctl(PR_SET_NAME, (long)(t ? t->name : "init"), 0, 0, 0);
    if (set_affinity(0, t && t->affinity ? t->affinity : housekeeping) < 0 && t)
        fail("sched_setaffinity refused the affinity of ", t->name);
    if (*get_text("cgroup")) {
        char *pid = pid_text(getpid());
        cg_write(t ? t->cgroup : NULL, "cgroup.procs", pid);
        free(pid);
    }
}

static void configure(struct task *t)
{
    int fair = t->policy == 0 || t->policy == 3 || t->policy == 5;
    u64 runtime = t->policy == 6 ? t->dl_runtime : (fair ? t->slice_ns : 0);
    int err = sched_attr_set(t->pid, t->policy, fair ? t->nice : 0, fair ? 0 : t->prio, runtime, t->dl_deadline, t->dl_period, 0);
    if (err == -16 /* EBUSY */)
        fail(t->name, ": Linux's admission control refused its SCHED_DEADLINE reservation: the deadline tasks' "
                      "runtime/period (with Linux 6.12's fair servers, dl.server_runtime_us per dl.server_period_us on "
                      "each CPU) would exceed rt.runtime_us/rt.period_us of the CPUs");
    if (err < 0)
        fail("sched_setattr refused the settings of ", t->name);
}

void run_tasks(void)
{
    ready = &run->ready;
    finished = &run->finished;
    apply_lists();
    setup_groups();
    for (int i = 0; i < run->count; i++) {
        struct task *t = &run->tasks[i];
        become(t);
        int pid = fork();
        if (pid < 0)
            fail("fork failed for ", t->name);
        if (pid == 0)
            task_main(t);
        t->pid = pid;
        configure(t);
    }
    become(NULL);
    close_task_fds();
    for (uint32_t r; (r = *ready) < (uint32_t)run->count;)
        futex_wait(ready, r);
    for (int g = 0; g < nlimited; g++)
        add_cpu_stat(&limited[g], -1);
    /* The start in the trace (`mark start=`): what happened before it is the set-up. */
    if (trace_on)
        marker = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
    mark("start", 0);
    run->start_ns = now_ns();
    __atomic_store_n(&run->go, 1, __ATOMIC_SEQ_CST);
    futex_wake(&run->go, 0x7fffffff);
    for (uint32_t f; (f = *finished) < (uint32_t)run->count;)
        futex_wait(finished, f);
    for (int g = 0; g < nlimited; g++)
        add_cpu_stat(&limited[g], 1);
    for (int i = 0; i < run->count; i++)
        wait4(run->tasks[i].pid, NULL, 0, NULL);
}
