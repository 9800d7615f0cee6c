## Grading a lab (docs/labs.md). Shared by this repository's Makefile and a starter
## repository's (make lab-starter), which define RUNQUEUE, KERNEL_ELF, TARGET_DIR and CARGO.
#   make grade LAB=sjf [SOLUTION=path] [RESULTS=results.json] [SUMMARY=summary.md]
#              [TESTS=hidden-dir] [VARIANT=text]
SOLUTION ?= kernel/lab/src/$(LAB).rs

# The tool's own sources: all but the lab slot's policy files. A student's edit of the slot
# does not rebuild the tool (72 s and more): `runqueue grade` builds the kernel with the file
# itself, in seconds. The tool carries a kernel built with the slot as it was when it was built.
TOOL_SOURCES := $(wildcard Cargo.toml Cargo.lock) $(shell find emulator report labs/grader kernel settings homework \
  \( -name target -o -name node_modules -o -name tests -o -name claims \) -prune -o -type f -print 2>/dev/null \
  | grep -v -E '^kernel/lab/src/(sjf|mlfq|bvt)\.rs$$')

.PHONY: setup-rust kernel build grade

setup-rust:
	@./scripts/setup-rust.sh

# The kernel first, on its own: its build shows its progress (inside the tool's build it would
# be a silent build script). By the builder the tool's build script uses (emulator/cli/guests.rs,
# compiled alone: one cargo fingerprint), which builds the same bytes wherever the checkout is.
GUEST_BUILDER := $(TARGET_DIR)/guest-builder
$(GUEST_BUILDER): emulator/cli/guests.rs
	@mkdir -p $(dir $@)
	rustc --edition 2024 -O -o $@ $<
kernel: setup-rust $(GUEST_BUILDER)
	$(GUEST_BUILDER) $(CURDIR) kernel runqueue-kernel $(TARGET_DIR)/riscv

$(RUNQUEUE): $(TOOL_SOURCES)
	$(MAKE) --no-print-directory kernel
	$(CARGO) build --release -p runqueue
	@touch $@

build: setup-rust $(RUNQUEUE)

grade: setup-rust $(RUNQUEUE)
	$(RUNQUEUE) grade --lab $(LAB) $(SOLUTION) $(if $(RESULTS),--results $(RESULTS)) $(if $(SUMMARY),--summary $(SUMMARY)) \
	  $(if $(TESTS),--tests $(TESTS)) $(if $(VARIANT),--variant '$(VARIANT)')
