//! Phone photos: the page found in the frame and flattened before OCR.
//!
//! * **Outline**: on a small copy (text closed away by a grey-level closing), the region grown
//!   from the brightest paper across every step softer than an edge: a shadow's soft edge and
//!   light falling off are crossed, the paper's sharp edge against the table is not (a single
//!   threshold splits a shadowed page, or lets a lit table corner in). Its holes filled, it is
//!   fitted with the quadrilateral of largest area inside its convex hull, and accepted only when
//!   it is clearly brighter than what surrounds it, fills that quadrilateral, and leaves
//!   something of the frame to cut away (a scan or a page filling the frame has no outline and
//!   is left as it is).
//! * **Perspective and curl**: the page is mapped to a rectangle by the homography of the four
//!   corners, plus a Coons-patch correction that follows the page's real edges where they bow
//!   (a curled receipt): each edge's distance from the straight line between its corners is
//!   measured along the edge and blended across the page.
//! * **Light**: falling-off light and shadows are divided out by the paper's own level,
//!   estimated in blocks larger than a character (only where that level really varies, so clean
//!   scans are not touched).
//! * **Size**: huge photos are reduced early; nothing downstream gains from more than
//!   [`MAX_PIXELS`] (an A4 page at 300 DPI and a little more).
//!
//! Turned pages (90/180/270) and residual skew are left to the OCR engines' orientation check and
//! to the deskew that follows.

use super::ocrprep::{downscale, histogram, otsu};
use image::{GrayImage, Luma};
use imageproc::geometric_transformations::{Interpolation, Projection, warp_into_with};
use imageproc::morphology::{Mask, grayscale_close};
use imageproc::point::Point;

/// Most pixels a prepared page keeps: an A4 or Letter page at 300 DPI (8.7 and 8.4 million) and
/// a little more; a 12-megapixel photo is reduced.
pub const MAX_PIXELS: u64 = 9_000_000;
/// Long side of the copy the outline is looked for on.
const FIND_SIDE: u32 = 640;
/// Radius (small-copy pixels) of the closing that erases text from the paper.
const CLOSE_RADIUS: u8 = 3;
/// Smallest share of the frame a page's outline covers.
const MIN_PAGE_SHARE: f32 = 0.06;
/// Largest share: a page covering more leaves nothing worth cutting away.
const MAX_PAGE_SHARE: f32 = 0.93;
/// A step between neighbouring pixels of the small copy above this share of the paper-table
/// contrast is an edge the page's region does not grow across.
const EDGE_STEP_SHARE: f32 = 0.2;
/// Paper at least this much brighter (grey levels) than the table around it.
const MIN_PAPER_CONTRAST: f32 = 25.0;
/// The bright region fills at least this share of its quadrilateral (a page, not a blob).
const MIN_FILL: f32 = 0.85;
/// The quadrilateral covers at least this share of the region's convex hull.
const MIN_HULL_SHARE: f32 = 0.88;
/// Interior angles of a page seen in perspective stay within this many degrees of a right angle.
const MAX_CORNER_SKEW_DEG: f32 = 40.0;
/// Points measured along each edge for the curl correction.
const EDGE_SAMPLES: usize = 24;
/// How far from the straight edge (share of the page's other side) a bowed edge is looked for.
const MAX_BEND_SHARE: f32 = 0.08;
/// Bends below this (small-copy pixels) are noise: the page is taken as flat.
const MIN_BEND: f32 = 2.5;
/// Light correction: the paper's level may vary by this share before it is divided out.
const EVEN_LIGHT_SHARE: f32 = 0.85;
/// The paper's estimated level never goes below this share of its brightest (a solid black
/// area is ink, not shadow).
const MIN_LIGHT_SHARE: f32 = 0.4;

/// Where a page lies in a photo: corners clockwise from the top left in image pixels, and how its
/// edges bow away from the straight lines between them.
#[derive(Debug, Clone, PartialEq)]
pub struct Outline {
    /// Top left, top right, bottom right, bottom left (as seen in the frame).
    pub corners: [(f32, f32); 4],
    /// Displacements (image pixels) of each edge from its chord, `EDGE_SAMPLES + 1` points from
    /// the first corner of the edge to the next: top, right, bottom, left; `None` when flat.
    bends: Option<[Vec<(f32, f32)>; 4]>,
}

impl Outline {
    /// Whether the page's edges bow (a curl is corrected).
    pub fn curled(&self) -> bool {
        self.bends.is_some()
    }
}

/// Makes a photo ready for the page preparation that follows: the page cut out of the frame and
/// flattened when an outline is found, the image reduced to [`MAX_PIXELS`] otherwise, and uneven
/// light divided out. A scan comes back unchanged (same buffer) unless it is over the size.
pub fn flatten(image: GrayImage) -> GrayImage {
    let image = match find_outline(&image) {
        Some(outline) => rectify(&image, &outline),
        None => reduce(image),
    };
    even_light(image)
}

/// The page's outline in a photo, if the photo shows a page on a darker ground.
pub fn find_outline(img: &GrayImage) -> Option<Outline> {
    let (w, h) = img.dimensions();
    if w < 16 || h < 16 {
        return None;
    }
    let f = w.max(h).div_ceil(FIND_SIDE).max(1);
    let small = grayscale_close(&downscale(img, f), &Mask::disk(CLOSE_RADIUS));
    let (sw, sh) = small.dimensions();
    // Paper and table levels (Otsu's classes) set how sharp a step is an edge.
    let hist = histogram(&small);
    let t = usize::from(otsu(&hist));
    let mean = |r: std::ops::Range<usize>| {
        let n: u64 = hist[r.clone()].iter().sum();
        let s: u64 = r.clone().map(|v| v as u64 * hist[v]).sum();
        s as f32 / n.max(1) as f32
    };
    let step = (EDGE_STEP_SHARE * (mean(t + 1..256) - mean(0..t + 1))).clamp(8.0, 40.0);
    // The page: grown from the brightest paper across every step softer than an edge. A
    // shadow's edge or light falling off changes the level slowly and is crossed; the paper's
    // edge against the table is a jump of several times `step` within two pixels and is not.
    let v = |x: u32, y: u32| f32::from(small.get_pixel(x, y)[0]);
    // A pixel on an edge: its neighbours on either side differ by more than two steps (a slanted
    // edge's pixels change slowly along it, so the region must not walk along them).
    let edge = |x: u32, y: u32| {
        let across = |a: (u32, u32), b: (u32, u32)| (v(a.0, a.1) - v(b.0, b.1)).abs();
        let (l, r) = (x.saturating_sub(1), (x + 1).min(sw - 1));
        let (u, d) = (y.saturating_sub(1), (y + 1).min(sh - 1));
        across((l, y), (r, y)).max(across((x, u), (x, d))) > 2.0 * step
    };
    // The seed: the brightest pixel away from every edge (a corner's pixel may be brightest).
    let calm = |x: u32, y: u32| {
        x > 0
            && y > 0
            && x + 1 < sw
            && y + 1 < sh
            && [(x, y), (x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                .iter()
                .all(|&(a, b)| !edge(a, b))
    };
    let (seed, _) = small
        .enumerate_pixels()
        .filter(|(x, y, _)| calm(*x, *y))
        .max_by_key(|(_, _, p)| p[0])
        .map(|(x, y, p)| ((x, y), p[0]))?;
    let page = flood(sw, sh, [seed], |from, to| {
        (v(to.0, to.1) - v(from.0, from.1)).abs() <= step && !edge(to.0, to.1)
    });
    let frame = (sw * sh) as f32;
    let grown = page.iter().filter(|p| **p).count();
    if (grown as f32) < MIN_PAGE_SHARE * frame {
        return None;
    }
    // The page: the region with its holes (print the closing left) filled, i.e. everything the
    // frame's border cannot reach without crossing it.
    let border = (0..sw)
        .flat_map(|x| [(x, 0), (x, sh - 1)])
        .chain((0..sh).flat_map(|y| [(0, y), (sw - 1, y)]));
    let open = |p: (u32, u32)| !page[(p.1 * sw + p.0) as usize];
    let reached = flood(sw, sh, border.filter(|&p| open(p)), |_, to| open(to));
    let area = reached.iter().filter(|r| !**r).count() as u32;
    let inside = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x < i64::from(sw)
            && y < i64::from(sh)
            && !reached[(y as u32 * sw + x as u32) as usize]
    };
    // Paper against table.
    let (mut sum_in, mut sum_out) = (0f64, 0f64);
    for (x, y, p) in small.enumerate_pixels() {
        if inside(i64::from(x), i64::from(y)) {
            sum_in += f64::from(p[0]);
        } else {
            sum_out += f64::from(p[0]);
        }
    }
    let outside = frame - area as f32;
    if outside < 0.03 * frame {
        return None;
    }
    let contrast = sum_in / f64::from(area) - sum_out / f64::from(outside);
    if (contrast as f32) < MIN_PAPER_CONTRAST {
        return None;
    }
    // The region's boundary, its hull, the largest quadrilateral inside it.
    let mut boundary = Vec::new();
    for y in 0..i64::from(sh) {
        for x in 0..i64::from(sw) {
            if inside(x, y)
                && (!inside(x - 1, y)
                    || !inside(x + 1, y)
                    || !inside(x, y - 1)
                    || !inside(x, y + 1))
            {
                boundary.push(Point::new(x as i32, y as i32));
            }
        }
    }
    let hull: Vec<(f32, f32)> = imageproc::geometry::convex_hull(boundary)
        .into_iter()
        .map(|p| (p.x as f32 + 0.5, p.y as f32 + 0.5))
        .collect();
    let quad = largest_quad(&hull)?;
    let quad_area = polygon_area(&quad);
    if quad_area > MAX_PAGE_SHARE * frame
        || (area as f32) < MIN_FILL * quad_area
        || quad_area < MIN_HULL_SHARE * polygon_area(&hull)
    {
        return None;
    }
    let corners = clockwise_from_top_left(quad);
    if !plausible_angles(&corners) {
        return None;
    }
    let bends = edge_bends(&corners, &inside).map(|b| b.map(|e| scale_points(e, f as f32)));
    let corners = corners.map(|(x, y)| (x * f as f32, y * f as f32));
    Some(Outline { corners, bends })
}

/// The pixels of a `w` x `h` grid reached from `seeds` (4-neighbours), stepping from a reached
/// pixel to a neighbour only where `admit(from, to)`.
fn flood(
    w: u32,
    h: u32,
    seeds: impl IntoIterator<Item = (u32, u32)>,
    admit: impl Fn((u32, u32), (u32, u32)) -> bool,
) -> Vec<bool> {
    let mut reached = vec![false; (w * h) as usize];
    let mut stack: Vec<(u32, u32)> = Vec::new();
    for s in seeds {
        let i = (s.1 * w + s.0) as usize;
        if !reached[i] {
            reached[i] = true;
            stack.push(s);
        }
    }
    while let Some((x, y)) = stack.pop() {
        let next = [
            (x.checked_sub(1), Some(y)),
            ((x + 1 < w).then_some(x + 1), Some(y)),
            (Some(x), y.checked_sub(1)),
            (Some(x), (y + 1 < h).then_some(y + 1)),
        ];
        for (nx, ny) in next {
            let (Some(nx), Some(ny)) = (nx, ny) else {
                continue;
            };
            let i = (ny * w + nx) as usize;
            if !reached[i] && admit((x, y), (nx, ny)) {
                reached[i] = true;
                stack.push((nx, ny));
            }
        }
    }
    reached
}

fn scale_points(v: Vec<(f32, f32)>, f: f32) -> Vec<(f32, f32)> {
    v.into_iter().map(|(x, y)| (x * f, y * f)).collect()
}

fn dist(a: (f32, f32), b: (f32, f32)) -> f32 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// Area of a simple polygon (shoelace).
fn polygon_area(p: &[(f32, f32)]) -> f32 {
    let n = p.len();
    let twice: f32 = (0..n)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    twice.abs() / 2.0
}

/// The quadrilateral of largest area with its corners on the hull's vertices: started from the
/// extreme points along the two diagonals, each corner moved along its arc while the area grows.
fn largest_quad(hull: &[(f32, f32)]) -> Option<[(f32, f32); 4]> {
    let n = hull.len();
    if n < 4 {
        return None;
    }
    let arg = |key: &dyn Fn((f32, f32)) -> f32, max: bool| {
        (0..n)
            .max_by(|&a, &b| {
                let (ka, kb) = (key(hull[a]), key(hull[b]));
                if max {
                    ka.total_cmp(&kb)
                } else {
                    kb.total_cmp(&ka)
                }
            })
            .unwrap_or(0)
    };
    let mut idx = [
        arg(&|p| p.0 + p.1, false),
        arg(&|p| p.0 - p.1, true),
        arg(&|p| p.0 + p.1, true),
        arg(&|p| p.0 - p.1, false),
    ];
    idx.sort_unstable();
    let mut uniq = idx.to_vec();
    uniq.dedup();
    // Degenerate start (a thin or turned shape): spread the corners evenly over the hull.
    if uniq.len() < 4 {
        idx = [0, n / 4, n / 2, 3 * n / 4];
    }
    let area = |ix: &[usize; 4]| polygon_area(&ix.map(|i| hull[i]));
    let mut best = area(&idx);
    for _ in 0..20 {
        let mut moved = false;
        for k in 0..4 {
            let (prev, next) = (idx[(k + 3) % 4], idx[(k + 1) % 4]);
            let mut j = (prev + 1) % n;
            while j != next {
                let mut trial = idx;
                trial[k] = j;
                let a = area(&trial);
                if a > best + 1e-3 {
                    best = a;
                    idx = trial;
                    moved = true;
                }
                j = (j + 1) % n;
            }
        }
        if !moved {
            break;
        }
    }
    Some(idx.map(|i| hull[i]))
}

/// Orders four corners clockwise (image coordinates, y down) starting at the one nearest the
/// frame's top left.
fn clockwise_from_top_left(q: [(f32, f32); 4]) -> [(f32, f32); 4] {
    let c = (
        q.iter().map(|p| p.0).sum::<f32>() / 4.0,
        q.iter().map(|p| p.1).sum::<f32>() / 4.0,
    );
    let mut v = q;
    v.sort_by(|a, b| {
        let (ta, tb) = ((a.1 - c.1).atan2(a.0 - c.0), (b.1 - c.1).atan2(b.0 - c.0));
        ta.total_cmp(&tb)
    });
    let start = (0..4)
        .min_by(|&a, &b| (v[a].0 + v[a].1).total_cmp(&(v[b].0 + v[b].1)))
        .unwrap_or(0);
    [
        v[start],
        v[(start + 1) % 4],
        v[(start + 2) % 4],
        v[(start + 3) % 4],
    ]
}

/// Whether every interior angle is within [`MAX_CORNER_SKEW_DEG`] of a right angle.
fn plausible_angles(c: &[(f32, f32); 4]) -> bool {
    (0..4).all(|i| {
        let (p, a, b) = (c[i], c[(i + 3) % 4], c[(i + 1) % 4]);
        let (u, v) = ((a.0 - p.0, a.1 - p.1), (b.0 - p.0, b.1 - p.1));
        let (nu, nv) = (u.0.hypot(u.1), v.0.hypot(v.1));
        if nu < 1.0 || nv < 1.0 {
            return false;
        }
        let cos = ((u.0 * v.0 + u.1 * v.1) / (nu * nv)).clamp(-1.0, 1.0);
        (cos.acos().to_degrees() - 90.0).abs() <= MAX_CORNER_SKEW_DEG
    })
}

/// How each edge of the region bows away from the chord between its corners (small-copy
/// pixels), measured along the inward normal at [`EDGE_SAMPLES`] points; `None` when no edge
/// bows by [`MIN_BEND`].
fn edge_bends(
    c: &[(f32, f32); 4],
    inside: &dyn Fn(i64, i64) -> bool,
) -> Option<[Vec<(f32, f32)>; 4]> {
    let centre = (
        c.iter().map(|p| p.0).sum::<f32>() / 4.0,
        c.iter().map(|p| p.1).sum::<f32>() / 4.0,
    );
    let is_in = |x: f32, y: f32| inside(x.floor() as i64, y.floor() as i64);
    let mut most = 0f32;
    let edges: [Vec<(f32, f32)>; 4] = std::array::from_fn(|e| {
        let (a, b) = (c[e], c[(e + 1) % 4]);
        let len = dist(a, b).max(1.0);
        let mut n = (-(b.1 - a.1) / len, (b.0 - a.0) / len);
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        if n.0 * (centre.0 - mid.0) + n.1 * (centre.1 - mid.1) < 0.0 {
            n = (-n.0, -n.1);
        }
        // The other side of the page bounds the search.
        let across = (dist(c[(e + 1) % 4], c[(e + 2) % 4]) + dist(c[(e + 3) % 4], c[e])) / 2.0;
        let reach = (MAX_BEND_SHARE * across).max(3.0);
        let mut s: Vec<Option<f32>> = (0..=EDGE_SAMPLES)
            .map(|i| {
                if i == 0 || i == EDGE_SAMPLES {
                    return Some(0.0);
                }
                let t = i as f32 / EDGE_SAMPLES as f32;
                let p = (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
                // The outside-to-inside crossing nearest the chord, walking inward.
                let at = |d: f32| is_in(p.0 + d * n.0, p.1 + d * n.1);
                let mut k = 0f32;
                while k <= reach {
                    for d in [k, -k] {
                        if at(d + 0.5) && !at(d - 0.5) {
                            return Some(d);
                        }
                    }
                    k += 0.5;
                }
                None
            })
            .collect();
        fill_gaps(&mut s);
        let raw: Vec<f32> = s.into_iter().map(|d| d.unwrap_or(0.0)).collect();
        // Smoothed (three-point mean), the ends held at the corners.
        let smooth: Vec<f32> = (0..raw.len())
            .map(|i| {
                if i == 0 || i + 1 == raw.len() {
                    0.0
                } else {
                    (raw[i - 1] + raw[i] + raw[i + 1]) / 3.0
                }
            })
            .collect();
        most = smooth.iter().fold(most, |m, d| m.max(d.abs()));
        smooth.into_iter().map(|d| (d * n.0, d * n.1)).collect()
    });
    (most >= MIN_BEND).then_some(edges)
}

/// Missing measurements taken linearly from their neighbours.
fn fill_gaps(s: &mut [Option<f32>]) {
    let known: Vec<usize> = (0..s.len()).filter(|&i| s[i].is_some()).collect();
    for i in 0..s.len() {
        if s[i].is_some() {
            continue;
        }
        let before = known.iter().rev().find(|&&k| k < i);
        let after = known.iter().find(|&&k| k > i);
        s[i] = match (before, after) {
            (Some(&a), Some(&b)) => {
                let (va, vb) = (s[a].unwrap_or(0.0), s[b].unwrap_or(0.0));
                Some(va + (vb - va) * (i - a) as f32 / (b - a) as f32)
            }
            _ => Some(0.0),
        };
    }
}

/// Value of an edge's bends at `t` in [0, 1] (linear between samples).
fn bend_at(v: &[(f32, f32)], t: f32) -> (f32, f32) {
    let x = t.clamp(0.0, 1.0) * (v.len() - 1) as f32;
    let i = (x.floor() as usize).min(v.len() - 2);
    let f = x - i as f32;
    (
        v[i].0 + (v[i + 1].0 - v[i].0) * f,
        v[i].1 + (v[i + 1].1 - v[i].1) * f,
    )
}

/// The page inside `outline` mapped to an upright rectangle at its own resolution (at most
/// [`MAX_PIXELS`]), white outside the photo.
pub fn rectify(img: &GrayImage, outline: &Outline) -> GrayImage {
    let [tl, tr, br, bl] = outline.corners;
    let wd = dist(tl, tr).max(dist(bl, br)).max(1.0);
    let ht = dist(tl, bl).max(dist(tr, br)).max(1.0);
    let s = ((MAX_PIXELS as f32) / (wd * ht)).sqrt().min(1.0);
    let (ow, oh) = (
        ((wd * s).round() as u32).max(1),
        ((ht * s).round() as u32).max(1),
    );
    let (fw, fh) = (ow as f32, oh as f32);
    let Some(proj) = Projection::from_control_points(
        [(0.0, 0.0), (fw, 0.0), (fw, fh), (0.0, fh)],
        [tl, tr, br, bl],
    ) else {
        return img.clone();
    };
    let mut out = GrayImage::new(ow, oh);
    match &outline.bends {
        None => warp_into_with(
            img,
            |x, y| proj * (x + 0.5, y + 0.5),
            Interpolation::Bilinear,
            Luma([255]),
            &mut out,
        ),
        Some([top, right, bottom, left]) => {
            // Coons patch of the edges' displacements: the top edge runs tl -> tr, the right
            // tr -> br, the bottom br -> bl and the left bl -> tl (clockwise), so the bottom and
            // left are read backwards; the corners do not move.
            let coons = |u: f32, v: f32| {
                let t = bend_at(top, u);
                let b = bend_at(bottom, 1.0 - u);
                let l = bend_at(left, 1.0 - v);
                let r = bend_at(right, v);
                (
                    (1.0 - v) * t.0 + v * b.0 + (1.0 - u) * l.0 + u * r.0,
                    (1.0 - v) * t.1 + v * b.1 + (1.0 - u) * l.1 + u * r.1,
                )
            };
            warp_into_with(
                img,
                |x, y| {
                    let (px, py) = proj * (x + 0.5, y + 0.5);
                    let (dx, dy) = coons((x + 0.5) / fw, (y + 0.5) / fh);
                    (px + dx, py + dy)
                },
                Interpolation::Bilinear,
                Luma([255]),
                &mut out,
            )
        }
    }
    out
}

/// An image over [`MAX_PIXELS`] reduced to it (bilinear; the ratio is below 2 for a phone's
/// 12 to 16 megapixels, so nothing is skipped over); others unchanged.
fn reduce(img: GrayImage) -> GrayImage {
    let (w, h) = img.dimensions();
    let px = u64::from(w) * u64::from(h);
    if px <= MAX_PIXELS {
        return img;
    }
    let s = (MAX_PIXELS as f64 / px as f64).sqrt() as f32;
    let (ow, oh) = (
        ((w as f32 * s) as u32).max(1),
        ((h as f32 * s) as u32).max(1),
    );
    let (kx, ky) = (w as f32 / ow as f32, h as f32 / oh as f32);
    let mut out = GrayImage::new(ow, oh);
    warp_into_with(
        &img,
        |x, y| ((x + 0.5) * kx - 0.5, (y + 0.5) * ky - 0.5),
        Interpolation::Bilinear,
        Luma([255]),
        &mut out,
    );
    out
}

/// Divides out light that falls off across the page or a shadow over part of it: the paper's
/// level is the brightest value of blocks larger than a character (widened by a block and
/// smoothed so a dark block of print keeps its neighbours' level), and each pixel is scaled by
/// how far that level is below the page's brightest paper. Pages whose paper level varies by
/// less than [`EVEN_LIGHT_SHARE`] come back unchanged.
pub fn even_light(img: GrayImage) -> GrayImage {
    let (w, h) = img.dimensions();
    // Blocks of about 1/60 of the long side (40 px on an A4 page at 300 DPI), measured on a copy
    // averaged over 4x4 so that single noisy pixels do not count as paper.
    let q = 4u32;
    let avg = downscale(&img, q);
    let (aw, ah) = avg.dimensions();
    let cell = (aw.max(ah) / 60).max(4);
    let (gw, gh) = (aw.div_ceil(cell), ah.div_ceil(cell));
    if gw < 3 || gh < 3 {
        return img;
    }
    let mut grid = vec![0f32; (gw * gh) as usize];
    for (x, y, p) in avg.enumerate_pixels() {
        let g = &mut grid[((y / cell) * gw + x / cell) as usize];
        *g = g.max(f32::from(p[0]));
    }
    let at = |g: &[f32], x: i64, y: i64| {
        g[(y.clamp(0, i64::from(gh) - 1) * i64::from(gw) + x.clamp(0, i64::from(gw) - 1)) as usize]
    };
    let pass = |g: &[f32], max: bool| -> Vec<f32> {
        (0..i64::from(gh))
            .flat_map(|y| (0..i64::from(gw)).map(move |x| (x, y)))
            .map(|(x, y)| {
                let n = [
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                    (-1, 0),
                    (0, 0),
                    (1, 0),
                    (-1, 1),
                    (0, 1),
                    (1, 1),
                ]
                .map(|(dx, dy)| at(g, x + dx, y + dy));
                if max {
                    n.iter().fold(0f32, |m, &v| m.max(v))
                } else {
                    n.iter().sum::<f32>() / 9.0
                }
            })
            .collect()
    };
    let grid = pass(&pass(&pass(&grid, true), false), false);
    let mut sorted = grid.clone();
    sorted.sort_by(f32::total_cmp);
    let pct = |p: f32| sorted[((sorted.len() - 1) as f32 * p) as usize];
    let paper = pct(0.95);
    if paper < 32.0 || pct(0.05) >= EVEN_LIGHT_SHARE * paper {
        return img;
    }
    let floor = MIN_LIGHT_SHARE * paper;
    // Block centres in full-resolution pixels; each row's level is interpolated between them.
    let span = (cell * q) as f32;
    let mut out = img;
    let mut row_level = vec![0f32; gw as usize];
    let mut level = vec![0f32; w as usize];
    for y in 0..h {
        let gy = ((y as f32 + 0.5) / span - 0.5).clamp(0.0, (gh - 1) as f32);
        let (y0, fy) = (gy.floor() as usize, gy.fract());
        let y1 = (y0 + 1).min(gh as usize - 1);
        for (x, r) in row_level.iter_mut().enumerate() {
            let (a, b) = (grid[y0 * gw as usize + x], grid[y1 * gw as usize + x]);
            *r = a + (b - a) * fy;
        }
        for (x, l) in level.iter_mut().enumerate() {
            let gx = ((x as f32 + 0.5) / span - 0.5).clamp(0.0, (gw - 1) as f32);
            let (x0, fx) = (gx.floor() as usize, gx.fract());
            let x1 = (x0 + 1).min(gw as usize - 1);
            let v = row_level[x0] + (row_level[x1] - row_level[x0]) * fx;
            *l = paper / v.max(floor);
        }
        let row = &mut out.as_mut()[(y * w) as usize..((y + 1) * w) as usize];
        for (p, &k) in row.iter_mut().zip(&level) {
            *p = (f32::from(*p) * k).round().min(255.0) as u8;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A white page of `w` x `h` with dark text-like bars (a line of "words" every 40 px).
    fn page(w: u32, h: u32) -> GrayImage {
        let mut img = GrayImage::from_pixel(w, h, Luma([245]));
        for y in (60..h.saturating_sub(60)).step_by(40) {
            for x in (50..w.saturating_sub(50)).step_by(70) {
                for yy in y..y + 14 {
                    for xx in x..(x + 52).min(w - 50) {
                        img.put_pixel(xx, yy, Luma([30]));
                    }
                }
            }
        }
        img
    }

    /// `page` laid on a darker noisy table of `fw` x `fh`, its corners at `corners` (clockwise
    /// from the top left); columns sunk by `curl` px times a half sine before that.
    fn photo(page: &GrayImage, fw: u32, fh: u32, corners: [(f32, f32); 4], curl: f32) -> GrayImage {
        let (pw, ph) = page.dimensions();
        let proj = Projection::from_control_points(
            corners,
            [
                (0.0, 0.0),
                (pw as f32, 0.0),
                (pw as f32, ph as f32),
                (0.0, ph as f32),
            ],
        )
        .unwrap();
        let mut seed = 7u32;
        GrayImage::from_fn(fw, fh, |x, y| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let table = 70 + ((seed >> 16) % 30) as u8;
            let (u, v) = proj * (x as f32 + 0.5, y as f32 + 0.5);
            let v = v - curl * (std::f32::consts::PI * u / pw as f32).sin();
            if u >= 0.0 && v >= 0.0 && u < pw as f32 && v < ph as f32 {
                *page.get_pixel(u as u32, v as u32)
            } else {
                Luma([table])
            }
        })
    }

    const CORNERS: [(f32, f32); 4] = [
        (180.0, 120.0),
        (1050.0, 90.0),
        (1120.0, 1480.0),
        (130.0, 1420.0),
    ];

    #[test]
    fn the_page_outline_is_found_in_a_photo_in_perspective() {
        let img = photo(&page(840, 1188), 1300, 1600, CORNERS, 0.0);
        let o = find_outline(&img).expect("outline");
        for (got, want) in o.corners.iter().zip(CORNERS) {
            assert!(dist(*got, want) < 12.0, "{:?} vs {CORNERS:?}", o.corners);
        }
        assert!(!o.curled(), "{o:?}");
        let flat = rectify(&img, &o);
        // Width and height of the page as seen (longest sides), text lines level again.
        let (w, h) = flat.dimensions();
        assert!(
            (w as f32 - 990.0).abs() < 25.0 && (h as f32 - 1390.0).abs() < 25.0,
            "{w}x{h}"
        );
        assert!(super::super::deskew_angle(&flat).abs() <= 0.3);
    }

    #[test]
    fn a_curled_page_comes_out_with_straight_lines() {
        let src = page(600, 900);
        let corners = [
            (300.0, 150.0),
            (900.0, 150.0),
            (900.0, 1050.0),
            (300.0, 1050.0),
        ];
        let img = photo(&src, 1200, 1200, corners, 30.0);
        let o = find_outline(&img).expect("outline");
        assert!(o.curled(), "{o:?}");
        let flat = flatten(img.clone());
        // The first line of bars: its top at the left, middle and right of the page agree (the
        // bars are 52 px wide every 70 px from x = 50; a sliver of table may line the top).
        let top_of_bar =
            |img: &GrayImage, x: u32| (8..img.height()).find(|&y| img.get_pixel(x, y)[0] < 50);
        let ys: Vec<u32> = [75, 285, 495]
            .iter()
            .filter_map(|&x| top_of_bar(&flat, x))
            .collect();
        assert_eq!(ys.len(), 3, "{ys:?}");
        let spread = ys.iter().max().unwrap() - ys.iter().min().unwrap();
        assert!(spread <= 4, "bar tops {ys:?}");
        // Without the correction the same line is 30 px lower in the middle.
        let plain = rectify(
            &img,
            &Outline {
                corners: o.corners,
                bends: None,
            },
        );
        let mid = top_of_bar(&plain, 285).unwrap();
        let side = top_of_bar(&plain, 75).unwrap();
        assert!(mid > side + 15, "{side} {mid}");
    }

    #[test]
    fn scans_and_pages_filling_the_frame_have_no_outline() {
        let scan = page(1240, 1754);
        assert!(find_outline(&scan).is_none());
        let out = flatten(scan.clone());
        assert_eq!(out, scan, "a clean scan is left as it is");
        // The page covering nearly all of the frame.
        let img = photo(
            &page(840, 1188),
            900,
            1240,
            [(10.0, 8.0), (890.0, 12.0), (893.0, 1230.0), (6.0, 1228.0)],
            0.0,
        );
        assert!(find_outline(&img).is_none());
        for (w, h) in [(1, 1), (3, 3), (20, 400), (400, 20)] {
            for v in [0u8, 255] {
                let img = GrayImage::from_pixel(w, h, Luma([v]));
                assert!(find_outline(&img).is_none());
                assert_eq!(flatten(img.clone()).dimensions(), (w, h));
            }
        }
    }

    #[test]
    fn light_falling_off_and_a_shadow_are_divided_out() {
        let mut img = page(1240, 1754);
        for (x, y, p) in img.enumerate_pixels_mut() {
            let fall = 1.0 - 0.35 * (x as f32 / 1240.0);
            let shadow = if y > 1100 { 0.7 } else { 1.0 };
            p[0] = (f32::from(p[0]) * fall * shadow) as u8;
        }
        let out = even_light(img.clone());
        let paper: Vec<u8> = [
            (20, 20),
            (1220, 20),
            (20, 1740),
            (1220, 1740),
            (25, 1250),
            (1215, 1250),
        ]
        .iter()
        .map(|&(x, y)| out.get_pixel(x, y)[0])
        .collect();
        assert!(paper.iter().all(|&v| v >= 225), "{paper:?}");
        // (A sharp shadow edge leaves about three blocks under it half corrected.)
        // Print stays dark, in the shadow too.
        assert!(out.get_pixel(1100, 1500)[0] < 90 || out.get_pixel(1101, 1505)[0] < 90);
        let bar = (60..1700).find(|&y| out.get_pixel(1110, y)[0] < 100);
        assert!(bar.is_some());
    }

    #[test]
    fn a_twelve_megapixel_frame_without_outline_is_reduced() {
        let img = GrayImage::from_pixel(4000, 3000, Luma([240]));
        let out = flatten(img);
        let (w, h) = out.dimensions();
        assert!(u64::from(w) * u64::from(h) <= MAX_PIXELS, "{w}x{h}");
        assert!((w as f32 / h as f32 - 4.0 / 3.0).abs() < 0.01);
    }

    #[test]
    fn the_largest_quad_of_a_hull_is_its_corners() {
        // An octagon-ish hull: a rectangle with its corners clipped a little.
        let hull = vec![
            (10.0, 0.0),
            (90.0, 0.0),
            (100.0, 10.0),
            (100.0, 50.0),
            (90.0, 60.0),
            (10.0, 60.0),
            (0.0, 50.0),
            (0.0, 10.0),
        ];
        let q = largest_quad(&hull).unwrap();
        let mut best = 0f32;
        for a in 0..8 {
            for b in a + 1..8 {
                for c in b + 1..8 {
                    for d in c + 1..8 {
                        best = best.max(polygon_area(&[hull[a], hull[b], hull[c], hull[d]]));
                    }
                }
            }
        }
        assert!(
            polygon_area(&q) >= best - 1e-3,
            "{q:?}: {} < {best}",
            polygon_area(&q)
        );
        assert!(largest_quad(&hull[..3]).is_none());
    }
}
