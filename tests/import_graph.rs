//! No import circles: in every crate of the workspace, at every folder, the modules side by
//! side use one another without a circle. A module uses a sibling when one of its files names
//! it through `crate::` (with the folder's path) or, from the module's own file, through
//! `super::`. Uses through a parent's re-exports are not followed.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The crates' source folders, from the workspace's root.
const CRATES: [&str; 11] = [
    "src",
    "host/src",
    "controller/src",
    "plugins/plugin-api/src",
    "plugins/example/src",
    "plugins/lua/src",
    "plugins/bot/src",
    "plugins/magic-jewelry/engine/src",
    "plugins/magic-jewelry/src",
    "plugins/magic-jewelry/lab/src",
    "web/src",
];

/// Every `.rs` file under `path` (or `path` itself), with its text.
fn texts(path: &Path) -> Vec<String> {
    if path.is_file() {
        return vec![fs::read_to_string(path).expect("a readable source")];
    }
    let mut out = Vec::new();
    for entry in fs::read_dir(path).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() || path.extension().is_some_and(|e| e == "rs") {
            out.extend(texts(&path));
        }
    }
    out
}

/// The code of `text` without its comments (line comments and doc comments).
fn code(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names `text` reaches after `prefix` (`crate::search::`, `super::`): one name, or each
/// of a `{...}` list.
fn named_after(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (at, _) in text.match_indices(prefix) {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &text[at + prefix.len()..];
        let list = match rest.strip_prefix('{') {
            Some(inner) => inner.split('}').next().unwrap_or(""),
            None => rest,
        };
        for item in list.split(',') {
            let name: String = item
                .trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                names.insert(name);
            }
            if rest.starts_with('{') {
                continue;
            }
            break;
        }
    }
    names
}

/// The modules of `folder` (its `.rs` files but `mod.rs`/`lib.rs`/`main.rs`, and its folders)
/// with the siblings each uses. `path` is the folder's path from the crate's root (`search::`).
fn sibling_uses(folder: &Path, path: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut modules: BTreeMap<String, (Vec<PathBuf>, Option<PathBuf>)> = BTreeMap::new();
    for entry in fs::read_dir(folder).expect("a source folder") {
        let entry = entry.expect("an entry").path();
        let name = entry
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        if entry.is_dir() {
            let own = entry.join("mod.rs");
            let slot = modules.entry(name).or_default();
            slot.0.push(entry.clone());
            if own.is_file() {
                slot.1 = Some(own);
            }
        } else if entry.extension().is_some_and(|e| e == "rs")
            && !matches!(name.as_str(), "mod" | "lib" | "main")
        {
            let slot = modules.entry(name).or_default();
            slot.0.push(entry.clone());
            slot.1 = Some(entry);
        }
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    let mut uses = BTreeMap::new();
    for (name, (places, own)) in &modules {
        let mut used = BTreeSet::new();
        let crate_prefix = format!("crate::{path}");
        for text in places.iter().flat_map(|p| texts(p)) {
            used.extend(named_after(&code(&text), &crate_prefix));
        }
        if let Some(own) = own {
            let text = code(&fs::read_to_string(own).expect("a readable source"));
            used.extend(named_after(&text, "super::"));
        }
        used.retain(|n| n != name && names.contains(n));
        uses.insert(name.clone(), used);
    }
    uses
}

/// A circle of `uses`, if there is one.
fn circle(uses: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        uses: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_owned());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in uses.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, uses, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    uses.keys()
        .find_map(|node| visit(node, uses, &mut Vec::new(), &mut done))
}

/// Every folder of a crate's sources, with its path from the crate's root.
fn folders(root: &Path, path: &str, out: &mut Vec<(PathBuf, String)>) {
    out.push((root.to_owned(), path.to_owned()));
    for entry in fs::read_dir(root).expect("a source folder") {
        let entry = entry.expect("an entry").path();
        if entry.is_dir() {
            let name = entry
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            folders(&entry, &format!("{path}{name}::"), out);
        }
    }
}

#[test]
fn no_module_uses_a_sibling_that_uses_it_back() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    let mut circles = Vec::new();
    for source in CRATES {
        let mut all = Vec::new();
        folders(&workspace.join(source), "", &mut all);
        for (folder, path) in all {
            let uses = sibling_uses(&folder, &path);
            checked += uses.len();
            if let Some(found) = circle(&uses) {
                circles.push(format!("{}: {}", folder.display(), found.join(" -> ")));
            }
        }
    }
    assert!(checked > 150, "only {checked} modules checked");
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn a_circle_is_found() {
    let uses: BTreeMap<String, BTreeSet<String>> = [
        ("command", &["horizon"][..]),
        ("horizon", &["splitting"]),
        ("splitting", &["command"]),
        ("sim", &[]),
    ]
    .into_iter()
    .map(|(n, u)| (n.to_owned(), u.iter().map(|s| (*s).to_owned()).collect()))
    .collect();
    assert_eq!(
        circle(&uses),
        Some(vec![
            "command".to_owned(),
            "horizon".to_owned(),
            "splitting".to_owned(),
            "command".to_owned()
        ])
    );
    let text = "use crate::search::{question::Question, strategy};\nuse super::rules;";
    assert_eq!(
        named_after(text, "crate::search::"),
        ["question", "strategy"].map(String::from).into()
    );
    assert_eq!(
        named_after(text, "super::"),
        ["rules"].map(String::from).into()
    );
}
