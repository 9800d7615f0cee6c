/* Runqueue's init for Linux: mounts the kernel's interfaces, reads the workload words (from the
 * machine, or Linux's command line), sets Linux's knobs, runs the workload, prints the teaching
 * kernel's table and RESULT line, hands Linux's own ftrace to the Runqueue machine's trace
 * device, powers off. */
#include "rq.h"

int trace_on;
const char *sched_name;
int smp;
u64 housekeeping;
static int version_minor;

#define TRACING "/sys/kernel/tracing/"
#define SCHED_DEBUG "/sys/kernel/debug/sched/"

static void mounts(void)
{
    static const struct { const char *type, *dir; } fs[] = {
        { "proc", "/proc" }, { "sysfs", "/sys" }, { "devtmpfs", "/dev" },
        { "tracefs", "/sys/kernel/tracing" }, { "debugfs", "/sys/kernel/debug" }, { "cgroup2", "/sys/fs/cgroup" },
    };
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
        if (mount(fs[i].type, fs[i].dir, fs[i].type, 0, NULL) < 0 && i < 3)
            fail("cannot mount ", fs[i].dir);
}

/* The console as the teaching kernel's UART: a newline is a newline (no OPOST). */
static void raw_console(void)
{
    struct { uint32_t iflag, oflag, cflag, lflag; uint8_t line, cc[19]; } t;
    if (ioctl(1, 0x5401 /* TCGETS */, &t) == 0) {
        t.oflag &= ~1u; /* OPOST */
        ioctl(1, 0x5402 /* TCSETS */, &t);
    }
}

static void set_knob(const char *path, const char *value, const char *setting)
{
    if (write_file(path, value) < 0) {
        struct buf b = { 0 };
        put(&b, setting);
        put(&b, ": Linux refused '");
        put(&b, value);
        put(&b, "' (");
        put(&b, path);
        put(&b, ")");
        fail(b.p, "");
    }
}

static void knob_int(const char *setting, const char *path, u64 scale)
{
    if (!setting_given(setting))
        return;
    struct buf b = { 0 };
    puti(&b, get_int(setting) * (i64)scale);
    putc_(&b, 0);
    set_knob(path, b.p, setting);
}

static void only_on(const char *setting, int minor, const char *why)
{
    if (setting_given(setting) && version_minor != minor)
        fail(setting, why);
}

/* Linux's own knobs under the teaching kernel's names. */
static void knobs(void)
{
    only_on("cfs.latency_ns", 1, ": Linux 6.12 has EEVDF, whose only knob is eevdf.base_slice_ns");
    only_on("cfs.min_granularity_ns", 1, ": Linux 6.12 has EEVDF (eevdf.base_slice_ns took this knob's place)");
    only_on("cfs.wakeup_granularity_ns", 1, ": Linux 6.12 has EEVDF, which has no wakeup granularity");
    only_on("cfs.features", 1, ": Linux 6.12 has EEVDF: use eevdf.features");
    only_on("eevdf.base_slice_ns", 12, ": Linux 6.1 has CFS: use cfs.min_granularity_ns");
    only_on("eevdf.features", 12, ": Linux 6.1 has CFS: use cfs.features");
    only_on("dl.server_runtime_us", 12, ": the fair server came with Linux 6.12");
    only_on("dl.server_period_us", 12, ": the fair server came with Linux 6.12");
    knob_int("cfs.latency_ns", SCHED_DEBUG "latency_ns", 1);
    knob_int("cfs.min_granularity_ns", SCHED_DEBUG "min_granularity_ns", 1);
    knob_int("cfs.wakeup_granularity_ns", SCHED_DEBUG "wakeup_granularity_ns", 1);
    knob_int("eevdf.base_slice_ns", SCHED_DEBUG "base_slice_ns", 1);
    knob_int("sched_migration_cost_ns", SCHED_DEBUG "migration_cost_ns", 1);
    knob_int("sched_nr_migrate", SCHED_DEBUG "nr_migrate", 1);
    /* the period first: Linux refuses a runtime above the period in force */
    knob_int("rt.period_us", "/proc/sys/kernel/sched_rt_period_us", 1);
    knob_int("rt.runtime_us", "/proc/sys/kernel/sched_rt_runtime_us", 1);
    knob_int("rt.rr_slice_ms", "/proc/sys/kernel/sched_rr_timeslice_ms", 1);
    knob_int("timer_migration", "/proc/sys/kernel/timer_migration", 1);
    for (int cpu = 0; cpu < smp; cpu++) {
        struct buf dir = { 0 };
        put(&dir, SCHED_DEBUG "fair_server/cpu");
        putu(&dir, cpu);
        struct buf p = dir, r = { 0 };
        p.p = NULL, p.len = p.cap = 0;
        putn(&p, dir.p, dir.len);
        put(&p, "/period");
        putc_(&p, 0);
        putn(&r, dir.p, dir.len);
        put(&r, "/runtime");
        putc_(&r, 0);
        knob_int("dl.server_period_us", p.p, 1000);
        knob_int("dl.server_runtime_us", r.p, 1000);
    }
    const char *features = get_text(version_minor == 1 ? "cfs.features" : "eevdf.features");
    char *rest = strdup(features);
    for (char *f; (f = token(&rest, ","));)
        set_knob(SCHED_DEBUG "features", f, version_minor == 1 ? "cfs.features" : "eevdf.features");
}

static const char *const events[] = {
    "sched/sched_switch", "sched/sched_wakeup", "sched/sched_wakeup_new", "sched/sched_migrate_task", "sched/sched_process_exit",
};

static void tracing_start(void)
{
    if (!trace_on)
        return;
    /* 6.12 boots with the buffer at this size already (trace_buf_size=8M, linux/config/
     * common.config) and this write allocates nothing; 6.1 boots without it and allocates here. */
    set_knob(TRACING "buffer_size_kb", "8192", "trace");
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        struct buf p = { 0 };
        put(&p, TRACING "events/");
        put(&p, events[i]);
        put(&p, "/enable");
        putc_(&p, 0);
        set_knob(p.p, "1", "trace");
    }
    set_knob(TRACING "tracing_on", "1", "trace");
}

#define TRACE_DEVICE 0x10200000UL
#define TRACE_PIECE 4096
/* The trace device's registers, as 64-bit words: the address and length of a piece to copy to
 * the trace, and the address the machine writes the run's words to. */
enum { DEV_PIECE_ADDR = 0, DEV_PIECE_LEN = 1, DEV_WORDS = 3 };

/* The buffer the machine reserved for handing things to and from the host
 * (/reserved-memory/runqueue-trace) and the trace device, both mapped through /dev/mem; on a
 * machine without them (QEMU) `buf` stays NULL. */
static struct { char *buf; u64 base, size; volatile u64 *dev; } handover;

static void handover_map(void)
{
    unsigned char reg[16];
    int rfd = open("/sys/firmware/devicetree/base/reserved-memory/runqueue-trace/reg", O_RDONLY);
    if (rfd < 0)
        return;
    int ok = read(rfd, reg, sizeof reg) == sizeof reg;
    close(rfd);
    if (!ok)
        fail("the trace buffer's reg is not two 64-bit cells", "");
    for (int i = 0; i < 8; i++) {
        handover.base = handover.base << 8 | reg[i];
        handover.size = handover.size << 8 | reg[8 + i];
    }
    int mem = open("/dev/mem", O_RDWR | O_SYNC);
    if (mem < 0)
        fail("cannot open /dev/mem for the trace device", "");
    char *buf = mmap(NULL, handover.size, PROT_READ | PROT_WRITE, MAP_SHARED, mem, handover.base);
    volatile u64 *dev = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mem, TRACE_DEVICE);
    if (buf == MAP_FAILED || (void *)dev == MAP_FAILED)
        fail("cannot map the trace buffer or the trace device", "");
    handover.buf = buf;
    handover.dev = dev;
}

/* The run's words. On the Runqueue machine they come from the host once the init asks, not
 * from Linux's command line (which holds only the words Linux itself reads), so every run
 * whose kernel words are the same boots the same up to here and the host may start it from a
 * snapshot taken at this request. Elsewhere (QEMU) they are Linux's command line. */
static void read_words(char *line, size_t cap)
{
    if (handover.buf) {
        static char own[4200];
        if (read_file("/proc/cmdline", own, sizeof own) < 0)
            fail("cannot read /proc/cmdline", "");
        linux_cmdline = own;
        handover.dev[DEV_WORDS] = handover.base;
        size_t n = strnlen(handover.buf, cap - 1);
        memcpy(line, handover.buf, n);
        line[n] = 0;
        return;
    }
    if (read_file("/proc/cmdline", line, cap) < 0)
        fail("cannot read /proc/cmdline", "");
    for (char *c = line; *c; c++)
        if (*c == '\n')
            *c = 0;
}

/* Hands `len` bytes at the start of the hand-over buffer to the trace device, a piece at a time:
 * the device copies each piece from physical memory. */
static void hand_over(size_t len)
{
    for (size_t at = 0; at < len; at += TRACE_PIECE) {
        handover.dev[DEV_PIECE_ADDR] = handover.base + at;
        handover.dev[DEV_PIECE_LEN] = len - at < TRACE_PIECE ? len - at : TRACE_PIECE;
    }
}

/* Linux's own text of the trace (`ftrace.read=text`): the `trace` file, as Linux formats it. */
static void trace_text_dump(void)
{
    int fd = open(TRACING "trace", O_RDONLY);
    if (fd < 0)
        fail("cannot read " TRACING "trace", "");
    for (ssize_t n; (n = read(fd, handover.buf, handover.size)) > 0;)
        hand_over(n);
    close(fd);
}

/* The raw container (report/src/ftrace_raw.rs reads it): the magic line, then sections, each a
 * line `NAME LENGTH` and LENGTH bytes. Bytes gather in the hand-over buffer, which is handed to
 * the device whenever the next bytes would not fit. */
static size_t raw_fill;

static void raw_bytes(const char *p, size_t n)
{
    while (n) {
        if (raw_fill == handover.size) {
            hand_over(raw_fill);
            raw_fill = 0;
        }
        size_t room = handover.size - raw_fill, take = n < room ? n : room;
        memcpy(handover.buf + raw_fill, p, take);
        raw_fill += take, p += take, n -= take;
    }
}

static void raw_section(const char *name, const char *p, size_t n)
{
    struct buf head = { 0 };
    put(&head, name);
    putc_(&head, ' ');
    putu(&head, n);
    putc_(&head, '\n');
    raw_bytes(head.p, head.len);
    free(head.p);
    raw_bytes(p, n);
}

/* A whole tracefs file as a section named after its path under tracing/ (`saved_cmdlines`,
 * `events/sched/sched_switch/format`, `per_cpu/cpu0/stats`). */
static void raw_file(const char *path)
{
    static char text[16384];
    struct buf p = { 0 };
    put(&p, TRACING);
    put(&p, path);
    putc_(&p, 0);
    long n = read_file(p.p, text, sizeof text);
    if (n < 0)
        fail("cannot read ", p.p);
    free(p.p);
    raw_section(path, text, n);
}

/* Linux's trace in its binary form: each CPU's ring-buffer pages from trace_pipe_raw (after its
 * stats, which count the events before the read consumes them), with what the host needs to
 * print them as the `trace` file would: the events' formats, the pid-to-comm map and the number
 * of CPUs online. Linux formatting the text itself costs more than the whole workload. */
static void trace_raw_dump(void)
{
    static const char magic[] = "# runqueue ftrace raw 1\n";
    static char page[4096];
    raw_bytes(magic, sizeof magic - 1);
    struct buf online = { 0 };
    putu(&online, cpus_online());
    raw_section("online", online.p, online.len);
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        struct buf p = { 0 };
        put(&p, "events/");
        put(&p, events[i]);
        put(&p, "/format");
        putc_(&p, 0);
        raw_file(p.p);
        free(p.p);
    }
    raw_file("events/ftrace/print/format");
    raw_file("saved_cmdlines");
    for (int cpu = 0;; cpu++) {
        struct buf dir = { 0 }, stats = { 0 }, pipe = { 0 };
        put(&dir, "per_cpu/cpu");
        putu(&dir, cpu);
        putn(&stats, dir.p, dir.len);
        put(&stats, "/stats");
        putc_(&stats, 0);
        put(&pipe, TRACING);
        putn(&pipe, dir.p, dir.len);
        put(&pipe, "/trace_pipe_raw");
        putc_(&pipe, 0);
        int fd = open(pipe.p, O_RDONLY | O_NONBLOCK);
        if (fd < 0)
            break;
        raw_file(stats.p);
        putc_(&dir, 0);
        for (ssize_t n; (n = read(fd, page, sizeof page)) > 0;)
            raw_section(dir.p, page, n);
        close(fd);
        free(dir.p), free(stats.p), free(pipe.p);
    }
    hand_over(raw_fill);
}

/* The trace goes to the Runqueue trace device through the hand-over buffer, raw by default
 * (`ftrace.read=raw`), as Linux's text (`text`), or both, the text first, as reading the text
 * leaves the buffer as it is and reading the pages consumes them (`both`). On a machine
 * without the device there is nothing to do. */
static void trace_dump(void)
{
    enum { READ_RAW, READ_TEXT, READ_BOTH };
    if (!trace_on)
        return;
    write_file(TRACING "tracing_on", "0");
    if (!handover.buf)
        return;
    int read = get_choice("ftrace.read");
    if (read != READ_RAW)
        trace_text_dump();
    if (read != READ_TEXT)
        trace_raw_dump();
}

int main(void)
{
    static char cmdline[4200];
    struct utsname u;
    housekeeping = own_cpus();
    mounts();
    raw_console();
    handover_map();
    read_words(cmdline, sizeof cmdline);
    uname(&u);
    version_minor = strncmp(u.release, "6.1.", 4) == 0 ? 1 : 12;
    static char name[24];
    strcpy(name, version_minor == 1 ? "linux-6.1" : "linux-6.12");
    /* A PREEMPT_RT build says so in its version string ("#1 SMP PREEMPT_RT ..."). */
    for (const char *v = u.version; *v; v++)
        if (!strncmp(v, "PREEMPT_RT", 10)) {
            strcpy(name + strlen(name), "-rt");
            break;
        }
    sched_name = name;
    parse_args(cmdline, u.release);
    smp = get_int("smp");
    if (cpus_online() < smp)
        fail("smp: the machine has fewer CPUs online than smp= asks for", "");
    trace_on = get_choice("trace") == 0;
    run = mmap(NULL, sizeof *run, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (run == MAP_FAILED)
        fail("cannot map shared memory", "");
    knobs();
    /* The init sets up and starts the tasks above all of them, then sleeps until they are done;
     * its children start as SCHED_NORMAL at nice 0 (SCHED_FLAG_RESET_ON_FORK) until set up. */
    sched_attr_set(0, 1 /* SCHED_FIFO */, 0, 99, 0, 0, 0, 1 /* SCHED_FLAG_RESET_ON_FORK */);
    find_workload(get_text("workload"))->spawn();
    for (int i = 0; i < run->count; i++)
        if (!run->tasks[i].affinity)
            run->tasks[i].affinity = housekeeping & ((1ull << smp) - 1);
    tracing_start();
    run_tasks();
    u64 end = 0;
    for (int i = 0; i < run->count; i++)
        end = run->tasks[i].finish_ns > end ? run->tasks[i].finish_ns : end;
    report(end);
    trace_dump();
    power_off(0);
}
