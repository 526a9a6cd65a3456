//! Small image operations used around OCR: Otsu binarisation, scaling, quarter-turn rotation
//! and finding the densest band of text for the language probe.

use image::{GrayImage, imageops};

/// Otsu threshold of a grayscale image.
pub fn otsu_threshold(img: &GrayImage) -> u8 {
    let mut hist = [0u64; 256];
    for p in img.as_raw() {
        hist[usize::from(*p)] += 1;
    }
    let total: u64 = hist.iter().sum();
    if total == 0 {
        return 128;
    }
    let sum_all: f64 = hist
        .iter()
        .enumerate()
        .map(|(i, &n)| i as f64 * n as f64)
        .sum();
    let (mut w_b, mut sum_b, mut best, mut best_t) = (0f64, 0f64, -1f64, 128u8);
    for (t, &n) in hist.iter().enumerate() {
        w_b += n as f64;
        if w_b == 0.0 {
            continue;
        }
        let w_f = total as f64 - w_b;
        if w_f == 0.0 {
            break;
        }
        sum_b += t as f64 * n as f64;
        let m_b = sum_b / w_b;
        let m_f = (sum_all - sum_b) / w_f;
        let between = w_b * w_f * (m_b - m_f) * (m_b - m_f);
        if between > best {
            best = between;
            best_t = t as u8;
        }
    }
    best_t
}

/// Black text on white by Otsu's global threshold.
pub fn binarize(img: &GrayImage) -> GrayImage {
    let t = otsu_threshold(img);
    let mut out = img.clone();
    for p in out.iter_mut() {
        *p = if *p <= t { 0 } else { 255 };
    }
    out
}

/// Scales by `factor` (Catmull-Rom when enlarging, triangle when reducing).
pub fn scale(img: &GrayImage, factor: f32) -> GrayImage {
    let w = ((img.width() as f32 * factor).round() as u32).max(1);
    let h = ((img.height() as f32 * factor).round() as u32).max(1);
    let filter = if factor > 1.0 {
        imageops::FilterType::CatmullRom
    } else {
        imageops::FilterType::Triangle
    };
    imageops::resize(img, w, h, filter)
}

/// Rotates clockwise by `deg` (a multiple of 90; anything else leaves the image as is).
pub fn rotate_cw(img: &GrayImage, deg: i32) -> Option<GrayImage> {
    match deg.rem_euclid(360) {
        90 => Some(imageops::rotate90(img)),
        180 => Some(imageops::rotate180(img)),
        270 => Some(imageops::rotate270(img)),
        _ => None,
    }
}

/// Rows `(top, height)` of the horizontal band of `band_h` rows holding the most dark pixels
/// (the densest text), or the whole image when it is not taller than the band.
pub fn densest_band(img: &GrayImage, band_h: u32) -> (u32, u32) {
    let h = img.height();
    if band_h >= h || img.width() == 0 {
        return (0, h);
    }
    let w = img.width() as usize;
    let rows: Vec<u32> = img
        .as_raw()
        .chunks_exact(w)
        .map(|r| r.iter().filter(|&&p| p < 128).count() as u32)
        .collect();
    let band = band_h as usize;
    let mut sum: u64 = rows.iter().take(band).map(|&v| u64::from(v)).sum();
    let (mut best, mut best_top) = (sum, 0usize);
    for top in 1..=rows.len().saturating_sub(band) {
        sum += u64::from(rows.get(top + band - 1).copied().unwrap_or(0));
        sum -= u64::from(rows.get(top - 1).copied().unwrap_or(0));
        if sum > best {
            best = sum;
            best_top = top;
        }
    }
    (best_top as u32, band_h)
}

/// Rows `(top, height)` of the band of at most `band_h` rows holding the most lines of text:
/// ink rows grouped into lines, lines of ordinary height and moderate ink density counted (logos,
/// filled boxes and rules are not text), the topmost band on a tie. Falls back to
/// [`densest_band`] when no text line is found; lines overlapping the row ranges `skip` (top,
/// height) never count. Headers and party blocks, rich in words that tell
/// the language, win over dense tables of numbers and logos.
pub fn text_band(img: &GrayImage, band_h: u32, skip: &[(u32, u32)]) -> (u32, u32) {
    let (w, h) = img.dimensions();
    if band_h >= h || w == 0 {
        return (0, h);
    }
    let rows: Vec<u32> = img
        .as_raw()
        .chunks_exact(w as usize)
        .map(|r| r.iter().filter(|&&p| p < 128).count() as u32)
        .collect();
    // Rows with a few dark pixels of noise are blank.
    let min_ink = (w / 400).max(1);
    let mut lines: Vec<(u32, u32, u64)> = Vec::new(); // top, bottom (exclusive), ink
    let mut cur: Option<(u32, u64)> = None;
    for (y, &n) in rows.iter().enumerate() {
        let y = y as u32;
        match (n >= min_ink, cur) {
            (true, None) => cur = Some((y, u64::from(n))),
            (true, Some((t, ink))) => cur = Some((t, ink + u64::from(n))),
            (false, Some((t, ink))) => {
                lines.push((t, y, ink));
                cur = None;
            }
            (false, None) => {}
        }
    }
    if let Some((t, ink)) = cur {
        lines.push((t, h, ink));
    }
    let median_height = |lines: &[(u32, u32, u64)]| {
        let mut heights: Vec<u32> = lines.iter().map(|l| l.1 - l.0).collect();
        heights.sort_unstable();
        heights.get(heights.len() / 2).copied()
    };
    // Accents and dots above (`Ї`, `ä`) and descenders separated by a row or two belong to
    // their line.
    let Some(first_median) = median_height(&lines) else {
        return densest_band(img, band_h);
    };
    let join_gap = (first_median / 3).max(2);
    let mut merged: Vec<(u32, u32, u64)> = Vec::with_capacity(lines.len());
    for l in lines {
        match merged.last_mut() {
            Some(m) if l.0 - m.1 <= join_gap && l.1 - m.0 <= first_median * 2 => {
                m.1 = l.1;
                m.2 += l.2;
            }
            _ => merged.push(l),
        }
    }
    let lines = merged;
    let Some(median) = median_height(&lines) else {
        return densest_band(img, band_h);
    };
    let skipped = |l: &(u32, u32, u64)| skip.iter().any(|&(t, sh)| l.1 > t && l.0 < t + sh);
    let texty = |l: &(u32, u32, u64)| {
        if skipped(l) {
            return false;
        }
        let lh = l.1 - l.0;
        let density = l.2 as f64 / (f64::from(lh) * f64::from(w));
        lh * 5 >= median * 2 && lh * 2 <= median * 5 && lh >= 6 && density < 0.25
    };
    let mut best: Option<(usize, usize)> = None; // (count, first line)
    for i in 0..lines.len() {
        if !texty(&lines[i]) {
            continue;
        }
        let count = lines[i..]
            .iter()
            .take_while(|l| l.1 - lines[i].0 <= band_h)
            .filter(|l| texty(l))
            .count();
        if best.is_none_or(|(c, _)| count > c) {
            best = Some((count, i));
        }
    }
    let Some((_, i)) = best else {
        return densest_band(img, band_h);
    };
    let top = lines[i].0;
    let n = lines[i..]
        .iter()
        .take_while(|l| l.1 - top <= band_h)
        .count()
        .max(1);
    let bottom = lines[i + n - 1].1;
    // Margins of half a line, never reaching into the neighbouring lines.
    let pad = (median / 2).max(2);
    let above = if i > 0 { lines[i - 1].1 } else { 0 };
    let below = lines.get(i + n).map_or(h, |l| l.0);
    let t = top.saturating_sub(pad).max((above + top).div_ceil(2));
    let b = (bottom + pad).min((bottom + below) / 2).max(bottom).min(h);
    (t, b - t)
}

/// Widens the band `(top, height)` so that its edges fall on rows without dark pixels (a text
/// line is never cut), moving each edge at most `max_move` rows.
pub fn snap_band(img: &GrayImage, top: u32, height: u32, max_move: u32) -> (u32, u32) {
    let w = img.width() as usize;
    let ink = |y: u32| -> bool {
        let s = y as usize * w;
        img.as_raw()
            .get(s..s + w)
            .is_some_and(|r| r.iter().any(|&p| p < 128))
    };
    let mut t = top;
    while t > 0 && top - t < max_move && ink(t) {
        t -= 1;
    }
    let mut b = (top + height).min(img.height());
    while b < img.height() && b - (top + height).min(img.height()) < max_move && ink(b - 1) {
        b += 1;
    }
    (t, b.saturating_sub(t))
}

/// Gray level at or below which a pixel counts as ink when looking for blank pages.
pub const INK_LEVEL: u8 = 160;

/// Fewest ink pixels per million that make a page worth reading: a blank page (white, or a white
/// page with a few specks) has fewer. The smallest legible mark, a full stop at 6 pt rendered at
/// 72 DPI, covers about 4 pixels of a 0.5 Mpx page, i.e. 8 per million.
const MIN_INK_PER_MILLION: u64 = 8;

/// Whether the image holds any ink worth reading: at least 8 pixels per million (and
/// at least 4) no lighter than `level`. One pass over the pixels, no allocation: the cheap test
/// that lets a page without ink skip OCR altogether.
pub fn has_ink(img: &GrayImage, level: u8) -> bool {
    let area = u64::from(img.width()) * u64::from(img.height());
    let need = (area * MIN_INK_PER_MILLION / 1_000_000).max(4);
    let mut seen = 0u64;
    for chunk in img.as_raw().chunks(4096) {
        seen += chunk.iter().filter(|&&p| p <= level).count() as u64;
        if seen >= need {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {

    #[test]
    fn ink_is_found_only_where_there_is_some() {
        let white = GrayImage::from_pixel(400, 300, image::Luma([255]));
        assert!(!has_ink(&white, INK_LEVEL));
        let mut specks = white.clone();
        for i in 0..3 {
            specks.put_pixel(10 + i * 50, 20, image::Luma([0]));
        }
        assert!(!has_ink(&specks, INK_LEVEL), "three specks are no ink");
        let mut word = white.clone();
        for x in 100..140 {
            for y in 50..60 {
                word.put_pixel(x, y, image::Luma([30]));
            }
        }
        assert!(has_ink(&word, INK_LEVEL));
        // Light gray (a scanner's paper tone) is not ink.
        let gray = GrayImage::from_pixel(400, 300, image::Luma([200]));
        assert!(!has_ink(&gray, INK_LEVEL));
        assert!(!has_ink(&GrayImage::new(0, 0), INK_LEVEL));
    }
    use super::*;
    use image::Luma;

    #[test]
    fn otsu_splits_two_levels() {
        let mut img = GrayImage::from_pixel(20, 10, Luma([200]));
        for x in 0..5 {
            for y in 0..10 {
                img.put_pixel(x, y, Luma([40]));
            }
        }
        let t = otsu_threshold(&img);
        assert!((40..200).contains(&t), "{t}");
        let b = binarize(&img);
        assert_eq!(b.get_pixel(0, 0).0[0], 0);
        assert_eq!(b.get_pixel(19, 9).0[0], 255);
    }

    #[test]
    fn rotation_and_scale() {
        let img = GrayImage::new(30, 10);
        assert_eq!(rotate_cw(&img, 90).map(|i| i.dimensions()), Some((10, 30)));
        assert_eq!(rotate_cw(&img, -90).map(|i| i.dimensions()), Some((10, 30)));
        assert!(rotate_cw(&img, 0).is_none());
        assert_eq!(scale(&img, 1.5).dimensions(), (45, 15));
    }

    #[test]
    fn text_band_prefers_lines_of_text_over_a_dense_logo() {
        let mut img = GrayImage::from_pixel(400, 1000, Luma([255]));
        // A solid logo at the top, then six text-like lines (sparse strokes) further down.
        for y in 20..120 {
            for x in 0..400 {
                img.put_pixel(x, y, Luma([0]));
            }
        }
        for k in 0..6 {
            let y0 = 500 + k * 30;
            for y in y0..y0 + 15 {
                for x in (10..390).step_by(7) {
                    img.put_pixel(x, y, Luma([0]));
                }
            }
        }
        let (top, h) = text_band(&img, 120, &[]);
        assert!((480..=500).contains(&top), "{top} {h}");
        assert!(top + h >= 500 + 3 * 30 + 15 && h <= 140, "{top} {h}");
        // The next band, the first one skipped.
        let (t2, _) = text_band(&img, 120, &[(top, h)]);
        assert!(t2 >= top + h - 20, "{t2}");
        // Nothing to read: the whole image when the band is taller.
        assert_eq!(text_band(&img, 2000, &[]), (0, 1000));
    }

    #[test]
    fn finds_the_dense_band() {
        let mut img = GrayImage::from_pixel(50, 100, Luma([255]));
        for y in 60..70 {
            for x in 0..50 {
                img.put_pixel(x, y, Luma([0]));
            }
        }
        let (top, h) = densest_band(&img, 20);
        assert_eq!(h, 20);
        assert!(top <= 60 && top + h >= 70, "{top}");
        assert_eq!(densest_band(&img, 200), (0, 100));
        // A band cutting the dark rows 60..70 is widened to blank rows.
        let (t, h) = snap_band(&img, 65, 20, 30);
        assert!(t <= 59 && t + h >= 85, "{t} {h}");
        let (t, h) = snap_band(&img, 50, 5, 30);
        assert_eq!((t, h), (50, 5));
    }
}
