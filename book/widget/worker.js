// The emulator's thread. It owns one wasm Session, runs it in slices so that messages from
// the page (pause, input, speed) are seen between slices, and posts what each batch of
// slices produced: console bytes, parsed trace events and progress. Protocol: docs/web.md.

import init, { Session, Status } from "../pkg/runqueue_wasm.js";
import { stringsFor } from "./strings.js";

// A batch of slices ends after about this much wall time, so the page gets a steady stream
// of updates and our message queue is read often enough for Pause to feel immediate.
const BATCH_MS = 30;
// Instructions per Session.run call: small enough to check the clock often.
const SLICE = 2_000_000;

let session = null;
let running = false;
let maxInsns = 0;
let pace = 0; // instructions per wall second; 0 = as fast as possible
let share = 1; // the part of a core this Worker may take: the page keeps one core for itself
let T = stringsFor(); // the page's language arrives with `boot`
const ready = init();

const post = (msg, transfer = []) => postMessage(msg, transfer);
// `quote` is the emulator's own words within `message`, which the page shows as code.
const fail = (message, quote) => {
  running = false;
  session = null;
  post({ type: "error", message, quote });
};
const why = (e) => String(e.message ?? e);

// Yields to the event loop without the 4 ms clamp nested timers get.
const channel = new MessageChannel();
let wake = null;
channel.port1.onmessage = () => wake?.();
const yieldNow = () => new Promise((r) => { wake = r; channel.port2.postMessage(0); });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function progress() {
  return { instret: session.instret(), timeNs: session.time_ns() };
}

// Posts everything produced since the last flush, and a Linux boot's snapshot once it is made.
function flush() {
  const bytes = session.take_console();
  const events = JSON.parse(session.take_events());
  post({ type: "output", console: bytes, events, ...progress() }, [bytes.buffer]);
  const snapshot = session.take_snapshot();
  if (snapshot) post({ type: "snapshot", bytes: snapshot.buffer }, [snapshot.buffer]);
}

function finish(status) {
  running = false;
  if (status === Status.Fault) {
    const fault = session.fault();
    post({ type: "error", message: T.machineStopped(fault), quote: fault, ...progress() });
    return;
  }
  let result = null;
  let problem = null;
  try {
    result = session.result_json() ?? null;
  } catch (e) {
    problem = String(e.message ?? e);
  }
  post({ type: "done", exitCode: session.exit_code(), result, problem, compiledRegions: session.compiled_regions(), ...progress() });
}

// Runs `limit` instructions at most, or until the batch's time is up. Returns the status.
function batch(limit) {
  const start = performance.now();
  let done = 0;
  let status = Status.Budget;
  while (done < limit && status === Status.Budget) {
    const left = maxInsns - session.instret();
    if (left <= 0) break;
    const before = session.instret();
    status = session.run(Math.min(SLICE, limit - done, left));
    done += session.instret() - before;
    // A Linux boot has parked: its snapshot goes to the page at once.
    if (session.has_snapshot() || performance.now() - start > BATCH_MS) break;
  }
  return status;
}

function overBudget() {
  if (session.instret() < maxInsns) return false;
  const ms = (session.time_ns() / 1e6).toFixed(0);
  running = false;
  session = null;
  post({ type: "error", budget: true, message: T.budget(maxInsns.toLocaleString("en"), ms) });
  return true;
}

async function loop() {
  while (running && session) {
    const wallStart = performance.now();
    const status = batch(pace ? Math.max(1, Math.round((pace * BATCH_MS) / 1000)) : Infinity);
    flush();
    if (status !== Status.Budget) return finish(status);
    if (overBudget()) return;
    const spent = performance.now() - wallStart;
    if (pace) await sleep(Math.max(0, BATCH_MS - spent));
    else if (share < 1) await sleep(spent * (1 / share - 1));
    else await yieldNow();
  }
}

const handlers = {
  async boot({ elf, initrd, bootargs, budget, lang, compiled = true, snapshots = [] }) {
    T = stringsFor(lang);
    await ready;
    running = false;
    maxInsns = budget;
    const started = performance.now();
    try {
      // Linux boots the page's earlier Workers parked: one that boots the same way starts there.
      for (const bytes of snapshots) Session.keep_snapshot(new Uint8Array(bytes));
      session = Session.with_initrd(new Uint8Array(elf), initrd && new Uint8Array(initrd), bootargs);
      // Off or eager only for comparison and tests (the bench page): the run is the same
      // every way.
      if (compiled !== true) session.set_compiled_tier(compiled !== false, compiled === "eager");
    } catch (e) {
      return fail(T.bootFailed(why(e)), why(e));
    }
    post({ type: "booted", resumed: session.resumed(), bootMs: performance.now() - started });
  },
  run() {
    if (!session || running) return;
    running = true;
    post({ type: "state", state: "running" });
    loop().catch((e) => fail(T.emulatorError(why(e)), why(e)));
  },
  pause() {
    if (!running) return; // a finished or paused machine keeps its state
    running = false;
    post({ type: "state", state: "paused", ...progress() });
  },
  step({ insns }) {
    if (!session || running) return;
    const status = batch(insns);
    flush();
    if (status !== Status.Budget) finish(status);
    else if (!overBudget()) post({ type: "state", state: "paused", ...progress() });
  },
  speed({ ips }) {
    pace = ips;
  },
  share({ part }) {
    share = part > 0 && part <= 1 ? part : 1;
  },
  input({ bytes }) {
    session?.push_input(bytes);
  },
  trace({ format }) {
    if (!session) return;
    try {
      post(format === "ftrace" ? { type: "trace", text: session.ftrace_text() } : { type: "trace", json: session.chrome_trace() });
    } catch (e) {
      post({ type: "error", message: T.emulatorError(why(e)), quote: why(e) });
    }
  },
};

// Requests are handled one after another: `run` sent right after `boot` must wait for the
// wasm module to load and the machine to boot.
let queue = Promise.resolve();
onmessage = ({ data }) => {
  const handler = handlers[data?.type];
  if (!handler) return post({ type: "error", message: T.unknownRequest(JSON.stringify(data?.type)) });
  queue = queue.then(() => handler(data)).catch((e) => fail(T.emulatorError(why(e)), why(e)));
};
