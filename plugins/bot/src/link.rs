//! The line-by-line connection to a bot: a process whose standard input and output carry the
//! lines, or a TCP connection. Threads do the reading and writing, so that the emulator never
//! blocks on a bot: a bot that stops reading fills a bounded queue (and is told off), one that
//! stops writing is waited for up to a bound, one that writes endlessly is read no faster than
//! the host takes its lines.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::process::{Child, ChildStderr, Command, Stdio};
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
/// Lines of the bot's standard error passed on before the rest is only counted.
const MAX_STDERR_LINES: usize = 200;
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
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the bot `{program}`: {e}"))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
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

    /// Says how the bot went: its exit status and last words where it is a process.
    fn gone(&mut self, what: &str) -> String {
        let Some(child) = &mut self.child else {
            return format!("the bot {what} (the connection closed)");
        };
        // Its output closed: it is exiting, or has.
        let deadline = Instant::now() + EXIT_GRACE;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        let mut message = match status {
            Some(status) => format!("the bot exited ({status})"),
            None => format!("the bot {what}"),
        };
        // Its last words are read once its standard error closes.
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

    /// Ends the connection at once: the process is killed and reaped.
    pub fn kill(&mut self) {
        self.outgoing = None;
        if let Some(socket) = &self.socket {
            let _ = socket.shutdown(std::net::Shutdown::Both);
        }
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Ends the connection politely: `last` is sent, the bot's input closed, and a process
    /// that has not exited within a second is killed; it is reaped either way.
    pub fn close(&mut self, last: Option<String>) {
        if let (Some(outgoing), Some(line)) = (&self.outgoing, last) {
            let _ = outgoing.try_send(line);
        }
        // The writer thread closes the bot's input once it has written what is queued.
        self.outgoing = None;
        if let Some(child) = &mut self.child {
            let deadline = Instant::now() + EXIT_GRACE;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }
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
/// and keeping its last lines.
fn pass_on_stderr(
    stderr: ChildStderr,
    tail: Arc<Mutex<VecDeque<String>>>,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        for (shown, line) in BufReader::new(stderr).lines().enumerate() {
            let Ok(line) = line else { return };
            if shown < MAX_STDERR_LINES {
                eprintln!("bot: {}", cut(&line));
            } else if shown == MAX_STDERR_LINES {
                eprintln!("bot: (more of its standard error is not shown)");
            }
            if let Ok(mut tail) = tail.lock() {
                tail.push_back(line);
                while tail.len() > STDERR_TAIL {
                    tail.pop_front();
                }
            }
        }
    })
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

    #[test]
    fn long_lines_are_cut_for_messages() {
        assert_eq!(cut("short"), "short");
        let long = "x".repeat(500);
        assert!(cut(&long).ends_with("… (500 bytes)"));
    }
}
