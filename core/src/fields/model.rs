//! The learned field scorer: a gradient-boosted model trained by `models/train.py` on the
//! vectors of [`super::vector`], exported to ONNX, with its isotonic calibration so that a score
//! is the probability that the chosen candidate is right. Fields the model does not score go to
//! the rules. A model of the family `train.py` exports (one binary `TreeEnsembleClassifier`),
//! the embedded one included, is evaluated natively ([`super::trees`]) without onnxruntime;
//! any other ONNX model runs through onnxruntime (`ort`, loaded at run time).

use super::calibrated::Curve;
use super::features::{CandidateFeatures, Field, FieldScorer, MIN_SCORE, RuleScorer};
use super::trees::TreeEnsemble;
use super::vector::{MODEL_FIELDS, feature_count, feature_vector};
use crate::error::{Error, Result};
use crate::runtime::NativeLibrary;
use ort::session::Session;
use ort::value::{Tensor, ValueType};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The model committed in `models/` (built into the library: the engine's default).
pub const EMBEDDED_MODEL: &[u8] = include_bytes!("../../../models/fields.onnx");
/// Its calibration.
pub const EMBEDDED_CALIBRATION: &str = include_str!("../../../models/fields.calibration.json");

/// Environment variable naming the onnxruntime library.
pub const ORT_ENV: &str = "ORT_DYLIB_PATH";
/// The onnxruntime release the engine is built against (the `onnxruntime` PyPI package ships it).
pub const ORT_LIBRARY: &str = "libonnxruntime.so.1.31.1";

/// onnxruntime as a native library to search for.
fn native_library(explicit: Option<&Path>) -> NativeLibrary {
    NativeLibrary {
        file_name: PathBuf::from(ORT_LIBRARY),
        env: ORT_ENV,
        venv_package: "onnxruntime/capi",
        explicit: explicit.map(Path::to_path_buf),
    }
}

/// Candidate locations of onnxruntime in search order (existing or not; the first loadable one
/// is loaded).
pub fn library_candidates(explicit: Option<&Path>) -> Vec<PathBuf> {
    crate::runtime::library_candidates(&native_library(explicit))
}

/// The onnxruntime environment this process created, and the library it was loaded from (one per
/// process: onnxruntime's API is process-wide).
static ORT: Mutex<Option<Loaded>> = Mutex::new(None);

/// The loaded onnxruntime: its environment and the file it was loaded from.
type Loaded = (&'static ort::environment::Environment, &'static Path);

/// The process's onnxruntime, loaded by the first call (an engine whose model runs through
/// onnxruntime calls this when it is built; a natively evaluated model needs none, and loads
/// none) from the first loadable library of the search order. Once loaded it
/// serves every later call; one whose `explicit` setting names a different existing file gets
/// `INVALID_ARGUMENT` naming both. A failed search is `RUNTIME_MISSING` and not remembered.
/// Returns the environment and the library's path.
pub(crate) fn runtime(explicit: Option<&Path>) -> Result<Loaded> {
    let lib = native_library(explicit);
    let mut loaded = ORT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((env, path)) = *loaded {
        crate::runtime::check_loaded(&lib, "onnxruntime", path)?;
        return Ok((env, path));
    }
    let mut tried = Vec::new();
    for path in crate::runtime::library_candidates(&lib) {
        if !path.is_file() {
            tried.push(format!("{} (absent)", path.display()));
            continue;
        }
        match ort::init_from(&path) {
            Ok(builder) => {
                let env = builder.with_name("folio").build().map_err(|e| {
                    Error::RuntimeMissing(format!("onnxruntime {}: {e}", path.display()))
                })?;
                let env: &'static ort::environment::Environment = Box::leak(Box::new(env));
                let path: &'static Path = Box::leak(path.into_boxed_path());
                *loaded = Some((env, path));
                return Ok((env, path));
            }
            Err(e) => tried.push(format!("{} ({e})", path.display())),
        }
    }
    Err(Error::RuntimeMissing(format!(
        "onnxruntime ({ORT_LIBRARY}) not found or not loadable; tried: {}. Install it with \
         `bash scripts/setup.sh` (onnxruntime in the project's .venv), point {ORT_ENV} or the \
         `onnxruntime_library` setting at it, or choose `\"scorer\": \"rules\"`",
        if tried.is_empty() {
            "nothing".into()
        } else {
            tried.join(", ")
        }
    )))
}

/// Loads the process's onnxruntime now (as an engine whose model runs through it does when it is
/// built) and returns the file it was loaded from; `explicit` as the `onnxruntime_library`
/// setting. Once loaded, a request naming another existing file is `INVALID_ARGUMENT`.
pub fn load_onnxruntime(explicit: Option<&Path>) -> Result<PathBuf> {
    runtime(explicit).map(|(_, path)| path.to_path_buf())
}

/// The map for documents the OCR read poorly: it applies when the mean OCR confidence of the
/// document's words is below `below`.
#[derive(Debug, Deserialize)]
struct NoisyCurve {
    below: f32,
    #[serde(flatten)]
    curve: Curve,
}

/// The calibration file: `{"x": [...], "y": [...]}`, and optionally `"ocr": {"x", "y"}`, a
/// separate map for candidates read by OCR (word confidence below 1), which the same raw score
/// makes less often right than a text layer's, and `"noisy": {"below", "x", "y"}` for every
/// candidate of a document read poorly (receipt photos): there the right value is often not
/// among the candidates at all, so the best one is right less often still.
///
/// `"fill": {"total": 0.45, ...}`, optional: per field, the calibrated probability the best
/// candidate needs for the field to be filled. Filling a value that is right with probability
/// p adds p expected correct answers and one prediction; for F1 this pays when p is above half
/// the F1 reached, so `models/train.py` sets each field's threshold to half the best F1 its
/// calibrated cross-validated choices reach. Fields without one use [`MIN_SCORE`]. (Should a
/// loaded model fail at run time, the rules' scores of that call face the same thresholds:
/// such a field is left empty rather than filled on a weaker rule score.)
///
/// `"rules_fields": ["payable", ...]`, optional: fields the model could score but whose
/// cross-validated F1 it did not reach (`models/train.py` compares the whole engine both ways
/// per field): the rules keep choosing them, at the rules' threshold.
#[derive(Debug, Deserialize)]
struct Calibration {
    #[serde(flatten)]
    text: Curve,
    #[serde(default)]
    ocr: Option<Curve>,
    #[serde(default)]
    noisy: Option<NoisyCurve>,
    #[serde(default)]
    fill: HashMap<Field, f32>,
    #[serde(default)]
    rules_fields: Vec<Field>,
}

impl Calibration {
    fn parse(text: &str) -> Result<Self> {
        let c: Calibration =
            serde_json::from_str(text).map_err(|e| Error::Model(format!("calibration: {e}")))?;
        c.text.check("")?;
        if let Some(o) = &c.ocr {
            o.check(" (ocr)")?;
        }
        if let Some(n) = &c.noisy {
            n.curve.check(" (noisy)")?;
            if !(0.0..=1.0).contains(&n.below) {
                return Err(Error::Model(
                    "calibration (noisy): `below` must be within 0..1".into(),
                ));
            }
        }
        if let Some((f, t)) = c.fill.iter().find(|(_, t)| !(0.0..=1.0).contains(*t)) {
            return Err(Error::Model(format!(
                "calibration: the fill threshold of {f:?} ({t}) must be within 0..1"
            )));
        }
        Ok(c)
    }

    /// The calibrated probability of a raw score for a candidate of this OCR confidence in a
    /// document of this mean OCR confidence.
    fn apply(&self, p: f32, ocr_confidence: f32, doc_ocr_confidence: f32) -> f32 {
        if let Some(n) = &self.noisy
            && doc_ocr_confidence < n.below
        {
            return n.curve.apply(p);
        }
        match &self.ocr {
            Some(o) if ocr_confidence < 1.0 => o.apply(p),
            _ => self.text.apply(p),
        }
    }
}

/// What evaluates the model.
enum Backend {
    /// The tree ensemble family, evaluated here.
    Native(TreeEnsemble),
    /// Any other model: an onnxruntime session, its input and its `probabilities` output.
    Ort {
        session: Mutex<Session>,
        input: String,
        output: String,
    },
}

/// The learned scorer.
pub struct ModelScorer {
    backend: Backend,
    calibration: Calibration,
    rules: RuleScorer,
}

impl std::fmt::Debug for ModelScorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("ModelScorer");
        match &self.backend {
            Backend::Native(t) => d.field("native_trees", &t.features()),
            Backend::Ort { input, output, .. } => d.field("input", input).field("output", output),
        };
        d.finish()
    }
}

impl ModelScorer {
    /// The embedded model (evaluated natively: `onnxruntime` is not loaded for it).
    pub fn embedded(onnxruntime: Option<&Path>) -> Result<Self> {
        Self::from_bytes(EMBEDDED_MODEL, EMBEDDED_CALIBRATION, onnxruntime)
    }

    /// A model file and its calibration file (`<model>.calibration.json` by default).
    pub fn from_files(
        model: &Path,
        calibration: Option<&Path>,
        onnxruntime: Option<&Path>,
    ) -> Result<Self> {
        let bytes = std::fs::read(model)
            .map_err(|e| Error::Model(format!("model {}: {e}", model.display())))?;
        let cal_path = calibration
            .map(Path::to_path_buf)
            .unwrap_or_else(|| model.with_extension("calibration.json"));
        let cal = std::fs::read_to_string(&cal_path)
            .map_err(|e| Error::Model(format!("calibration {}: {e}", cal_path.display())))?;
        Self::from_bytes(&bytes, &cal, onnxruntime)
    }

    /// A model in memory; checks its input and output names and shapes. A model of the tree
    /// ensemble family is evaluated natively; any other runs through onnxruntime, found by the
    /// documented search order (`onnxruntime`: an explicit library path or its directory).
    pub fn from_bytes(model: &[u8], calibration: &str, onnxruntime: Option<&Path>) -> Result<Self> {
        let calibration = Calibration::parse(calibration)?;
        if let Some(trees) = TreeEnsemble::from_onnx(model, feature_count())? {
            return Ok(ModelScorer {
                backend: Backend::Native(trees),
                calibration,
                rules: RuleScorer,
            });
        }
        Self::with_onnxruntime(model, calibration, onnxruntime)
    }

    /// A model run by onnxruntime; checks its input and output names and shapes.
    fn with_onnxruntime(
        model: &[u8],
        calibration: Calibration,
        onnxruntime: Option<&Path>,
    ) -> Result<Self> {
        let (env, _) = runtime(onnxruntime)?;
        let load = |e: String| Error::Model(format!("cannot load the field model: {e}"));
        let mut builder = Session::builder(env)
            .map_err(|e| load(e.to_string()))?
            .with_intra_threads(1)
            .map_err(|e| load(e.to_string()))?;
        let session = builder
            .commit_from_memory(model)
            .map_err(|e| load(e.to_string()))?;
        let n = feature_count() as i64;
        let inputs = session.inputs();
        let [inp] = inputs else {
            return Err(Error::Model(format!(
                "the field model must have one input, it has {}",
                inputs.len()
            )));
        };
        match inp.dtype() {
            ValueType::Tensor { shape, .. }
                if shape.len() == 2 && (shape[1] == n || shape[1] < 0) => {}
            other => {
                return Err(Error::Model(format!(
                    "the field model's input {:?} must be float[N, {n}], it is {other:?}",
                    inp.name()
                )));
            }
        }
        let output = session
            .outputs()
            .iter()
            .find(|o| o.name() == "probabilities")
            .ok_or_else(|| Error::Model("the field model has no `probabilities` output".into()))?;
        match output.dtype() {
            ValueType::Tensor { shape, .. }
                if shape.len() == 2 && (shape[1] == 2 || shape[1] < 0) => {}
            other => {
                return Err(Error::Model(format!(
                    "the field model's `probabilities` must be float[N, 2], it is {other:?}"
                )));
            }
        }
        Ok(ModelScorer {
            backend: Backend::Ort {
                input: inp.name().to_string(),
                output: output.name().to_string(),
                session: Mutex::new(session),
            },
            calibration,
            rules: RuleScorer,
        })
    }

    /// Raw model probabilities (of the positive class) of rows (`rows.len() / feature_count()`
    /// of them).
    fn run(&self, rows: Vec<f32>) -> Result<Vec<f32>> {
        Ok(self
            .probabilities(rows)?
            .into_iter()
            .map(|p| p[1])
            .collect())
    }

    /// The model's `probabilities` of rows, both columns.
    fn probabilities(&self, rows: Vec<f32>) -> Result<Vec<[f32; 2]>> {
        let n = feature_count();
        let count = rows.len() / n;
        let (session, input, output) = match &self.backend {
            Backend::Native(trees) => {
                return Ok(rows
                    .chunks_exact(n)
                    .map(|row| trees.predict_row(row))
                    .collect());
            }
            Backend::Ort {
                session,
                input,
                output,
            } => (session, input, output),
        };
        let tensor = Tensor::from_array(([count, n], rows))
            .map_err(|e| Error::Model(format!("model input: {e}")))?;
        let mut session = session
            .lock()
            .map_err(|_| Error::Internal("model session lock poisoned".into()))?;
        let out = session
            .run(ort::inputs![input.as_str() => tensor])
            .map_err(|e| Error::Model(format!("model run: {e}")))?;
        let probs = out[output.as_str()]
            .try_extract_array::<f32>()
            .map_err(|e| Error::Model(format!("model output: {e}")))?;
        if probs.shape() != [count, 2] {
            return Err(Error::Model(format!(
                "model output shape {:?}, expected [{count}, 2]",
                probs.shape()
            )));
        }
        Ok((0..count).map(|i| [probs[[i, 0]], probs[[i, 1]]]).collect())
    }

    /// Calibrated scores of candidates for a field the model scores; a tiny share of the raw
    /// probability keeps candidates that calibrate to one value in the model's order.
    /// Candidates the field does not admit score 0 without a model run.
    fn model_scores(&self, field: Field, feats: &[&CandidateFeatures]) -> Result<Vec<f32>> {
        let mut rows = Vec::with_capacity(feats.len() * feature_count());
        let mut scored = Vec::with_capacity(feats.len());
        for (i, f) in feats.iter().enumerate() {
            if let Some(v) = feature_vector(field, f) {
                rows.extend(v);
                scored.push(i);
            }
        }
        let mut out = vec![0.0; feats.len()];
        if scored.is_empty() {
            return Ok(out);
        }
        for (p, i) in self.run(rows)?.into_iter().zip(scored) {
            let f = feats[i];
            out[i] = self
                .calibration
                .apply(p, f.ocr_confidence, f.doc_ocr_confidence)
                + 1e-4 * p;
        }
        Ok(out)
    }
}

impl ModelScorer {
    /// Whether the model chooses this field (it scores it, and the calibration does not leave
    /// it to the rules).
    pub fn learns(&self, field: Field) -> bool {
        MODEL_FIELDS.contains(&field) && !self.calibration.rules_fields.contains(&field)
    }
}

impl FieldScorer for ModelScorer {
    fn name(&self) -> &str {
        "model"
    }

    fn score(&self, field: Field, f: &CandidateFeatures) -> f32 {
        self.score_batch(field, &[f])[0]
    }

    fn score_batch(&self, field: Field, feats: &[&CandidateFeatures]) -> Vec<f32> {
        if feats.is_empty() {
            return Vec::new();
        }
        if self.learns(field) {
            // A model that fails at run time (it loaded and was checked) falls back to the rules
            // for this call rather than losing the document.
            if let Ok(s) = self.model_scores(field, feats) {
                return s;
            }
        }
        feats.iter().map(|f| self.rules.score(field, f)).collect()
    }

    fn fill_threshold(&self, field: Field) -> f32 {
        match self.calibration.fill.get(&field) {
            Some(t) if self.learns(field) => *t,
            _ => MIN_SCORE,
        }
    }

    fn learned_models(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_interpolates_and_clamps() {
        let c = Calibration::parse(r#"{"x": [0.1, 0.5, 0.9], "y": [0.0, 0.4, 1.0]}"#).unwrap();
        assert_eq!(c.apply(0.0, 1.0, 1.0), 0.0);
        assert_eq!(c.apply(1.0, 1.0, 1.0), 1.0);
        assert!((c.apply(0.3, 1.0, 1.0) - 0.2).abs() < 1e-6);
        assert!((c.apply(0.7, 1.0, 1.0) - 0.7).abs() < 1e-6);
        // Without an OCR map, OCR candidates use the one map.
        assert!((c.apply(0.7, 0.8, 0.9) - 0.7).abs() < 1e-6);
        assert!(Calibration::parse(r#"{"x": [0.5, 0.1], "y": [0, 1]}"#).is_err());
        assert!(Calibration::parse(r#"{"x": [], "y": []}"#).is_err());
        assert!(EMBEDDED_CALIBRATION.contains("\"x\""));
        assert!(Calibration::parse(EMBEDDED_CALIBRATION).is_ok());
    }

    #[test]
    fn ocr_candidates_have_their_own_map() {
        let c = Calibration::parse(
            r#"{"x": [0, 1], "y": [0, 1], "ocr": {"x": [0, 1], "y": [0, 0.5]}}"#,
        )
        .unwrap();
        assert!((c.apply(0.8, 1.0, 1.0) - 0.8).abs() < 1e-6);
        assert!((c.apply(0.8, 0.93, 0.93) - 0.4).abs() < 1e-6);
        assert!(
            Calibration::parse(r#"{"x": [0, 1], "y": [0, 1], "ocr": {"x": [1, 0], "y": [0, 1]}}"#)
                .is_err()
        );
    }

    #[test]
    fn poorly_read_documents_have_their_own_map() {
        let c = Calibration::parse(
            r#"{"x": [0, 1], "y": [0, 1], "ocr": {"x": [0, 1], "y": [0, 0.5]},
                "noisy": {"below": 0.85, "x": [0, 1], "y": [0, 0.25]}}"#,
        )
        .unwrap();
        assert!((c.apply(0.8, 0.93, 0.9) - 0.4).abs() < 1e-6);
        // Every candidate of a poorly read document, whatever its own confidence.
        assert!((c.apply(0.8, 0.93, 0.7) - 0.2).abs() < 1e-6);
        assert!((c.apply(0.8, 1.0, 0.7) - 0.2).abs() < 1e-6);
        assert!((c.apply(0.8, 1.0, 1.0) - 0.8).abs() < 1e-6);
        let bad = r#"{"x": [0, 1], "y": [0, 1], "noisy": {"below": 2, "x": [0, 1], "y": [0, 1]}}"#;
        assert!(Calibration::parse(bad).is_err());
    }

    #[test]
    fn fill_thresholds_are_per_field_probabilities() {
        let c = Calibration::parse(
            r#"{"x": [0, 1], "y": [0, 1], "fill": {"total": 0.46, "date": 0.48}}"#,
        )
        .unwrap();
        assert_eq!(c.fill.get(&Field::Total), Some(&0.46));
        assert_eq!(c.fill.get(&Field::Number), None);
        assert!(
            Calibration::parse(r#"{"x": [0, 1], "y": [0, 1]}"#)
                .unwrap()
                .fill
                .is_empty()
        );
        for bad in [
            r#"{"total": 1.5}"#,
            r#"{"total": -0.1}"#,
            r#"{"colour": 0.5}"#,
        ] {
            let text = format!(r#"{{"x": [0, 1], "y": [0, 1], "fill": {bad}}}"#);
            assert!(Calibration::parse(&text).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_embedded_model_fills_by_its_thresholds() {
        let m = ModelScorer::embedded(None).expect("model loads (bash scripts/setup.sh)");
        for f in MODEL_FIELDS {
            let t = m.fill_threshold(f);
            let expected = match m.calibration.fill.get(&f) {
                Some(t) if m.learns(f) => *t,
                _ => MIN_SCORE,
            };
            assert_eq!(t, expected, "{f:?}");
            assert!((0.0..=1.0).contains(&t));
        }
        assert!(
            !m.calibration.fill.is_empty(),
            "train.py writes fill thresholds"
        );
        // Fields the rules score keep the rules' threshold.
        assert_eq!(m.fill_threshold(Field::Discount), MIN_SCORE);
    }

    #[test]
    fn fields_left_to_the_rules_are_scored_by_the_rules() {
        use crate::candidates::CandidateKind;
        use crate::fields::features::plain_features;
        let mut cal: serde_json::Value = serde_json::from_str(EMBEDDED_CALIBRATION).unwrap();
        cal["fill"]["payable"] = serde_json::json!(0.9);
        cal["rules_fields"] = serde_json::json!(["payable"]);
        let m = ModelScorer::from_bytes(EMBEDDED_MODEL, &cal.to_string(), None).unwrap();
        assert!(!m.learns(Field::Payable));
        assert!(m.learns(Field::Total));
        assert!(!m.learns(Field::Discount));
        let amount = plain_features(CandidateKind::Amount);
        assert_eq!(
            m.score_batch(Field::Payable, &[&amount]),
            vec![m.rules.score(Field::Payable, &amount)]
        );
        assert_eq!(
            m.fill_threshold(Field::Payable),
            MIN_SCORE,
            "not the model's 0.9"
        );
        assert!(
            Calibration::parse(r#"{"x": [0, 1], "y": [0, 1], "rules_fields": ["nope"]}"#).is_err(),
            "an unknown field is a model error"
        );
    }

    #[test]
    fn the_embedded_model_loads_and_scores() {
        let m = ModelScorer::embedded(None).expect("model loads (bash scripts/setup.sh)");
        let raw = m.run(vec![0.0; feature_count() * 3]).expect("runs");
        assert_eq!(raw.len(), 3);
        assert!(raw.iter().all(|p| (0.0..=1.0).contains(p)));
    }

    #[test]
    fn the_model_never_scores_a_value_of_the_wrong_type() {
        use crate::candidates::CandidateKind;
        use crate::fields::features::plain_features;
        let m = ModelScorer::embedded(None).expect("model loads (bash scripts/setup.sh)");
        let amount = plain_features(CandidateKind::Amount);
        let date = plain_features(CandidateKind::Date);
        let s = m.score_batch(Field::Date, &[&amount, &date, &amount]);
        assert_eq!(s.len(), 3);
        assert_eq!((s[0], s[2]), (0.0, 0.0));
        assert!(s[1] > 0.0, "a date is scored as a date: {}", s[1]);
        assert_eq!(
            m.score_batch(Field::Number, &[&amount, &date]),
            vec![0.0, 0.0]
        );
    }

    /// The embedded model run by onnxruntime (loaded from the .venv as the engine does).
    fn embedded_with_onnxruntime() -> ModelScorer {
        let cal = Calibration::parse(EMBEDDED_CALIBRATION).unwrap();
        let m = ModelScorer::with_onnxruntime(EMBEDDED_MODEL, cal, None)
            .expect("onnxruntime loads (bash scripts/setup.sh)");
        assert!(matches!(m.backend, Backend::Ort { .. }));
        m
    }

    fn assert_same_probabilities(native: &ModelScorer, ort: &ModelScorer, rows: Vec<f32>) {
        let a = native.probabilities(rows.clone()).unwrap();
        let b = ort.probabilities(rows).unwrap();
        assert_eq!(a.len(), b.len());
        for (i, (a, b)) in a.iter().zip(&b).enumerate() {
            let worst = (a[0] - b[0]).abs().max((a[1] - b[1]).abs());
            assert!(worst <= 1e-5, "row {i}: native {a:?}, onnxruntime {b:?}");
        }
    }

    /// Feature vectors of every candidate of the fixture documents that need no OCR, per field.
    fn fixture_candidates() -> Vec<(String, Field, Vec<CandidateFeatures>)> {
        use crate::{CancelToken, Engine, EngineConfig, RecognizeOptions, ScorerKind};
        use crate::{candidates, clean, fields::features};
        let engine = Engine::new(EngineConfig {
            scorer: ScorerKind::Rules,
            ..EngineConfig::default()
        })
        .unwrap();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/docs");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                !name.ends_with(".json") && !name.starts_with("bad_") && !name.contains("scan")
            })
            .collect();
        paths.sort();
        let mut out = Vec::new();
        for path in paths {
            let bytes = std::fs::read(&path).unwrap();
            let opts = RecognizeOptions::default();
            let Ok(pages) = engine.extract_text_pages(&bytes, &opts, &|_| {}, &CancelToken::new())
            else {
                continue;
            };
            let doc = clean::clean(&pages);
            let cands = candidates::extract(&doc);
            let ctx = features::FeatureContext::new(&doc, &cands);
            let feats: Vec<CandidateFeatures> = (0..cands.items.len())
                .filter_map(|i| features::candidate_features(&ctx, &cands, i))
                .collect();
            for field in MODEL_FIELDS {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                out.push((name, field, feats.clone()));
            }
        }
        out
    }

    #[test]
    fn the_native_evaluator_equals_onnxruntime_on_the_fixtures() {
        let native = ModelScorer::embedded(None).unwrap();
        assert!(matches!(native.backend, Backend::Native(_)));
        let ort = embedded_with_onnxruntime();
        let docs = fixture_candidates();
        let mut rows = Vec::new();
        let mut chosen = 0;
        for (doc, field, feats) in &docs {
            for f in feats {
                if let Some(v) = feature_vector(*field, f) {
                    rows.extend(v);
                }
            }
            let refs: Vec<&CandidateFeatures> = feats.iter().collect();
            let (a, b) = (
                native.score_batch(*field, &refs),
                ort.score_batch(*field, &refs),
            );
            let best = |s: &[f32]| {
                (0..s.len()).fold(None, |best: Option<usize>, i| match best {
                    Some(j) if s[j] >= s[i] => Some(j),
                    _ => Some(i),
                })
            };
            assert_eq!(best(&a), best(&b), "{doc} {field:?}: {a:?} vs {b:?}");
            chosen += usize::from(best(&a).is_some());
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() <= 1e-5, "{doc} {field:?}: {x} vs {y}");
            }
        }
        let count = rows.len() / feature_count();
        assert!(
            count >= 300 && chosen >= 40,
            "{count} rows, {chosen} choices"
        );
        assert_same_probabilities(&native, &ort, rows);
    }

    #[test]
    fn the_native_evaluator_equals_onnxruntime_on_random_rows() {
        let native = ModelScorer::embedded(None).unwrap();
        let ort = embedded_with_onnxruntime();
        let Backend::Native(trees) = &native.backend else {
            panic!("native")
        };
        // Values at, just below and just above the model's own thresholds, 0/1 flags, wide
        // values and missing ones (NaN), so that every branch is taken both ways.
        let mut thresholds: Vec<f32> = Vec::new();
        trees.visit_thresholds(|t| thresholds.push(t));
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let n = feature_count();
        let mut rows = Vec::new();
        for _ in 0..3000 * n {
            let r = next();
            let t = thresholds[(r >> 8) as usize % thresholds.len()];
            rows.push(match r % 8 {
                0 => t,
                1 => t.next_down(),
                2 => t.next_up(),
                3 => (r >> 40) as f32 / (1u64 << 24) as f32 * 4.0 - 1.0,
                4 => ((r >> 20) & 1) as f32,
                5 => (r >> 33) as f32 - 1e9,
                6 if r % 64 < 8 => f32::NAN,
                _ => 0.0,
            });
        }
        assert_same_probabilities(&native, &ort, rows);
    }

    #[test]
    fn the_native_evaluator_equals_onnxruntime_on_every_variant() {
        use super::super::trees::encode::Trees;
        let n = feature_count();
        let mut variants = Vec::new();
        for base in [vec![], vec![-0.3], vec![0.2, -0.7]] {
            for transform in ["NONE", "LOGISTIC"] {
                for positive in [false, true] {
                    let mut t = Trees::sample();
                    t.base_values = base.clone();
                    t.post_transform = transform;
                    if positive {
                        t.class_weights = t.class_weights.iter().map(|w| w.abs() / 8.0).collect();
                    }
                    variants.push(t);
                }
            }
        }
        let mut rows = Vec::new();
        for x0 in [-2.0, -1.0, 0.5, 0.6, f32::NAN] {
            for x1 in [0.0, 0.25, 2.0, f32::NAN] {
                for x2 in [0.99, 1.0, 3.0, f32::NAN] {
                    let mut row = vec![0.0; n];
                    row[..3].copy_from_slice(&[x0, x1, x2]);
                    rows.extend(row);
                }
            }
        }
        for t in variants {
            let bytes = t.onnx(n as i64);
            let native = ModelScorer::from_bytes(&bytes, EMBEDDED_CALIBRATION, None).unwrap();
            assert!(matches!(native.backend, Backend::Native(_)));
            let cal = Calibration::parse(EMBEDDED_CALIBRATION).unwrap();
            let ort = ModelScorer::with_onnxruntime(&bytes, cal, None).expect("onnxruntime");
            assert_same_probabilities(&native, &ort, rows.clone());
        }
    }

    #[test]
    fn a_wrong_model_is_a_model_error() {
        if runtime(None).is_err() {
            return;
        }
        let e = ModelScorer::from_bytes(b"not onnx", EMBEDDED_CALIBRATION, None).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::ModelError);
        let e = ModelScorer::from_bytes(EMBEDDED_MODEL, "{}", None).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::ModelError);
    }
}
