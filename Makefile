# Runqueue's front door. `make test` and `make serve` set up whatever is missing first, so a
# fresh machine needs nothing but this repository, rustup, and (for the packages) apt.

SHELL := /bin/bash
ROOT := $(CURDIR)
# Pinned tools built from crates.io (mdbook, wasm-bindgen) live outside the checkout, so every
# clone on a machine shares one build of them; `make setup` rebuilds them when missing.
TOOLS ?= $(HOME)/.cache/runqueue/tools
CARGO ?= cargo
RISCV_TARGET := riscv64imac-unknown-none-elf
RUST_TARGETS := $(RISCV_TARGET) wasm32-unknown-unknown
APT_PACKAGES := qemu-system-misc opensbi fonts-noto-cjk zip unzip acl
MDBOOK_VERSION := 0.5.4
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

KERNEL_ELF := target/riscv/$(RISCV_TARGET)/release/runqueue-kernel
RUNQUEUE := target/release/runqueue
APPEND ?= sched=cfs workload=fairness-unequal
SMP ?= 1

export PATH := $(TOOLS)/bin:$(PATH)

.PHONY: all setup setup-rust setup-apt setup-mdbook build kernel test test-rust test-qemu \
        qemu serve bench clean

all: build

## Setup: idempotent, each step only when its tool is missing.
setup: setup-rust setup-apt

setup-rust:
	@installed="$$(rustup target list --installed)"; \
	for t in $(RUST_TARGETS); do \
	  grep -qx "$$t" <<<"$$installed" || rustup target add "$$t"; \
	done

setup-apt:
	@dpkg -s $(APT_PACKAGES) >/dev/null 2>&1 || { \
	  $(SUDO) apt-get update -q && \
	  $(SUDO) apt-get install -y -q --no-install-recommends $(APT_PACKAGES); }

setup-mdbook:
	@[ -x $(TOOLS)/bin/mdbook ] && $(TOOLS)/bin/mdbook --version | grep -q "$(MDBOOK_VERSION)" || \
	  $(CARGO) install mdbook --version "=$(MDBOOK_VERSION)" --root $(TOOLS) --locked

## Build
build: setup-rust
	$(CARGO) build --release -p runqueue

kernel: setup-rust
	cd kernel && $(CARGO) build --release --target-dir $(ROOT)/target/riscv

## Test: everything, as CI runs it.
test: setup test-rust test-qemu test-bundle test-web
	@echo "make test: all suites passed"

test-rust: build
	$(CARGO) test --workspace

# The kernel must boot unchanged on QEMU, the reference machine.
test-qemu: kernel
	./scripts/qemu-smoke.sh $(KERNEL_ELF)

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
