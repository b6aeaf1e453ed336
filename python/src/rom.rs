//! Which ROM a console runs: a file, bytes, or the open cartridge.

use jewelbot_host::rom::RomImage;
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::path::PathBuf;

/// The ROM `rom` names: `None` for the open cartridge, `bytes` of an iNES file, or a path
/// (`str` or `os.PathLike`).
pub fn rom_image(rom: Option<&Bound<'_, PyAny>>) -> PyResult<RomImage> {
    let Some(rom) = rom.filter(|r| !r.is_none()) else {
        return RomImage::from_bytes("columns.nes", jewelbot_cartridge::ROM)
            .map_err(|e| PyValueError::new_err(format!("the open cartridge: {e}")));
    };
    if let Ok(bytes) = rom.cast::<PyBytes>() {
        return RomImage::from_bytes("rom", bytes.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("not a ROM the console runs: {e}")));
    }
    if rom.is_instance_of::<PyString>() || rom.hasattr("__fspath__")? {
        let path: PathBuf = rom.extract()?;
        return RomImage::from_path(&path).map_err(|e| {
            use jewelbot_host::rom::RomError;
            let message = format!("{}: {e}", path.display());
            match e {
                RomError::NotFound(_) => PyFileNotFoundError::new_err(message),
                RomError::IsDirectory(_) => PyIsADirectoryError::new_err(message),
                RomError::Io { .. } | RomError::NotRegular { .. } => PyOSError::new_err(message),
                _ => PyValueError::new_err(message),
            }
        });
    }
    Err(PyTypeError::new_err(format!(
        "rom is a path, the bytes of an iNES file, or None for the open cartridge, not {}",
        rom.get_type().name()?
    )))
}
