/* The run's words (from the machine, or /proc/cmdline): the same words as the teaching kernel's
 * where they mean the same thing on Linux. Words the init does not know are Linux's own
 * (console=, isolcpus=, ...) unless they look like a Runqueue setting (a dotted name, or one of
 * the teaching kernel's), which is an error naming what Linux accepts. On the Runqueue machine,
 * which gives Linux only the parameters it knows Linux reads, any other word is refused: Linux
 * never saw it. */
#include "rq.h"

#define MAX_WORDS 128

static const char *const on_off[] = { "on", "off", NULL };
static const char *const rt_policies[] = { "fifo", "rr", NULL };
static const char *const fair_policies[] = { "normal", "batch", "idle", NULL };
static const char *const trace_reads[] = { "raw", "text", "both", NULL };

/* Settings every workload takes. */
static const struct tunable globals[] = {
    { "workload", K_TEXT, 0, 0, "fairness-unequal", NULL },
    { "sched", K_TEXT, 0, 0, "", NULL },
    { "smp", K_INT, 1, 8, "1", NULL },
    { "seed", K_INT, 0, 4294967295LL, "0", NULL },
    { "trace", K_CHOICE, 0, 0, "on", on_off },
    /* how the trace leaves Linux: ring-buffer pages the host formats, Linux's own text, or the
     * text then the pages of the same buffer (for the test that compares the two) */
    { "ftrace.read", K_CHOICE, 0, 0, "raw", trace_reads },
    { "nice", K_LIST, -20, 19, "0", NULL },
    { "rtprio", K_LIST, 0, 99, "0", NULL },
    { "rtpolicy", K_CHOICE, 0, 0, "fifo", rt_policies },
    { "policy", K_LIST, 0, 2, "normal", fair_policies },
    { "affinity", K_LIST, 0, 255, "0", NULL },
    { "arrive_ms", K_LIST, 0, 60000, "0", NULL },
    { "slice_us", K_LIST, 0, 100000, "0", NULL },
    { "cgroup", K_TEXT, 0, 0, "", NULL },
    { "cpu.weight", K_TEXT, 0, 0, "", NULL },
    { "cpu.weight.nice", K_TEXT, 0, 0, "", NULL },
    { "cpu.max", K_TEXT, 0, 0, "", NULL },
    /* Linux's own knobs under the teaching kernel's names (setup.c writes them). */
    { "rt.runtime_us", K_INT, -1, 1000000000, "950000", NULL },
    { "rt.period_us", K_INT, 1, 1000000000, "1000000", NULL },
    { "rt.rr_slice_ms", K_INT, 1, 1000, "100", NULL },
    { "dl.server_runtime_us", K_INT, 0, 100000000, "50000", NULL },
    { "dl.server_period_us", K_INT, 1000, 100000000, "1000000", NULL },
    { "cfs.latency_ns", K_INT, 100000, 1000000000, "6000000", NULL },
    { "cfs.min_granularity_ns", K_INT, 100000, 1000000000, "750000", NULL },
    { "cfs.wakeup_granularity_ns", K_INT, 0, 1000000000, "1000000", NULL },
    { "cfs.features", K_FEATURES, 0, 0, "", NULL },
    { "eevdf.base_slice_ns", K_INT, 100000, 1000000000, "750000", NULL },
    { "eevdf.features", K_FEATURES, 0, 0, "", NULL },
    { "sched_migration_cost_ns", K_INT, 0, 1000000000, "500000", NULL },
    { "sched_nr_migrate", K_INT, 1, 64, "32", NULL },
    { "timer_migration", K_INT, 0, 1, "1", NULL },
    /* The machine's words: the emulator reads them; the init only accepts them. */
    { "cache.kb", K_TEXT, 0, 0, "", NULL },
    { "cache.line", K_TEXT, 0, 0, "", NULL },
    { "cache.ways", K_TEXT, 0, 0, "", NULL },
    { "cache.miss_ns", K_TEXT, 0, 0, "", NULL },
    { NULL },
};

/* The teaching kernel's settings that Linux has no counterpart for. */
static const char *const teaching_only[] = { "rq", "balance_ms", "tick_us", "idle", "warp_us", "tickets", NULL };

struct word { const char *key, *value; const struct tunable *t; };
static struct word words[MAX_WORDS];
static int nwords;
static const struct workload *workload;
const char *cmdline_text;
const char *linux_cmdline;

static const struct tunable *find(const struct tunable *table, const char *name)
{
    for (; table && table->name; table++)
        if (!strcmp(table->name, name))
            return table;
    return NULL;
}

static const struct tunable *tunable(const char *name)
{
    const struct tunable *t = find(globals, name);
    return t ? t : find(workload->tunables, name);
}

static const char *value_of(const char *name)
{
    for (int i = 0; i < nwords; i++)
        if (words[i].t && !strcmp(words[i].key, name))
            return words[i].value;
    const struct tunable *t = tunable(name);
    return t ? t->def : "";
}

int setting_given(const char *name)
{
    for (int i = 0; i < nwords; i++)
        if (words[i].t && !strcmp(words[i].key, name))
            return 1;
    return 0;
}

static int parse_int(const char *s, const char *end, i64 *out)
{
    int neg = 0;
    i64 v = 0;
    if (s < end && *s == '-') {
        neg = 1;
        s++;
    }
    if (s == end)
        return 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9' || v > 100000000000LL)
            return 0;
        v = v * 10 + (*s - '0');
    }
    *out = neg ? -v : v;
    return 1;
}

static int choice_index(const char *const *choices, const char *s, const char *end)
{
    for (int i = 0; choices[i]; i++)
        if ((size_t)(end - s) == strlen(choices[i]) && !strncmp(choices[i], s, end - s))
            return i;
    return -1;
}

/* Parses `text` as `t` wants; 0 if it is not valid. */
static int parse_value(const struct tunable *t, const char *text, struct list *out)
{
    struct list l = { 0 };
    const char *s = text, *end = text + strlen(text);
    switch (t->kind) {
    case K_TEXT:
    case K_FEATURES:
        return 1;
    case K_CHOICE:
        l.v[l.n++] = choice_index(t->choices, s, end);
        break;
    case K_INT:
        if (!parse_int(s, end, &l.v[0]) || l.v[0] < t->min || l.v[0] > t->max)
            return 0;
        l.n = 1;
        break;
    case K_LIST:
        for (;;) {
            const char *comma = strchr(s, ',');
            const char *item_end = comma ? comma : end;
            i64 v;
            if (l.n == MAX_LIST)
                return 0;
            if (t->choices) {
                v = choice_index(t->choices, s, item_end);
                if (v < 0)
                    return 0;
            } else if (!parse_int(s, item_end, &v) || v < t->min || v > t->max) {
                return 0;
            }
            l.v[l.n++] = v;
            if (!comma)
                break;
            s = comma + 1;
        }
        break;
    }
    if (t->kind == K_CHOICE && l.v[0] < 0)
        return 0;
    if (out)
        *out = l;
    return 1;
}

static struct list value_list(const char *name)
{
    const struct tunable *t = tunable(name);
    struct list l = { 0 };
    if (t)
        parse_value(t, value_of(name), &l);
    return l;
}

i64 get_int(const char *name) { return value_list(name).v[0]; }
int get_choice(const char *name) { return (int)value_list(name).v[0]; }
const char *get_text(const char *name) { return value_of(name); }
struct list get_list(const char *name) { return value_list(name); }

static void bad(const char *what, const char *word, const char *tail)
{
    struct buf b = { 0 };
    put(&b, what);
    put(&b, word);
    put(&b, tail);
    fail(b.p, "");
}

static void describe(struct buf *b, const struct tunable *t)
{
    switch (t->kind) {
    case K_INT:
    case K_LIST:
        put(b, t->kind == K_LIST ? "comma-separated integers in " : "an integer in ");
        puti(b, t->min);
        put(b, "..=");
        puti(b, t->max);
        break;
    default:
        put(b, "one of ");
        for (int i = 0; t->choices && t->choices[i]; i++) {
            put(b, i ? ", " : "");
            put(b, t->choices[i]);
        }
    }
}

static void list_names(struct buf *b, const struct tunable *t)
{
    for (; t && t->name; t++) {
        put(b, ", ");
        put(b, t->name);
    }
}

/* Whether Linux's own command line has the parameter `key` (as `key` or `key=...`). */
static int on_linux_cmdline(const char *key)
{
    size_t n = strlen(key);
    for (const char *p = linux_cmdline; *p; p++)
        if ((p == linux_cmdline || p[-1] == ' ') && !strncmp(p, key, n) && (p[n] == '=' || p[n] == ' ' || p[n] == 0 || p[n] == '\n'))
            return 1;
    return 0;
}

void parse_args(const char *cmdline, const char *release)
{
    (void)release;
    cmdline_text = cmdline;
    char *rest = strdup(cmdline);
    const char *name = "fairness-unequal";
    for (char *w; (w = token(&rest, " \t\n"));) {
        if (nwords == MAX_WORDS)
            fail("too many words on the command line", "");
        char *eq = strchr(w, '=');
        words[nwords].key = w;
        words[nwords].value = "";
        if (eq) {
            *eq = 0;
            words[nwords].value = eq + 1;
        }
        if (!strcmp(w, "workload"))
            name = words[nwords].value;
        nwords++;
    }
    workload = find_workload(name);
    if (!workload) {
        struct buf b = { 0 };
        put(&b, "unknown workload '");
        put(&b, name);
        put(&b, "'; accepted on Linux: ");
        for (const struct workload *w = workloads; w->name; w++) {
            put(&b, w == workloads ? "" : ", ");
            put(&b, w->name);
        }
        fail(b.p, "");
    }
    for (int i = 0; i < nwords; i++) {
        struct word *w = &words[i];
        w->t = tunable(w->key);
        for (int j = 0; w->t && j < i; j++)
            if (words[j].t && !strcmp(words[j].key, w->key))
                bad("argument '", w->key, "' given twice");
        for (int j = 0; teaching_only[j]; j++)
            if (!strcmp(w->key, teaching_only[j]))
                bad("argument '", w->key, "' is the teaching kernel's: Linux has no such setting");
        if (!w->t) {
            int dotted = strchr(w->key, '.') != NULL;
            int theirs = !strncmp(w->key, "host.", 5) || !strncmp(w->key, "cache.", 6);
            if (dotted && !theirs) {
                struct buf b = { 0 };
                put(&b, "unknown argument '");
                put(&b, w->key);
                put(&b, "'; accepted on Linux: the kernel's own parameters");
                list_names(&b, globals);
                put(&b, ", and ");
                put(&b, workload->name);
                put(&b, "'s:");
                list_names(&b, workload->tunables);
                fail(b.p, "");
            }
            if (linux_cmdline && !on_linux_cmdline(w->key))
                bad("argument '", w->key,
                    "' is neither the init's nor one of Linux's parameters the Runqueue machine passes to Linux"
                    " (console, quiet, isolcpus, nohz_full, rcu_nocbs, irqaffinity, threadirqs, preempt, ...: linux/README.md)");
            continue; /* Linux's own parameter, or the machine's */
        }
        if (!parse_value(w->t, w->value, NULL)) {
            struct buf b = { 0 };
            put(&b, "bad value '");
            put(&b, w->value);
            put(&b, "' for ");
            put(&b, w->key);
            put(&b, ": expected ");
            describe(&b, w->t);
            fail(b.p, "");
        }
    }
}
