#!/usr/bin/env bash
# Builds the initramfs Runqueue boots Linux with: the init (linux/init/*.c) compiled against
# Linux 6.12's own nolibc and UAPI headers (from Debian's linux-source-6.12), static, for
# rv64imac without floating point, packed as a newc cpio by the kernel's gen_init_cpio with every
# time set to 0, so the archive is the same bytes on every machine. Cached like the kernels
# (build-kernel.sh): the directory's path is printed on the last line of stdout.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${RUNQUEUE_LINUX_CACHE:-$HOME/.cache/runqueue/linux}
CROSS=riscv64-linux-gnu-
pkg=linux-source-6.12
pkgver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || {
  echo "build-initramfs.sh: $pkg is not installed (make setup-linux installs it)" >&2; exit 2; }
sources=("$ROOT"/linux/init/*.c "$ROOT"/linux/init/*.h)
key=$( { echo "$pkg $pkgver"; "${CROSS}gcc" --version | head -1; cat "$0" "${sources[@]}"; } | sha256sum | cut -c1-16)
out=$CACHE/initramfs-$key
if [ -f "$out/initramfs.cpio" ]; then echo "$out"; exit 0; fi

src=$("$ROOT/linux/unpack-source.sh" 6.12)
work=$out.build
rm -rf "$work" && mkdir -p "$work"
make -C "$src" O="$work/hdr" ARCH=riscv -s headers >&2
"${CROSS}gcc" -Os -static -nostdlib -nostdinc -fno-asynchronous-unwind-tables -fno-ident \
  -march=rv64imac_zicsr_zifencei -mabi=lp64 -Wall -Wextra -Werror -Wno-unused-function \
  -I "$src/tools/include/nolibc" -I "$work/hdr/usr/include" -I "$ROOT/linux/init" \
  -o "$work/init" "$ROOT"/linux/init/*.c
"${CROSS}strip" "$work/init"
gcc -O2 -o "$work/gen_init_cpio" "$src/usr/gen_init_cpio.c"
cat > "$work/list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
file /init $work/init 0755 0 0
LIST
"$work/gen_init_cpio" -t 0 "$work/list" > "$work/initramfs.cpio"
tmp=$out.tmp && rm -rf "$tmp" && mkdir -p "$tmp"
cp "$work/initramfs.cpio" "$tmp/"
{ echo "nolibc=$pkg $pkgver"; echo "compiler=$("${CROSS}gcc" --version | head -1)";
  echo "sha256=$(sha256sum "$tmp/initramfs.cpio" | cut -d' ' -f1)"; } > "$tmp/manifest"
rm -rf "$work" "$out" && mv "$tmp" "$out"
echo "$out"
