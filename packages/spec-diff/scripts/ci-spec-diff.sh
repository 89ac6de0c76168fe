#!/usr/bin/env bash
# CI step: every OpenAPI document under spec/ compared with the same file at the merge base with
# origin/main (or HEAD~1 when there is no origin/main). Prints the changes with their lines (GitHub
# Actions annotations and a step summary when run there) and fails on an unacknowledged breaking
# change (`x-breaking-change-acknowledged` in the spec acknowledges one; see the package README).
# Skips when there is no base: not a git repository, no origin/main and a single commit.
set -euo pipefail
cd "$(dirname "$0")/../../.."

base=""
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  if git rev-parse --verify --quiet 'origin/main^{commit}' >/dev/null 2>&1; then
    base=$(git merge-base HEAD origin/main 2>/dev/null || true)
  fi
  if [ -z "$base" ] && git rev-parse --verify --quiet 'HEAD~1^{commit}' >/dev/null 2>&1; then
    base=$(git rev-parse HEAD~1)
  fi
fi
if [ -z "$base" ]; then
  echo "spec diff: no merge base (no git history, origin/main or HEAD~1); skipped"
  exit 0
fi

bin=packages/spec-diff/dist/bin.cjs
if [ ! -f "$bin" ] || [ -n "$(find packages/spec-diff/src -name '*.ts' -newer "$bin" -print -quit 2>/dev/null)" ]; then
  pnpm --silent --filter @tracker-ml/spec-diff build
fi
format=text
[ -n "${GITHUB_ACTIONS:-}" ] && format=github
echo "=== spec diff: spec/ against $(git rev-parse --short "$base") (--fail-on breaking)"
# INIT_CWD: the command resolves paths from where pnpm was started; here that is this repository.
INIT_CWD="$PWD" node "$bin" "$base" --spec-dir spec --format "$format" --fail-on breaking
