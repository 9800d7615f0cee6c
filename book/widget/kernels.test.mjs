import test from "node:test";
import assert from "node:assert/strict";
import { BOOK_KERNEL, kernelNames, linuxArgs, linuxManifest } from "./kernels.js";

const manifest = {
  initramfs: "initramfs.cpio.gz",
  words: ["workload", "smp", "seed", "wl.tasks", "nice", "cfs.latency_ns"],
  workloads: ["intr"],
  kernels: [{ name: "linux-6.12", label: "Linux 6.12", image: "linux-6.12.Image.gz" }, { name: "linux-6.1", label: "Linux 6.1", image: "linux-6.1.Image.gz" }],
};

test("Linux gets the words its init takes, without sched=, and the page names the rest", () => {
  const { args, dropped } = linuxArgs("sched=cfs workload=intr smp=2 seed=3 tick_us=500 wl.tasks=4 cfs.latency_ns=12000000 mlfq.levels=3", manifest);
  assert.equal(args, "workload=intr smp=2 seed=3 wl.tasks=4 cfs.latency_ns=12000000");
  assert.deepEqual(dropped, ["tick_us=500", "mlfq.levels=3"]);
});

test("the site's manifest is checked before the page offers its kernels", () => {
  assert.deepEqual(kernelNames(linuxManifest(manifest)), [BOOK_KERNEL, "linux-6.12", "linux-6.1"]);
  for (const bad of [null, {}, { ...manifest, kernels: [] }, { ...manifest, words: undefined }, { ...manifest, kernels: [{ name: "linux-6.12" }] }]) {
    assert.equal(linuxManifest(bad), null);
    assert.deepEqual(kernelNames(linuxManifest(bad)), [BOOK_KERNEL]);
  }
});
