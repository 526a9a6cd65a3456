//! Signed artifact links: their signature and the check of a link that comes back. Pure functions
//! over std, `url`, `hmac`, `sha2`, `hex` and `subtle` only: the `signed_url` fuzz target
//! (`fuzz/fuzz_targets/signed_url.rs`) compiles this very file.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// Why a signed link is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkError {
    /// Tampered, unsigned or ambiguous (code `SIGNED_URL_INVALID`).
    Invalid(&'static str),
    /// Correctly signed but past its expiry (code `SIGNED_URL_EXPIRED`).
    Expired,
}

/// The signature of a signed artifact URL.
pub fn url_signature(key: &[u8], doc_id: &str, name: &str, expires: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(format!("{doc_id}\n{name}\n{expires}").as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// The `expires` and `signature` of a signed URL's query. A parameter given twice makes the
/// link invalid (which one was signed is ambiguous); other parameters are ignored.
pub fn signed_query(raw: Option<&str>) -> Result<(Option<String>, Option<String>), &'static str> {
    let (mut expires, mut signature) = (None, None);
    for (k, v) in url::form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
        let slot = match k.as_ref() {
            "expires" => &mut expires,
            "signature" => &mut signature,
            _ => continue,
        };
        if slot.replace(v.into_owned()).is_some() {
            return Err("the link has a parameter twice");
        }
    }
    Ok((expires, signature))
}

/// Checks a signed link to artifact `name` of document `doc_id` whose query is `raw`, at Unix
/// time `now`: the signature first (in constant time), then the expiry.
pub fn check_link(
    key: &[u8],
    doc_id: &str,
    name: &str,
    raw: Option<&str>,
    now: i64,
) -> Result<(), LinkError> {
    let (expires, signature) = signed_query(raw).map_err(LinkError::Invalid)?;
    let expires: i64 = expires
        .as_deref()
        .and_then(|e| e.parse().ok())
        .ok_or(LinkError::Invalid("the link has no valid expiry"))?;
    let given = signature.unwrap_or_default();
    let expected = url_signature(key, doc_id, name, expires);
    if !bool::from(expected.as_bytes().ct_eq(given.as_bytes())) {
        return Err(LinkError::Invalid("the link's signature does not match"));
    }
    if now > expires {
        return Err(LinkError::Expired);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_url_signatures_depend_on_every_part() {
        let a = url_signature(b"k", "doc_1", "final_json", 100);
        assert_ne!(a, url_signature(b"k", "doc_2", "final_json", 100));
        assert_ne!(a, url_signature(b"k", "doc_1", "text", 100));
        assert_ne!(a, url_signature(b"k", "doc_1", "final_json", 101));
        assert_ne!(a, url_signature(b"x", "doc_1", "final_json", 100));
    }

    #[test]
    fn signed_queries_refuse_repeated_parameters() {
        assert_eq!(
            signed_query(Some("expires=5&signature=ab&x=1")),
            Ok((Some("5".into()), Some("ab".into())))
        );
        assert_eq!(signed_query(None), Ok((None, None)));
        assert!(signed_query(Some("expires=5&expires=6&signature=ab")).is_err());
        assert!(signed_query(Some("signature=a&expires=5&signature=a")).is_err());
        // Invalid UTF-8 is decoded lossily and then fails the signature, never a panic.
        assert!(signed_query(Some("expires=%FF&signature=%FF")).is_ok());
    }

    #[test]
    fn links_are_checked_signature_first_then_expiry() {
        let sig = url_signature(b"k", "doc_1", "text", 100);
        let q = format!("expires=100&signature={sig}");
        assert_eq!(check_link(b"k", "doc_1", "text", Some(&q), 100), Ok(()));
        assert_eq!(
            check_link(b"k", "doc_1", "text", Some(&q), 101),
            Err(LinkError::Expired)
        );
        // Another document, key or artifact: invalid, whatever the time.
        for (key, doc, name) in [
            (&b"k"[..], "doc_2", "text"),
            (&b"x"[..], "doc_1", "text"),
            (&b"k"[..], "doc_1", "final_json"),
        ] {
            assert!(matches!(
                check_link(key, doc, name, Some(&q), 101),
                Err(LinkError::Invalid(_))
            ));
        }
        for bad in ["", "expires=100", "signature=ab", "expires=x&signature=ab"] {
            assert!(matches!(
                check_link(b"k", "doc_1", "text", Some(bad), 0),
                Err(LinkError::Invalid(_))
            ));
        }
    }
}
