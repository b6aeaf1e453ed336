//! Input scripts: the buttons to hold frame by frame and the RAM writes to make, as the traces'
//! `scripts/` give them (`docs/traces.md`).
//!
//! One command a line, `#` starts a comment:
//! - `hold N BUTTONS`: hold BUTTONS for N frames;
//! - `until EVENT MAX BUTTONS`: hold BUTTONS until a frame in which the CPU enters EVENT (that
//!   frame included), at most MAX frames;
//! - `poke ADDR VALUE`: write RAM before the next frame (hexadecimal);
//! - `note TEXT`: a note carried into the trace.
//!
//! BUTTONS is `-` for none or letters: `A`, `B`, `s` Select, `S` Start, `U`, `D`, `L`, `R`.

use crate::{Buttons, RAM_SIZE};
use std::fmt;

/// One script command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Hold buttons for a number of frames.
    Hold {
        /// Frames to hold them.
        frames: u32,
        /// The buttons.
        buttons: Buttons,
    },
    /// Hold buttons until a routine is entered, at most `max` frames.
    Until {
        /// The routine's event name.
        event: String,
        /// Most frames to wait.
        max: u32,
        /// The buttons.
        buttons: Buttons,
    },
    /// Write RAM before the next frame.
    Poke {
        /// Address in the 2 KiB of RAM.
        address: u16,
        /// The byte.
        value: u8,
    },
    /// A note for the recording.
    Note(String),
}

/// Why a script could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// 1-based line of the fault.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "script line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ScriptError {}

/// A parsed script.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Script {
    /// The commands in order.
    pub commands: Vec<Command>,
    /// The line of each command, for messages.
    lines: Vec<usize>,
}

/// Parses the script's button letters.
pub fn parse_buttons(word: &str) -> Result<Buttons, String> {
    if word == "-" {
        return Ok(Buttons::NONE);
    }
    let mut buttons = Buttons::NONE;
    for letter in word.chars() {
        buttons.insert(match letter {
            'A' => Buttons::A,
            'B' => Buttons::B,
            's' => Buttons::SELECT,
            'S' => Buttons::START,
            'U' => Buttons::UP,
            'D' => Buttons::DOWN,
            'L' => Buttons::LEFT,
            'R' => Buttons::RIGHT,
            other => return Err(format!("`{other}` is not a button (A B s S U D L R, or -)")),
        });
    }
    Ok(buttons)
}

impl Script {
    /// Reads a script's text.
    pub fn parse(text: &str) -> Result<Self, ScriptError> {
        let mut commands = Vec::new();
        let mut lines = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let fail = |message: String| ScriptError {
                line: index + 1,
                message,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let args: Vec<&str> = rest.split_whitespace().collect();
            // A count of frames: zero would make the command do nothing.
            let number = |text: &str| -> Result<u32, ScriptError> {
                text.parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| fail(format!("`{text}` is not a frame count (1 or more)")))
            };
            let command = match (word, args.as_slice()) {
                ("hold", [frames, buttons]) => Command::Hold {
                    frames: number(frames)?,
                    buttons: parse_buttons(buttons).map_err(fail)?,
                },
                ("until", [event, max, buttons]) => Command::Until {
                    event: (*event).to_owned(),
                    max: number(max)?,
                    buttons: parse_buttons(buttons).map_err(fail)?,
                },
                ("poke", [address, value]) => {
                    let address = u16::from_str_radix(address, 16)
                        .ok()
                        .filter(|&a| usize::from(a) < RAM_SIZE)
                        .ok_or_else(|| fail(format!("`{address}` is not a RAM address")))?;
                    let value = u8::from_str_radix(value, 16)
                        .map_err(|_| fail(format!("`{value}` is not a hexadecimal byte")))?;
                    Command::Poke { address, value }
                }
                ("note", _) => Command::Note(rest.trim().to_owned()),
                _ => return Err(fail(format!("`{line}` is not hold, until, poke or note"))),
            };
            commands.push(command);
            lines.push(index + 1);
        }
        Ok(Self { commands, lines })
    }

    /// Refuses an `until` whose event is not among `known` (the events the host can see for
    /// this ROM), before anything runs: a misspelt event would otherwise wait out its frames.
    pub fn check_events(&self, known: &[&str]) -> Result<(), ScriptError> {
        for (command, &line) in self.commands.iter().zip(&self.lines) {
            if let Command::Until { event, .. } = command {
                if !known.contains(&event.as_str()) {
                    let message = if known.is_empty() {
                        format!("`until {event}`: no events can be seen for this ROM")
                    } else {
                        format!(
                            "`until {event}`: no such event (the events are {})",
                            known.join(", ")
                        )
                    };
                    return Err(ScriptError { line, message });
                }
            }
        }
        Ok(())
    }

    /// A runner that steps through the script frame by frame.
    pub fn runner(&self) -> ScriptRunner<'_> {
        ScriptRunner {
            script: self,
            next: 0,
            active: None,
            waited_out: Vec::new(),
        }
    }
}

/// What to do before the next frame.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FrameInput {
    /// RAM writes to make first.
    pub pokes: Vec<(u16, u8)>,
    /// Notes met on the way.
    pub notes: Vec<String>,
    /// The buttons to hold.
    pub buttons: Buttons,
}

#[derive(Debug, Clone)]
enum Active<'a> {
    Hold {
        left: u32,
        buttons: Buttons,
    },
    Until {
        event: &'a str,
        left: u32,
        buttons: Buttons,
    },
}

/// Steps through a script: [`ScriptRunner::next_frame`] before each frame,
/// [`ScriptRunner::frame_done`] after it with the routines the CPU entered.
#[derive(Debug, Clone)]
pub struct ScriptRunner<'a> {
    script: &'a Script,
    next: usize,
    active: Option<Active<'a>>,
    waited_out: Vec<String>,
}

impl ScriptRunner<'_> {
    /// The input for the next frame, or `None` when the script is over.
    pub fn next_frame(&mut self) -> Option<FrameInput> {
        let mut input = FrameInput::default();
        loop {
            match &self.active {
                Some(Active::Hold { buttons, .. } | Active::Until { buttons, .. }) => {
                    input.buttons = *buttons;
                    return Some(input);
                }
                None => {}
            }
            let command = self.script.commands.get(self.next)?;
            self.next += 1;
            match command {
                Command::Hold { frames: 0, .. } | Command::Until { max: 0, .. } => {}
                &Command::Hold { frames, buttons } => {
                    self.active = Some(Active::Hold {
                        left: frames,
                        buttons,
                    });
                }
                Command::Until {
                    event,
                    max,
                    buttons,
                } => {
                    self.active = Some(Active::Until {
                        event,
                        left: *max,
                        buttons: *buttons,
                    });
                }
                &Command::Poke { address, value } => input.pokes.push((address, value)),
                Command::Note(text) => input.notes.push(text.clone()),
            }
        }
    }

    /// Tells the runner the frame ran and which routines it entered.
    pub fn frame_done(&mut self, events: &[&str]) {
        let finished = match &mut self.active {
            Some(Active::Hold { left, .. }) => {
                *left -= 1;
                *left == 0
            }
            Some(Active::Until { event, left, .. }) => {
                *left -= 1;
                let seen = events.contains(event);
                if !seen && *left == 0 {
                    self.waited_out.push((*event).to_owned());
                }
                seen || *left == 0
            }
            None => false,
        };
        if finished {
            self.active = None;
        }
    }

    /// The events of `until` commands that ran out of frames without happening.
    pub fn waited_out(&self) -> &[String] {
        &self.waited_out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_holds_untils_and_pokes() {
        let script = Script::parse(
            "note go\nhold 2 -\nhold 1 S\nuntil spawn 5 D\npoke 3a1 07\nhold 1 sA\nuntil lock 2 -\n",
        )
        .unwrap();
        let mut runner = script.runner();
        let events = [&[][..], &[], &[], &[], &["spawn"], &[], &[], &[]];
        let mut seen = Vec::new();
        for frame_events in events {
            let Some(input) = runner.next_frame() else {
                break;
            };
            seen.push((input.buttons.bits(), input.pokes.clone(), input.notes.len()));
            runner.frame_done(frame_events);
        }
        assert_eq!(
            seen,
            vec![
                (0, vec![], 1),
                (0, vec![], 0),
                (0x08, vec![], 0),
                (0x20, vec![], 0),
                (0x20, vec![], 0),
                (0x05, vec![(0x3A1, 7)], 0),
                (0, vec![], 0),
                (0, vec![], 0),
            ]
        );
        assert_eq!(runner.next_frame(), None);
        assert_eq!(runner.waited_out(), ["lock".to_owned()]);
    }

    #[test]
    fn bad_lines_are_reported() {
        for (text, line) in [
            ("hold x -", 1),
            ("hold 1 Q", 1),
            ("\npoke 900 1", 2),
            ("poke 10 1ff", 1),
            ("jump 3", 1),
            ("until spawn -", 1),
            // Counts that are no counts: zero, negative, NaN, infinite, too large.
            ("hold 0 A", 1),
            ("until spawn 0 -", 1),
            ("hold -1 A", 1),
            ("hold NaN A", 1),
            ("hold inf A", 1),
            ("hold 4294967296 A", 1),
        ] {
            assert_eq!(Script::parse(text).unwrap_err().line, line, "{text}");
        }
    }

    #[test]
    fn an_unknown_event_is_refused_with_its_line() {
        let script = Script::parse("hold 2 -\n# wait\nuntil spwan 10 -\n").unwrap();
        assert_eq!(
            script.check_events(&["spawn", "lock"]).map_err(|e| e.line),
            Err(3)
        );
        let error = script.check_events(&["spawn", "lock"]).unwrap_err();
        assert!(error
            .to_string()
            .contains("no such event (the events are spawn, lock)"));
        assert!(Script::parse("until spawn 10 -")
            .unwrap()
            .check_events(&["spawn"])
            .is_ok());
    }
}
