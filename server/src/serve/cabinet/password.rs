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

/// Password hashes computed at once, at most: each takes about 20 MB and tens of milliseconds of
/// a core, so a flood of sign-ins waits here instead of starving the API of CPU and memory.
pub const CONCURRENT_HASHES: usize = 2;

/// Runs `f` (a hash or a verification) on a blocking thread once one of the
/// [`CONCURRENT_HASHES`] slots is free; `None` if the task failed.
pub async fn limited<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    static SLOTS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(CONCURRENT_HASHES);
    let _slot = SLOTS.acquire().await.ok()?;
    tokio::task::spawn_blocking(f).await.ok()
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

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn at_most_two_hashes_run_at_once() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let (now, most) = (now.clone(), most.clone());
                tokio::spawn(limited(move || {
                    let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(n, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    now.fetch_sub(1, Ordering::SeqCst);
                }))
            })
            .collect();
        for t in tasks {
            assert!(t.await.unwrap().is_some());
        }
        assert!(most.load(Ordering::SeqCst) <= CONCURRENT_HASHES);
    }

    #[test]
    fn weak_passwords_are_named() {
        assert!(weakness("short").is_some());
        assert!(weakness("aaaaaaaaaaaa").is_some());
        assert!(weakness(&"ab".repeat(200)).is_some());
        assert!(weakness("a long enough one").is_none());
    }
}
