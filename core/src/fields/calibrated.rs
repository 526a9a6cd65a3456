//! Calibrated tree ensembles: the isotonic map from a model's raw probability to the observed
//! probability of being right ([`Curve`], also the field model's, [`super::model`]), and a binary
//! tree-ensemble model with one map and per-key fill thresholds ([`CalibratedTrees`]: what the
//! party model, [`super::party_model`], and the choice model, [`super::choice_model`], are made
//! of).

use super::trees::TreeEnsemble;
use crate::error::{Error, Result};
use serde::Deserialize;

/// One isotonic map from the model's raw probability to the observed probability of being right.
#[derive(Debug, Deserialize)]
pub(crate) struct Curve {
    pub(crate) x: Vec<f32>,
    pub(crate) y: Vec<f32>,
}

impl Curve {
    pub(crate) fn check(&self, what: &str) -> Result<()> {
        let sorted = self.x.windows(2).all(|w| w[0] <= w[1]);
        if self.x.is_empty() || self.x.len() != self.y.len() || !sorted {
            return Err(Error::Model(format!(
                "calibration{what}: x and y must be equally long, non-empty, x ascending"
            )));
        }
        Ok(())
    }

    /// The calibrated probability of a raw score (piecewise linear, clamped at the ends).
    pub(crate) fn apply(&self, p: f32) -> f32 {
        let (x, y) = (&self.x, &self.y);
        if p <= x[0] {
            return y[0];
        }
        if p >= x[x.len() - 1] {
            return y[y.len() - 1];
        }
        let i = x.partition_point(|v| *v <= p);
        let (x0, x1, y0, y1) = (x[i - 1], x[i], y[i - 1], y[i]);
        if x1 <= x0 {
            y1
        } else {
            y0 + (y1 - y0) * (p - x0) / (x1 - x0)
        }
    }
}

/// Isotonic map from the raw probability to the observed probability of being right, with the
/// calibrated probability each role (or kind) needs to be filled: the calibration file of the
/// party model and of the choice model ([`super::choice_model`]).
#[derive(Debug, Deserialize)]
pub(crate) struct Calibration {
    #[serde(flatten)]
    curve: Curve,
    /// Per role or kind, the calibrated probability the best candidate needs to be taken.
    #[serde(default)]
    pub(crate) fill: std::collections::HashMap<String, f32>,
}

impl Calibration {
    /// Parses a calibration file and checks it (`what` names the model in errors).
    pub(crate) fn parse(text: &str, what: &str) -> Result<Self> {
        let c: Calibration = serde_json::from_str(text)
            .map_err(|e| Error::Model(format!("{what} calibration: {e}")))?;
        let (x, y) = (&c.curve.x, &c.curve.y);
        let ok = x.len() == y.len()
            && x.windows(2).all(|w| w[0] <= w[1])
            && y.iter().all(|y| (0.0..=1.0).contains(y))
            && c.fill.values().all(|t| (0.0..=1.0).contains(t));
        if !ok {
            return Err(Error::Model(format!(
                "{what} calibration: x ascending, y and fill within 0..1, as many x as y"
            )));
        }
        Ok(c)
    }

    /// The calibrated probability of a raw one (the raw one without a map).
    pub(crate) fn apply(&self, p: f32) -> f32 {
        if self.curve.x.is_empty() {
            p
        } else {
            self.curve.apply(p)
        }
    }
}

/// A binary tree ensemble evaluated natively ([`super::trees`]) and calibrated.
#[derive(Debug)]
pub(crate) struct CalibratedTrees {
    trees: TreeEnsemble,
    calibration: Calibration,
}

impl CalibratedTrees {
    /// A model of the tree-ensemble family and its calibration; checks the input width (`what`
    /// names the model in errors).
    pub(crate) fn from_bytes(
        model: &[u8],
        calibration: &str,
        width: usize,
        what: &str,
    ) -> Result<Self> {
        let trees = TreeEnsemble::from_onnx(model, width)?.ok_or_else(|| {
            Error::Model(format!(
                "the {what} model must be a binary TreeEnsembleClassifier"
            ))
        })?;
        let calibration = Calibration::parse(calibration, what)?;
        Ok(CalibratedTrees { trees, calibration })
    }

    /// The calibrated probability of a vector (a tiny share of the raw one keeps the model's
    /// order among vectors that calibrate alike).
    pub(crate) fn score(&self, row: &[f32]) -> f32 {
        let p = self.trees.predict_row(row)[1];
        self.calibration.apply(p) + 1e-4 * p
    }

    /// The fill threshold of a role or kind (0.3 where the calibration names none).
    pub(crate) fn fill(&self, key: &str) -> f32 {
        self.calibration.fill.get(key).copied().unwrap_or(0.3)
    }

    /// The input width.
    pub(crate) fn features(&self) -> usize {
        self.trees.features()
    }
}
