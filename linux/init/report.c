/* The end of a run, in the teaching kernel's format (docs/trace.md, kernel/src/report.rs): a
 * table for people, then one RESULT line. A task's tid is its Linux pid, as in the trace. */
#include "rq.h"

static void row(struct buf *b, const char *cells[10])
{
    static const int width[10] = { 4, 16, 12, 12, 12, 14, 12, 12, 10, 12 };
    for (int i = 0; i < 10; i++) {
        if (i == 1) {
            put(b, "  ");
            pad_right(b, cells[i], width[i]);
        } else {
            pad_left(b, cells[i], width[i]);
        }
    }
    putc_(b, '\n');
}

static char *text_ms(u64 ns)
{
    struct buf b = { 0 };
    putms(&b, ns, 0);
    putc_(&b, 0);
    return b.p;
}

static char *text_u(u64 v)
{
    struct buf b = { 0 };
    putu(&b, v);
    putc_(&b, 0);
    return b.p;
}

static u64 response(const struct task *t) { return t->first_ns > t->arrive_ns ? t->first_ns - t->arrive_ns : 0; }

static void table(struct buf *b, u64 time)
{
    put(b, "\n");
    put(b, get_text("workload"));
    put(b, " under ");
    put(b, sched_name);
    put(b, " on ");
    putu(b, smp);
    put(b, " hart(s): ");
    putms(b, time, 0);
    put(b, " ms\n");
    row(b, (const char *[]){ "tid", "name", "arrive_ms", "response_ms", "finish_ms", "turnaround_ms", "cpu_ms", "wait_ms", "switches", "iterations" });
    u64 busy = 0;
    for (int i = 0; i < run->count; i++) {
        const struct task *t = &run->tasks[i];
        char *cells[10] = { text_u(t->pid), (char *)t->name, text_ms(t->arrive_ns), text_ms(response(t)), text_ms(t->finish_ns),
                            text_ms(t->finish_ns - t->arrive_ns), text_ms(t->cpu_ns), text_ms(t->wait_ns), text_u(t->switches),
                            text_u(t->iterations) };
        row(b, (const char **)cells);
        for (int c = 0; c < 10; c++)
            if (c != 1)
                free(cells[c]);
        busy += t->cpu_ns;
    }
    /* thousandths, printed as milliseconds print ns */
    u64 span = time ? time : 1;
    put(b, "throughput ");
    putms(b, (u64)run->count * 1000000000000000u / span, 0);
    put(b, " tasks/s, utilisation ");
    putms(b, busy * 100000 / (span * smp) * 1000, 0);
    put(b, " %\n");
}

static void key_u(struct buf *b, const char *key, u64 v)
{
    put(b, ",\"");
    put(b, key);
    put(b, "\":");
    putu(b, v);
}

static void result(struct buf *b, u64 time)
{
    put(b, "RESULT {\"version\":1,\"workload\":");
    json_str(b, get_text("workload"));
    put(b, ",\"sched\":");
    json_str(b, sched_name);
    key_u(b, "smp", smp);
    key_u(b, "seed", get_int("seed"));
    put(b, ",\"args\":");
    json_str(b, cmdline_text);
    key_u(b, "time_ns", time);
    put(b, ",\"tasks\":[");
    for (int i = 0; i < run->count; i++) {
        const struct task *t = &run->tasks[i];
        put(b, i ? ",{\"tid\":" : "{\"tid\":");
        putu(b, t->pid);
        put(b, ",\"name\":");
        json_str(b, t->name);
        key_u(b, "arrive_ns", t->arrive_ns);
        key_u(b, "response_ns", response(t));
        key_u(b, "finish_ns", t->finish_ns);
        key_u(b, "turnaround_ns", t->finish_ns - t->arrive_ns);
        key_u(b, "cpu_ns", t->cpu_ns);
        key_u(b, "wait_ns", t->wait_ns);
        key_u(b, "switches", t->switches);
        key_u(b, "iterations", t->iterations);
        const struct lat *l = &t->lat;
        if (t->measures_latency && l->samples) {
            put(b, ",\"lat\":{\"min_ns\":");
            putu(b, l->min_ns);
            key_u(b, "avg_ns", l->sum_ns / l->samples);
            key_u(b, "max_ns", l->max_ns);
            key_u(b, "samples", l->samples);
            put(b, ",\"hist_us\":[");
            int last = LAT_BUCKETS - 1;
            while (last >= 0 && !l->hist_us[last])
                last--;
            for (int k = 0; k <= last; k++) {
                put(b, k ? "," : "");
                putu(b, l->hist_us[k]);
            }
            put(b, "]}");
        }
        putc_(b, '}');
    }
    put(b, "]}\n");
}

void report(u64 time)
{
    struct buf b = { 0 };
    table(&b, time);
    result(&b, time);
    flush(1, &b);
}
