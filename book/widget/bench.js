// The benchmark page: runs an ELF to completion in the widget's own Worker (worker.js, so it
// measures exactly what a reader's run gets) and publishes {instret, seconds, mips, exitCode,
// console} as `window.benchResult` for web/bench.mjs. With `?trace=ftrace` (or `chrome`) it
// then asks the Worker for the run's trace in that format, after the clock has stopped, and
// adds it as `trace`: the determinism test compares both with `runqueue run`'s. `?tier=off` runs
// with the compiled tier off (every instruction interpreted), `?tier=eager` compiles a region
// at the first jump to its entry; `compiledRegions` says how many regions the tier compiled.

const WORKER_URL = new URL("./worker.js", import.meta.url);

async function bench() {
  const q = new URLSearchParams(location.search);
  const name = q.get("elf") ?? "bench.elf";
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error(`elf=${name} is not a plain file name`);
  const response = await fetch(new URL(`../${name}`, import.meta.url));
  if (!response.ok) throw new Error(`${name} could not be loaded (HTTP ${response.status})`);
  const elf = await response.arrayBuffer();
  const traceFormat = q.get("trace");
  if (traceFormat !== null && !["ftrace", "chrome"].includes(traceFormat)) throw new Error(`trace=${traceFormat}: use ftrace or chrome`);
  const worker = new Worker(WORKER_URL, { type: "module" });
  const decoder = new TextDecoder();
  let console = "";
  let start = 0;
  let result = null;
  const finished = new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if (data.type === "booted") {
        start = performance.now();
        worker.postMessage({ type: "run" });
      } else if (data.type === "output") {
        console += decoder.decode(data.console, { stream: true });
      } else if (data.type === "done") {
        const seconds = (performance.now() - start) / 1000;
        result = { elf: name, instret: data.instret, seconds, mips: data.instret / seconds / 1e6, exitCode: data.exitCode ?? null, compiledRegions: data.compiledRegions, console };
        if (traceFormat === null) resolve(result);
        else worker.postMessage({ type: "trace", format: traceFormat });
      } else if (data.type === "trace") {
        resolve({ ...result, trace: data.text ?? data.json });
      } else if (data.type === "error") {
        reject(new Error(data.message));
      }
    };
  });
  const tier = q.get("tier") ?? "on";
  if (!["on", "off", "eager"].includes(tier)) throw new Error(`tier=${tier}: use on, off or eager`);
  worker.postMessage({ type: "speed", ips: 0 });
  worker.postMessage({ type: "boot", elf, bootargs: q.get("args") ?? "", budget: Number(q.get("max") ?? 20e9), compiled: { on: true, off: false, eager: "eager" }[tier] });
  try {
    return await finished;
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
