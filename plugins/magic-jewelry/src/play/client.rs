//! The player's side of the search thread ([`super::worker`]): questions asked with an id,
//! answers heard and kept until a column needs them, and the waits a deterministic budget
//! asks for. With a time budget only the latest question matters; with a deterministic one
//! every question is searched, in order.

use super::stats::PlayerStats;
use super::worker::{Answer, Heard, MakeStrategy, Worker};
use magic_jewelry_engine::{Budget, Question};
use std::time::{Duration, Instant};

/// A question in the worker's hands.
#[derive(Debug)]
struct Asked {
    id: u64,
    question: Question,
    /// Asked before its column spawned.
    foreseen: bool,
}

/// What a wait for the worker brought.
pub enum Waited {
    /// An answer came (kept with the others heard).
    Answer,
    /// The worker died with what it was asked.
    Died,
    /// Nothing will come: what was asked is gone.
    Nothing,
}

/// The search, as the player sees it.
pub struct SearchClient {
    worker: Worker,
    strategy_name: &'static str,
    budget: Budget,
    next_id: u64,
    asked: Vec<Asked>,
    /// Answers come back and not yet used, with whether they were foreseen.
    heard: Vec<(Answer, bool)>,
    /// How long the last decision heard took.
    pub last_decision: Duration,
}

impl SearchClient {
    /// A search with strategies from `make`.
    pub fn new(make: MakeStrategy) -> Self {
        let mut worker = Worker::new(make);
        let (strategy_name, budget) = worker.describe();
        Self {
            worker,
            strategy_name,
            budget,
            next_id: 0,
            asked: Vec::new(),
            heard: Vec::new(),
            last_decision: Duration::ZERO,
        }
    }

    pub fn strategy_name(&self) -> &'static str {
        self.strategy_name
    }

    pub fn budget(&self) -> Budget {
        self.budget
    }

    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Asks for a decision on `question`; what the search does is counted in `stats` (here,
    /// in `listen` and in `wait`).
    pub fn ask(&mut self, question: Question, foreseen: bool, stats: &mut PlayerStats) {
        let id = self.next_id;
        self.next_id += 1;
        if !self.budget.is_deterministic() {
            // Only the latest question matters; those not started are dropped.
            self.worker.skip_below(id);
            self.asked.clear();
        }
        let restarts = &mut stats.worker_restarts;
        self.worker.ask(id, question.clone(), self.budget, restarts);
        self.asked.push(Asked {
            id,
            question,
            foreseen,
        });
    }

    /// Takes in the answers that are ready; false when the worker died meanwhile (with what it
    /// was asked).
    pub fn listen(&mut self, stats: &mut PlayerStats) -> bool {
        loop {
            match self.worker.poll(&mut stats.worker_restarts) {
                Heard::Answer(answer) => self.hear(*answer, stats),
                Heard::Nothing => return true,
                Heard::Died => {
                    self.asked.clear();
                    return false;
                }
            }
        }
    }

    /// Waits for the next answer.
    pub fn wait(&mut self, stats: &mut PlayerStats) -> Waited {
        let began = Instant::now();
        let heard = self.worker.wait(&mut stats.worker_restarts);
        stats.blocked += began.elapsed();
        match heard {
            Heard::Answer(answer) => {
                self.hear(*answer, stats);
                Waited::Answer
            }
            Heard::Died => {
                self.asked.clear();
                Waited::Died
            }
            Heard::Nothing => {
                self.asked.clear();
                Waited::Nothing
            }
        }
    }

    fn hear(&mut self, answer: Answer, stats: &mut PlayerStats) {
        stats.decisions += 1;
        if let Some(decision) = &answer.decision {
            stats.decision_times.record(decision.elapsed);
            self.last_decision = decision.elapsed;
        }
        // Answers to questions dropped meanwhile are not kept.
        if let Some(at) = self.asked.iter().position(|a| a.id == answer.id) {
            let asked = self.asked.remove(at);
            self.heard.push((answer, asked.foreseen));
        }
    }

    /// An answer heard that serves `question`, with whether it was foreseen.
    pub fn take_answer(&mut self, question: &Question) -> Option<(Answer, bool)> {
        let at = self
            .heard
            .iter()
            .position(|(a, _)| a.question.answers(question))?;
        Some(self.heard.swap_remove(at))
    }

    /// A question that serves `question` is in the worker's hands.
    pub fn is_asked(&self, question: &Question) -> bool {
        self.asked.iter().any(|a| a.question.answers(question))
    }

    /// Forgets what was asked and heard (it was for columns before the one in hand).
    pub fn drop_questions(&mut self) {
        self.asked.clear();
        self.heard.clear();
        if !self.budget.is_deterministic() {
            self.worker.skip_below(self.next_id);
        }
    }

    /// Every question asked and not yet used, oldest first, with whether it was foreseen.
    pub fn pending(&self) -> Vec<(Question, bool)> {
        let mut pending: Vec<(u64, Question, bool)> = self
            .asked
            .iter()
            .map(|a| (a.id, a.question.clone(), a.foreseen))
            .chain(
                self.heard
                    .iter()
                    .map(|(answer, foreseen)| (answer.id, answer.question.clone(), *foreseen)),
            )
            .collect();
        pending.sort_by_key(|(id, _, _)| *id);
        pending.into_iter().map(|(_, q, f)| (q, f)).collect()
    }
}
