# The chapters' figures and the Chinese edition (book/figures/, po/). `figures` runs every
# experiment the chapters quote with the native CLI; `book-i18n` builds both editions and checks
# their links. Both need `node`, like the web build.

I18N_HELPERS_VERSION := 0.4.0
FIGURES_DIR := book/figures
ZH_BUILD := book/build/zh-CN
# Messages are the chapters' text *before* `{{#include}}` is expanded, so a figure that changes
# with the kernel does not turn a translated paragraph back into English: the POT is extracted
# without the default preprocessors, and gettext translates before `links` expands the includes.
# It is only switched on for translated builds, so a plain `mdbook build` needs no extra tool.
GETTEXT_ENV := MDBOOK_PREPROCESSOR__GETTEXT__BEFORE='["links"]'

.PHONY: figures test-figures setup-i18n pot po-update book-i18n

figures: build
	node $(FIGURES_DIR)/generate.mjs --cli $(RUNQUEUE)

test-figures:
	node --test $(FIGURES_DIR)/

setup-i18n:
	@[ -x $(TOOLS)/bin/mdbook-gettext ] && $(TOOLS)/bin/mdbook-gettext --version 2>/dev/null | grep -q "$(I18N_HELPERS_VERSION)" || \
	  $(CARGO) install mdbook-i18n-helpers --version "=$(I18N_HELPERS_VERSION)" --root $(TOOLS) --locked

# po/messages.pot: every translatable message of the English source (not committed).
pot: setup-mdbook setup-i18n
	MDBOOK_BUILD__USE_DEFAULT_PREPROCESSORS=false \
	  MDBOOK_OUTPUT='{"xgettext": {"pot-file": "messages.pot", "granularity": 0}}' mdbook build -d target/po
	cp target/po/messages.pot po/messages.pot

# After editing the English source: merge new messages into the catalog, then translate them.
po-update: pot
	msgmerge --quiet --update --backup=none --no-fuzzy-matching po/zh-CN.po po/messages.pot

# The Chinese edition next to the English one (web-build: the English pages and the widget's
# files in book/build/runqueue/, which the Chinese pages load from their own root), then the
# links of both. mdBook empties its build folder, so this runs after every English build.
book-i18n: figures web-build setup-i18n
	msgfmt --check-format --statistics -o /dev/null po/zh-CN.po
	$(GETTEXT_ENV) MDBOOK_BOOK__LANGUAGE=zh-CN mdbook build -d $(ZH_BUILD)
	cp -r book/build/runqueue $(ZH_BUILD)/runqueue
	node $(FIGURES_DIR)/check-links.mjs book/build
