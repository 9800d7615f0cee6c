// The chapters' generated problems (`## Homework`): for each chapter with a generator, the
// problem `runqueue homework` draws from one seed, answered by the kernel's run of its
// workload, written as homework.<chapter>.md in English and in Chinese (the CLI's messages
// come as keys and parts, worded here from ZH). Each answer folds until the reader opens it;
// each question has a field whose typed answer the page checks (book/widget/homework.js) with
// the CLI's own code, against the answer JSON the field carries.

import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { anchored } from "./metrics.mjs";
import { answerField, attribute, fill, schedOf, wordIn } from "../widget/homework-text.js";
import { problemKey } from "../widget/homework-progress.js";
import { STRINGS } from "../widget/strings.js";

const run = promisify(execFile);

/** The chapters with a generator, and the seed and level the book shows. */
export const HOMEWORK = ["fifo-rr", "sjf", "mlfq", "lottery-stride", "cfs", "eevdf", "rt", "deadline", "many-cores"].map((chapter) => ({ chapter, seed: 1, level: "medium" }));

const ZH = {
  "level-easy": "简单",
  "level-medium": "中等",
  "level-hard": "困难",
  "rules-title": "规则",
  "questions-title": "问题",
  "schedule-title": "内核的调度",
  "command-line": "内核的命令行：{args}。其中的到达时间比表中晚 {lead} ms：内核的调度器在工作负载的时钟开始后这么久才启动，题目的时间 0 就是这一刻，即第一个时钟节拍。",
  "command-line-start": "内核的命令行：{args}。内核的调度器在工作负载的时钟开始后 {lead} ms 才启动，题目的时间 0 就是这一刻，即第一个时钟节拍。",
  stint: "{from}-{to} ms：{task} 在硬件线程 {hart} 上（{why}）",
  "why-preempt": "被抢占",
  "why-yield": "主动让出",
  "why-sleep": "进入睡眠",
  "why-block": "阻塞",
  "why-exit": "完成",
  "col-task": "任务",
  "col-arrive": "到达时间（ms）",
  "col-burst": "所需 CPU 时间（ms）",
  "col-prio": "优先级",
  "fair-class": "公平调度类（CFS）",
  "col-nice": "nice 值",
  "col-weight": "权重",
  "col-start-vruntime": "起始 vruntime（ms）",
  "col-tickets": "彩票数",
  "col-stride": "步长",
  "tolerance-time": "（单位 ms；与内核的值相差不超过 {abs} ms 或 {rel} %（取较大者）即算正确）",
  "tolerance-exact": "（须完全一致）",
  "tolerance-number": "（相差不超过 {amount} 即算正确）",
  "tolerance-points": "（以 % 计；相差不超过 {amount} 个百分点即算正确）",
  "answer-order": "按顺序写出任务名，用逗号分隔。",
  "answer-choice": "从以下选项中选一个：{choices}。",
  "rule-machine": "一个硬件线程。工作负载在时间 0 开始，时间均以此后的 ms 计；每 1 ms 一个时钟节拍（0、1、2……ms），任务在 0 或两个节拍正中间（0.5、1.5……ms）到达。",
  "rule-overhead": "内核自身的工作（时钟节拍、切换、跟踪）使每个任务的运行时间多出约 2 %，每次切换多出几 µs，所以内核的数值比手算稍晚：与内核的值相差在所述容差之内的答案算正确。",
  "rule-tie-creation": "同时到达的任务按表中顺序排队。一个任务在其运行轮次开始后，经过它剩余的工作量那么长的时间完成。",
  "rule-fifo": "FIFO：队首的任务一直运行到完成；新到达的任务排到队尾。",
  "rule-rr": "时间片为 {q} ms 的时间片轮转：每个时钟节拍检查时间片，本轮已运行 {q} ms 的任务排到队尾，排在这期间到达的任务之后。",
  "rule-tick-turn": "CPU 时间的限额（时间片、量子、配额）只在时钟节拍时检查：一轮在任务用满限额后的第一个节拍结束。从节拍开始的一轮（在 0、在节拍处被抢占之后，或有任务在那里完成时）在节拍后几 µs 才开始，所以 n ms 后的那个节拍时它运行的时间略少于 n ms：n ms 的限额在下一个节拍结束它，即 n + 1 ms 之后。从半毫秒处开始的一轮在两个节拍正中间用满 n ms，在下一个节拍结束，即 n + 0.5 ms 之后。",
  "rule-sjf": "SJF：CPU 空闲时，等待中突发时间最短的任务运行，直到完成。",
  "rule-stcf": "STCF（最短完成时间优先，sjf.preempt=1）：到达的任务若其突发时间短于正在运行任务的剩余时间（其突发时间减去已运行的时间），立即抢占它，被抢占的任务回到队列中等待。",
  "rule-stcf-pick": "CPU 空闲时，等待中完整突发时间最短的任务运行：内核按声明的突发时间给等待的任务排序，抢占不会缩短它（与教科书中按剩余时间排序的 STCF 不同）。",
  "rule-declared": "每个任务声明自己的突发时间，所以调度器知道它（内核的 sjf 从声明的突发时间开始预测）。",
  "rule-mlfq": "有 {levels} 级的 MLFQ，0 级最高，{bottom} 级最低。在第 L 级，一轮最多持续 2^L ms（1、2、4……ms：量子）；一个任务在第 L 级的各轮中累计用满 2^L ms CPU（配额）后降到第 L + 1 级，若有其他任务在等待则立即让出 CPU；第 {bottom} 级的任务留在原级。有等待任务的最高一级先运行，同级任务按加入该级的顺序轮流；量子用完的任务排到本级队尾。新任务从 0 级开始；到达时级别高于正在运行任务的，立即抢占它。",
  "rule-mlfq-no-boost": "没有优先级提升。",
  "rule-rt": "实时任务先于所有公平任务运行，优先级高者先（99 最高）；到达时优先级高于正在运行任务的实时任务立即抢占它，被抢占的任务回到其优先级队列的队首。",
  "rule-rt-fifo": "SCHED_FIFO：实时任务一直运行到完成或被更高优先级抢占；同一优先级的任务按到达顺序轮流。",
  "rule-rt-rr": "量子为 {q} ms 的 SCHED_RR：用完量子（跨轮累计，直到用完）的任务，若同优先级有其他任务在等待，就排到该优先级队列的队尾，并获得新的量子；被更高优先级抢占的任务保留剩余的量子。",
  "rule-rt-fair": "公平任务只在没有可运行的实时任务时运行；实时任务到达时立即抢占它，它在公平队列的队尾等待。",
  "rule-busy-machine": "一个硬件线程；每 1 ms 一个时钟节拍（0、1、2……ms）。任务在 0 之前按表中顺序创建，第一个运行的任务从 0 开始运行。",
  "rule-cfs-vruntime": "运行 d ms 使任务的 vruntime 增加 d × 1024 / 权重 ms（权重是 Linux 为其 nice 值规定的）。新任务从 min_vruntime 加上它在虚拟时间中的时间片开始（START_DEBIT）：表中给出了每个任务的起始值。",
  "rule-cfs-slice": "任务的时间片是周期 sched_latency = 6 ms（不超过 8 个任务时）中按其权重所占的部分：6 ms × 其权重 / {total}（全部 {n} 个任务的权重之和），且不少于 sched_min_granularity，即 0.75 ms。",
  "rule-cfs-tick": "vruntime 最小的任务运行（相等时表中靠前者优先）。只在时钟节拍时换任务：每个节拍更新正在运行任务的 vruntime；若它在本轮运行的时间超过了它的时间片，或它的 vruntime 比等待中最小的 vruntime 大出超过它的时间片，它就被抢占（check_preempt_tick）。之后 vruntime 最小的任务运行；被抢占的任务排在 vruntime 与它相等的任务之后。",
  "rule-cfs-hair": "从节拍开始的一轮在节拍后几十 µs 才开始（切换），所以 n ms 后的节拍时任务运行的时间比 n ms 少约 0.06 ms，它的 vruntime 也比 n × 1024 / 权重 ms 少增加这么多。题目只问不受这种细微差别影响的轮次。",
  "rule-stride": "步长调度：任务的步长是 {stride1} / 其彩票数，向下取整（即表中的值），它的 pass 从它的步长开始。每个 {q} ms 的量子（从节拍到节拍）由 pass 最小的任务运行（pass 相等时，等待最久的先运行：一开始按表中顺序）；量子结束时它的 pass 增加其步长 × 它得到的 CPU 时间 / {q} ms，即一个完整量子增加一个步长。若它的 pass 仍是最小的，下一个量子仍由它运行。",
  "rule-stride-hair": "以切换开始的量子在节拍后几十 µs 才开始，所以这个量子里任务的 pass 增加得比它的步长略少。题目只问不受这种细微差别影响的量子。",
  "setup-jobs": "这些任务在 {policy} 下运行。每个任务需要 CPU 运行其突发时间，然后退出；都不睡眠。",
  "setup-rt": "这些任务在一个硬件线程上运行，大多有实时优先级，也许有一个属于公平调度类。每个任务需要 CPU 运行其突发时间，然后退出；都不睡眠。",
  "setup-cfs": "这 {n} 个任务在 CFS（sched=cfs，Linux 的默认参数）下运行。每个任务一直忙碌、从不睡眠，持续 {run} ms；之后它在下一次查看时钟时退出（它自己每用 1 ms CPU 查看一次）。",
  "setup-stride": "这 {n} 个任务在步长调度（sched=stride）下运行，各自持有表中的彩票数。每个任务一直忙碌、从不睡眠，持续 {run} ms；之后它在下一次查看时钟时退出（它自己每用 1 ms CPU 查看一次）。",
  "policy-fifo": "FIFO（先进先出）",
  "policy-rr": "时间片轮转",
  "policy-sjf": "SJF（最短作业优先，非抢占）",
  "policy-stcf": "STCF（抢占式最短作业优先）",
  "policy-mlfq": "MLFQ（多级反馈队列）",
  "q-order": "任务按什么顺序完成？",
  "q-turnaround": "{task} 的周转时间（从到达到完成）是多少？",
  "q-response": "{task} 的响应时间（从到达到第一次运行）是多少？",
  "q-running": "{t} ms 时哪个任务在运行？",
  "q-avg-turnaround": "所有任务的平均周转时间是多少？",
  "q-avg-response": "所有任务的平均响应时间是多少？",
  "q-level": "{t} ms 时 {task} 在第几级？",
  "q-reaches": "{task} 何时到达第 {level} 级？",
  "q-share": "在 {run} ms 的运行中，{task} 占所有任务 CPU 时间的多少？",
  "q-first-run": "{task} 何时第一次运行？",
  "q-first-turn": "{task} 的第一轮运行持续多久？",
  "q-growth": "在从 {from} 到 {to} ms 的这一轮中，按内核的计数 {task} 运行了 {ran} ms。这一轮中它的 vruntime 增加了多少？",
  "q-pass-growth": "在从 {from} 到 {to} ms 的这一轮中，按内核的计数 {task} 运行了 {ran} ms。这一轮中它的 pass 增加了多少？",
  "s-finished": "{task} 在 {t} ms 完成。",
  "s-turnaround": "{task} 在 {arrive} ms 到达，在 {finish} ms 完成：{finish} - {arrive} = {value} ms。",
  "s-response": "{task} 在 {arrive} ms 到达，在 {first} ms 第一次运行：{first} - {arrive} = {value} ms。",
  "s-running": "{t} ms 时内核正在运行 {task}，从 {from} 到 {to} ms。",
  "s-average": "({terms}) / {n} = {value} ms。",
  "s-level": "{task} 依次移到的级别：{moves}；{t} ms 时它在第 {level} 级。",
  "s-reaches": "{task} 在 {t} ms 移到第 {level} 级。",
  "s-share": "所有任务共运行了 {total} ms，其中 {task} 运行了 {cpu} ms：{value} %。",
  "s-share-weight": "按权重它的份额是 {weight} / {sum} = {ideal} %。",
  "s-growth": "{task} 的 vruntime 从 {before} 变为 {after} ms：{ran} × {nice0} / {weight} = {value} ms。",
  "s-share-tickets": "按彩票它的份额是 {tickets} / {sum} = {ideal} %。",
  "s-pass-growth": "{task} 的 pass 从 {before} 变为 {after}：{stride} × {ran} / {q} = {value}。",
  "s-first-run": "{task} 在 {t} ms 第一次运行。",
  "s-first-turn": "{task} 的第一轮从 {from} 运行到 {to} ms：{value} ms。",
  // Chapter 10, SCHED_DEADLINE.
  "col-dl-runtime": "runtime（ms）",
  "col-dl-period": "周期 = 截止时间（ms）",
  "col-dl-work": "每个作业的工作量（ms）",
  "rule-dl-machine": "一个硬件线程。每个任务都是 SCHED_DEADLINE 任务，相对截止时间等于其周期 T。任务在 0 按表中顺序创建，每个任务的周期从 0、T、2T……ms 开始：每个周期开始时释放一个作业，该周期的结束就是它的截止时间。时间均以从 0 起的 ms 计。",
  "rule-dl-edf": "最早截止时间优先：可运行任务中截止时间最早的运行；截止时间相同时表中靠前者优先（它早创建几 µs）。一个任务的新周期在另一个任务运行时开始，若它的新截止时间更早，就立即抢占正在运行的任务。无须等待时钟节拍：每次切换都发生在其事件的那一刻。",
  "rule-dl-cbs": "每个任务有一份预算，即它的 runtime，在它的每个周期开始时补充（恒定带宽服务器）。运行会消耗预算；预算用完的那一刻（由定时器而非时钟节拍决定），任务被限流：它等到下一个周期开始，那时预算被补满、截止时间后移一个周期，未完成的作业从停下的地方继续。",
  "rule-dl-yield": "做完工作的作业让出 CPU（wl.yield=1）：它放弃剩余的预算，等待下一个周期，在那里释放它的下一个作业。一个作业若恰在另一个任务的周期开始时完成，则先算它完成。",
  "rule-dl-overhead": "内核自身的工作（切换、定时器、跟踪）记在正在运行任务的预算上，使每个作业多出约 5 % 和几十 µs，所以内核的时间比手算稍晚；但预算仍在恰好用满其 runtime 的 CPU 时间时用完。与内核的值相差在所述容差之内的答案算正确。",
  "setup-dl": "这 {n} 个周期性的 SCHED_DEADLINE 任务（workload=deadline）在一个硬件线程上运行，它们的 runtime 合计不超过它的 95 %（准入控制所允许的全部）。每个作业的工作量是其任务 runtime 的 {pct} %（即表中的值），预算中还为内核的工作留有余地。题目只涉及前 {window} ms。",
  "setup-dl-overrun": "这 {n} 个周期性的 SCHED_DEADLINE 任务（workload=deadline）在一个硬件线程上运行，它们的 runtime 合计不超过它的 95 %（准入控制所允许的全部）。每个作业的工作量是其任务 runtime 的 {pct} %（即表中的值），超过了它的预算，所以每个任务都会超支（工作负载给所有任务同一个比例：无法只让一个任务超支）。题目只涉及前 {window} ms。",
  "q-job-finish": "{task} 的第 {k} 个作业何时完成？",
  "q-job-response": "{task} 的第 {k} 个作业从释放（其周期开始）到完成的响应时间是多少？",
  "q-throttled": "{task} 第一次被限流（预算用完）是在何时？",
  "q-runs-again": "此后 {task} 何时再次运行？",
  "s-job-finish": "{task} 的第 {k} 个作业在 {t} ms 做完工作并让出 CPU。",
  "s-job-response": "{task} 的第 {k} 个作业在 {release} ms 释放（此时上一个作业的截止时间已到，它的周期开始），在 {finish} ms 完成：{finish} - {release} = {value} ms。",
  "s-throttled": "{task} 在 {t} ms 用完了预算（按内核的计数还剩 {left} µs）：被限流到它的下一个周期。",
  "s-runs-again": "{task} 在 {t} ms 再次运行，预算已补满，截止时间后移到 {deadline} ms。",
  // Chapter 8, EEVDF.
  "setup-eevdf": "这 {n} 个任务在 EEVDF（sched=eevdf，Linux 6.12 的默认参数）下运行。每个任务一直忙碌、从不睡眠，持续 {run} ms；之后它在下一次查看时钟时退出（它自己每用 1 ms CPU 查看一次）。",
  "rule-eevdf-vruntime": "运行 d ms 使任务的 vruntime v 增加 d × 1024 / 权重 ms（权重是 Linux 为其 nice 值规定的）。V 是各任务 vruntime 按权重的加权平均，所有任务都计入（包括正在运行的）：V = Σ 权重 × v / Σ 权重。任务的滞后量（lag）是 V − v；滞后量不为负（v ≤ V）时任务是合格的。",
  "rule-eevdf-start": "每个任务从 vruntime 0 开始（所以 V = 0，每个任务都合格），它的虚拟截止时间在半个请求之后（PLACE_DEADLINE_INITIAL）：0.35 ms × 1024 / 权重。",
  "rule-eevdf-tick": "每个任务请求 {r} ms（基础时间片）。只在时钟节拍时换任务：每个节拍更新正在运行任务的 vruntime；由于请求比一个节拍短，它总已到达自己的虚拟截止时间，于是得到新的截止时间，即它此时的 vruntime 加上虚拟时间中的一个请求：vd = v + {r} × 1024 / 权重 ms。然后合格任务中虚拟截止时间最早的运行：正在运行的任务只有在它仍然合格、且其截止时间早于每个合格的等待任务时才继续运行；截止时间相等的等待任务中等待最久的先运行（一开始按表中顺序）。两个节拍之间没有任务被抢占（RUN_TO_PARITY）。",
  "rule-eevdf-hair": "从节拍开始的一轮在节拍后几十 µs 才开始（切换），所以到下一个节拍时任务运行的时间比 1 ms 少约 0.07 ms；离开 CPU 的任务还要被计入节拍之后的几 µs：内核的 vruntime 与整节拍的值相差这些细微差别。题目只问不受这种细微差别影响的轮次。",
  "q-first-deadline": "{task} 开始时的虚拟截止时间是多少？",
  "q-deadline": "{task} 从 {from} 到 {to} ms 的这一轮在节拍处结束；它离开 CPU 时（节拍后几 µs），按内核的计数它的 vruntime 是 {vr} ms。它离开时的虚拟截止时间是多少？",
  "q-lag": "{t} ms 时 {task} 被换上 CPU。此时各任务的 vruntime（单位 ms）为 {vruntimes}。{task} 的滞后量，即 V − 它的 vruntime，是多少？",
  "s-first-deadline": "{task} 从 vruntime 0 = V 开始，截止时间在半个请求之后：{half} × {nice0} / {weight} = {value} ms（内核的 `new` 事件）。",
  "s-deadline": "在结束它这一轮的节拍处（{to} ms），{task} 的 vruntime 到达了它的截止时间，于是得到新的截止时间：它此时的 vruntime 加上 {r} × {nice0} / {weight} = {request} ms。它离开时 vruntime 为 {vr} ms，截止时间为 {value} ms（内核的 `out` 事件；vruntime 包含节拍之后的几 µs）。",
  "s-average-vruntime": "V = ({terms}) / {total} = {value} ms。",
  "s-lag": "按内核的 `in` 事件，{task} 的滞后量是 V − v = {average} − {vr} = {value} ms：不为负，所以它是合格的。",
  // Chapter 11, many cores.
  "setup-harts": "这些任务在 {harts} 个硬件线程上以 FIFO（sched=fifo）运行，每个硬件线程有自己的运行队列（rq=perhart，默认）。每个任务需要 CPU 运行其突发时间，然后退出；都不睡眠。",
  "rule-harts": "{harts} 个硬件线程，编号 0 到 {last}，各自每 1 ms 一个时钟节拍。工作负载在时间 0 开始，时间均以此后的 ms 计；任务在 0 或两个节拍正中间（0.5、1.5……ms）到达。",
  "rule-harts-fifo": "每个硬件线程运行自己队列队首的任务，直到它完成；加入队列的任务排到队尾。",
  "rule-place": "到达的任务加入任务最少的硬件线程的队列，正在运行的任务也计入（相等时取编号最小的硬件线程）；同时到达的任务按表中顺序一个接一个放置。加入空闲硬件线程队列的任务立即运行。",
  "rule-pull": "一个硬件线程完成一个任务后若发现自己的队列为空，就立即从任务最多的硬件线程取走一个等待的任务，前提是那个硬件线程至少有两个任务（正在运行的也计入；相等时取编号最小的）：在那里等待且可以在本硬件线程上运行的任务中，取表中最靠前的一个（最先到达的）。这就是一次迁移；在这些题目中，没有别的情况会把任务从一个硬件线程移到另一个。",
  "rule-pin": "{task} 被绑定在硬件线程 {hart} 上（affinity=）：无论负载如何它都加入该硬件线程的队列，其他硬件线程也不会取走它。",
  "col-harts": "可运行的硬件线程",
  "any-hart": "任意",
  "q-placed": "{task} 到达时加入哪个硬件线程的队列？",
  "q-running-on": "{t} ms 时硬件线程 {hart} 上运行的是哪个任务？",
  "q-migrations": "整个运行中一共发生多少次迁移（任务从一个硬件线程的队列移到另一个的队列）？",
  "q-last-hart": "{task} 在哪个硬件线程上完成？",
  "s-placed": "{task} 在 {t} ms 到达；跟踪中它的 new 事件写着 rq={hart}：它加入了硬件线程 {hart} 的队列。",
  "s-running-on": "{t} ms 时硬件线程 {hart} 正在运行 {task}，从 {from} 到 {to} ms。",
  "s-migrations": "跟踪中有 {n} 个 migrate 事件。",
  "s-moved": "{task} 在 {t} ms 从硬件线程 {from} 移到硬件线程 {to}。",
  "s-last-hart": "{task} 的最后一轮在硬件线程 {hart} 上运行，从 {from} 到 {to} ms。",
};

/** Parts that are English words the CLI already worded (policy names, why a stint ended). */
const ZH_PARTS = {
  "FIFO (first in, first out)": ZH["policy-fifo"],
  "Round Robin": ZH["policy-rr"],
  "SJF (shortest job first, non-preemptive)": ZH["policy-sjf"],
  "STCF (preemptive shortest job first)": ZH["policy-stcf"],
  "MLFQ (the multi-level feedback queue)": ZH["policy-mlfq"],
  preempted: ZH["why-preempt"],
  yielded: ZH["why-yield"],
  finished: ZH["why-exit"],
};

const WORDS = {
  en: { heading: "A problem drawn from seed {seed} ({level})", stop: ". ", space: " ", answer: "Answer", schedule: "The kernel's schedule", yours: "Your own problem: type your name or student id below, and the page draws it and runs the kernel to answer it; an instructor gets the same problem and its answers with `runqueue homework --chapter {chapter} --level {level} --student \"your name\" --answers` (docs/homework.md)." },
  zh: { heading: "由种子 {seed} 生成的题目（{level}）", stop: "。", space: "", answer: "答案", schedule: "内核的调度", yours: "你自己的题目：在下面输入你的名字或学号，页面就会生成它并运行内核来作答；教师用 `runqueue homework --chapter {chapter} --level {level} --student \"你的名字\" --answers` 得到同一道题及其答案（docs/homework.md）。" },
};

/** The Chinese words of the CLI's messages, as the page's student problems take them too. */
const WORDS_ZH = { zh: ZH, parts: ZH_PARTS };

/** A message of the CLI's JSON (`{key, parts, en}`) in `lang`. */
export const word = (message, lang) => wordIn(WORDS_ZH, message, lang);

/** One problem (the CLI's `--json`) as the chapter's homework block in `lang`. */
export function problemMarkdown(p, lang) {
  const w = WORDS[lang];
  const say = (m) => word(m, lang);
  const level = say({ key: `level-${p.level}`, parts: {}, en: p.level });
  const cell = (c) => (typeof c === "string" ? c : say(c));
  const out = [`**${fill(w.heading, { seed: p.seed, level })}**${w.stop}${p.setup.map(say).join(w.space)}`, ""];
  out.push(`| ${p.table.head.map(say).join(" | ")} |`, `|${" --- |".repeat(p.table.head.length)}`);
  for (const row of p.table.rows) out.push(`| ${row.map(cell).join(" | ")} |`);
  out.push("", `**${say({ key: "rules-title", parts: {}, en: "Rules" })}**`, "");
  for (const r of p.rules) out.push(`- ${say(r)}`);
  out.push("", `**${say({ key: "questions-title", parts: {}, en: "Questions" })}**`, "");
  const key = problemKey(p);
  const T = STRINGS[lang === "zh" ? "zh-CN" : "en"];
  p.questions.forEach((q, i) => {
    out.push(`${i + 1}. ${say(q.prompt)}${w.space}${say(q.tolerance)}`, "");
    out.push(`   ${answerField(T, p, q, i + 1)}`, "");
    out.push(`   <details><summary>${w.answer}</summary>`, "", `   **${q.answer.text}**${w.stop}${q.steps.map(say).join(w.space)}`, "", "   </details>", "");
  });
  out.push(`<div class="rq-hw-progress" data-problem="${key}"></div>`, "");
  out.push(`<details><summary>${w.schedule}</summary>`, "");
  // The run's task lanes, drawn by homework.js when the reader opens the schedule.
  out.push(`<div class="rq-hw-lanes" data-sched="${schedOf(p.args)}" data-events="${attribute(JSON.stringify(p.events))}"></div>`, "");
  for (const s of p.scheduleText) out.push(`- ${say(s)}`);
  out.push("", say(p.commandLine), "", "</details>", "");
  out.push(fill(w.yours, { chapter: p.chapter, level: p.level }), "");
  // Where homework.js offers the reader a problem of their own (with the Chinese words for it).
  const words = lang === "zh" ? ` data-words="${attribute(JSON.stringify(WORDS_ZH))}"` : "";
  out.push(`<div class="rq-hw-student" data-chapter="${p.chapter}" data-level="${p.level}"${words}></div>`, "");
  return out.join("\n");
}

/** Writes homework.<chapter>.md (anchor `problem`) into `out` (English) and `out/zhDir` (Chinese). */
export async function writeHomework(cli, out, zhDir) {
  for (const { chapter, seed, level } of HOMEWORK) {
    const { stdout } = await run(cli, ["homework", "--chapter", chapter, "--seed", String(seed), "--level", level, "--json"]);
    const [problem] = JSON.parse(stdout);
    fs.writeFileSync(path.join(out, `homework.${chapter}.md`), anchored({ problem: problemMarkdown(problem, "en") }));
    fs.writeFileSync(path.join(out, zhDir, `homework.${chapter}.md`), anchored({ problem: problemMarkdown(problem, "zh") }));
  }
}
