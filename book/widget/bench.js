// The benchmark page: runs an ELF to completion in the widget's own Worker (worker.js, so it
// measures exactly what a reader's run gets) and publishes {instret, seconds, mips, exitCode,
// console} as `window.benchResult` for web/bench.mjs. With `?trace=ftrace` (or `chrome`) it
// then asks the Worker for the run's trace in that format, after the clock has stopped, and
// adds it as `trace`: the determinism test compares both with `runqueue run`'s. `?tier=off` runs
// with the compiled tier off (every instruction interpreted), `?tier=eager` compiles a region
// at the first jump to its entry; `compiledRegions` says how many regions the tier compiled.
// `?kernel=linux-6.12` boots that Linux with the init's initramfs instead of an ELF, fetched and
// unpacked as the widget does it (kernels.js); `fetchSeconds` is that part, `firstOutputSeconds`
// the time from Run to the first console byte, `bootSeconds` the Worker's building of the
// machine before it. With `?snapshot=1` the run is made twice, each in its own Worker as the
// widget makes them: the result is the second's, which starts from the snapshot the first
// one's Linux boot left (`resumed`).

import { linuxManifest, loadLinux } from "./kernels.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);

/** The kernel (and initrd) `q` names: `{name, elf, initrd}`. */
async function kernelOf(q) {
  const linux = q.get("kernel");
  if (linux !== null) {
    const base = new URL("../linux/", import.meta.url);
    const manifest = linuxManifest(await fetch(new URL("kernels.json", base)).then((r) => (r.ok ? r.json() : null)));
    if (!manifest?.kernels.some((k) => k.name === linux)) throw new Error(`kernel=${linux}: this site serves no such Linux`);
    const { kernel, initrd } = await loadLinux(base, manifest, linux, (status) => `${linux} could not be loaded (HTTP ${status})`);
    return { name: linux, elf: kernel, initrd };
  }
  const name = q.get("elf") ?? "bench.elf";
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error(`elf=${name} is not a plain file name`);
  const response = await fetch(new URL(`../${name}`, import.meta.url));
  if (!response.ok) throw new Error(`${name} could not be loaded (HTTP ${response.status})`);
  return { name, elf: await response.arrayBuffer() };
}

async function bench() {
  const q = new URLSearchParams(location.search);
  const fetched = performance.now();
  const { name, elf, initrd } = await kernelOf(q);
  const fetchSeconds = (performance.now() - fetched) / 1000;
  const traceFormat = q.get("trace");
  if (traceFormat !== null && !["ftrace", "chrome"].includes(traceFormat)) throw new Error(`trace=${traceFormat}: use ftrace or chrome`);
  const tier = q.get("tier") ?? "on";
  if (!["on", "off", "eager"].includes(tier)) throw new Error(`tier=${tier}: use on, off or eager`);
  const boot = { elf, initrd, bootargs: q.get("args") ?? "", budget: Number(q.get("max") ?? 20e9), compiled: { on: true, off: false, eager: "eager" }[tier] };
  const first = await runOnce(name, boot, traceFormat, []);
  if (q.get("snapshot") !== "1") return { ...first.result, fetchSeconds };
  if (!first.snapshot) throw new Error(`${name}: the run left no snapshot (snapshot=1 is for Linux)`);
  const second = await runOnce(name, { ...boot, elf: boot.elf.slice(0), initrd: boot.initrd?.slice(0) }, traceFormat, [first.snapshot]);
  return { ...second.result, fetchSeconds };
}

/** One run in a Worker of its own: `{result, snapshot}` (a Linux boot's snapshot, if it left one). */
async function runOnce(name, boot, traceFormat, snapshots) {
  const worker = new Worker(WORKER_URL, { type: "module" });
  const decoder = new TextDecoder();
  let console = "";
  let start = 0;
  let firstOutput = null;
  let result = null;
  let snapshot = null;
  let booted = null;
  let parked = null;
  const finished = new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if (data.type === "booted") {
        booted = data;
        start = performance.now();
        worker.postMessage({ type: "run" });
      } else if (data.type === "output") {
        if (firstOutput === null && data.console.length) firstOutput = performance.now();
        console += decoder.decode(data.console, { stream: true });
      } else if (data.type === "snapshot") {
        snapshot = data.bytes;
        parked = performance.now();
      } else if (data.type === "done") {
        const seconds = (performance.now() - start) / 1000;
        result = { elf: name, instret: data.instret, seconds, mips: data.instret / seconds / 1e6, exitCode: data.exitCode ?? null, compiledRegions: data.compiledRegions,
          firstOutputSeconds: firstOutput && (firstOutput - start) / 1000, bootSeconds: booted.bootMs / 1000, resumed: booted.resumed, console,
          // A cold Linux boot to its init's first request, where the Worker posts the snapshot.
          bootToInitSeconds: parked && booted.bootMs / 1000 + (parked - start) / 1000 };
        if (traceFormat === null) resolve(result);
        else worker.postMessage({ type: "trace", format: traceFormat });
      } else if (data.type === "trace") {
        resolve({ ...result, trace: data.text ?? data.json });
      } else if (data.type === "error") {
        reject(new Error(data.message));
      }
    };
  });
  worker.postMessage({ type: "speed", ips: 0 });
  worker.postMessage({ type: "boot", ...boot, snapshots });
  try {
    return { result: await finished, snapshot };
  } finally {
    worker.terminate();
  }
}

const status = document.getElementById("status");
bench().then((r) => {
  globalThis.benchResult = r;
  status.textContent = `${r.mips.toFixed(1)} M instructions/s (${r.instret} instructions in ${r.seconds.toFixed(3)} s)`;
  document.getElementById("out").textContent = r.console;
}, (e) => {
  globalThis.benchResult = { error: String(e.message ?? e) };
  status.textContent = `failed: ${globalThis.benchResult.error}`;
});
