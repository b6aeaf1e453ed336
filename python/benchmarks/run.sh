#!/usr/bin/env bash
# The Python package's speeds against nes-py and the command line (benchmarks/speed.py), in an
# environment of their own: the package, nes-py (which builds its C++ emulator, and reads ROMs
# right only with NumPy 1) and the release command.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$here/.." && pwd)"
venv="${BENCH_VENV:-${TMPDIR:-/tmp}/jewelbot-python-bench}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q "$here" "nes-py==8.2.1" "numpy<2"
cargo build --release --quiet --manifest-path "$repo/Cargo.toml" --bin jewelbot
"$venv/bin/python" "$here/benchmarks/speed.py" --rom "$repo/cartridge/columns.nes" \
    --jewelbot "$repo/target/release/jewelbot" "$@"
