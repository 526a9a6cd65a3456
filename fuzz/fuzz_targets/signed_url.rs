//! Fuzz target: signed artifact links as the server checks them (`server/src/serve/signed.rs`,
//! compiled here as is). Any query must be answered without a panic; a link the server signed
//! must pass until it expires, and be refused for any other document, artifact or key.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../server/src/serve/signed.rs"]
#[allow(dead_code)]
mod signed;

use signed::{LinkError, check_link, url_signature};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(5, '\n');
    let key = parts.next().unwrap_or("").as_bytes().to_vec();
    let doc = parts.next().unwrap_or("");
    let name = parts.next().unwrap_or("");
    let query = parts.next();
    let now: i64 = parts
        .next()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    // Whatever comes back, the answer is a verdict, never a panic.
    let _ = check_link(&key, doc, name, query, now);
    // Round trip: a link signed for (doc, name) at `now` is valid until it expires.
    let expires = now.saturating_add(900);
    let sig = url_signature(&key, doc, name, expires);
    let q = format!("expires={expires}&signature={sig}");
    assert_eq!(check_link(&key, doc, name, Some(&q), now), Ok(()));
    if expires < i64::MAX {
        assert_eq!(
            check_link(&key, doc, name, Some(&q), expires + 1),
            Err(LinkError::Expired)
        );
    }
    let other = format!("{doc}x");
    assert!(matches!(
        check_link(&key, &other, name, Some(&q), now),
        Err(LinkError::Invalid(_))
    ));
    // The same parameter twice is ambiguous, so refused.
    let twice = format!("{q}&signature={sig}");
    assert!(matches!(
        check_link(&key, doc, name, Some(&twice), now),
        Err(LinkError::Invalid(_))
    ));
});
