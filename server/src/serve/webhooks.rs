//! Webhook delivery: a loop claims due deliveries from the database and sends each on its own
//! task (a slow or dead receiver holds only its own task, never processing or other receivers),
//! signed as the contract says, with retries by the stored schedule.
//!
//! SSRF protection: URLs must be https unless http is allowed, and every address a host
//! resolves to must be public unless private targets are allowed; the check runs when the URL
//! is given and again when connecting (a resolver that refuses private addresses), so a name
//! that later resolves elsewhere is still refused. Redirects are not followed.

use super::AppState;
use super::store::{self, DueDelivery};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Seconds one delivery attempt may take.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);
/// Deliveries sent at the same time at most.
const MAX_IN_FLIGHT: usize = 64;

/// Who may be called.
#[derive(Debug, Clone, Copy, Default)]
pub struct UrlPolicy {
    /// Plain http allowed (tests, internal networks).
    pub allow_http: bool,
    /// Loopback and private addresses allowed.
    pub allow_private: bool,
}

/// Whether an address is on the public internet (not loopback, private, link-local, shared,
/// documentation, multicast, unspecified or broadcast).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (64..128).contains(&o[1]))
                || (o[0] == 192 && o[1] == 0 && o[2] == 0)
                || o[0] >= 240)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let s = v6.segments();
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                || (s[0] == 0x2001 && s[1] == 0x0db8))
        }
    }
}

/// Checks a webhook URL: scheme, host, and (resolving it) its addresses.
pub async fn check_url(raw: &str, policy: UrlPolicy) -> Result<url::Url, String> {
    let url = url::Url::parse(raw).map_err(|e| format!("not a valid URL: {e}"))?;
    match url.scheme() {
        "https" => {}
        "http" if policy.allow_http => {}
        "http" => return Err("webhook URLs must use https".into()),
        s => return Err(format!("unsupported scheme {s:?}")),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("webhook URLs must not carry credentials".into());
    }
    let host = url.host_str().ok_or("the URL has no host")?.to_string();
    let port = url.port_or_known_default().unwrap_or(443);
    if policy.allow_private {
        return Ok(url);
    }
    let host_for_lookup = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let addrs: Vec<SocketAddr> = tokio::time::timeout(
        Duration::from_secs(5),
        tokio::net::lookup_host((host_for_lookup.as_str(), port)),
    )
    .await
    .map_err(|_| format!("resolving {host} timed out"))?
    .map_err(|e| format!("cannot resolve {host}: {e}"))?
    .collect();
    if addrs.is_empty() {
        return Err(format!("{host} resolves to no address"));
    }
    if let Some(a) = addrs.iter().find(|a| !is_public(a.ip())) {
        return Err(format!(
            "{host} resolves to the non-public address {}",
            a.ip()
        ));
    }
    Ok(url)
}

/// A resolver for the HTTP client that refuses non-public addresses.
#[derive(Debug, Clone, Copy)]
struct PublicOnly;

impl reqwest::dns::Resolve for PublicOnly {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|a| is_public(a.ip()))
                .collect();
            if addrs.is_empty() {
                return Err(format!("{host} has no public address").into());
            }
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// The HTTP client of the deliveries.
pub fn client(policy: UrlPolicy) -> reqwest::Client {
    let mut b = reqwest::Client::builder()
        .timeout(ATTEMPT_TIMEOUT)
        .connect_timeout(ATTEMPT_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("folio-webhooks/", env!("CARGO_PKG_VERSION")));
    if !policy.allow_private {
        b = b.dns_resolver(Arc::new(PublicOnly));
    }
    b.build().expect("HTTP client settings are valid")
}

/// Sends one attempt; returns (HTTP status, error text).
async fn send(state: &AppState, d: &DueDelivery) -> (Option<u16>, Option<String>) {
    // IP-literal hosts bypass the resolver: check them here.
    if !state.url_policy.allow_private
        && let Ok(u) = url::Url::parse(&d.url)
        && let Some(host) = u.host_str()
        && let Ok(ip) = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
        && !is_public(ip)
    {
        return (None, Some(format!("refused: {ip} is not a public address")));
    }
    let ts = chrono::Utc::now().timestamp().to_string();
    let p = &state.header_prefix;
    let mut req = state
        .http
        .post(&d.url)
        .header("content-type", "application/json")
        .header(format!("{p}Event"), &d.event)
        .header(format!("{p}Operation-Id"), &d.operation_id)
        .header(format!("{p}Delivery-Id"), &d.id)
        .header(format!("{p}Event-Id"), &d.event_id)
        .header(format!("{p}Timestamp"), &ts);
    if let Some(doc) = &d.document_id {
        req = req.header(format!("{p}Document-Id"), doc);
    }
    if let Some(secret) = &d.secret {
        req = req.header(
            format!("{p}Signature"),
            folio::webhook::sign(secret.as_bytes(), &ts, d.payload.as_bytes()),
        );
    }
    match req.body(d.payload.clone()).send().await {
        Ok(resp) => {
            let status = resp.status().as_u16();
            // The body is not needed; read a little so the connection can be reused.
            let _ = tokio::time::timeout(Duration::from_secs(1), resp.bytes()).await;
            let err = (!(200..300).contains(&status)).then(|| format!("HTTP {status}"));
            (Some(status), err)
        }
        Err(e) => {
            let kind = if e.is_timeout() {
                "timeout"
            } else if e.is_connect() {
                "connection failed"
            } else {
                "request failed"
            };
            (None, Some(format!("{kind}: {e}")))
        }
    }
}

/// Delivers one claimed delivery and records the attempt.
async fn deliver(state: AppState, d: DueDelivery) {
    let started = Instant::now();
    let (status, error) = send(&state, &d).await;
    let ms = started.elapsed().as_millis() as i64;
    let d2 = d.clone();
    let out = state
        .db
        .call_tx(move |tx| store::record_attempt(tx, &d2, status, error.as_deref(), ms))
        .await;
    match out {
        Ok(s) => state.metrics.delivery(s),
        Err(e) => eprintln!("folio serve: recording delivery {}: {e}", d.id),
    }
}

/// The delivery loop: runs until the process ends.
pub async fn run(state: AppState) {
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_IN_FLIGHT));
    loop {
        let free = slots.available_permits();
        if free > 0 {
            match state
                .db
                .call_tx(move |tx| store::claim_due_deliveries(tx, free))
                .await
            {
                Ok(due) => {
                    for d in due {
                        let Ok(permit) = slots.clone().acquire_owned().await else {
                            return;
                        };
                        let st = state.clone();
                        tokio::spawn(async move {
                            deliver(st, d).await;
                            drop(permit);
                        });
                    }
                }
                Err(e) => eprintln!("folio serve: claiming deliveries: {e}"),
            }
        }
        tokio::select! {
            _ = state.deliveries_wake.notified() => {}
            _ = tokio::time::sleep(Duration::from_millis(250)) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_addresses() {
        for ip in ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "224.0.0.1",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
    }

    #[tokio::test]
    async fn url_policy() {
        let strict = UrlPolicy::default();
        assert!(check_url("http://example.com/h", strict).await.is_err());
        assert!(check_url("ftp://example.com/h", strict).await.is_err());
        assert!(check_url("https://127.0.0.1/h", strict).await.is_err());
        assert!(check_url("https://localhost/h", strict).await.is_err());
        assert!(
            check_url("https://user:pw@example.com/h", strict)
                .await
                .is_err()
        );
        assert!(check_url("not a url", strict).await.is_err());
        let open = UrlPolicy {
            allow_http: true,
            allow_private: true,
        };
        assert!(check_url("http://127.0.0.1:9/h", open).await.is_ok());
    }
}
