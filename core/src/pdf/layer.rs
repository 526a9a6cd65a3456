//! Pure functions over a page's characters: word building from per-character boxes, the
//! text-layer quality score and the "must this page be OCR'd" decision. No pdfium here, so all of
//! it is unit-tested on synthetic characters.

use crate::types::{BBox, Word};

/// One character of a text layer with its box (points, top-left origin, display orientation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CharBox {
    /// The character (`'\0'` for a glyph without a Unicode mapping).
    pub ch: char,
    /// Its box.
    pub bbox: BBox,
    /// pdfium made this character up (a space or line break it guessed from the layout, not one
    /// printed in the file).
    pub generated: bool,
}

impl CharBox {
    /// A character printed in the file.
    pub fn new(ch: char, bbox: BBox) -> Self {
        CharBox {
            ch,
            bbox,
            generated: false,
        }
    }
}

/// Horizontal (or, for vertical text, vertical) gap between two characters, as a share of the
/// character height, above which they belong to different words.
pub const WORD_GAP: f32 = 0.25;

/// The gap threshold where pdfium guessed a space: lower than [`WORD_GAP`] (a guessed space is a
/// hint), but above the letter spacing of spaced-out or justified text, where pdfium guesses
/// spaces inside words (`Ver käufer`, `inner halb`, measured gaps of 0.11 of the height against
/// 0.3 and more for real word spaces).
pub const GUESSED_SPACE_GAP: f32 = 0.17;

/// Direction in which the characters of the word being built advance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Unknown,
    Right,
    Down,
    Up,
}

/// True for characters that separate words (any whitespace, pdfium's generated line breaks and
/// control characters).
fn is_separator(c: char) -> bool {
    c != '\0' && (c.is_whitespace() || c.is_control() || c == '\u{feff}' || c == '\u{200b}')
}

/// Decides whether `cur` continues the word whose last character is `prev`, and in which
/// direction the word flows.
fn continues(prev: &BBox, cur: &BBox, flow: Flow, max_gap: f32) -> Option<Flow> {
    let h = prev.height().max(cur.height()).max(0.1);
    let w = prev.width().max(cur.width()).max(0.1);
    // Left to right on one baseline.
    if matches!(flow, Flow::Unknown | Flow::Right) && prev.v_overlap(cur) >= 0.5 {
        let gap = cur.x0 - prev.x1;
        if gap <= max_gap * h && gap >= -0.5 * h.max(prev.width()) {
            return Some(Flow::Right);
        }
    }
    // Vertical text (characters rotated by 90 degrees in the page): boxes stack in one column.
    // The "height" of a rotated glyph is its box width.
    if matches!(flow, Flow::Unknown | Flow::Down | Flow::Up)
        && prev.h_overlap(cur) >= 0.5
        && prev.v_overlap(cur) < 0.5
    {
        let down = cur.y0 - prev.y1;
        let up = prev.y0 - cur.y1;
        if matches!(flow, Flow::Unknown | Flow::Down) && down <= max_gap * w && down >= -0.5 * w {
            return Some(Flow::Down);
        }
        if matches!(flow, Flow::Unknown | Flow::Up) && up <= max_gap * w && up >= -0.5 * w {
            return Some(Flow::Up);
        }
    }
    None
}

/// Builds words from characters in content order: a word ends at a printed whitespace / control
/// character, at a gap wider than [`WORD_GAP`] of the character height ([`GUESSED_SPACE_GAP`]
/// where pdfium guessed a space), or where the next character is not on the same line (or column,
/// for vertical text).
pub fn build_words(chars: &[CharBox]) -> Vec<Word> {
    let mut words = Vec::new();
    let mut text = String::new();
    let mut bbox = BBox::default();
    let mut last = BBox::default();
    let mut flow = Flow::Unknown;
    let mut guessed_space = false;

    let flush = |text: &mut String, bbox: &BBox, words: &mut Vec<Word>| {
        if !text.is_empty() {
            words.push(Word {
                text: std::mem::take(text),
                bbox: *bbox,
                confidence: 1.0,
            });
        }
    };

    for c in chars {
        if c.generated && c.ch == ' ' {
            guessed_space = true;
            continue;
        }
        if is_separator(c.ch) {
            flush(&mut text, &bbox, &mut words);
            flow = Flow::Unknown;
            continue;
        }
        let b = c.bbox;
        if b.x0.is_nan() || b.y0.is_nan() || b.x1.is_nan() || b.y1.is_nan() {
            continue;
        }
        if !text.is_empty() {
            let max_gap = if guessed_space {
                GUESSED_SPACE_GAP
            } else {
                WORD_GAP
            };
            match continues(&last, &b, flow, max_gap) {
                Some(f) => {
                    flow = f;
                    bbox = bbox.union(&b);
                }
                None => {
                    flush(&mut text, &bbox, &mut words);
                    flow = Flow::Unknown;
                    bbox = b;
                }
            }
        } else {
            bbox = b;
        }
        // An unmapped glyph keeps its place (so the box is right) as U+FFFD.
        text.push(if c.ch == '\0' { '\u{fffd}' } else { c.ch });
        last = b;
        guessed_space = false;
    }
    flush(&mut text, &bbox, &mut words);
    words
}

/// How a character counts for the quality score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharClass {
    /// Whitespace: ignored.
    Space,
    /// Letter of a script the product reads (Latin, Greek, Cyrillic), digit, common punctuation.
    Good,
    /// A real character of another kind (CJK, Arabic, dingbats, rare symbols): suspicious in
    /// business documents of the supported languages.
    Other,
    /// Sure sign of a broken encoding: private use, control, replacement, unmapped glyph.
    Bad,
}

/// Classifies one character.
pub fn classify_char(c: char) -> CharClass {
    let u = c as u32;
    if c.is_whitespace() {
        return CharClass::Space;
    }
    if u == 0
        || c.is_control()
        || c == '\u{fffd}'
        || c == '\u{fffe}'
        || c == '\u{ffff}'
        || (0xE000..=0xF8FF).contains(&u)
        || u >= 0xF0000
        || (0xD800..=0xDFFF).contains(&u)
    {
        return CharClass::Bad;
    }
    if c.is_ascii_alphanumeric() || c.is_ascii_punctuation() {
        return CharClass::Good;
    }
    let letter_script = matches!(u,
        0x00C0..=0x024F      // Latin-1 letters, Latin Extended A/B
        | 0x1E00..=0x1EFF    // Latin Extended Additional
        | 0x0370..=0x03FF    // Greek
        | 0x0400..=0x052F    // Cyrillic + supplement
    );
    if letter_script && c.is_alphanumeric() {
        return CharClass::Good;
    }
    const COMMON: &str = "–—‐‑‒―‘’‚‛“”„‟«»‹›…•·°±×÷§¶©®™€£¥¢₴₽₸₹№¹²³¼½¾µ¤¦¨¬¯´¸ªº¿¡†‡‰′″";
    if COMMON.contains(c) {
        return CharClass::Good;
    }
    CharClass::Other
}

/// Script of a letter, for the mixed-script check.
fn script(c: char) -> u8 {
    let u = c as u32;
    if c.is_ascii_alphabetic() || (0x00C0..=0x024F).contains(&u) {
        1
    } else if (0x0400..=0x052F).contains(&u) {
        2
    } else {
        0
    }
}

/// Statistics of a page's text used by the usability decision.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TextStats {
    /// Non-whitespace characters.
    pub total: usize,
    /// [`CharClass::Good`] characters.
    pub good: usize,
    /// [`CharClass::Bad`] characters.
    pub bad: usize,
    /// Characters of words that mix Latin and Cyrillic letters (a broken ToUnicode map sign).
    pub mixed: usize,
}

impl TextStats {
    /// Counts the characters of `text`.
    pub fn of_text(text: &str) -> TextStats {
        Self::of_words(text.split(char::is_whitespace))
    }

    /// Counts the characters of words.
    pub fn of_words<'a>(words: impl IntoIterator<Item = &'a str>) -> TextStats {
        let mut s = TextStats::default();
        for w in words {
            let mut scripts = 0u8;
            let mut n = 0;
            for c in w.chars() {
                match classify_char(c) {
                    CharClass::Space => continue,
                    CharClass::Good => s.good += 1,
                    CharClass::Bad => s.bad += 1,
                    CharClass::Other => {}
                }
                n += 1;
                scripts |= script(c);
            }
            s.total += n;
            if scripts == 3 {
                s.mixed += n;
            }
        }
        s
    }

    /// Quality 0..1: the share of good characters, lowered by broken-encoding signs (each bad
    /// character weighs double) and by mixed-script words. 0 when there is no text.
    pub fn quality(&self) -> f32 {
        if self.total == 0 {
            return 0.0;
        }
        let t = self.total as f32;
        let q = (self.good as f32 - self.bad as f32 - 0.5 * self.mixed as f32) / t;
        q.clamp(0.0, 1.0)
    }
}

/// Good characters below which a page counts as having no text layer worth keeping (a page
/// number or stamp on a scan, text drawn as vector outlines).
pub const MIN_GOOD_CHARS: usize = 20;
/// Good characters below which large images make the page a scan to OCR.
pub const SCAN_TEXT_CHARS: usize = 150;
/// Share of the page area covered by images above which a page with little text is a scan.
pub const SCAN_IMAGE_COVERAGE: f32 = 0.3;

/// Whether a page's text layer can be used instead of OCR. `image_coverage` (0..1) is only
/// consulted for pages with little text, so callers may pass a lazily computed value.
pub fn is_usable(
    stats: &TextStats,
    min_quality: f32,
    image_coverage: impl FnOnce() -> f32,
) -> bool {
    if stats.good < MIN_GOOD_CHARS {
        return false;
    }
    if stats.quality() < min_quality {
        return false;
    }
    if stats.good < SCAN_TEXT_CHARS && image_coverage() >= SCAN_IMAGE_COVERAGE {
        return false;
    }
    true
}

/// Page rotation in clockwise quarter turns (0..=3).
pub type QuarterTurns = u8;

/// Converts a rectangle in PDF user space (origin bottom-left, unrotated page of `w` x `h`
/// points whose box starts at `(ox, oy)`) to top-left display coordinates of the page rotated
/// by `turns` clockwise quarter turns (as pdfium renders it).
pub fn to_display(
    rect: (f32, f32, f32, f32),
    origin: (f32, f32),
    size: (f32, f32),
    turns: QuarterTurns,
) -> BBox {
    let (l, b, r, t) = rect;
    let (ox, oy) = origin;
    let (w, h) = size;
    let map = |x: f32, y: f32| -> (f32, f32) {
        let (x, y) = (x - ox, y - oy);
        match turns % 4 {
            0 => (x, h - y),
            1 => (y, x),
            2 => (w - x, y),
            _ => (h - y, w - x),
        }
    };
    let (ax, ay) = map(l, b);
    let (bx, by) = map(r, t);
    BBox::new(ax, ay, bx, by)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_building_time_grows_linearly() {
        // Lines of words, one after another (a text layer of many text operations).
        let page = |n: usize| -> Vec<CharBox> {
            (0..n)
                .flat_map(|i| {
                    let (x, y) = ((i % 9) as f32 * 60.0, (i / 9 % 80) as f32 * 10.0);
                    line(&format!("w{} ", i % 1000), x, y, 5.0, 8.0)
                })
                .collect()
        };
        let (small, big) = (page(20_000), page(160_000));
        let best = |chars: &[CharBox]| {
            (0..3)
                .map(|_| {
                    let t = std::time::Instant::now();
                    let words = build_words(chars);
                    TextStats::of_words(words.iter().map(|w| w.text.as_str()));
                    t.elapsed()
                })
                .min()
                .unwrap()
        };
        let (t1, t8) = (best(&small), best(&big));
        let ratio = t8.as_secs_f64() / t1.as_secs_f64().max(0.002);
        assert!(
            ratio < 24.0,
            "8x the characters took {ratio:.1}x ({t1:?} -> {t8:?})"
        );
    }

    fn line(text: &str, x: f32, y: f32, adv: f32, h: f32) -> Vec<CharBox> {
        let mut out = Vec::new();
        let mut cx = x;
        for ch in text.chars() {
            out.push(CharBox::new(ch, BBox::new(cx, y, cx + adv * 0.9, y + h)));
            cx += adv;
        }
        out
    }

    fn texts(words: &[Word]) -> Vec<&str> {
        words.iter().map(|w| w.text.as_str()).collect()
    }

    #[test]
    fn splits_on_spaces_and_keeps_boxes() {
        let chars = line("Total 12,50", 100.0, 50.0, 6.0, 10.0);
        let words = build_words(&chars);
        assert_eq!(texts(&words), ["Total", "12,50"]);
        let w = &words[0];
        assert!((w.bbox.x0 - 100.0).abs() < 1e-3);
        assert!((w.bbox.x1 - (100.0 + 4.0 * 6.0 + 5.4)).abs() < 1e-3);
        assert!((w.bbox.y0 - 50.0).abs() < 1e-3 && (w.bbox.y1 - 60.0).abs() < 1e-3);
        assert_eq!(w.confidence, 1.0);
        assert!((words[1].bbox.x0 - 136.0).abs() < 1e-3);
    }

    #[test]
    fn splits_on_wide_gaps_without_space_chars() {
        // Table cells placed by coordinates, no space character between them.
        let mut chars = line("Netto", 10.0, 10.0, 5.0, 10.0);
        chars.extend(line("100,00", 60.0, 10.0, 5.0, 10.0));
        assert_eq!(texts(&build_words(&chars)), ["Netto", "100,00"]);
        // A small gap (kerning) does not split.
        let mut chars = line("AB", 0.0, 0.0, 5.0, 10.0);
        chars.extend(line("CD", 10.0 + 2.0, 0.0, 5.0, 10.0));
        assert_eq!(texts(&build_words(&chars)), ["ABCD"]);
    }

    #[test]
    fn guessed_spaces_split_only_at_word_gaps() {
        let guessed = |x: f32| CharBox {
            ch: ' ',
            bbox: BBox::new(x, 0.0, x, 0.0),
            generated: true,
        };
        // Letter-spaced `Verkäufer`: pdfium guessed a space at a gap of 0.1 of the height.
        let mut chars = line("Ver", 0.0, 0.0, 5.0, 10.0);
        chars.push(guessed(14.5));
        chars.extend(line("käufer", 15.5, 0.0, 5.0, 10.0));
        assert_eq!(texts(&build_words(&chars)), ["Verkäufer"]);
        // A guessed space at a real word gap (0.3 of the height) splits.
        let mut chars = line("Zahlbar", 0.0, 0.0, 5.0, 10.0);
        chars.push(guessed(34.5));
        chars.extend(line("innerhalb", 37.5, 0.0, 5.0, 10.0));
        assert_eq!(texts(&build_words(&chars)), ["Zahlbar", "innerhalb"]);
        // A printed space always splits.
        let mut chars = line("a", 0.0, 0.0, 5.0, 10.0);
        chars.push(CharBox::new(' ', BBox::default()));
        chars.extend(line("b", 5.0, 0.0, 5.0, 10.0));
        assert_eq!(texts(&build_words(&chars)), ["a", "b"]);
    }

    #[test]
    fn splits_on_line_change_and_control_chars() {
        let mut chars = line("abc", 0.0, 0.0, 5.0, 10.0);
        chars.extend(line("def", 15.0, 30.0, 5.0, 10.0));
        assert_eq!(texts(&build_words(&chars)), ["abc", "def"]);
        let mut chars = line("abc", 0.0, 0.0, 5.0, 10.0);
        chars.push(CharBox::new('\r', BBox::default()));
        chars.push(CharBox::new('\n', BBox::default()));
        chars.extend(line("def", 15.0, 0.0, 5.0, 10.0));
        assert_eq!(texts(&build_words(&chars)), ["abc", "def"]);
        // Going back to the left on the same line starts a new word.
        let mut chars = line("abc", 100.0, 0.0, 5.0, 10.0);
        chars.extend(line("xyz", 0.0, 0.0, 5.0, 10.0));
        assert_eq!(texts(&build_words(&chars)), ["abc", "xyz"]);
    }

    #[test]
    fn vertical_text_forms_words() {
        // Characters rotated by 90 degrees: boxes stacked downwards, 10 wide, 5 tall.
        let chars: Vec<CharBox> = "VERT"
            .chars()
            .enumerate()
            .map(|(i, ch)| {
                CharBox::new(
                    ch,
                    BBox::new(0.0, i as f32 * 5.0, 10.0, i as f32 * 5.0 + 4.5),
                )
            })
            .collect();
        let words = build_words(&chars);
        assert_eq!(texts(&words), ["VERT"]);
        assert!((words[0].bbox.y1 - 19.5).abs() < 1e-3);
    }

    #[test]
    fn unmapped_glyph_becomes_replacement_char() {
        let mut chars = line("ab", 0.0, 0.0, 5.0, 10.0);
        chars[1].ch = '\0';
        assert_eq!(texts(&build_words(&chars)), ["a\u{fffd}"]);
        assert!(build_words(&[]).is_empty());
    }

    #[test]
    fn classifies_characters() {
        assert_eq!(classify_char('a'), CharClass::Good);
        assert_eq!(classify_char('ß'), CharClass::Good);
        assert_eq!(classify_char('ł'), CharClass::Good);
        assert_eq!(classify_char('ї'), CharClass::Good);
        assert_eq!(classify_char('€'), CharClass::Good);
        assert_eq!(classify_char('№'), CharClass::Good);
        assert_eq!(classify_char(' '), CharClass::Space);
        assert_eq!(classify_char('\u{e012}'), CharClass::Bad);
        assert_eq!(classify_char('\u{fffd}'), CharClass::Bad);
        assert_eq!(classify_char('\u{3}'), CharClass::Bad);
        assert_eq!(classify_char('中'), CharClass::Other);
    }

    #[test]
    fn quality_separates_text_from_garbage() {
        let good = TextStats::of_text("Rechnung Nr. 2024-001 vom 05.03.2024, Summe: 1.234,56 €");
        assert!(good.quality() > 0.99, "{good:?}");
        let ru = TextStats::of_text("Счёт-фактура № 15 от 12 марта 2024 г. Итого: 5 000,00 ₽");
        assert!(ru.quality() > 0.99, "{ru:?}");
        // Private-use glyphs (a symbolic font without ToUnicode).
        let pua: String = (0..40)
            .map(|i| char::from_u32(0xE000 + i).unwrap_or('x'))
            .collect();
        assert_eq!(TextStats::of_text(&pua).quality(), 0.0);
        // Identity-H without ToUnicode: CIDs come out as control characters and CJK.
        let cid = "\u{3}\u{11}\u{5}\u{1a} 乀乁乂 \u{2}\u{13}\u{4}";
        assert!(TextStats::of_text(cid).quality() < 0.1);
        // A broken map that mixes scripts inside words.
        let mixed = TextStats::of_text("Rеchnungsсumme Gеsаmtbеtrаg");
        assert!(mixed.mixed > 0);
        assert!(mixed.quality() < 0.75, "{mixed:?}");
        assert_eq!(TextStats::of_text("   ").quality(), 0.0);
    }

    #[test]
    fn usability_decision() {
        let long = TextStats::of_text(&"Rechnung Betrag 100,00 EUR ".repeat(10));
        // Plenty of good text: usable, the image check is not even consulted.
        assert!(is_usable(&long, 0.75, || panic!("not needed")));
        // Too little text: not usable whatever the images.
        let short = TextStats::of_text("Seite 1");
        assert!(!is_usable(&short, 0.75, || 0.0));
        // Some text on a page covered by a scan image: OCR it.
        let some = TextStats::of_text(&"Rechnung Betrag ".repeat(5));
        assert!(!is_usable(&some, 0.75, || 0.9));
        assert!(is_usable(&some, 0.75, || 0.05));
        // Garbage: not usable.
        let garbage = TextStats::of_text(&"\u{e001}\u{e002}ab ".repeat(30));
        assert!(!is_usable(&garbage, 0.75, || 0.0));
    }

    #[test]
    fn display_transform_handles_rotation() {
        // Unrotated A4-ish page 600 x 800, rect near the bottom-left corner.
        let r = (10.0, 20.0, 30.0, 40.0);
        let b = to_display(r, (0.0, 0.0), (600.0, 800.0), 0);
        assert_eq!(b, BBox::new(10.0, 760.0, 30.0, 780.0));
        // 90 clockwise: the bottom-left corner goes to the top-left.
        let b = to_display(r, (0.0, 0.0), (600.0, 800.0), 1);
        assert_eq!(b, BBox::new(20.0, 10.0, 40.0, 30.0));
        // 180: the bottom-left goes to the top-right.
        let b = to_display(r, (0.0, 0.0), (600.0, 800.0), 2);
        assert_eq!(b, BBox::new(570.0, 20.0, 590.0, 40.0));
        // 270: the bottom-left goes to the bottom-right of the 800 x 600 display.
        let b = to_display(r, (0.0, 0.0), (600.0, 800.0), 3);
        assert_eq!(b, BBox::new(760.0, 570.0, 780.0, 590.0));
        // A crop box that does not start at the origin.
        let b = to_display(r, (10.0, 20.0), (600.0, 800.0), 0);
        assert_eq!(b, BBox::new(0.0, 780.0, 20.0, 800.0));
    }
}
