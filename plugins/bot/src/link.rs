//! The line-by-line connection to a bot: a process whose standard input and output carry the
//! lines, or a TCP connection. Threads do the reading and writing, so that the emulator never
//! blocks on a bot: a bot that stops reading fills a bounded queue (and is told off), one that
//! stops writing is waited for up to a bound, one that writes endlessly is read no faster than
//! the host takes its lines. Its standard error is read as bytes, in bounded pieces, to its end.
//!
//! A bot's process leads a process group of its own, which holds whatever it starts: when the
//! bot is stopped or the run ends, the whole group is killed, so nothing it forked outlives it.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::process::{Child, ChildStderr, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line a bot may write; a longer one ends the connection.
pub const MAX_LINE: usize = 1 << 20;
/// Lines to the bot that may wait unread before the bot counts as not reading.
const OUTGOING_QUEUE: usize = 64;
/// Lines from the bot read ahead of the host.
const INCOMING_QUEUE: usize = 256;
/// Lines of the bot's standard error passed on before the rest is only read.
const MAX_STDERR_LINES: usize = 200;
/// The bytes of a line of the bot's standard error that are kept (more than the 200
/// characters shown): the rest of a longer line is read and dropped, and the line says it was
/// cut.
pub const STDERR_LINE_KEPT: usize = 1 << 10;
/// Lines of the bot's standard error kept to say why it exited.
const STDERR_TAIL: usize = 3;
/// How long a bot told that the run is over may take to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// Where the bot is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A program to run, with its arguments (no shell).
    Command(Vec<String>),
    /// A bot listening on TCP at `host:port`.
    Tcp(String),
}

impl Target {
    /// `tcp://HOST:PORT`, or a command line split as a POSIX shell splits words (quotes and
    /// backslashes), run without a shell.
    pub fn parse(text: &str) -> Result<Self, String> {
        if let Some(address) = text.strip_prefix("tcp://") {
            if address.is_empty() || !address.contains(':') {
                return Err(format!("`{text}`: a TCP bot is tcp://HOST:PORT"));
            }
            return Ok(Self::Tcp(address.to_owned()));
        }
        match shlex::split(text) {
            Some(words) if !words.is_empty() => Ok(Self::Command(words)),
            Some(_) => Err("no command given for the bot".to_owned()),
            None => Err(format!(
                "`{text}` is not a command line (an unclosed quote?)"
            )),
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Command(words) => f.write_str(&words.join(" ")),
            Self::Tcp(address) => write!(f, "tcp://{address}"),
        }
    }
}

/// What the reader thread hands over.
enum Incoming {
    Line(String),
    /// The bot wrote a line longer than [`MAX_LINE`]; its first characters.
    TooLong(String),
    /// The bot closed its output (or the connection failed): why.
    Ended(String),
}

/// A live connection to a bot.
pub struct Link {
    outgoing: Option<SyncSender<String>>,
    incoming: Receiver<Incoming>,
    child: Option<Child>,
    socket: Option<TcpStream>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// The thread passing the process's standard error on.
    stderr_thread: Option<thread::JoinHandle<()>>,
}

impl Link {
    /// Starts the bot's program or connects to it, within `timeout` for a connection.
    pub fn open(target: &Target, timeout: Duration) -> Result<Self, String> {
        match target {
            Target::Command(words) => Self::spawn(words),
            Target::Tcp(address) => Self::connect(address, timeout),
        }
    }

    fn spawn(words: &[String]) -> Result<Self, String> {
        let (program, arguments) = words
            .split_first()
            .ok_or_else(|| "no command given for the bot".to_owned())?;
        let mut command = Command::new(program);
        command
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A process group of its own, led by the bot: what it forks is in it, and ends with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start the bot `{program}`: {e}"))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            end_process(child, Duration::ZERO);
            return Err("the bot's pipes could not be opened".to_owned());
        };
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_thread = pass_on_stderr(stderr, Arc::clone(&stderr_tail));
        Ok(Self {
            outgoing: Some(writer(stdin)),
            incoming: reader(stdout),
            child: Some(child),
            socket: None,
            stderr_tail,
            stderr_thread: Some(stderr_thread),
        })
    }

    fn connect(address: &str, timeout: Duration) -> Result<Self, String> {
        let cannot = |e: &dyn std::fmt::Display| format!("cannot reach the bot at {address}: {e}");
        let addresses: Vec<_> = address.to_socket_addrs().map_err(|e| cannot(&e))?.collect();
        let mut last_error = String::from("no address");
        for candidate in addresses {
            match TcpStream::connect_timeout(&candidate, timeout) {
                Ok(socket) => {
                    let _ = socket.set_nodelay(true);
                    let reading = socket.try_clone().map_err(|e| cannot(&e))?;
                    let writing = socket.try_clone().map_err(|e| cannot(&e))?;
                    return Ok(Self {
                        outgoing: Some(writer(writing)),
                        incoming: reader(reading),
                        child: None,
                        socket: Some(socket),
                        stderr_tail: Arc::default(),
                        stderr_thread: None,
                    });
                }
                Err(e) => last_error = e.to_string(),
            }
        }
        Err(cannot(&last_error))
    }

    /// Queues one line for the bot (without its newline). Never blocks; `Err` says why the bot
    /// cannot take it.
    pub fn send(&mut self, line: String) -> Result<(), String> {
        let Some(outgoing) = &self.outgoing else {
            return Err("the connection is closed".to_owned());
        };
        match outgoing.try_send(line) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(format!(
                "the bot reads nothing of what it is sent ({OUTGOING_QUEUE} lines wait unread)"
            )),
            Err(TrySendError::Disconnected(_)) => Err(self.gone("stopped reading")),
        }
    }

    /// The bot's next line, waiting at most `timeout` (zero: only a line already come);
    /// `None` when none came in that time, `Err` when the bot is gone or broke the line rules.
    pub fn receive(&mut self, timeout: Duration) -> Result<Option<String>, String> {
        match self.incoming.recv_timeout(timeout) {
            Ok(Incoming::Line(line)) => Ok(Some(line)),
            Ok(Incoming::TooLong(start)) => Err(format!(
                "the bot wrote a line of more than {} KiB: {}",
                MAX_LINE >> 10,
                cut(&start)
            )),
            Ok(Incoming::Ended(why)) => Err(self.gone(&why)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(self.gone("closed its output")),
        }
    }

    /// Says how the bot went: its exit status and last words where it is a process (which,
    /// with whatever it started, is ended here: the bot is being stopped).
    fn gone(&mut self, what: &str) -> String {
        let Some(child) = self.child.take() else {
            return format!("the bot {what} (the connection closed)");
        };
        // Its output closed: it is exiting, or has.
        let deadline = Instant::now() + EXIT_GRACE;
        let mut message = match end_process(child, EXIT_GRACE) {
            Some(status) => format!("the bot exited ({status})"),
            None => format!("the bot {what}"),
        };
        // Its last words are read once its standard error closes (its whole process group is
        // gone now, so nothing it started holds it open).
        while self
            .stderr_thread
            .as_ref()
            .is_some_and(|thread| !thread.is_finished())
            && Instant::now() < deadline
        {
            thread::sleep(Duration::from_millis(5));
        }
        let tail = self
            .stderr_tail
            .lock()
            .map(|tail| tail.iter().cloned().collect::<Vec<_>>().join(" / "))
            .unwrap_or_default();
        if !tail.is_empty() {
            message.push_str(&format!("; its last words: {}", cut(&tail)));
        }
        message
    }

    /// Ends the connection at once: the process and its group are killed, and it is reaped.
    pub fn kill(&mut self) {
        self.end(Duration::ZERO);
    }

    /// Ends the connection politely: `last` is sent, the bot's input closed, and a process
    /// that has not exited within a second is killed; whatever it started is killed with it,
    /// and it is reaped either way.
    pub fn close(&mut self, last: Option<String>) {
        if let (Some(outgoing), Some(line)) = (&self.outgoing, last) {
            let _ = outgoing.try_send(line);
        }
        self.end(EXIT_GRACE);
    }

    fn end(&mut self, grace: Duration) {
        // The writer thread closes the bot's input once it has written what is queued.
        self.outgoing = None;
        if let Some(socket) = &self.socket {
            let _ = socket.shutdown(std::net::Shutdown::Both);
        }
        if let Some(child) = self.child.take() {
            end_process(child, grace);
        }
    }
}

/// Gives the bot's process up to `grace` to exit, then kills its process group (the process,
/// and all it started that is still there) and reaps it: its exit status when it exited of
/// itself.
fn end_process(mut child: Child, grace: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + grace;
    let exited = loop {
        if has_exited(&mut child) {
            break true;
        }
        if Instant::now() >= deadline {
            break false;
        }
        thread::sleep(Duration::from_millis(5));
    };
    kill_group(&mut child);
    let status = child.wait().ok();
    status.filter(|_| exited)
}

/// Whether the process has exited, without reaping it: until it is reaped its process id stays
/// its group's, so that the group can still be killed and nothing else is.
#[cfg(unix)]
fn has_exited(child: &mut Child) -> bool {
    use rustix::process::{waitid, Pid, WaitId, WaitIdOptions};
    let pid = Pid::from_child(&*child);
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    // An error means there is no such child to wait for: it is gone.
    !matches!(waitid(WaitId::Pid(pid), options), Ok(None))
}

#[cfg(not(unix))]
fn has_exited(child: &mut Child) -> bool {
    !matches!(child.try_wait(), Ok(None))
}

/// Kills the process's group, which it leads: the bot and whatever it forked.
#[cfg(unix)]
fn kill_group(child: &mut Child) {
    use rustix::process::{kill_process_group, Pid, Signal};
    if kill_process_group(Pid::from_child(child), Signal::KILL).is_err() {
        let _ = child.kill();
    }
}

#[cfg(not(unix))]
fn kill_group(child: &mut Child) {
    let _ = child.kill();
}

impl Drop for Link {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The first 200 characters of a line, for messages.
pub fn cut(line: &str) -> String {
    const SHOWN: usize = 200;
    match line.char_indices().nth(SHOWN) {
        Some((at, _)) => format!("{}… ({} bytes)", &line[..at], line.len()),
        None => line.to_owned(),
    }
}

/// A thread writing the queued lines to the bot, each with its newline.
fn writer(mut sink: impl Write + Send + 'static) -> SyncSender<String> {
    let (sender, lines) = mpsc::sync_channel::<String>(OUTGOING_QUEUE);
    thread::spawn(move || {
        for line in lines {
            let written = sink
                .write_all(line.as_bytes())
                .and_then(|()| sink.write_all(b"\n"))
                .and_then(|()| sink.flush());
            if written.is_err() {
                // The bot is gone; the reader says so.
                return;
            }
        }
    });
    sender
}

/// A thread reading the bot's lines, at most [`MAX_LINE`] bytes each.
fn reader(source: impl Read + Send + 'static) -> Receiver<Incoming> {
    let (sender, incoming) = mpsc::sync_channel(INCOMING_QUEUE);
    thread::spawn(move || {
        let mut source = BufReader::new(source);
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            let read = (&mut source)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buffer);
            let message = match read {
                Ok(0) => Incoming::Ended("closed its output".to_owned()),
                Err(e) => Incoming::Ended(format!("could not be read: {e}")),
                Ok(_) if buffer.last() != Some(&b'\n') && buffer.len() > MAX_LINE => {
                    Incoming::TooLong(String::from_utf8_lossy(&buffer[..256]).into_owned())
                }
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buffer);
                    Incoming::Line(line.trim_end_matches(['\n', '\r']).to_owned())
                }
            };
            let last = !matches!(message, Incoming::Line(_));
            // The host hung up: nobody listens any more.
            if sender.send(message).is_err() || last {
                return;
            }
        }
    });
    incoming
}

/// A thread passing the bot's standard error on to the user, each line marked as the bot's,
/// and keeping its last lines. It reads to the end, however much comes and whatever it is, so
/// that the bot never blocks on its standard error nor loses it.
fn pass_on_stderr(
    stderr: ChildStderr,
    tail: Arc<Mutex<VecDeque<String>>>,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut lines = 0_usize;
        stderr_lines(stderr, |line| {
            // Not `eprintln!`, which panics when jewelbot's own standard error is gone: this
            // thread must go on reading.
            let mut user = std::io::stderr().lock();
            if lines < MAX_STDERR_LINES {
                let _ = writeln!(user, "bot: {line}");
            } else if lines == MAX_STDERR_LINES {
                let _ = writeln!(user, "bot: (more of its standard error is not shown)");
            }
            lines = lines.saturating_add(1);
            if let Ok(mut tail) = tail.lock() {
                tail.push_back(line);
                while tail.len() > STDERR_TAIL {
                    tail.pop_front();
                }
            }
        });
    })
}

/// Reads `source` to its end in bounded pieces and hands over each line, without its newline,
/// as it is to be shown: bytes that are not UTF-8 replaced, cut to 200 characters, and a line
/// longer than [`STDERR_LINE_KEPT`] said to be cut. At most [`STDERR_LINE_KEPT`] bytes of a
/// line are held, however long it is; only a read error other than an interruption stops the
/// reading before the end.
fn stderr_lines(source: impl Read, mut each: impl FnMut(String)) {
    let mut source = BufReader::with_capacity(64 << 10, source);
    let mut kept = Vec::with_capacity(STDERR_LINE_KEPT);
    // The bytes of the line so far, kept or not.
    let mut length = 0_usize;
    loop {
        let piece = match source.fill_buf() {
            Ok([]) => break,
            Ok(piece) => piece,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let newline = piece.iter().position(|&byte| byte == b'\n');
        let part = &piece[..newline.unwrap_or(piece.len())];
        let room = STDERR_LINE_KEPT - kept.len();
        kept.extend_from_slice(&part[..part.len().min(room)]);
        length = length.saturating_add(part.len());
        let used = part.len() + usize::from(newline.is_some());
        source.consume(used);
        if newline.is_some() {
            each(shown(&kept, length));
            kept.clear();
            length = 0;
        }
    }
    if length > 0 {
        each(shown(&kept, length));
    }
}

/// A line of standard error as shown, from its first bytes and its length.
fn shown(kept: &[u8], length: usize) -> String {
    if length > kept.len() {
        let text = String::from_utf8_lossy(kept);
        let start: String = text.chars().take(200).collect();
        format!("{start}… (a line of {length} bytes, cut)")
    } else {
        let line = kept.strip_suffix(b"\r").unwrap_or(kept);
        cut(&String::from_utf8_lossy(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_tcp_addresses_or_words_split_as_a_shell_would() {
        assert_eq!(
            Target::parse("python3 'my bot.py' --fast"),
            Ok(Target::Command(vec![
                "python3".into(),
                "my bot.py".into(),
                "--fast".into()
            ]))
        );
        assert_eq!(
            Target::parse("tcp://127.0.0.1:9000"),
            Ok(Target::Tcp("127.0.0.1:9000".into()))
        );
        assert!(Target::parse("").is_err());
        assert!(Target::parse("python3 'unclosed").is_err());
        assert!(Target::parse("tcp://nowhere").is_err());
    }

    /// Every line `stderr_lines` hands over for `source`.
    fn lines_of(source: impl Read) -> Vec<String> {
        let mut lines = Vec::new();
        stderr_lines(source, |line| lines.push(line));
        lines
    }

    #[test]
    fn standard_error_is_read_to_its_end_in_bounded_pieces() {
        // 64 MiB without a newline, then more lines: the long one is cut and says so, and the
        // reading goes on to the lines after it.
        let long = std::io::repeat(b'x').take(64 << 20);
        let lines = lines_of(long.chain(&b"\nnext\r\nlast"[..]));
        assert_eq!(
            lines.len(),
            3,
            "{:?}",
            lines.iter().map(|l| cut(l)).collect::<Vec<_>>()
        );
        assert_eq!(
            lines[0],
            format!("{}… (a line of {} bytes, cut)", "x".repeat(200), 64 << 20)
        );
        assert_eq!(lines[1..], ["next", "last"]);
        // A line just at the bound is whole; one byte more is cut.
        let at_bound = vec![b'y'; STDERR_LINE_KEPT];
        assert_eq!(
            lines_of(&at_bound[..]),
            [cut(&"y".repeat(STDERR_LINE_KEPT))]
        );
        let past = vec![b'y'; STDERR_LINE_KEPT + 1];
        assert!(lines_of(&past[..])[0]
            .ends_with(&format!("(a line of {} bytes, cut)", STDERR_LINE_KEPT + 1)));
    }

    #[test]
    fn standard_error_that_is_not_utf8_is_shown_lossily_and_the_reading_goes_on() {
        let bytes = b"\xff\xfe not UTF-8\nthen \xc3\xa9t\xc3\n\nafter\n";
        assert_eq!(
            lines_of(&bytes[..]),
            ["\u{fffd}\u{fffd} not UTF-8", "then ét\u{fffd}", "", "after"]
        );
    }

    #[test]
    fn long_lines_are_cut_for_messages() {
        assert_eq!(cut("short"), "short");
        let long = "x".repeat(500);
        assert!(cut(&long).ends_with("… (500 bytes)"));
    }
}
