// Unit tests, in node, of the Chinese catalog text (book/widget/catalog-zh.js) against the real
// catalog the kernel prints (`runqueue run --append catalog`): every scheduler, workload, tunable
// and unit has Chinese text, and the table names nothing the kernel does not have.

import test from "node:test";
import assert from "node:assert/strict";
import { CATALOG_ZH, SCHEDULERS, TUNABLES, UNITS, WORKLOADS } from "../../book/widget/catalog-zh.js";
import { normalizeCatalog } from "../../book/widget/catalog.js";
import { rawCatalog } from "../../book/figures/kernel-catalog.mjs";
import { runqueueCli } from "../../scripts/target-dir.mjs";

const raw = rawCatalog(runqueueCli());
const owned = (kind) => raw[kind].flatMap((e) => (e.tunables ?? []).map((t) => ({ ...t, owner: e.name })));
// Every tunable with the scheduler or workload listing it; globals have none.
const tunables = [...raw.globals.map((t) => ({ ...t, owner: undefined })), ...owned("schedulers"), ...owned("workloads")];
const HAN = /\p{Script=Han}/u;

const missing = (names, has) => names.filter((n) => !has(n));
const extra = (table, names) => Object.keys(table).filter((k) => !names.includes(k));

test("the kernel's catalog lists what the table is checked against", () => {
  assert.ok(raw.schedulers.length > 0 && raw.workloads.length > 0 && tunables.length > 0);
});

test("every scheduler and workload has Chinese help", () => {
  for (const [kind, lookup] of [["schedulers", CATALOG_ZH.scheduler], ["workloads", CATALOG_ZH.workload]]) {
    const names = raw[kind].map((e) => e.name);
    assert.deepEqual(missing(names, (n) => HAN.test(lookup(n) ?? "")), [], `${kind} without Chinese help`);
  }
});

test("every tunable has Chinese help, as a setting of each scheduler or workload listing it", () => {
  const lacking = tunables.filter((t) => !HAN.test(CATALOG_ZH.tunable(t.name, t.owner) ?? ""));
  assert.deepEqual(lacking.map((t) => `${t.owner ?? "global"}: ${t.name}`), [], "tunables without Chinese help");
});

test("every unit has a Chinese spelling", () => {
  const units = [...new Set(tunables.map((t) => t.unit).filter(Boolean))];
  assert.deepEqual(missing(units, (u) => CATALOG_ZH.unit(u)), [], "units without a Chinese spelling");
  assert.deepEqual(extra(UNITS, units), [], "units the catalog does not use");
});

test("the table names nothing the catalog lacks", () => {
  assert.deepEqual(extra(SCHEDULERS, raw.schedulers.map((e) => e.name)), [], "schedulers not in the catalog");
  assert.deepEqual(extra(WORKLOADS, raw.workloads.map((e) => e.name)), [], "workloads not in the catalog");
  assert.deepEqual(extra(TUNABLES, tunables.map((t) => t.name)), [], "tunables not in the catalog");
  for (const [name, byOwner] of Object.entries(TUNABLES)) {
    if (typeof byOwner !== "object") continue;
    const owners = tunables.filter((t) => t.name === name).map((t) => t.owner);
    assert.deepEqual(extra(byOwner, owners), [], `${name}: owners that do not list it`);
  }
});

test("a name whose English help differs between owners is translated per owner", () => {
  const helps = new Map();
  for (const t of tunables) helps.set(t.name, new Set([...(helps.get(t.name) ?? []), t.help]));
  const shared = [...helps].filter(([name, set]) => set.size > 1 && typeof TUNABLES[name] !== "object");
  assert.deepEqual(shared.map(([name]) => name), [], "one Chinese text for tunables the kernel describes differently");
});

test("normalizeCatalog shows Chinese on zh pages and the kernel's English elsewhere", () => {
  const zh = normalizeCatalog(raw, "zh-CN");
  const en = normalizeCatalog(raw, "en");
  const spin = (c) => c.workloads.find((w) => w.name === "spin");
  const unitInsns = (c) => spin(c).tunables.find((t) => t.name === "wl.unit_insns");
  assert.equal(spin(zh).help, WORKLOADS.spin);
  assert.equal(unitInsns(zh).help, TUNABLES["wl.unit_insns"].spin);
  assert.equal(unitInsns(zh).unit, UNITS.instructions);
  assert.equal(zh.common.find((t) => t.name === "tick_us").help, TUNABLES.tick_us);
  assert.equal(zh.scheds.find((s) => s.name === "cfs").help, SCHEDULERS.cfs);

  const rawSpin = raw.workloads.find((w) => w.name === "spin");
  assert.equal(spin(en).help, rawSpin.help);
  assert.equal(unitInsns(en).help, rawSpin.tunables.find((t) => t.name === "wl.unit_insns").help);
  assert.equal(unitInsns(en).unit, "instructions");
  // Everything but the texts is the same in both languages: names, defaults and limits.
  const shape = (c) => JSON.stringify([...c.tunables.values()].map(({ help, unit, ...rest }) => rest));
  assert.equal(shape(zh), shape(en));
});

test("a name the table lacks keeps the kernel's English on a zh page", () => {
  const added = structuredClone(raw);
  added.workloads[0].help = "a workload the table has not met";
  added.workloads[0].name = "brand-new";
  added.defaults.workload = "brand-new";
  const zh = normalizeCatalog(added, "zh-CN");
  assert.equal(zh.workloads[0].help, "a workload the table has not met");
});
