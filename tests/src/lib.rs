//! Integration and golden tests live in `tests/tests/`.
