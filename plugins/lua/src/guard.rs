//! What keeps a stopped script stopped. The instruction hook stops a script that does not
//! yield by raising an error; Lua code could catch it (`pcall`, `xpcall`, a coroutine's
//! `resume`) and go on for ever, so these hand an error back to their caller unchanged once
//! the frame's work is over the limit. An error raised from a hook reaches `xpcall`'s handler
//! with hooks off: the script's handler is not called for it. Lua 5.1 runs finalizers (`__gc`) with hooks off: the
//! only way a script makes one, `newproxy`, is gone, and `io`'s files keep their metatable to
//! themselves.

use crate::work::Work;
use mlua::Lua;

/// Wraps the functions that catch errors, given `check` (which raises the stopping error once
/// the script is past a limit: its frame's work, or the memory it holds) and `over` (whether
/// it is).
const WRAP: &str = r"
local check, over, raw_pcall, raw_xpcall, raw_resume = ...
local function pass(ok, ...)
  if not ok then check() end
  return ok, ...
end
pcall = function(...) return pass(raw_pcall(...)) end
xpcall = function(f, handler)
  return pass(raw_xpcall(f, function(e)
    if over() then return e end
    return handler(e)
  end))
end
coroutine.resume = function(...) return pass(raw_resume(...)) end
";

pub fn install(lua: &Lua, work: &Work, files: bool) -> mlua::Result<()> {
    let globals = lua.globals();
    let coroutine: mlua::Table = globals.get("coroutine")?;
    let counted = work.clone();
    let check = lua.create_function(move |_, ()| counted.check())?;
    let counted = work.clone();
    let over = lua.create_function(move |_, ()| Ok(counted.over()))?;
    lua.load(WRAP).set_name("=jewelbot").call::<()>((
        check,
        over,
        globals.get::<mlua::Function>("pcall")?,
        globals.get::<mlua::Function>("xpcall")?,
        coroutine.get::<mlua::Function>("resume")?,
    ))?;
    globals.set("newproxy", mlua::Value::Nil)?;
    if files {
        // Every open file shares one metatable: hidden from `getmetatable`, its `__gc` stays
        // the library's.
        lua.load("getmetatable(io.stdout).__metatable = false")
            .set_name("=jewelbot")
            .exec()?;
    }
    Ok(())
}
