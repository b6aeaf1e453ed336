//! Trying a save state on a copy of the console before it replaces the running one.
//!
//! A state that passed every check of its file can still be one the core mishandles: its
//! payload is trusted by the core as it is. So it is restored into a clone of the console on a
//! worker thread, the clone runs one frame, and only a state whose frame finishes, within an
//! instruction budget and a time limit and without a panic, is handed back.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;
use tetanes_core::prelude::*;

/// Instructions a frame may take. A real frame is about 10,000 (29,781 CPU cycles of mostly
/// 2-7 cycles each); a console whose frame never ends stops here.
pub const FRAME_INSTRUCTION_BUDGET: u32 = 200_000;
/// How long the trial may take in all (restore, clone, a frame) before it is given up.
pub const TRIAL_TIME_LIMIT: Duration = Duration::from_secs(2);

/// Why a state that looked right was refused after all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrialError {
    #[error("the emulator core rejected the state: {0}")]
    Rejected(String),
    #[error("the state does not run: {0}")]
    Failed(String),
    #[error("the state does not run: its first frame did not finish within {FRAME_INSTRUCTION_BUDGET} instructions")]
    FrameNeverEnds,
    #[error("the state does not run: the emulator core panicked on it ({0})")]
    Panicked(String),
    #[error("the state does not run: its first frame took more than {} s", TRIAL_TIME_LIMIT.as_secs())]
    TimedOut,
}

/// `live` with `payload` restored, after a copy of it ran a frame; `live` is not touched.
pub fn restore_on_copy(live: &ControlDeck, payload: &[u8]) -> Result<ControlDeck, TrialError> {
    restore_with_limit(live.clone(), payload.to_vec(), TRIAL_TIME_LIMIT)
}

fn restore_with_limit(
    mut candidate: ControlDeck,
    payload: Vec<u8>,
    limit: Duration,
) -> Result<ControlDeck, TrialError> {
    let (sender, receiver) = mpsc::channel();
    let spawned = thread::Builder::new()
        .name("state-trial".into())
        .spawn(move || {
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                candidate
                    .deserialize_state(&payload)
                    .map_err(|e| TrialError::Rejected(e.to_string()))?;
                run_one_frame(&mut candidate.clone(), FRAME_INSTRUCTION_BUDGET)?;
                Ok(candidate)
            }))
            .unwrap_or_else(|payload| Err(TrialError::Panicked(panic_text(payload.as_ref()))));
            // The receiver may have given up waiting; then the result is simply dropped.
            let _ = sender.send(outcome);
        });
    if let Err(error) = spawned {
        return Err(TrialError::Failed(format!(
            "no thread for the trial: {error}"
        )));
    }
    // The worker always ends (the frame has an instruction budget); the time limit guards the
    // caller against a core that is merely very slow on this state.
    receiver
        .recv_timeout(limit)
        .unwrap_or(Err(TrialError::TimedOut))
}

/// One frame, stopped after `budget` instructions if it has not ended.
fn run_one_frame(deck: &mut ControlDeck, budget: u32) -> Result<(), TrialError> {
    let instructions = Cell::new(0u32);
    let clocked = deck
        .clock_frame_until(|_| {
            instructions.set(instructions.get() + 1);
            instructions.get() >= budget
        })
        .map_err(|e| TrialError::Failed(e.to_string()))?;
    match clocked {
        Clocked::Stopped => Err(TrialError::FrameNeverEnds),
        _ => Ok(()),
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_past_the_instruction_budget_does_not_end() {
        let mut deck = ControlDeck::new();
        deck.load_rom("cartridge", &mut &jewelbot_cartridge::ROM[..])
            .expect("the built-in cartridge loads");
        // No real frame is 100 instructions long: the trial stops it and says so.
        assert_eq!(
            run_one_frame(&mut deck, 100),
            Err(TrialError::FrameNeverEnds)
        );
        assert_eq!(run_one_frame(&mut deck, FRAME_INSTRUCTION_BUDGET), Ok(()));
    }

    #[test]
    fn a_slow_trial_is_given_up_at_the_time_limit() {
        // A console with no ROM cannot restore anything; with no time at all the trial gives up
        // before the worker answers, or the worker's refusal arrives first. Either way the
        // caller hears back at once and gets an error.
        let deck = ControlDeck::new();
        let result = restore_with_limit(deck, vec![0; 8], Duration::ZERO);
        assert!(result.is_err());
    }
}
