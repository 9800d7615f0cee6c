/* The system calls the workloads need that nolibc does not wrap, and the machine's own
 * devices: the trace device and the test finisher, reached through /dev/mem. */
#include "rq.h"

struct ts { i64 sec, nsec; };

u64 now_ns(void)
{
    struct ts t;
    my_syscall2(__NR_clock_gettime, 1 /* CLOCK_MONOTONIC */, &t);
    return (u64)t.sec * 1000000000u + (u64)t.nsec;
}

/* Returns at once when `at` has passed, as POSIX says clock_nanosleep does and as the teaching
 * kernel's sleep_until does: Linux would still arm its timer and sleep until the timer's
 * interrupt, some 30 us, and a constrained deadline task woken past its deadline by that is
 * throttled until its next period (dl_check_constrained_dl), which would make the late jobs of
 * the deadline workload start at period boundaries on Linux and not on ours. */
void sleep_until_ns(u64 at)
{
    if (at <= now_ns())
        return;
    struct ts t = { (i64)(at / 1000000000u), (i64)(at % 1000000000u) };
    /* TIMER_ABSTIME; a signal cannot interrupt it here (the init catches none). */
    while (my_syscall4(__NR_clock_nanosleep, 1, 1, &t, NULL) != 0)
        ;
}

void sleep_ns(u64 ns) { sleep_until_ns(now_ns() + ns); }

/* `insns` instructions whatever the compiler does: addi + bnez, two a turn (the teaching
 * kernel's work.rs does the same). */
void spin(u64 insns)
{
    u64 turns = insns / 2;
    if (!turns)
        return;
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(turns));
}

void spin_ns(u64 ns) { spin(ns * INSNS_PER_US / 1000); }

/* struct sched_attr (include/uapi/linux/sched/types.h), size 56 (SCHED_ATTR_SIZE_VER1). */
struct sched_attr {
    uint32_t size, policy;
    u64 flags;
    int32_t nice;
    uint32_t priority;
    u64 runtime, deadline, period;
    uint32_t util_min, util_max;
};

int sched_attr_set(int pid, int policy, int nice, int prio, u64 runtime, u64 deadline, u64 period, u64 flags)
{
    struct sched_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.policy = policy;
    a.flags = flags;
    a.nice = nice;
    a.priority = prio;
    a.runtime = runtime;
    a.deadline = deadline;
    a.period = period;
    return my_syscall3(__NR_sched_setattr, pid, &a, 0);
}

int set_affinity(int pid, u64 mask)
{
    return my_syscall3(__NR_sched_setaffinity, pid, sizeof mask, &mask);
}

int futex_wait(volatile uint32_t *addr, uint32_t val)
{
    return my_syscall6(__NR_futex, addr, 0 /* FUTEX_WAIT */, val, NULL, NULL, 0);
}

int futex_wake(volatile uint32_t *addr, int n)
{
    return my_syscall6(__NR_futex, addr, 1 /* FUTEX_WAKE */, n, NULL, NULL, 0);
}

int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    size_t len = strlen(text);
    int ok = write(fd, text, len) == (ssize_t)len;
    close(fd);
    return ok ? 0 : -1;
}

long read_file(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    size_t len = 0;
    for (;;) {
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n <= 0)
            break;
        len += n;
    }
    close(fd);
    buf[len] = 0;
    return len;
}

/* CPUs online, from /sys/devices/system/cpu/online ("0-2", "0,2-3"). */
int cpus_online(void)
{
    char text[64];
    if (read_file("/sys/devices/system/cpu/online", text, sizeof text) <= 0)
        return 1;
    int n = 0;
    char *rest = text;
    for (char *range; (range = token(&rest, ",\n"));) {
        char *dash = strchr(range, '-');
        n += dash ? atoi(dash + 1) - atoi(range) + 1 : 1;
    }
    return n;
}

u64 own_cpus(void)
{
    u64 mask = 0;
    my_syscall3(__NR_sched_getaffinity, 0, sizeof mask, &mask);
    return mask;
}

#define FINISHER 0x100000UL

/* Exit code 0: SBI system reset (shutdown), as Linux powers off. Any other: the test finisher
 * (QEMU virt's sifive_test, which the Runqueue machine has too) carries the code. */
void power_off(int code)
{
    if (code) {
        int fd = open("/dev/mem", O_RDWR | O_SYNC);
        if (fd >= 0) {
            volatile uint32_t *f = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, FINISHER);
            if (f != MAP_FAILED)
                *f = 0x3333 | (uint32_t)code << 16;
        }
    }
    my_syscall4(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_POWER_OFF, 0);
    for (;;)
        ;
}
