-- Writes, for every frame from power-on, what FCEUX's console functions say: the frame count,
-- lag, bytes of the bus beyond RAM, the NMI handler's entries (an execution hook) and a
-- checksum of RAM. On frame 300 it saves a state, on
-- frame 400 it loads it (once). Run with no movie, in FCEUX and in jewelbot (`--lua-os-io`),
-- the two outputs must be the same bytes: one line for the power-on (frame 0), then frames 1
-- to 400 and, after the load, 301 on.
-- Environment: PROBE_OUT (the output file), PROBE_FRAMES (how many lines).
local out = assert(io.open(os.getenv("PROBE_OUT"), "w"))
local frames = tonumber(os.getenv("PROBE_FRAMES") or "700")
local slot = savestate.object(1)
local loaded = false
emu.speedmode("maximum")
local lines, nmis = 0, 0
while lines < frames do
  emu.frameadvance()
  if lines == 0 then
    -- At power-on: the bus beyond RAM is readable from here on.
    memory.registerexec(memory.readword(0xFFFA), function() nmis = nmis + 1 end)
  end
  local f = emu.framecount()
  local ram = memory.readbyterange(0, 0x800)
  local sum = 0
  for i = 1, #ram do
    sum = (sum * 31 + string.byte(ram, i)) % 2147483647
  end
  out:write(string.format("%d %s %d %04X %04X %02X %d %d\n", f, tostring(emu.lagged()),
    emu.lagcount(), memory.readword(0xFFFC), memory.readword(0xFFFA),
    memory.readbyte(0xC000), nmis, sum))
  lines = lines + 1
  if f == 300 and not loaded then
    savestate.save(slot)
  elseif f == 400 and not loaded then
    loaded = true
    savestate.load(slot)
  end
end
out:close()
os.exit(0)
