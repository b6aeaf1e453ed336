//! Standard output as the commands write it: a write that fails (the reader closed the pipe,
//! the disk is full) is an error that says it was standard output, never a panic as `println!`
//! gives.

use std::io::{self, Write};

/// Standard output (or any writer, in tests) whose errors name it.
pub struct StandardOutput<W>(pub W);

/// A failed write to standard output.
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output: {0}")]
pub struct StdoutError(io::Error);

fn tagged(error: io::Error) -> io::Error {
    io::Error::new(error.kind(), StdoutError(error))
}

impl<W: Write> Write for StandardOutput<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.write(bytes).map_err(tagged)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(tagged)
    }
}

/// The reader of standard output went away (a pipe to `head`): the command ends quietly, with
/// the status of a program the pipe's signal ended.
pub fn reader_gone(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<io::Error>().is_some_and(|e| {
            e.kind() == io::ErrorKind::BrokenPipe
                && e.get_ref()
                    .and_then(|inner| inner.downcast_ref::<StdoutError>())
                    .is_some()
        })
    })
}

/// 128 + SIGPIPE, as a shell reports a program its closed pipe ended.
pub const EXIT_READER_GONE: u8 = 141;
