#!/usr/bin/env bash
# Unpacks Debian's linux-source-VERSION once per package version into the Linux cache and
# prints the tree's path. Both build-kernel.sh and build-initramfs.sh start from it.
set -euo pipefail
V=${1:?usage: unpack-source.sh 6.12|6.1}
CACHE=${RUNQUEUE_LINUX_CACHE:-$HOME/.cache/runqueue/linux}
pkg=linux-source-$V
pkgver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || {
  echo "unpack-source.sh: $pkg is not installed (make setup-linux installs it)" >&2; exit 2; }
src=$CACHE/src/$pkg-$pkgver
mkdir -p "$CACHE/src"
# One unpacking at a time: two builds started together share it.
exec 9>"$CACHE/src/.lock-$V"
flock 9
if [ ! -f "$src/Makefile" ]; then
  echo "unpacking $pkg $pkgver" >&2
  rm -rf "$src.tmp" && mkdir -p "$src.tmp"
  tar -xJf "/usr/src/$pkg.tar.xz" -C "$src.tmp" --strip-components=1
  rm -rf "$src" && mv "$src.tmp" "$src"
fi
echo "$src"
