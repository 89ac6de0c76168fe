#!/usr/bin/env bash
# The whole test suite: every package's vitest run through turbo, on embedded PGlite and, when
# PostgreSQL is available (TEST_DATABASE_URL set, or its binaries installed), on PostgreSQL too.
# Every package runs even when another fails (--continue); the closing line "N passed, N failed"
# counts every test that ran, and a package that could not run counts as failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 REDOCLY_TELEMETRY=off
. scripts/pg-throwaway.sh
. scripts/chromium.sh
chromium_install || echo "warning: no Chromium; the web UI's end-to-end tests will fail" >&2
started=""
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  if pg_throwaway_start; then started=1; else echo "warning: no PostgreSQL; running on PGlite only" >&2; fi
fi
expected=$(mktemp)
cleanup() { [ -n "$started" ] && pg_throwaway_stop; rm -f "$expected"; }
trap cleanup EXIT
rm -rf apps/*/test-results packages/*/test-results tooling/*/test-results spec/test-results
# The packages whose test task runs (the same selection as the run itself: "$@" may filter).
pnpm exec turbo run test --dry=json "$@" >"$expected"
pnpm exec turbo run test --continue --concurrency=1 "$@"
status=$?
node scripts/test-summary.mjs "$expected" || status=1
exit $status
