## Labs and the autograder (docs/labs.md).
#   make grade LAB=sjf [SOLUTION=path] [RESULTS=results.json] [TESTS=hidden-dir]
#   make gradescope-bundle LAB=sjf [HIDDEN=dir]   -> $(TARGET_DIR)/gradescope/LAB.zip (HIDDEN: tests
#                                                 the student never sees; source/hidden)
#   make gradescope-check LAB=sjf [SOLUTION=path] -> runs the bundle in a clean directory
#   make test-labs
LAB ?= sjf
SOLUTION ?= labs/$(LAB)/solution.rs
BUNDLE_DIR := $(TARGET_DIR)/gradescope/$(LAB)
BUNDLE_ZIP = $(BUNDLE_DIR).zip

.PHONY: grade test-labs test-bundle gradescope-bundle gradescope-check

grade: build
	$(RUNQUEUE) grade --lab $(LAB) $(SOLUTION) $(if $(RESULTS),--results $(RESULTS)) $(if $(TESTS),--tests $(TESTS))

test-labs:
	$(CARGO) test -p runqueue-grader
	$(CARGO) test --release -p runqueue --test grader

# The bundle holds the CLI, the kernel's source (the core the student's file is built into, and
# the settings crates it is built with) and the lab's tests; never the reference solution or
# the mutants.
gradescope-bundle: build
	rm -rf $(BUNDLE_DIR) && mkdir -p $(BUNDLE_DIR)/source/labs/$(LAB)
	cp labs/bundle/setup.sh labs/bundle/run_autograder $(BUNDLE_DIR)/
	cp $(RUNQUEUE) $(BUNDLE_DIR)/source/
	echo $(LAB) > $(BUNDLE_DIR)/source/LAB
	tar -C . --exclude=target --exclude=kernel/tests -chf - kernel settings emulator/settings | tar -C $(BUNDLE_DIR)/source -xf -
	cp -r labs/$(LAB)/tests $(BUNDLE_DIR)/source/labs/$(LAB)/
	cp -L labs/$(LAB)/skeleton.rs $(BUNDLE_DIR)/source/labs/$(LAB)/
	$(if $(HIDDEN),cp -r $(HIDDEN) $(BUNDLE_DIR)/source/hidden)
	cd $(BUNDLE_DIR) && rm -f $(abspath $(BUNDLE_ZIP)) && zip -qr $(abspath $(BUNDLE_ZIP)) setup.sh run_autograder source
	@echo "bundle: $(BUNDLE_ZIP)"

# Unpacks the bundle into a fresh directory laid out like /autograder and grades SOLUTION.
gradescope-check: gradescope-bundle
	@d=$$(mktemp -d) && mkdir -p $$d/submission && cp $(SOLUTION) $$d/submission/$(LAB).rs && \
	  unzip -q $(BUNDLE_ZIP) -d $$d && \
	  AUTOGRADER=$$d bash $$d/run_autograder && cat $$d/results/results.json && rm -rf $$d

# CI: the bundle, with the lab's example hidden tests, grades the reference solution in a
# clean directory as Gradescope would, the student's code built by an unprivileged user who
# cannot read the hidden tests (labs/bundle/check-bundle.sh).
TEST_SUITES += bundle
test-bundle:
	$(MAKE) gradescope-bundle HIDDEN=labs/$(LAB)/hidden
	labs/bundle/check-bundle.sh $(LAB) $(BUNDLE_ZIP) labs/$(LAB)/solution.rs

