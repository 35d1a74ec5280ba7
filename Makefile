# members: the airline members' self-service area.
# make run | make build | make test | make bench | make gen
SHELL := /bin/bash
REVISION ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo dev)
GO_LDFLAGS := -X main.revision=$(REVISION)
export CGO_ENABLED := 0


.PHONY: cluster run demo-reset build web deps gen test test-go test-web test-e2e test-fuzz fuzz lint gosec bench clean

deps: web/node_modules/.package-lock.json
web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	go mod download

web: deps
	cd web && VITE_REVISION=$(REVISION) npm run build

build: web
	go build -ldflags "$(GO_LDFLAGS)" -o bin/members ./cmd/members

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
	scripts/check-tracked-files.sh
	@test -z "$$(gofmt -l cmd internal)" || (gofmt -l cmd internal; echo "gofmt needed"; exit 1)
	go vet ./...
	$(MAKE) gosec
	cd web && npm run lint && npm run typecheck

# gosec over the served binary (cmd/members and what it imports from
# internal/; tests excluded). Zero findings; each #nosec says why.
GOSEC := go run github.com/securego/gosec/v2/cmd/gosec@v2.29.0
gosec:
	$(GOSEC) -quiet -exclude-generated $$(go list -deps ./cmd/members | sed -n 's|^members/|./|p')

test-go:
	go test -count=1 -timeout 20m ./...

test-web: deps
	cd web && npm test

# The browser test files run E2E_JOBS at a time: each has its own server,
# port, database (its mail outbox too) and browser (web/e2e/harness.mjs).
# 1: on 2 cores two at a time gained little (README, "How long").
E2E_JOBS ?= 1
test-e2e: build
	cd web && MEMBERS_BIN=$(CURDIR)/bin/members E2E_JOBS=$(E2E_JOBS) npm run e2e

# Fuzz targets: the validators and decoders for a few seconds each in make
# test; every target (the whole API's request bodies too) for FUZZTIME in
# make fuzz. Seed corpora also run in every plain go test.
FUZZ_QUICK := ./internal/validate ./internal/account ./internal/booking
FUZZTIME ?= 60s
test-fuzz:
	scripts/fuzz.sh 3s $(FUZZ_QUICK)

fuzz:
	scripts/fuzz.sh $(FUZZTIME)

test: lint test-go test-fuzz test-web test-e2e

# Not part of CI (takes 20-30 minutes). Needs wrk and chromium from Debian
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

clean:
	rm -rf bin web/node_modules
