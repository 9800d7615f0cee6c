// The two browser engines besides Chromium, behind one small interface for the core suite
// (core.test.mjs): Firefox ESR (Debian's firefox-esr) driven by puppeteer-core over WebDriver
// BiDi, and WebKitGTK's MiniBrowser (Debian's webkit2gtk-driver) driven over W3C WebDriver
// by WebKitWebDriver, which needs an X display (`make test-engines` runs it under xvfb-run).
//
// A driver opens URLs in one tab and runs functions in the page: `call(fn, ...args)` awaits
// `fn(...args)` there (arguments and result as JSON) and throws what the page threw.

import { spawn } from "node:child_process";
import { createServer } from "node:net";
import puppeteer from "puppeteer-core";

const FIREFOX = process.env.FIREFOX ?? "/usr/bin/firefox-esr";
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver";
const MINIBROWSER = process.env.MINIBROWSER ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
// A script's longest wait (a chapter's run, a grading) before the driver gives up.
const SCRIPT_TIMEOUT_MS = 300_000;

async function firefox() {
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    protocol: "webDriverBiDi",
    // The page may start Workers and large downloads; nothing may be fetched from elsewhere.
    extraPrefsFirefox: { "network.dns.disableIPv6": true, "browser.safebrowsing.malware.enabled": false },
  });
  const page = await browser.newPage();
  page.setDefaultTimeout(SCRIPT_TIMEOUT_MS);
  return {
    name: `Firefox ${(await browser.version()).replace(/^firefox\//, "")}`,
    goto: (url) => page.goto(url, { waitUntil: "load" }),
    call: (fn, ...args) => page.evaluate(fn, ...args),
    close: () => browser.close(),
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function webkit() {
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  driver.stderr.on("data", (d) => { stderr += d; });
  const base = `http://127.0.0.1:${port}`;
  const request = async (method, path, body) => {
    const r = await fetch(base + path, { method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body) });
    const { value } = await r.json();
    if (!r.ok) throw new Error(`WebDriver ${method} ${path}: ${value?.error}: ${value?.message}`);
    return value;
  };
  let session;
  for (let tries = 0; !session; tries++) {
    try {
      session = await request("POST", "/session", { capabilities: { alwaysMatch: {
        "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
        timeouts: { script: SCRIPT_TIMEOUT_MS, pageLoad: 120_000 },
      } } });
    } catch (e) {
      if (tries > 50 || driver.exitCode !== null) throw new Error(`WebKitWebDriver did not start a session: ${e.message}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const path = `/session/${session.sessionId}`;
  // The page's function, awaited, with WebDriver's callback as the last argument.
  const wrap = (fn) => `const done = arguments[arguments.length - 1];
    Promise.resolve().then(() => (${fn})(...Array.from(arguments).slice(0, -1)))
      .then((value) => done({ value: value === undefined ? null : value }), (e) => done({ error: String(e && e.stack || e) }));`;
  return {
    name: `WebKitGTK ${session.capabilities.browserVersion} (MiniBrowser)`,
    goto: (url) => request("POST", `${path}/url`, { url }),
    async call(fn, ...args) {
      const r = await request("POST", `${path}/execute/async`, { script: wrap(fn), args });
      if (r.error) throw new Error(r.error);
      return r.value;
    },
    async close() {
      await request("DELETE", path).catch(() => {});
      driver.kill();
    },
  };
}

export const ENGINES = { firefox, webkit };

/** Starts the engine `name` ("firefox" or "webkit"). */
export function launch(name) {
  const start = ENGINES[name];
  if (!start) throw new Error(`RQ_ENGINE=${name}: one of ${Object.keys(ENGINES).join(", ")}`);
  return start();
}
