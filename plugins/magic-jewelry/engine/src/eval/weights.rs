//! The evaluation weights: one serde struct, read and written as JSON.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// Number of weights: the board features, then the search's interim-jewels weight.
pub const WEIGHT_COUNT: usize = 15;
/// Number of board features (the first weights).
pub const FEATURE_COUNT: usize = 14;

/// Declares the weights once: the struct, [`WEIGHT_NAMES`] and the vector they train as, in
/// the order written here (the five pair distances first).
macro_rules! weights {
    ($( $(#[doc = $doc:literal])* $name:ident ),* $(,)?) => {
        /// How much each normalised feature counts. Pair counts add to the score; jewels, edge,
        /// spawn distance, danger and bumpiness subtract from it. Features absent from a file
        /// count 0, so the reference's files load unchanged.
        #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Weights {
            /// Same-colour pairs with 0, 1, 2, 3 and 4 cells between them, in any of the 4
            /// directions.
            pub adjacent: [f64; 5],
            $( $(#[doc = $doc])* #[serde(default)] pub $name: f64, )*
        }

        /// Weight names, in [`Weights::to_vector`] order.
        pub const WEIGHT_NAMES: [&str; WEIGHT_COUNT] = [
            "adjacent0", "adjacent1", "adjacent2", "adjacent3", "adjacent4",
            $( stringify!($name) ),*
        ];

        impl Weights {
            pub fn to_vector(&self) -> [f64; WEIGHT_COUNT] {
                let a = self.adjacent;
                [a[0], a[1], a[2], a[3], a[4], $( self.$name ),*]
            }

            pub fn from_vector(v: [f64; WEIGHT_COUNT]) -> Self {
                let mut rest = v[5..].iter().copied();
                Self {
                    adjacent: [v[0], v[1], v[2], v[3], v[4]],
                    $( $name: rest.next().unwrap_or_default(), )*
                }
            }
        }
    };
}

weights! {
    /// Jewels on the board (fewer is better).
    jewels,
    /// Jewels in the side columns, corners twice.
    edge,
    /// Jewels close to where columns spawn.
    spawn_distance,
    /// Stack heights above 7, squared: the danger of topping out.
    danger,
    /// Height differences between neighbouring columns.
    bumpiness,
    /// Empty cells a dropped column can fill (the three above each stack) where a jewel of some
    /// colour would complete a line of three, counted per colour.
    completions,
    /// The chance that a random column holds a colour that completes a line in one of those
    /// cells.
    clear_chance,
    /// Jewels with no empty cell one or two steps away in any direction: they cannot join a
    /// line until something near them clears.
    buried,
    /// Jewels with no jewel of their colour one or two steps away in any direction.
    unpaired,
    /// Jewels on the boards between now and the searched one (after the current column, and
    /// for `deep` after the next): what is on the board in the meantime counts too, as in the
    /// mean the game is judged by.
    interim_jewels,
}

const TRAINED_JSON: &str = include_str!("../../weights/deep-cem.json");

/// Why a weights file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    #[error("cannot read weights file {path}: {error}")]
    Read { path: String, error: std::io::Error },
    #[error("weights file {path} is not valid: {error}")]
    Parse {
        path: String,
        error: serde_json::Error,
    },
    #[error("weights file {path}: weight {name} is {value:e}; a weight is a number of at most {MAX_WEIGHT:e} either way")]
    OutOfRange {
        path: String,
        name: &'static str,
        value: f64,
    },
}

impl WeightsError {
    /// The error of [`Weights::from_json`] on the text of the file at `path`.
    pub fn in_file(self, path: &Path) -> Self {
        let path = path.display().to_string();
        match self {
            Self::Parse { error, .. } => Self::Parse { path, error },
            Self::OutOfRange { name, value, .. } => Self::OutOfRange { path, name, value },
            other @ Self::Read { .. } => other,
        }
    }
}

/// The largest weight either way: thousands of times the trained ones (tens), and small enough
/// that a board's score, a sum of weights times counts of a few hundred, stays exact.
pub const MAX_WEIGHT: f64 = 1e6;

/// Larger than any evaluation file: weights JSON is a few hundred bytes, a value file a few
/// megabytes at most.
pub const MAX_EVALUATION_FILE_LEN: u64 = 256 * 1024 * 1024;

/// Reads an evaluation file a user named: only a regular file (a FIFO would block the open, a
/// device never end), and no more than [`MAX_EVALUATION_FILE_LEN`] bytes.
pub fn read_evaluation_file(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    check_evaluation_file(path)?;
    let file = std::fs::File::open(path)?;
    let not_regular = || Error::new(ErrorKind::InvalidInput, "not a regular file");
    // Asked of the open file too: the name may have been swapped since.
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    let mut bytes = Vec::new();
    file.take(MAX_EVALUATION_FILE_LEN + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_EVALUATION_FILE_LEN {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("more than {MAX_EVALUATION_FILE_LEN} bytes"),
        ));
    }
    Ok(bytes)
}

/// Checks, without opening it, that `path` is a regular file of a plausible size.
pub fn check_evaluation_file(path: &Path) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    if meta.len() > MAX_EVALUATION_FILE_LEN {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("more than {MAX_EVALUATION_FILE_LEN} bytes"),
        ));
    }
    Ok(())
}

impl Weights {
    /// The reference AI's trained weights (percent), with the extra features off.
    pub const PUBLISHED: Self = Self {
        adjacent: [43.0, 12.7, 1.5, 2.8, 0.5],
        jewels: 33.6,
        edge: 4.2,
        spawn_distance: 1.6,
        danger: 0.0,
        bumpiness: 0.0,
        completions: 0.0,
        clear_chance: 0.0,
        buried: 0.0,
        unpaired: 0.0,
        interim_jewels: 0.0,
    };

    /// The committed trained weights (`weights/deep-cem.json`, trained for `deep`; see the
    /// README there).
    pub fn trained() -> Self {
        // The file is checked by a test, so the fallback never happens in a tested build.
        Self::from_json(TRAINED_JSON).unwrap_or(Self::PUBLISHED)
    }

    /// Checks every weight is a number the evaluation can add up without overflowing.
    pub fn validate(&self) -> Result<(), WeightsError> {
        for (value, name) in self.to_vector().into_iter().zip(WEIGHT_NAMES) {
            if value.is_nan() || value.abs() > MAX_WEIGHT {
                return Err(WeightsError::OutOfRange {
                    path: String::from("<text>"),
                    name,
                    value,
                });
            }
        }
        Ok(())
    }

    /// Reads a JSON weights file.
    pub fn load(path: &Path) -> Result<Self, WeightsError> {
        let bytes = read_evaluation_file(path).map_err(|error| WeightsError::Read {
            path: path.display().to_string(),
            error,
        })?;
        let text = String::from_utf8(bytes).map_err(|e| WeightsError::Read {
            path: path.display().to_string(),
            error: std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
        })?;
        Self::from_json(&text).map_err(|e| e.in_file(path))
    }

    /// Parses JSON weights.
    pub fn from_json(text: &str) -> Result<Self, WeightsError> {
        let weights: Self = serde_json::from_str(text).map_err(|error| WeightsError::Parse {
            path: String::from("<text>"),
            error,
        })?;
        weights.validate()?;
        Ok(weights)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The weights file's contents: pretty JSON and a final newline.
    pub fn to_file_text(&self) -> String {
        self.to_json()
            + "
"
    }
}

impl Default for Weights {
    fn default() -> Self {
        Self::PUBLISHED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_and_defaults() {
        let w = Weights::PUBLISHED;
        assert_eq!(Weights::from_json(&w.to_json()).unwrap(), w);
        let short = r#"{"adjacent":[1,2,3,4,5],"jewels":6,"edge":7,"spawn_distance":8}"#;
        let loaded = Weights::from_json(short).unwrap();
        assert_eq!(
            loaded.to_vector(),
            [1., 2., 3., 4., 5., 6., 7., 8., 0., 0., 0., 0., 0., 0., 0.]
        );
        assert_eq!(Weights::from_vector(loaded.to_vector()), loaded);
    }

    #[test]
    fn committed_files_load() {
        let published = include_str!("../../weights/published.json");
        assert_eq!(Weights::from_json(published).unwrap(), Weights::PUBLISHED);
        assert_eq!(
            Weights::trained(),
            Weights::from_json(TRAINED_JSON).unwrap()
        );
        assert_ne!(Weights::trained(), Weights::PUBLISHED);
        let start = include_str!("../../weights/start-completions.json");
        assert_eq!(Weights::from_json(start).unwrap().clear_chance, 0.5);
        let smart = Weights::from_json(include_str!("../../weights/smart-cem.json")).unwrap();
        assert!(smart.completions > 0.0 && smart.clear_chance > 0.0);
        assert!(Weights::trained().clear_chance > 0.0);
    }

    #[test]
    fn bad_files_are_errors() {
        assert!(matches!(
            Weights::from_json("{"),
            Err(WeightsError::Parse { .. })
        ));
        assert!(matches!(
            Weights::from_json(
                r#"{"adjacent":[1,2,3,4,5],"jewels":6,"edge":7,"spawn_distance":8,"bogus":1}"#
            ),
            Err(WeightsError::Parse { .. })
        ));
        for huge in ["3e38", "1e308", "-1000001"] {
            let text = Weights::PUBLISHED.to_json().replacen("33.6", huge, 1);
            assert!(
                matches!(
                    Weights::from_json(&text),
                    Err(WeightsError::OutOfRange { name: "jewels", .. })
                ),
                "{huge}"
            );
        }
        let directory = Weights::load(Path::new(env!("CARGO_MANIFEST_DIR")))
            .expect_err("a directory is not a weights file");
        assert!(
            directory.to_string().contains("not a regular file"),
            "{directory}"
        );
        let device = Weights::load(Path::new("/dev/zero")).expect_err("never read to its end");
        assert!(
            device.to_string().contains("not a regular file"),
            "{device}"
        );
        assert!(matches!(
            Weights::load(Path::new("/nonexistent/weights.json")),
            Err(WeightsError::Read { .. })
        ));
    }
}
