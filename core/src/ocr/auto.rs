//! The engine's OCR: tesseract and PP-OCR behind one [`OcrEngine`], the better one per page.
//!
//! Measured on the shared receipt scans and invoice scans (see `benches/reports`), PP-OCRv6 reads
//! Latin-script pages better than tesseract at a lower cost, but its dictionary has no Cyrillic
//! letters; tesseract reads Ukrainian and Russian. So with `ocr.engine = "auto"` (the default):
//! * only Latin-script languages enabled: PP-OCR reads the page;
//! * only Cyrillic ones: tesseract;
//! * both: PP-OCR reads the page, and a reading that spells its words in Latin look-alikes of
//!   Cyrillic ones (many capitals after small letters inside words: `PaxyHOK`,
//!   [`case_flip_share`] >= 0.3) hands the page to tesseract's Cyrillic models. PP-OCR's
//!   confidence cannot tell: it reads Cyrillic letters as Latin look-alikes, confidently (mean
//!   character probability 0.91-0.99 on the synthetic uk/ru scans); the spelling can: on the 97
//!   synthetic training scans the 82 Latin pages read at most 0.15 and the 15 Cyrillic ones
//!   0.49-0.76, the 88 SROIE tuning receipts at most 0.11. Until 2026-11-29 tesseract's probe of
//!   the page's densest band decided first; dropping it read better (it had taken a Czech scan
//!   for Cyrillic: synthetic training scans macro F1 96.1 -> 96.4, SROIE tuning receipts 93.3 ->
//!   93.6) and saves its time on every Latin page (the 88 receipts' run 61 -> 49 s). On a
//!   Latin page, a segment (a line's run of words, one column of a two-column block) spelt so
//!   (half its words of four letters or more flipped) is read again by tesseract with the
//!   Cyrillic models and a Latin one, and the Cyrillic reading replaces PP-OCR's where it holds
//!   Cyrillic letters beyond the look-alikes and is the more confident by 0.1; the segments of
//!   its column a few lines around it are tried the same way (a Russian buyer's block on an
//!   Estonian invoice: `ИП Новиков Б.О.` and its address, read `VN HoBMKOB 5.0.`).
//!
//! Every page PP-OCR may read is first turned upright (0/90/180/270) by PP-OCR's reading of its
//! longest lines as they stand and turned half round ([`PpOcr::orientation`]; upright lines
//! read far more confidently, see its constants).
//!
//! Standard mode reads a Latin-script page with the tiny recogniser, then reads again with the
//! small one every token holding a digit of which a character was read with a probability under
//! 0.9 (the token's span of its line, [`PpOcr`]'s second look): amounts, dates, ids and the
//! look-alikes of names (`S00N`) are what a misread character changes silently. Measured on the
//! 88 SROIE tuning receipt images (`benches/reports`): macro F1 92.0 -> 93.3 (date 95.9 -> 98.3,
//! total 93.7 -> 96.6), re-reading 313 tokens on the first 30 of them (about 10 a receipt);
//! re-reading whole lines instead read 95.4 but cost half the page's time again on a receipt scan.
//! Where the page's reading then holds no date at all, the small recogniser reads again every line
//! with four digits or more and a re-read holding a date replaces its line ([`PpOcr`]'s date
//! look): on the 41 frozen SROIE receipt images the date went 81.2 -> 96.2 F1 (`benches/reports`).
//!
//! Enhanced recognition (`heavy`) reads a Latin-script page's regions with the small recogniser
//! (PP-OCRv6 small, about five times the tiny one's time per line). Measured on the SROIE tuning
//! receipts and the synthetic training scans (`benches/reports`), fusing its words with the tiny
//! recogniser's and tesseract's (votes, and a token's plausibility as an amount, date or checked
//! id) did not beat the small recogniser alone, so none is done. Cyrillic pages keep tesseract's
//! enhanced path (several preprocessing variants, the most confident reading).
//!
//! The PP-OCR models load on the first page that needs them (a text-layer PDF never loads them).
//! With `auto`, models or onnxruntime that cannot be found leave every page to tesseract;
//! `"ppocr"` makes that an error (`RUNTIME_MISSING`, `MODEL_ERROR`), `"tesseract"` never loads
//! them.

use super::lang::Script;
use super::ppocr::{PpModel, PpOcr};
use super::{OcrEngine, OcrRequest, Reading, TesseractOcr};
use crate::config::{OcrEngineKind, OcrParams};
use crate::error::{Error, ErrorCode, Result};
use crate::types::{OcrEngineName, TextPage};
use image::GrayImage;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A PP-OCR engine loaded once, or why it could not be (code and message).
type Loaded = std::result::Result<PpOcr, (ErrorCode, String)>;

/// tesseract and PP-OCR, chosen per page.
pub struct AutoOcr {
    kind: OcrEngineKind,
    tesseract: TesseractOcr,
    models: Option<PathBuf>,
    onnxruntime: Option<PathBuf>,
    ppocr: OnceLock<Loaded>,
    /// The small models, for enhanced recognition.
    ppocr_small: OnceLock<Loaded>,
}

impl std::fmt::Debug for AutoOcr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AutoOcr")
            .field("kind", &self.kind)
            .field("tesseract", &self.tesseract)
            .finish()
    }
}

impl AutoOcr {
    /// Builds the OCR of an engine: tesseract now (its language data checked), PP-OCR on first
    /// use. With `"ppocr"` the models must be found now (`RUNTIME_MISSING` otherwise).
    pub fn new(params: &OcrParams, onnxruntime: Option<PathBuf>) -> Result<Self> {
        let tesseract = TesseractOcr::new(params)?;
        if params.engine == OcrEngineKind::Ppocr {
            super::ppocr::find_models(params.ppocr_models.as_deref())?;
        }
        Ok(AutoOcr {
            kind: params.engine,
            tesseract,
            models: params.ppocr_models.clone(),
            onnxruntime,
            ppocr: OnceLock::new(),
            ppocr_small: OnceLock::new(),
        })
    }

    /// PP-OCR, loaded on first call; `Ok(None)` when this engine does without it.
    fn ppocr(&self) -> Result<Option<&PpOcr>> {
        self.load(&self.ppocr, PpModel::Tiny)
    }

    /// PP-OCR's small models (enhanced recognition), loaded on first call.
    fn ppocr_small(&self) -> Result<Option<&PpOcr>> {
        self.load(&self.ppocr_small, PpModel::Small)
    }

    fn load<'a>(&'a self, cell: &'a OnceLock<Loaded>, model: PpModel) -> Result<Option<&'a PpOcr>> {
        if self.kind == OcrEngineKind::Tesseract {
            return Ok(None);
        }
        let loaded = cell.get_or_init(|| {
            PpOcr::new(model, self.models.as_deref(), self.onnxruntime.as_deref())
                .map_err(|e| (e.code(), e.to_string()))
        });
        match (loaded, self.kind) {
            (Ok(p), _) => Ok(Some(p)),
            (Err(_), OcrEngineKind::Auto) => Ok(None),
            (Err((code, msg)), _) => Err(match code {
                ErrorCode::RuntimeMissing => Error::RuntimeMissing(msg.clone()),
                _ => Error::Model(msg.clone()),
            }),
        }
    }
}

impl OcrEngine for AutoOcr {
    fn recognize(&self, image: &GrayImage, req: &OcrRequest<'_>) -> Result<TextPage> {
        let set = self.tesseract.language_set(req)?;
        let pp = if set.latin.is_empty() {
            None
        } else {
            self.ppocr()?
        };
        let Some(pp) = pp else {
            return self.tesseract.recognize_planned(image, req, &set, None);
        };
        // Upright first, by PP-OCR's reading of the longest lines both ways (a turned page's
        // probe reads garbage and would decide the script on it).
        let (turn, quads) = pp.orientation(image)?;
        let turned = if turn == 0 {
            None
        } else {
            super::imageops::rotate_cw(image, turn)
        };
        let page = turned.as_ref().unwrap_or(image);
        let quads = match turned {
            None => quads,
            Some(_) => pp.detect(page)?,
        };
        // Enhanced recognition reads the regions with the small recogniser; standard mode reads
        // them with the tiny one, and the small one takes a second look at the tokens with
        // digits the tiny one was unsure of (measured: see the module's documentation). The
        // small models ship with the tiny ones; where they cannot be loaded, standard mode goes
        // on without the second look.
        let small = match req.heavy {
            true => self.ppocr_small()?,
            false => self.ppocr_small().ok().flatten(),
        };
        let heavy = small.filter(|_| req.heavy);
        let cyrillic = !set.cyrillic.is_empty();
        // The tiny recogniser's reading decides the script: the small one spells Cyrillic words
        // otherwise (enhanced mode read the synthetic uk/ru training scans as Latin: macro F1 of
        // the 97 scans 94.6 -> 91.2). Enhanced mode asks it about the page's longest lines only
        // ([`SCRIPT_SAMPLE`]) where Cyrillic languages are enabled; standard mode's own reading
        // is kept for the page.
        let mut tiny = None;
        if cyrillic {
            let spelling = match heavy {
                Some(_) => pp.read_longest(page, &quads, SCRIPT_SAMPLE)?,
                None => tiny.insert(pp.read_lines(page, quads.clone())?).reading(),
            };
            // A page spelt in Latin look-alikes of Cyrillic words is tesseract's (module
            // documentation: this test, not a probe by tesseract, decides the script), with the
            // language plan of its probe where that finds Cyrillic (a Latin model beside the
            // Cyrillic one where the page mixes them), else with the Cyrillic models.
            if case_flip_share(&spelling) >= CYRILLIC_FLIP_SHARE {
                let plan = match self.tesseract.plan_page(page, &set)? {
                    (plan, Script::Cyrillic) => plan,
                    _ => self.tesseract.cyrillic_plan(&set),
                };
                return self
                    .tesseract
                    .recognize_planned(page, req, &set, Some(plan))
                    .map(|p| super::turned_by(p, turn));
            }
        }
        let mut lines = match (heavy, tiny) {
            (Some(small), _) => small.read_lines(page, quads)?,
            (None, Some(lines)) => lines,
            (None, None) => pp.read_lines(page, quads)?,
        };
        if let (None, Some(small)) = (heavy, small) {
            small.second_look(page, &mut lines)?;
            small.date_look(page, &mut lines)?;
        }
        let mut reading = lines.reading();
        // A Latin page's segments that PP-OCR spelt in Latin look-alikes of Cyrillic words (a
        // Russian buyer's block on an Estonian invoice): tesseract reads them with the Cyrillic
        // models and, as the control, a Latin one; the Cyrillic reading replaces PP-OCR's where
        // it is Cyrillic text and the more confident by [`SEGMENT_SCRIPT_MARGIN`].
        if cyrillic && let Some(latin) = set.reading_latin() {
            self.tesseract.reread_segments(
                page,
                &mut reading,
                &super::lang::join(&set.cyrillic),
                Some((latin, SEGMENT_SCRIPT_MARGIN)),
                |words| segment_flip_share(words) >= SEGMENT_FLIP_SHARE,
                |ours, cyr| {
                    let letters =
                        |r: &Reading| r.text().chars().filter(|c| c.is_alphabetic()).count();
                    super::real_cyrillic(cyr)
                        && cyr.mean_conf() >= SEGMENT_CYRILLIC_CONF
                        && letters(cyr) * 5 >= letters(ours) * 3
                },
            )?;
        }
        Ok(reading.into_page(req.page, page, OcrEngineName::PpOcr, turn))
    }
}

/// How many of a page's longest lines the tiny recogniser reads (their first twelve line
/// heights) to tell the script in enhanced mode (four batches). On the 97 synthetic training
/// scans enhanced mode reads with 24 exactly as with the whole page read by the tiny recogniser
/// (macro F1 95.7); 12 whole lines took a Finnish scan for Cyrillic (95.1). Enhanced mode per A4
/// page: 2.20 s with the 24 whole lines, 1.95 s with their beginnings (benches/reports).
const SCRIPT_SAMPLE: usize = 24;

/// [`case_flip_share`] from which a PP-OCR reading is taken for a Cyrillic page: on the 97
/// synthetic training scans, the 82 Latin pages read at most 0.15, the 15 Cyrillic ones
/// 0.49-0.76; the 88 SROIE tuning receipts at most 0.11.
const CYRILLIC_FLIP_SHARE: f32 = 0.3;

/// [`case_flip_share`] from which a segment of a Latin page (a line's run of words, see
/// [`TesseractOcr::reread_segments`](super::TesseractOcr)) is read again with the Cyrillic
/// models.
const SEGMENT_FLIP_SHARE: f32 = 0.5;

/// How much more confident tesseract's Cyrillic reading of such a segment must be than its
/// Latin one (the margin of [`super::lang::decide_script_by_confidence`]).
const SEGMENT_SCRIPT_MARGIN: f32 = 0.1;

/// The least mean confidence of tesseract's Cyrillic reading of a segment that replaces
/// PP-OCR's (which keeps at least three fifths of its letters): Cyrillic print reads above 0.85;
/// a till slip's Latin header read so, about 0.5.
const SEGMENT_CYRILLIC_CONF: f32 = 0.7;

/// [`case_flip_share`] of a segment's words, taking each run of letters between other
/// characters as a word (`Tax(RM)` is `Tax` and `RM`, no flip).
fn segment_flip_share(words: &[crate::types::Word]) -> f32 {
    flip_share(
        words
            .iter()
            .flat_map(|w| w.text.split(|c: char| !c.is_alphabetic())),
    )
}

/// Share of a reading's words of four or more letters with a capital after a small letter
/// inside them ("PaxyHOK", "TepMiH"): how PP-OCR's Latin recogniser spells Cyrillic words. Real
/// Latin-script text has few ("McDonald", "GmbH").
fn case_flip_share(r: &Reading) -> f32 {
    flip_share(r.words.iter().map(|w| w.text.as_str()))
}

/// [`case_flip_share`] of words given as texts.
fn flip_share<'a>(texts: impl Iterator<Item = &'a str>) -> f32 {
    let mut words = 0usize;
    let mut flipped = 0usize;
    for text in texts {
        let letters: Vec<char> = text.chars().filter(|c| c.is_alphabetic()).collect();
        if letters.len() < 4 {
            continue;
        }
        words += 1;
        if super::flips_case(&letters) {
            flipped += 1;
        }
    }
    if words == 0 {
        0.0
    } else {
        flipped as f32 / words as f32
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{all_languages, joined, req, text_image};
    use super::*;

    fn auto(kind: OcrEngineKind) -> AutoOcr {
        let params = OcrParams {
            engine: kind,
            ..OcrParams::default()
        };
        AutoOcr::new(&params, None).expect("tesseract and PP-OCR (bash scripts/setup.sh)")
    }

    fn latin_page() -> GrayImage {
        text_image(&[
            "Invoice No. 2024-0815 dated 12.03.2024",
            "Total amount due: 1,234.56 EUR",
            "IBAN DE89 3704 0044 0532 0130 00",
        ])
        .expect("DejaVu font (fonts-dejavu-core)")
    }

    #[test]
    fn latin_pages_go_to_ppocr_and_cyrillic_ones_to_tesseract() {
        let ocr = auto(OcrEngineKind::Auto);
        let langs = all_languages();
        let page = ocr.recognize(&latin_page(), &req(&langs)).unwrap();
        assert_eq!(page.engine, Some(OcrEngineName::PpOcr));
        assert_eq!(page.page, 3);
        let text = joined(&page);
        for w in [
            "Invoice",
            "2024-0815",
            "12.03.2024",
            "1,234.56",
            "EUR",
            "DE89",
        ] {
            assert!(text.contains(w), "{w} not in {text}");
        }
        let uk = text_image(&[
            "Рахунок-фактура № 15 від 12 березня 2024",
            "Загальна сума: 1500,00 грн. Постачальник: ТОВ Світанок, Київ",
        ])
        .unwrap();
        let page = ocr.recognize(&uk, &req(&langs)).unwrap();
        assert_eq!(page.engine, Some(OcrEngineName::Tesseract));
        assert!(joined(&page).contains("березня"), "{}", joined(&page));
        // Enhanced recognition too (the tiny recogniser's spelling decides, not the small one's).
        let heavy = OcrRequest {
            heavy: true,
            ..req(&langs)
        };
        let page = ocr.recognize(&uk, &heavy).unwrap();
        assert_eq!(page.engine, Some(OcrEngineName::Tesseract));
        let page = ocr.recognize(&latin_page(), &heavy).unwrap();
        assert_eq!(page.engine, Some(OcrEngineName::PpOcr));
        assert!(joined(&page).contains("1,234.56"), "{}", joined(&page));
        // Latin languages only: no probe, PP-OCR reads.
        let en = vec!["en".to_string()];
        let page = ocr.recognize(&latin_page(), &req(&en)).unwrap();
        assert_eq!(page.engine, Some(OcrEngineName::PpOcr));
    }

    #[test]
    fn a_cyrillic_block_on_a_latin_page_is_read_by_the_cyrillic_models() {
        // An Estonian invoice whose buyer is a Russian company: PP-OCR reads the page, and the
        // lines it spells in Latin look-alikes of Cyrillic words go to tesseract's Cyrillic
        // models (and the lines of their column with them).
        let ocr = auto(OcrEngineKind::Auto);
        let langs = all_languages();
        let page = text_image(&[
            "Vastuvõtuakt nr 68653, koostatud Tallinnas 03.05.2025",
            "Müüja: Elekter Nord AS, Narva maantee 96, Pärnu",
            "Ostja:",
            "ИП Новиков Б.О., Новосибирск",
            "Tööde nimetus: elektritööd ja paigaldus hoones",
            "Kokku tasuda: 1 234,56 EUR pangaülekandega",
            "Tasumise tähtaeg kolmkümmend päeva arve kuupäevast",
        ])
        .unwrap();
        let read = ocr.recognize(&page, &req(&langs)).unwrap();
        assert_eq!(read.engine, Some(OcrEngineName::PpOcr));
        let text = joined(&read);
        for w in [
            "Новиков",
            "Новосибирск",
            "Elekter",
            "Ostja:",
            "1 234,56",
            "EUR",
        ] {
            assert!(text.contains(w), "{w} not in {text}");
        }
    }

    #[test]
    fn ppocr_words_have_boxes_on_their_text_and_confidences() {
        let ocr = auto(OcrEngineKind::Ppocr);
        let en = vec!["en".to_string()];
        let page = ocr.recognize(&latin_page(), &req(&en)).unwrap();
        let total = page.words.iter().find(|w| w.text == "1,234.56").unwrap();
        // Second line of text_image: drawn from y = 180, 48 px glyphs, x from 100.
        assert!(total.bbox.y0 > 160.0 && total.bbox.y1 < 250.0, "{total:?}");
        assert!(total.bbox.x0 > 400.0 && total.bbox.x1 < 1000.0, "{total:?}");
        assert!(total.confidence > 0.8, "{total:?}");
        let first = &page.words[0];
        assert_eq!(first.text, "Invoice");
        assert!(first.bbox.x0 >= 80.0 && first.bbox.x0 < 130.0, "{first:?}");
    }

    #[test]
    fn a_turned_page_states_the_turn_that_made_it_upright() {
        let ocr = auto(OcrEngineKind::Ppocr);
        let en = vec!["en".to_string()];
        let upright = latin_page();
        let page = ocr.recognize(&upright, &req(&en)).unwrap();
        assert_eq!(page.rotation, 0);
        // Turned a quarter clockwise, the page is read after three more quarter turns; its
        // size and boxes are those of the upright image.
        let turned = image::imageops::rotate90(&upright);
        let page = ocr.recognize(&turned, &req(&en)).unwrap();
        assert_eq!(page.rotation, 270);
        assert_eq!(
            (page.width, page.height),
            (upright.width() as f32, upright.height() as f32)
        );
        assert!(joined(&page).contains("1,234.56"), "{}", joined(&page));
        let page = ocr
            .recognize(&image::imageops::rotate180(&upright), &req(&en))
            .unwrap();
        assert_eq!(page.rotation, 180);
    }

    #[test]
    fn the_tesseract_setting_never_uses_ppocr() {
        let ocr = auto(OcrEngineKind::Tesseract);
        let en = vec!["en".to_string()];
        let page = ocr.recognize(&latin_page(), &req(&en)).unwrap();
        assert_eq!(page.engine, Some(OcrEngineName::Tesseract));
        assert!(ocr.ppocr.get().is_none(), "PP-OCR was loaded");
    }

    #[test]
    fn broken_models_are_an_error_only_when_ppocr_is_required() {
        // A models root whose marker is there but whose model files are not ONNX: the setting
        // is searched first, so this root is the one loaded.
        let root = std::env::temp_dir().join(format!("folio-broken-ppocr-{}", std::process::id()));
        std::fs::create_dir_all(root.join("ppocrv6/tiny/det")).unwrap();
        std::fs::create_dir_all(root.join("ppocrv6/tiny/rec")).unwrap();
        std::fs::write(root.join("ppocrv6/ppocrv6_dict.txt"), "a\nb\n").unwrap();
        std::fs::write(root.join("ppocrv6/ppocrv6_tiny_dict.txt"), "a\nb\n").unwrap();
        std::fs::write(root.join("ppocrv6/tiny/det/det.onnx"), b"not a model").unwrap();
        std::fs::write(root.join("ppocrv6/tiny/rec/rec.onnx"), b"not a model").unwrap();
        let params = |engine| OcrParams {
            engine,
            ppocr_models: Some(root.clone()),
            ..OcrParams::default()
        };
        let en = vec!["en".to_string()];
        let ocr = AutoOcr::new(&params(OcrEngineKind::Auto), None).unwrap();
        let page = ocr.recognize(&latin_page(), &req(&en)).unwrap();
        assert_eq!(
            page.engine,
            Some(OcrEngineName::Tesseract),
            "auto falls back"
        );
        let ocr = AutoOcr::new(&params(OcrEngineKind::Ppocr), None).unwrap();
        let e = ocr.recognize(&latin_page(), &req(&en)).unwrap_err();
        assert_eq!(e.code(), ErrorCode::ModelError, "{e}");
        assert!(e.to_string().contains("PP-OCR"), "{e}");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn latin_look_alike_spellings_of_cyrillic_words_are_case_flips() {
        let reading = |t: &str| Reading {
            words: t
                .split(' ')
                .map(|w| crate::types::Word {
                    text: w.into(),
                    bbox: crate::types::BBox::new(0.0, 0.0, 1.0, 1.0),
                    confidence: 0.9,
                })
                .collect(),
        };
        let cyr = reading("PaxyHOK Ha onnaTy TepMiH BuKOHaBeub 3aMOBHMK Cyma");
        assert!(case_flip_share(&cyr) >= CYRILLIC_FLIP_SHARE);
        let lat = reading("Invoice number GmbH McDonald Rechnung total Betrag");
        assert!(case_flip_share(&lat) < CYRILLIC_FLIP_SHARE);
        assert_eq!(case_flip_share(&reading("12 34")), 0.0);
    }
}
