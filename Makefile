# members: the airline members' self-service area.
# make run | make build | make test | make bench | make gen
SHELL := /bin/bash
REVISION ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo dev)
GO_LDFLAGS := -X main.revision=$(REVISION)
export CGO_ENABLED := 0


.PHONY: cluster run demo-reset build web deps gen test test-go test-web test-e2e screenshots test-fuzz fuzz lint gosec bench clean

# Node: the web toolchain runs on the major of web/.node-version (the one
# pin). A machine whose node is older (or that has none) gets that exact
# version, with npm, in .tools/node (scripts/install-node.sh, from the npm
# registry), first on PATH for every node and npm run from here; npm ci
# links it as web/node_modules/.bin/node, so `npm run` and `npx` in web/
# use it too. A machine with that major or a later one uses its own.
NODE_PIN := $(shell tr -d ' \t\r\n' < web/.node-version)
MACHINE_NODE_MAJOR := $(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null)
ifeq ($(shell test "0$(MACHINE_NODE_MAJOR)" -ge "$(firstword $(subst ., ,$(NODE_PIN)))" && echo own),own)
TOOLS_NODE :=
else
TOOLS_NODE := .tools/node/bin/node
export PATH := $(CURDIR)/.tools/node/bin:$(PATH)
endif

deps: web/node_modules/.package-lock.json
.tools/node/bin/node: web/.node-version
	@scripts/install-node.sh
web/node_modules/.package-lock.json: web/package-lock.json $(TOOLS_NODE)
	@echo "npm ci: installing web/node_modules (Node $$(node --version), npm $$(npm --version))"
	@cd web && npm ci --no-audit --no-fund --loglevel=error
	@$(if $(TOOLS_NODE),ln -sfn ../../../.tools/node/bin/node web/node_modules/.bin/node)
	@go mod download

# Rebuilt only when something they are made of changed: a second `make run`
# starts the server at once. The revision is part of both (the page and the
# API compare it), so bin/.revision changes, and both rebuild, after a commit.
WEB_DIST := internal/webapp/dist/index.html
WEB_SRC := $(shell find web/src web/public web/scripts -type f 2>/dev/null) $(wildcard web/index.html web/vite.config.ts web/tsconfig*.json web/package.json)
GO_SRC := $(shell find cmd internal api -type f -not -path 'internal/webapp/dist/*' 2>/dev/null) go.mod go.sum
REVISION_STAMP := bin/.revision
$(shell mkdir -p bin; test "$$(cat $(REVISION_STAMP) 2>/dev/null)" = "$(REVISION)" || echo "$(REVISION)" > $(REVISION_STAMP))

# The build's full output goes to bin/web-build.log (all of it on a
# failure); a success shows its warnings, if any, and the first-load budget.
web: $(WEB_DIST)
$(WEB_DIST): $(WEB_SRC) $(REVISION_STAMP) web/node_modules/.package-lock.json
	@echo "web: building internal/webapp/dist (log: bin/web-build.log)"
	@cd web && VITE_REVISION=$(REVISION) npm run --silent build > ../bin/web-build.log 2>&1 || { cat ../bin/web-build.log; exit 1; }
	@grep -iE 'warn|\(!\)|first load of' bin/web-build.log | sed -e 's/^\[plugin [^]]*\] //' -e 's/:$$//' -e 's/^/web: /' || true

build: bin/members bin/stripefake
bin/members: $(GO_SRC) $(WEB_DIST) $(REVISION_STAMP)
	@echo "go: building bin/members"
	@go build -ldflags "$(GO_LDFLAGS)" -o bin/members ./cmd/members

# The Stripe stand-in of the browser tests in Stripe mode (not linked into bin/members).
bin/stripefake: $(GO_SRC)
	@go build -o bin/stripefake ./cmd/stripefake

# The server prints the address and the demo logins last, once it answers.
# LOG_REQUESTS=on shows the request log (quiet in demo mode).
run: build
	@mkdir -p data
	@# A fresh demo database opens the unlimited and coupon passes, so every
	@# page has something to show (an operator's later switches are kept).
	@test -e data/members.db || { ./bin/members admin gogo-pass --public --purchasable && ./bin/members admin coupon-ticket --public; } >/dev/null
	@./bin/members serve --demo $(if $(LOG_REQUESTS),--log-requests $(LOG_REQUESTS))

# Two instances on one PostgreSQL (MEMBERS_TEST_PG, schema "cluster")
# behind nginx (deploy/nginx.conf; apt-get install nginx), with the
# sandbox gateway on its own, until Ctrl-C (docs/operations.md).
cluster: build
	go run ./cmd/cluster --bin bin/members

# Starts again from a clean demo: removes the local SQLite database.
demo-reset:
	rm -f data/members.db data/members.db-wal data/members.db-shm

# Regenerates Go server code and TypeScript types from api/openapi.yaml.
gen: deps
	for c in internal/api/*/oapi.yaml; do go tool oapi-codegen -config $$c api/openapi.yaml; done
	cd web && npm run gen:api

lint: deps
	@date -u +"lint: started %T UTC"
	scripts/check-tracked-files.sh
	scripts/check-doc-paths.sh
	@test -z "$$(gofmt -l cmd internal)" || (gofmt -l cmd internal; echo "gofmt needed"; exit 1)
	go vet ./...
	$(MAKE) gosec
	cd web && npm run lint && npm run typecheck
	@date -u +"lint: ended %T UTC"

# gosec over the served binary (cmd/members and what it imports from
# internal/; tests excluded). Zero findings; each #nosec says why.
GOSEC := go run github.com/securego/gosec/v2/cmd/gosec@v2.29.0
gosec:
	$(GOSEC) -quiet -exclude-generated $$(go list -deps ./cmd/members | sed -n 's|^members/|./|p')

test-go:
	@date -u +"test-go: started %T UTC"
	go test -count=1 -timeout 20m ./...
	@date -u +"test-go: ended %T UTC"

test-web: deps
	@date -u +"test-web: started %T UTC"
	cd web && npm test
	@date -u +"test-web: ended %T UTC"

# The browser test files run E2E_JOBS at a time: each has its own server,
# port, database (its mail outbox too) and browser contexts, in one Chromium
# headless shell shared by all files (web/e2e/run.mjs, harness.mjs). 4: a
# file mostly waits on its pages, so four at a time keep the CPUs busy
# (docs/testing.md); E2E_JOBS=1 runs them one at a time.
E2E_JOBS ?= 4
test-e2e: build
	@date -u +"test-e2e: started %T UTC"
	cd web && MEMBERS_BIN=$(CURDIR)/bin/members E2E_JOBS=$(E2E_JOBS) npm run e2e
	@date -u +"test-e2e: ended %T UTC"

# The browser tests with their screenshots saved (web/e2e/screenshots/,
# E2E_SCREENSHOTS=1), to look at the pages; make test skips the
# screenshots. FILES=e2e/points.test.mjs runs only those files.
screenshots: build
	cd web && MEMBERS_BIN=$(CURDIR)/bin/members E2E_JOBS=$(E2E_JOBS) E2E_SCREENSHOTS=1 npm run e2e -- $(FILES)

# Fuzz targets: the validators and decoders for a few seconds each in make
# test; every target (the whole API's request bodies too) for FUZZTIME in
# make fuzz. Seed corpora also run in every plain go test.
FUZZ_QUICK := ./internal/validate ./internal/account ./internal/booking
FUZZTIME ?= 60s
test-fuzz:
	@date -u +"test-fuzz: started %T UTC"
	scripts/fuzz.sh 3s $(FUZZ_QUICK)
	@date -u +"test-fuzz: ended %T UTC"

fuzz:
	scripts/fuzz.sh $(FUZZTIME)

# Three at a time: the browser tests (E2E_JOBS files at a time), lint and
# the Go tests start together; the fuzz targets and the web unit tests take
# the first free slot. The Go tests mostly wait on PostgreSQL and the
# browser tests on their pages (docs/testing.md). Each part's output comes
# whole when it ends (-Oline), with its start and end time; every part runs
# (-k) and make test fails if any part does.
TEST_JOBS ?= 3
test: deps build
	@date -u +"make test: started %T UTC"
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) -k -Oline test-e2e lint test-go test-fuzz test-web

# Not part of CI (16 minutes with the seeded databases kept, 30-40 when it seeds). Needs wrk and chromium from Debian
# (apt-get install wrk chromium); Lighthouse comes from npm on first use.
# PostgreSQL at MEMBERS_TEST_PG is measured too when it answers, and the
# purchases through nginx in front of two instances when nginx is installed.
# The yardstick is a bare Go server in a process of its own (cmd/benchbare).
bench: build
	@command -v wrk >/dev/null || { echo "make bench needs wrk: apt-get install wrk"; exit 1; }
	@test -x /usr/bin/chromium || { echo "make bench needs chromium: apt-get install chromium"; exit 1; }
	go run -ldflags "$(GO_LDFLAGS)" ./cmd/benchreport
	go run ./cmd/benchbookings
	go run ./cmd/benchpayments
	go run ./cmd/benchflights
	OUT=BENCHMARKS.md scripts/bench-import.sh 100000 1000000
	go run ./cmd/benchtyphoon

clean:
	rm -rf bin web/node_modules .tools
