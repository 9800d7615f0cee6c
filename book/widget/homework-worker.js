// The homework's thread: draws a student's own problem with the CLI's generator (the homework
// wasm's `generate`), each of whose kernel runs is the page's emulator (the emulator wasm's
// `Session`) booting the site's kernel on the draw's command line, so the answers are the
// kernel's, as `runqueue homework --student` gives them. Protocol:
//   page -> worker: {type: "generate", chapter, level, student}
//   worker -> page: {type: "problem", json, markdown, ms} (the problem as the CLI's `--json`
//                                                         and `--answers` print it, as text;
//                                                         the time taken)
//                   {type: "error", detail}                  (the generator's or emulator's words)

import initEmulator, { Session, Status } from "../pkg/runqueue_wasm.js";
import initHomework, { generate } from "../pkg/runqueue_homework_wasm.js";

// Instructions per Session.run call.
const SLICE = 20_000_000;
const ready = Promise.all([
  initEmulator(),
  initHomework(new URL("../pkg/runqueue_homework_wasm_bg.wasm", import.meta.url)),
  fetch(new URL("../kernel.elf", import.meta.url)).then((r) => {
    if (!r.ok) throw new Error(`kernel.elf: HTTP ${r.status}`);
    return r.arrayBuffer();
  }),
]).then(([, , elf]) => new Uint8Array(elf));

/** One kernel run to its end, as `runqueue homework` makes it natively: [console, trace]. */
function runKernel(elf, args, max) {
  const session = new Session(elf, args);
  try {
    let status = Status.Budget;
    while (status === Status.Budget && session.instret() < max) {
      status = session.run(Math.min(SLICE, max - session.instret()));
    }
    if (status === Status.Fault) throw new Error(`the guest stopped the machine: ${session.fault()}`);
    if (status !== Status.Exit) throw new Error(`the kernel did not finish \`${args}\` within ${max} instructions`);
    const text = session.console_text();
    const code = session.exit_code();
    if (code !== 0) throw new Error(`the kernel exited with code ${code} on \`${args}\``);
    return [text, session.trace_text()];
  } finally {
    session.free(); // each machine holds its own wasm memory
  }
}

onmessage = async ({ data }) => {
  if (data?.type !== "generate") return postMessage({ type: "error", detail: `not a request: ${JSON.stringify(data?.type)}` });
  try {
    const elf = await ready;
    const start = performance.now();
    const [json, markdown] = generate(data.chapter, data.level, data.student, (args, max) => runKernel(elf, args, max));
    postMessage({ type: "problem", json, markdown, ms: performance.now() - start });
  } catch (e) {
    postMessage({ type: "error", detail: String(e.message ?? e) });
  }
};
