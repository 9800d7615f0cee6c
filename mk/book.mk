# The book (book/, po/): `figures` runs every experiment the chapters quote with the native CLI;
# `book` builds the English edition in book/build and the Chinese one in book/build/zh-CN, each
# with the widget's files, and checks the links of both. Both need `node`, like the web build.

I18N_HELPERS_VERSION := 0.4.0
FIGURES_DIR := book/figures
ZH_BUILD := book/build/zh-CN
# Messages are the chapters' text *before* `{{#include}}` is expanded, so a figure that changes
# with the kernel does not turn a translated paragraph back into English: the POT is extracted
# without the default preprocessors, and gettext translates before `links` expands the includes.
# It is only switched on for translated builds, so a plain `mdbook build` needs no extra tool.
GETTEXT_ENV := MDBOOK_PREPROCESSOR__GETTEXT__BEFORE='["links"]'

.PHONY: figures test-figures test-book setup-i18n pot po-update book

figures: build
	node $(FIGURES_DIR)/generate.mjs --cli $(RUNQUEUE)

# The figures' code (metrics, includes, links): node only, no build.
TEST_SUITES += figures
test-figures:
	node --test $(FIGURES_DIR)/

# Both editions built, with their figures, and their links checked.
TEST_SUITES += book
test-book: book

setup-i18n:
	@# mdbook-gettext has no --version (it reads a book from stdin), so ask cargo's install record.
	@[ -x $(TOOLS)/bin/mdbook-gettext ] && grep -q '^"mdbook-i18n-helpers $(I18N_HELPERS_VERSION) ' $(TOOLS)/.crates.toml 2>/dev/null || \
	  $(CARGO) install mdbook-i18n-helpers --version "=$(I18N_HELPERS_VERSION)" --root $(TOOLS) --locked

# po/messages.pot: every translatable message of the English source (not committed).
pot: setup-mdbook setup-i18n
	MDBOOK_BUILD__USE_DEFAULT_PREPROCESSORS=false \
	  MDBOOK_OUTPUT='{"xgettext": {"pot-file": "messages.pot", "granularity": 0}}' mdbook build -d $(TARGET_DIR)/po
	cp $(TARGET_DIR)/po/messages.pot po/messages.pot

# After editing the English source: merge new messages into the catalog, then translate them.
po-update: pot
	msgmerge --quiet --update --backup=none --no-fuzzy-matching po/zh-CN.po po/messages.pot

# Both editions in one ordered recipe, because `mdbook build` empties book/build: the English
# pages, then their runqueue/ folder (mk/web.mk), then the Chinese pages in zh-CN/ with a copy
# of that folder (they load it from their own root), their search index, and the links of both.
# mdBook's search cannot split Chinese into words, so the Chinese build has book/i18n's instead.
book: figures web-assets setup-i18n
	mdbook build
	$(install-web-site)
	msgfmt --check-format --statistics -o /dev/null po/zh-CN.po
	$(GETTEXT_ENV) MDBOOK_BOOK__LANGUAGE=zh-CN MDBOOK_OUTPUT__HTML__SEARCH__ENABLE=false mdbook build -d $(ZH_BUILD)
	@# gettext skips HTML blocks, so the labels of the chapters' hidden answers and folded results
	@# (book/widget/reveal.js relabels the latter from strings.js once it runs) are translated here.
	sed -i -e 's#<summary>Answer</summary>#<summary>答案</summary>#g' \
	  -e 's#<summary>Show the result</summary>#<summary>显示结果</summary>#g' $(ZH_BUILD)/chapters/*.html $(ZH_BUILD)/print.html
	cp -r $(WEB_SITE) $(ZH_BUILD)/runqueue
	node book/i18n/build-index.mjs $(ZH_BUILD)
	node $(FIGURES_DIR)/check-links.mjs book/build
