//! Image preparation for OCR: skew estimation by projection profiles, rotation with white fill,
//! light contrast stretch, and an optional Sauvola binarisation for the heavy OCR path.

use image::GrayImage;

/// Largest skew searched, in degrees.
const MAX_SKEW_DEG: f32 = 10.0;
/// Skews below this are left alone (rotation costs time and blurs a little).
const MIN_CORRECTION_DEG: f32 = 0.2;
/// Longest side of the working copy used for the skew estimate.
const WORK_SIDE: u32 = 1000;
/// Most ink pixels projected per angle (denser pages are subsampled evenly).
const MAX_INK_POINTS: usize = 60_000;

/// Prepares an image for OCR: a photo's page cut out, flattened and evenly lit
/// ([`super::photo::flatten`]), then deskew and normalised contrast.
pub fn prepare_for_ocr(image: GrayImage) -> GrayImage {
    let image = super::photo::flatten(image);
    let angle = deskew_angle(&image);
    let image = if angle.abs() >= MIN_CORRECTION_DEG {
        rotate_white(&image, -angle)
    } else {
        image
    };
    normalize_contrast(image)
}

/// Rotates clockwise by `deg` about the centre (same size, bilinear, white outside). Fixed-point
/// incremental stepping keeps it to a few integer operations per pixel.
pub(crate) fn rotate_white(img: &GrayImage, deg: f32) -> GrayImage {
    const ONE: f64 = 65536.0;
    let (w, h) = img.dimensions();
    let (wi, hi) = (w as i64, h as i64);
    let wu = w as usize;
    let src = img.as_raw();
    let (s, c) = f64::from(deg).to_radians().sin_cos();
    let (cx, cy) = (f64::from(w) / 2.0, f64::from(h) / 2.0);
    let (step_x, step_y) = ((c * ONE).round() as i64, (-s * ONE).round() as i64);
    let mut out = vec![255u8; wu * h as usize];
    let get = |x: i64, y: i64| -> u32 {
        if x < 0 || y < 0 || x >= wi || y >= hi {
            255
        } else {
            u32::from(src[y as usize * wu + x as usize])
        }
    };
    for (y, row) in out.chunks_exact_mut(wu.max(1)).enumerate() {
        let dy = y as f64 + 0.5 - cy;
        let dx0 = 0.5 - cx;
        // Source of the output pixel: the inverse (counter-clockwise) rotation, in Q16.
        let mut xs = ((dx0 * c + dy * s + cx - 0.5) * ONE).round() as i64;
        let mut ys = ((-dx0 * s + dy * c + cy - 0.5) * ONE).round() as i64;
        for o in row.iter_mut() {
            let (x0, y0) = (xs >> 16, ys >> 16);
            if x0 >= -1 && y0 >= -1 && x0 < wi && y0 < hi {
                let fx = ((xs >> 8) & 0xFF) as u32;
                let fy = ((ys >> 8) & 0xFF) as u32;
                let (a, b, cc, d) = if x0 >= 0 && y0 >= 0 && x0 + 1 < wi && y0 + 1 < hi {
                    let i = y0 as usize * wu + x0 as usize;
                    (
                        u32::from(src[i]),
                        u32::from(src[i + 1]),
                        u32::from(src[i + wu]),
                        u32::from(src[i + wu + 1]),
                    )
                } else {
                    (
                        get(x0, y0),
                        get(x0 + 1, y0),
                        get(x0, y0 + 1),
                        get(x0 + 1, y0 + 1),
                    )
                };
                let top = a * (256 - fx) + b * fx;
                let bot = cc * (256 - fx) + d * fx;
                *o = ((top * (256 - fy) + bot * fy + 32768) >> 16) as u8;
            }
            xs += step_x;
            ys += step_y;
        }
    }
    GrayImage::from_raw(w, h, out).unwrap_or_else(|| img.clone())
}

/// Box-filter downscale by an integer factor (fast, enough for layout statistics).
pub(super) fn downscale(img: &GrayImage, f: u32) -> GrayImage {
    if f <= 1 {
        return img.clone();
    }
    let (w, h) = img.dimensions();
    let (nw, nh) = ((w / f).max(1), (h / f).max(1));
    let src = img.as_raw();
    let mut out = vec![0u8; (nw * nh) as usize];
    let mut acc = vec![0u32; nw as usize];
    for ny in 0..nh {
        acc.iter_mut().for_each(|a| *a = 0);
        let mut rows = 0u32;
        for y in (ny * f)..((ny + 1) * f).min(h) {
            rows += 1;
            let row = &src[(y * w) as usize..((y + 1) * w) as usize];
            for (nx, a) in acc.iter_mut().enumerate() {
                let x0 = nx * f as usize;
                let x1 = (x0 + f as usize).min(w as usize);
                *a += row[x0..x1].iter().map(|&v| u32::from(v)).sum::<u32>();
            }
        }
        let div = rows * f;
        for (nx, a) in acc.iter().enumerate() {
            out[ny as usize * nw as usize + nx] = (a / div.max(1)) as u8;
        }
    }
    GrayImage::from_raw(nw, nh, out).unwrap_or_else(|| GrayImage::new(1, 1))
}

pub(super) fn histogram(img: &GrayImage) -> [u64; 256] {
    let mut h = [0u64; 256];
    for &v in img.as_raw() {
        h[usize::from(v)] += 1;
    }
    h
}

/// Otsu's threshold from a histogram.
pub(super) fn otsu(hist: &[u64; 256]) -> u8 {
    let total: u64 = hist.iter().sum();
    if total == 0 {
        return 128;
    }
    let sum_all: f64 = hist
        .iter()
        .enumerate()
        .map(|(i, &c)| i as f64 * c as f64)
        .sum();
    let (mut w_b, mut sum_b, mut best, mut best_t) = (0f64, 0f64, -1f64, 128u8);
    for (t, &c) in hist.iter().enumerate() {
        w_b += c as f64;
        if w_b == 0.0 {
            continue;
        }
        let w_f = total as f64 - w_b;
        if w_f == 0.0 {
            break;
        }
        sum_b += t as f64 * c as f64;
        let (m_b, m_f) = (sum_b / w_b, (sum_all - sum_b) / w_f);
        let between = w_b * w_f * (m_b - m_f) * (m_b - m_f);
        if between > best {
            best = between;
            best_t = t as u8;
        }
    }
    best_t
}

/// Sum of squared bin counts of the ink projected along lines tilted by `tan`.
fn profile_score(ink: &[(f32, f32)], tan: f32, bins: &mut [u32], offset: f32) -> f64 {
    bins.iter_mut().for_each(|b| *b = 0);
    let n = bins.len();
    for &(x, y) in ink {
        let b = (y - x * tan + offset) as isize;
        if b >= 0 && (b as usize) < n {
            bins[b as usize] += 1;
        }
    }
    bins.iter().map(|&c| f64::from(c) * f64::from(c)).sum()
}

/// Estimated skew of the text lines in degrees (positive: lines descend to the right, i.e. the
/// content is turned clockwise). 0 when there is too little text or no clear optimum.
pub fn deskew_angle(image: &GrayImage) -> f32 {
    let (w, h) = image.dimensions();
    if w < 32 || h < 32 {
        return 0.0;
    }
    let f = w.max(h).div_ceil(WORK_SIDE).max(1);
    let small = downscale(image, f);
    let t = otsu(&histogram(&small));
    let (sw, sh) = small.dimensions();
    let cx = sw as f32 / 2.0;
    let mut ink: Vec<(f32, f32)> = Vec::new();
    for (x, y, p) in small.enumerate_pixels() {
        if p[0] < t {
            ink.push((x as f32 - cx, y as f32));
        }
    }
    let share = ink.len() as f64 / f64::from(sw * sh);
    if ink.len() < 50 || share > 0.5 {
        return 0.0;
    }
    // Subsample very dense pages: the profile shape survives, the cost stays flat.
    if ink.len() > MAX_INK_POINTS {
        let step = ink.len() / MAX_INK_POINTS + 1;
        ink = ink.into_iter().step_by(step).collect();
    }
    let max_shift = cx * MAX_SKEW_DEG.to_radians().tan();
    let offset = max_shift + 1.0;
    let mut bins = vec![0u32; (sh as f32 + 2.0 * offset) as usize + 2];
    let score =
        |deg: f32, bins: &mut [u32]| profile_score(&ink, deg.to_radians().tan(), bins, offset);
    let base = score(0.0, &mut bins);
    let (mut best, mut best_s) = (0.0f32, base);
    let mut deg = -MAX_SKEW_DEG;
    while deg <= MAX_SKEW_DEG + 1e-3 {
        let s = score(deg, &mut bins);
        if s > best_s {
            (best, best_s) = (deg, s);
        }
        deg += 0.5;
    }
    let coarse = best;
    for i in -5..=5 {
        let d = coarse + i as f32 * 0.1;
        let s = score(d, &mut bins);
        if s > best_s {
            (best, best_s) = (d, s);
        }
    }
    // Demand a clear gain over "no skew" so noise never rotates a straight page.
    if best_s < base * 1.05 {
        return 0.0;
    }
    (best * 10.0).round() / 10.0
}

/// Light contrast stretch: the paper level (most common value above the Otsu threshold) goes to
/// white and the darkest 0.5 % to black. Pages with almost no range (blank) are left as they are.
pub(crate) fn normalize_contrast(mut img: GrayImage) -> GrayImage {
    let hist = histogram(&img);
    let total: u64 = hist.iter().sum();
    if total == 0 {
        return img;
    }
    let mut lo = 255i32;
    let mut acc = 0;
    for (i, &c) in hist.iter().enumerate() {
        acc += c;
        if acc > total / 200 {
            lo = i as i32;
            break;
        }
    }
    let t = usize::from(otsu(&hist));
    let paper = (t..256).max_by_key(|&i| (hist[i], i)).unwrap_or(255) as i32;
    if paper - lo < 32 || (lo == 0 && paper == 255) {
        return img;
    }
    let lut: Vec<u8> = (0..256)
        .map(|v| {
            (((v - lo) * 255) as f32 / (paper - lo) as f32)
                .round()
                .clamp(0.0, 255.0) as u8
        })
        .collect();
    for p in img.pixels_mut() {
        p[0] = lut[usize::from(p[0])];
    }
    img
}

/// Sauvola binarisation (ink 0, paper 255), window scaled to the page, integral images (O(n)).
pub fn binarize(image: &GrayImage) -> GrayImage {
    let (w, h) = image.dimensions();
    let (wu, hu) = (w as usize, h as usize);
    if wu == 0 || hu == 0 {
        return image.clone();
    }
    let win = ((w.min(h) / 50).max(15) | 1) as usize;
    let r = win / 2;
    let k = 0.2f64;
    let src = image.as_raw();
    let stride = wu + 1;
    let mut sum = vec![0u64; stride * (hu + 1)];
    let mut sq = vec![0u64; stride * (hu + 1)];
    for y in 0..hu {
        let (mut rs, mut rq) = (0u64, 0u64);
        for x in 0..wu {
            let v = u64::from(src[y * wu + x]);
            rs += v;
            rq += v * v;
            sum[(y + 1) * stride + x + 1] = sum[y * stride + x + 1] + rs;
            sq[(y + 1) * stride + x + 1] = sq[y * stride + x + 1] + rq;
        }
    }
    let mut out = vec![255u8; wu * hu];
    for y in 0..hu {
        let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(hu));
        for x in 0..wu {
            let (x0, x1) = (x.saturating_sub(r), (x + r + 1).min(wu));
            let n = ((y1 - y0) * (x1 - x0)) as f64;
            let s = (sum[y1 * stride + x1] + sum[y0 * stride + x0]
                - sum[y0 * stride + x1]
                - sum[y1 * stride + x0]) as f64;
            let q = (sq[y1 * stride + x1] + sq[y0 * stride + x0]
                - sq[y0 * stride + x1]
                - sq[y1 * stride + x0]) as f64;
            let mean = s / n;
            let sd = (q / n - mean * mean).max(0.0).sqrt();
            let t = mean * (1.0 + k * (sd / 128.0 - 1.0));
            if f64::from(src[y * wu + x]) <= t {
                out[y * wu + x] = 0;
            }
        }
    }
    GrayImage::from_raw(w, h, out).unwrap_or_else(|| image.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A synthetic page: text-like rows of dashes, turned by `deg` (clockwise positive).
    fn page(w: u32, h: u32, deg: f32) -> GrayImage {
        let mut img = GrayImage::from_pixel(w, h, Luma([235]));
        let line_h = (h / 70).max(3);
        let mut y = h / 10;
        while y < h * 9 / 10 {
            let mut x = w / 10;
            while x < w * 9 / 10 {
                let word = w / 25 + (x * 7 + y * 3) % (w / 30);
                for yy in y..y + line_h {
                    for xx in x..(x + word).min(w * 9 / 10) {
                        img.put_pixel(xx, yy, Luma([30]));
                    }
                }
                x += word + w / 60;
            }
            y += line_h * 3;
        }
        if deg == 0.0 {
            img
        } else {
            // Reference rotation from imageproc (clockwise for positive angles).
            imageproc::geometric_transformations::rotate_about_center(
                &img,
                deg.to_radians(),
                imageproc::geometric_transformations::Interpolation::Bilinear,
                Luma([235]),
            )
        }
    }

    #[test]
    fn estimates_skew_both_directions() {
        for deg in [-7.0f32, -2.5, 0.0, 1.3, 4.0, 9.0] {
            let est = deskew_angle(&page(1200, 1600, deg));
            assert!((est - deg).abs() <= 0.3, "true {deg}, estimated {est}");
        }
    }

    #[test]
    fn own_rotation_matches_imageproc() {
        let img = page(400, 300, 0.0);
        let ours = rotate_white(&img, 5.0);
        let theirs = imageproc::geometric_transformations::rotate_about_center(
            &img,
            5f32.to_radians(),
            imageproc::geometric_transformations::Interpolation::Bilinear,
            Luma([255]),
        );
        let diff = ours
            .pixels()
            .zip(theirs.pixels())
            .filter(|(a, b)| (i32::from(a[0]) - i32::from(b[0])).abs() > 40)
            .count();
        assert!(diff < 400 * 300 / 100, "{diff} pixels differ");
        assert_eq!(rotate_white(&img, 0.0).as_raw(), img.as_raw());
    }

    #[test]
    fn blank_and_tiny_pages_have_no_skew() {
        assert_eq!(
            deskew_angle(&GrayImage::from_pixel(500, 700, Luma([250]))),
            0.0
        );
        assert_eq!(deskew_angle(&GrayImage::from_pixel(10, 10, Luma([0]))), 0.0);
    }

    #[test]
    fn prepare_straightens_and_stretches() {
        let skewed = page(1000, 1400, 3.0);
        let out = prepare_for_ocr(skewed);
        assert_eq!(out.dimensions(), (1000, 1400));
        assert!(deskew_angle(&out).abs() <= 0.3, "{}", deskew_angle(&out));
        // Background 235 is stretched to white; corners filled white, text still dark.
        assert_eq!(out.get_pixel(500, 20)[0], 255);
        assert!(out.pixels().filter(|p| p[0] < 60).count() > 10_000);
    }

    #[test]
    fn binarize_separates_ink_under_uneven_light() {
        let mut img = GrayImage::new(300, 200);
        for (x, y, p) in img.enumerate_pixels_mut() {
            // Paper darkens from 240 to 150 left to right; ink is 60 below the local paper.
            let paper = 240 - (x * 90 / 300) as u8;
            let ink = (40..50).contains(&y) && x % 20 < 12;
            *p = Luma([if ink { paper - 100 } else { paper }]);
        }
        let b = binarize(&img);
        assert!(b.pixels().all(|p| p[0] == 0 || p[0] == 255));
        assert_eq!(b.get_pixel(285, 45)[0], 0, "ink on dark side");
        assert_eq!(b.get_pixel(285, 150)[0], 255, "paper on dark side");
        assert_eq!(b.get_pixel(5, 45)[0], 0);
        assert_eq!(b.get_pixel(5, 150)[0], 255);
    }

    #[test]
    fn deskew_is_fast_on_a4_300dpi() {
        let img = page(2480, 3508, 2.0);
        let t = std::time::Instant::now();
        let a = deskew_angle(&img);
        let ms = t.elapsed().as_millis();
        assert!((a - 2.0).abs() <= 0.3, "{a}");
        // Generous bound for unoptimised test builds on a shared machine.
        assert!(ms < 1000, "deskew took {ms} ms");
        let t = std::time::Instant::now();
        let out = prepare_for_ocr(img);
        eprintln!(
            "deskew_angle 2480x3508: {ms} ms; prepare_for_ocr (with rotation): {} ms",
            t.elapsed().as_millis()
        );
        assert!(deskew_angle(&out).abs() <= 0.3);
    }
}
