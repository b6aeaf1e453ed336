//! The search on a thread of its own, so that the emulator's thread never runs it: questions go
//! in by one channel, decisions come back by another, in the order asked. A worker that dies (a
//! panic in the search) is noticed by its channels and started again with a fresh strategy; if
//! no thread can be started, the worker answers on the caller's thread instead.

use magic_jewelry_engine::{Budget, Decision, Explanation, Question, RuleSet, Strategy};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::Arc;
use std::time::Duration;

/// Builds the strategy a worker decides with (again after a worker died).
pub type MakeStrategy = Arc<dyn Fn() -> Box<dyn Strategy> + Send + Sync>;

/// How long a blocking wait lasts before it looks whether the worker is still alive.
const WAIT_SLICE: Duration = Duration::from_millis(50);

/// A decision, with why it won (long and short), for the question asked as `id`.
#[derive(Debug, Clone)]
pub struct Answer {
    pub id: u64,
    pub question: Question,
    /// `None`: the column cannot move at all.
    pub decision: Option<Decision>,
    pub explanation: Option<(String, String)>,
}

/// What the worker has to say.
#[derive(Debug)]
pub enum Heard {
    Answer(Box<Answer>),
    /// Nothing yet.
    Nothing,
    /// The worker died: the questions it had are lost.
    Died,
}

struct Request {
    id: u64,
    question: Question,
    budget: Budget,
}

/// The two ends of a running worker.
struct Link {
    requests: Sender<Request>,
    answers: Receiver<Answer>,
}

/// A search thread owned by the player.
pub struct Worker {
    make: MakeStrategy,
    /// The strategy for the first thread (or for deciding inline).
    spare: Option<Box<dyn Strategy>>,
    link: Option<Link>,
    /// Questions below this id are not started (they were overtaken).
    skip_below: Arc<AtomicU64>,
    /// Answers made on this thread when no worker could be started.
    inline: VecDeque<Answer>,
}

impl Worker {
    pub fn new(make: MakeStrategy) -> Self {
        let spare = Some(make());
        Self {
            make,
            spare,
            link: None,
            skip_below: Arc::new(AtomicU64::new(0)),
            inline: VecDeque::new(),
        }
    }

    /// The name and budget of the strategy it decides with.
    pub fn describe(&mut self) -> (&'static str, Budget) {
        let strategy = self.spare.get_or_insert_with(|| (self.make)());
        (strategy.name(), strategy.budget())
    }

    /// Questions asked before `id` that have not started are dropped, never answered.
    pub fn skip_below(&self, id: u64) {
        self.skip_below.store(id, Ordering::Relaxed);
    }

    /// Asks a question; its answer comes from [`Worker::poll`] or [`Worker::wait`]. A thread
    /// found dead counts in `restarts` (here and in `poll` and `wait`).
    pub fn ask(&mut self, id: u64, question: Question, budget: Budget, restarts: &mut u64) {
        let mut request = Request {
            id,
            question,
            budget,
        };
        // A worker found dead is started again, once per question.
        for _ in 0..2 {
            let Some(link) = self.link_mut() else { break };
            match link.requests.send(request) {
                Ok(()) => return,
                Err(mpsc::SendError(back)) => {
                    request = back;
                    self.died(restarts);
                }
            }
        }
        let strategy = self.spare.get_or_insert_with(|| (self.make)());
        self.inline.push_back(answer(strategy.as_mut(), request));
    }

    /// An answer if one is ready.
    pub fn poll(&mut self, restarts: &mut u64) -> Heard {
        if let Some(answer) = self.inline.pop_front() {
            return Heard::Answer(Box::new(answer));
        }
        let Some(link) = &self.link else {
            return Heard::Nothing;
        };
        match link.answers.try_recv() {
            Ok(answer) => Heard::Answer(Box::new(answer)),
            Err(TryRecvError::Empty) => Heard::Nothing,
            Err(TryRecvError::Disconnected) => {
                self.died(restarts);
                Heard::Died
            }
        }
    }

    /// The next answer, waiting for it.
    pub fn wait(&mut self, restarts: &mut u64) -> Heard {
        if let Some(answer) = self.inline.pop_front() {
            return Heard::Answer(Box::new(answer));
        }
        let Some(link) = &self.link else {
            return Heard::Nothing;
        };
        loop {
            match link.answers.recv_timeout(WAIT_SLICE) {
                Ok(answer) => return Heard::Answer(Box::new(answer)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    self.died(restarts);
                    return Heard::Died;
                }
            }
        }
    }

    fn died(&mut self, restarts: &mut u64) {
        self.link = None;
        *restarts += 1;
    }

    /// The running worker, started if there is none (`None` when no thread can be started).
    fn link_mut(&mut self) -> Option<&mut Link> {
        if self.link.is_none() {
            let strategy = self.spare.take().unwrap_or_else(|| (self.make)());
            let (requests, inbox) = mpsc::channel::<Request>();
            let (outbox, answers) = mpsc::channel::<Answer>();
            let skip_below = Arc::clone(&self.skip_below);
            let started = std::thread::Builder::new()
                .name("jewelbot-search".into())
                .spawn(move || serve(strategy, &inbox, &outbox, &skip_below));
            match started {
                Ok(_) => self.link = Some(Link { requests, answers }),
                Err(_) => return None,
            }
        }
        self.link.as_mut()
    }
}

/// The worker's loop: answers questions in order until the player hangs up.
fn serve(
    mut strategy: Box<dyn Strategy>,
    inbox: &Receiver<Request>,
    outbox: &Sender<Answer>,
    skip_below: &AtomicU64,
) {
    for request in inbox {
        if request.id < skip_below.load(Ordering::Relaxed) {
            continue;
        }
        if outbox.send(answer(strategy.as_mut(), request)).is_err() {
            return;
        }
    }
}

fn answer(strategy: &mut dyn Strategy, request: Request) -> Answer {
    let Request {
        id,
        question,
        budget,
    } = request;
    strategy.set_budget(budget);
    let decision = strategy.decide(&question);
    let explanation = decision
        .as_ref()
        .and_then(|d| Explanation::of(RuleSet::Real, &question.board, question.current, d))
        .map(|why| (why.to_string(), why.short()));
    Answer {
        id,
        question,
        decision,
        explanation,
    }
}
