//! API keys: `Authorization: Bearer fk_<id>_<secret>`. The id part finds the key, the secret is
//! compared by its SHA-256 in constant time; only hashes are stored.

use super::AppState;
use super::error::ApiError;
use super::store::{self, KeyRecord};
use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::http::request::Parts;
use subtle::ConstantTimeEq;

/// The authenticated key of a request.
#[derive(Debug, Clone)]
pub struct Auth(pub KeyRecord);

impl Auth {
    /// The key's company.
    pub fn company(&self) -> &str {
        &self.0.company_id
    }

    /// 403 unless the key has `permission`.
    pub fn require(&self, permission: &str) -> Result<(), ApiError> {
        if self.0.permissions.iter().any(|p| p == permission) {
            Ok(())
        } else {
            Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "FORBIDDEN",
                format!("the API key lacks the permission {permission}"),
            ))
        }
    }
}

fn unauthorized(msg: &str) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", msg)
}

/// Splits `fk_<id>_<secret>` into the key id (`key_<id>`) and the secret.
pub fn parse_token(token: &str) -> Option<(String, &str)> {
    let rest = token.strip_prefix("fk_")?;
    let (id, secret) = rest.split_once('_')?;
    (id.len() == 24 && id.bytes().all(|b| b.is_ascii_hexdigit()) && !secret.is_empty())
        .then(|| (format!("key_{id}"), secret))
}

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| unauthorized("missing Authorization: Bearer <API key>"))?;
        let token = header
            .strip_prefix("Bearer ")
            .or_else(|| header.strip_prefix("bearer "))
            .map(str::trim)
            .ok_or_else(|| unauthorized("the Authorization header must be `Bearer <API key>`"))?;
        let (key_id, secret) = parse_token(token).ok_or_else(|| unauthorized("invalid API key"))?;
        let lookup = key_id.clone();
        let key = state.db.call(move |c| store::find_key(c, &lookup)).await?;
        // Hash and compare even when the key does not exist, so timing tells nothing.
        let given = store::hash_secret(secret);
        let stored = key
            .as_ref()
            .map_or_else(|| "0".repeat(64), |k| k.secret_hash.clone());
        let equal: bool = given.as_bytes().ct_eq(stored.as_bytes()).into();
        let key = match key {
            Some(k) if equal && k.status == "ACTIVE" => k,
            _ => return Err(unauthorized("invalid or revoked API key")),
        };
        // One server counts in memory; nodes sharing a database count there, together.
        let limited = match state.db.dialect() {
            super::sql::Dialect::Sqlite => state.limiter.check(&key.id),
            super::sql::Dialect::Postgres => {
                let (id, rate, burst) =
                    (key.id.clone(), state.limiter.rate(), state.limiter.burst());
                let now = super::model::now_ms();
                state
                    .db
                    .call(move |c| super::ratelimit::shared_check(c, &id, rate, burst, now))
                    .await?
            }
        };
        if let Some(wait) = limited {
            let mut e = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "RATE_LIMITED",
                "request rate limit of this API key exceeded",
            );
            e.retry_after = Some(wait);
            return Err(e);
        }
        note_use(state, &key.id);
        Ok(Auth(key))
    }
}

/// How often a node writes that a key was used (the cabinet shows it; a write per request
/// would cost every request a database write).
const KEY_USE_EVERY_MS: i64 = 60_000;

/// Records, in the background and at most once a minute per key, that a key was used now.
fn note_use(state: &AppState, key_id: &str) {
    let now = super::model::now_ms();
    let due = match state.keys_seen.lock() {
        Ok(mut seen) => match seen.get(key_id) {
            Some(&t) if now - t < KEY_USE_EVERY_MS => false,
            _ => {
                seen.insert(key_id.to_string(), now);
                true
            }
        },
        Err(_) => false,
    };
    if due {
        let (st, id) = (state.clone(), key_id.to_string());
        tokio::spawn(async move {
            if let Err(e) = st.db.call(move |c| store::touch_key(c, &id, now)).await {
                eprintln!("folio serve: recording a key's use: {e}");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let (id, secret) = parse_token("fk_0123456789abcdef01234567_s3cr3t").unwrap();
        assert_eq!(id, "key_0123456789abcdef01234567");
        assert_eq!(secret, "s3cr3t");
        assert!(parse_token("fk_short_s").is_none());
        assert!(parse_token("Bearer x").is_none());
        assert!(parse_token("fk_0123456789abcdef01234567_").is_none());
        assert!(parse_token("fk_../../../etc/passwd00000_x").is_none());
    }
}
