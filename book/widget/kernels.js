// The kernels an experiment boots: the book's teaching kernel, or real Linux 6.12 or 6.1 as the
// site serves them (runqueue/linux/: kernels.json, each Image and the init's initramfs gzipped,
// laid out by scripts/linux-site.sh from what `make linux` built). Pure but for `loadLinux`.

export const BOOK_KERNEL = "runqueue";

/**
 * The site's Linux manifest, checked: `{kernels: [{name, label, image, ...}], initramfs, words,
 * workloads}`, or null when the site serves no Linux (a book built without it, or a bad file).
 */
export function linuxManifest(raw) {
  const fine = (k) => typeof k?.name === "string" && typeof k.label === "string" && typeof k.image === "string";
  if (!Array.isArray(raw?.kernels) || !raw.kernels.length || !raw.kernels.every(fine)) return null;
  if (typeof raw.initramfs !== "string" || !Array.isArray(raw.words) || !Array.isArray(raw.workloads)) return null;
  return raw;
}

/** The names an experiment may boot: the book's kernel first. */
export function kernelNames(manifest) {
  return [BOOK_KERNEL, ...(manifest?.kernels ?? []).map((k) => k.name)];
}

export function isLinux(name) {
  return name !== BOOK_KERNEL;
}

/**
 * The command line Linux's init gets for the teaching kernel's `bootargs` (`formatArgs`): the
 * words the init takes (the manifest's `words`: the same names where they mean the same thing),
 * without `sched=`, as Linux schedules with its own classes. `dropped` is the rest, the teaching
 * kernel's own settings (`tick_us=`, `rq=`, a scheduler's tunables), which the page names beside
 * the run rather than let the init refuse the whole line.
 */
export function linuxArgs(bootargs, manifest) {
  const args = [];
  const dropped = [];
  for (const word of String(bootargs).split(/\s+/).filter(Boolean)) {
    const name = word.split("=")[0];
    if (name === "sched") continue;
    (manifest.words.includes(name) ? args : dropped).push(word);
  }
  return { args: args.join(" "), dropped };
}

/** The Linux kernel `name` of the manifest, or undefined. */
export function linuxKernel(manifest, name) {
  return manifest?.kernels.find((k) => k.name === name);
}

/**
 * Fetches Linux `name`'s Image and the initramfs from `base` (the site's linux/ folder) and
 * unpacks them: `{kernel, initrd}` as ArrayBuffers. `httpError(status)` words a failed fetch.
 */
export async function loadLinux(base, manifest, name, httpError) {
  const gunzip = async (file) => {
    const response = await fetch(new URL(file, base));
    if (!response.ok) throw new Error(httpError(response.status));
    return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  };
  const [kernel, initrd] = await Promise.all([gunzip(linuxKernel(manifest, name).image), gunzip(manifest.initramfs)]);
  return { kernel, initrd };
}
