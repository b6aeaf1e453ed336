#!/usr/bin/env python3
"""Compares CPU RAM frame by frame: FCEUX's dump (dump_ram.lua, record_inputs.lua) against a
jewelbot RAM trace of all 2 KiB (`jewelbot record --ranges 0000-07FF`, docs/traces.md) or a
jewelbot RAM log in FCEUX's own format (`jewelbot run --ram-log`).

Every frame FCEUX dumped must be in the trace and equal on all 2,048 bytes, except the bytes
excepted for the ROM (--exceptions), which may differ on single frames only. The title ($46 =
$83) must come on the same frame in both, and on --title-frame when it is given.

Exit status: 0 when they agree, 1 when they do not (the first differences are printed), 2 on
unusable input.
"""

import argparse
import gzip
import sys

RAM_SIZE = 0x800
TITLE_ADDRESS, TITLE_VALUE = 0x46, 0x83

# Bytes allowed to differ, on single frames only, and why. The emulators end a frame a few CPU
# cycles apart (tetanes-core as vblank starts, FCEUX a few dots later), so a byte written in
# those cycles belongs to frame k in one and k+1 in the other; on the next frame both agree.
EXCEPTIONS = {
    # The open cartridge ends every frame's work well before the frame ends and waits in a
    # loop that keeps the flags: nothing may differ.
    "cartridge": {},
    # The open cartridge in a game that meets the NMI one instruction apart in its wait loop:
    # the example Lua bot's, at frame 17,555 of 20,000, $01FC (the interrupted address's low
    # byte, $E3 in FCEUX, $E5 here). The interrupted address is a dead stack byte: the game
    # agrees on every other byte of every frame.
    "cartridge-nmi-stack": {
        address: "stack: the NMI pushes the interrupted address and flags"
        for address in range(0x100, 0x200)
    },
    # Magic Jewelry (measured over 20,000 frames of AI play): its main loop can still be
    # running when a frame ends.
    "real-game": {
        **{0x30: "scratch byte of the main loop", 0x31: "scratch byte of the main loop"},
        **{
            address: "stack: the NMI pushes the interrupted address and flags"
            for address in range(0x100, 0x200)
        },
    },
}


def fail(message):
    print(f"compare: {message}", file=sys.stderr)
    sys.exit(2)


def read_fceux(path):
    """{frame: ram} from a dump of '<frame> <2048 bytes>\\n' records."""
    with open(path, "rb") as f:
        data = f.read()
    frames, i = {}, 0
    while i < len(data):
        space = data.find(b" ", i)
        if space < 0 or not data[i:space].isdigit():
            fail(f"{path}: damaged record at byte {i}")
        frame = int(data[i:space])
        ram = data[space + 1 : space + 1 + RAM_SIZE]
        if len(ram) != RAM_SIZE or data[space + 1 + RAM_SIZE : space + 2 + RAM_SIZE] != b"\n":
            fail(f"{path}: frame {frame} is cut short")
        frames[frame] = ram
        i = space + 2 + RAM_SIZE
    if not frames:
        fail(f"{path}: no frames (did FCEUX run the script?)")
    return frames


def read_jewelbot(path):
    """{frame: ram} from a jewelbot RAM trace or RAM log."""
    with open(path, "rb") as f:
        start = f.read(2)
    if start in (b"# ", b"\x1f\x8b"):
        return dict(enumerate(read_trace(path), start=1))
    return read_fceux(path)


def read_trace(path):
    """[ram after frame 1, ram after frame 2, ...] from a jewelbot RAM trace."""
    opener = gzip.open if path.endswith(".gz") else open
    ram, frames = bytearray(RAM_SIZE), []
    with opener(path, "rt") as f:
        header = f.readline()
        if "ranges=0000-07FF" not in header:
            fail(f"{path}: not a trace of all RAM (record it with --ranges 0000-07FF)")
        for line in f:
            if line.startswith("#"):
                continue
            fields = line.split()
            if int(fields[0]) != len(frames) + 1:
                fail(f"{path}: frame {fields[0]} out of order")
            for change in fields[3:]:
                address, value = change.split("=")
                ram[int(address, 16)] = int(value, 16)
            frames.append(bytes(ram))
    return frames


def title_frame(frames):
    return next((k for k, ram in frames if ram[TITLE_ADDRESS] == TITLE_VALUE), None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fceux_dump")
    parser.add_argument("jewelbot_trace")
    parser.add_argument("--exceptions", choices=sorted(EXCEPTIONS), default="cartridge")
    parser.add_argument("--title-frame", type=int)
    args = parser.parse_args()

    fceux = read_fceux(args.fceux_dump)
    jewelbot = read_jewelbot(args.jewelbot_trace)
    excepted = EXCEPTIONS[args.exceptions]

    problems, excused, previous = [], 0, set()
    for frame in sorted(fceux):
        if frame not in jewelbot:
            problems.append(f"frame {frame}: FCEUX has it, jewelbot's record does not")
            break
        ours = jewelbot[frame]
        differing = [a for a in range(RAM_SIZE) if fceux[frame][a] != ours[a]]
        # An excepted byte may differ on one frame, not on two in a row.
        repeated = previous if frame - 1 in fceux else set()
        unexcused = [a for a in differing if a not in excepted or a in repeated]
        previous = {a for a in differing if a in excepted}
        excused += len(differing) - len(unexcused)
        if unexcused:
            shown = ", ".join(
                f"${a:04X} FCEUX {fceux[frame][a]:02X} jewelbot {ours[a]:02X}" for a in unexcused[:6]
            )
            more = f" and {len(unexcused) - 6} more" if len(unexcused) > 6 else ""
            problems.append(f"frame {frame}: {shown}{more}")

    fceux_title = title_frame(sorted(fceux.items()))
    jewelbot_title = title_frame(sorted(jewelbot.items()))
    if fceux_title != jewelbot_title and min(fceux) == 1 and min(jewelbot) == 1:
        problems.append(f"the title comes on frame {fceux_title} in FCEUX, {jewelbot_title} in jewelbot")
    if args.title_frame is not None and min(jewelbot) == 1 and jewelbot_title != args.title_frame:
        problems.append(f"the title comes on frame {jewelbot_title}, not {args.title_frame}")

    print(
        f"compared {len(fceux)} frames ({min(fceux)}-{max(fceux)}) of 2,048 bytes: "
        f"{len(problems)} disagreements, {excused} excepted byte differences; "
        f"title on frame {jewelbot_title} in jewelbot"
        + (f", {fceux_title} in FCEUX" if min(fceux) == 1 else "")
    )
    for problem in problems[:10]:
        print(f"  {problem}")
    if len(problems) > 10:
        print(f"  ... {len(problems) - 10} more")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
