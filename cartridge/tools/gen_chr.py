#!/usr/bin/env python3
"""Generates the open cartridge's CHR ROM (8 KiB) from the drawings and shapes below.

Usage: gen_chr.py OUT.chr [PREVIEW.png]

Background pattern table ($0000), tile numbers as the game uses them:
  $20-$5A  font, at the tile number of its ASCII code (so strings in the source are tile runs)
  $80-$A3  16x16 cells, 4 tiles each (TL, TR, BL, BR) for cell values 0-8:
           0 empty, 1-6 jewels, 7 wild X, 8 a sparkle (not used by the game)
  $B0-$B7  frame pieces
  $C0-    big title letters, 4 tiles each
The sprite pattern table ($1000) is empty. Output is deterministic.
"""

import math
import struct
import sys
import zlib

FONT = {
    "0": [".XXXXX..", "XX...XX.", "XX..XXX.", "XX.X.XX.", "XXX..XX.", "XX...XX.", ".XXXXX.."],
    "1": ["...XX...", "..XXX...", "...XX...", "...XX...", "...XX...", "...XX...", ".XXXXXX."],
    "2": [".XXXXX..", "XX...XX.", ".....XX.", "...XXX..", ".XXX....", "XX......", "XXXXXXX."],
    "3": [".XXXXX..", "XX...XX.", ".....XX.", "...XXX..", ".....XX.", "XX...XX.", ".XXXXX.."],
    "4": ["...XXX..", "..XXXX..", ".XX.XX..", "XX..XX..", "XXXXXXX.", "....XX..", "....XX.."],
    "5": ["XXXXXXX.", "XX......", "XXXXXX..", ".....XX.", ".....XX.", "XX...XX.", ".XXXXX.."],
    "6": ["..XXXX..", ".XX.....", "XX......", "XXXXXX..", "XX...XX.", "XX...XX.", ".XXXXX.."],
    "7": ["XXXXXXX.", "XX...XX.", "....XX..", "...XX...", "..XX....", "..XX....", "..XX...."],
    "8": [".XXXXX..", "XX...XX.", "XX...XX.", ".XXXXX..", "XX...XX.", "XX...XX.", ".XXXXX.."],
    "9": [".XXXXX..", "XX...XX.", "XX...XX.", ".XXXXXX.", ".....XX.", "....XX..", ".XXXX..."],
    "A": ["..XXX...", ".XX.XX..", "XX...XX.", "XX...XX.", "XXXXXXX.", "XX...XX.", "XX...XX."],
    "B": ["XXXXXX..", "XX...XX.", "XX...XX.", "XXXXXX..", "XX...XX.", "XX...XX.", "XXXXXX.."],
    "C": ["..XXXX..", ".XX..XX.", "XX......", "XX......", "XX......", ".XX..XX.", "..XXXX.."],
    "D": ["XXXXX...", "XX..XX..", "XX...XX.", "XX...XX.", "XX...XX.", "XX..XX..", "XXXXX..."],
    "E": ["XXXXXXX.", "XX......", "XX......", "XXXXXX..", "XX......", "XX......", "XXXXXXX."],
    "F": ["XXXXXXX.", "XX......", "XX......", "XXXXXX..", "XX......", "XX......", "XX......"],
    "G": ["..XXXXX.", ".XX.....", "XX......", "XX..XXX.", "XX...XX.", ".XX..XX.", "..XXXXX."],
    "H": ["XX...XX.", "XX...XX.", "XX...XX.", "XXXXXXX.", "XX...XX.", "XX...XX.", "XX...XX."],
    "I": [".XXXXXX.", "...XX...", "...XX...", "...XX...", "...XX...", "...XX...", ".XXXXXX."],
    "J": ["....XXX.", ".....XX.", ".....XX.", ".....XX.", "XX...XX.", "XX...XX.", ".XXXXX.."],
    "K": ["XX...XX.", "XX..XX..", "XX.XX...", "XXXX....", "XX.XX...", "XX..XX..", "XX...XX."],
    "L": ["XX......", "XX......", "XX......", "XX......", "XX......", "XX......", "XXXXXXX."],
    "M": ["XX...XX.", "XXX.XXX.", "XXXXXXX.", "XX.X.XX.", "XX...XX.", "XX...XX.", "XX...XX."],
    "N": ["XX...XX.", "XXX..XX.", "XXXX.XX.", "XX.XXXX.", "XX..XXX.", "XX...XX.", "XX...XX."],
    "O": [".XXXXX..", "XX...XX.", "XX...XX.", "XX...XX.", "XX...XX.", "XX...XX.", ".XXXXX.."],
    "P": ["XXXXXX..", "XX...XX.", "XX...XX.", "XXXXXX..", "XX......", "XX......", "XX......"],
    "Q": [".XXXXX..", "XX...XX.", "XX...XX.", "XX...XX.", "XX.XXXX.", "XX..XX..", ".XXXX.X."],
    "R": ["XXXXXX..", "XX...XX.", "XX...XX.", "XXXXXX..", "XX.XX...", "XX..XX..", "XX...XX."],
    "S": [".XXXXX..", "XX...XX.", "XX......", ".XXXXX..", ".....XX.", "XX...XX.", ".XXXXX.."],
    "T": ["XXXXXX..", "..XX....", "..XX....", "..XX....", "..XX....", "..XX....", "..XX...."],
    "U": ["XX...XX.", "XX...XX.", "XX...XX.", "XX...XX.", "XX...XX.", "XX...XX.", ".XXXXX.."],
    "V": ["XX...XX.", "XX...XX.", "XX...XX.", "XXX.XXX.", ".XXXXX..", "..XXX...", "...X...."],
    "W": ["XX...XX.", "XX...XX.", "XX.X.XX.", "XXXXXXX.", "XXXXXXX.", "XXX.XXX.", "XX...XX."],
    "X": ["XX...XX.", "XXX.XXX.", ".XXXXX..", "..XXX...", ".XXXXX..", "XXX.XXX.", "XX...XX."],
    "Y": ["XX..XX..", "XX..XX..", "XX..XX..", ".XXXX...", "..XX....", "..XX....", "..XX...."],
    "Z": ["XXXXXXX.", "....XXX.", "...XXX..", "..XXX...", ".XXX....", "XXX.....", "XXXXXXX."],
    "-": ["........", "........", "........", ".XXXXX..", "........", "........", "........"],
    ".": ["........", "........", "........", "........", "........", "...XX...", "...XX..."],
    "!": ["...XX...", "...XX...", "...XX...", "...XX...", "...XX...", "........", "...XX..."],
    ":": ["........", "...XX...", "...XX...", "........", "...XX...", "...XX...", "........"],
    "/": [".....XX.", "....XX..", "...XX...", "..XX....", ".XX.....", "XX......", "........"],
}

TITLE = "JEWELBOT"
CELL_BASE = 0x80
FRAME_BASE = 0xB0
BIG_BASE = 0xC0


def blank(size=8):
    return [[0] * size for _ in range(size)]


def glyph(ch):
    rows = FONT[ch] + ["........"]
    return [[3 if c == "X" else 0 for c in row] for row in rows]


# Shapes: a signed distance (negative inside) in pixel units around the cell centre.
def circle(u, v):
    return math.hypot(u, v) - 6.7


def diamond(u, v):
    return (abs(u) + abs(v) - 7.9) / math.sqrt(2) * 1.2


def triangle(u, v):
    # Pointing up, flat base.
    base = v - 6.6
    side = (abs(u) * 1.85 - (v + 7.6)) / math.sqrt(5) * 1.6
    return max(base, side)


def triangle_down(u, v):
    return triangle(u, -v)


def hexagon(u, v):
    return max(abs(v) - 6.6, abs(u) * 0.866 + abs(v) * 0.5 - 6.6)


def emerald(u, v):
    return max(abs(u) - 5.6, abs(v) - 6.8, (abs(u) + abs(v)) / 1.42 - 7.4)


SHAPES = [circle, diamond, triangle, triangle_down, hexagon, emerald]


def jewel(shape, body):
    """16x16 pixels of colour indices: body colour, white highlights, dithered shade."""
    px = blank(16)
    for y in range(16):
        for x in range(16):
            u, v = x - 7.5, y - 7.5
            d = shape(u, v)
            if d > 0:
                continue
            eps = 0.5
            nx = shape(u + eps, v) - shape(u - eps, v)
            ny = shape(u, v + eps) - shape(u, v - eps)
            light = -(nx + ny)  # light from the top left
            c = body
            if d > -1.2 and light > 0.05:
                c = 3
            elif d > -2.2 and light < -0.05:
                c = body if (x + y) % 2 else 0
            elif -4.3 < d < -3.4 and light > 0.3:
                c = 3 if (x + y) % 2 else body
            px[y][x] = c
    # A sparkle in the upper left.
    for x, y in [(5, 5), (6, 5), (5, 6), (4, 5), (5, 4)]:
        if shape(x - 7.5, y - 7.5) < -1.5:
            px[y][x] = 3
    return px


def empty_cell():
    px = blank(16)
    for x, y in [(0, 0), (15, 0), (0, 15), (15, 15)]:
        px[y][x] = 2
    return px


def wild_cell():
    px = blank(16)
    for y in range(16):
        for x in range(16):
            u, v = x - 7.5, y - 7.5
            a = abs(u - v) / math.sqrt(2)
            b = abs(u + v) / math.sqrt(2)
            r = max(abs(u), abs(v))
            if r > 7.0:
                continue
            if min(a, b) < 2.3:
                px[y][x] = 2 if u + v > 5 else 1
                if min(a, b) < 0.8:
                    px[y][x] = 3
    return px


def flash_cell():
    px = blank(16)
    for y in range(16):
        for x in range(16):
            u, v = x - 7.5, y - 7.5
            star = abs(u) * abs(v)
            r = math.hypot(u, v)
            if r < 7.2 and (star < 4.0 or r < 3.2):
                px[y][x] = 3 if (star < 1.5 or r < 2.4) else 1
    return px


def frame_tiles():
    """Bevelled frame pieces: TL, top, TR, left, right, BL, bottom, BR."""
    # Profile across the border, from outside in: dark, light, light, white, dark.
    profile = [0, 0, 2, 1, 1, 3, 2, 0]

    def edge(vertical, flip):
        px = blank()
        for i in range(8):
            k = 7 - i if flip else i
            for j in range(8):
                if vertical:
                    px[j][i] = profile[k]
                else:
                    px[i][j] = profile[k]
        return px

    top = edge(False, False)
    bottom = edge(False, True)
    left = edge(True, False)
    right = edge(True, True)

    def corner(vflip, hflip):
        px = blank()
        for y in range(8):
            for x in range(8):
                ky = 7 - y if vflip else y
                kx = 7 - x if hflip else x
                # The profile of whichever edge is nearer the outside.
                px[y][x] = profile[min(ky, kx)] if min(ky, kx) >= 2 else 0
        return px

    return [corner(False, False), top, corner(False, True), left, right,
            corner(True, False), bottom, corner(True, True)]


def big_letter(ch):
    """A font glyph doubled to 16x16, white top, yellow middle, orange bottom (palette 1)."""
    g = FONT[ch]
    px = blank(16)
    for y in range(16):
        for x in range(16):
            if g[min(y // 2, 6)][x // 2] == "X" and y < 14:
                px[y][x] = 3 if y < 4 else (1 if y < 9 else 2)
    return px


def split16(px):
    """A 16x16 picture as its four 8x8 tiles: TL, TR, BL, BR."""
    return [[row[ox:ox + 8] for row in px[oy:oy + 8]] for oy, ox in [(0, 0), (0, 8), (8, 0), (8, 8)]]


def encode(tile):
    lo = bytes(sum(((p & 1) << (7 - x)) for x, p in enumerate(row)) for row in tile)
    hi = bytes(sum(((p >> 1) << (7 - x)) for x, p in enumerate(row)) for row in tile)
    return lo + hi


def build():
    tiles = [blank() for _ in range(256)]
    for ch in FONT:
        tiles[ord(ch)] = glyph(ch)
    cells = [empty_cell()] + [jewel(s, 1 + i % 2) for i, s in enumerate(SHAPES)]
    cells += [wild_cell(), flash_cell()]
    for n, cell in enumerate(cells):
        for k, t in enumerate(split16(cell)):
            tiles[CELL_BASE + 4 * n + k] = t
    for k, t in enumerate(frame_tiles()):
        tiles[FRAME_BASE + k] = t
    letters = sorted(set(TITLE))
    for n, ch in enumerate(letters):
        for k, t in enumerate(split16(big_letter(ch))):
            tiles[BIG_BASE + 4 * n + k] = t
    chr_rom = b"".join(encode(t) for t in tiles) + bytes(4096)
    assert len(chr_rom) == 8192
    return tiles, chr_rom, letters


def preview(tiles, path):
    """All 256 background tiles, 16 per row, scaled x3, with a demo palette."""
    colours = [(0, 0, 0), (230, 60, 60), (150, 60, 220), (255, 255, 255)]
    scale = 3
    w = h = 16 * 8 * scale
    rows = []
    for y in range(h):
        row = bytearray([0])
        for x in range(w):
            tx, ty = x // scale, y // scale
            t = tiles[(ty // 8) * 16 + tx // 8]
            row += bytes(colours[t[ty % 8][tx % 8]])
        rows.append(bytes(row))

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def main():
    tiles, chr_rom, letters = build()
    with open(sys.argv[1], "wb") as f:
        f.write(chr_rom)
    if len(sys.argv) > 2:
        preview(tiles, sys.argv[2])
    print("big letters:", "".join(letters))


if __name__ == "__main__":
    main()
