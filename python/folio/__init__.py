"""Folio: business documents (invoices, acts, waybills, receipts, credit notes) to structured JSON.

>>> import folio
>>> engine = folio.Engine(languages=["de", "en"])
>>> result = engine.recognize("invoice.pdf")          # the Result JSON as a dict
>>> result["document"]["number"]

Files are PDF, JPEG, PNG, TIFF, DOC, DOCX, XLS, XLSX, RTF or XML e-invoices (CII as in ZUGFeRD,
Factur-X and XRechnung; UBL 2.1 Invoice / CreditNote), the type decided by content. An e-invoice,
standalone or attached to a PDF, gives the XML's values; any other XML raises
``UnsupportedFileError``.

``Engine.recognize`` releases the GIL, so Python threads recognise in parallel;
``Engine.recognize_many`` runs on Rust threads and yields results as they finish. Errors are
``folio.FolioError`` subclasses with a stable ``.code`` (``CorruptFileError.code ==
"CORRUPT_FILE"``; ``folio.ERROR_CODES`` maps every code to its class); missing files and
permissions raise ``FileNotFoundError`` / ``PermissionError``.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Optional, Union

# Tesseract parallelises inside a page with OpenMP, which reads this once, when the native module
# loads; the engine already runs pages and documents in parallel, and more OpenMP threads only
# oversubscribe the cores. Set it yourself before `import folio` to choose otherwise.
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

from ._native import (  # noqa: E402
    ERROR_CODES,
    CancelledError,
    CorruptFileError,
    EmptyFileError,
    EncryptedFileError,
    Engine,
    FileTooLargeError,
    FolioError,
    InternalError,
    InvalidArgumentError,
    IoError,
    ModelError,
    OcrError,
    ResourceLimitError,
    ResultIterator,
    RuntimeMissingError,
    SignatureError,
    TooManyPagesError,
    UnsupportedFileError,
    __version__,
    verify_webhook,
)

__all__ = [
    "ERROR_CODES",
    "CancelledError",
    "CorruptFileError",
    "EmptyFileError",
    "EncryptedFileError",
    "Engine",
    "FileTooLargeError",
    "FolioError",
    "InternalError",
    "InvalidArgumentError",
    "IoError",
    "ModelError",
    "OcrError",
    "ResourceLimitError",
    "ResultIterator",
    "RuntimeMissingError",
    "SignatureError",
    "TooManyPagesError",
    "UnsupportedFileError",
    "__version__",
    "default_engine",
    "recognize",
    "verify_webhook",
]

_default: Optional[Engine] = None
_default_lock = threading.Lock()


def default_engine() -> Engine:
    """The engine ``folio.recognize`` uses: built on first use with the default settings."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Engine()
        return _default


def recognize(
    source: Union[str, "os.PathLike[str]", bytes],
    *,
    pages: Optional[str] = None,
    heavy: bool = False,
    filename: Optional[str] = None,
) -> dict[str, Any]:
    """Recognises one document with the default engine; returns the Result JSON as a dict."""
    result: dict[str, Any] = default_engine().recognize(
        source, pages=pages, heavy=heavy, filename=filename
    )
    return result
