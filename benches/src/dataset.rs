//! Labelled documents in a directory: every `<id>.truth.json` with its input beside it, either a
//! document file (`<id>.pdf`, `<id>.jpg`, ...) or, in boxes mode, `<id>.boxes.txt`.

use std::path::{Path, PathBuf};

/// Document extensions looked for next to a truth file, in order of preference.
pub const DOC_EXTENSIONS: [&str; 12] = [
    "pdf", "jpg", "jpeg", "png", "tif", "tiff", "bmp", "docx", "doc", "xlsx", "xls", "rtf",
];

/// Suffix of truth files.
pub const TRUTH_SUFFIX: &str = ".truth.json";
/// Suffix of SROIE OCR box files.
pub const BOXES_SUFFIX: &str = ".boxes.txt";

/// One labelled document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelledDoc {
    /// File stem shared by the input and the truth (relative to the searched directory, with
    /// `/` between folders).
    pub id: String,
    /// The input file (document or boxes).
    pub input: PathBuf,
    /// The truth file.
    pub truth: PathBuf,
}

/// What [`discover`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    /// Documents with truth and input, sorted by id.
    pub docs: Vec<LabelledDoc>,
    /// Truth files without an input of the wanted kind.
    pub truth_without_input: usize,
}

/// Finds labelled documents under `dir` (recursively). `boxes` selects `*.boxes.txt` inputs
/// instead of document files.
pub fn discover(dir: &Path, boxes: bool) -> std::io::Result<Discovery> {
    let mut out = Discovery::default();
    walk(dir, dir, boxes, &mut out)?;
    out.docs.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

fn walk(root: &Path, dir: &Path, boxes: bool, out: &mut Discovery) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(root, &path, boxes, out)?;
            continue;
        }
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(TRUTH_SUFFIX) else {
            continue;
        };
        let input = if boxes {
            Some(path.with_file_name(format!("{stem}{BOXES_SUFFIX}"))).filter(|p| p.is_file())
        } else {
            DOC_EXTENSIONS.iter().find_map(|ext| {
                [ext.to_string(), ext.to_uppercase()]
                    .into_iter()
                    .map(|e| path.with_file_name(format!("{stem}.{e}")))
                    .find(|p| p.is_file())
            })
        };
        let Some(input) = input else {
            out.truth_without_input += 1;
            continue;
        };
        let rel = path
            .parent()
            .and_then(|p| p.strip_prefix(root).ok())
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        let id = if rel.is_empty() {
            stem.to_string()
        } else {
            format!("{rel}/{stem}")
        };
        out.docs.push(LabelledDoc {
            id,
            input,
            truth: path,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_pairs() {
        let dir = std::env::temp_dir().join(format!("folio-bench-ds-{}", std::process::id()));
        let sub = dir.join("sroie");
        std::fs::create_dir_all(&sub).expect("mkdir");
        for f in [
            "a.truth.json",
            "a.boxes.txt",
            "a.jpg",
            "b.truth.json",
            "b.boxes.txt",
            "c.pdf",
            "c.truth.json",
            "d.txt",
        ] {
            std::fs::write(sub.join(f), "{}").expect("write");
        }
        let docs = discover(&dir, false).expect("discover");
        let ids: Vec<&str> = docs.docs.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["sroie/a", "sroie/c"]);
        assert_eq!(docs.truth_without_input, 1);
        assert!(docs.docs[0].input.ends_with("a.jpg"));
        let boxes = discover(&dir, true).expect("discover");
        let ids: Vec<&str> = boxes.docs.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["sroie/a", "sroie/b"]);
        assert_eq!(boxes.truth_without_input, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
