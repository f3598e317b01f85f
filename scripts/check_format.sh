#!/usr/bin/env bash
# Checks that every C++ source in the repository is formatted by the
# repository's .clang-format (clang-format 14, Debian 12). Exit status 1 and
# the offending files listed when one is not; `bash scripts/check_format.sh
# --fix` formats them in place instead.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
mapfile -t files < <(git ls-files '*.cc' '*.h' ':!:**/node_modules/**')
if [[ "${1:-}" == --fix ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if ((${#bad[@]})); then
  echo "clang-format: ${#bad[@]} file(s) not formatted (run: bash scripts/check_format.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "clang-format: ${#files[@]} files formatted"
