#!/usr/bin/env bash
# llama.cpp's own OpenAI-compatible server (`llama-server`), built offline from the
# llama.cpp that the llama-cpp-python source distribution vendors
# (vendor/llama.cpp/tools/server), once, and cached in ~/.cache/arena/bin. Prints the
# binary's path on success.
#
# Why this server: it keeps several slots, each with its own prompt cache, so model seats
# taking turns each read only their new turns; it applies the model's own chat template
# (`--jinja`), which does not HTML-escape the prompt. See ../shared/real-models.md.
#
# The build is portable (GGML_NATIVE=OFF: a native build traps on some of these CPUs with
# SIGILL) and static (one file to cache); about 4 minutes on two idle cores (16 under load). It holds the same
# lock as scripts/real-model.sh's wheel build, so two runs (two clones' CI, two helpers)
# never build side by side on the same cores: the second waits and then finds the binary.
set -euo pipefail
LLAMA=0.3.36
CACHE="${ARENA_CACHE:-$HOME/.cache/arena}"
BIN="$CACHE/bin/llama-server-$LLAMA"
LOCKS="${ARENA_WHEEL_CACHE:-$CACHE/wheels}"
JOBS="${ARENA_BUILD_JOBS:-2}"
mkdir -p "$CACHE/bin" "$LOCKS"
exec 9>"$LOCKS/.build.lock"
flock 9
if [ ! -x "$BIN" ]; then
  echo "building llama-server from llama-cpp-python $LLAMA's sources (portable, once; ~4 min on two idle cores)…" >&2
  work=$(mktemp -d "$CACHE/llama-build.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  sdist="$CACHE/sdist"
  mkdir -p "$sdist"
  if ! ls "$sdist"/llama_cpp_python-$LLAMA.tar.gz >/dev/null 2>&1; then
    python3 -m pip download -q --no-deps --no-binary :all: -d "$sdist" "llama-cpp-python==$LLAMA" >&2
  fi
  tar -xzf "$sdist"/llama_cpp_python-$LLAMA.tar.gz -C "$work"
  src="$work/llama_cpp_python-$LLAMA/vendor/llama.cpp"
  cmake -S "$src" -B "$work/build" -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DBUILD_SHARED_LIBS=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release >&2
  cmake --build "$work/build" --target llama-server -j"$JOBS" >&2
  # Copy then rename: a half-copied binary is never found under its final name.
  cp "$work/build/bin/llama-server" "$BIN.tmp"
  mv "$BIN.tmp" "$BIN"
fi
flock -u 9
"$BIN" --version >/dev/null 2>&1 || { echo "error: $BIN does not run" >&2; exit 1; }
echo "$BIN"
