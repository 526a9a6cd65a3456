//! The honest-evaluation splits of the labelled dev sets (issue 14): `benches/splits/<set>.json`,
//! written by `benches/splits/make_splits.py`. Every document id has a group, a part (`tune` or
//! `frozen`) and, in the tuning part, a cross-validation fold; a group never crosses parts or
//! folds. Developers look only at tuning documents; the frozen part is scored at the end.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The tuning part or the frozen test part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    /// Documents developers may look at, tune and train on.
    Tune,
    /// Documents nobody looks at while developing; figures reported at the end.
    Frozen,
}

impl Part {
    /// The part's name in split files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Part::Tune => "tune",
            Part::Frozen => "frozen",
        }
    }

    /// `tune` or `frozen`.
    pub fn parse(s: &str) -> Option<Part> {
        match s {
            "tune" => Some(Part::Tune),
            "frozen" => Some(Part::Frozen),
            _ => None,
        }
    }
}

/// One document's place in the split.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Assignment {
    /// Its group (seller, scenario or family; see make_splits.py).
    pub group: String,
    /// Its part.
    pub part: Part,
    /// Its cross-validation fold (tuning documents only).
    pub fold: Option<usize>,
}

/// A split file.
#[derive(Debug, Clone, Deserialize)]
pub struct Split {
    /// The set it splits (`zugferd`, `sroie`).
    pub set: String,
    /// Number of cross-validation folds of the tuning part.
    pub folds: usize,
    /// Document id (file stem) -> assignment.
    pub documents: BTreeMap<String, Assignment>,
}

impl Split {
    /// Reads and checks a split file.
    pub fn load(path: &Path) -> Result<Split, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let split: Split =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        split
            .check()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(split)
    }

    /// The split's invariants: no group in both parts or in two folds; a fold (below `folds`)
    /// for every tuning document and none for frozen ones.
    pub fn check(&self) -> Result<(), String> {
        let mut seen: BTreeMap<&str, (Part, Option<usize>)> = BTreeMap::new();
        for (id, a) in &self.documents {
            match (a.part, a.fold) {
                (Part::Tune, Some(f)) if f < self.folds => {}
                (Part::Frozen, None) => {}
                _ => return Err(format!("{id}: bad fold {:?} for part {:?}", a.fold, a.part)),
            }
            let here = (a.part, a.fold);
            if let Some(prev) = seen.insert(&a.group, here)
                && prev != here
            {
                return Err(format!(
                    "group {:?} crosses parts or folds ({prev:?} and {here:?}, at {id})",
                    a.group
                ));
            }
        }
        Ok(())
    }

    /// Whether the document `id` is in `part` (and, with `fold`, in that fold).
    pub fn contains(&self, id: &str, part: Part, fold: Option<usize>) -> bool {
        self.documents
            .get(id)
            .is_some_and(|a| a.part == part && (fold.is_none() || a.fold == fold))
    }

    /// Number of documents and of groups in `part`.
    pub fn count(&self, part: Part) -> (usize, usize) {
        let docs: Vec<&Assignment> = self.documents.values().filter(|a| a.part == part).collect();
        let mut groups: Vec<&str> = docs.iter().map(|a| a.group.as_str()).collect();
        groups.sort_unstable();
        groups.dedup();
        (docs.len(), groups.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn splits_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("splits")
    }

    #[test]
    fn committed_splits_keep_groups_whole() {
        for set in ["zugferd", "sroie"] {
            let split = Split::load(&splits_dir().join(format!("{set}.json"))).expect("load");
            assert_eq!(split.set, set);
            let (tune, tune_groups) = split.count(Part::Tune);
            let (frozen, frozen_groups) = split.count(Part::Frozen);
            let share = frozen as f64 / (tune + frozen) as f64;
            assert!(
                (0.25..=0.35).contains(&share),
                "{set}: frozen share {share}"
            );
            assert!(tune_groups >= split.folds && frozen_groups >= 2, "{set}");
            for f in 0..split.folds {
                assert!(
                    split
                        .documents
                        .values()
                        .any(|a| a.fold == Some(f) && a.part == Part::Tune),
                    "{set}: fold {f} empty"
                );
            }
        }
    }

    #[test]
    fn a_group_across_parts_is_refused() {
        let text = r#"{"set":"x","folds":1,"documents":{
            "a":{"group":"g","part":"tune","fold":0},
            "b":{"group":"g","part":"frozen","fold":null}}}"#;
        let split: Split = serde_json::from_str(text).expect("parse");
        assert!(split.check().unwrap_err().contains("crosses"));
        let text = r#"{"set":"x","folds":2,"documents":{
            "a":{"group":"g","part":"tune","fold":0},
            "b":{"group":"g","part":"tune","fold":1}}}"#;
        let split: Split = serde_json::from_str(text).expect("parse");
        assert!(split.check().is_err());
        let text = r#"{"set":"x","folds":2,"documents":{
            "a":{"group":"g","part":"tune","fold":0},
            "b":{"group":"h","part":"frozen","fold":null}}}"#;
        let split: Split = serde_json::from_str(text).expect("parse");
        assert!(split.check().is_ok());
        assert!(split.contains("a", Part::Tune, Some(0)));
        assert!(!split.contains("a", Part::Tune, Some(1)));
        assert!(!split.contains("b", Part::Tune, None));
        assert!(split.contains("b", Part::Frozen, None));
    }

    /// The committed files are what the script makes (needs the shared data and python3;
    /// skipped without them).
    #[test]
    fn committed_splits_are_what_the_script_makes() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let data = root.join("../../shared/data");
        if !data.join("zugferd").is_dir() || !data.join("sroie").is_dir() {
            eprintln!("skipped: no shared data at {}", data.display());
            return;
        }
        let out = std::process::Command::new("python3")
            .arg(root.join("splits/make_splits.py"))
            .arg("--check")
            .arg("--data")
            .arg(&data)
            .output();
        let Ok(out) = out else {
            eprintln!("skipped: no python3");
            return;
        };
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
