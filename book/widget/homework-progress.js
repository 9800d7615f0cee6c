// A reader's homework progress, pure (no DOM, no storage), so node tests it: per problem
// (`chapter:seed:level`: the build's problem and each student's own, drawn from their name,
// are kept apart by their seeds) and question, the text last checked and
// whether it was right. homework.js keeps it in localStorage, one entry per edition, and
// exports and imports it as a file of this shape.

export const FORMAT = "runqueue-homework-progress";
const VERSION = 1;

/** The localStorage key of an edition's progress (`en`, `zh-CN`). */
export const storageKey = (edition) => `${FORMAT}/${edition}`;

/** Which problem (the CLI's JSON) a field belongs to: its chapter, seed and level. */
export const problemKey = (p) => `${p.chapter}:${p.seed}:${p.level}`;

/** `problems` with question `question` of problem `problem` set to `entry` ({text, right}). */
export function record(problems, problem, question, entry) {
  return { ...problems, [problem]: { ...problems[problem], [question]: { text: entry.text, right: entry.right } } };
}

/** The problems of a stored or imported progress, or why they are not progress. */
function readProblems(problems) {
  if (!problems || typeof problems !== "object" || Array.isArray(problems)) return { broken: "no problems" };
  for (const [problem, questions] of Object.entries(problems)) {
    if (!/^[\w-]+:\d+:\w+$/.test(problem)) return { broken: `"${problem}" is not a problem` };
    if (!questions || typeof questions !== "object" || Array.isArray(questions)) return { broken: `${problem} holds no questions` };
    for (const [q, entry] of Object.entries(questions)) {
      if (!/^q\d+$/.test(q) || typeof entry?.text !== "string" || typeof entry?.right !== "boolean") {
        return { broken: `${problem} ${q} is not a checked answer` };
      }
    }
  }
  return { problems };
}

/** What localStorage held (a string or null): its problems, or none when it is unreadable. */
export function fromStorage(text) {
  try {
    return readProblems(JSON.parse(text ?? "{}")).problems ?? {};
  } catch {
    return {};
  }
}

/** The file "Export progress" downloads. */
export function exportFile(problems, edition) {
  return JSON.stringify({ format: FORMAT, version: VERSION, edition, problems }, null, 1);
}

/**
 * Reads an imported file's text: `{problems}` to merge, or `{foreign: true}` (another kind of
 * file, or another edition's progress) or `{broken: why}` (not JSON, or progress that does not
 * read).
 */
export function readImport(text, edition) {
  let file;
  try {
    file = JSON.parse(text);
  } catch {
    return { broken: "not JSON" };
  }
  if (file?.format !== FORMAT || file.edition !== edition) return { foreign: true };
  if (file.version !== VERSION) return { broken: `version ${file.version}` };
  return readProblems(file.problems);
}

/** `problems` with every answer of `imported` laid over them. */
export function merge(problems, imported) {
  let out = problems;
  for (const [problem, questions] of Object.entries(imported)) {
    for (const [q, entry] of Object.entries(questions)) out = record(out, problem, q, entry);
  }
  return out;
}

/** The count of answers in `problems`. */
export const answerCount = (problems) => Object.values(problems).reduce((n, qs) => n + Object.keys(qs).length, 0);

/** The result line for the wasm's verdict (`{right}` or `{unreadable, count}`) in strings `T`. */
export function verdictText(T, verdict) {
  if ("right" in verdict) return verdict.right ? T.hwRight : T.hwNotYet;
  if (verdict.unreadable === "not-a-number") return T.hwNotANumber;
  if (verdict.unreadable === "wrong-count") return T.hwWrongCount(verdict.count);
  return T.hwUnknownName;
}
