// Chinese text for the kernel's catalog (`CATALOG {json}`): the one-line help of every
// scheduler, workload and tunable, and the units. Keyed by *name*, never by the English text,
// so a reworded help line in the kernel keeps its translation, and a new name shows up as a
// failing unit test (web/tests/catalog-zh.test.mjs) rather than as English on a Chinese page.
// Terms follow po/zh-CN.po (虚拟运行时间, 时间片, 时间量子, 配额, 提升, 突发, 弯曲量, 睡眠补偿, ...).

export const SCHEDULERS = {
  fifo: "先来先服务；每个任务一直运行，直到它让出、睡眠或退出",
  rr: "时间片轮转：按 FIFO 顺序排队，用完固定的 CPU 时间片就被抢占",
  cfs: "Linux CFS（2.6.23-6.5）：运行加权虚拟运行时间最小的任务",
  sjf: "（预测的）最短作业优先；sjf.preempt=1 使它成为最短剩余时间优先",
  mlfq: "多级反馈队列（OSTEP 的规则 1-5）：短任务和交互式任务留在高级别",
  lottery: "彩票调度（Waldspurger 与 Weihl，1994）：每个时间量子随机抽出一张彩票，由持有它的任务运行",
  stride: "步长调度（Waldspurger 与 Weihl，1995）：运行行程值（pass）最小的任务；每用一个时间量子，pass 增加 STRIDE1/彩票数",
  o1: "Linux 的 O(1) 调度器（2.6.0-2.6.22）：带位图的优先级数组，时间片取决于 nice，常睡眠的任务得到奖励",
  bvt: "BVT（Duda 与 Cheriton）：运行有效虚拟时间最小的任务；带弯曲量的任务借用 W",
  eevdf: "Linux EEVDF（6.6 或 6.12）：在被欠 CPU 时间（滞后量 >= 0）的任务中，运行虚拟截止时间最早的任务",
  "lab-sjf": "实验：预测突发最短者优先（lab.sjf.preempt=1：最短剩余时间优先）",
  "lab-mlfq": "实验：带配额和周期性提升的多级反馈队列",
  "lab-bvt": "实验：借用虚拟时间，唤醒放置和弯曲由学生编写",
};

export const WORKLOADS = {
  "fairness-equal": "若干任务，各做相同数量、大小相同的工作单元，每做完一个就让出 CPU",
  "fairness-unequal": "若干任务，工作单元随任务编号变大（任务 i 的是基准的 i+1 倍），运行固定时长；统计完成的单元数",
  "yield-speed": "若干任务做大量极小的工作单元，每个之后都让出 CPU：测量调度本身的开销",
  realtime: "四个频繁让出的短任务和一个长任务：谁先完成？",
  occupy: "两个有许多短工作单元的任务和一个只有几个长工作单元的任务：长任务何时完成？",
  spin: "从不让出的忙循环，运行固定时长：比较它们得到的 CPU 时间",
  intr: "若干任务工作 8 ms、睡眠 1 ms，运行固定时长：比较完成的循环数",
  hackbench: "发送者和接收者通过管道传递消息，旁边可以有 CPU 忙循环：总用时",
  cyclictest: "一个周期性线程在负载下测量自己的唤醒延迟（最小/平均/最大值、直方图）",
  deadline: "EDF（SCHED_DEADLINE）或速率单调固定优先级下的周期性任务：错过的截止时间",
};

// Texts that several tunables share because their English says the same thing.
const FIRST_PREDICTION = "尚未运行过的任务的预测值";
const SHORT_UNITS = "每个短任务的工作单元数（每个之后让出一次）";
const LONG_UNITS = "长任务的工作单元数";
const RUN_MS = "任务持续工作的时长";

// A tunable's help by its name. Workloads reuse names (`wl.tasks`, `wl.loops`, ...) for
// different things; such a name maps workload names to texts.
export const TUNABLES = {
  smp: "运行任务的硬件线程数（QEMU 和模拟器必须至少提供这么多个）",
  seed: "一切随机量的种子：负载中的，以及 sched=lottery 的抽签（写入 RESULT）",
  trace: "输出跟踪事件（写到跟踪设备，或以 @ 开头的行写到 UART）",
  tick_us: "每个硬件线程上调度器时钟节拍的周期",
  "cache.kb": "每个硬件线程的数据缓存大小，0 = 没有缓存（有缓存时，把任务迁移到另一个硬件线程要付出缓存未命中的代价）；由模拟器提供，QEMU 忽略它",
  "cache.line": "数据缓存的行大小，必须是 2 的幂；由模拟器提供，QEMU 忽略它",
  "cache.ways": "数据缓存的相联度（每组的行数）；由模拟器提供，QEMU 忽略它",
  "cache.miss_ns": "一次数据缓存未命中让硬件线程停顿多久，须是 10 ns 的倍数（默认值：一次 DRAM 访问）；由模拟器提供，QEMU 忽略它",
  "rt.runtime_us": "sched_rt_runtime_us：每个周期内实时任务在每个硬件线程上可用的 CPU 时间；-1 = 不限流",
  "rt.period_us": "sched_rt_period_us：限流的周期",
  "rt.rr_slice_ms": "sched_rr_timeslice_ms：SCHED_RR 的时间片",
  nice: "按创建顺序给出每个任务的 nice 值（如 0,-5,5）；列表之外的任务保持负载自己的设定。CFS、BVT 和 EEVDF 按它加权",
  rtprio: "按创建顺序给出每个任务的实时优先级：0 = 公平调度类，1..99 = SCHED_FIFO（或 rtpolicy 指定的策略），高于所有公平任务",
  rtpolicy: "rtprio= 放入实时调度类的任务所用的实时策略",
  warp_us: "按创建顺序给出每个任务的 BVT 弯曲量 W（它被唤醒时借用的虚拟时间）",
  affinity: "每个任务可以在哪些硬件线程上运行，用 taskset 那样的位掩码表示（1 = 硬件线程 0，2 = 硬件线程 1，3 = 两者，……）；0 = 全部",
  rq: "运行队列：像 Linux 那样每个硬件线程一个并做负载均衡（perhart），或像 xv6 和 ArceOS 那样所有硬件线程共用一个（global）",
  balance_ms: "忙碌的硬件线程多久做一次负载均衡（Linux：调度域的间隔，2-4 个 CPU 时为 2-4 ms，乘以 busy_factor 16）；空闲的硬件线程每个时钟节拍以及刚变空闲时都会均衡；0 = 从不均衡",
  sched_migration_cost_ns: "任务若在这么短的时间之前还在运行，就算缓存热：负载均衡要在几次失败之后才迁移它，被唤醒的它也留在原来的硬件线程上",
  sched_nr_migrate: "一次负载均衡最多迁移这么多个任务",
  isolcpus: "从任务放置和负载均衡中拿掉的硬件线程（如 1,2）：只有用 affinity= 固定在那里的任务才在那里运行",
  nohz_full: "只运行一个任务时停掉时钟节拍的硬件线程（如 1）",
  timer_migration: "1：在 isolcpus 或 nohz_full 硬件线程上设置的睡眠定时器改在一个做日常事务的硬件线程上触发；0：在它自己的硬件线程上触发",
  slice_us: "按创建顺序给出每个任务请求的时间片（sched_setattr 的 sched_runtime）：Linux 6.12 起的 EEVDF 以它为请求大小，短于 100 us 的提高到 100 us；0 表示使用基础时间片",
  tickets: "按创建顺序给出每个任务的彩票数（彩票调度和步长调度用它）；列表之外的任务在 nice 0 时得到 100 张，否则按 CFS 给其 nice 的权重成比例地得到",
  arrive_ms: "按创建顺序给出每个任务的到达时间，即工作负载开始后多少毫秒（调度策略此时才把它当作新任务看到）；0 = 一开始就到达",

  "rr.slice_ms": "时间片（在每个时钟节拍检查；默认 tick_us=1000 时为 5 个节拍）",
  "cfs.latency_ns": "sched_latency：每个可运行任务都应运行一次的周期",
  "cfs.min_granularity_ns": "sched_min_granularity：最短的时间片；周期会延长到 nr_running 乘以它",
  "cfs.wakeup_granularity_ns": "sched_wakeup_granularity：被唤醒的任务（按 vruntime）要领先多少才能抢占",
  "cfs.features": "sched_features：写 NAME 打开一项特性，写 NO_NAME 关闭它",
  "sjf.preempt": "0：非抢占式 SJF；1：抢占式 SRTF",
  "sjf.alpha": "预测式 tau' = a*t + (1-a)*tau 中最近一次突发的权重 a",
  "sjf.tau0_ns": FIRST_PREDICTION,
  "mlfq.levels": "优先级级别数",
  "mlfq.quantum_ms": "每一级的时间量子：给一个值则每往下一级翻一倍，也可以每级给一个值",
  "mlfq.allotment_ms": "任务在某一级用掉多少 CPU 时间后下降一级：给一个值则逐级翻倍，也可以每级给一个值",
  "mlfq.boost_ms": "把所有任务提升回第 0 级的周期（0：从不提升）",
  "lottery.quantum_ms": "中签的任务在下一次抽签之前运行的 CPU 时间（在时钟节拍时检查）",
  "lottery.compensate": "1：只用了时间量子的一部分 f 就让出 CPU 的任务，在下次中签之前持有 1/f 倍的彩票（补偿彩票）；0：从不补偿",
  "stride.quantum_ms": "任务运行这么多 CPU 时间后，重新选出行程值最小的任务（在时钟节拍时检查）",
  "o1.interactive": "1：交互性估计器（sleep_avg 奖励，交互式任务回到活动数组）；0：只用静态优先级",
  "bvt.placement": "唤醒放置：epsilon = 紧跟在最小的 A 之后（种子材料 002 的补丁），fixed = 紧跟在 CFS 补偿后的位置之后（它的修复），cfs = CFS 的睡眠补偿",
  "bvt.epsilon_ns": "sched_bvt_place_epsilon：被唤醒的任务放在其参考点之后多远",
  "bvt.latency_ns": "sched_latency，它的一半是 fixed 和 cfs 两种放置给的睡眠补偿",
  "bvt.csa_us": "上下文切换容限 C：只有另一个任务的 E 小这么多时才切换",
  "bvt.warp_limit_us": "弯曲时间上限 L：任务处于弯曲状态时最多可运行的 CPU 时间（0 = 不限）",
  "bvt.unwarp_us": "解除弯曲的时间要求 U：任务再次弯曲之前必须不弯曲地运行的时间",
  "eevdf.base_slice_ns": "sysctl_sched_base_slice：未自行请求时间片的任务的请求大小 r，其虚拟截止时间为 v + r/w",
  "eevdf.version": "所遵循的 Linux 版本：6.6 没有 PREEMPT_SHORT、DELAY_DEQUEUE、DELAY_ZERO、PLACE_REL_DEADLINE，也没有按任务设定的时间片",
  "eevdf.features": "sched_features：写 NAME 打开一项特性，写 NO_NAME 关闭它（所选版本没有的特性保持关闭）",
  "lab.sjf.preempt": "0：SJF；1：SRTF（被唤醒的任务可以抢占）",
  "lab.sjf.alpha": "最近一次突发的权重：alpha = p/q 时 pred' = (p*burst + (q-p)*pred) / q",
  "lab.sjf.tau0_ns": FIRST_PREDICTION,
  "lab.mlfq.levels": "级别数（0 为最高级）",
  "lab.mlfq.quantum_ms": "第 0 级的时间量子；每往下一级翻一倍",
  "lab.mlfq.allotment_ms": "任务在第 0 级用掉多少 CPU 时间后下降一级；逐级翻倍",
  "lab.mlfq.boost_ms": "每隔这么久，所有任务都回到第 0 级",
  "lab.bvt.csa_us": "上下文切换容限 C：只有另一个任务的 E 小这么多时，时钟节拍或唤醒才会切换",

  "wl.tasks": "任务数",
  "wl.units": "每个任务的工作单元数",
  "wl.unit_insns": {
    "fairness-equal": "每个工作单元的指令数（3 ms）",
    "fairness-unequal": "任务 0 的工作单元的指令数（1 ms）；任务 i 的是它的 i+1 倍",
    "yield-speed": "每个工作单元的指令数",
    spin: "两次读时钟之间的指令数（1 ms）",
  },
  "wl.run_ms": {
    "fairness-unequal": RUN_MS,
    spin: RUN_MS,
    intr: RUN_MS,
    deadline: "持续释放作业的时长",
  },
  "wl.short_units": { realtime: SHORT_UNITS, occupy: SHORT_UNITS },
  "wl.short_insns": {
    realtime: "每个短任务每个工作单元的指令数（与 wl.short_units 一样多个值）",
    occupy: "短任务每个工作单元的指令数",
  },
  "wl.long_units": { realtime: LONG_UNITS, occupy: LONG_UNITS },
  "wl.long_insns": {
    realtime: "长任务每个工作单元的指令数（100 ms）",
    occupy: "长任务每个工作单元的指令数（25 ms）",
  },
  "wl.working_set_kb": "每个任务在每个工作单元中读写的数据量（每 64 字节的缓存行一个字）：打开机器的缓存模型（cache.kb=）时，迁移到另一个硬件线程的任务对它全部缺失",
  "wl.hop": "1：每个工作单元之后，任务把自己迁移到下一个硬件线程（sched_setaffinity），用来展示一次迁移的代价",
  "wl.hold_us": {
    spin: "不为 0 时，每个工作单元改为在禁止抢占的情况下运行这么久",
    cyclictest: "不为 0 时，每个负载单元以一段这么长的不可抢占区段开头",
  },
  "wl.work_us": "每次循环的工作量，以模拟 CPU 的微秒计（每微秒 100 条指令）",
  "wl.sleep_us": "每次循环的睡眠时间",
  "wl.hogs": "做同样的循环但从不睡眠的额外任务",
  "wl.groups": "发送者和接收者的组数（hackbench -g）",
  "wl.fds": "每组的发送者和接收者数（hackbench -f）",
  "wl.loops": {
    hackbench: "每个发送者向本组每个接收者发送的消息数（hackbench -l）",
    cyclictest: "要测量的唤醒次数（cyclictest -l）",
  },
  "wl.msg_bytes": "消息大小（hackbench -s）",
  "wl.msg_insns": "生成和取走每条消息的工作量（相当于一次系统调用的开销）",
  "wl.pipe_bytes": "每个管道的容量（Linux：65536）；管道满时发送者阻塞",
  "wl.hog": "一直空转到 hackbench 结束的 CPU 忙循环（从不让出：在协作式策略 fifo 或 sjf 下，hackbench 永远得不到运行，这次运行也不会结束）",
  "wl.warp_us": "hackbench 各任务的 BVT 弯曲量 W（种子材料 002：100、1000、4000、40000）",
  "wl.interval_us": "测量线程的周期（cyclictest -i）",
  "wl.policy": "测量线程的调度策略（cyclictest --policy）",
  "wl.prio": "它的实时优先级（cyclictest -p）",
  "wl.load": "公平调度类的负载任务数（hackbench 负载：发送者/接收者对数，最多 16）",
  "wl.load_type": "负载类型：工作一段再睡眠的任务（work），或 hackbench（一组 wl.load 对发送者/接收者，通过管道传递消息）",
  "wl.load_work_us": "每个负载任务每个单元的工作量",
  "wl.load_sleep_us": "每个负载任务每个单元之后的睡眠时间（0：纯 CPU 忙循环）",
  "wl.isolate": "1：把测量线程固定在硬件线程 0 上，并让负载远离它（isolcpus）",
  "wl.period_us": "每个任务的周期 T（也是它的截止时间）",
  "wl.runtime_us": "每个任务每个周期的预留 C（默认：利用率 0.95）",
  "wl.work_pct": "每个作业的工作量占 C 的百分比（其余留给内核的切换，切换也记在任务账上）",
  "wl.class": "edf = SCHED_DEADLINE（运行时间 C，截止时间 = 周期 = T）；rm = SCHED_FIFO，周期越短优先级越高",
};

// Units as the kernel spells them; SI symbols stay as they are.
export const UNITS = {
  ns: "ns",
  us: "us",
  ms: "ms",
  "%": "%",
  bytes: "字节",
  KiB: "KiB",
  ways: "路",
  harts: "个硬件线程",
  tasks: "个任务",
  units: "个工作单元",
  instructions: "条指令",
  samples: "个样本",
  groups: "组",
  pairs: "对",
  messages: "条消息",
  mask: "位掩码",
  tickets: "张彩票",
  KiB: "KiB",
};

const own = (table, key) => (Object.hasOwn(table, key) ? table[key] : undefined);

/** Lookups by name; each gives undefined where the table has no text. */
export const CATALOG_ZH = {
  scheduler: (name) => own(SCHEDULERS, name),
  workload: (name) => own(WORKLOADS, name),
  /** Tunable `name` as a setting of `owner`, the workload or scheduler listing it (none for globals). */
  tunable: (name, owner) => {
    const text = own(TUNABLES, name);
    return typeof text === "object" ? own(text, owner) : text;
  },
  unit: (unit) => own(UNITS, unit),
};
