//! Image decoding: JPEG / PNG through the `image` crate, TIFF frames through `tiff` directly (the
//! `image` crate reads only the first frame). Decompression bombs are refused from the header:
//! every image's dimensions are checked against `limits.max_image_pixels` before a pixel is
//! decoded, and the decoders' allocations are capped to match.

use super::FileType;
use super::budget::check_pixels;
use crate::config::Limits;
use crate::error::{Error, Result};
use image::{DynamicImage, GrayImage, ImageDecoder, ImageReader, Luma, metadata::Orientation};
use std::io::Cursor;
use tiff::decoder::{Decoder as TiffDecoder, DecodingResult};
use tiff::tags::Tag;

/// Longest accepted image side, in pixels: a page at 1200 DPI one metre long is under it; a
/// 1 x 100,000,000 strip is not a page (and would blow up every later step).
const MAX_SIDE: u32 = 50_000;
/// Most TIFF frames walked when counting (IFD chains can be cyclic or absurd).
const MAX_TIFF_FRAMES: u32 = 10_000;

fn check_dimensions(w: u32, h: u32, limits: &Limits, what: &str) -> Result<()> {
    if w == 0 || h == 0 {
        return Err(Error::CorruptFile(format!("image has no pixels ({w}x{h})")));
    }
    check_pixels(
        limits,
        u64::from(w),
        u64::from(h),
        &format!("decoding {what}"),
    )?;
    if w.max(h) > MAX_SIDE {
        return Err(Error::CorruptFile(format!(
            "image is {w}x{h} pixels: a side over {MAX_SIDE} pixels is not a page"
        )));
    }
    Ok(())
}

/// The `image` crate's limits for ours: dimensions and allocations (16-bit RGBA at most).
fn image_limits(limits: &Limits) -> image::Limits {
    let mut l = image::Limits::default();
    l.max_image_width = Some(MAX_SIDE);
    l.max_image_height = Some(MAX_SIDE);
    l.max_alloc = Some(limits.max_image_pixels.saturating_mul(8));
    l
}

/// Decodes a JPEG or PNG into grayscale, EXIF orientation applied, transparency over white.
pub(crate) fn decode_single(bytes: &[u8], ft: FileType, limits: &Limits) -> Result<GrayImage> {
    let fmt = match ft {
        FileType::Jpeg => image::ImageFormat::Jpeg,
        FileType::Png => image::ImageFormat::Png,
        other => {
            return Err(Error::Internal(format!(
                "decode_single called for {other:?}"
            )));
        }
    };
    let corrupt =
        |e: image::ImageError| Error::CorruptFile(format!("cannot decode {ft:?} image: {e}"));
    let (w, h) = ImageReader::with_format(Cursor::new(bytes), fmt)
        .into_dimensions()
        .map_err(corrupt)?;
    check_dimensions(w, h, limits, &format!("{ft:?} image"))?;
    let mut reader = ImageReader::with_format(Cursor::new(bytes), fmt);
    reader.limits(image_limits(limits));
    let mut decoder = reader.into_decoder().map_err(corrupt)?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut img = DynamicImage::from_decoder(decoder).map_err(corrupt)?;
    img.apply_orientation(orientation);
    Ok(to_gray(img))
}

/// Grayscale with any alpha composited over white (transparent scans must not turn black).
pub(crate) fn to_gray(img: DynamicImage) -> GrayImage {
    if !img.color().has_alpha() {
        return img.into_luma8();
    }
    let la = img.into_luma_alpha8();
    let (w, h) = la.dimensions();
    let mut out = GrayImage::new(w, h);
    for (o, p) in out.pixels_mut().zip(la.pixels()) {
        let [l, a] = p.0;
        let v = (u32::from(l) * u32::from(a) + 255 * (255 - u32::from(a)) + 127) / 255;
        *o = Luma([v as u8]);
    }
    out
}

fn tiff_err(e: tiff::TiffError) -> Error {
    match e {
        tiff::TiffError::UnsupportedError(u) => {
            Error::UnsupportedFileType(format!("TIFF feature not supported: {u}"))
        }
        other => Error::CorruptFile(format!("cannot decode TIFF: {other}")),
    }
}

fn open_tiff(bytes: &[u8]) -> Result<TiffDecoder<Cursor<&[u8]>>> {
    TiffDecoder::new(Cursor::new(bytes)).map_err(tiff_err)
}

/// Number of frames (pages) in a TIFF.
pub(crate) fn tiff_frame_count(bytes: &[u8]) -> Result<u32> {
    let mut dec = open_tiff(bytes)?;
    let mut n = 1u32;
    while dec.more_images() {
        if n >= MAX_TIFF_FRAMES {
            return Err(Error::CorruptFile(format!(
                "TIFF has over {MAX_TIFF_FRAMES} frames"
            )));
        }
        dec.next_image().map_err(tiff_err)?;
        n += 1;
    }
    Ok(n)
}

/// Decodes frame `index` (0-based) of a TIFF into grayscale, orientation tag applied.
pub(crate) fn decode_tiff_frame(bytes: &[u8], index: u32, limits: &Limits) -> Result<GrayImage> {
    let mut tiff_limits = tiff::decoder::Limits::default();
    // Samples of up to 4 bytes x 5 channels per pixel.
    tiff_limits.decoding_buffer_size = usize::try_from(limits.max_image_pixels)
        .unwrap_or(usize::MAX)
        .saturating_mul(20);
    let mut dec = open_tiff(bytes)?.with_limits(tiff_limits);
    for _ in 0..index {
        if !dec.more_images() {
            return Err(Error::CorruptFile(format!(
                "TIFF frame {} is missing",
                index + 1
            )));
        }
        dec.next_image().map_err(tiff_err)?;
    }
    let (w, h) = dec.dimensions().map_err(tiff_err)?;
    check_dimensions(w, h, limits, &format!("TIFF frame {}", index + 1))?;
    let color = dec.colortype().map_err(tiff_err)?;
    let planar = dec
        .find_tag_unsigned::<u16>(Tag::PlanarConfiguration)
        .ok()
        .flatten()
        == Some(2);
    let orientation = dec
        .find_tag_unsigned::<u8>(Tag::Orientation)
        .ok()
        .flatten()
        .and_then(Orientation::from_exif);
    let palette = if matches!(color, tiff::ColorType::Palette(_)) {
        Some(dec.get_tag_u16_vec(Tag::ColorMap).map_err(tiff_err)?)
    } else {
        None
    };
    let data = dec.read_image().map_err(tiff_err)?;
    let gray = frame_to_gray(data, color, w, h, planar, palette.as_deref())?;
    match orientation {
        Some(o) if o != Orientation::NoTransforms => {
            let mut d = DynamicImage::ImageLuma8(gray);
            d.apply_orientation(o);
            Ok(d.into_luma8())
        }
        _ => Ok(gray),
    }
}

/// Samples of a decoded frame scaled to 0..=255.
fn samples_u8(data: DecodingResult) -> Result<Vec<u8>> {
    Ok(match data {
        DecodingResult::U8(v) => v,
        DecodingResult::U16(v) => v.into_iter().map(|x| (x >> 8) as u8).collect(),
        DecodingResult::U32(v) => v.into_iter().map(|x| (x >> 24) as u8).collect(),
        DecodingResult::F32(v) => v
            .into_iter()
            .map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8)
            .collect(),
        _ => {
            return Err(Error::UnsupportedFileType(
                "TIFF sample format not supported".into(),
            ));
        }
    })
}

fn frame_to_gray(
    data: DecodingResult,
    color: tiff::ColorType,
    w: u32,
    h: u32,
    planar: bool,
    palette: Option<&[u16]>,
) -> Result<GrayImage> {
    use tiff::ColorType as C;
    let (wu, hu) = (w as usize, h as usize);
    let n = wu * hu;
    let short = || Error::CorruptFile("TIFF frame has fewer pixels than its header says".into());
    // Sub-byte depths come packed per row.
    if let C::Gray(b) | C::Palette(b) = color
        && b < 8
    {
        let bits = match data {
            DecodingResult::U8(v) => v,
            _ => return Err(Error::CorruptFile("unexpected TIFF sample layout".into())),
        };
        if !matches!(b, 1 | 2 | 4) {
            return Err(Error::UnsupportedFileType(format!("TIFF {b}-bit samples")));
        }
        let b = usize::from(b);
        let row_bytes = (wu * b).div_ceil(8);
        if bits.len() < row_bytes * hu {
            return Err(short());
        }
        let max = (1u32 << b) - 1;
        let lut: Vec<u8> = (0..=max)
            .map(|v| match (color, palette) {
                (C::Palette(_), Some(p)) => palette_gray(p, v as usize, max as usize + 1),
                _ => (v * 255 / max) as u8,
            })
            .collect();
        let mut out = GrayImage::new(w, h);
        for (y, row) in bits.chunks_exact(row_bytes).take(hu).enumerate() {
            for x in 0..wu {
                let bit = x * b;
                let byte = row.get(bit / 8).copied().unwrap_or(0);
                let v = (byte >> (8 - b - bit % 8)) & max as u8;
                out.put_pixel(x as u32, y as u32, Luma([lut[usize::from(v)]]));
            }
        }
        return Ok(out);
    }
    if let C::Palette(_) = color {
        let idx = samples_index(data)?;
        let p = palette.unwrap_or(&[]);
        let entries = p.len() / 3;
        if idx.len() < n || entries == 0 {
            return Err(short());
        }
        let px = idx[..n]
            .iter()
            .map(|&i| palette_gray(p, i.min(entries - 1), entries))
            .collect();
        return GrayImage::from_raw(w, h, px).ok_or_else(short);
    }
    let spp = match color {
        C::Gray(_) => 1,
        C::GrayA(_) => 2,
        C::RGB(_) | C::YCbCr(_) | C::Lab(_) => 3,
        C::RGBA(_) | C::CMYK(_) => 4,
        C::CMYKA(_) => 5,
        C::Multiband { num_samples, .. } => usize::from(num_samples.max(1)),
        _ => {
            return Err(Error::UnsupportedFileType(format!(
                "TIFF color type {color:?}"
            )));
        }
    };
    let s = samples_u8(data)?;
    if s.len() < n * spp {
        return Err(short());
    }
    let at = |i: usize, c: usize| -> u32 {
        let k = if planar { c * n + i } else { i * spp + c };
        u32::from(s[k])
    };
    let luma = |r: u32, g: u32, b: u32| ((r * 299 + g * 587 + b * 114 + 500) / 1000) as u8;
    let px: Vec<u8> = (0..n)
        .map(|i| match color {
            C::Gray(_) | C::YCbCr(_) | C::Lab(_) | C::Multiband { .. } => at(i, 0) as u8,
            C::GrayA(_) => over_white(at(i, 0), at(i, 1)),
            C::RGB(_) => luma(at(i, 0), at(i, 1), at(i, 2)),
            C::RGBA(_) => over_white(u32::from(luma(at(i, 0), at(i, 1), at(i, 2))), at(i, 3)),
            C::CMYK(_) | C::CMYKA(_) => {
                let k = 255 - at(i, 3);
                let ch = |c: u32| (255 - c) * k / 255;
                luma(ch(at(i, 0)), ch(at(i, 1)), ch(at(i, 2)))
            }
            _ => 255,
        })
        .collect();
    GrayImage::from_raw(w, h, px).ok_or_else(short)
}

fn samples_index(data: DecodingResult) -> Result<Vec<usize>> {
    Ok(match data {
        DecodingResult::U8(v) => v.into_iter().map(usize::from).collect(),
        DecodingResult::U16(v) => v.into_iter().map(usize::from).collect(),
        _ => {
            return Err(Error::UnsupportedFileType(
                "TIFF palette sample format".into(),
            ));
        }
    })
}

fn palette_gray(p: &[u16], i: usize, entries: usize) -> u8 {
    let get = |c: usize| u32::from(p.get(c * entries + i).copied().unwrap_or(0) >> 8);
    ((get(0) * 299 + get(1) * 587 + get(2) * 114 + 500) / 1000) as u8
}

fn over_white(v: u32, a: u32) -> u8 {
    ((v * a + 255 * (255 - a) + 127) / 255) as u8
}

#[cfg(test)]
mod tests {
    fn decode_single(bytes: &[u8], ft: FileType) -> Result<GrayImage> {
        super::decode_single(bytes, ft, &Limits::default())
    }

    fn decode_tiff_frame(bytes: &[u8], index: u32) -> Result<GrayImage> {
        super::decode_tiff_frame(bytes, index, &Limits::default())
    }

    use super::*;
    use crate::error::ErrorCode;

    fn encode(img: DynamicImage, fmt: image::ImageFormat) -> Vec<u8> {
        let mut out = Vec::new();
        img.write_to(&mut Cursor::new(&mut out), fmt).unwrap();
        out
    }

    fn two_frame_tiff() -> Vec<u8> {
        use tiff::encoder::{TiffEncoder, colortype};
        let mut out = Cursor::new(Vec::new());
        let mut enc = TiffEncoder::new(&mut out).unwrap();
        let a: Vec<u8> = vec![10; 20 * 10];
        enc.write_image::<colortype::Gray8>(20, 10, &a).unwrap();
        let b: Vec<u8> = [200u8, 100, 50].repeat(8 * 6);
        enc.write_image::<colortype::RGB8>(8, 6, &b).unwrap();
        out.into_inner()
    }

    #[test]
    fn decodes_png_and_jpeg_to_gray() {
        let rgb = image::RgbImage::from_pixel(30, 20, image::Rgb([255, 0, 0]));
        let png = encode(
            DynamicImage::ImageRgb8(rgb.clone()),
            image::ImageFormat::Png,
        );
        let g = decode_single(&png, FileType::Png).unwrap();
        assert_eq!(g.dimensions(), (30, 20));
        // Pure red is dark-ish in luma (Rec. 601 or 709 weights).
        assert!(
            (40..=90).contains(&g.get_pixel(5, 5)[0]),
            "{:?}",
            g.get_pixel(5, 5)
        );
        let jpg = encode(DynamicImage::ImageRgb8(rgb), image::ImageFormat::Jpeg);
        let g = decode_single(&jpg, FileType::Jpeg).unwrap();
        assert_eq!(g.dimensions(), (30, 20));
    }

    #[test]
    fn transparent_png_goes_over_white() {
        let rgba = image::RgbaImage::from_pixel(4, 4, image::Rgba([0, 0, 0, 0]));
        let png = encode(DynamicImage::ImageRgba8(rgba), image::ImageFormat::Png);
        let g = decode_single(&png, FileType::Png).unwrap();
        assert_eq!(g.get_pixel(1, 1)[0], 255);
    }

    #[test]
    fn truncated_png_is_corrupt() {
        let png = super::super::test_support::png(200, 100);
        let cut = &png[..png.len() / 2];
        let e = decode_single(cut, FileType::Png).unwrap_err();
        assert_eq!(e.code(), ErrorCode::CorruptFile, "{e}");
    }

    #[test]
    fn refuses_bomb_from_header() {
        // A valid PNG header claiming 20000x20000 with no pixel data to speak of.
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = b"IHDR".to_vec();
        ihdr.extend_from_slice(&20000u32.to_be_bytes());
        ihdr.extend_from_slice(&20000u32.to_be_bytes());
        ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
        let crc = crc32(&ihdr);
        png.extend_from_slice(&13u32.to_be_bytes());
        png.extend_from_slice(&ihdr);
        png.extend_from_slice(&crc.to_be_bytes());
        // One tiny (bogus) IDAT so the header is complete; no decoding must be attempted.
        let idat = b"IDAT\x78\x9c\x03\x00";
        png.extend_from_slice(&4u32.to_be_bytes());
        png.extend_from_slice(idat);
        png.extend_from_slice(&crc32(idat).to_be_bytes());
        png.extend_from_slice(b"\0\0\0\0IEND\xAE\x42\x60\x82");
        let e = decode_single(&png, FileType::Png).unwrap_err();
        assert_eq!(e.code(), ErrorCode::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "limits.max_image_pixels (64000000) exceeded while decoding Png image (20000 x 20000 \
             pixels)"
        );
        // A smaller limit refuses smaller images; a strip of one pixel is not a page.
        let tight = Limits {
            max_image_pixels: 1_000,
            ..Limits::default()
        };
        let small = super::super::test_support::png(40, 30);
        assert!(super::decode_single(&small, FileType::Png, &tight).is_err());
        let strip = png_header(1, 1_000_000);
        let e = decode_single(&strip, FileType::Png).unwrap_err();
        assert_eq!(e.code(), ErrorCode::CorruptFile, "{e}");
        assert!(e.to_string().contains("not a page"), "{e}");
    }

    /// A PNG header (and a bogus IDAT) claiming `w` x `h` gray pixels.
    fn png_header(w: u32, h: u32) -> Vec<u8> {
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = b"IHDR".to_vec();
        ihdr.extend_from_slice(&w.to_be_bytes());
        ihdr.extend_from_slice(&h.to_be_bytes());
        ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
        png.extend_from_slice(&13u32.to_be_bytes());
        png.extend_from_slice(&ihdr);
        png.extend_from_slice(&crc32(&ihdr).to_be_bytes());
        let idat = b"IDAT\x78\x9c\x03\x00";
        png.extend_from_slice(&4u32.to_be_bytes());
        png.extend_from_slice(idat);
        png.extend_from_slice(&crc32(idat).to_be_bytes());
        png.extend_from_slice(b"\0\0\0\0IEND\xAE\x42\x60\x82");
        png
    }

    #[test]
    fn tiff_frames_are_checked_one_by_one() {
        use tiff::encoder::{TiffEncoder, colortype};
        let mut out = Cursor::new(Vec::new());
        let mut enc = TiffEncoder::new(&mut out).unwrap();
        enc.write_image::<colortype::Gray8>(4, 4, &[0; 16]).unwrap();
        enc.write_image::<colortype::Gray8>(200, 100, &[9; 20_000])
            .unwrap();
        let t = out.into_inner();
        let tight = Limits {
            max_image_pixels: 10_000,
            ..Limits::default()
        };
        assert!(super::decode_tiff_frame(&t, 0, &tight).is_ok());
        let e = super::decode_tiff_frame(&t, 1, &tight).unwrap_err();
        assert!(
            e.to_string().starts_with(
                "limits.max_image_pixels (10000) exceeded while decoding TIFF frame 2"
            ),
            "{e}"
        );
    }

    #[test]
    fn time_grows_linearly() {
        let (small, big) = (
            super::super::test_support::png(400, 300),
            super::super::test_support::png(1_131, 849),
        );
        crate::preprocess::test_support::assert_near_linear("PNG", &|k| {
            let bytes = if k == 1 { &small } else { &big };
            crate::preprocess::preprocess(
                bytes,
                &crate::config::RecognizeOptions::default(),
                &Limits::default(),
                &|_| Ok(0),
            )
            .unwrap();
        });
    }

    fn crc32(data: &[u8]) -> u32 {
        let mut c = 0xFFFF_FFFFu32;
        for &b in data {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }

    #[test]
    fn tiff_frames() {
        let t = two_frame_tiff();
        assert_eq!(tiff_frame_count(&t).unwrap(), 2);
        let a = decode_tiff_frame(&t, 0).unwrap();
        assert_eq!(a.dimensions(), (20, 10));
        assert_eq!(a.get_pixel(3, 3)[0], 10);
        let b = decode_tiff_frame(&t, 1).unwrap();
        assert_eq!(b.dimensions(), (8, 6));
        let expect = (200 * 299 + 100 * 587 + 50 * 114 + 500) / 1000;
        assert_eq!(u32::from(b.get_pixel(2, 2)[0]), expect);
        assert_eq!(
            decode_tiff_frame(&t, 2).unwrap_err().code(),
            ErrorCode::CorruptFile
        );
        assert_eq!(
            tiff_frame_count(&t[..12]).unwrap_err().code(),
            ErrorCode::CorruptFile
        );
    }

    #[test]
    fn preprocess_tiff_selects_frames() {
        use crate::config::{Limits, RecognizeOptions};
        let t = two_frame_tiff();
        let opts = RecognizeOptions {
            pages: Some("2".into()),
            ..Default::default()
        };
        let p = super::super::preprocess(&t, &opts, &Limits::default(), &|_| Ok(0)).unwrap();
        assert_eq!((p.page_count, p.pages.clone()), (2, vec![2]));
        assert!(matches!(
            p.content,
            super::super::PreparedContent::TiffFrames
        ));
        let frame = super::super::tiff_page(&t, 2, &Limits::default()).unwrap();
        assert_eq!((frame.page, frame.image.dimensions()), (2, (8, 6)));
        assert!(super::super::tiff_page(&t, 3, &Limits::default()).is_err());
        assert!(super::super::tiff_page(&t, 0, &Limits::default()).is_err());
        let limits = Limits {
            max_pages: 1,
            ..Default::default()
        };
        let e = super::super::preprocess(&t, &RecognizeOptions::default(), &limits, &|_| Ok(0))
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::TooManyPages);
    }
}
