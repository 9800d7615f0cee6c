# Runqueue's front door. `make test` and `make serve` set up whatever is missing first, so a
# fresh machine needs nothing but this repository, rustup, and (for the packages) apt.

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
# build.target-dir setting) puts it elsewhere; cargo tells. Every path into the build below
# starts here, and the kernel and the guests the CLI embeds go to $(TARGET_DIR)/riscv.
TARGET_DIR := $(shell $(CARGO) metadata --format-version 1 --no-deps --manifest-path $(ROOT)/Cargo.toml 2>/dev/null \
  | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
TARGET_DIR := $(or $(TARGET_DIR),$(ROOT)/target)
KERNEL_ELF := $(TARGET_DIR)/riscv/$(RISCV_TARGET)/release/runqueue-kernel
RUNQUEUE := $(TARGET_DIR)/release/runqueue
APPEND ?= sched=cfs workload=fairness-unequal
SMP ?= 1

export PATH := $(TOOLS)/bin:$(PATH)

.PHONY: all setup setup-wasm setup-apt setup-mdbook test test-rust test-qemu \
        test-determinism test-target-dir qemu serve bench clean

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

## Test: everything, as CI runs it.
test: setup test-rust test-qemu test-linux test-determinism test-bundle test-labs-course test-web test-engines test-figures test-target-dir
	@echo "make test: all suites passed"

test-rust: build
	$(CARGO) test --workspace

# The kernel must boot unchanged on QEMU, the reference machine.
test-qemu: kernel
	./scripts/qemu-smoke.sh $(KERNEL_ELF)

# The interpreter's fast paths change nothing a guest can see: every chapter experiment, run
# in the fast and in the reference mode (one instruction per block), prints the same console,
# results and trace to the byte (scripts/test-determinism.mjs; 22 CPU-minutes, about 11 minutes on 2 idle cores).
test-determinism: build
	node scripts/test-determinism.mjs --cli $(RUNQUEUE)

# The build with CARGO_TARGET_DIR outside the checkout: a fresh build there, then a figure, the
# CLI on the kernel, a Gradescope bundle (scripts/test-target-dir.sh; about 90 s on 2 cores).
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
