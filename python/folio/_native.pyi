"""Type stubs of the native module (checked against it by mypy.stubtest in the tests)."""

import os
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Optional, Union, final

__version__: str

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
    "verify_webhook",
]

_Source = Union[str, os.PathLike[str], bytes]

class FolioError(Exception):
    """Base class of Folio's errors; `.code` is the stable code."""

    code: ClassVar[str]

class UnsupportedFileError(FolioError): ...
class FileTooLargeError(FolioError): ...
class TooManyPagesError(FolioError): ...
class CorruptFileError(FolioError): ...
class EncryptedFileError(FolioError): ...
class EmptyFileError(FolioError): ...
class InvalidArgumentError(FolioError): ...
class IoError(FolioError): ...
class RuntimeMissingError(FolioError): ...
class OcrError(FolioError): ...
class ModelError(FolioError): ...
class CancelledError(FolioError): ...
class InternalError(FolioError): ...
class SignatureError(FolioError): ...
class ResourceLimitError(FolioError): ...

ERROR_CODES: dict[str, type[FolioError]]
"""Each stable error code (``"CORRUPT_FILE"``) and its exception class, in the codes' numeric
order (1, 2, ...: the C API's status values)."""

@final
class Engine:
    """The recognition engine; build once, share between threads."""

    def __new__(
        cls,
        languages: Optional[list[str]] = None,
        *,
        config: Optional[Union[str, Mapping[str, Any]]] = None,
        pdfium_library: Optional[Union[str, os.PathLike[str]]] = None,
        threads: Optional[int] = None,
        max_pages: Optional[int] = None,
        max_file_size_mb: Optional[int] = None,
    ) -> Engine: ...
    def recognize(
        self,
        source: _Source,
        *,
        pages: Optional[str] = None,
        heavy: bool = False,
        filename: Optional[str] = None,
        languages: Optional[list[str]] = None,
    ) -> dict[str, Any]: ...
    def recognize_json(
        self,
        source: _Source,
        *,
        pages: Optional[str] = None,
        heavy: bool = False,
        filename: Optional[str] = None,
        languages: Optional[list[str]] = None,
    ) -> str: ...
    def render_page(
        self,
        source: _Source,
        result: Union[str, Mapping[str, Any]],
        page: int = 1,
        *,
        max_side: int = 1600,
        draw_boxes: bool = True,
    ) -> dict[str, Any]: ...
    def recognize_many(
        self,
        sources: Iterable[_Source],
        workers: Optional[int] = None,
        *,
        pages: Optional[str] = None,
        heavy: bool = False,
        languages: Optional[list[str]] = None,
        return_exceptions: bool = False,
    ) -> ResultIterator: ...

@final
class ResultIterator:
    """Results of `Engine.recognize_many` as `(source, result)` in the order they finish."""

    def __iter__(self) -> ResultIterator: ...
    def __next__(self) -> tuple[Any, Any]: ...
    def __len__(self) -> int: ...

def verify_webhook(
    secret: Union[str, bytes],
    headers: Union[Mapping[str, str], Iterable[tuple[str, str]]],
    body: Union[bytes, str],
    tolerance: int = 300,
    *,
    header_prefix: str = "X-Folio-",
    now: Optional[int] = None,
) -> None: ...
