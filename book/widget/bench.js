// The benchmark page: runs an ELF to completion in large slices, yielding between them, and
// publishes {instret, seconds, mips, exitCode} as `window.benchResult` for web/bench.mjs.

import init, { Session, Status } from "../pkg/runqueue_wasm.js";

const SLICE = 50_000_000;

async function bench() {
  const q = new URLSearchParams(location.search);
  const name = q.get("elf") ?? "bench.elf";
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error(`elf=${name} is not a plain file name`);
  const harts = Number(q.get("harts") ?? 1);
  const limit = Number(q.get("max") ?? 20e9); // a partial run still gives a rate
  await init();
  const response = await fetch(new URL(`../${name}`, import.meta.url));
  if (!response.ok) throw new Error(`${name} could not be loaded (HTTP ${response.status})`);
  const session = new Session(new Uint8Array(await response.arrayBuffer()), harts, q.get("args") ?? "");
  const start = performance.now();
  let status = Status.Budget;
  let console = "";
  const decoder = new TextDecoder();
  while (status === Status.Budget && session.instret() < limit) {
    status = session.run(SLICE);
    console += decoder.decode(session.take_console(), { stream: true });
    await new Promise((r) => setTimeout(r, 0)); // keep the page responsive between slices
  }
  const seconds = (performance.now() - start) / 1000;
  if (status === Status.Fault) throw new Error(`the machine stopped: ${session.fault()}`);
  const instret = session.instret();
  return { elf: name, instret, seconds, mips: instret / seconds / 1e6, exitCode: session.exit_code() ?? null, console };
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
