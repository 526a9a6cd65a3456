//! OCR: the [`OcrEngine`] trait and the tesseract implementation (per-word boxes and confidences,
//! script detection so only the right language model runs).
//!
//! # Threads
//! Each thread keeps its own `TesseractAPI` per language string (models load once per thread,
//! never per page). libtesseract uses OpenMP inside one page: set `OMP_THREAD_LIMIT=1` in the
//! environment (the CLI and server do) and parallelise over pages instead; OpenMP on a busy
//! machine was measured ~1.9x slower per page.
//!
//! # Language choice
//! Running all six models together is slow and reads worse, so a page is read in steps:
//! 1. orientation and script detection (tesseract OSD on a downscaled copy): the page is
//!    turned upright, Latin vs Cyrillic decided;
//! 2. when several languages of that script are enabled, a probe reads the densest text band
//!    with one model and identifies the language (keywords for Latin, letters only Ukrainian /
//!    only Russian has for Cyrillic);
//! 3. the page is read with the chosen model (plus English for Latin-script words when
//!    enabled); without evidence all enabled models of the script are combined.

pub mod auto;
pub mod imageops;
pub mod lang;
pub mod ppocr;

pub use auto::AutoOcr;

use crate::error::{Error, Result};
use crate::types::{BBox, OcrEngineName, Source, TextPage, Unit, Word, median_size};
use image::GrayImage;
use lang::{LanguageSet, Script};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use tesseract_rs::{TessPageIteratorLevel, TessPageSegMode, TesseractAPI};

/// Parameters of one OCR call.
#[derive(Debug, Clone, PartialEq)]
pub struct OcrRequest<'a> {
    /// 1-based page number written into the result.
    pub page: u32,
    /// ISO 639-1 languages allowed.
    pub languages: &'a [String],
    /// Heavy path: several preprocessing variants, best-confidence reading kept.
    pub heavy: bool,
}

/// An OCR engine: image in, words with pixel boxes out.
pub trait OcrEngine: Send + Sync {
    /// Reads one page image.
    fn recognize(&self, image: &GrayImage, req: &OcrRequest<'_>) -> Result<TextPage>;
}

/// Resolution assumed for images (PDF pages are rendered at 300 DPI by default).
const ASSUMED_DPI: i32 = 300;
/// Long side of the copy OSD runs on (about 150 DPI for A4).
const OSD_LONG_SIDE: u32 = 1800;
/// OSD orientation confidence from which a page is turned.
const MIN_ORIENT_CONF: f32 = 1.5;
/// OSD script confidence from which the script is trusted.
const MIN_SCRIPT_CONF: f32 = 0.5;
/// Share of Latin look-alike letters above which a Cyrillic reading is taken for Latin capitals.
const LOOK_ALIKE_SHARE: f32 = 0.85;
/// Bands probed at most for the script decision.
const MAX_PROBE_BANDS: usize = 3;
/// Mean confidence from which the Latin probe settles the script without a Cyrillic probe.
const LATIN_PROBE_CONF: f32 = 0.80;
/// Best probe confidence below which the page is checked for rotation (OSD).
const UNREADABLE_CONF: f32 = 0.6;
/// Images narrower than this are enlarged (small receipt photos): text gets ~30 px tall.
const MIN_WIDTH: u32 = 1000;
/// Height / width ratio from which an image is read as a receipt (single column).
const RECEIPT_RATIO: f32 = 1.8;
/// Height / width ratio from which a small (enlarged) image is read as a receipt photo.
const SMALL_PHOTO_RATIO: f32 = 1.2;
/// Images wider than this (600 DPI scans) are reduced to [`REDUCED_WIDTH`]: same reading,
/// a quarter of the time.
const MAX_WIDTH: u32 = 3600;
/// Width large images are reduced to (A4 at 300 DPI).
const REDUCED_WIDTH: u32 = 2480;

/// Debian's tessdata directories (`/usr/share/tesseract-ocr/<version>/tessdata`), newest first.
fn debian_tessdata() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/share/tesseract-ocr")
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path().join("tessdata"))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs.reverse();
    dirs.push(PathBuf::from("/usr/share/tessdata"));
    dirs.push(PathBuf::from("/usr/local/share/tessdata"));
    dirs
}

/// Holds `*.traineddata`?
fn has_models(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.filter_map(|e| e.ok())
            .any(|e| e.file_name().to_string_lossy().ends_with(".traineddata"))
    })
}

/// The tessdata directory: explicit, else `TESSDATA_PREFIX` (the directory itself or its
/// `tessdata` child), else Debian's location.
pub fn find_tessdata(explicit: Option<&Path>) -> Result<PathBuf> {
    let mut tried = Vec::new();
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = explicit {
        candidates.push(p.to_path_buf());
    } else {
        if let Some(p) = std::env::var_os("TESSDATA_PREFIX").filter(|v| !v.is_empty()) {
            let p = PathBuf::from(p);
            candidates.push(p.clone());
            candidates.push(p.join("tessdata"));
        }
        candidates.extend(debian_tessdata());
    }
    for c in candidates {
        if has_models(&c) {
            return Ok(c);
        }
        tried.push(c.display().to_string());
    }
    Err(Error::RuntimeMissing(format!(
        "tesseract language data not found (looked in {}); install tesseract-ocr and the \
         tesseract-ocr-eng/deu/fra/pol/ukr/rus packages with `bash scripts/setup.sh`, or set \
         TESSDATA_PREFIX / ocr.tessdata_dir",
        tried.join(", ")
    )))
}

thread_local! {
    /// This thread's engines by (tessdata dir, language string).
    static ENGINES: RefCell<HashMap<(PathBuf, String), Rc<TesseractAPI>>> =
        RefCell::new(HashMap::new());
}

/// Tesseract through libtesseract (one `TesseractAPI` per thread and language set).
pub struct TesseractOcr {
    tessdata: PathBuf,
}

impl std::fmt::Debug for TesseractOcr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TesseractOcr")
            .field("tessdata", &self.tessdata)
            .finish()
    }
}

/// One reading of an image.
#[derive(Debug, Clone, Default)]
struct Reading {
    words: Vec<Word>,
}

impl Reading {
    /// The page `page` of the result: this reading of `img` (pixels) by `engine`, `img` being
    /// the page image handed to the OCR turned clockwise by `rotation` degrees.
    fn into_page(
        self,
        page: u32,
        img: &GrayImage,
        engine: OcrEngineName,
        rotation: i32,
    ) -> TextPage {
        TextPage {
            page,
            width: img.width() as f32,
            height: img.height() as f32,
            unit: Unit::Px,
            source: Source::Ocr,
            engine: Some(engine),
            rotation: quarter_turn(rotation),
            words: self.words,
        }
    }

    /// Mean word confidence weighted by word length (0..1).
    fn mean_conf(&self) -> f32 {
        let (mut s, mut n) = (0f32, 0f32);
        for w in &self.words {
            let l = w.text.chars().count() as f32;
            s += w.confidence * l;
            n += l;
        }
        if n == 0.0 { 0.0 } else { s / n }
    }

    fn chars(&self) -> usize {
        self.words.iter().map(|w| w.text.chars().count()).sum()
    }

    fn text(&self) -> String {
        let v: Vec<&str> = self.words.iter().map(|w| w.text.as_str()).collect();
        v.join(" ")
    }
}

/// A clockwise turn in degrees as [`TextPage::rotation`] states it: 0, 90, 180 or 270 (a turn
/// that is no multiple of 90 turns nothing: 0).
fn quarter_turn(deg: i32) -> u16 {
    match deg.rem_euclid(360) {
        d @ (90 | 180 | 270) => d as u16,
        _ => 0,
    }
}

/// `page` as read from an image that had been turned clockwise by `turn` degrees before the
/// reader got it: the turns add up.
pub(crate) fn turned_by(mut page: TextPage, turn: i32) -> TextPage {
    page.rotation = quarter_turn(i32::from(page.rotation) + turn);
    page
}

/// Outcome of orientation and script detection.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Osd {
    /// Clockwise turn that makes the page upright.
    rotate_cw: i32,
    script: Option<Script>,
}

impl TesseractOcr {
    /// Checks that the language data exists and prepares per-thread engines.
    pub fn new(params: &crate::config::OcrParams) -> Result<Self> {
        let tessdata = find_tessdata(params.tessdata_dir.as_deref())?;
        if tessdata.to_str().is_none() {
            return Err(Error::InvalidArgument(format!(
                "tessdata path {} is not valid UTF-8",
                tessdata.display()
            )));
        }
        Ok(TesseractOcr { tessdata })
    }

    /// The tessdata directory in use.
    pub fn tessdata(&self) -> &Path {
        &self.tessdata
    }

    fn check_models(&self, models: &[&str]) -> Result<()> {
        for m in models {
            if !self.tessdata.join(format!("{m}.traineddata")).is_file() {
                return Err(Error::RuntimeMissing(format!(
                    "tesseract model {m}.traineddata not found in {}; install the Debian \
                     package {} (`bash scripts/setup.sh`)",
                    self.tessdata.display(),
                    lang::package_of(m)
                )));
            }
        }
        Ok(())
    }

    /// This thread's engine for `langs`, created (model loaded) on first use.
    fn api(&self, langs: &str) -> Result<Rc<TesseractAPI>> {
        let key = (self.tessdata.clone(), langs.to_string());
        if let Some(api) = ENGINES.with(|e| e.borrow().get(&key).cloned()) {
            return Ok(api);
        }
        let models: Vec<&str> = langs.split('+').collect();
        self.check_models(&models)?;
        let api = TesseractAPI::new();
        api.init(&self.tessdata, langs).map_err(|e| {
            Error::RuntimeMissing(format!(
                "tesseract could not load {langs} from {}: {e}",
                self.tessdata.display()
            ))
        })?;
        // Word boxes only: no dictionary-driven hyphen joining across lines.
        let _ = api.set_variable("debug_file", "/dev/null");
        let api = Rc::new(api);
        ENGINES.with(|e| e.borrow_mut().insert(key, api.clone()));
        Ok(api)
    }

    /// One tesseract pass over `img` with `langs` and `psm`; boxes divided by `unscale`.
    fn read(
        &self,
        img: &GrayImage,
        langs: &str,
        psm: TessPageSegMode,
        unscale: f32,
    ) -> Result<Reading> {
        let api = self.api(langs)?;
        let ocr_err = |what: &str, e: tesseract_rs::TesseractError| {
            Error::OcrFailed(format!("{what} ({langs}): {e}"))
        };
        let (w, h) = img.dimensions();
        let (wi, hi) = match (i32::try_from(w), i32::try_from(h)) {
            (Ok(a), Ok(b)) if a > 0 && b > 0 => (a, b),
            _ => return Ok(Reading::default()),
        };
        api.set_page_seg_mode(psm)
            .map_err(|e| ocr_err("page segmentation mode", e))?;
        api.set_image(img.as_raw(), wi, hi, 1, wi)
            .map_err(|e| ocr_err("set image", e))?;
        api.set_source_resolution(ASSUMED_DPI)
            .map_err(|e| ocr_err("resolution", e))?;
        let dbg_t = std::time::Instant::now();
        api.recognize().map_err(|e| ocr_err("recognize", e))?;
        if std::env::var_os("FOLIO_OCR_DBG").is_some() {
            eprintln!(
                "DBG read {langs} {psm:?} {w}x{h} {:.3}s",
                dbg_t.elapsed().as_secs_f64()
            );
        }
        let mut words = Vec::new();
        // No iterator / no first word: a page without text, not an error.
        if let Ok(it) = api.get_iterator() {
            let k = 1.0 / unscale.max(1e-3);
            loop {
                if let Ok((text, l, t, r, b, conf)) = it.get_word_with_bounds() {
                    let text = text.trim();
                    if !text.is_empty() {
                        words.push(Word {
                            text: text.to_string(),
                            bbox: BBox::new(l as f32 * k, t as f32 * k, r as f32 * k, b as f32 * k),
                            confidence: (conf / 100.0).clamp(0.0, 1.0),
                        });
                    }
                } else if words.is_empty() {
                    break;
                }
                match it.next(TessPageIteratorLevel::RIL_WORD) {
                    Ok(true) => {}
                    _ => break,
                }
            }
        }
        let _ = api.clear();
        drop_specks(&mut words);
        Ok(Reading { words })
    }

    /// Orientation and script of a page (tesseract OSD on a downscaled copy). `None` when OSD
    /// is unavailable or found too little text.
    fn detect_osd(&self, img: &GrayImage) -> Option<Osd> {
        let long = img.width().max(img.height());
        let small;
        let src = if long > OSD_LONG_SIDE {
            small = imageops::scale(img, OSD_LONG_SIDE as f32 / long as f32);
            &small
        } else {
            img
        };
        let api = self.api("osd").ok()?;
        let (w, h) = (
            i32::try_from(src.width()).ok()?,
            i32::try_from(src.height()).ok()?,
        );
        api.set_page_seg_mode(TessPageSegMode::PSM_OSD_ONLY).ok()?;
        api.set_image(src.as_raw(), w, h, 1, w).ok()?;
        api.set_source_resolution(ASSUMED_DPI * src.width() as i32 / img.width().max(1) as i32)
            .ok()?;
        let dbg_t = std::time::Instant::now();
        let r = api.detect_os();
        if std::env::var_os("FOLIO_OCR_DBG").is_some() {
            eprintln!("DBG osd {:?} {:.3}s", r, dbg_t.elapsed().as_secs_f64());
        }
        let _ = api.clear();
        let (deg, oconf, script, sconf) = r.ok()?;
        Some(Osd {
            // tesseract reports the page's counter-clockwise orientation.
            rotate_cw: if oconf >= MIN_ORIENT_CONF {
                (360 - deg).rem_euclid(360)
            } else {
                0
            },
            script: if sconf >= MIN_SCRIPT_CONF {
                lang::script_from_osd(&script)
            } else {
                None
            },
        })
    }

    /// Reads the densest text band of `base` with `langs` (the language probe). Word boxes are
    /// in `base` coordinates.
    fn probe(&self, base: &GrayImage, langs: &str, skip: &[(u32, u32)]) -> Result<Probe> {
        let band_h = (base.height() / 20).max(100);
        let (top, height) = imageops::text_band(base, band_h, skip);
        self.probe_band(base, langs, top, height)
    }

    /// Reads the rows `top..top + height` of `base` with `langs`.
    fn probe_band(&self, base: &GrayImage, langs: &str, top: u32, height: u32) -> Result<Probe> {
        let band = image::imageops::crop_imm(base, 0, top, base.width(), height).to_image();
        let mut reading = self.read(&band, langs, TessPageSegMode::PSM_SINGLE_BLOCK, 1.0)?;
        for w in &mut reading.words {
            w.bbox.y0 += top as f32;
            w.bbox.y1 += top as f32;
        }
        Ok(Probe {
            langs: langs.to_string(),
            top,
            height,
            reading,
        })
    }

    /// Decides script and languages from probes of the densest band: a Latin probe first (with
    /// `deu` when enabled: it also reads English, French and Polish well enough for keyword
    /// identification), a Cyrillic one only when the Latin reading is not confident.
    fn plan(&self, base: &GrayImage, set: &LanguageSet) -> Result<Plan> {
        let latin_model = if set.latin.contains(&"deu") {
            Some("deu")
        } else {
            set.latin.first().copied()
        };
        let mut latin_probe: Option<Probe> = None;
        let mut cyr_probe: Option<Probe> = None;
        let script = match latin_model {
            Some(lm) => {
                // Bands of separators, logos or lone numbers tell nothing: up to three bands are
                // tried until one reads as words.
                let mut tried: Vec<(u32, u32)> = Vec::new();
                let mut decided = None;
                for _ in 0..MAX_PROBE_BANDS {
                    let p = self.probe(base, lm, &tried)?;
                    tried.push((p.top, p.height));
                    let words = word_confs(&p.reading.words);
                    if std::env::var_os("FOLIO_OCR_DBG").is_some() {
                        eprintln!(
                            "DBG probe {lm} conf={:.3} {:?}",
                            p.reading.mean_conf(),
                            words
                        );
                    }
                    // Confident, or keywords of an enabled Latin language (noisy scans read
                    // with fair confidence only): no Cyrillic probe needed.
                    let good = (p.reading.mean_conf() >= LATIN_PROBE_CONF
                        && p.reading.chars() >= 8)
                        || lang::identify_latin(&words, &set.latin).is_some();
                    if set.cyrillic.is_empty() || good {
                        latin_probe = Some(p);
                        decided = Some(Script::Latin);
                        break;
                    }
                    let c = self.probe_band(base, &lang::join(&set.cyrillic), p.top, p.height)?;
                    // At least two confident, word-shaped words with 8 letters or digits in all.
                    let informative = |r: &Reading| {
                        let lens: Vec<usize> = r
                            .words
                            .iter()
                            .filter(|w| w.confidence >= 0.5 && word_shaped(&w.text))
                            .map(|w| w.text.chars().filter(|c| c.is_alphanumeric()).count())
                            .collect();
                        lens.len() >= 2 && lens.iter().sum::<usize>() >= 8
                    };
                    // A Cyrillic reading made of Latin look-alike letters without a Cyrillic
                    // word is Latin capitals, not Cyrillic evidence.
                    let cwords = word_confs(&c.reading.words);
                    let look_alike = lang::homoglyph_share(&c.reading.text())
                        .is_some_and(|h| h > LOOK_ALIKE_SHARE)
                        && lang::cyrillic_keyword_hits(&cwords) == 0;
                    let cyr_informative = informative(&c.reading) && !look_alike;
                    if std::env::var_os("FOLIO_OCR_DBG").is_some() {
                        eprintln!(
                            "DBG probe cyr conf={:.3} informative={cyr_informative} {cwords:?}",
                            c.reading.mean_conf()
                        );
                    }
                    if !informative(&p.reading) && !cyr_informative {
                        // Neither reading found words here: another band decides.
                        latin_probe.get_or_insert(p);
                        continue;
                    }
                    let (lc, cc) = (&p.reading, &c.reading);
                    let s = if look_alike {
                        Script::Latin
                    } else {
                        lang::decide_script_by_confidence(
                            (lc.mean_conf(), lc.chars()),
                            (cc.mean_conf(), cc.chars()),
                        )
                        .unwrap_or(if lc.mean_conf() >= cc.mean_conf() {
                            Script::Latin
                        } else {
                            Script::Cyrillic
                        })
                    };
                    latin_probe = Some(p);
                    cyr_probe = Some(c);
                    decided = Some(s);
                    break;
                }
                decided.unwrap_or(Script::Latin)
            }
            None => Script::Cyrillic,
        };
        let models = set.of_script(script);
        let langs = match (script, models) {
            (_, [one]) => one.to_string(),
            (_, []) => lang::join(&set.all()),
            (Script::Latin, _) => {
                let mut words: Vec<Word> = latin_probe
                    .as_ref()
                    .map(|p| p.reading.words.clone())
                    .unwrap_or_default();
                // A band with too little evidence (names, numbers): one more band decides.
                if let (Some(lm), Some(p)) = (latin_model, &latin_probe)
                    && lang::identify_latin(&word_confs(&words), models).is_none()
                {
                    let more = self.probe(base, lm, &[(p.top, p.height)])?;
                    words.extend(more.reading.words);
                }
                let words = word_confs(&words);
                // Without evidence: English when enabled (receipts, numbers-only bands), else
                // the probe's model, which is then reused. Combining all models is slower and
                // reads worse.
                let fallback = if models.contains(&"eng") {
                    "eng"
                } else {
                    latin_model.unwrap_or("eng")
                };
                lang::identify_latin(&words, models)
                    .unwrap_or(fallback)
                    .to_string()
            }
            (Script::Cyrillic, _) => {
                if cyr_probe.is_none() {
                    cyr_probe = Some(self.probe(base, &lang::join(models), &[])?);
                }
                cyr_probe
                    .as_ref()
                    .and_then(|p| lang::identify_cyrillic(&p.reading.text()))
                    .map(str::to_string)
                    .unwrap_or_else(|| lang::join(models))
            }
        };
        // Both probes ran: the script was a close call on one band (logos and noise read with
        // fair confidence in any script). The other script's reading is the alternative.
        let alternative = match (&latin_probe, &cyr_probe) {
            (Some(_), Some(_)) => Some(match script {
                Script::Latin => lang::join(&set.cyrillic),
                Script::Cyrillic => {
                    if set.latin.contains(&"eng") {
                        "eng".to_string()
                    } else {
                        latin_model.unwrap_or("eng").to_string()
                    }
                }
            }),
            _ => None,
        };
        // A probe read with the chosen models (or more: `rus+ukr` for `rus`) is reused.
        let probe = [latin_probe, cyr_probe]
            .into_iter()
            .flatten()
            .find(|p| langs.split('+').all(|l| p.langs.split('+').any(|m| m == l)));
        Ok(Plan {
            langs,
            probe,
            alternative,
        })
    }

    /// Reads an upright, already scaled image. A probe read with the same languages is reused:
    /// its band is blanked and its words merged in, so the common case costs one pass.
    fn read_page(
        &self,
        base: &GrayImage,
        langs: &str,
        heavy: bool,
        probe: Option<Probe>,
        receipt: bool,
    ) -> Result<Reading> {
        let psm = if receipt {
            TessPageSegMode::PSM_SINGLE_COLUMN
        } else {
            TessPageSegMode::PSM_AUTO
        };
        if !heavy {
            let Some(p) = probe else {
                return self.read(base, langs, psm, 1.0);
            };
            let mut rest = base.clone();
            let w = rest.width() as usize;
            let len = w * rest.height() as usize;
            let (s, e) = (p.top as usize * w, (p.top + p.height) as usize * w);
            if let Some(rows) = rest.get_mut(s.min(len)..e.min(len)) {
                rows.fill(255);
            }
            let main = self.read(&rest, langs, psm, 1.0)?;
            let split = main
                .words
                .iter()
                .position(|w| w.bbox.y0 >= p.top as f32)
                .unwrap_or(main.words.len());
            let mut words = main.words;
            let tail = words.split_off(split);
            words.extend(p.reading.words);
            words.extend(tail);
            return Ok(Reading { words });
        }
        let mut best = self.read(base, langs, psm, 1.0)?;
        let consider = |r: Reading, best: &mut Reading| {
            // Best mean confidence, but never a reading that lost a third of the text.
            if r.mean_conf() > best.mean_conf() && r.chars() * 3 >= best.chars() * 2 {
                *best = r;
            }
        };
        consider(
            self.read(&imageops::binarize(base), langs, psm, 1.0)?,
            &mut best,
        );
        consider(
            self.read(&imageops::scale(base, 1.5), langs, psm, 1.5)?,
            &mut best,
        );
        let other = if receipt {
            TessPageSegMode::PSM_SINGLE_BLOCK
        } else {
            TessPageSegMode::PSM_SINGLE_COLUMN
        };
        consider(self.read(base, langs, other, 1.0)?, &mut best);
        Ok(best)
    }
}

/// Segments of a page read in one script that [`TesseractOcr::reread_segments`] reads again
/// at most.
const MAX_REREADS: usize = 12;

/// Lines above and below a segment read again in the other script within which the segments of
/// its column are read again too.
const REREAD_REACH: usize = 4;

/// Whether a reading by the Cyrillic models is Cyrillic text: Cyrillic letters, not only the
/// look-alikes of Latin ones ([`lang::homoglyph_share`] at most [`LOOK_ALIKE_SHARE`]).
fn real_cyrillic(r: &Reading) -> bool {
    lang::homoglyph_share(&r.text()).is_some_and(|h| h <= LOOK_ALIKE_SHARE)
}

/// How much more confident the other script's reading of a segment must be.
const REREAD_MARGIN: f32 = 0.05;

/// Runs of words in reading order on one line with no gap wider than twice their height
/// between neighbours (a column of a two-column party block is a segment of its own), as
/// index ranges into `words`.
fn line_segments(words: &[Word]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=words.len() {
        let split = i == words.len() || {
            let (a, b) = (&words[i - 1].bbox, &words[i].bbox);
            let h = a.height().max(b.height()).max(1.0);
            let same_line = (a.y0 + a.y1) / 2.0 > b.y0 && (a.y0 + a.y1) / 2.0 < b.y1;
            !same_line || b.x0 - a.x1 > 2.0 * h || b.x0 < a.x0
        };
        if split {
            if i > start {
                out.push(start..i);
            }
            start = i;
        }
    }
    out
}

/// Whether a segment read in one script shows the other's hand. Read as Cyrillic, Latin text
/// comes out as look-alike letters only (`ТгапброгІ5`: [`lang::homoglyph_share`] above
/// [`LOOK_ALIKE_SHARE`]); read as Latin, Cyrillic text comes out as letters whose case flips
/// inside a word, digits among letters and symbols of neither script (`HoBMKOB`,
/// `HoBocn6npCK`, `K∏n`), read with low confidence.
fn other_script_suspect(words: &[Word], page_cyrillic: bool) -> bool {
    let text: String = words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    if letters < 4 {
        return false;
    }
    if page_cyrillic {
        // Latin small letters read as Cyrillic come out as other letters and digits glued to
        // them (`Тгапброгі5`, `52аБбо`): a word of four letters or more with a capital after a
        // small letter, or ending in a digit after three letters.
        let odd_word = |w: &str| {
            let chars: Vec<char> = w.chars().collect();
            let run = chars.iter().filter(|c| c.is_alphabetic()).count() >= 4;
            let flip = flips_case(&chars);
            let digit_end = chars.len() >= 4
                && chars[chars.len() - 1].is_ascii_digit()
                && chars[chars.len() - 4..chars.len() - 1]
                    .iter()
                    .all(|c| c.is_alphabetic());
            run && (flip || digit_end)
        };
        return (lang::homoglyph_share(&text).is_some_and(|h| h > LOOK_ALIKE_SHARE)
            || words.iter().any(|w| odd_word(&w.text)))
            && !text.chars().any(|c| c.is_ascii_alphabetic());
    }
    let odd_word = |w: &str| {
        let chars: Vec<char> = w.chars().collect();
        let flip = flips_case(&chars);
        let digit_inside = chars
            .windows(3)
            .any(|p| p[0].is_alphabetic() && p[1].is_ascii_digit() && p[2].is_alphabetic());
        let foreign = chars
            .iter()
            .any(|c| c.is_alphabetic() && !c.is_ascii_alphabetic() && !is_latin_letter(*c))
            || chars.iter().any(|c| matches!(c, '∏' | '∑' | '√'));
        flip || digit_inside || foreign
    };
    let conf = words.iter().map(|w| w.confidence).sum::<f32>() / words.len() as f32;
    words.iter().any(|w| odd_word(&w.text)) && conf < SUSPECT_CONF
}

/// Whether a capital follows a small letter among `chars` (`HoBMKOB`, `PaxyHOK`): how one
/// script's models spell the other's words.
fn flips_case(chars: &[char]) -> bool {
    chars
        .windows(2)
        .any(|p| p[0].is_lowercase() && p[1].is_uppercase())
}

/// Mean word confidence under which a Latin reading with odd words is read again in Cyrillic.
const SUSPECT_CONF: f32 = 0.85;

/// A letter of the Latin script (with its diacritics: `ä`, `ł`, `ő`, `ș`).
fn is_latin_letter(c: char) -> bool {
    c.is_ascii_alphabetic() || ('\u{00C0}'..='\u{024F}').contains(&c)
}

/// Whether a reading looks like a word: 2 to 20 letters or digits, no character making up more
/// than half of it (rows of `*****` or `-----` read as `ЖЖЖЖЖЖ`, `BRERRRERR`).
fn word_shaped(text: &str) -> bool {
    let chars: Vec<char> = text
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    if !(2..=20).contains(&chars.len()) {
        return false;
    }
    let mut counts: HashMap<char, usize> = HashMap::new();
    for c in &chars {
        *counts.entry(*c).or_default() += 1;
    }
    counts
        .values()
        .all(|&n| n * 2 <= chars.len() || chars.len() <= 3)
}

/// Height, as a share of the reading's median word height, below which a word with letters or
/// digits is a speck of noise that the OCR read as text (a dot of dirt on a receipt photo read
/// as `5`, 2 px tall under 20 px text). Real small print is rarely under half the body size.
const SPECK_HEIGHT: f32 = 0.3;

/// Removes the words too flat to be text (see [`SPECK_HEIGHT`]); punctuation-only words (a
/// dash, a dot) are flat by nature and stay.
fn drop_specks(words: &mut Vec<Word>) {
    let Some(median) = median_size(words.iter().map(|w| w.bbox.height()).collect()) else {
        return;
    };
    words.retain(|w| {
        w.bbox.height() >= SPECK_HEIGHT * median || !w.text.chars().any(char::is_alphanumeric)
    });
}

fn word_confs(v: &[Word]) -> Vec<(&str, f32)> {
    v.iter().map(|w| (w.text.as_str(), w.confidence)).collect()
}

/// A probe reading of one band.
#[derive(Debug, Clone)]
struct Probe {
    langs: String,
    top: u32,
    height: u32,
    reading: Reading,
}

/// Languages chosen for a page.
#[derive(Debug, Clone)]
struct Plan {
    langs: String,
    probe: Option<Probe>,
    /// The other script's languages when the script decision was close.
    alternative: Option<String>,
}

/// Mean confidence of the main reading below which a close script decision is checked by
/// reading the page with the other script too.
const CONTESTED_CONF: f32 = 0.7;
/// Keyword hits of its script from which a main reading settles the script (no re-reading).
const SETTLED_KEYWORDS: usize = 3;

/// Enlarges small images (receipt photos) so text gets tall enough and reduces very large ones;
/// returns the factor.
fn upscale_small(img: &GrayImage) -> (Option<GrayImage>, f32) {
    if img.width() > MAX_WIDTH {
        let down = REDUCED_WIDTH as f32 / img.width() as f32;
        return (Some(imageops::scale(img, down)), down);
    }
    if img.width() >= MIN_WIDTH || img.width() == 0 {
        return (None, 1.0);
    }
    let up = (MIN_WIDTH as f32 / img.width() as f32).min(3.0);
    (Some(imageops::scale(img, up)), up)
}

/// Most mean confidence a reading with normally shaped words may have to be taken for an
/// upside-down page (noisy upright scans read at 0.5-0.6).
const UPSIDE_DOWN_CONF: f32 = 0.45;

/// Evidence that a reading comes from a page turned by a quarter or half turn: little text,
/// most word boxes taller than wide (text running vertically), or a very unconfident reading.
fn suspect_rotation(r: &Reading) -> bool {
    let conf = r.mean_conf();
    if conf >= UNREADABLE_CONF {
        return false;
    }
    let words: Vec<&Word> = r
        .words
        .iter()
        .filter(|w| w.text.chars().count() >= 2)
        .collect();
    if words.len() < 3 {
        return true;
    }
    let tall = words
        .iter()
        .filter(|w| w.bbox.height() > w.bbox.width())
        .count();
    tall * 2 >= words.len() || conf < UPSIDE_DOWN_CONF
}

impl TesseractOcr {
    /// The language plan of a page taken as upright (probes of its densest band when several
    /// languages are enabled), and its script.
    fn plan_page(&self, img: &GrayImage, set: &LanguageSet) -> Result<(Plan, Script)> {
        let (scaled, _) = upscale_small(img);
        let base = scaled.as_ref().unwrap_or(img);
        let plan = match set.all().as_slice() {
            [one] => Plan {
                langs: one.to_string(),
                probe: None,
                alternative: None,
            },
            _ => self.plan(base, set)?,
        };
        let cyrillic = plan
            .langs
            .split('+')
            .any(|l| lang::script_of(l) == Script::Cyrillic);
        let script = if cyrillic {
            Script::Cyrillic
        } else {
            Script::Latin
        };
        Ok((plan, script))
    }

    /// A plan reading a page with the enabled Cyrillic models.
    fn cyrillic_plan(&self, set: &LanguageSet) -> Plan {
        Plan {
            langs: lang::join(&set.cyrillic),
            probe: None,
            alternative: None,
        }
    }

    /// Reads a page taken as upright: small images enlarged, languages planned when several
    /// are enabled (probe; or the `plan` already made by [`Self::plan_page`]), then one main
    /// pass. Boxes in `img` coordinates.
    fn read_upright(
        &self,
        img: &GrayImage,
        set: &LanguageSet,
        heavy: bool,
        plan: Option<Plan>,
    ) -> Result<Reading> {
        let (scaled, up) = upscale_small(img);
        let base = scaled.as_ref().unwrap_or(img);
        let plan = match plan {
            Some(p) => p,
            None => self.plan_page(img, set)?.0,
        };
        // Tall images and small photos are read as one column: tesseract's automatic layout
        // (column and image-region finding) splits receipts and, on photos, its image finder
        // works on boxes outside the page (leptonica errors on stderr).
        let ratio = img.height() as f32 / img.width().max(1) as f32;
        let receipt = ratio >= RECEIPT_RATIO || (up > 1.0 && ratio >= SMALL_PHOTO_RATIO);
        let mut reading = self.read_page(base, &plan.langs, heavy, plan.probe, receipt)?;
        // Words of the documents' languages decide; confidence only without them (a Cyrillic
        // model reads Latin capitals as look-alike letters with fair confidence).
        let evidence = |r: &Reading, langs: &str| {
            let words = word_confs(&r.words);
            if langs
                .split('+')
                .any(|l| lang::script_of(l) == Script::Cyrillic)
            {
                lang::cyrillic_keyword_hits(&words)
            } else {
                lang::latin_keyword_hits(&words, &set.latin)
            }
        };
        if let Some(alt) = &plan.alternative
            && reading.mean_conf() < CONTESTED_CONF
            && evidence(&reading, &plan.langs) < SETTLED_KEYWORDS
        {
            let other = self.read_page(base, alt, heavy, None, receipt)?;
            let (ours, theirs) = (evidence(&reading, &plan.langs), evidence(&other, alt));
            if std::env::var_os("FOLIO_OCR_DBG").is_some() {
                eprintln!(
                    "DBG contest {}={ours} ({:.3}) vs {alt}={theirs} ({:.3})",
                    plan.langs,
                    reading.mean_conf(),
                    other.mean_conf()
                );
            }
            let better = if ours.abs_diff(theirs) >= 2 {
                theirs > ours
            } else {
                other.mean_conf() > reading.mean_conf() + 0.05
            };
            if better {
                reading = other;
            }
        }
        if !set.latin.is_empty() && !set.cyrillic.is_empty() {
            self.reread_other_script(base, &mut reading, &plan.langs, set)?;
        }
        if let Ok(dir) = std::env::var("FOLIO_OCR_DUMP") {
            let mut t = String::new();
            let mut last = f32::MIN;
            for w in &reading.words {
                if w.bbox.y0 > last + 0.5 * w.bbox.height() {
                    t.push('\n');
                } else {
                    t.push(' ');
                }
                last = w.bbox.y0;
                t.push_str(&w.text);
            }
            let _ = std::fs::write(format!("{dir}/{}x{}.txt", img.width(), img.height()), t);
        }
        if std::env::var_os("FOLIO_OCR_DBG").is_some() {
            let tall = reading
                .words
                .iter()
                .filter(|w| w.text.chars().count() >= 2 && w.bbox.height() > w.bbox.width())
                .count();
            eprintln!(
                "DBG main langs={} conf={:.3} words={} tall={} suspect={}",
                plan.langs,
                reading.mean_conf(),
                reading.words.len(),
                tall,
                suspect_rotation(&reading)
            );
        }
        if up != 1.0 {
            for w in &mut reading.words {
                w.bbox = BBox::new(
                    w.bbox.x0 / up,
                    w.bbox.y0 / up,
                    w.bbox.x1 / up,
                    w.bbox.y1 / up,
                );
            }
        }
        Ok(reading)
    }
}

impl TesseractOcr {
    /// Segments of a page read in one script that the other script's models read better: a
    /// Russian buyer's block on an Estonian invoice, a Latvian company's name on a Ukrainian
    /// one (`ТгапброгІ5 Веггіп5`). Each segment ([`line_segments`]) that `suspect` names is
    /// read again alone with `other` (tesseract models), and replaced where `accept` takes the
    /// new reading over the old and, with a `control` (models, margin), the new reading is the
    /// more confident by the margin than the control models' reading of the same crop (read only
    /// where `accept` took it); then the segments set in the same column within
    /// [`REREAD_REACH`] lines of a replaced one, which a block of the other script holds too
    /// (`пр-т Мира, д. 81` read `np-T Mupa, A. 81` shows no sign of its own), where `accept`
    /// takes them. At most [`MAX_REREADS`] segments per page are read again. Boxes in `base`
    /// coordinates.
    fn reread_segments(
        &self,
        base: &GrayImage,
        reading: &mut Reading,
        other: &str,
        control: Option<(&str, f32)>,
        suspect: impl Fn(&[Word]) -> bool,
        accept: impl Fn(&Reading, &Reading) -> bool,
    ) -> Result<()> {
        let segments = line_segments(&reading.words);
        let boxes: Vec<BBox> = segments
            .iter()
            .map(|seg| {
                let words = &reading.words[seg.clone()];
                words
                    .iter()
                    .skip(1)
                    .fold(words[0].bbox, |b, w| b.union(&w.bbox))
            })
            .collect();
        let mut reads = 0usize;
        let mut replaced: Vec<(usize, Vec<Word>)> = Vec::new();
        let try_segment = |k: usize, reads: &mut usize| -> Result<Option<Vec<Word>>> {
            if *reads >= MAX_REREADS {
                return Ok(None);
            }
            *reads += 1;
            let b = boxes[k];
            let pad = b.height() * 0.35;
            let x0 = (b.x0 - pad).max(0.0) as u32;
            let y0 = (b.y0 - pad).max(0.0) as u32;
            let x1 = ((b.x1 + pad) as u32).min(base.width());
            let y1 = ((b.y1 + pad) as u32).min(base.height());
            if x1 <= x0 + 4 || y1 <= y0 + 4 {
                return Ok(None);
            }
            let crop = image::imageops::crop_imm(base, x0, y0, x1 - x0, y1 - y0).to_image();
            let mut again = self.read(&crop, other, TessPageSegMode::PSM_SINGLE_LINE, 1.0)?;
            // Words within the segment's own height: a single line's boxes may take the crop's
            // padding, and would join the lines above and below.
            for w in &mut again.words {
                w.bbox = BBox::new(
                    w.bbox.x0 + x0 as f32,
                    (w.bbox.y0 + y0 as f32).clamp(b.y0, b.y1),
                    w.bbox.x1 + x0 as f32,
                    (w.bbox.y1 + y0 as f32).clamp(b.y0, b.y1),
                );
                if w.bbox.height() < b.height() * 0.5 {
                    w.bbox = BBox::new(w.bbox.x0, b.y0, w.bbox.x1, b.y1);
                }
            }
            let ours = Reading {
                words: reading.words[segments[k].clone()].to_vec(),
            };
            let mut taken = !again.words.is_empty() && accept(&ours, &again);
            if taken && let Some((langs, margin)) = control {
                let c = self.read(&crop, langs, TessPageSegMode::PSM_SINGLE_LINE, 1.0)?;
                taken = again.mean_conf() > c.mean_conf() + margin;
            }
            if std::env::var_os("FOLIO_OCR_DBG").is_some() {
                eprintln!(
                    "DBG reread {:?} ({:.3}) -> {:?} ({:.3}) taken={taken}",
                    ours.text(),
                    ours.mean_conf(),
                    again.text(),
                    again.mean_conf()
                );
            }
            Ok(taken.then_some(again.words))
        };
        // Each segment is read again once at most.
        let mut tried = vec![false; segments.len()];
        for (k, seg) in segments.iter().enumerate() {
            if !suspect(&reading.words[seg.clone()]) {
                continue;
            }
            tried[k] = true;
            if let Some(words) = try_segment(k, &mut reads)? {
                replaced.push((k, words));
            }
        }
        // Neighbours in the same column of each replaced segment.
        let anchors: Vec<usize> = replaced.iter().map(|r| r.0).collect();
        for &a in &anchors {
            let ab = boxes[a];
            let h = ab.height().max(1.0);
            for (k, kb) in boxes.iter().enumerate() {
                let near = (kb.y0 - ab.y0).abs() <= REREAD_REACH as f32 * 1.6 * h;
                let same_column = (kb.x0 - ab.x0).abs() <= 2.0 * h;
                if tried[k] || !near || !same_column {
                    continue;
                }
                tried[k] = true;
                if let Some(words) = try_segment(k, &mut reads)? {
                    replaced.push((k, words));
                }
            }
        }
        replaced.sort_by_key(|r| std::cmp::Reverse(r.0));
        for (k, words) in replaced {
            reading.words.splice(segments[k].clone(), words);
        }
        Ok(())
    }

    /// [`Self::reread_segments`] for a page tesseract read in one script with both scripts'
    /// models enabled: Latin text read by the Cyrillic models ([`other_script_suspect`]) is read
    /// with `eng` (or the first Latin model), Cyrillic text read by a Latin model with the
    /// Cyrillic models, the new reading taken where it is the more confident by
    /// [`REREAD_MARGIN`] (and, read as Cyrillic, no look-alike reading of Latin letters of its
    /// own, [`lang::homoglyph_share`]).
    fn reread_other_script(
        &self,
        base: &GrayImage,
        reading: &mut Reading,
        langs: &str,
        set: &LanguageSet,
    ) -> Result<()> {
        let page_cyrillic = langs
            .split('+')
            .any(|l| lang::script_of(l) == Script::Cyrillic);
        let other = match (page_cyrillic, set.reading_latin()) {
            (true, Some(latin)) => latin.to_string(),
            _ => lang::join(&set.cyrillic),
        };
        self.reread_segments(
            base,
            reading,
            &other,
            None,
            |w| other_script_suspect(w, page_cyrillic),
            |ours, again| {
                let look_alike = !page_cyrillic && !real_cyrillic(again);
                !look_alike && again.mean_conf() > ours.mean_conf() + REREAD_MARGIN
            },
        )
    }

    /// The enabled languages of a request, their models checked.
    fn language_set(&self, req: &OcrRequest<'_>) -> Result<LanguageSet> {
        let set = LanguageSet::from_iso(req.languages);
        if set.all().is_empty() {
            return Err(Error::InvalidArgument(format!(
                "no supported OCR language in {:?}",
                req.languages
            )));
        }
        self.check_models(&set.all())?;
        Ok(set)
    }

    /// Reads a page whose plan is already made (`None`: planned here), turning it upright when
    /// the reading suggests it is turned.
    fn recognize_planned(
        &self,
        image: &GrayImage,
        req: &OcrRequest<'_>,
        set: &LanguageSet,
        plan: Option<Plan>,
    ) -> Result<TextPage> {
        let mut reading = self.read_upright(image, set, req.heavy, plan)?;
        let mut upright: Option<GrayImage> = None;
        let mut rotation = 0;
        // OSD (slow, ~a full pass) only on evidence that the page is turned.
        if suspect_rotation(&reading)
            && let Some(osd) = self.detect_osd(image)
            && let Some(turned) = imageops::rotate_cw(image, osd.rotate_cw)
        {
            reading = self.read_upright(&turned, set, req.heavy, None)?;
            upright = Some(turned);
            rotation = osd.rotate_cw;
        }
        let img = upright.as_ref().unwrap_or(image);
        Ok(reading.into_page(req.page, img, OcrEngineName::Tesseract, rotation))
    }
}

impl OcrEngine for TesseractOcr {
    fn recognize(&self, image: &GrayImage, req: &OcrRequest<'_>) -> Result<TextPage> {
        let set = self.language_set(req)?;
        self.recognize_planned(image, req, &set, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ab_glyph::FontVec;
    use image::Luma;

    const FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

    fn font() -> Option<FontVec> {
        let bytes = std::fs::read(FONT).ok()?;
        FontVec::try_from_vec(bytes).ok()
    }

    /// Lines of text drawn at ~12 pt for 300 DPI, or `None` (test skipped) without the font.
    pub(super) fn text_image(lines: &[&str]) -> Option<GrayImage> {
        let font = font()?;
        let mut img = GrayImage::from_pixel(2000, 160 + 80 * lines.len() as u32, Luma([255]));
        for (i, l) in lines.iter().enumerate() {
            imageproc::drawing::draw_text_mut(
                &mut img,
                Luma([0]),
                100,
                100 + 80 * i as i32,
                48.0,
                &font,
                l,
            );
        }
        Some(img)
    }

    fn engine() -> Option<TesseractOcr> {
        match TesseractOcr::new(&crate::config::OcrParams::default()) {
            Ok(e) => Some(e),
            Err(e) => {
                eprintln!("skipped: {e}");
                None
            }
        }
    }

    pub(super) fn all_languages() -> Vec<String> {
        crate::config::DEFAULT_LANGUAGES
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    pub(super) fn req(langs: &[String]) -> OcrRequest<'_> {
        OcrRequest {
            page: 3,
            languages: langs,
            heavy: false,
        }
    }

    pub(super) fn joined(p: &TextPage) -> String {
        let v: Vec<&str> = p.words.iter().map(|w| w.text.as_str()).collect();
        v.join(" ")
    }

    #[test]
    fn segments_are_runs_of_a_line_without_a_wide_gap() {
        let w = |t: &str, x0: f32, y0: f32| Word {
            text: t.into(),
            bbox: BBox::new(x0, y0, x0 + 10.0 * t.len() as f32, y0 + 20.0),
            confidence: 0.9,
        };
        // Two columns on one line, then a line below.
        let words = [
            w("ИП", 100.0, 100.0),
            w("Новиков", 130.0, 101.0),
            w("Elekter", 600.0, 100.0),
            w("Nord", 680.0, 99.0),
            w("Narva", 100.0, 140.0),
        ];
        assert_eq!(line_segments(&words), [0..2, 2..4, 4..5]);
        assert!(line_segments(&[]).is_empty());
    }

    #[test]
    fn the_other_scripts_hand_shows_in_a_segment() {
        let w = |t: &str, confidence: f32| Word {
            text: t.into(),
            bbox: BBox::new(0.0, 0.0, 10.0, 10.0),
            confidence,
        };
        // Latin read by the Cyrillic models: look-alike letters only.
        assert!(other_script_suspect(
            &[w("ТОРО", 0.7), w("СЕНТЕР", 0.7)],
            true
        ));
        assert!(!other_script_suspect(&[w("Постачальник", 0.7)], true));
        assert!(other_script_suspect(
            &[w("Тгапброгі5", 0.7), w("Веггіп5", 0.7)],
            true
        ));
        assert!(other_script_suspect(
            &[w("Іпбіаіасіе", 0.7), w("52аБбо", 0.7)],
            true
        ));
        assert!(!other_script_suspect(
            &[w("Кількість", 0.7), w("10шт", 0.7)],
            true
        ));
        // Cyrillic read by a Latin model: case flips, digits among letters, low confidence.
        assert!(other_script_suspect(
            &[w("VN", 0.6), w("HoBMKOB", 0.6)],
            false
        ));
        assert!(!other_script_suspect(
            &[w("VN", 0.95), w("HoBMKOB", 0.95)],
            false
        ));
        assert!(!other_script_suspect(
            &[w("Weber", 0.6), w("Software", 0.6)],
            false
        ));
    }

    #[test]
    fn specks_read_as_text_are_dropped() {
        let w = |t: &str, h: f32| Word {
            text: t.into(),
            bbox: BBox::new(0.0, 100.0, 30.0, 100.0 + h),
            confidence: 0.4,
        };
        let mut words = vec![w("TOTAL", 20.0), w("12.00", 21.0), w("5", 1.5), w("-", 2.0)];
        words.extend((0..5).map(|i| w(&format!("item{i}"), 19.0)));
        drop_specks(&mut words);
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        assert!(!texts.contains(&"5"), "{texts:?}");
        assert!(texts.contains(&"-") && texts.contains(&"12.00"));
        assert_eq!(words.len(), 8);
        let mut none: Vec<Word> = Vec::new();
        drop_specks(&mut none);
        assert!(none.is_empty());
    }

    #[test]
    fn reads_english_with_boxes_and_confidences() {
        let (Some(ocr), Some(img)) = (
            engine(),
            text_image(&["INVOICE No. 2024-117", "Total amount due: 1,234.56 EUR"]),
        ) else {
            return;
        };
        let langs = all_languages();
        let p = ocr.recognize(&img, &req(&langs)).unwrap();
        let text = joined(&p);
        assert_eq!(p.page, 3);
        assert_eq!(p.unit, Unit::Px);
        assert_eq!(p.source, Source::Ocr);
        assert_eq!((p.width, p.height), (2000.0, img.height() as f32));
        assert!(text.contains("INVOICE"), "{text}");
        assert!(text.contains("1,234.56"), "{text}");
        for w in &p.words {
            assert!(w.confidence > 0.5 && w.confidence <= 1.0, "{w:?}");
            assert!(
                w.bbox.x0 >= 90.0 && w.bbox.x1 <= 2000.0 && w.bbox.y0 >= 90.0,
                "{w:?}"
            );
        }
        let inv = p.words.iter().find(|w| w.text == "INVOICE").unwrap();
        assert!(inv.bbox.y1 < 170.0 && inv.bbox.height() > 25.0, "{inv:?}");
    }

    #[test]
    fn reads_german_umlauts_with_all_languages_enabled() {
        let (Some(ocr), Some(img)) = (
            engine(),
            text_image(&[
                "Rechnung Nr. 4711 vom 05.03.2024",
                "Gesamtbetrag für die Lieferung: 99,50 €",
                "Musterstraße 12, 80331 München",
            ]),
        ) else {
            return;
        };
        let langs = all_languages();
        let text = joined(&ocr.recognize(&img, &req(&langs)).unwrap());
        for w in ["Rechnung", "für", "Musterstraße", "München", "99,50"] {
            assert!(text.contains(w), "{w} not in {text}");
        }
    }

    #[test]
    fn reads_ukrainian_and_russian() {
        let Some(ocr) = engine() else { return };
        let langs = all_languages();
        let Some(uk) = text_image(&[
            "Рахунок-фактура № 15 від 12 березня 2024",
            "Загальна сума: 1500,00 грн. Їжак і ґанок є",
            "Постачальник: ТОВ Світанок, Київ",
        ]) else {
            return;
        };
        let text = joined(&ocr.recognize(&uk, &req(&langs)).unwrap());
        for w in ["Рахунок-фактура", "від", "березня", "Київ", "1500,00"]
        {
            assert!(text.contains(w), "{w} not in {text}");
        }
        let Some(ru) = text_image(&[
            "Счёт на оплату № 15 от 12 марта 2024",
            "Итого к оплате: 5 000,00 руб. без НДС",
            "Поставщик: ООО Рассвет, объём работ",
        ]) else {
            return;
        };
        let text = joined(&ocr.recognize(&ru, &req(&langs)).unwrap());
        for w in ["оплату", "марта", "Итого", "Поставщик", "5"] {
            assert!(text.contains(w), "{w} not in {text}");
        }
    }

    #[test]
    fn turns_rotated_pages_upright() {
        let (Some(ocr), Some(img)) = (
            engine(),
            text_image(&[
                "Invoice number 2024-117 for consulting services",
                "Total amount due within thirty days: 1,234.56 EUR",
                "Payment to the account of Example Company Limited",
                "Thank you for your business and your trust",
            ]),
        ) else {
            return;
        };
        let langs = vec!["en".to_string()];
        let rotated = image::imageops::rotate90(&img);
        let p = ocr.recognize(&rotated, &req(&langs)).unwrap();
        let text = joined(&p);
        assert!(
            text.contains("1,234.56") && text.contains("Invoice"),
            "{text}"
        );
        // Boxes are in the upright image's coordinates: the image given turned by the
        // rotation the page states (a quarter clockwise turn undone by three more).
        assert_eq!(
            (p.width, p.height),
            (img.width() as f32, img.height() as f32)
        );
        assert_eq!(p.rotation, 270);
        let upright = ocr.recognize(&img, &req(&langs)).unwrap();
        assert_eq!(upright.rotation, 0);
    }

    #[test]
    fn turns_add_up_to_a_quarter_turn() {
        let page = |rotation| TextPage {
            page: 1,
            width: 10.0,
            height: 20.0,
            unit: Unit::Px,
            source: Source::Ocr,
            engine: None,
            rotation,
            words: Vec::new(),
        };
        assert_eq!(turned_by(page(0), 90).rotation, 90);
        assert_eq!(turned_by(page(270), 180).rotation, 90);
        assert_eq!(turned_by(page(90), 270).rotation, 0);
        assert_eq!(turned_by(page(0), -90).rotation, 270);
        assert_eq!(quarter_turn(45), 0);
    }

    #[test]
    fn blank_page_has_no_words() {
        let Some(ocr) = engine() else { return };
        let img = GrayImage::from_pixel(800, 600, Luma([255]));
        let langs = all_languages();
        let p = ocr.recognize(&img, &req(&langs)).unwrap();
        assert!(p.words.is_empty());
        let tiny = GrayImage::from_pixel(1, 1, Luma([0]));
        assert!(ocr.recognize(&tiny, &req(&langs)).is_ok());
    }

    #[test]
    fn missing_language_data_names_the_package() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("eng.traineddata"), b"x").unwrap();
        let params = crate::config::OcrParams {
            tessdata_dir: Some(dir.path().to_path_buf()),
            ..Default::default()
        };
        let ocr = TesseractOcr::new(&params).unwrap();
        let langs = vec!["uk".to_string()];
        let img = GrayImage::from_pixel(10, 10, Luma([255]));
        let e = ocr.recognize(&img, &req(&langs)).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::RuntimeMissing);
        assert!(e.to_string().contains("tesseract-ocr-ukr"), "{e}");
        let empty = tempfile::tempdir().unwrap();
        let params = crate::config::OcrParams {
            tessdata_dir: Some(empty.path().to_path_buf()),
            ..Default::default()
        };
        let e = TesseractOcr::new(&params).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::RuntimeMissing);
    }

    #[test]
    fn heavy_path_reads_at_least_as_well() {
        let (Some(ocr), Some(img)) = (engine(), text_image(&["Total 1,234.56 EUR"])) else {
            return;
        };
        let langs = vec!["en".to_string()];
        let r = OcrRequest {
            page: 1,
            languages: &langs,
            heavy: true,
        };
        let text = joined(&ocr.recognize(&img, &r).unwrap());
        assert!(text.contains("1,234.56"), "{text}");
    }
}
