# The book (book/, po/): `figures` runs every experiment the chapters quote with the native CLI
# and checks the book's claims on them (book/figures/claims.mjs); `book` builds the English edition
# in book/build and the Chinese one in book/build/zh-CN, each with the widget's files, and checks
# the links of both. Both need `node`, like the web build. `figures` also checks the book's
# structure (book/figures/structure.mjs: every prediction folds, each chapter's frame, the
# glossary's order of teaching, the index). `test-figures` tests the generator, the claims on the
# figures it made (one perturbed figure must fail its chapter) and the structure checks.

I18N_HELPERS_VERSION := 0.4.0
FIGURES_DIR := book/figures
ZH_BUILD := book/build/zh-CN
# Messages are the chapters' text *before* `{{#include}}` is expanded, so a figure that changes
# with the kernel does not turn a translated paragraph back into English: the POT is extracted
# without the default preprocessors, and gettext translates before `links` expands the includes.
# It is only switched on for translated builds, so a plain `mdbook build` needs no extra tool.
GETTEXT_ENV := MDBOOK_PREPROCESSOR__GETTEXT__BEFORE='["links"]'
# The reference and lab pages are whole files from docs/ and labs/: book/i18n/expand-pages.mjs
# inlines them before extraction and before gettext, so their text is in the catalog too.
EXPAND_PAGES_ENV := MDBOOK_PREPROCESSOR__EXPANDPAGES__COMMAND='node book/i18n/expand-pages.mjs' \
  MDBOOK_PREPROCESSOR__EXPANDPAGES__BEFORE='["gettext", "links"]'
# The generated figures' Chinese copies (tables in Chinese): book/i18n/figures-zh.mjs points the
# translated chapters' includes at them, after gettext and before `links`.
FIGURES_ZH_ENV := MDBOOK_PREPROCESSOR__FIGURESZH__COMMAND='node book/i18n/figures-zh.mjs' \
  MDBOOK_PREPROCESSOR__FIGURESZH__AFTER='["gettext"]' MDBOOK_PREPROCESSOR__FIGURESZH__BEFORE='["links"]'
ZH_TITLE := Runqueue：CPU 调度，现场运行

.PHONY: figures test-figures test-book setup-i18n pot po-update book

figures: build
	node $(FIGURES_DIR)/generate.mjs --cli $(RUNQUEUE) --linux "$(LINUX_VERSIONS)"
	node $(FIGURES_DIR)/structure.mjs

test-figures: figures
	node --test $(FIGURES_DIR)/

# Both editions built, with their figures and the claims checked on them, their links checked,
# then the figures' tests: one suite, as the figures are made once and both read them.
TEST_SUITES += book
test-book: book
	node --test $(FIGURES_DIR)/

setup-i18n:
	@# mdbook-gettext has no --version (it reads a book from stdin), so ask cargo's install record.
	@[ -x $(TOOLS)/bin/mdbook-gettext ] && grep -q '^"mdbook-i18n-helpers $(I18N_HELPERS_VERSION) ' $(TOOLS)/.crates.toml 2>/dev/null || \
	  $(CARGO) install mdbook-i18n-helpers --version "=$(I18N_HELPERS_VERSION)" --root $(TOOLS) --locked

# po/messages.pot: every translatable message of the English source (not committed).
pot: setup-mdbook setup-i18n
	MDBOOK_BUILD__USE_DEFAULT_PREPROCESSORS=false $(EXPAND_PAGES_ENV) \
	  MDBOOK_OUTPUT='{"xgettext": {"pot-file": "messages.pot", "granularity": 0}}' mdbook build -d $(TARGET_DIR)/po
	cp $(TARGET_DIR)/po/messages.pot po/messages.pot

# After editing the English source: merge new messages into the catalog, then translate them.
po-update: pot
	msgmerge --quiet --update --backup=none --no-fuzzy-matching po/zh-CN.po po/messages.pot

# Both editions in one ordered recipe, because `mdbook build` empties book/build: the English
# pages, then their runqueue/ folder (mk/web.mk), then the Chinese pages in zh-CN/ with a copy
# of that folder (they load it from their own root), their search index, and the links of both.
# mdBook's search cannot split Chinese into words, so the Chinese build has book/i18n's instead.
book: figures web-assets linux setup-i18n
	mdbook build
	$(install-web-site)
	msgfmt --check-format --statistics -o /dev/null po/zh-CN.po
	@# Its 404 page loads its scripts from the site's URL, which for this edition is /zh-CN/.
	$(GETTEXT_ENV) $(EXPAND_PAGES_ENV) $(FIGURES_ZH_ENV) MDBOOK_BOOK__LANGUAGE=zh-CN MDBOOK_BOOK__TITLE='$(ZH_TITLE)' \
	  MDBOOK_OUTPUT__HTML__SEARCH__ENABLE=false MDBOOK_OUTPUT__HTML__SITE_URL=/zh-CN/ mdbook build -d $(ZH_BUILD)
	node book/i18n/localize-frame.mjs $(ZH_BUILD)
	@# gettext skips HTML blocks, so the labels of the chapters' hidden answers and folded results
	@# (book/widget/reveal.js relabels the latter from strings.js once it runs) are translated here.
	sed -i -e 's#<summary>Answer</summary>#<summary>答案</summary>#g' \
	  -e 's#<summary>Show the result</summary>#<summary>显示结果</summary>#g' $(ZH_BUILD)/chapters/*.html $(ZH_BUILD)/print.html
	cp -r $(WEB_SITE) $(ZH_BUILD)/runqueue
	node book/i18n/build-index.mjs $(ZH_BUILD)
	node scripts/mdbook-fixes.mjs book/build
	node scripts/mdbook-fixes.mjs $(ZH_BUILD)
	@# Each edition's service worker with the files it keeps offline (book/offline/), then the
	@# .br and .gz copies a host can serve instead of compressing on every request.
	node book/offline/precache.mjs book/build en
	node book/offline/precache.mjs $(ZH_BUILD) zh-CN
	node scripts/precompress.mjs book/build $(TARGET_DIR)/precompress
	node $(FIGURES_DIR)/check-links.mjs book/build
