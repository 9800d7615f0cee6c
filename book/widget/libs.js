// The terminal (xterm.js) and the charts (Chart.js) are most of the widget's weight, so a page
// loads them only when a reader is about to run an experiment (a pointer over it, focus in it,
// or Run itself), once for all its widgets: the chapter's text needs none of them.

import { pageLang, stringsFor } from "./strings.js";

const VENDOR = new URL("../vendor/", import.meta.url);
const T = stringsFor(pageLang());
let loading = null;

function load(tag, props) {
  return new Promise((resolve, reject) => {
    const node = Object.assign(document.createElement(tag), props);
    node.onload = resolve;
    node.onerror = () => reject(new Error(T.scriptFailed(props.src ?? props.href)));
    document.head.append(node);
  });
}

/** {Terminal, Chart}, loading them (and xterm's stylesheet) the first time it is asked. */
export function loadLibraries() {
  loading ??= Promise.all([
    import(new URL("xterm.mjs", VENDOR).href),
    load("script", { src: new URL("chart.umd.min.js", VENDOR).href }),
    load("link", { rel: "stylesheet", href: new URL("xterm.css", VENDOR).href }),
  ]).then(([xterm]) => ({ Terminal: xterm.Terminal, Chart: globalThis.Chart }))
    .catch((e) => {
      loading = null; // a later Run tries again
      throw e;
    });
  return loading;
}
