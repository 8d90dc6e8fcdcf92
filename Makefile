# Squarely: `make run` builds and serves the product; `make test` runs every suite.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c

GO      ?= go
BIN     := bin/squarely
GOBIN   := $(shell $(GO) env GOPATH)/bin
# gotestsum prints a readable summary and a JSON log we check for skips; plain
# `go test` is the fallback on a machine without it.
GOTESTSUM := $(firstword $(wildcard $(GOBIN)/gotestsum) $(shell command -v gotestsum 2>/dev/null))
GO_TEST_JSON := $(or $(TMPDIR),/tmp)/squarely-go-test.json

.PHONY: build run test lint go-test web-test e2e-test bench bench-redirect bench-bulk bench-analytics bench-codes web-build clean

build: web-build
	$(GO) build -tags embedweb -o $(BIN) ./cmd/squarely

run: build
	./$(BIN)

# web-build before go-test: the server tests read the prerendered pages in web/dist.
test: lint web-build go-test web-test e2e-test

lint: web/node_modules/.package-lock.json
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd web && npm run --silent typecheck && npm run --silent lint

go-test:
ifneq ($(GOTESTSUM),)
	$(GOTESTSUM) --format pkgname --jsonfile $(GO_TEST_JSON) -- -count=1 ./...
	@if [ "$${CI:-}" = true ] && grep '"Action":"skip"' $(GO_TEST_JSON) | grep -q '"Test":'; then \
	  echo "CI=true: these Go tests were skipped:"; \
	  grep '"Action":"skip"' $(GO_TEST_JSON) | grep '"Test":' | sed -E 's/.*"Package":"([^"]*)".*"Test":"([^"]*)".*/  \1 \2/'; \
	  exit 1; fi
else
	$(GO) test -count=1 ./...
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

# The analytics views over 1,000,000 scans of 1,000 codes on SQLite and
# PostgreSQL (DATABASE_URL or the local test server), p50/p95 of each
# (issue 15). See bench/analytics.
bench-analytics:
	nice $(GO) run ./bench/analytics

# The code list (GET /api/codes) in one workspace of 100,000 codes on SQLite
# and PostgreSQL: p50/p95 of pages, searches and filters (issue 22). See bench/codes.
bench-codes:
	nice $(GO) run ./bench/codes

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

clean:
	rm -rf bin web/dist
