//! What a results file, a checkpoint and a lessons file say of themselves: the format they were
//! written in, and the settings of the games they hold, held against this run's.

use serde_json::Value;

/// The format this build writes. Version 1 is the files written without a version (up to
/// commit d75c35b): the same fields, read alike. Version 3 adds the player's description
/// beside its fingerprint ([`DESCRIPTION`]); a file without one is read as one of the same
/// player when everything else agrees. A later version is refused by name, never read as this
/// one.
pub(super) const FORMAT: u64 = 3;

/// The settings' key of the player's description ([`magic_jewelry_engine::PlayerSpec::description`]):
/// what the player is, in words, beside its fingerprint (its choices, which decide).
pub(super) const DESCRIPTION: &str = "description";

/// Whether a file's settings are this run's: equal, or, for a file written before the settings
/// held the player's description, equal but for it (the fingerprint still names the player).
pub(super) fn same(file: &Value, run: &Value) -> bool {
    file == run || without_description_unless_in(file, run) == *file
}

/// `run` without the description when `file` has none.
fn without_description_unless_in(file: &Value, run: &Value) -> Value {
    let mut run = run.clone();
    if file.get(DESCRIPTION).is_none() {
        if let Some(map) = run.as_object_mut() {
            map.remove(DESCRIPTION);
        }
    }
    run
}

/// The format of a file whose version field is `version` (absent: 1), if this build reads it;
/// otherwise what to say (`what`: "results file", "checkpoint", ...).
pub(super) fn readable(version: Option<&Value>, what: &str) -> Result<u64, String> {
    match version {
        None => Ok(1),
        Some(v) => match v.as_u64() {
            Some(n @ 1..=FORMAT) => Ok(n),
            Some(n) if n > FORMAT => Err(format!(
                "a {what} of format version {n}, where this build reads versions 1 to {FORMAT}: \
                 a later build wrote it"
            )),
            _ => Err(format!(
                "a {what} whose format version is {v}, not a version this build reads (1 to \
                 {FORMAT})"
            )),
        },
    }
}

/// The settings that differ between a file's and this run's, each with both values
/// ("max_columns: the file's 50, this run's 60"), or the whole of both when either is not a
/// map of settings.
pub(super) fn differences(file: &Value, run: &Value) -> String {
    let run = &without_description_unless_in(file, run);
    let show = |value: Option<&Value>| match value {
        None => "none".to_owned(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    };
    let (Some(file_map), Some(run_map)) = (file.as_object(), run.as_object()) else {
        return format!("the file's {file}, this run's {run}");
    };
    let mut keys: Vec<&String> = file_map.keys().chain(run_map.keys()).collect();
    keys.sort();
    keys.dedup();
    let differ: Vec<String> = keys
        .into_iter()
        .filter(|key| file_map.get(*key) != run_map.get(*key))
        .map(|key| {
            format!(
                "{key}: the file's {}, this run's {}",
                show(file_map.get(key)),
                show(run_map.get(key))
            )
        })
        .collect();
    differ.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_settings_that_differ_are_named_with_both_values() {
        let file = json!({ "ai": "simple", "max_columns": 50, "work": 3000 });
        let run = json!({ "ai": "smart", "max_columns": 60, "work": 3000, "new": true });
        assert_eq!(
            differences(&file, &run),
            "ai: the file's simple, this run's smart; max_columns: the file's 50, this run's \
             60; new: the file's none, this run's true"
        );
    }

    #[test]
    fn a_file_without_the_description_is_of_the_same_player_when_the_rest_agrees() {
        let old = json!({ "ai": "player", "player": "fingerprint", "work": 3000 });
        let run = json!({ "ai": "player", "player": "fingerprint", "work": 3000,
                          "description": { "strategy": "deep" } });
        assert!(same(&old, &run));
        assert!(same(&run, &run));
        let other = json!({ "ai": "player", "player": "other", "work": 3000 });
        assert!(!same(&other, &run));
        assert_eq!(
            differences(&other, &run),
            "player: the file's other, this run's fingerprint"
        );
        let described_otherwise = json!({ "ai": "player", "player": "fingerprint",
                                          "work": 3000, "description": { "strategy": "smart" } });
        assert!(!same(&described_otherwise, &run));
    }

    #[test]
    fn a_later_format_is_refused_by_its_version() {
        assert_eq!(readable(None, "results file"), Ok(1));
        assert_eq!(readable(Some(&json!(FORMAT)), "results file"), Ok(FORMAT));
        let later = readable(Some(&json!(FORMAT + 1)), "results file").expect_err("later");
        assert!(
            later.contains(&format!("version {}", FORMAT + 1)),
            "{later}"
        );
        assert!(readable(Some(&json!("two")), "checkpoint").is_err());
        assert!(readable(Some(&json!(0)), "checkpoint").is_err());
    }
}
