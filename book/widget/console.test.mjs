// Unit tests of book/widget/console.js, in node with no build.

import test from "node:test";
import assert from "node:assert/strict";
import { ResultLineFilter } from "./console.js";

test("the terminal shortens the RESULT line, however the console text is split", () => {
  const text = "hello\n tid name\n   1 task0\nRESULT {\"a\":1}\nRESULTS are in\nbye";
  for (let cut = 0; cut <= text.length; cut++) {
    const f = new ResultLineFilter((n) => `[${n} characters]`);
    const shown = f.push(text.slice(0, cut)) + f.push(text.slice(cut));
    assert.equal(shown, "hello\n tid name\n   1 task0\nRESULT [7 characters]\nRESULTS are in\nbye", `cut at ${cut}`);
  }
});
