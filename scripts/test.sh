#!/usr/bin/env bash
# The whole test suite: every package's vitest run through turbo, on embedded PGlite and, when
# PostgreSQL is available (TEST_DATABASE_URL set, or its binaries installed), on PostgreSQL too;
# the artifact tests on a local folder and, when an S3 server is at hand (TEST_S3_URL set, or Ceph
# installed: a throwaway radosgw is started), on S3 too. In CI (CI=true) both are required: a
# PostgreSQL or S3 server that cannot start fails the run instead of narrowing it.
# Every package runs even when another fails (--continue); the closing line "N passed, N failed"
# counts every test that ran, and a package that could not run counts as failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 REDOCLY_TELEMETRY=off
. scripts/pg-throwaway.sh
. scripts/s3-throwaway.sh
. scripts/chromium.sh
chromium_install || echo "warning: no Chromium; the web UI's end-to-end tests will fail" >&2
started=""
s3_started=""
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  if pg_throwaway_start; then started=1; else echo "warning: no PostgreSQL; running on PGlite only" >&2; fi
fi
if [ -z "${TEST_S3_URL:-}" ]; then
  if s3_throwaway_start; then
    s3_started=1
  elif [ "${CI:-}" = true ]; then
    echo "error: the throwaway S3 server (Ceph radosgw) did not start; CI needs the S3 artifact tests" >&2
    [ -n "$started" ] && pg_throwaway_stop
    exit 1
  else
    echo "warning: no S3 server; artifact tests run on the local folder only" >&2
  fi
fi
expected=$(mktemp)
cleanup() {
  [ -n "$started" ] && pg_throwaway_stop
  [ -n "$s3_started" ] && s3_throwaway_stop
  rm -f "$expected"
}
trap cleanup EXIT
rm -rf apps/*/test-results packages/*/test-results tooling/*/test-results spec/test-results
# The packages whose test task runs (the same selection as the run itself: "$@" may filter).
pnpm exec turbo run test --dry=json "$@" >"$expected"
pnpm exec turbo run test --continue --concurrency=1 "$@"
status=$?
node scripts/test-summary.mjs "$expected" || status=1
exit $status
