// Unit tests of book/widget/strings.js, in node with no build: every key in every language.

import test from "node:test";
import assert from "node:assert/strict";
import { STRINGS, stringsFor } from "./strings.js";

const [base, ...others] = Object.keys(STRINGS);

test("every language has every widget string, of the same kind", () => {
  assert.deepEqual(Object.keys(STRINGS).sort(), ["en", "zh-CN"]);
  for (const lang of others) {
    assert.deepEqual(Object.keys(STRINGS[lang]).sort(), Object.keys(STRINGS[base]).sort(), `${lang} has the same keys as ${base}`);
    for (const [key, value] of Object.entries(STRINGS[base])) {
      const other = STRINGS[lang][key];
      assert.equal(typeof other, typeof value, `${lang}.${key}`);
      if (typeof value === "function") assert.equal(other.length, value.length, `${lang}.${key} takes the same arguments`);
    }
  }
});

test("every string is non-empty and every message shows all its arguments", () => {
  for (const [lang, table] of Object.entries(STRINGS)) {
    for (const [key, value] of Object.entries(table)) {
      if (typeof value === "string") {
        assert.ok(value.trim(), `${lang}.${key} is empty`);
        continue;
      }
      const args = Array.from({ length: value.length }, (_, i) => `ARG${i}`);
      const text = value(...args);
      for (const a of args) assert.ok(text.includes(a), `${lang}.${key} drops ${a}: ${text}`);
    }
  }
});

test("the Chinese table is Chinese and the page language picks the table", () => {
  assert.match(STRINGS["zh-CN"].run, /\p{Script=Han}/u);
  assert.notEqual(STRINGS["zh-CN"].run, STRINGS.en.run);
  assert.equal(stringsFor("zh-CN"), STRINGS["zh-CN"]);
  assert.equal(stringsFor("zh"), STRINGS["zh-CN"]);
  assert.equal(stringsFor("en-GB"), STRINGS.en);
  assert.equal(stringsFor("fr"), STRINGS.en, "an unknown language falls back to English");
  assert.equal(stringsFor(), STRINGS.en);
});
