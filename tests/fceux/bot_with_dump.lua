-- Runs the bot script BOT with dump_ram.lua's RAM dump (DUMP_OUT, DUMP_FRAMES): the file both
-- emulators load, so that the bot's game is dumped the same way in each. The bot is called as
-- a Lua function (loadfile), not through dofile: Lua 5.1 cannot yield (emu.frameadvance)
-- across dofile, in FCEUX as here.
dofile(assert(os.getenv("DUMP_SCRIPT"), "DUMP_SCRIPT: dump_ram.lua"))
assert(loadfile(assert(os.getenv("BOT"), "BOT: the bot script")))()
