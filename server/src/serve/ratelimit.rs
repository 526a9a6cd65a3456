//! Request rate limit per API key: a token bucket (`rate` tokens a second, `burst` at most).
//! One server keeps its buckets in memory; nodes sharing a database keep them there
//! ([`shared_check`]), so a key's limit holds across the nodes.

use super::db::DbResult;
use super::sql::{Conn, params};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Token buckets of all keys.
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl RateLimiter {
    /// `rate` requests a second on average, bursts of `burst`; a rate of 0 disables the limit.
    pub fn new(rate: f64, burst: f64) -> Self {
        RateLimiter {
            rate,
            burst: burst.max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Requests a second (0: no limit).
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Largest burst.
    pub fn burst(&self) -> f64 {
        self.burst
    }

    /// Takes a token for `key`; `Some(seconds)` to wait when none is left.
    pub fn check(&self, key: &str) -> Option<u64> {
        if self.rate <= 0.0 {
            return None;
        }
        let now = Instant::now();
        let mut map = match self.buckets.lock() {
            Ok(m) => m,
            Err(p) => p.into_inner(),
        };
        let (tokens, last) = map.entry(key.to_string()).or_insert((self.burst, now));
        let refill = now.duration_since(*last).as_secs_f64() * self.rate;
        *tokens = (*tokens + refill).min(self.burst);
        *last = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            None
        } else {
            Some(wait_secs(*tokens, self.rate))
        }
    }
}

/// Seconds to wait for the next token when `tokens` are left.
fn wait_secs(tokens: f64, rate: f64) -> u64 {
    ((1.0 - tokens) / rate).ceil().max(1.0) as u64
}

/// [`RateLimiter::check`] with the bucket in the database (table `rate_buckets`), in one
/// statement: the bucket is refilled for the time since its last use, and a token taken when
/// one is there. `now_ms` is the time in ms since 1970.
pub fn shared_check(
    conn: &dyn Conn,
    key: &str,
    rate: f64,
    burst: f64,
    now_ms: i64,
) -> DbResult<Option<u64>> {
    if rate <= 0.0 {
        return Ok(None);
    }
    // Tokens now: the stored ones refilled, at most the burst.
    let refilled = "rate_buckets.tokens + (CAST(?2 AS BIGINT) - rate_buckets.updated_ms) \
                    * CAST(?4 AS DOUBLE PRECISION) / 1000.0";
    let avail = format!(
        "(CASE WHEN {refilled} > CAST(?3 AS DOUBLE PRECISION) \
         THEN CAST(?3 AS DOUBLE PRECISION) ELSE {refilled} END)"
    );
    let (granted, tokens): (bool, f64) = conn.query_row(
        &format!(
            "INSERT INTO rate_buckets (key_id, tokens, updated_ms, granted) \
             VALUES (?1, CAST(?3 AS DOUBLE PRECISION) - 1.0, CAST(?2 AS BIGINT), 1) \
             ON CONFLICT (key_id) DO UPDATE SET \
             granted = CASE WHEN {avail} >= 1.0 THEN 1 ELSE 0 END, \
             tokens = CASE WHEN {avail} >= 1.0 THEN {avail} - 1.0 ELSE {avail} END, \
             updated_ms = CAST(?2 AS BIGINT) \
             RETURNING granted, tokens"
        ),
        params![key, now_ms, burst, rate],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok((!granted).then(|| wait_secs(tokens, rate)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_in_the_database_refills_and_limits_like_the_one_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let db = super::super::db::Db::open(dir.path(), 1).unwrap();
        let check = |key: &str, now: i64| db.with(|c| shared_check(c, key, 1.0, 3.0, now)).unwrap();
        let t = 1_700_000_000_000;
        assert_eq!(check("k", t), None);
        assert_eq!(check("k", t), None);
        assert_eq!(check("k", t), None);
        assert_eq!(check("k", t), Some(1));
        // A refused request takes nothing: half a second later half a token is there...
        assert_eq!(check("k", t + 500), Some(1));
        // ...and a second later a whole one.
        assert_eq!(check("k", t + 1000), None);
        assert_eq!(check("k", t + 1000), Some(1));
        // Refills stop at the burst.
        for _ in 0..3 {
            assert_eq!(check("k", t + 60_000), None);
        }
        assert_eq!(check("k", t + 60_000), Some(1));
        // Another key has its own bucket; no rate is no limit.
        assert_eq!(check("other", t), None);
        assert_eq!(
            db.with(|c| shared_check(c, "k", 0.0, 1.0, t)).unwrap(),
            None
        );
    }

    #[test]
    fn burst_then_limited() {
        let l = RateLimiter::new(1.0, 3.0);
        assert!(l.check("k").is_none());
        assert!(l.check("k").is_none());
        assert!(l.check("k").is_none());
        assert_eq!(l.check("k"), Some(1));
        // Another key has its own bucket.
        assert!(l.check("other").is_none());
        // Disabled.
        let off = RateLimiter::new(0.0, 1.0);
        for _ in 0..10 {
            assert!(off.check("k").is_none());
        }
    }
}
