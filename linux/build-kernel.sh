#!/usr/bin/env bash
# Builds Runqueue's Linux NAME (6.12, 6.1, or 6.12-rt: 6.12 with PREEMPT_RT) for riscv64 from
# Debian's linux-source package of its version, unpatched: tinyconfig, then
# linux/config/common.config, linux/config/VERSION.config and, for 6.12-rt, linux/config/rt.config.
# The result goes to a directory of the cache named by the hash of every input (the package's
# version, the fragments, the compiler, this script), so a machine builds each kernel once; the
# directory's path is printed on the last line of stdout. The build is reproducible: fixed timestamp, user, host.
set -euo pipefail
NAME=${1:?usage: build-kernel.sh 6.12|6.1|6.12-rt}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${RUNQUEUE_LINUX_CACHE:-$HOME/.cache/runqueue/linux}
mkdir -p "$CACHE"
CROSS=riscv64-linux-gnu-
case "$NAME" in
  6.12|6.1) V=$NAME; extra=();;
  6.12-rt) V=6.12; extra=("$ROOT/linux/config/rt.config");;
  *) echo "build-kernel.sh: no such kernel '$NAME' (6.12, 6.1 or 6.12-rt)" >&2; exit 2;;
esac

pkg=linux-source-$V
pkgver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || {
  echo "build-kernel.sh: $pkg is not installed (make setup-linux installs it)" >&2; exit 2; }
frags=("$ROOT/linux/config/common.config" "$ROOT/linux/config/$V.config" "${extra[@]}")
key=$( { echo "$pkg $pkgver"; "${CROSS}gcc" --version | head -1; cat "$0" "${frags[@]}"; } | sha256sum | cut -c1-16)
out=$CACHE/$NAME-$key
if [ -f "$out/Image" ]; then echo "$out"; exit 0; fi

src=$("$ROOT/linux/unpack-source.sh" "$V")

# One build of a kernel at a time in this cache (two clones asking at once wait for each other).
exec 9>"$CACHE/.lock-$NAME-$key"
flock 9
if [ -f "$out/Image" ]; then echo "$out"; exit 0; fi
build=$out.build
rm -rf "$build" && mkdir -p "$build"
# The package's own date (dpkg keeps its files' times), so the banner is the same on every machine.
export KBUILD_BUILD_TIMESTAMP="$(date -u -R -d @"$(stat -c %Y "/usr/src/$pkg.tar.xz")")"
export KBUILD_BUILD_USER=runqueue KBUILD_BUILD_HOST=runqueue KBUILD_BUILD_VERSION=1
mk() { make -C "$src" O="$build" ARCH=riscv CROSS_COMPILE=$CROSS -s "$@"; }
start=$(date +%s)
mk tinyconfig >&2
"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "${frags[@]}" >/dev/null
mk olddefconfig >&2
# Every line of the fragments must have landed: a symbol Kconfig dropped (a missing dependency,
# a renamed option) would otherwise change the kernel without a word. A symbol turned off may
# be absent instead (its dependencies unmet): what counts is that it is not on. A later
# fragment's line for a symbol replaces an earlier one's, as merge_config.sh does.
missing=$(grep -hE '^(CONFIG_|# CONFIG_)' "${frags[@]}" | sed -E 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1 # off/; s/^(CONFIG_[A-Za-z0-9_]+)=/\1 =/' \
  | awk '{ last[$1] = $0; order[$1] = NR } END { for (s in last) print order[s], last[s] }' | sort -n | cut -d' ' -f2- \
  | sed -E 's/^(CONFIG_[A-Za-z0-9_]+) # off$/# \1 is not set/; s/^(CONFIG_[A-Za-z0-9_]+) =/\1=/' | while read -r line; do
  case "$line" in
    "# "*) sym=${line#\# }; sym=${sym%% *}; grep -q "^$sym=" "$build/.config" && echo "  $line";;
    *) grep -qxF "$line" "$build/.config" || echo "  $line";;
  esac; done)
if [ -n "$missing" ]; then
  echo "build-kernel.sh: Linux $NAME's Kconfig did not take these lines of the fragments:" >&2
  echo "$missing" >&2; exit 1
fi
mk -j"$(nproc)" Image >&2
secs=$(( $(date +%s) - start ))
tmp=$out.tmp && rm -rf "$tmp" && mkdir -p "$tmp"
cp "$build/arch/riscv/boot/Image" "$build/.config" "$build/System.map" "$tmp/"
{ echo "kernel=$NAME"; echo "package=$pkg"; echo "version=$pkgver"; echo "compiler=$("${CROSS}gcc" --version | head -1)";
  echo "build_seconds=$secs"; echo "image_sha256=$(sha256sum "$tmp/Image" | cut -d' ' -f1)"; } > "$tmp/manifest"
rm -rf "$build" "$out" && mv "$tmp" "$out"
echo "$out"
