#!/usr/bin/env bash
# Cross-checks jewelbot's movies with FCEUX, the emulator TAS authors use (docs/movies.md):
#
#   1. the AI plays FRAMES frames in fast mode and jewelbot records the movie and all 2 KiB of
#      RAM every frame; FCEUX replays the movie and dumps its RAM every frame; they must agree
#      on every byte of every frame (compare.py names the bytes excepted for a ROM, and why),
#      with the title on frame 6 in both;
#   2. the comparison must fail for the same movie shifted by one frame, and for the movie
#      without its RAMInitOption line (FCEUX then powers on with its own RAM pattern);
#   3. FCEUX records a movie while its Lua script presses a fixed sequence, once with its
#      default power-on RAM and once with its seeded random RAM; jewelbot replays each and
#      must agree with FCEUX's RAM on every frame;
#   4. Lua scripts written for FCEUX run the same in jewelbot: the RAM-dump script on the same
#      movie, and a Magic Jewelry bot from power-on (its movie replayed by FCEUX too);
#   5. a script that probes FCEUX's console functions (frame counts, lag, the bus, states)
#      writes the same bytes in both;
#   6. the example Python bot (docs/bot-protocol.md) plays FRAMES frames twice in lockstep to
#      the same movie, and FCEUX replays that movie to jewelbot's RAM on every frame.
#
# Usage: tests/fceux/crosscheck.sh [--rom PATH] [--frames N]
#        tests/fceux/crosscheck.sh [--rom PATH] --movie FILE [--every N]
# Needs fceux (Debian's package), xvfb-run and python3. The ROM defaults to the open
# cartridge; a real Magic Jewelry dump works too (FCEUX loads the Asia dump, not No-Intro's).
# With --movie, only that movie (a marathon's, say) is replayed in both emulators, its RAM
# compared every N frames (default 100,000) and at its last frame.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rom="$root/cartridge/columns.nes"
frames=20000
movie=""
every=100000
while [ $# -gt 0 ]; do
    case "$1" in
        --rom) rom=$(realpath "$2"); shift 2 ;;
        --frames) frames=$2; shift 2 ;;
        --movie) movie=$(realpath "$2"); shift 2 ;;
        --every) every=$2; shift 2 ;;
        *) echo "usage: $0 [--rom PATH] [--frames N] | [--rom PATH] --movie FILE [--every N]" >&2; exit 2 ;;
    esac
done
# Short self-checks and recordings: a wrong game shows within the first seconds.
short=$(( frames < 5000 ? frames : 5000 ))

fceux=${FCEUX:-$(command -v fceux || echo /usr/games/fceux)}
[ -x "$fceux" ] || { echo "crosscheck: FCEUX not found (apt-get install fceux)" >&2; exit 2; }
if [ -z "${JEWELBOT:-}" ]; then
    cargo build --quiet --manifest-path "$root/Cargo.toml"
    JEWELBOT="$root/target/debug/jewelbot"
fi
if cmp -s "$rom" "$root/cartridge/columns.nes"; then exceptions=cartridge; else exceptions=real-game; fi

# FCEUX gets 15 minutes, and a long movie a second more for every 300 of its frames (FCEUX
# replays at well over 300 frames a second).
fceux_timeout=900

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# FCEUX under a virtual display, with a fresh HOME: it keeps settings (and the last movie)
# in ~/.fceux even with --no-config 1. It exits with a crash status after the Lua script's
# os.exit, so its run is judged by the files it wrote.
run_fceux() {
    local home
    home=$(mktemp -d "$work/home.XXXXXX")
    HOME=$home timeout "$fceux_timeout" xvfb-run -a "$fceux" --no-config 1 --sound 0 --newppu 1 "$@" \
        >"$home/fceux.log" 2>&1 || true
}

compare() {
    python3 "$here/compare.py" --exceptions "$exceptions" --title-frame 6 "$@"
}

check() {
    local what=$1; shift
    echo "== $what"
    if "$@"; then echo "   agree"; else echo "   FAIL: $what"; failures=$((failures + 1)); fi
}

refute() {
    local what=$1; shift
    echo "== $what (must disagree)"
    if "$@"; then echo "   FAIL: the comparison did not notice"; failures=$((failures + 1)); else echo "   disagree, as they must"; fi
}

if [ -n "$movie" ]; then
    length=$(grep -c '^|' "$movie")
    fceux_timeout=$(( 900 + length / 300 ))
    echo "ROM: $rom ($exceptions), the movie $movie ($length frames), RAM every $every frames"
    "$JEWELBOT" run --headless --rom "$rom" --ai off --movie "$movie" --frames "$length" \
        --ram-log "$work/movie.jewelbot" --ram-log-every "$every" >/dev/null
    DUMP_OUT="$work/movie.fceux" DUMP_FRAMES=$length DUMP_EVERY=$every \
        run_fceux --loadlua "$here/dump_ram.lua" --playmov "$movie" "$rom"
    check "the movie in both emulators" compare "$work/movie.fceux" "$work/movie.jewelbot"
    [ "$failures" -eq 0 ] && echo "crosscheck: jewelbot and FCEUX agree" && exit 0
    echo "crosscheck: $failures check(s) failed"; exit 1
fi

echo "ROM: $rom ($exceptions), $frames frames"

# 1. The AI's game, replayed by FCEUX.
"$JEWELBOT" record --rom "$rom" --frames "$frames" --mode fast --ranges 0000-07FF \
    --record-movie "$work/ai.fm2" --out "$work/ai.trace.gz" >/dev/null
DUMP_OUT="$work/ai.ram" DUMP_FRAMES=$frames \
    run_fceux --loadlua "$here/dump_ram.lua" --playmov "$work/ai.fm2" "$rom"
check "jewelbot's AI movie replayed by FCEUX" compare "$work/ai.ram" "$work/ai.trace.gz"

# 2. The comparison notices a movie one frame late and a movie without its power-on RAM.
awk '!done && /^\|/ { print "|0|........|||"; done = 1 } { print }' "$work/ai.fm2" >"$work/shifted.fm2"
grep -v '^RAMInitOption ' "$work/ai.fm2" >"$work/no-ram-option.fm2"
for variant in shifted no-ram-option; do
    DUMP_OUT="$work/$variant.ram" DUMP_FRAMES=$short \
        run_fceux --loadlua "$here/dump_ram.lua" --playmov "$work/$variant.fm2" "$rom"
    refute "the movie $variant" compare "$work/$variant.ram" "$work/ai.trace.gz"
done

# 3. FCEUX's own movies, replayed by jewelbot: its default RAM pattern (0) and seeded RAM (3).
for ram_init in 0 3; do
    DUMP_OUT="$work/fceux-$ram_init.ram" DUMP_FRAMES=$short MOVIE_OUT="$work/fceux-$ram_init.fm2" \
        run_fceux --ramInit "$ram_init" --loadlua "$here/record_inputs.lua" "$rom"
    [ -s "$work/fceux-$ram_init.fm2" ] || { echo "FCEUX recorded no movie" >&2; exit 2; }
    "$JEWELBOT" record --rom "$rom" --movie "$work/fceux-$ram_init.fm2" --ai off \
        --ranges 0000-07FF --out "$work/fceux-$ram_init.trace.gz" >/dev/null
    check "FCEUX's movie (RAMInitOption $ram_init) replayed by jewelbot" \
        compare "$work/fceux-$ram_init.ram" "$work/fceux-$ram_init.trace.gz"
done

# 4. Lua scripts written for FCEUX run the same in jewelbot (docs/lua.md):
#    a. the RAM-dump script, unchanged, on the AI's movie: byte-identical output;
#    b. the example Magic Jewelry bot from power-on (all-zero RAM in both), with the dump: the
#       same RAM on every frame (compare.py: on the open cartridge a stack byte may differ on a
#       single frame when the NMI meets its wait loop one instruction apart, as it does once in
#       this game), and jewelbot's movie of its game replayed by FCEUX to the same RAM;
#    and the byte comparison notices one byte of the output changed, and one frame of the
#    bot's input changed.
same_bytes() { cmp -s "$1" "$2"; }
DUMP_OUT="$work/ai.lua-jewelbot" DUMP_FRAMES=$frames "$JEWELBOT" run --headless --rom "$rom" \
    --ai off --movie "$work/ai.fm2" --lua "$here/dump_ram.lua" --lua-os-io \
    --frames $((frames + 1)) >/dev/null
check "dump_ram.lua in jewelbot and in FCEUX (the AI's movie)" same_bytes "$work/ai.ram" "$work/ai.lua-jewelbot"
python3 - "$work/ai.lua-jewelbot" "$work/ai.lua-changed" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[len(data) // 2] ^= 0x01
open(sys.argv[2], "wb").write(data)
PY
refute "dump_ram.lua's output with one byte changed" same_bytes "$work/ai.ram" "$work/ai.lua-changed"

export DUMP_SCRIPT="$here/dump_ram.lua" BOT="$root/examples/lua/magic-jewelry-bot.lua"
DUMP_OUT="$work/bot.fceux" DUMP_FRAMES=$frames \
    run_fceux --ramInit 2 --loadlua "$here/bot_with_dump.lua" "$rom"
DUMP_OUT="$work/bot.jewelbot" DUMP_FRAMES=$frames "$JEWELBOT" run --headless --rom "$rom" \
    --lua "$here/bot_with_dump.lua" --lua-os-io --record-movie "$work/bot.fm2" \
    --frames $((frames + 1)) >/dev/null
bot_compare() { python3 "$here/compare.py" --exceptions cartridge-nmi-stack --title-frame 6 "$@"; }
check "the Lua bot in jewelbot and in FCEUX, every frame" bot_compare "$work/bot.fceux" "$work/bot.jewelbot"
DUMP_OUT="$work/bot-replay.fceux" DUMP_FRAMES=$frames \
    run_fceux --loadlua "$here/dump_ram.lua" --playmov "$work/bot.fm2" "$rom"
check "jewelbot's movie of the Lua bot replayed by FCEUX" bot_compare "$work/bot-replay.fceux" "$work/bot.jewelbot"
# Frame 100 of the bot's movie pressing A instead of what the bot pressed.
awk '!done && /^\|/ && ++n == 100 { sub(/\|0\|......../, "|0|.......A"); done = 1 } { print }' \
    "$work/bot.fm2" >"$work/bot-changed.fm2"
DUMP_OUT="$work/bot-changed.fceux" DUMP_FRAMES=$short \
    run_fceux --loadlua "$here/dump_ram.lua" --playmov "$work/bot-changed.fm2" "$rom"
refute "the bot's movie with one frame's input changed" bot_compare "$work/bot-changed.fceux" "$work/bot.jewelbot"

# 5. FCEUX's console functions in a script, from power-on with no movie: the frame count at
#    every boundary (power-on's included), lag frames, the bus beyond RAM, a state saved on
#    frame 300 and loaded on frame 400, RAM every frame: byte-identical output.
PROBE_OUT="$work/probe.fceux" PROBE_FRAMES=700 \
    run_fceux --ramInit 2 --loadlua "$here/console_probe.lua" "$rom"
PROBE_OUT="$work/probe.jewelbot" PROBE_FRAMES=700 "$JEWELBOT" run --headless --rom "$rom" \
    --ai off --lua "$here/console_probe.lua" --lua-os-io --frames 701 >/dev/null
check "console_probe.lua in jewelbot and in FCEUX (lag, bus, states)" same_bytes "$work/probe.fceux" "$work/probe.jewelbot"
sed '350s/ [0-9]*$/ 0/' "$work/probe.jewelbot" >"$work/probe.changed"
refute "console_probe.lua's output with one checksum changed" same_bytes "$work/probe.fceux" "$work/probe.changed"

# 6. A bot in another process: the Python example, twice (lockstep: the same game, the same
#    movie), and its movie replayed by FCEUX.
for take in 1 2; do
    "$JEWELBOT" record --rom "$rom" --bot "python3 $root/examples/bots/columns.py" \
        --frames "$frames" --ranges 0000-07FF --record-movie "$work/python-$take.fm2" \
        --out "$work/python-$take.trace.gz" >/dev/null
done
# A movie's guid is its own: the frames' inputs are the game.
same_inputs() { cmp -s <(grep '^|' "$1") <(grep '^|' "$2"); }
check "the Python bot's game, played twice" same_inputs "$work/python-1.fm2" "$work/python-2.fm2"
DUMP_OUT="$work/python.fceux" DUMP_FRAMES=$frames \
    run_fceux --loadlua "$here/dump_ram.lua" --playmov "$work/python-1.fm2" "$rom"
check "the Python bot's movie replayed by FCEUX" compare "$work/python.fceux" "$work/python-1.trace.gz"

if [ "$failures" -ne 0 ]; then
    echo "crosscheck: $failures check(s) failed"
    exit 1
fi
echo "crosscheck: jewelbot and FCEUX agree"
