//! Webhook signatures of the HTTP contract, for the server that signs and for integrators that
//! verify (the Python module's `folio.verify_webhook` calls [`verify`]).
//!
//! `signed_payload = timestamp + "." + raw body`; the signature header carries
//! `sha256=<hex HMAC-SHA256(secret, signed_payload)>`, the timestamp header the Unix time in
//! seconds. A receiver accepts a signature only when it matches (compared in constant time) and
//! the timestamp is at most `tolerance` seconds away from its clock.

use crate::error::{Error, Result};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// Default prefix of the webhook headers (`X-Folio-Event`, `X-Folio-Signature`, ...).
pub const DEFAULT_HEADER_PREFIX: &str = "X-Folio-";

/// Seconds a receiver should accept between the signed timestamp and its own clock.
pub const DEFAULT_TOLERANCE_SECS: i64 = 300;

/// The signature header value for a body sent at `timestamp` (Unix seconds, as sent in the
/// timestamp header): `sha256=<64 hex digits>`.
pub fn sign(secret: &[u8], timestamp: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// Verifies a received webhook: `headers` as (name, value) pairs (names compared without case),
/// the raw body, `now` the receiver's Unix time in seconds. Headers are looked up with `prefix`
/// ([`DEFAULT_HEADER_PREFIX`] unless the server was configured otherwise).
pub fn verify(
    secret: &[u8],
    headers: &[(&str, &str)],
    body: &[u8],
    prefix: &str,
    tolerance_secs: i64,
    now: i64,
) -> Result<()> {
    let get = |name: &str| {
        let full = format!("{prefix}{name}");
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(&full))
            .map(|(_, v)| v.trim())
    };
    let ts = get("Timestamp")
        .ok_or_else(|| Error::SignatureInvalid(format!("no {prefix}Timestamp header")))?;
    let sig = get("Signature")
        .ok_or_else(|| Error::SignatureInvalid(format!("no {prefix}Signature header")))?;
    let sent: i64 = ts
        .parse()
        .map_err(|_| Error::SignatureInvalid(format!("timestamp {ts:?} is not Unix seconds")))?;
    if (now - sent).abs() > tolerance_secs.max(0) {
        return Err(Error::SignatureInvalid(format!(
            "timestamp is {} s away from now (tolerance {tolerance_secs} s)",
            now - sent
        )));
    }
    let expected = sign(secret, ts, body);
    if expected.as_bytes().ct_eq(sig.as_bytes()).into() {
        Ok(())
    } else {
        Err(Error::SignatureInvalid(
            "signature does not match the body and secret".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;

    #[test]
    fn known_vector() {
        // hmac.new(b"key", b"1700000000.{}", hashlib.sha256).hexdigest() in Python.
        assert_eq!(
            sign(b"key", "1700000000", b"{}"),
            "sha256=9d713ed406bb7076d4123f0dc2c39d2df5c654ed4b0cd56b52c8b4c940bd63ae"
        );
    }

    #[test]
    fn verifies_and_rejects() {
        let body = br#"{"event":"document.processed"}"#;
        let sig = sign(b"s3cret", "1000", body);
        let headers = [
            ("x-folio-timestamp", "1000"),
            ("X-Folio-Signature", sig.as_str()),
        ];
        verify(b"s3cret", &headers, body, DEFAULT_HEADER_PREFIX, 300, 1100).unwrap();
        let code = |r: Result<()>| r.unwrap_err().code();
        // Altered body, wrong secret, stale timestamp, missing header.
        assert_eq!(
            code(verify(
                b"s3cret",
                &headers,
                b"{}",
                DEFAULT_HEADER_PREFIX,
                300,
                1100
            )),
            ErrorCode::SignatureInvalid
        );
        assert_eq!(
            code(verify(
                b"other",
                &headers,
                body,
                DEFAULT_HEADER_PREFIX,
                300,
                1100
            )),
            ErrorCode::SignatureInvalid
        );
        assert_eq!(
            code(verify(
                b"s3cret",
                &headers,
                body,
                DEFAULT_HEADER_PREFIX,
                300,
                1400
            )),
            ErrorCode::SignatureInvalid
        );
        assert_eq!(
            code(verify(
                b"s3cret",
                &headers[..1],
                body,
                DEFAULT_HEADER_PREFIX,
                300,
                1100
            )),
            ErrorCode::SignatureInvalid
        );
        // Another header prefix.
        let h2 = [
            ("X-Acme-Timestamp", "1000"),
            ("X-Acme-Signature", sig.as_str()),
        ];
        verify(b"s3cret", &h2, body, "X-Acme-", 300, 1000).unwrap();
    }
}
