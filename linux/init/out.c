/* Text output without printf: the table and the RESULT line are built in a buffer and written
 * with one system call, so lines from different tasks never interleave. */
#include "rq.h"

static void grow(struct buf *b, size_t more)
{
    if (b->len + more <= b->cap)
        return;
    size_t cap = b->cap ? b->cap * 2 : 4096;
    while (cap < b->len + more)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p)
        fail("out of memory", "");
    b->p = p;
    b->cap = cap;
}

void putn(struct buf *b, const char *s, size_t n)
{
    grow(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

void put(struct buf *b, const char *s) { putn(b, s, strlen(s)); }
void putc_(struct buf *b, char c) { putn(b, &c, 1); }

void putu(struct buf *b, u64 v)
{
    char d[24];
    int i = sizeof d;
    do {
        d[--i] = '0' + v % 10;
        v /= 10;
    } while (v);
    putn(b, d + i, sizeof d - i);
}

void puti(struct buf *b, i64 v)
{
    if (v < 0) {
        putc_(b, '-');
        putu(b, (u64)0 - (u64)v);
    } else {
        putu(b, v);
    }
}

void pad_left(struct buf *b, const char *s, int width)
{
    for (int n = width - (int)strlen(s); n > 0; n--)
        putc_(b, ' ');
    put(b, s);
}

void pad_right(struct buf *b, const char *s, int width)
{
    put(b, s);
    for (int n = width - (int)strlen(s); n > 0; n--)
        putc_(b, ' ');
}

void putms(struct buf *b, u64 ns, int width)
{
    struct buf t = {0};
    u64 frac = ns % 1000000 / 1000;
    putu(&t, ns / 1000000);
    putc_(&t, '.');
    putc_(&t, '0' + frac / 100);
    putc_(&t, '0' + frac / 10 % 10);
    putc_(&t, '0' + frac % 10);
    putc_(&t, 0);
    pad_left(b, t.p, width);
    free(t.p);
}

void json_str(struct buf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    putc_(b, '"');
    for (; *s; s++) {
        unsigned char c = *s;
        if (c == '"' || c == '\\') {
            putc_(b, '\\');
            putc_(b, c);
        } else if (c < 0x20) {
            put(b, "\\u00");
            putc_(b, hex[c >> 4]);
            putc_(b, hex[c & 15]);
        } else {
            putc_(b, c);
        }
    }
    putc_(b, '"');
}

void flush(int fd, struct buf *b)
{
    size_t done = 0;
    while (done < b->len) {
        ssize_t n = write(fd, b->p + done, b->len - done);
        if (n <= 0)
            break;
        done += n;
    }
    b->len = 0;
}

void say(const char *s)
{
    struct buf b = {0};
    put(&b, s);
    flush(1, &b);
    free(b.p);
}

void fail(const char *what, const char *detail)
{
    struct buf b = {0};
    put(&b, "init: ");
    put(&b, what);
    put(&b, detail);
    putc_(&b, '\n');
    flush(1, &b);
    power_off(2);
}
