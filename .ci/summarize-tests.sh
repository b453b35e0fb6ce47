#!/usr/bin/env bash
# Sums vitest's per-package "Tests  N failed | M passed (T)" lines from a turbo log into
# one closing line, "Tests: M passed, N failed", which CI reads.
set -euo pipefail
sed 's/\x1b\[[0-9;]*m//g' "$1" |
  grep -E '^[^ ]+:test: +Tests +' |
  awk '{
    for (i = 1; i <= NF; i++) {
      if ($i == "passed") passed += $(i - 1)
      if ($i == "failed") failed += $(i - 1)
    }
  } END { printf "Tests: %d passed, %d failed\n", passed, failed }'
