# The book in the browser (docs/web.md): the emulator compiled to wasm, the widget, the
# vendored front-end libraries, the kernel image and its catalog, all in book/build.

WEB_DIR := web
WEB_SITE := book/build/runqueue
WEB_PKG := $(TARGET_DIR)/web/pkg
# The page's wasm modules, by their crates' names with `_` (what cargo and wasm-bindgen call
# them): the emulator (emulator/wasm); the command-line reader every page with an experiment
# loads at once (settings/wasm); the homework's answer check, fetched when a reader first uses a
# homework field (homework/wasm).
PAGE_WASMS := runqueue_wasm runqueue_settings_wasm runqueue_homework_wasm
WASM_RELEASE := $(TARGET_DIR)/wasm32-unknown-unknown/release
# The CLI must be the exact version the crate was built with (its schema check refuses others).
WASM_BINDGEN_VERSION = $(shell awk '/^name = "wasm-bindgen"$$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
WASM_BINDGEN := $(TOOLS)/bin/wasm-bindgen
CHROMIUM ?= /usr/bin/chromium
# Speed over size: see docs/web.md ("Speed") for the measurements behind both choices.
WASM_OPT_LEVEL ?= 3
# Binaryen's optimiser (npm's `binaryen`, JS and wasm, so `npm ci` brings it) after
# wasm-bindgen; WASM_OPT_PASSES= (empty) leaves the wasm as rustc made it.
WASM_OPT := $(WEB_DIR)/node_modules/.bin/wasm-opt
WASM_OPT_PASSES ?= -O4

# A real ftrace parser (TRAPpy) in its own venv, for the test of the ftrace export.
FTRACE_VENV := $(TOOLS)/ftrace-check
FTRACE_PYTHON := $(FTRACE_VENV)/bin/python

# The other two engines of the browser suite's core (web/engines/): Debian's Firefox ESR, driven
# by puppeteer-core over WebDriver BiDi, and WebKitGTK's MiniBrowser with its WebDriver, which
# needs an X server (xvfb-run).
BROWSER_PACKAGES := firefox-esr webkit2gtk-driver xvfb xauth

.PHONY: setup-web setup-browsers setup-ftrace-check web-assets test-web test-widget test-engines bench-web serve-web

# The widget's and the Chinese search's pure modules, tested beside them: node only, no build.
TEST_SUITES += widget
test-widget:
	node --test book/widget/ book/i18n/

setup-ftrace-check:
	@[ -x $(FTRACE_PYTHON) ] && [ $(FTRACE_VENV)/requirements.txt -nt scripts/ftrace-check.requirements.txt ] || { \
	  python3 -m venv $(FTRACE_VENV) && $(FTRACE_PYTHON) -m pip install -q -r scripts/ftrace-check.requirements.txt && \
	  cp scripts/ftrace-check.requirements.txt $(FTRACE_VENV)/requirements.txt; }

setup-web: setup-rust setup-wasm setup-mdbook setup-ftrace-check
	@[ -d $(WEB_DIR)/node_modules ] && [ $(WEB_DIR)/node_modules/.package-lock.json -nt $(WEB_DIR)/package-lock.json ] || \
	  (cd $(WEB_DIR) && npm ci --no-audit --no-fund)
	@[ -x $(WASM_BINDGEN) ] && $(WASM_BINDGEN) --version | grep -qx "wasm-bindgen $(WASM_BINDGEN_VERSION)" || \
	  $(CARGO) install wasm-bindgen-cli --version "=$(WASM_BINDGEN_VERSION)" --root $(TOOLS) --locked || \
	  $(CARGO) install wasm-bindgen-cli --version "=$(WASM_BINDGEN_VERSION)" --root $(TOOLS)
	@[ -x $(CHROMIUM) ] || { $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends chromium; }

setup-browsers:
	@dpkg -s $(BROWSER_PACKAGES) >/dev/null 2>&1 || { \
	  $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends $(BROWSER_PACKAGES); }

# wasm-opt on the page's wasm (half a minute): skipped when wasm-bindgen gave the same bytes
# as last time with the same passes, whose result is kept in $(WEB_PKG)/wasm-opt/.
define wasm-opt
	@wasm=$(WEB_PKG)/runqueue_wasm_bg.wasm; kept=$(WEB_PKG)/wasm-opt; \
	if cmp -s $$wasm $$kept/in.wasm && [ "$$(cat $$kept/passes 2>/dev/null)" = "$(WASM_OPT_PASSES)" ]; then \
	  echo "wasm-opt: unchanged input, kept result" && cp $$kept/out.wasm $$wasm; \
	else \
	  rm -rf $$kept && mkdir -p $$kept && cp $$wasm $$kept/in.wasm && \
	  echo "$(WASM_OPT) $(WASM_OPT_PASSES)" && $(WASM_OPT) $(WASM_OPT_PASSES) $$wasm -o $$kept/out.wasm && \
	  cp $$kept/out.wasm $$wasm && echo "$(WASM_OPT_PASSES)" > $$kept/passes; \
	fi
endef

# Everything the site's runqueue/ folder is made from: the wasm emulator, the kernel, the CLI.
# panic = "abort": the wasm target has no unwinding, and the emulator never panics on guest input.
web-assets: setup-web kernel build
	$(CARGO) build --target wasm32-unknown-unknown --release $(addprefix -p ,$(subst _,-,$(PAGE_WASMS))) \
	  --config 'profile.release.panic="abort"' --config 'profile.release.opt-level=$(WASM_OPT_LEVEL)'
	for w in $(PAGE_WASMS); do \
	  $(WASM_BINDGEN) --target web --no-typescript --remove-name-section --remove-producers-section --out-dir $(WEB_PKG) $(WASM_RELEASE)/$$w.wasm || exit 1; done
	$(if $(strip $(WASM_OPT_PASSES)),$(wasm-opt))

# The sources the site was built from, for a student who has only the website (the labs'
# pages link it), without what answers a lab (scripts/source-archive.sh, which checks it).
define source-archive
	./scripts/source-archive.sh $(WEB_SITE)/runqueue-src.tar.gz
endef

# Lays out book/build/runqueue/ after `mdbook build` (which empties book/build): the widget,
# the language switcher and Chinese search, the wasm, the vendored libraries, the kernel and
# its catalog. `make book` (mk/book.mk) runs it between the English and the Chinese build.
define install-web-site
	rm -rf $(WEB_SITE) && mkdir -p $(WEB_SITE)/vendor $(WEB_SITE)/pkg
	cp -r book/widget $(WEB_SITE)/widget
	cp -r book/i18n $(WEB_SITE)/i18n
	rm -rf $(WEB_SITE)/widget/*.test.mjs $(WEB_SITE)/widget/testdata $(WEB_SITE)/i18n/*.test.mjs
	cp $(foreach w,$(PAGE_WASMS),$(WEB_PKG)/$(w).js $(WEB_PKG)/$(w)_bg.wasm) $(WEB_SITE)/pkg/
	cp $(WEB_DIR)/node_modules/@xterm/xterm/lib/xterm.mjs $(WEB_DIR)/node_modules/@xterm/xterm/css/xterm.css \
	   $(WEB_DIR)/node_modules/chart.js/dist/chart.umd.min.js $(WEB_SITE)/vendor/
	cp $(KERNEL_ELF) $(WEB_SITE)/kernel.elf
	@# The page's grading widget (book/widget/grade.js) fetches runqueue/labs/<lab>.tests, every
	@# tests file of the lab in one.
	mkdir -p $(WEB_SITE)/labs
	for d in labs/*/tests; do lab=$${d#labs/}; cat $$d/*.tests > $(WEB_SITE)/labs/$${lab%/tests}.tests; done
	$(source-archive)
	@# Linux 6.12 and 6.1 with the init's initramfs, which the widget's kernel choice fetches.
	./scripts/linux-site.sh $(WEB_SITE)/linux $(LINUX_DIR) $(LINUX_VERSIONS)
	$(RUNQUEUE) run --append catalog | sed -n 's/^CATALOG //p' > $(WEB_SITE)/catalog.json
	@[ -s $(WEB_SITE)/catalog.json ] || { echo "install-web-site: the kernel printed no CATALOG line" >&2; exit 1; }
	@for w in $(PAGE_WASMS); do \
	  gzip -9 -c $(WEB_SITE)/pkg/$${w}_bg.wasm | wc -c | xargs printf "web: $$w is %s bytes gzipped\n"; done
endef

# The page in Chromium against the CLI (frame budgets among them: alone).
TEST_SUITES_ALONE += web
test-web: book
	cd $(WEB_DIR) && CHROMIUM=$(CHROMIUM) RUNQUEUE=$(RUNQUEUE) FTRACE_PYTHON=$(FTRACE_PYTHON) node --test --test-concurrency=1 tests/

# The core of the browser suite in Firefox and in WebKit (each a few minutes; docs/web.md;
# timeouts: alone).
TEST_SUITES_ALONE += engines
test-engines: book setup-browsers
	cd $(WEB_DIR) && RQ_ENGINE=firefox RUNQUEUE=$(RUNQUEUE) node --test --test-concurrency=1 engines/
	cd $(WEB_DIR) && RQ_ENGINE=webkit RUNQUEUE=$(RUNQUEUE) xvfb-run --auto-servernum node --test --test-concurrency=1 engines/

# The bench guest is built by the CLI's build.rs next to the kernel.
BENCH_ELF := $(TARGET_DIR)/riscv/$(RISCV_TARGET)/release/runqueue-bench

bench-web: book
	cp $(BENCH_ELF) $(WEB_SITE)/bench.elf
	cd $(WEB_DIR) && CHROMIUM=$(CHROMIUM) RUNQUEUE=$(RUNQUEUE) node bench.mjs

# Serves the built site; `mdbook serve` would wipe the runqueue/ folder on every rebuild.
serve-web: book
	node $(WEB_DIR)/serve.mjs book/build 3000
