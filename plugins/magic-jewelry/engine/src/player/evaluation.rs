//! What the player scores boards with: the built-in learned value, the reference's published
//! weights, or a file of weights or of a learned value, read once and scored under whichever
//! rules the player plays by.

use crate::eval::value::ValueNetwork;
use crate::eval::weights::check_evaluation_file;
use crate::eval::{load_evaluator, AnyEvaluator, Weights};
use crate::rules::RuleSet;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// The `weights` knob's value for the built-in evaluation.
pub const BUILT_IN: &str = "built-in";

/// What the player scores boards with.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Evaluation {
    /// The learned value trained under the rules played ([`AnyEvaluator::for_rules`]).
    #[default]
    BuiltIn,
    /// The reference AI's published weights.
    Published,
    /// A file's contents (boxed: a learned value is large).
    File(PathBuf, Box<FileEvaluation>),
}

/// What an evaluation file held.
#[derive(Debug, Clone, PartialEq)]
pub enum FileEvaluation {
    Weights(Weights),
    Value(Arc<ValueNetwork>),
}

impl Evaluation {
    /// Whether `text` names an evaluation that can be read: [`BUILT_IN`] (or nothing), or a
    /// regular file of a plausible size, checked without opening it.
    pub fn check_file_name(text: &str) -> Result<(), String> {
        if text.is_empty() || text == BUILT_IN {
            return Ok(());
        }
        let path = PathBuf::from(text);
        check_evaluation_file(&path)
            .map_err(|e| format!("cannot read evaluation file {}: {e}", path.display()))
    }

    /// The evaluation in `text`: [`BUILT_IN`] (or nothing), or the path of a weights or value
    /// file, which must be a regular file (a FIFO or a device would block or never end).
    pub fn from_file_name(text: &str) -> Result<Self, String> {
        if text.is_empty() || text == BUILT_IN {
            return Ok(Self::BuiltIn);
        }
        Self::check_file_name(text)?;
        let path = PathBuf::from(text);
        let (evaluator, weights) = load_evaluator(&path).map_err(|e| e.to_string())?;
        let held = match (weights, evaluator) {
            (Some(weights), _) => FileEvaluation::Weights(weights),
            (None, AnyEvaluator::Learned(network)) => FileEvaluation::Value(network),
            (None, _) => return Err(format!("{}: neither weights nor a value", path.display())),
        };
        Ok(Self::File(path, Box::new(held)))
    }

    /// The file name as the `weights` knob shows it.
    pub fn file_name(&self) -> String {
        match self {
            Self::BuiltIn | Self::Published => BUILT_IN.to_owned(),
            Self::File(path, _) => path.display().to_string(),
        }
    }

    /// The evaluator under `rules` (weights use the rules' colour odds).
    pub fn evaluator(&self, rules: RuleSet) -> AnyEvaluator {
        match self {
            Self::BuiltIn => AnyEvaluator::for_rules(rules),
            Self::Published => AnyEvaluator::features_for(&Weights::PUBLISHED, rules),
            Self::File(_, held) => match held.as_ref() {
                FileEvaluation::Weights(weights) => AnyEvaluator::features_for(weights, rules),
                FileEvaluation::Value(network) => AnyEvaluator::learned(Arc::clone(network)),
            },
        }
    }

    /// The weights of a feature evaluation.
    pub fn weights(&self) -> Option<Weights> {
        match self {
            Self::BuiltIn => None,
            Self::Published => Some(Weights::PUBLISHED),
            Self::File(_, held) => match held.as_ref() {
                FileEvaluation::Weights(weights) => Some(*weights),
                FileEvaluation::Value(_) => None,
            },
        }
    }

    /// Where it comes from, in words, under `rules`.
    pub fn source(&self, rules: RuleSet) -> EvaluationSource<'_> {
        EvaluationSource {
            evaluation: self,
            rules,
        }
    }
}

/// [`Evaluation::source`]: `built-in value (RULES)`, `published weights`, `weights FILE` or
/// `value FILE`.
pub struct EvaluationSource<'a> {
    evaluation: &'a Evaluation,
    rules: RuleSet,
}

impl fmt::Display for EvaluationSource<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.evaluation {
            Evaluation::BuiltIn => write!(f, "built-in value ({})", self.rules),
            Evaluation::Published => f.write_str("published weights"),
            Evaluation::File(path, held) => {
                let kind = match held.as_ref() {
                    FileEvaluation::Weights(_) => "weights",
                    FileEvaluation::Value(_) => "value",
                };
                write!(f, "{kind} {}", path.display())
            }
        }
    }
}
