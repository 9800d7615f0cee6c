// The lab grader's thread: boots the student's kernel once per public test, with the test's
// arguments and instruction budget, and records each run in a wasm `Grading`, which scores it
// with the same code as `runqueue grade` (docs/labs.md). Protocol:
//   page -> worker: {type: "grade", elf: ArrayBuffer, lab, tests: text of the lab's tests}
//   worker -> page: {type: "test", index, count, name}    (a test starts)
//                   {type: "done", table, results, report} (the CLI's table, results.json,
//                                                          the results as data: grade-text.js)
//                   {type: "error", kind, detail}         (no grade: `notKernel`, the file does
//                                                          not boot; `grader`, bad tests or a
//                                                          grader fault; `request`, a bad message)
// The page words the error in its language (strings.js); `detail` is the emulator's own.

import init, { Grading, Session, Status } from "../pkg/runqueue_wasm.js";

// Instructions per Session.run call.
const SLICE = 20_000_000;
const ready = init();

// Runs test `i` to its end and records it; false when the file cannot be booted at all.
function runTest(grading, elf, i) {
  let session;
  try {
    session = new Session(elf, grading.bootargs(i));
  } catch (e) {
    postMessage({ type: "error", kind: "notKernel", detail: String(e.message ?? e) });
    return false;
  }
  try {
    const max = grading.max_insns(i);
    let status = Status.Budget;
    while (status === Status.Budget && session.instret() < max) {
      status = session.run(Math.min(SLICE, max - session.instret()));
    }
    if (status === Status.Exit) grading.finished(i, session.exit_code(), session.console_text(), session.trace_text());
    else if (status === Status.Fault) grading.faulted(i, session.fault());
    else grading.out_of_budget(i, session.trace_text(), session.time_ns());
  } finally {
    session.free(); // each machine holds 128 MiB of wasm memory
  }
  return true;
}

async function grade({ elf, lab, tests }) {
  await ready;
  let grading;
  try {
    grading = new Grading(lab, tests);
  } catch (e) {
    return postMessage({ type: "error", kind: "grader", detail: String(e.message ?? e) });
  }
  const bytes = new Uint8Array(elf);
  const count = grading.count();
  for (let i = 0; i < count; i++) {
    postMessage({ type: "test", index: i, count, name: grading.name(i) });
    if (!runTest(grading, bytes, i)) return grading.free();
  }
  postMessage({ type: "done", table: grading.table(), results: grading.results_json(), report: grading.report_json() });
  grading.free();
}

onmessage = ({ data }) => {
  if (data?.type !== "grade") return postMessage({ type: "error", kind: "request", detail: JSON.stringify(data?.type) });
  grade(data).catch((e) => postMessage({ type: "error", kind: "grader", detail: String(e.message ?? e) }));
};
