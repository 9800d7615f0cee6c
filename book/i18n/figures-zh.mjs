// The generated figures of the Chinese edition. The chapters include tables that the build
// generates (book/figures/generate.mjs: the per-task tables of metrics.mjs and the comparison
// tables of experiments.json); gettext never sees them, since they are included after it
// runs. generate.mjs therefore writes a Chinese copy of each figure file into
// book/src/generated/zh-CN/, its tables' headers and row labels from the tables below, and
// this file, run as an mdBook preprocessor in the Chinese build after gettext and before
// `links`, points the chapters' includes there (mk/book.mk).
//
// A label missing here stays English, and web/tests/translation.test.mjs reports an English
// phrase on a Chinese page: add its translation here when you add a table row.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { preprocess } from "./expand-pages.mjs";

export const ZH_DIR = "zh-CN";

// Column headers (metrics.mjs) and the corners and row labels of experiments.json's tables.
export const CELLS = {
  task: "任务",
  "arrival (ms)": "到达（ms）",
  "CPU (ms)": "CPU（ms）",
  "waiting (ms)": "等待（ms）",
  "response (ms)": "响应时间（ms）",
  "turnaround (ms)": "周转时间（ms）",
  "finish (ms)": "完成（ms）",
  switches: "切换次数",
  "units done": "完成的工作单元",
  "latency avg / max (µs)": "延迟 平均 / 最大（µs）",
  "min (µs)": "最小（µs）",
  "avg (µs)": "平均（µs）",
  "max (µs)": "最大（µs）",
  samples: "样本数",
  waits: "等待次数",
  "avg wait (ms)": "平均等待（ms）",
  "max wait (ms)": "最长等待（ms）",
  inversions: "反转次数",
  "(pending)": "（待定）",
  scheduler: "调度器",
  "1000 (default)": "1000（默认）",
  "0 (never)": "0（从不）",
  "measuring thread, hackbench load": "测量线程，hackbench 负载",
  "SCHED_FIFO 80 (default)": "SCHED_FIFO 80（默认）",
  "fair (SCHED_OTHER)": "公平调度类（SCHED_OTHER）",
  "measuring thread": "测量线程",
  "SCHED_FIFO, no load": "SCHED_FIFO，无负载",
  "SCHED_FIFO, trace off": "SCHED_FIFO，关闭跟踪",
  "fair, trace off": "公平调度类，关闭跟踪",
  "0 (default)": "0（默认）",
  "setup (wl.hold_us=500)": "设置（wl.hold_us=500）",
  "1 hart": "1 个硬件线程",
  "2 harts, load on both": "2 个硬件线程，两个上都有负载",
  "isolcpus=1, cyclic on hart 1 (affinity=2)": "isolcpus=1，cyclic 在硬件线程 1 上（affinity=2）",
  "isolcpus, timer_migration=0, no nohz_full": "isolcpus、timer_migration=0，不用 nohz_full",
  "all three, no load": "三项全开，无负载",
  "host (cyclictest -i200, 5 s, idle guest)": "宿主机（cyclictest -i200，5 s，空闲客户机）",
  "no host (host=bare)": "无宿主机（host=bare）",
  "untuned host": "未调优的宿主机",
  "+ vCPU SCHED_FIFO 99": "+ vCPU 用 SCHED_FIFO 99",
  "+ pinned to isolated CPU 1": "+ 绑定到隔离的 CPU 1",
  "+ IRQs on CPU 0": "+ 中断放到 CPU 0",
  "+ host idle=poll": "+ 宿主机 idle=poll",
  "+ RT throttling off (host=tuned)": "+ 关闭 RT 限流（host=tuned）",
  "host=tuned, guest idle=poll": "host=tuned，客户机 idle=poll",
  "the same, RT throttling left on": "同上，保留 RT 限流",
  "untuned, direct timer interrupts": "未调优，定时器中断直接交付",
  "vCPU policy (hog on each CPU, -i10000)": "vCPU 策略（每个 CPU 上一个 CPU 密集型线程，-i10000）",
  "no host": "无宿主机",
  "vCPU policy, busy guest (our load)": "vCPU 策略，忙碌的客户机（我们的负载）",
  "950000 (default)": "950000（默认）",
  "-1 (off)": "-1（关闭）",
  "throttle (default)": "throttle（默认）",
  none: "none（无）",
  "harts, lock.pi": "硬件线程数，lock.pi",
  "1, 0 (off)": "1，0（关闭）",
  "1, 1 (default)": "1，1（默认）",
  "2, 0 (off)": "2，0（关闭）",
  "2, 1 (default)": "2，1（默认）",
  "rtprio, policy": "rtprio，策略",
  "policy, U": "策略，U",
  "EDF on 2 harts": "2 个硬件线程上的 EDF",
  global: "全局",
  "partitioned (affinity=1,2,2)": "分区（affinity=1,2,2）",
  "partitioned (affinity=1,1,2)": "分区（affinity=1,1,2）",
  "90 (default)": "90（默认）",
  harts: "硬件线程数",
  "5 (default)": "5（默认）",
  "policy, placement, warp W": "策略，放置方式，弯曲量 W",
  "CFS, no hog": "CFS，无 CPU 密集型任务",
  "BVT epsilon, 0.1 ms": "BVT epsilon，0.1 ms",
  "BVT epsilon, 1 ms": "BVT epsilon，1 ms",
  "BVT epsilon, 4 ms": "BVT epsilon，4 ms",
  "BVT epsilon, 40 ms": "BVT epsilon，40 ms",
  "BVT fixed, 0.1 ms": "BVT fixed，0.1 ms",
  "BVT fixed, 1 ms": "BVT fixed，1 ms",
  "BVT fixed, 4 ms": "BVT fixed，4 ms",
  "BVT fixed, 40 ms": "BVT fixed，40 ms",
  "BVT paper, 0.1 ms": "BVT 论文规则，0.1 ms",
  "trace on; policy, placement, W": "打开跟踪；策略，放置方式，W",
  "policy, warp of cyclic": "策略，cyclic 的弯曲量",
  "BVT, no warp": "BVT，无弯曲",
  "BVT, W = 1 ms": "BVT，W = 1 ms",
  "BVT, W = 2 ms": "BVT，W = 2 ms",
  "BVT paper, W = 2 ms": "BVT 论文规则，W = 2 ms",
  "policy (1 s)": "策略（1 s）",
  "EEVDF, Linux 6.6": "EEVDF，Linux 6.6",
  "EEVDF, Linux 6.12": "EEVDF，Linux 6.12",
  "EEVDF, 6.12 with NO_DELAY_DEQUEUE": "EEVDF，6.12 加 NO_DELAY_DEQUEUE",
  "kernel, slices": "内核，时间片",
  "6.12, 1 ms beside 6 ms": "6.12，1 ms 与 6 ms 并存",
  "6.12 with NO_PREEMPT_SHORT, 1 ms beside 6 ms": "6.12 加 NO_PREEMPT_SHORT，1 ms 与 6 ms 并存",
  "6.6 (slices ignored)": "6.6（忽略时间片设置）",
  "6.12, every task 0.75 ms": "6.12，每个任务 0.75 ms",
  kernel: "内核",
  "policy, slice": "策略，时间片",
  "EEVDF, 0.75 ms (default)": "EEVDF，0.75 ms（默认）",
  "6.12, requests of cyclic, load0, load1": "6.12，cyclic、load0、load1 的请求长度",
  "0.75, 0.75, 0.75 ms (the base slice)": "0.75、0.75、0.75 ms（基础时间片）",
  "0.1, 0.75, 0.75 ms (cyclic's alone shorter)": "0.1、0.75、0.75 ms（只缩短 cyclic 的）",
  "0.75, 6, 6 ms (the hogs' alone longer)": "0.75、6、6 ms（只加长两个 CPU 密集型任务的）",
  "1, 6, 6 ms (both, as above)": "1、6、6 ms（两者都改，同上）",
  "6, 6, 6 ms": "6、6、6 ms",
  "EEVDF, 3 ms": "EEVDF，3 ms",
  policy: "策略",
  "all on (default)": "全部开启（默认）",
  "3 harts": "3 个硬件线程",
  "rq=perhart (default)": "rq=perhart（默认）",
  "rq=perhart, balance_ms=0": "rq=perhart，balance_ms=0",
  "4 loops, 3 harts, 1 s": "4 个循环，3 个硬件线程，1 s",
  "balance_ms=48 (default)": "balance_ms=48（默认）",
  "no pinning": "不绑定",
  "32 (default)": "32（默认）",
  "1 task, 2 harts, 16 KiB working set": "1 个任务，2 个硬件线程，16 KiB 工作集",
  "stays, no cache": "留在原处，无缓存",
  "hops, no cache": "来回迁移，无缓存",
  "stays, cache.kb=32": "留在原处，cache.kb=32",
  "hops, cache.kb=32": "来回迁移，cache.kb=32",
  "stays, cache.kb=32 cache.miss_ns=1000": "留在原处，cache.kb=32 cache.miss_ns=1000",
  "hops, cache.kb=32 cache.miss_ns=1000": "来回迁移，cache.kb=32 cache.miss_ns=1000",
  "cfs.features (2 harts, 20 s)": "cfs.features（2 个硬件线程，20 s）",
  "all off": "全部关闭",
  "policy, groups, cpu.weight": "策略，组，cpu.weight",
  "groups, cpu.weight": "组，cpu.weight",
  "no groups": "不分组",
  "a b b b, 100:300": "`a b b b`，100:300",
  "a a a b, 100:300": "`a a a b`，100:300",
  "a a a b, 100:100": "`a a a b`，100:100",
  "queues, cache": "队列，缓存",
  "one shared queue, no cache model": "一个共享队列，无缓存模型",
  "one shared queue, cache model": "一个共享队列，有缓存模型",
  "a queue per hart, no cache model": "每个硬件线程一个队列，无缓存模型",
  "a queue per hart, cache model": "每个硬件线程一个队列，有缓存模型",
  "tickets (cgroup=a,b,b)": "彩票（cgroup=a,b,b）",
  "100,100,300 in currencies a and b": "100,100,300，货币 a 和 b",
  "100,100,900 in currencies a and b": "100,100,900，货币 a 和 b",
  "100,100,900 without currencies": "100,100,900，不用货币",
  "CFS, no groups": "CFS，不分组",
  "CFS, a b b b, 100:300": "CFS，`a b b b`，100:300",
  "CFS, a a a b, 100:300": "CFS，`a a a b`，100:300",
  "CFS, a a a b, 100:100": "CFS，`a a a b`，100:100",
  "EEVDF, a a a b, 100:300": "EEVDF，`a a a b`，100:300",
  "BVT, a a a b, 100:300": "BVT，`a a a b`，100:300",
  "policy, placement, groups": "策略，放置方式，组",
  "CFS, one group (seed's case 1)": "CFS，一个组（原始报告的情形 1）",
  "CFS, lat and batch": "CFS，lat 与 batch",
  "BVT epsilon, lat warp 1 ms": "BVT epsilon，lat 弯曲量 1 ms",
  "BVT epsilon, lat warp 40 ms": "BVT epsilon，lat 弯曲量 40 ms",
  "BVT fixed, lat warp 1 ms": "BVT fixed，lat 弯曲量 1 ms",
};

/** A figure file's text with each table cell that CELLS names in Chinese. */
export function localizeFigure(text) {
  return text
    .split("\n")
    .map((line) => {
      if (!/^\|.*\|$/.test(line)) return line;
      return line.replace(/(?<=\|)([^|]+)(?=\|)/g, (cell) => {
        const zh = CELLS[cell.trim()];
        return zh === undefined ? cell : ` ${zh} `;
      });
    })
    .join("\n");
}

/** Chapter text whose includes of generated figures point at their Chinese copies in `src`. */
export function pointAtChinese(text, dir, src) {
  return text.replace(/\{\{#include\s+([^\s}:]*generated\/)([^\s}:]+)/g, (whole, prefix, file) => {
    const zh = path.resolve(dir, `${prefix}${ZH_DIR}/${file}`);
    return fs.existsSync(zh) && path.relative(path.join(src, "generated"), zh).startsWith(ZH_DIR) ? whole.replace(prefix, `${prefix}${ZH_DIR}/`) : whole;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) preprocess(pointAtChinese);
