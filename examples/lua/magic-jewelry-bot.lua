-- A Magic Jewelry bot written only against FCEUX's Lua API: it runs unchanged in FCEUX
-- (fceux --loadlua magic-jewelry-bot.lua ROM) and in jewelbot (--lua magic-jewelry-bot.lua).
-- It reads the board from RAM (docs/magic-jewelry.md, "RAM map") and drops each column on the
-- lowest stack, pressing a direction every other frame so that each press is a new one.

local TITLE, IN_GAME = 0x83, 0
local function cell(row, column)  -- row -2..12, column 0..5
  return memory.readbyte(0x0380 + 8 * (row + 2) + column + 1)
end

-- Jewels in each column of the settled board: the falling column's cells taken out.
local function heights()
  local x, y = memory.readbyte(0x56), memory.readbyte(0x57)
  local h = {}
  for c = 0, 5 do
    local n = 0
    for r = -2, 12 do
      local falling = c == x and r >= y - 2 and r <= y
      if not falling and cell(r, c) ~= 0 then n = n + 1 end
    end
    h[c] = n
  end
  return h
end

local function lowest(h)
  local best = 0
  for c = 1, 5 do
    if h[c] < h[best] then best = c end
  end
  return best
end

-- Each pass looks at the frame just run and chooses the buttons for the next one.
while true do
  emu.frameadvance()
  local state = memory.readbyte(0x46)
  local press = {}
  local even = emu.framecount() % 2 == 0
  if state == TITLE or state == 1 or cell(12, 0) == 7 then
    -- The title, a continue's logo, or the game-over fill: Start.
    press.start = even
  elseif state == IN_GAME and memory.readbyte(0x66) == 0 then
    local x = memory.readbyte(0x56)
    local target = lowest(heights())
    if x < target then
      press.right = even
    elseif x > target then
      press.left = even
    else
      press.down = true
    end
  end
  joypad.set(1, press)
end
