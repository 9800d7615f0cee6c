## Labs and the autograder (docs/labs.md). `make grade` is in mk/grade.mk.
#   make gradescope-bundle LAB=sjf [HIDDEN=dir]   -> $(TARGET_DIR)/gradescope/LAB.zip (HIDDEN: tests
#                                                 the student never sees; source/hidden)
#   make gradescope-check LAB=sjf [SOLUTION=path] -> runs the bundle in a clean directory
#   make lab-starter LAB=sjf DEST=dir             -> a starter repository for the lab (labs/starter)
#   make test-labs, make test-labs-course
LAB ?= sjf
BUNDLE_DIR := $(TARGET_DIR)/gradescope/$(LAB)
BUNDLE_ZIP = $(BUNDLE_DIR).zip
# What gradescope-check grades: the reference solution unless SOLUTION is given.
CHECK_SOLUTION = $(if $(filter command line,$(origin SOLUTION)),$(SOLUTION),labs/$(LAB)/solution.rs)

.PHONY: test-labs test-bundle gradescope-bundle gradescope-check lab-starter test-labs-course test-starters test-variants test-archive

# A starter repository for a course to hand out, with nothing that answers the lab.
lab-starter:
	@[ -n "$(DEST)" ] || { echo "lab-starter: give DEST=folder" >&2; exit 2; }
	labs/starter/make-starter.sh $(LAB) $(DEST)

test-labs:
	$(CARGO) test -p runqueue-grader
	$(CARGO) test --release -p runqueue --test grader

# The bundle holds the CLI, the kernel's source (the core the student's file is built into, and
# the settings crates it is built with) and the lab's tests; never the reference solution or
# the mutants.
gradescope-bundle: build
	rm -rf $(BUNDLE_DIR) && mkdir -p $(BUNDLE_DIR)/source/labs/$(LAB)
	cp labs/bundle/setup.sh labs/bundle/prebuild.sh labs/bundle/run_autograder $(BUNDLE_DIR)/
	cp $(RUNQUEUE) $(BUNDLE_DIR)/source/
	echo $(LAB) > $(BUNDLE_DIR)/source/LAB
	tar -C . --exclude=target --exclude=kernel/tests -chf - kernel settings emulator/settings emulator/fdt | tar -C $(BUNDLE_DIR)/source -xf -
	cp -r labs/$(LAB)/tests $(BUNDLE_DIR)/source/labs/$(LAB)/
	cp -L labs/$(LAB)/skeleton.rs $(BUNDLE_DIR)/source/labs/$(LAB)/
	$(if $(HIDDEN),cp -r $(HIDDEN) $(BUNDLE_DIR)/source/hidden)
	cd $(BUNDLE_DIR) && rm -f $(abspath $(BUNDLE_ZIP)) && zip -qr $(abspath $(BUNDLE_ZIP)) setup.sh prebuild.sh run_autograder source
	@echo "bundle: $(BUNDLE_ZIP)"

# Unpacks the bundle into a fresh directory laid out like /autograder and grades SOLUTION.
gradescope-check: gradescope-bundle
	@d=$$(mktemp -d) && mkdir -p $$d/submission && cp $(CHECK_SOLUTION) $$d/submission/$(LAB).rs && \
	  unzip -q $(BUNDLE_ZIP) -d $$d && \
	  AUTOGRADER=$$d bash $$d/run_autograder && cat $$d/results/results.json && rm -rf $$d

# CI: the bundle, with the lab's example hidden tests, grades the reference solution in a
# clean directory as Gradescope would, the student's code built by an unprivileged user who
# cannot read the hidden tests (labs/bundle/check-bundle.sh).
TEST_SUITES += bundle
test-bundle:
	$(MAKE) gradescope-bundle HIDDEN=labs/$(LAB)/hidden
	labs/bundle/check-bundle.sh $(LAB) $(BUNDLE_ZIP) labs/$(LAB)/solution.rs

# The labs as a course runs them (docs/labs.md, "Running a course"): a starter repository per
# lab graded by its own workflow's commands in a clean folder, no answer in it or in the site's
# source archive, every lab's reference under 20 variants of the hidden tests and each mutant
# under 5. The starters and the variants run side by side (one core each).
TEST_SUITES += labs-course
test-labs-course: test-archive
	$(MAKE) --no-print-directory -j2 test-starters test-variants

test-starters: setup-rust
	labs/starter/test-starters.sh

test-variants: setup-rust
	$(CARGO) test --release -p runqueue --test grader_variants -- --ignored

# The source archive the site serves, made as the site's build makes it, holds no answer.
test-archive:
	@t=$$(mktemp --suffix=.tar.gz) && ./scripts/source-archive.sh $$t; s=$$?; rm -f $$t; exit $$s

# The page's grading widget (book/widget/grade.js) fetches runqueue/labs/<lab>.tests, every
# tests file of the lab in one; `make book` (mk/book.mk) runs this once it has laid out the site.
define copy-lab-tests
	mkdir -p $(WEB_SITE)/labs
	for d in labs/*/tests; do lab=$${d#labs/}; cat $$d/*.tests > $(WEB_SITE)/labs/$${lab%/tests}.tests; done
endef
