//! `folio._native`: the Python face of the engine (re-exported by the `folio` package).
//!
//! * `Engine`: built once, thread-safe; `recognize` / `recognize_json` release the GIL while the
//!   engine runs, so Python threads recognise in parallel; `recognize_many` runs on Rust threads
//!   and yields results as they finish.
//! * Errors: a `FolioError` hierarchy with `.code` mirroring the engine's codes;
//!   `FileNotFoundError` / `PermissionError` for the OS errors they name.
//! * `Engine.render_page`: a page of a recognised document as a PNG with the evidence boxes.
//! * `verify_webhook`: the webhook signature check of the HTTP contract.

use engine::{
    CancelToken, DocumentResult, Engine, EngineConfig, Error, ErrorCode, RecognizeOptions,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyFileNotFoundError, PyPermissionError, PyStopIteration};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString, PyType};
use serde_json::Value;
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};

create_exception!(
    folio,
    FolioError,
    PyException,
    "Base class of Folio's errors; `.code` is the stable code."
);
/// The Python exception class of each engine error code: its name and docstring. The classes
/// are made from this one table when the module is imported, one per `ErrorCode::ALL`, each a
/// `FolioError` subclass whose `.code` is the code's stable string (`ErrorCode::as_str`).
fn class_of(code: ErrorCode) -> (&'static str, &'static str) {
    match code {
        ErrorCode::UnsupportedFileType => (
            "UnsupportedFileError",
            "The file's content is not a supported type.",
        ),
        ErrorCode::FileTooLarge => ("FileTooLargeError", "The file is over the size limit."),
        ErrorCode::TooManyPages => (
            "TooManyPagesError",
            "The document has more pages than allowed.",
        ),
        ErrorCode::CorruptFile => ("CorruptFileError", "The file is damaged."),
        ErrorCode::EncryptedFile => ("EncryptedFileError", "The file is password protected."),
        ErrorCode::EmptyFile => ("EmptyFileError", "The file is empty."),
        ErrorCode::InvalidArgument => (
            "InvalidArgumentError",
            "An argument, option or configuration is invalid.",
        ),
        ErrorCode::Io => (
            "IoError",
            "Reading a file failed (other than not found / no permission).",
        ),
        ErrorCode::RuntimeMissing => (
            "RuntimeMissingError",
            "A native library (pdfium, onnxruntime, tesseract data) is missing.",
        ),
        ErrorCode::OcrFailed => ("OcrError", "OCR failed."),
        ErrorCode::ModelError => ("ModelError", "A model failed."),
        ErrorCode::Cancelled => ("CancelledError", "The recognition was cancelled."),
        ErrorCode::Internal => ("InternalError", "An internal error (a bug)."),
        ErrorCode::SignatureInvalid => ("SignatureError", "A webhook signature did not verify."),
        ErrorCode::ResourceLimit => (
            "ResourceLimitError",
            "Processing exceeded a resource limit (memory, time).",
        ),
    }
}

/// The exception classes made from [`class_of`], in `ErrorCode::ALL` order.
static CLASSES: PyOnceLock<Vec<(ErrorCode, Py<PyType>)>> = PyOnceLock::new();

/// Makes the exception class of every engine code.
fn make_classes(py: Python<'_>) -> PyResult<Vec<(ErrorCode, Py<PyType>)>> {
    let base = py.get_type::<FolioError>();
    ErrorCode::ALL
        .iter()
        .map(|&code| {
            let (name, doc) = class_of(code);
            let qualified = CString::new(format!("folio.{name}"))?;
            let doc = CString::new(doc)?;
            let cls = PyErr::new_type(py, &qualified, Some(&doc), Some(&base), None)?;
            cls.bind(py).setattr("code", code.as_str())?;
            Ok((code, cls))
        })
        .collect()
}

/// An exception of the class of `code`.
///
/// The classes exist from module initialisation on, before anything can call this, and cover
/// every code; the `FolioError` arm is never taken in practice and is there only so that this
/// path has no panic (a missing class would otherwise turn an engine error into a
/// `PanicException`).
fn code_err(code: ErrorCode, msg: String) -> PyErr {
    Python::attach(|py| {
        match CLASSES
            .get(py)
            .and_then(|c| c.iter().find(|(k, _)| *k == code))
        {
            Some((_, cls)) => PyErr::from_type(cls.bind(py).clone(), msg),
            None => FolioError::new_err(format!("{code}: {msg}")),
        }
    })
}

/// The exception of an engine error (OS errors as Python's own where they have one).
fn to_py(e: Error) -> PyErr {
    if let Error::Io { source, .. } = &e {
        match source.kind() {
            std::io::ErrorKind::NotFound => return PyFileNotFoundError::new_err(e.to_string()),
            std::io::ErrorKind::PermissionDenied => {
                return PyPermissionError::new_err(e.to_string());
            }
            _ => {}
        }
    }
    code_err(e.code(), e.to_string())
}

/// A native library next to this extension module (`folio/lib/`) or in an installed package
/// (`package` the dotted module holding it), unless `env` names one.
fn default_library(py: Python<'_>, env: &str, name: &Path, package: &str) -> Option<PathBuf> {
    if std::env::var_os(env).is_some_and(|v| !v.is_empty()) {
        return None;
    }
    let dir_of = |module: &str| -> Option<PathBuf> {
        let m = py.import(module).ok()?;
        let file: String = m.getattr("__file__").ok()?.extract().ok()?;
        PathBuf::from(file).parent().map(PathBuf::from)
    };
    if let Some(d) = dir_of("folio._native").or_else(|| dir_of("folio")) {
        let p = d.join("lib").join(name);
        if p.is_file() {
            return Some(p);
        }
    }
    let p = dir_of(package)?.join(name);
    p.is_file().then_some(p)
}

/// pdfium from `pypdfium2_raw`; onnxruntime from the `onnxruntime` package (its `capi/`), looked
/// up only for a configured `model` (the built-in one is evaluated natively: importing that
/// package would load onnxruntime for nothing).
fn default_libraries(py: Python<'_>, cfg: &mut EngineConfig) {
    if cfg.pdfium_library.is_none() {
        cfg.pdfium_library = default_library(
            py,
            engine::pdf::PDFIUM_ENV,
            &engine::pdf::library_file_name(),
            "pypdfium2_raw",
        );
    }
    if cfg.onnxruntime_library.is_none() && cfg.model.is_some() {
        cfg.onnxruntime_library = default_library(
            py,
            engine::fields::model::ORT_ENV,
            Path::new(engine::fields::model::ORT_LIBRARY),
            "onnxruntime.capi",
        );
    }
}

/// Input of a recognition, copied out of Python objects before the GIL is released.
enum Source {
    Path(PathBuf),
    Bytes(Vec<u8>),
}

impl Source {
    /// Bytes to read: the work a document will take, roughly (0 when the file cannot be read).
    fn size(&self) -> u64 {
        match self {
            Source::Path(p) => std::fs::metadata(p).map_or(0, |m| m.len()),
            Source::Bytes(b) => b.len() as u64,
        }
    }
}

fn source_of(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Source::Bytes(b.as_bytes().to_vec()));
    }
    if let Ok(b) = obj.extract::<Vec<u8>>()
        && !obj.is_instance_of::<PyString>()
    {
        return Ok(Source::Bytes(b));
    }
    let os = obj.py().import("os")?;
    let path: PathBuf = os.call_method1("fspath", (obj,))?.extract()?;
    Ok(Source::Path(path))
}

fn options(
    pages: Option<String>,
    heavy: bool,
    filename: Option<String>,
    languages: Option<Vec<String>>,
) -> RecognizeOptions {
    RecognizeOptions {
        pages,
        heavy,
        filename,
        languages,
        ..RecognizeOptions::default()
    }
}

fn run(engine: &Engine, src: &Source, opts: &RecognizeOptions) -> Result<DocumentResult, Error> {
    let cancel = CancelToken::new();
    let quiet = |_| {};
    match src {
        Source::Path(p) => engine.recognize_path(p, opts, &quiet, &cancel),
        Source::Bytes(b) => engine.recognize_bytes(b, opts, &quiet, &cancel),
    }
}

/// A rendered page: PNG bytes, width, height, and the boxes as a JSON tree.
type Rendered = (Vec<u8>, u32, u32, Value);

/// Renders `page` of `src` with the Result `json` (see `Engine.render_page`); without the GIL.
fn render(
    engine: &Engine,
    src: &Source,
    json: &str,
    page: u32,
    max_side: u32,
    draw: bool,
) -> Result<Rendered, Error> {
    let result: DocumentResult = serde_json::from_str(json)
        .map_err(|e| Error::InvalidArgument(format!("result is not a Folio Result: {e}")))?;
    let bytes = match src {
        Source::Path(p) => {
            engine::preprocess::read_input_file(p, engine.config().limits.max_bytes())?
        }
        Source::Bytes(b) => b.clone(),
    };
    let mut rendered = engine.render_page(&bytes, &result, page, max_side)?;
    let boxes = engine::render::field_boxes(&result, &rendered);
    if draw {
        engine::render::draw_boxes(&mut rendered.image, &boxes);
    }
    let png = engine::render::encode_png(&rendered.image)?;
    let tree =
        serde_json::to_value(&boxes).map_err(|e| Error::Internal(format!("boxes to JSON: {e}")))?;
    Ok((png, rendered.image.width(), rendered.image.height(), tree))
}

/// The Result as a JSON tree (built without the GIL), turned into Python objects by `to_object`.
fn tree(r: &DocumentResult) -> Result<Value, Error> {
    serde_json::to_value(r).map_err(|e| Error::Internal(format!("result to JSON: {e}")))
}

/// A JSON tree as the dicts, lists, strings, numbers, bools and None that `json.loads` gives.
fn to_object<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_object(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(PyString::new(py, k), to_object(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// The recognition engine. Build it once (it loads models) and share it between threads.
#[pyclass(name = "Engine", module = "folio", frozen)]
struct PyEngine {
    engine: Arc<Engine>,
}

#[pymethods]
impl PyEngine {
    /// `Engine(languages=None, *, config=None, pdfium_library=None, threads=None,
    /// max_pages=None, max_file_size_mb=None)`.
    ///
    /// `languages`: ISO 639-1 codes (default: en, de, fr, pl, uk, ru). `config`: a dict or JSON
    /// string of the engine configuration; the keyword arguments override it.
    #[new]
    #[pyo3(signature = (languages=None, *, config=None, pdfium_library=None, threads=None, max_pages=None, max_file_size_mb=None))]
    fn new(
        py: Python<'_>,
        languages: Option<Vec<String>>,
        config: Option<&Bound<'_, PyAny>>,
        pdfium_library: Option<PathBuf>,
        threads: Option<usize>,
        max_pages: Option<u32>,
        max_file_size_mb: Option<u64>,
    ) -> PyResult<Self> {
        let mut cfg = match config {
            None => EngineConfig::default(),
            Some(c) if c.is_instance_of::<PyString>() => {
                EngineConfig::from_json(&c.extract::<String>()?).map_err(to_py)?
            }
            Some(c) => {
                let text: String = py.import("json")?.call_method1("dumps", (c,))?.extract()?;
                EngineConfig::from_json(&text).map_err(to_py)?
            }
        };
        if let Some(l) = languages {
            cfg.languages = l;
        }
        if let Some(t) = threads {
            cfg.threads = Some(t);
        }
        if let Some(m) = max_pages {
            cfg.limits.max_pages = m;
        }
        if let Some(m) = max_file_size_mb {
            cfg.limits.max_file_size_mb = m;
        }
        if let Some(p) = pdfium_library {
            cfg.pdfium_library = Some(p);
        }
        default_libraries(py, &mut cfg);
        let engine = py.detach(|| Engine::new(cfg)).map_err(to_py)?;
        Ok(PyEngine {
            engine: Arc::new(engine),
        })
    }

    /// Recognises a file path (str or os.PathLike) or the bytes of a file; returns the Result
    /// JSON as a dict. The GIL is released while the engine runs. File types, by content: PDF,
    /// JPEG, PNG, TIFF, DOC, DOCX, XLS, XLSX, RTF, XML e-invoices (CII, UBL) and pre-recognised
    /// words (words JSON, hOCR); a PDF with an e-invoice XML attached gets the XML's values.
    #[pyo3(signature = (source, *, pages=None, heavy=false, filename=None, languages=None))]
    fn recognize<'py>(
        &self,
        py: Python<'py>,
        source: &Bound<'py, PyAny>,
        pages: Option<String>,
        heavy: bool,
        filename: Option<String>,
        languages: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let src = source_of(source)?;
        let opts = options(pages, heavy, filename, languages);
        let engine = self.engine.clone();
        let value = py
            .detach(move || run(&engine, &src, &opts).and_then(|r| tree(&r)))
            .map_err(to_py)?;
        to_object(py, &value)
    }

    /// Like `recognize`, returning the Result JSON text.
    #[pyo3(signature = (source, *, pages=None, heavy=false, filename=None, languages=None))]
    fn recognize_json(
        &self,
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        pages: Option<String>,
        heavy: bool,
        filename: Option<String>,
        languages: Option<Vec<String>>,
    ) -> PyResult<String> {
        let src = source_of(source)?;
        let opts = options(pages, heavy, filename, languages);
        let engine = self.engine.clone();
        py.detach(move || run(&engine, &src, &opts).map(|r| r.to_json()))
            .map_err(to_py)
    }

    /// Recognises many files on `workers` Rust threads (default: the number of CPUs) and yields
    /// `(source, result)` pairs as they finish. A failed document raises its error when reached,
    /// or is yielded as `(source, exception)` with `return_exceptions=True`.
    #[pyo3(signature = (sources, workers=None, *, pages=None, heavy=false, languages=None, return_exceptions=false))]
    #[allow(clippy::too_many_arguments)]
    fn recognize_many(
        &self,
        py: Python<'_>,
        sources: &Bound<'_, PyAny>,
        workers: Option<usize>,
        pages: Option<String>,
        heavy: bool,
        languages: Option<Vec<String>>,
        return_exceptions: bool,
    ) -> PyResult<ResultIterator> {
        let mut items: Vec<(Py<PyAny>, Source)> = Vec::new();
        for s in sources.try_iter()? {
            let s = s?;
            let src = source_of(&s)?;
            items.push((s.unbind(), src));
        }
        let total = items.len();
        let workers = workers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, total.max(1));
        let opts = Arc::new(options(pages, heavy, None, languages));
        let (tx, rx) = channel::<(usize, Result<Value, Error>)>();
        let mut keys = Vec::with_capacity(total);
        let mut queue = Vec::with_capacity(total);
        for (i, (k, src)) in items.into_iter().enumerate() {
            keys.push(k);
            queue.push((i, src));
        }
        // Largest first (workers pop from the end): a big document started last would leave the
        // other workers idle at the end of the batch. Results come back as they finish anyway.
        queue.sort_by_cached_key(|(i, src)| (src.size(), std::cmp::Reverse(*i)));
        let queue = Arc::new(Mutex::new(queue));
        py.detach(|| {
            for _ in 0..workers {
                let (engine, opts, queue, tx) =
                    (self.engine.clone(), opts.clone(), queue.clone(), tx.clone());
                std::thread::spawn(move || {
                    loop {
                        let next = queue.lock().ok().and_then(|mut q| q.pop());
                        let Some((i, src)) = next else { break };
                        if tx
                            .send((i, run(&engine, &src, &opts).and_then(|r| tree(&r))))
                            .is_err()
                        {
                            break;
                        }
                    }
                });
            }
        });
        Ok(ResultIterator {
            rx: Mutex::new(rx),
            keys,
            remaining: Mutex::new(total),
            return_exceptions,
        })
    }

    /// Renders page `page` of a recognised document as the engine read it, at most `max_side`
    /// pixels long, with the evidence boxes of `result` (the dict or JSON text `recognize`
    /// returned for this `source`) drawn on it unless `draw_boxes` is false. Returns a dict:
    /// `png` (bytes), `width`, `height`, and `boxes`, a list of dicts `field`, `page`, `rect`
    /// (`[x0, y0, x1, y1]` in pixels of the PNG), `text`, `confidence`. The GIL is released
    /// while rendering. Documents without page images (office files, pre-recognised words, XML
    /// e-invoices) raise `UnsupportedFileError`; a page the result does not describe raises
    /// `InvalidArgumentError`.
    #[pyo3(signature = (source, result, page=1, *, max_side=1600, draw_boxes=true))]
    fn render_page<'py>(
        &self,
        py: Python<'py>,
        source: &Bound<'py, PyAny>,
        result: &Bound<'py, PyAny>,
        page: u32,
        max_side: u32,
        draw_boxes: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let src = source_of(source)?;
        let json: String = if result.is_instance_of::<PyString>() {
            result.extract()?
        } else {
            py.import("json")?
                .call_method1("dumps", (result,))?
                .extract()?
        };
        let engine = self.engine.clone();
        let (png, width, height, boxes) = py
            .detach(move || render(&engine, &src, &json, page, max_side, draw_boxes))
            .map_err(to_py)?;
        let out = PyDict::new(py);
        out.set_item("png", PyBytes::new(py, &png))?;
        out.set_item("width", width)?;
        out.set_item("height", height)?;
        out.set_item("boxes", to_object(py, &boxes)?)?;
        Ok(out.into_any())
    }

    fn __repr__(&self) -> String {
        format!("Engine(languages={:?})", self.engine.config().languages)
    }
}

/// Results of `Engine.recognize_many`, in the order they finish.
#[pyclass(module = "folio", frozen)]
struct ResultIterator {
    rx: Mutex<Receiver<(usize, Result<Value, Error>)>>,
    keys: Vec<Py<PyAny>>,
    remaining: Mutex<usize>,
    return_exceptions: bool,
}

#[pymethods]
impl ResultIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<(Py<PyAny>, Bound<'py, PyAny>)> {
        {
            let mut left = self
                .remaining
                .lock()
                .map_err(|_| code_err(ErrorCode::Internal, "iterator lock poisoned".into()))?;
            if *left == 0 {
                return Err(PyStopIteration::new_err(()));
            }
            *left -= 1;
        }
        let got = py.detach(|| self.rx.lock().ok().and_then(|rx| rx.recv().ok()));
        let Some((i, result)) = got else {
            return Err(code_err(
                ErrorCode::Internal,
                "a recognition thread stopped".into(),
            ));
        };
        let key = self.keys[i].clone_ref(py);
        match result {
            Ok(value) => Ok((key, to_object(py, &value)?)),
            Err(e) if self.return_exceptions => {
                Ok((key, to_py(e).into_value(py).into_bound(py).into_any()))
            }
            Err(e) => Err(to_py(e)),
        }
    }

    fn __len__(&self) -> usize {
        self.remaining.lock().map_or(0, |l| *l)
    }
}

/// Verifies a received webhook (the HTTP contract's signature): `headers` a mapping or list of
/// (name, value) pairs, `body` the raw bytes. Raises `SignatureError` unless the signature
/// matches and the timestamp is at most `tolerance` seconds away from now.
#[pyfunction]
#[pyo3(signature = (secret, headers, body, tolerance=300, *, header_prefix="X-Folio-", now=None))]
fn verify_webhook(
    secret: &Bound<'_, PyAny>,
    headers: &Bound<'_, PyAny>,
    body: &Bound<'_, PyAny>,
    tolerance: i64,
    header_prefix: &str,
    now: Option<i64>,
) -> PyResult<()> {
    let secret: Vec<u8> = match secret.extract::<String>() {
        Ok(s) => s.into_bytes(),
        Err(_) => secret.extract::<Vec<u8>>()?,
    };
    let body: Vec<u8> = match body.cast::<PyBytes>() {
        Ok(b) => b.as_bytes().to_vec(),
        Err(_) => body.extract::<String>()?.into_bytes(),
    };
    let pairs: Vec<(String, String)> = if let Ok(d) = headers.cast::<PyDict>() {
        d.iter()
            .map(|(k, v)| Ok((k.extract()?, v.extract()?)))
            .collect::<PyResult<_>>()?
    } else if headers.hasattr("items")? {
        headers
            .call_method0("items")?
            .try_iter()?
            .map(|kv| kv?.extract::<(String, String)>())
            .collect::<PyResult<_>>()?
    } else {
        headers
            .try_iter()?
            .map(|kv| kv?.extract::<(String, String)>())
            .collect::<PyResult<_>>()?
    };
    let refs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let now = now.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    });
    engine::webhook::verify(&secret, &refs, &body, header_prefix, tolerance, now).map_err(to_py)
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyEngine>()?;
    m.add_class::<ResultIterator>()?;
    m.add_function(wrap_pyfunction!(verify_webhook, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("FolioError", py.get_type::<FolioError>())?;
    py.get_type::<FolioError>().setattr("code", "FOLIO_ERROR")?;
    let classes = CLASSES.get_or_try_init(py, || make_classes(py))?;
    let by_code = PyDict::new(py);
    for (code, cls) in classes {
        let cls = cls.bind(py);
        m.add(cls.name()?, cls)?;
        by_code.set_item(code.as_str(), cls)?;
    }
    m.add("ERROR_CODES", by_code)?;
    Ok(())
}
