-- FCEUX side of the reverse cross-check: FCEUX records a movie from power-on (MOVIE_OUT)
-- while this script presses a fixed pseudo-random sequence on controller 1, and writes CPU RAM
-- after every frame to DUMP_OUT as dump_ram.lua does, for DUMP_FRAMES frames.
--
-- The sequence starts the game with Start on frame 7, then holds each button on some frames:
-- opposite directions together too (movies may hold them), Select rarely, Start never (it
-- would pause), so that the columns move, turn, drop, stack up and end games.
local path = assert(os.getenv("DUMP_OUT"), "DUMP_OUT: where to write RAM")
local frames = assert(tonumber(os.getenv("DUMP_FRAMES")), "DUMP_FRAMES: how many frames")
local movie_path = assert(os.getenv("MOVIE_OUT"), "MOVIE_OUT: the movie to record")
local out = assert(io.open(path, "wb"))
emu.speedmode("maximum")
movie.record(movie_path)

-- A 31-bit linear congruential generator: the same sequence on every run and machine.
local state = 12345
local function next_byte()
  state = (state * 1103515245 + 12345) % 2147483648
  return math.floor(state / 65536) % 256
end
-- Chance in 256 that a button is held on a frame after the start.
local buttons = { A = 40, B = 40, select = 8, start = 0, up = 40, down = 40, left = 40, right = 40 }
local order = { "A", "B", "select", "start", "up", "down", "left", "right" }

while true do
  local frame = emu.framecount()
  local pad = {}
  if frame == 6 then
    pad.start = true -- held on the next frame, the 7th
  elseif frame > 6 then
    for _, name in ipairs(order) do
      if next_byte() < buttons[name] then pad[name] = true end
    end
  end
  joypad.set(1, pad)
  emu.frameadvance()
  -- The first advance after movie.record is the power-on itself: frame 0, not dumped.
  if emu.framecount() >= 1 then
    out:write(emu.framecount(), " ", memory.readbyterange(0, 0x800), "\n")
  end
  if emu.framecount() >= frames then break end
end
movie.stop()
out:close()
os.exit(0)
