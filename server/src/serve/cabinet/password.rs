//! Passwords of cabinet users: argon2id hashes in the PHC string format (the parameters travel
//! with each hash, so stronger defaults later still verify older hashes).

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

/// Shortest password accepted.
pub const MIN_LEN: usize = 10;
/// Longest password accepted (hashing cost does not grow with it, but a bound is a bound).
pub const MAX_LEN: usize = 256;

/// Why a password is not accepted, in words for the form; `None` when it is.
pub fn weakness(password: &str) -> Option<String> {
    let n = password.chars().count();
    if n < MIN_LEN {
        Some(format!(
            "The password must have at least {MIN_LEN} characters."
        ))
    } else if n > MAX_LEN {
        Some(format!(
            "The password must have at most {MAX_LEN} characters."
        ))
    } else if password
        .chars()
        .all(|c| c == password.chars().next().unwrap_or(c))
    {
        Some("The password must not repeat one character.".to_string())
    } else {
        None
    }
}

/// The argon2id hash of a password (random salt).
pub fn hash(password: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash the password: {e}"))
}

/// Whether `password` matches `stored` (false for an unreadable hash).
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A hash no password matches, verified when an e-mail is unknown so that a wrong e-mail
/// takes as long as a wrong password.
pub fn decoy() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash("decoy password never used").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_only_their_password() {
        let h = hash("correct horse battery").unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify("correct horse battery", &h));
        assert!(!verify("correct horse batterY", &h));
        assert!(!verify("correct horse battery", "not a hash"));
        assert_ne!(h, hash("correct horse battery").unwrap(), "salted");
        assert!(!verify("", decoy()));
    }

    #[test]
    fn weak_passwords_are_named() {
        assert!(weakness("short").is_some());
        assert!(weakness("aaaaaaaaaaaa").is_some());
        assert!(weakness(&"ab".repeat(200)).is_some());
        assert!(weakness("a long enough one").is_none());
    }
}
