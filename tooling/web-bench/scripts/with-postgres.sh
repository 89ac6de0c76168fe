#!/usr/bin/env bash
# Runs the given command with TEST_DATABASE_URL pointing at a throwaway PostgreSQL (scripts/pg-throwaway.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
. ../../scripts/pg-throwaway.sh
started=""
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  pg_throwaway_start || { echo "PostgreSQL is needed for the web benchmark" >&2; exit 1; }
  started=1
fi
"$@"
status=$?
[ -n "$started" ] && pg_throwaway_stop
exit $status
