#!/usr/bin/env bash
# CI step: for every spec/*.yaml changed against the merge base with origin/main (or HEAD~1 when
# there is no origin/main), print `pnpm spec:diff <base>:spec/<file> spec/<file>`. A change under
# spec/components/ counts as a change of every revision. Skips quietly when there is no base.
# Never fails because of what the diff finds (no --fail-on); only a crash of the tool fails it.
set -euo pipefail
cd "$(dirname "$0")/../../.."

base=""
if git rev-parse --verify --quiet origin/main >/dev/null 2>&1; then
  base=$(git merge-base HEAD origin/main 2>/dev/null || true)
fi
if [ -z "$base" ] && git rev-parse --verify --quiet 'HEAD~1^{commit}' >/dev/null 2>&1; then
  base=$(git rev-parse HEAD~1)
fi
if [ -z "$base" ]; then
  echo "spec diff: no merge base (neither origin/main nor HEAD~1); skipped"
  exit 0
fi

changed=$(git diff --name-only "$base" -- spec/ || true)
files=()
if printf '%s\n' "$changed" | grep -q '^spec/components/'; then
  for f in spec/*.yaml; do files+=("$f"); done
else
  while IFS= read -r f; do
    case "$f" in spec/*/*) ;; spec/*.yaml) [ -f "$f" ] && files+=("$f") ;; esac
  done <<<"$changed"
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "spec diff: no spec changed since $(git rev-parse --short "$base")"
  exit 0
fi
short=$(git rev-parse --short "$base")
for f in "${files[@]}"; do
  case "$f" in spec/redocly.yaml) continue ;; esac
  echo "=== spec diff: $f against $short (pnpm spec:diff $short:$f $f)"
  if git cat-file -e "$base:$f" 2>/dev/null; then
    pnpm --silent spec:diff "$short:$f" "$f"
  else
    echo "$f is new since $short."
  fi
  echo
done
