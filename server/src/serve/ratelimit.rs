//! Request rate limit per API key: a token bucket (`rate` tokens a second, `burst` at most).

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
            Some(((1.0 - *tokens) / self.rate).ceil().max(1.0) as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
