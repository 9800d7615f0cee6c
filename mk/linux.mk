# Linux 6.12, 6.1 and 6.12 with PREEMPT_RT on Runqueue's machine (linux/README.md): Debian's linux-source packages
# built with linux/config/, the init and workloads of linux/init/, each cached in
# ~/.cache/runqueue/linux by the hash of its inputs and linked beside the CLI in
# $(TARGET_DIR)/linux, where `runqueue run --kernel linux-6.12` finds them.

LINUX_DIR := $(TARGET_DIR)/linux
LINUX_VERSIONS := 6.12 6.1 6.12-rt
LINUX_APT := linux-source-6.12 linux-source-6.1 gcc-riscv64-linux-gnu make bc flex bison cpio \
  libssl-dev libelf-dev xz-utils qemu-system-misc opensbi
# Debian ships linux-source-6.12 for bookworm in bookworm-backports (and in its security
# updates): setup-linux adds that suite beside the machine's own sources.
BACKPORTS := /etc/apt/sources.list.d/runqueue-bookworm-backports.sources

.PHONY: setup-linux linux test-linux test-linux-native test-linux-qemu test-fidelity

setup-linux:
	@dpkg -s $(LINUX_APT) >/dev/null 2>&1 || { \
	  grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d || \
	    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	    | $(SUDO) tee $(BACKPORTS) >/dev/null; \
	  $(SUDO) apt-get update -q && \
	  $(SUDO) apt-get install -y -q --no-install-recommends $(LINUX_APT); }

# Each kernel once per machine (about 7 minutes on 2 cores; linux/README.md has the figures),
# then only the links.
linux: setup-linux
	@mkdir -p $(LINUX_DIR)
	@for v in $(LINUX_VERSIONS); do \
	  out=$$(nice -n 5 linux/build-kernel.sh $$v | tail -1) && ln -sfn "$$out" $(LINUX_DIR)/linux-$$v || exit 1; \
	done
	@out=$$(linux/build-initramfs.sh | tail -1) && ln -sfn "$$out" $(LINUX_DIR)/initramfs
	@for d in $(LINUX_DIR)/linux-* $(LINUX_DIR)/initramfs; do echo "$$d -> $$(readlink $$d)"; done

# QEMU's boots run under timeouts: alone.
TEST_SUITES_ALONE += linux
test-linux: test-linux-native test-linux-qemu

# Every workload on both kernels natively, determinism, ftrace, Linux's interfaces
# (emulator/cli/tests/linux.rs; its tests are ignored unless asked for, as they need `make linux`).
test-linux-native: linux build
	RUNQUEUE_LINUX_DIR=$(LINUX_DIR) $(CARGO) test --release -p runqueue --test linux -- --ignored --test-threads=2

# The same kernels, initramfs and workloads on QEMU, the reference machine: every workload
# reaches its RESULT line there too.
test-linux-qemu: linux
	./scripts/linux-qemu.sh $(LINUX_DIR)

# The comparison suite (kernel/claims/tests/fidelity.rs): the same workloads on the teaching
# kernel and on Linux 6.1 / 6.12, each figure within its justified tolerance or marked a known
# divergence. Linux's runs are cached in ~/.cache/runqueue/fidelity by the hash of kernel,
# initramfs, arguments and machine (a cold run boots Linux 24 times). The table of every figure
# goes to $(TARGET_DIR)/fidelity.md, and the book's table of them (book/src/linux.md) must print
# the same figures (scripts/check-linux-table.mjs).
TEST_SUITES += fidelity
test-fidelity: linux build
	@rm -f $(TARGET_DIR)/fidelity.md
	RUNQUEUE_LINUX_DIR=$(LINUX_DIR) RUNQUEUE_FIDELITY_TABLE=$(TARGET_DIR)/fidelity.md \
	  $(CARGO) test --release -p runqueue-kernel-claims --test fidelity -- --ignored --test-threads=2
	@echo "table of the comparisons: $(TARGET_DIR)/fidelity.md"
	node --test scripts/check-linux-table.test.mjs
	node scripts/check-linux-table.mjs $(TARGET_DIR)/fidelity.md book/src/linux.md
