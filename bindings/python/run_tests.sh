#!/usr/bin/env bash
# Builds the Python bindings into a virtual environment under the target directory and
# runs their pytest suite (docs/python.md). tests/python_bindings.rs runs it from
# `cargo test`, so the README's test command runs the Python tests too.
#
#   bindings/python/run_tests.sh [--release] [pytest arguments...]
#
# The venv (target/python-venv) is made once and kept while requirements-test.txt is
# unchanged; the extension is built with the workspace's target directory
# (CARGO_TARGET_DIR), so that the engine's crates are not compiled twice.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
profile=debug
if [[ "${1:-}" == "--release" ]]; then
  profile=release
  shift
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
python="${PYTHON:-python3}"
venv="$CARGO_TARGET_DIR/python-venv"
stamp="$venv/.requirements"
if ! cmp -s "$here/requirements-test.txt" "$stamp" 2>/dev/null; then
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements-test.txt"
  cp "$here/requirements-test.txt" "$stamp"
fi
# `maturin develop` installs the package in editable form into the venv: the Python
# sources are read from bindings/python/python, the built module is copied next to them.
export VIRTUAL_ENV="$venv"
export PATH="$venv/bin:$PATH"
args=()
[[ "$profile" == release ]] && args+=(--release)
(cd "$here" && maturin develop --quiet "${args[@]}" >&2)
"$venv/bin/python" -c "import carcassonne" || { echo "the carcassonne module does not import" >&2; exit 1; }
cd "$here"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
