import { start } from "./browser.mjs";
import { open, settle, finished } from "./pages.mjs";
const site = await start();
const tree = async (page) => { const cdp = await page.context().newCDPSession(page); await cdp.send("Accessibility.enable"); const { nodes } = await cdp.send("Accessibility.getFullAXTree"); await cdp.detach(); return nodes; };
{
  const { page } = await open(site, "chapters/03-fifo-rr.html");
  await settle(page);
  await page.locator(".rq-widget").first().locator(".rq-run").click(); await finished(page, 0);
  await page.locator(".rq-terminal").first().scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  console.log(await page.evaluate(() => { const t = runqueue.experiments[0].panes[0].terminal; return [t.buffer.active.viewportY, t.buffer.active.length, t.rows]; }));
  await page.evaluate(() => { const t = runqueue.experiments[0].panes[0].terminal; t.scrollLines(-1); t.scrollLines(1); });
  await page.waitForTimeout(300);
  console.log(await page.evaluate(() => [...document.querySelector(".xterm-accessibility-tree").children].map((r) => r.textContent.trimEnd())));
  const nodes = await tree(page);
  console.log(nodes.filter((n) => /runqueue-kernel|task0/.test(n.name?.value ?? "")).slice(0, 6).map((n) => [n.role?.value, n.ignored, JSON.stringify(n.name?.value).slice(0, 100)]));
}
await site.stop();
