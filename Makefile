# Squarely: `make run` builds and serves the product; `make test` runs every suite.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c

GO      ?= go
BIN     := bin/squarely
STATIC_BIN := bin/squarely-static
GOBIN   := $(shell $(GO) env GOPATH)/bin
# gotestsum prints a readable summary and a JSON log we check for skips; plain
# `go test` is the fallback on a machine without it.
GOTESTSUM := $(firstword $(wildcard $(GOBIN)/gotestsum) $(shell command -v gotestsum 2>/dev/null))
GO_TEST_JSON := $(or $(TMPDIR),/tmp)/squarely-go-test.json

.PHONY: build build-static static-binary run test lint go-test web-test e2e-test bench bench-redirect bench-bulk bench-bulk-edit bench-analytics bench-codes bench-lighthouse bench-lighthouse-pages bench-dashboard web-build clean

# What `squarely version` prints (internal/buildinfo); a build without git
# (the Dockerfile's) passes VERSION and COMMIT in the environment.
VERSION    ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT     ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
BUILD_TIME := $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS    := -X github.com/squarely/squarely/internal/buildinfo.Version=$(VERSION) \
	-X github.com/squarely/squarely/internal/buildinfo.Commit=$(COMMIT) \
	-X github.com/squarely/squarely/internal/buildinfo.BuildTime=$(BUILD_TIME)

build: web-build
	$(GO) build -tags embedweb -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/squarely

# The container's binary (Dockerfile): no cgo, so it needs no libc and runs
# in an empty root filesystem; -trimpath and -s -w keep it small and free of
# the build machine's paths. go-test runs it alone in an empty directory
# (cmd/squarely TestStaticBinaryInEmptyRoot).
build-static: web-build
	$(MAKE) --no-print-directory static-binary

# build-static's Go half, for the Dockerfile's Go stage, which has web/dist
# from its web stage.
static-binary:
	CGO_ENABLED=0 $(GO) build -tags embedweb -trimpath -ldflags '-s -w $(LDFLAGS)' -o $(STATIC_BIN) ./cmd/squarely
	@if $(GO) version -m $(STATIC_BIN) | grep -q 'CGO_ENABLED=1'; then echo "$(STATIC_BIN) links cgo"; exit 1; fi

run: build
	./$(BIN)

# web-build (through build-static, which CI must run for the Dockerfile)
# before go-test: the server tests read the prerendered pages in web/dist.
test: lint build-static go-test web-test e2e-test

# The browser specs are type-checked here, before the suites: a slip in one
# otherwise surfaces only after the Go and web suites, when Playwright loads it.
lint: web/node_modules/.package-lock.json e2e/node_modules/.package-lock.json
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd web && npm run --silent typecheck && npm run --silent lint
	cd e2e && npx tsc --noEmit -p .

# The empty-root test uses the static binary when there is one (else builds its own).
go-test: export SQUARELY_STATIC_BINARY = $(CURDIR)/$(STATIC_BIN)
# e2e's packages first: the GS1 tests validate every Digital Link with
# GS1's digital-link.js from there.
go-test: e2e/node_modules/.package-lock.json
ifneq ($(GOTESTSUM),)
	$(GOTESTSUM) --format pkgname --jsonfile $(GO_TEST_JSON) -- -count=1 -timeout 30m ./...
	@if [ "$${CI:-}" = true ] && grep '"Action":"skip"' $(GO_TEST_JSON) | grep -q '"Test":'; then \
	  echo "CI=true: these Go tests were skipped:"; \
	  grep '"Action":"skip"' $(GO_TEST_JSON) | grep '"Test":' | sed -E 's/.*"Package":"([^"]*)".*"Test":"([^"]*)".*/  \1 \2/'; \
	  exit 1; fi
else
	$(GO) test -count=1 -timeout 30m ./...
endif

web-test: web/node_modules/.package-lock.json
	cd web && npm test --silent

e2e-test: build e2e/node_modules/.package-lock.json
	cd e2e && npx playwright test

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/qr/ ./internal/render/
	$(GO) test -tags benchratios -run TestBenchRatios -v ./internal/qr/ ./internal/render/

# The redirect hot path against a bare net/http handler (issue 5); set
# DATABASE_URL to run it on PostgreSQL. See bench/redirect.sh.
bench-redirect: build
	bash bench/redirect.sh

# A 10,000-row bulk job through the server on SQLite, and the renderer alone
# as the floor (issue 12). See bench/bulk.sh.
bench-bulk: build
	bash bench/bulk.sh

# A bulk edit of 10,000 codes by a folder filter (a host replaced) on SQLite
# and PostgreSQL (DATABASE_URL or the local test server): the dry run and the
# job, time and peak RSS growth. See bench/bulkedit.
bench-bulk-edit:
	nice $(GO) run ./bench/bulkedit

# The analytics views, share pages and code list over SCANS scans of one
# code per 1,000 scans, with tags and folders, on SQLite and PostgreSQL
# (DATABASE_URL or the local test server): p50/p95 of each, the seeding
# rate and the views' peak RSS; fails on a missed budget. SCANS=10000000
# is the ten-million run (issues 15, 37). See bench/analytics.
SCANS ?= 1000000
bench-analytics:
	nice $(GO) run ./bench/analytics -events $(SCANS)

# The code list (GET /api/codes) in one workspace of 100,000 codes on SQLite
# and PostgreSQL: p50/p95 of pages, searches and filters (issue 22). See bench/codes.
bench-codes:
	nice $(GO) run ./bench/codes

# Lighthouse 12's mobile audit of /, /templates, /faq, /blog and a post, three
# runs each, medians against the targets of issue 21. See bench/lighthouse.mjs.
bench-lighthouse: build bench/node_modules/.package-lock.json
	node bench/lighthouse.mjs

# Lighthouse 12's mobile performance and accessibility audit of hosted pages
# (a business page and a gallery), three runs each, medians against 100. See
# bench/lighthouse-pages.mjs.
bench-lighthouse-pages: build bench/node_modules/.package-lock.json
	node bench/lighthouse-pages.mjs

# How soon a phone (390 px, the CPU at full speed and 4x slower) shows the
# first card of a dashboard of 120 codes, in fresh browser contexts: medians
# against 1 s. See bench/dashboard.mjs.
bench-dashboard: build e2e/node_modules/.package-lock.json
	node bench/dashboard.mjs

web-build: web/node_modules/.package-lock.json
	cd web && npm run --silent build

# npm writes node_modules/.package-lock.json on every install: a stamp that
# reinstalls only when package-lock.json changes. `npm install` rather than
# `npm ci`: the registry mirror here lacks some other platforms' optional
# builds (e.g. Tailwind's oxide for Android), which `npm ci` insists on
# finding in the lock file; with an up-to-date lock `npm install` installs
# exactly what it pins and leaves it unchanged. Up to three tries: the
# registry sometimes drops a connection mid-install (EIDLETIMEOUT).
NPM_INSTALL := for try in 1 2 3; do npm install --no-audit --no-fund && break; \
	[ $$try = 3 ] && exit 1; echo "npm install failed; trying again"; sleep 5; done

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && $(NPM_INSTALL)
	@touch $@

e2e/node_modules/.package-lock.json: e2e/package-lock.json
	cd e2e && $(NPM_INSTALL)
	@touch $@

bench/node_modules/.package-lock.json: bench/package-lock.json
	cd bench && $(NPM_INSTALL)
	@touch $@

clean:
	rm -rf bin web/dist
