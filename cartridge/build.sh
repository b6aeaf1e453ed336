#!/bin/sh
# Builds columns.nes from src/ with ca65/ld65 (cc65). The output is the same bytes every time.
# With --chr, first regenerates src/tiles.chr from tools/gen_chr.py (needs Python 3).
set -eu
cd "$(dirname "$0")"
if [ "${1:-}" = "--chr" ]; then
    python3 tools/gen_chr.py src/tiles.chr
fi
rm -rf build
mkdir -p build
for source in src/*.s; do
    name=$(basename "$source" .s)
    ca65 --include-dir src --bin-include-dir src -o "build/$name.o" "$source"
done
ld65 -C nrom.cfg -o columns.nes -m build/columns.map build/*.o
echo "built $(pwd)/columns.nes ($(wc -c < columns.nes) bytes)"
