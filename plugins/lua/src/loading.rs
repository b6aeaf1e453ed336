//! Loading code, Lua source only. Lua 5.1 does not verify bytecode: a hand-made binary chunk
//! can read memory as values of another type, the first step out of any Lua 5.1 sandbox. So
//! every way a script can load code (`loadstring`, `load`, the script file, and with `os` and
//! `io` on, `loadfile`, `dofile` and `require`) takes text and refuses binary chunks.

use crate::work::Work;
use mlua::{ChunkMode, Function, Lua, MultiValue, Value};
use std::borrow::Cow;
use std::path::Path;

/// The first byte of a precompiled chunk (Lua's `LUA_SIGNATURE`).
const BINARY: u8 = 0x1B;

/// Largest file a script may load (the script itself, or with `io` on, a module).
pub const MOST_SOURCE_BYTES: u64 = 16 << 20;

/// Why a chunk was not loaded.
pub const REFUSED: &str = "binary (precompiled) chunks are refused: scripts load Lua source only";

/// The source of a chunk as Lua reads a file: a first line starting with `#` (a `#!` line) is
/// skipped, its newline kept so that line numbers hold; a binary chunk is refused.
pub fn file_source(bytes: &[u8]) -> Result<Cow<'_, [u8]>, &'static str> {
    if bytes.first() != Some(&b'#') {
        return text(bytes).map(Cow::Borrowed);
    }
    let Some(newline) = bytes.iter().position(|&b| b == b'\n') else {
        return Ok(Cow::Borrowed(&[]));
    };
    text(&bytes[newline + 1..])?;
    Ok(Cow::Borrowed(&bytes[newline..]))
}

/// `bytes` if it is not a binary chunk.
fn text(bytes: &[u8]) -> Result<&[u8], &'static str> {
    if bytes.first() == Some(&BINARY) {
        Err(REFUSED)
    } else {
        Ok(bytes)
    }
}

/// `source` compiled as text under `chunk_name` (Lua's chunk name: `@file`, `=name` or the
/// source itself), in the script's globals.
fn compile(lua: &Lua, source: &[u8], chunk_name: &str) -> mlua::Result<Function> {
    lua.load(text(source).map_err(|why| mlua::Error::RuntimeError(why.to_owned()))?)
        .set_name(chunk_name)
        .set_mode(ChunkMode::Text)
        .into_function()
}

/// The message of a failed load, as Lua's own loaders give it.
fn message(error: &mlua::Error) -> String {
    match error {
        mlua::Error::SyntaxError { message, .. } | mlua::Error::RuntimeError(message) => {
            message.clone()
        }
        other => other.to_string(),
    }
}

/// `(function)` or `(nil, message)`, as `loadstring` and `load` answer.
fn answer(lua: &Lua, loaded: mlua::Result<Function>) -> mlua::Result<MultiValue> {
    Ok(match loaded {
        Ok(function) => MultiValue::from_iter([Value::Function(function)]),
        Err(error) => MultiValue::from_iter([
            Value::Nil,
            Value::String(lua.create_string(message(&error))?),
        ]),
    })
}

/// A file's source for `loadfile`, `dofile` and `require`, or why it cannot be had.
fn read_file(path: &str) -> Result<Vec<u8>, String> {
    let bytes =
        jewelbot_plugin::files::read_regular(Path::new(path), "Lua file", MOST_SOURCE_BYTES)
            .map_err(|e| format!("cannot open {path}: {e}"))?;
    file_source(&bytes)
        .map(Cow::into_owned)
        .map_err(|why| format!("{path}: {why}"))
}

/// Installs `loadstring` and `load`, and with `files`, `loadfile`, `dofile` and `require`'s
/// loader of Lua files, in place of Lua's own.
pub fn install(lua: &Lua, work: &Work, files: bool) -> mlua::Result<()> {
    let globals = lua.globals();
    globals.set(
        "loadstring",
        lua.create_function(|lua, (source, name): (mlua::String, Option<String>)| {
            let bytes = source.as_bytes();
            let name = name.unwrap_or_else(|| String::from_utf8_lossy(&bytes).into_owned());
            answer(lua, compile(lua, &bytes, &name))
        })?,
    )?;
    let charged = work.clone();
    globals.set(
        "load",
        lua.create_function(move |lua, (reader, name): (Function, Option<String>)| {
            let mut source = Vec::new();
            loop {
                charged.charge(1)?;
                match reader.call::<Value>(())? {
                    Value::Nil => break,
                    Value::String(piece) if piece.as_bytes().is_empty() => break,
                    Value::String(piece) => {
                        // The copy is work, as the allocator counts it.
                        charged.charge(piece.as_bytes().len() as u64 / 16)?;
                        source.extend_from_slice(&piece.as_bytes());
                        if source.len() > crate::MEMORY_LIMIT {
                            return Err(mlua::Error::RuntimeError(format!(
                                "load: the chunk is larger than a script's {} MiB",
                                crate::MEMORY_LIMIT >> 20
                            )));
                        }
                    }
                    _ => {
                        return Err(mlua::Error::RuntimeError(
                            "reader function must return a string".to_owned(),
                        ))
                    }
                }
            }
            let name = name.unwrap_or_else(|| "=(load)".to_owned());
            answer(lua, compile(lua, &source, &name))
        })?,
    )?;
    if files {
        install_files(lua)?;
    }
    Ok(())
}

/// `loadfile`, `dofile` and `require`'s searcher of Lua files, text only.
fn install_files(lua: &Lua) -> mlua::Result<()> {
    let globals = lua.globals();
    let loadfile = lua.create_function(|lua, path: String| {
        let loaded = read_file(&path)
            .map_err(mlua::Error::RuntimeError)
            .and_then(|source| compile(lua, &source, &format!("@{path}")));
        answer(lua, loaded)
    })?;
    globals.set("loadfile", loadfile)?;
    // On `loadfile`, so that their errors are strings as Lua's own are.
    lua.load(FILE_LOADERS).set_name("=jewelbot").exec()
}

/// `dofile` and `require`'s searcher of Lua files (Lua 5.1's second, which loads bytecode as
/// readily as text), on the text-only `loadfile`.
const FILE_LOADERS: &str = r#"
local loadfile, error, open, format = loadfile, error, io.open, string.format
dofile = function(path)
  local chunk, why = loadfile(path)
  if not chunk then error(why, 0) end
  return chunk()
end
package.loaders[2] = function(name)
  local file = name:gsub("%.", "/")
  local tried = {}
  for template in package.path:gmatch("[^;]+") do
    local path = template:gsub("%?", function() return file end)
    local handle = open(path, "r")
    if handle then
      handle:close()
      local chunk, why = loadfile(path)
      if not chunk then
        error(format("error loading module '%s' from file '%s':\n\t%s", name, path, why), 0)
      end
      return chunk
    end
    tried[#tried + 1] = "\n\tno file '" .. path .. "'"
  end
  return table.concat(tried)
end
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_line_of_hash_is_skipped_and_binary_refused() {
        assert_eq!(
            file_source(b"#!/usr/bin/lua\nx = 1").unwrap().as_ref(),
            b"\nx = 1"
        );
        assert_eq!(file_source(b"#!").unwrap().as_ref(), b"");
        assert_eq!(file_source(b"x = 1").unwrap().as_ref(), b"x = 1");
        assert_eq!(file_source(b"\x1bLuaQ"), Err(REFUSED));
        assert_eq!(file_source(b"#!x\n\x1bLuaQ"), Err(REFUSED));
    }
}
