#!/usr/bin/env python3
"""A Magic Jewelry bot in Python (standard library only), over jewelbot's bot protocol.

    jewelbot run --headless --frames 20000 --bot "python3 examples/bots/columns.py"

It asks for the game's spawns and game overs with the board as the magic-jewelry plug-in
describes it (docs/bot-protocol.md). At each spawn it tries every column and every turn of the
falling column, plays each out by the rules (matches of three in a line, chains, the wild
column's sweep), and chooses the board it likes best: jewels removed, then low and even stacks
and colours that sit by their own. It answers with the presses that take the column there:
turns, moves with a release between two of the same, then Down held.

Everything it does follows from the messages, so the same game plays out the same way.
"""

import json
import sys

WIDTH = 6
ROWS = 15  # row -2 at index 0, row 12 (the floor's row) at index 14
EMPTY = "."
WILD = "X"
LINES = ((0, 1), (1, 0), (1, 1), (1, -1))


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def resolve(grid, landed_on_colour=None, wild=False):
    """Plays out a lock: the wild column's sweep, then match steps until none. Returns the
    jewels removed and the steps taken."""
    removed = steps = 0
    if wild:
        gone = {WILD}
        if landed_on_colour is not None:
            gone.add(landed_on_colour)
        for row in grid:
            for x in range(WIDTH):
                if row[x] in gone:
                    row[x] = EMPTY
                    removed += 1
        collapse(grid)
        steps = 1
    while True:
        marked = set()
        for r in range(1, ROWS):
            for x in range(WIDTH):
                colour = grid[r][x]
                if colour == EMPTY:
                    continue
                for dr, dx in LINES:
                    r0, x0, r1, x1 = r - dr, x - dx, r + dr, x + dx
                    if (0 <= r0 < ROWS and 0 <= r1 < ROWS and 0 <= x0 < WIDTH
                            and 0 <= x1 < WIDTH and grid[r0][x0] == colour
                            and grid[r1][x1] == colour):
                        marked.update(((r0, x0), (r, x), (r1, x1)))
        if not marked:
            return removed, steps
        for r, x in marked:
            grid[r][x] = EMPTY
        removed += len(marked)
        steps += 1
        collapse(grid)


def collapse(grid):
    """Every column falls together in rows -1..12; row -2 is lost."""
    for x in range(WIDTH):
        stack = [grid[r][x] for r in range(ROWS - 1, 0, -1) if grid[r][x] != EMPTY]
        for r in range(ROWS - 1, 0, -1):
            grid[r][x] = stack[ROWS - 1 - r] if ROWS - 1 - r < len(stack) else EMPTY
        grid[0][x] = EMPTY


def heights(grid):
    result = []
    for x in range(WIDTH):
        h = 0
        for r in range(2, ROWS):
            if grid[r][x] != EMPTY:
                h = ROWS - r
                break
        result.append(h)
    return result


def place(board, x, jewels, wild):
    """The board after the column (top, middle, bottom) locks in column x and its lock plays
    out; None when the game would be over."""
    grid = [list(row) for row in board]
    floor = ROWS - 1
    while floor >= 0 and grid[floor][x] != EMPTY:
        floor -= 1
    if floor < 2:
        return None
    below = grid[floor + 1][x] if floor + 1 < ROWS else None
    for i, jewel in enumerate(reversed(jewels)):
        grid[floor - i][x] = WILD if wild else str(jewel)
    removed, _ = resolve(grid, below, wild) if wild else resolve(grid)
    if any(cell != EMPTY for cell in grid[0] + grid[1]):
        return None
    return grid, removed


def neighbours_alike(grid):
    """Pairs of equal jewels side by side or corner to corner: the makings of matches."""
    pairs = 0
    for r in range(2, ROWS):
        for x in range(WIDTH):
            colour = grid[r][x]
            if colour == EMPTY:
                continue
            for dr, dx in ((0, 1), (1, 1), (1, -1), (1, 0)):
                r1, x1 = r + dr, x + dx
                if r1 < ROWS and 0 <= x1 < WIDTH and grid[r1][x1] == colour:
                    pairs += 1
    return pairs


def value(grid, removed):
    h = heights(grid)
    tallest = max(h)
    danger = sum(max(0, height - 8) ** 3 for height in h)
    rough = sum(abs(h[x] - h[x + 1]) for x in range(WIDTH - 1))
    return (40 * removed - 2 * sum(height * height for height in h) - 30 * danger
            - 3 * rough - 10 * tallest + 6 * neighbours_alike(grid))


def reachable(h, x, fall_speed):
    """Whether the column can be moved from the spawn column to x before it sinks beside a
    taller stack: the k-th move is pressed on frame 2k after the turns."""
    step = -1 if x < 3 else 1
    frame = 4
    column = 3
    while column != x:
        column += step
        sunk = frame // max(fall_speed, 1)
        if h[column] > 12 - sunk:
            return False
        frame += 2
    return True


def turned(jewels, turns):
    top, middle, bottom = jewels
    for _ in range(turns):
        top, middle, bottom = bottom, top, middle
    return [top, middle, bottom]


def choose(view):
    board = view["board"]
    falling = view["falling"]
    jewels = falling["jewels"]
    wild = falling["wild"]
    h = view["heights"]
    best = None
    for x in (3, 2, 4, 1, 5, 0):
        if not reachable(h, x, view["fall_speed"]):
            continue
        for turns in ((0,) if wild else (0, 1, 2)):
            outcome = place(board, x, turned(jewels, turns), wild)
            if outcome is None:
                continue
            score = value(*outcome)
            if best is None or score > best[0]:
                best = (score, x, turns)
    return best


def presses(x, turns):
    """Turns first (A and B take turns, so no release is needed), then the moves, each
    released before the next, then Down held."""
    timeline = [("A", "B")[i % 2] for i in range(turns)]
    key = "L" if x < 3 else "R"
    for i in range(abs(x - 3)):
        if i:
            timeline.append("-")
        timeline.append(key)
    # Down held through the spawn arms nothing: release it first.
    return ["-"] + timeline + ["D*40"]


def main():
    welcome = json.loads(sys.stdin.readline() or "{}")
    if welcome.get("protocol") != 1:
        sys.exit("columns.py speaks protocol 1")
    send({"type": "hello", "protocol": 1, "name": "columns.py",
          "events": ["power_on", "spawn", "game_over"], "views": True})
    placed = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            break
        answer = {"type": "answer", "frame": message["frame"]}
        events = message["events"]
        view = message.get("views", {}).get("magic-jewelry")
        if "power_on" in events:
            # The title takes Start from frame 7 on.
            answer["buttons"] = ["-*8", "S"]
        elif "game_over" in events:
            # The playfield fills for some 182 frames; Start held then resets, and a new
            # press starts the next game.
            answer["buttons"] = ["-*200", "S*10", "-*30", "S"]
            answer["status"] = [f"columns.py: game over after {placed} columns"]
        elif "spawn" in events and view and view["falling"]:
            best = choose(view)
            if best is not None:
                _, x, turns = best
                answer["buttons"] = presses(x, turns)
                placed += 1
                answer["status"] = [f"columns.py: column {placed} to x={x}, {turns} turns"]
        send(answer)


if __name__ == "__main__":
    main()
