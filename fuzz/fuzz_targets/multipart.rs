//! Fuzz target: the upload form reader (`server/src/serve/form.rs`, compiled here as is) over the
//! multipart parser the server uses (multer), fed a body in fuzzed chunks.
//!
//! Input: byte 0 seeds how the body is cut into chunks, byte 1 picks the limits (small, so the
//! per-file, text-field, file-count and whole-body limits are all reached), then the boundary up
//! to the first `\n`, then the body. Any body must be answered without a panic; a form that is
//! read has files no larger than the body, stored bytes that match the reported size and hash,
//! display names that are names (no path), and the same outcome and request hash whatever the
//! chunks.
#![no_main]

use bytes::Bytes;
use futures_executor::block_on;
use libfuzzer_sys::fuzz_target;
use sha2::{Digest, Sha256};
use std::convert::Infallible;

#[path = "../../server/src/serve/form.rs"]
#[allow(dead_code)]
mod form;

use form::{FileSink, Form, FormError, Limits, ReadError};

/// Keeps each file in memory; `abandoned` once over the limit.
#[derive(Default)]
struct Memory {
    opened: usize,
}

#[derive(Debug, Default)]
struct File {
    bytes: Vec<u8>,
    abandoned: bool,
    closed: bool,
}

impl FileSink for Memory {
    type File = File;
    type Error = Infallible;

    async fn open(&mut self) -> Result<File, Infallible> {
        self.opened += 1;
        Ok(File::default())
    }

    async fn write(&mut self, file: &mut File, chunk: &[u8]) -> Result<(), Infallible> {
        assert!(
            !file.abandoned && !file.closed,
            "write after abandon or close"
        );
        file.bytes.extend_from_slice(chunk);
        Ok(())
    }

    fn abandon(&mut self, file: &mut File) {
        assert!(
            !file.abandoned && !file.closed,
            "abandoned twice or after close"
        );
        file.abandoned = true;
        file.bytes.clear();
    }

    async fn close(&mut self, file: &mut File) -> Result<(), Infallible> {
        assert!(
            !file.abandoned && !file.closed,
            "close after abandon or twice"
        );
        file.closed = true;
        Ok(())
    }
}

/// The body cut into pieces of 1 to `max` bytes, from a xorshift seeded by `seed`.
fn split(body: &[u8], seed: u8) -> Vec<Bytes> {
    let max = 1 + (seed as usize & 0x3f) * 4;
    let mut state = u32::from(seed).wrapping_mul(0x9E37_79B9) | 1;
    let mut out = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (1 + state as usize % max).min(rest.len());
        out.push(Bytes::copy_from_slice(&rest[..n]));
        rest = &rest[n..];
    }
    out
}

type Outcome = Result<(Form<File>, usize), FormError<Infallible>>;

/// Reads the form from `chunks` (with a whole-stream limit when `stream_limit` is set).
fn read(chunks: Vec<Bytes>, boundary: &str, limits: Limits, stream_limit: Option<u64>) -> Outcome {
    let stream = futures_util::stream::iter(chunks.into_iter().map(Ok::<_, Infallible>));
    let mut size = multer::SizeLimit::new();
    if let Some(n) = stream_limit {
        size = size.whole_stream(n);
    }
    let constraints = multer::Constraints::new().size_limit(size);
    let mut mp = multer::Multipart::with_constraints(stream, boundary.to_string(), constraints);
    let mut sink = Memory::default();
    let form = block_on(form::read_form(&mut mp, &mut sink, limits))?;
    Ok((form, sink.opened))
}

/// What must be the same whatever the chunks: the error's kind, or the form read.
fn summary(o: &Outcome) -> String {
    match o {
        Ok((form, _)) => {
            let files: Vec<_> = form
                .files
                .iter()
                .map(|f| (&f.filename, f.size, &f.sha256, f.too_large))
                .collect();
            format!("ok {} {files:?} {:?}", form.request_hash, form.fields)
        }
        Err(FormError::Read(ReadError::Invalid(_))) => "invalid".into(),
        Err(FormError::Read(e)) => format!("{e:?}"),
        Err(FormError::TooManyFiles { max }) => format!("too many {max}"),
        Err(FormError::FieldTooLong { name, max }) => format!("too long {name:?} {max}"),
        Err(FormError::InvalidField { name }) => format!("invalid field {name:?}"),
        Err(FormError::Sink(e)) => match *e {},
    }
}

fn check_filename(name: &str) {
    assert!(!name.is_empty() && name.chars().count() <= 255, "{name:?}");
    assert!(name != "." && name != "..", "{name:?}");
    assert!(
        !name.contains(['/', '\\']) && !name.chars().any(char::is_control),
        "{name:?}"
    );
    assert_eq!(name, name.trim(), "{name:?}");
}

fn check(o: &Outcome, body_len: usize, limits: Limits) {
    let Ok((form, opened)) = o else { return };
    assert_eq!(*opened, form.files.len());
    assert!(form.files.len() <= limits.max_files);
    let total: u64 = form.files.iter().map(|f| f.size).sum();
    assert!(
        total <= body_len as u64,
        "{total} bytes of files in {body_len}"
    );
    for f in &form.files {
        check_filename(&f.filename);
        if f.too_large {
            assert!(f.size > limits.max_file_bytes && f.file.abandoned);
            assert!(f.file.bytes.is_empty() && !f.file.closed);
        } else {
            assert!(f.size <= limits.max_file_bytes && f.file.closed && !f.file.abandoned);
            assert_eq!(f.file.bytes.len() as u64, f.size);
            assert_eq!(f.sha256, hex::encode(Sha256::digest(&f.file.bytes)));
        }
    }
    let fields = &form.fields;
    for v in [
        &fields.webhook_url,
        &fields.metadata,
        &fields.client_operation_id,
        &fields.use_heavy_ai,
        &fields.selected_pages,
    ]
    .into_iter()
    .flatten()
    {
        assert!(v.len() <= limits.max_text_field);
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (seed, knobs) = (data[0], data[1]);
    let rest = &data[2..];
    let Some(nl) = rest.iter().position(|&b| b == b'\n') else {
        return;
    };
    let Ok(line) = std::str::from_utf8(&rest[..nl]) else {
        return;
    };
    let body = &rest[nl + 1..];
    // The boundary as the server finds it: from the Content-Type header.
    let Ok(boundary) = multer::parse_boundary(format!("multipart/form-data; boundary={line}"))
    else {
        return;
    };
    let limits = Limits {
        max_files: 1 + (knobs & 3) as usize,
        max_file_bytes: [0, 8, 64, 4096][(knobs >> 2 & 3) as usize],
        max_text_field: [0, 16, 256, form::MAX_TEXT_FIELD][(knobs >> 4 & 3) as usize],
    };
    let stream_limit = (knobs & 0x40 != 0).then_some(body.len() as u64 / 2);
    let whole = vec![Bytes::copy_from_slice(body)];
    let a = read(split(body, seed), &boundary, limits, stream_limit);
    check(&a, body.len(), limits);
    if stream_limit.is_none() {
        // Without a whole-body limit (where a parser may stop reading before the end), the
        // chunks change nothing: same files, fields and request hash, or the same refusal.
        let b = read(whole, &boundary, limits, None);
        check(&b, body.len(), limits);
        assert_eq!(summary(&a), summary(&b));
    } else {
        let _ = read(whole, &boundary, limits, stream_limit);
    }
    if std::env::var_os("FOLIO_FUZZ_VERBOSE").is_some() {
        eprintln!("{}", summary(&a));
    }
});
