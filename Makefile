# Runqueue's front door. `make test` and `make serve` set up whatever is missing first, so a
# fresh machine needs nothing but this repository, rustup, and (for the packages) apt.
#
# `make test` builds once (the CLI with its kernel, the kernel ELF), then runs every suite and
# ends with a table of each one's result and wall time. A suite is a target `test-NAME` plus
# one line, beside the target, in the file that owns it:
#   TEST_SUITES += NAME         it measures no time: runs side by side with the others, on
#                               TEST_JOBS cores (make -k: one failing does not stop the rest)
#   TEST_SUITES_ALONE += NAME   it measures time (timeouts, frame budgets): runs afterwards,
#                               with the machine to itself
# `make test-NAME` runs one suite alone. A suite may write one line about itself to the file
# $SUITE_NOTE (what it reused, say) for the table (scripts/suite.sh, scripts/suite-table.sh).
# What depends only on unchanged inputs is reused from ~/.cache/runqueue (RUNQUEUE_CACHE): runs
# of the CLI (the figures', the determinism check's) are keyed by their arguments and by the
# digest `runqueue inputs` prints, of the kernel and the emulator the CLI was built from.

SHELL := /bin/bash
ROOT := $(CURDIR)
# Pinned tools built from crates.io (mdbook, wasm-bindgen) live outside the checkout, so every
# clone on a machine shares one build of them; `make setup` rebuilds them when missing.
TOOLS ?= $(HOME)/.cache/runqueue/tools
CARGO ?= cargo
RISCV_TARGET := riscv64imac-unknown-none-elf
APT_PACKAGES := qemu-system-misc opensbi fonts-noto-cjk zip unzip acl
MDBOOK_VERSION := 0.5.4
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Where cargo builds: target/ in the checkout, unless CARGO_TARGET_DIR (or cargo's own
# build.target-dir setting) puts it elsewhere. scripts/target-dir.sh is the one place that
# works it out (the node scripts ask it too). Every path into the build below starts here,
# and the kernel and the guests the CLI embeds go to $(TARGET_DIR)/riscv.
TARGET_DIR := $(shell CARGO=$(CARGO) $(ROOT)/scripts/target-dir.sh)
KERNEL_ELF := $(TARGET_DIR)/riscv/$(RISCV_TARGET)/release/runqueue-kernel
RUNQUEUE := $(TARGET_DIR)/release/runqueue
APPEND ?= sched=cfs workload=fairness-unequal
SMP ?= 1

export PATH := $(TOOLS)/bin:$(PATH)
# Results kept across builds and clones (figures' runs, determinism checks), by input digest.
export RUNQUEUE_CACHE ?= $(HOME)/.cache/runqueue
TEST_JOBS ?= 2
TEST_SUITES :=
TEST_SUITES_ALONE :=
SUITE_LOG := $(TARGET_DIR)/test-suites

.PHONY: all setup setup-wasm setup-apt setup-mdbook test test-build test-rust test-qemu \
        test-determinism test-target-dir test-structure qemu serve bench clean

all: build

## Setup: idempotent, each step only when its tool is missing. `make setup-rust` (mk/grade.mk)
## installs what a lab needs alone; the book adds the wasm target.
setup: setup-rust setup-wasm setup-apt

setup-wasm:
	@./scripts/setup-rust.sh wasm32-unknown-unknown

setup-apt:
	@dpkg -s $(APT_PACKAGES) >/dev/null 2>&1 || { \
	  $(SUDO) apt-get update -q && \
	  $(SUDO) apt-get install -y -q --no-install-recommends $(APT_PACKAGES); }

setup-mdbook:
	@[ -x $(TOOLS)/bin/mdbook ] && $(TOOLS)/bin/mdbook --version | grep -q "$(MDBOOK_VERSION)" || \
	  $(CARGO) install mdbook --version "=$(MDBOOK_VERSION)" --root $(TOOLS) --locked

## Build: `make build` and `make kernel` are in mk/grade.mk (a starter repository has them too).

## Test: everything, as CI runs it (see the top of this file).
test: setup
	@rm -rf $(SUITE_LOG) && mkdir -p $(SUITE_LOG) && date +%s%N > $(SUITE_LOG)/started
	@$(MAKE) --no-print-directory suite-build
	-@$(MAKE) --no-print-directory -k -j$(TEST_JOBS) $(addprefix suite-,$(TEST_SUITES))
	-@for s in $(TEST_SUITES_ALONE); do $(MAKE) --no-print-directory suite-$$s; done
	@./scripts/suite-table.sh $(SUITE_LOG) build $(TEST_SUITES) $(TEST_SUITES_ALONE)

suite-%:
	@./scripts/suite.sh $(SUITE_LOG) $* $(MAKE) --no-print-directory test-$*

# What the suites share, built before they start so none of them waits for another's cargo.
test-build: build

TEST_SUITES += rust
test-rust: build
	$(CARGO) test --workspace

# The kernel must boot unchanged on QEMU, the reference machine (under timeouts: alone).
TEST_SUITES_ALONE += qemu
test-qemu: kernel
	./scripts/qemu-smoke.sh $(KERNEL_ELF)

# The interpreter's fast paths change nothing a guest can see: every chapter experiment, run
# in the fast and in the reference mode (one instruction per block), prints the same console,
# results and trace to the byte (scripts/test-determinism.mjs; 22 CPU-minutes, about 11 minutes on 2 idle cores).
# An experiment already checked with the same inputs (`runqueue inputs`) is not run again.
TEST_SUITES += determinism
test-determinism: build
	node scripts/test-determinism.mjs --cli $(RUNQUEUE)

# The kernel's import cycles (scripts/module-cycles.py): the core's own cycle may not grow past
# its 21 modules, so no settings table or policy joins it again (25 before the typed schema).
TEST_SUITES += structure
test-structure:
	python3 scripts/module-cycles.py kernel/src --max 21

# The build with CARGO_TARGET_DIR outside the checkout: a fresh build there, then a figure, the
# CLI on the kernel, a Gradescope bundle (scripts/test-target-dir.sh; about 90 s on 2 cores).
TEST_SUITES += target-dir
test-target-dir: setup
	./scripts/test-target-dir.sh

## Run the kernel on QEMU: make qemu APPEND="sched=rr workload=occupy" SMP=1
qemu: kernel setup-apt
	timeout 120 qemu-system-riscv64 -machine virt -bios default -nographic -smp $(SMP) \
	  -kernel $(KERNEL_ELF) -append "$(APPEND) smp=$(SMP)"

## The book with its live experiments, served at http://127.0.0.1:3000 (mk/web.mk)
serve: serve-web

bench: build
	$(RUNQUEUE) bench

clean:
	$(CARGO) clean
	rm -rf book/build

# Parts of the build owned by their own subsystems (the web book, the labs).
-include mk/*.mk
