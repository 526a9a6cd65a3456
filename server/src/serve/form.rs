//! Reading an upload's `multipart/form-data` body, part by part: the files (`files[]`, or
//! `files`) go to a sink the caller supplies, the known text fields are collected, and the request
//! is hashed ("same request" for idempotency: names, file names and bytes of every part in order,
//! whatever the boundary or the way the body arrived in chunks).
//!
//! Pure of the server's state: it depends only on the multipart parser (`multer`, for which
//! [`PartSource`] is implemented here; the server drives axum's wrapper of it through the same
//! trait), `bytes`, `sha2`/`hex` and std. The fuzz target `fuzz/fuzz_targets/multipart.rs`
//! compiles this file as is.

use bytes::Bytes;
use sha2::{Digest, Sha256};
use std::future::Future;

/// Longest text field accepted (metadata JSON and the like).
pub const MAX_TEXT_FIELD: usize = 64 * 1024;

/// Limits of one form.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most file parts.
    pub max_files: usize,
    /// Largest file stored; a larger one is still read (and hashed) to its end, not stored.
    pub max_file_bytes: u64,
    /// Longest text field.
    pub max_text_field: usize,
}

/// Why the body could not be read, as the part source reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The body is over the request size limit.
    TooLarge,
    /// The body stopped arriving.
    Timeout,
    /// Not a well-formed multipart body; the parser's message.
    Invalid(String),
}

/// Why a form was refused.
#[derive(Debug)]
pub enum FormError<E> {
    /// The body could not be read.
    Read(ReadError),
    /// More file parts than [`Limits::max_files`].
    TooManyFiles { max: usize },
    /// A text field longer than [`Limits::max_text_field`].
    FieldTooLong { name: String, max: usize },
    /// A text field that is not UTF-8.
    InvalidField { name: String },
    /// The sink could not take a file.
    Sink(E),
}

impl<E> From<ReadError> for FormError<E> {
    fn from(e: ReadError) -> Self {
        FormError::Read(e)
    }
}

/// The parts of a multipart body, in order.
pub trait PartSource {
    type Part<'a>: Part
    where
        Self: 'a;
    /// The next part; `None` after the last.
    fn next_part(
        &mut self,
    ) -> impl Future<Output = Result<Option<Self::Part<'_>>, ReadError>> + Send;
}

/// One part: its name, file name and bytes.
pub trait Part {
    fn name(&self) -> Option<&str>;
    fn file_name(&self) -> Option<&str>;
    /// The next piece of the part's bytes; `None` at its end.
    fn chunk(&mut self) -> impl Future<Output = Result<Option<Bytes>, ReadError>> + Send;
}

/// Where file parts go.
pub trait FileSink {
    /// One file being received.
    type File;
    type Error;
    /// Starts a file.
    fn open(&mut self) -> impl Future<Output = Result<Self::File, Self::Error>> + Send;
    /// The file's next bytes.
    fn write(
        &mut self,
        file: &mut Self::File,
        chunk: &[u8],
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;
    /// The file went over the size limit: nothing more is written to it, and it is not kept.
    fn abandon(&mut self, file: &mut Self::File);
    /// The file is complete (within the limit).
    fn close(
        &mut self,
        file: &mut Self::File,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;
}

/// A file part as received.
#[derive(Debug)]
pub struct FormFile<F> {
    /// The sink's file.
    pub file: F,
    /// The display name ([`sanitize_filename`]).
    pub filename: String,
    /// Bytes in the part (all of them, also past the limit).
    pub size: u64,
    /// SHA-256 (hex) of the bytes given to the sink (all of them unless `too_large`).
    pub sha256: String,
    /// Over [`Limits::max_file_bytes`]: abandoned in the sink.
    pub too_large: bool,
}

/// Form values other than files (the last of each name wins; unknown names are ignored).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Fields {
    pub webhook_url: Option<String>,
    pub metadata: Option<String>,
    pub client_operation_id: Option<String>,
    pub use_heavy_ai: Option<String>,
    pub selected_pages: Option<String>,
}

/// A form read to its end.
#[derive(Debug)]
pub struct Form<F> {
    pub files: Vec<FormFile<F>>,
    pub fields: Fields,
    /// SHA-256 (hex) over every part in order: names, file names and bytes.
    pub request_hash: String,
}

/// A display name from what the client sent: the last path component, control characters
/// removed, at most 255 characters, never empty, `.` or `..` (then `file`). Only ever stored as
/// data, never used as a path.
pub fn sanitize_filename(raw: Option<&str>) -> String {
    let raw = raw.unwrap_or("");
    let last = raw.rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = last.chars().filter(|c| !c.is_control()).take(255).collect();
    let clean = clean.trim();
    if clean.is_empty() || clean == "." || clean == ".." {
        "file".to_string()
    } else {
        clean.to_string()
    }
}

/// A part's header in the request hash: its name and file name, length-prefixed.
fn hash_part(h: &mut Sha256, name: &str, filename: Option<&str>) {
    h.update((name.len() as u64).to_le_bytes());
    h.update(name.as_bytes());
    match filename {
        Some(f) => {
            h.update([1u8]);
            h.update((f.len() as u64).to_le_bytes());
            h.update(f.as_bytes());
        }
        None => h.update([0u8]),
    }
}

/// Reads the whole form: file parts into `sink` (with their size and hash), text fields into
/// [`Fields`], and the request hash over everything.
pub async fn read_form<S: PartSource, K: FileSink>(
    source: &mut S,
    sink: &mut K,
    limits: Limits,
) -> Result<Form<K::File>, FormError<K::Error>> {
    let mut files: Vec<FormFile<K::File>> = Vec::new();
    let mut fields = Fields::default();
    let mut req_hash = Sha256::new();
    let mut too_many = false;
    while let Some(mut part) = source.next_part().await? {
        let name = part.name().unwrap_or("").to_string();
        let filename = part.file_name().map(str::to_string);
        hash_part(&mut req_hash, &name, filename.as_deref());
        if name == "files[]" || name == "files" {
            if too_many || files.len() >= limits.max_files {
                // The rest of the form is read and nothing of it stored, so that a client still
                // sending gets the answer: a server that stops reading mid-request resets the
                // connection under the client's feet (the body stays bounded by the request
                // limits).
                too_many = true;
                while part.chunk().await?.is_some() {}
                continue;
            }
            let mut file = sink.open().await.map_err(FormError::Sink)?;
            let mut size: u64 = 0;
            let mut file_hash = Sha256::new();
            let mut too_large = false;
            while let Some(chunk) = part.chunk().await? {
                req_hash.update(&chunk);
                size += chunk.len() as u64;
                if too_large {
                    continue;
                }
                if size > limits.max_file_bytes {
                    // Keep reading (the request hash needs it) but store nothing more.
                    too_large = true;
                    sink.abandon(&mut file);
                    continue;
                }
                file_hash.update(&chunk);
                sink.write(&mut file, &chunk)
                    .await
                    .map_err(FormError::Sink)?;
            }
            req_hash.update(size.to_le_bytes());
            if !too_large {
                sink.close(&mut file).await.map_err(FormError::Sink)?;
            }
            files.push(FormFile {
                file,
                filename: sanitize_filename(filename.as_deref()),
                size,
                sha256: hex::encode(file_hash.finalize()),
                too_large,
            });
        } else {
            let mut buf: Vec<u8> = Vec::new();
            while let Some(chunk) = part.chunk().await? {
                req_hash.update(&chunk);
                if buf.len() + chunk.len() > limits.max_text_field {
                    return Err(FormError::FieldTooLong {
                        name,
                        max: limits.max_text_field,
                    });
                }
                buf.extend_from_slice(&chunk);
            }
            req_hash.update((buf.len() as u64).to_le_bytes());
            let Ok(text) = String::from_utf8(buf) else {
                return Err(FormError::InvalidField { name });
            };
            let slot = match name.as_str() {
                "webhook_url" => &mut fields.webhook_url,
                "metadata" => &mut fields.metadata,
                "client_operation_id" => &mut fields.client_operation_id,
                "use_heavy_ai" => &mut fields.use_heavy_ai,
                "selected_pages" => &mut fields.selected_pages,
                _ => continue,
            };
            *slot = Some(text);
        }
    }
    if too_many {
        return Err(FormError::TooManyFiles {
            max: limits.max_files,
        });
    }
    Ok(Form {
        files,
        fields,
        request_hash: hex::encode(req_hash.finalize()),
    })
}

/// The parser's error as a [`ReadError`]: a size constraint is [`ReadError::TooLarge`].
fn multer_error(e: multer::Error) -> ReadError {
    match e {
        multer::Error::StreamSizeExceeded { .. } | multer::Error::FieldSizeExceeded { .. } => {
            ReadError::TooLarge
        }
        e => ReadError::Invalid(e.to_string()),
    }
}

impl<'r> PartSource for multer::Multipart<'r> {
    type Part<'a>
        = multer::Field<'r>
    where
        Self: 'a;

    async fn next_part(&mut self) -> Result<Option<multer::Field<'r>>, ReadError> {
        self.next_field().await.map_err(multer_error)
    }
}

impl Part for multer::Field<'_> {
    fn name(&self) -> Option<&str> {
        multer::Field::name(self)
    }

    fn file_name(&self) -> Option<&str> {
        multer::Field::file_name(self)
    }

    async fn chunk(&mut self) -> Result<Option<Bytes>, ReadError> {
        multer::Field::chunk(self).await.map_err(multer_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    /// Keeps the files in memory; `None` once abandoned.
    #[derive(Default)]
    struct Memory {
        opened: usize,
    }

    impl FileSink for Memory {
        type File = Option<Vec<u8>>;
        type Error = Infallible;
        async fn open(&mut self) -> Result<Self::File, Infallible> {
            self.opened += 1;
            Ok(Some(Vec::new()))
        }
        async fn write(&mut self, file: &mut Self::File, chunk: &[u8]) -> Result<(), Infallible> {
            file.as_mut()
                .expect("no write after abandon")
                .extend_from_slice(chunk);
            Ok(())
        }
        fn abandon(&mut self, file: &mut Self::File) {
            *file = None;
        }
        async fn close(&mut self, file: &mut Self::File) -> Result<(), Infallible> {
            assert!(file.is_some(), "no close after abandon");
            Ok(())
        }
    }

    const LIMITS: Limits = Limits {
        max_files: 2,
        max_file_bytes: 8,
        max_text_field: 16,
    };

    /// A body of (name, file name, bytes) parts with the given boundary.
    fn body(boundary: &str, parts: &[(&str, Option<&str>, &[u8])]) -> Vec<u8> {
        let mut b = Vec::new();
        for (name, filename, data) in parts {
            b.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
            let disposition = match filename {
                Some(f) => format!("form-data; name=\"{name}\"; filename=\"{f}\""),
                None => format!("form-data; name=\"{name}\""),
            };
            b.extend_from_slice(format!("Content-Disposition: {disposition}\r\n\r\n").as_bytes());
            b.extend_from_slice(data);
            b.extend_from_slice(b"\r\n");
        }
        b.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        b
    }

    /// Parts given one chunk at a time, counting the chunks read.
    struct Counted {
        parts: std::collections::VecDeque<(&'static str, Option<&'static str>, Vec<Bytes>)>,
        pulled: usize,
    }

    struct CountedPart<'a> {
        name: &'static str,
        file_name: Option<&'static str>,
        chunks: std::vec::IntoIter<Bytes>,
        pulled: &'a mut usize,
    }

    impl PartSource for Counted {
        type Part<'a> = CountedPart<'a>;
        async fn next_part(&mut self) -> Result<Option<CountedPart<'_>>, ReadError> {
            Ok(self
                .parts
                .pop_front()
                .map(|(name, file_name, chunks)| CountedPart {
                    name,
                    file_name,
                    chunks: chunks.into_iter(),
                    pulled: &mut self.pulled,
                }))
        }
    }

    impl Part for CountedPart<'_> {
        fn name(&self) -> Option<&str> {
            Some(self.name)
        }
        fn file_name(&self) -> Option<&str> {
            self.file_name
        }
        async fn chunk(&mut self) -> Result<Option<Bytes>, ReadError> {
            let next = self.chunks.next();
            *self.pulled += usize::from(next.is_some());
            Ok(next)
        }
    }

    /// Reads `body` arriving in pieces of `step` bytes.
    async fn read(
        boundary: &str,
        body: &[u8],
        step: usize,
        limits: Limits,
    ) -> Result<Form<Option<Vec<u8>>>, FormError<Infallible>> {
        let chunks: Vec<Result<Bytes, Infallible>> = body
            .chunks(step)
            .map(|c| Ok(Bytes::copy_from_slice(c)))
            .collect();
        let mut mp = multer::Multipart::new(futures_util::stream::iter(chunks), boundary);
        read_form(&mut mp, &mut Memory::default(), limits).await
    }

    #[tokio::test]
    async fn files_fields_and_a_boundary_independent_hash() {
        let parts: &[(&str, Option<&str>, &[u8])] = &[
            ("metadata", None, b"{\"a\":1}"),
            ("files[]", Some("../x/inv.pdf"), b"%PDF-1"),
            ("unknown", None, b"ignored"),
            ("files", Some("big.png"), b"0123456789"),
            ("use_heavy_ai", None, b"true"),
        ];
        let form = read("XyZ", &body("XyZ", parts), 5, LIMITS).await.unwrap();
        assert_eq!(form.fields.metadata.as_deref(), Some("{\"a\":1}"));
        assert_eq!(form.fields.use_heavy_ai.as_deref(), Some("true"));
        assert_eq!(form.fields.webhook_url, None);
        assert_eq!(form.files.len(), 2);
        let (a, b) = (&form.files[0], &form.files[1]);
        assert_eq!(
            (a.filename.as_str(), a.size, a.too_large),
            ("inv.pdf", 6, false)
        );
        assert_eq!(a.file.as_deref(), Some(&b"%PDF-1"[..]));
        assert_eq!(a.sha256, hex::encode(Sha256::digest(b"%PDF-1")));
        // Over the 8-byte limit: read to its end, counted, not kept.
        assert_eq!((b.size, b.too_large, b.file.is_none()), (10, true, true));
        // Another boundary and other chunks: the same request.
        let again = read("other-boundary", &body("other-boundary", parts), 1, LIMITS)
            .await
            .unwrap();
        assert_eq!(again.request_hash, form.request_hash);
        // Other bytes: another request.
        let mut changed = parts.to_vec();
        changed[1].2 = b"%PDF-2";
        let other = read("XyZ", &body("XyZ", &changed), 64, LIMITS)
            .await
            .unwrap();
        assert_ne!(other.request_hash, form.request_hash);
    }

    #[tokio::test]
    async fn refusals() {
        let three: &[(&str, Option<&str>, &[u8])] = &[
            ("files[]", Some("a"), b"1"),
            ("files[]", Some("b"), b"2"),
            ("files[]", Some("c"), b"3"),
        ];
        assert!(matches!(
            read("b", &body("b", three), 7, LIMITS).await,
            Err(FormError::TooManyFiles { max: 2 })
        ));
        // The refusal comes after the whole body was read (more files and a field after the
        // one too many), so that a client still sending is not cut off.
        let mut source = Counted {
            parts: ["a", "b", "c", "d"]
                .iter()
                .map(|f| ("files[]", Some(*f), vec![Bytes::from_static(b"12"); 3]))
                .chain([("metadata", None, vec![Bytes::from_static(b"{}")])])
                .collect(),
            pulled: 0,
        };
        assert!(matches!(
            read_form(&mut source, &mut Memory::default(), LIMITS).await,
            Err(FormError::TooManyFiles { max: 2 })
        ));
        assert!(source.parts.is_empty());
        assert_eq!(source.pulled, 13);
        let long: &[(&str, Option<&str>, &[u8])] = &[("metadata", None, &[b'x'; 17])];
        match read("b", &body("b", long), 3, LIMITS).await {
            Err(FormError::FieldTooLong { name, max: 16 }) => assert_eq!(name, "metadata"),
            other => panic!("{other:?}"),
        }
        let not_utf8: &[(&str, Option<&str>, &[u8])] = &[("webhook_url", None, b"\xff\xfe")];
        match read("b", &body("b", not_utf8), 3, LIMITS).await {
            Err(FormError::InvalidField { name }) => assert_eq!(name, "webhook_url"),
            other => panic!("{other:?}"),
        }
        // Cut short: the parser's message.
        let cut = body("b", three);
        assert!(matches!(
            read("b", &cut[..cut.len() / 2], 4, LIMITS).await,
            Err(FormError::Read(ReadError::Invalid(_)))
        ));
        // Over the parser's size constraint.
        let chunks = vec![Ok::<_, Infallible>(Bytes::from(body("b", three)))];
        let constraints =
            multer::Constraints::new().size_limit(multer::SizeLimit::new().whole_stream(20));
        let mut mp = multer::Multipart::with_constraints(
            futures_util::stream::iter(chunks),
            "b",
            constraints,
        );
        assert!(matches!(
            read_form(&mut mp, &mut Memory::default(), LIMITS).await,
            Err(FormError::Read(ReadError::TooLarge))
        ));
    }

    #[test]
    fn filenames_are_data_not_paths() {
        assert_eq!(sanitize_filename(Some("../../etc/passwd")), "passwd");
        assert_eq!(sanitize_filename(Some("C:\\Users\\x\\inv.pdf")), "inv.pdf");
        assert_eq!(sanitize_filename(Some("..")), "file");
        assert_eq!(sanitize_filename(Some("a\u{0}b\nc.pdf")), "abc.pdf");
        assert_eq!(sanitize_filename(None), "file");
        assert_eq!(sanitize_filename(Some("Рахунок №5.pdf")), "Рахунок №5.pdf");
        assert_eq!(sanitize_filename(Some(&"x".repeat(400))).len(), 255);
    }
}
