#!/bin/sh
# Lays out the site's Linux folder from what `make linux` built (linux/README.md): each kernel's
# Image and the init's initramfs gzipped (the page unpacks them with DecompressionStream), each
# kernel's .config, and kernels.json, which the widget reads to offer the kernels and the book
# cites for the licence (the exact Debian source package and version of each image).
# Usage: linux-site.sh OUT_DIR LINUX_DIR VERSION...  (the versions in the order the page offers them)
set -eu
out=$1 linux=$2
shift 2
rm -rf "$out" && mkdir -p "$out"
field() { sed -n "s/^$1=//p" "$2" | head -1; }
init=$(dirname "$0")/../linux/init
# "a","b",...: the names in the init's tables, `{ "NAME", K_KIND` for settings and
# `{ "NAME", NAME_t, SPAWN }` for workloads; isolcpus= and nohz_full= are Linux's own words.
quoted() { sed 's/.*/"&"/' | paste -sd, -; }
words=$( { grep -ohE '\{ "[a-z_.0-9]+", K_[A-Z]+' "$init"/*.c | sed -E 's/\{ "([^"]+)".*/\1/'; printf 'isolcpus\nnohz_full\n'; } | sort -u | quoted)
workloads=$(grep -ohE '^ *\{ "[a-z-]+", [a-z_]+_t, ' "$init/workloads.c" | sed -E 's/^ *\{ "([^"]+)".*/\1/' | quoted)
[ -n "$words" ] && [ -n "$workloads" ] || { echo "linux-site.sh: no settings or workloads found in $init" >&2; exit 1; }
gzip -9nc "$linux/initramfs/initramfs.cpio" > "$out/initramfs.cpio.gz"
{
  printf '{"initramfs":"initramfs.cpio.gz","words":[%s],"workloads":[%s],"kernels":[' "$words" "$workloads"
  sep=
  for version; do
    name=linux-$version dir=$linux/linux-$version
    gzip -9nc "$dir/Image" > "$out/$name.Image.gz"
    cp "$dir/.config" "$out/$name.config"
    label="Linux ${version%-rt}"
    case $version in *-rt) label="$label PREEMPT_RT";; esac
    printf '%s{"name":"%s","label":"%s","package":"%s","version":"%s","image":"%s.Image.gz","bytes":%s,"gzipped":%s,"config":"%s.config"}' \
      "$sep" "$name" "$label" "$(field package "$dir/manifest")" "$(field version "$dir/manifest")" \
      "$name" "$(wc -c < "$dir/Image")" "$(wc -c < "$out/$name.Image.gz")" "$name"
    sep=,
  done
  printf ']}\n'
} > "$out/kernels.json"
cat > "$out/README.txt" <<TEXT
Linux kernel images served with Runqueue's book

These are builds of Linux, which is licensed GPL-2.0-only. Each image is Debian's source
package, unmodified (no patches), built for Runqueue's RV64IMAC machine with the configuration
beside it:

$(for version; do printf '  linux-%s.Image.gz  from %s %s, configuration linux-%s.config\n' \
    "$version" "$(field package "$linux/linux-$version/manifest")" "$(field version "$linux/linux-$version/manifest")" "$version"; done)
  initramfs.cpio.gz  Runqueue's init and workloads (linux/init/ in Runqueue's sources)

The source is Debian's package of that name and version (apt-get install linux-source-6.12,
for example, or apt-get source linux). To rebuild these images, install the same packages and
run "make linux" in Runqueue's sources: linux/README.md says how, and the configuration
fragments are in linux/config/.
TEXT
