// What the homework tests type: an answer of the same kind as a question's (its `Answer::to_json`)
// that is not the kernel's.

/** An answer of the same kind that is not the key's (`{answer}`: a question's answer JSON). */
export function wrong({ answer }) {
  if (answer.kind === "number") return String(answer.value + 10 * Math.max(answer.abs, 1) + 10 * Math.abs(answer.value));
  if (answer.kind === "choice") return answer.choices.find((c) => c !== answer.value);
  return [...answer.value].reverse().join(", ");
}
