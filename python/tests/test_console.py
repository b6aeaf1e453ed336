import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import jewelbot
from jewelbot import Console


def test_frames_ram_and_screen():
    console = Console()
    assert console.frame == 0
    console.run(120)
    assert console.frame == 120
    ram = console.ram
    assert ram.dtype == np.uint8 and ram.shape == (2048,)
    screen = console.screen()
    assert screen.dtype == np.uint8 and screen.shape == (240, 256, 3)
    assert screen.any(), "the title screen is not black"
    # A copy: writing it changes nothing in the console.
    ram[:] = 0
    assert console.ram.any()


def test_power_on_repeats_exactly():
    console = Console()
    console.run(200, "START")
    first = console.ram
    console.power_on()
    assert console.frame == 0
    console.run(200, "START")
    assert np.array_equal(first, console.ram)


def test_buttons_in_every_form_are_the_same_frames():
    rams = []
    for buttons in (0x09, "A+START", [1, 0, 0, 1, 0, 0, 0, 0], np.array([1, 0, 0, 1, 0, 0, 0, 0])):
        console = Console(video=False)
        for _ in range(40):
            console.step(buttons)
            console.step(0)
        rams.append(console.ram)
    assert all(np.array_equal(rams[0], r) for r in rams[1:])


def test_peek_and_poke():
    console = Console()
    console.poke(0x0300, 0xAB)
    assert console.peek(0x0300) == 0xAB
    assert console.ram[0x0300] == 0xAB
    assert console.peek(0x7FF) == console.ram[0x7FF]


def test_states_round_trip_and_repeat():
    console = Console()
    console.run(300, "START")
    state = console.save_state()
    assert isinstance(state, bytes) and state[:4]
    console.run(100, "LEFT")
    after = console.ram
    console.load_state(state)
    assert console.frame == 300
    console.run(100, "LEFT")
    assert np.array_equal(after, console.ram)


def test_lag_frames_are_counted():
    console = Console()
    console.run(60)
    assert 0 <= console.lag_frames <= 60
    assert isinstance(console.lagged, bool)


def test_frames_run_without_the_gil():
    console = Console(video=False)
    done = threading.Event()

    def run():
        console.run(1500)
        done.set()

    worker = threading.Thread(target=run)
    worker.start()
    turns = 0
    while not done.is_set():
        turns += 1
    worker.join()
    # With the GIL held for the whole run this thread would not run at all meanwhile.
    assert turns > 1000


def test_a_rom_that_is_not_a_rom():
    with pytest.raises(ValueError, match="iNES"):
        Console(b"hello, not a ROM at all")
    with pytest.raises(ValueError, match="empty"):
        Console(b"")
    with pytest.raises(FileNotFoundError):
        Console("/nonexistent/rom.nes")
    with pytest.raises(TypeError, match="rom is a path"):
        Console(12)


def test_a_state_of_another_rom_or_damaged(other_rom):
    console = Console()
    console.run(30)
    state = console.save_state()
    other = Console(other_rom)
    other.run(5)
    with pytest.raises(ValueError, match="ROM"):
        other.load_state(state)
    damaged = bytearray(state)
    damaged[len(damaged) // 2] ^= 0xFF
    before = console.ram
    with pytest.raises(ValueError):
        console.load_state(bytes(damaged))
    with pytest.raises(ValueError):
        console.load_state(state[:20])
    assert np.array_equal(before, console.ram), "a refused state changed the console"


def test_ram_addresses_and_values():
    console = Console()
    with pytest.raises(IndexError, match=r"\$0000-\$07FF"):
        console.peek(0x800)
    with pytest.raises(IndexError):
        console.poke(-1, 0)
    with pytest.raises(ValueError, match="byte"):
        console.poke(0x10, 256)
    with pytest.raises(TypeError):
        console.poke("0x10", 1)


def test_bad_buttons_and_counts():
    console = Console()
    with pytest.raises(ValueError, match="unknown button"):
        console.step("A+JUMP")
    with pytest.raises(ValueError, match="8 values"):
        console.step([1, 0, 1])
    with pytest.raises(ValueError, match="0-255"):
        console.step(256)
    with pytest.raises(TypeError):
        console.step(1.5)
    with pytest.raises(ValueError, match="frames"):
        console.run(-1)
    assert console.frame == 0


def test_a_closed_console():
    with Console() as console:
        console.run(2)
    assert console.closed
    for call in (lambda: console.run(1), lambda: console.ram, console.save_state, console.reset):
        with pytest.raises(RuntimeError, match="closed"):
            call()


def test_constants():
    assert jewelbot.BUTTONS[0] == "A" and len(jewelbot.BUTTONS) == 8
    assert jewelbot.SCREEN_SHAPE == (240, 256, 3)
    assert jewelbot.RAM_SIZE == 2048


class Interrupted(Exception):
    pass


def test_a_signal_stops_a_long_run():
    def interrupt(signum, frame):
        raise Interrupted

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        console = Console(video=False)
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        began = time.monotonic()
        with pytest.raises(Interrupted):
            console.run(10_000_000)
        assert time.monotonic() - began < 10
        assert 0 < console.frame < 10_000_000
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_states_are_the_command_s(tmp_path, command):
    binary = command
    written = tmp_path / "command.state"
    subprocess.run(
        [binary, "run", "--headless", "--ai", "off", "--frames", "300"] + ["--save-state", written],
        check=True,
        capture_output=True,
    )
    console = Console()
    console.load_state(written.read_bytes())
    assert console.frame == 300
    console.run(20)
    mine = tmp_path / "python.state"
    mine.write_bytes(console.save_state())
    again = tmp_path / "again.state"
    subprocess.run(
        [binary, "run", "--headless", "--ai", "off", "--frames", "10"]
        + ["--state", mine, "--save-state", again],
        check=True,
        capture_output=True,
    )
    console.run(10)
    after = Console()
    after.load_state(again.read_bytes())
    assert after.frame == console.frame == 330
    assert np.array_equal(after.ram, console.ram)
