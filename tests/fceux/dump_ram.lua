-- FCEUX side of the cross-check: replays the movie FCEUX was started with (--playmov) and
-- writes CPU RAM ($0000-$07FF, 2,048 bytes) after every DUMP_EVERY-th frame to DUMP_OUT, as
-- "<frame> " followed by the bytes and a newline, and after the last of DUMP_FRAMES frames,
-- where it stops.
-- FCEUX exits with a crash status after os.exit; the files are whole by then.
local path = assert(os.getenv("DUMP_OUT"), "DUMP_OUT: where to write RAM")
local frames = assert(tonumber(os.getenv("DUMP_FRAMES")), "DUMP_FRAMES: how many frames")
local every = tonumber(os.getenv("DUMP_EVERY") or "1")
local out = assert(io.open(path, "wb"))
emu.speedmode("maximum")
emu.registerafter(function()
  local frame = emu.framecount()
  if frame % every == 0 or frame >= frames then
    out:write(frame, " ", memory.readbyterange(0, 0x800), "\n")
  end
  if frame >= frames then
    out:close()
    os.exit(0)
  end
end)
