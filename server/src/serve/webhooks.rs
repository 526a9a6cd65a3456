//! Webhook delivery: a loop claims due deliveries from the database and sends each on its own
//! task (a slow or dead receiver holds only its own task, never processing or other receivers),
//! signed as the contract says, with retries by the stored schedule.
//!
//! SSRF protection: URLs must be https unless http is allowed, and every address a host
//! resolves to must be public unless private targets are allowed. "Public" is decided by one
//! table of the IANA special-purpose blocks, IPv4 and IPv6 ([`non_public_reason`]), where IPv6
//! forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged by that address. The check
//! runs when the URL is given and again when connecting (the client's resolver refuses a name
//! with any non-public address, so DNS rebinding gains nothing; IP-literal URLs, which never
//! reach a resolver, are checked by the same table before sending). Redirects are not followed
//! and no proxy is used (a proxy would resolve names past the check).

use super::store::{self, DueDelivery};
use super::{App, AppState};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
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

/// A special-purpose IPv4 block: (first address, prefix length, name).
type V4Block = (u32, u8, &'static str);
/// A special-purpose IPv6 block.
type V6Block = (u128, u8, &'static str);

const fn v4(a: u8, b: u8, c: u8, d: u8) -> u32 {
    u32::from_be_bytes([a, b, c, d])
}

const fn v6(segments: [u16; 8]) -> u128 {
    let mut n: u128 = 0;
    let mut i = 0;
    while i < 8 {
        n = (n << 16) | segments[i] as u128;
        i += 1;
    }
    n
}

/// The IPv4 blocks a webhook may not reach: every block of the IANA IPv4 Special-Purpose
/// Address Registry (RFC 6890 and its updates) and the multicast, reserved and broadcast space.
/// Blocks IANA marks globally reachable but which are still protocol infrastructure (parts of
/// 192.0.0.0/24) are refused with their parent block.
pub const V4_SPECIAL: &[V4Block] = &[
    (v4(0, 0, 0, 0), 8, "\"this network\" (0.0.0.0/8)"),
    (v4(10, 0, 0, 0), 8, "private-use (10.0.0.0/8)"),
    (
        v4(100, 64, 0, 0),
        10,
        "shared address space (100.64.0.0/10)",
    ),
    (v4(127, 0, 0, 0), 8, "loopback (127.0.0.0/8)"),
    (v4(169, 254, 0, 0), 16, "link-local (169.254.0.0/16)"),
    (v4(172, 16, 0, 0), 12, "private-use (172.16.0.0/12)"),
    (
        v4(192, 0, 0, 0),
        24,
        "IETF protocol assignments (192.0.0.0/24)",
    ),
    (v4(192, 0, 2, 0), 24, "documentation (192.0.2.0/24)"),
    (
        v4(192, 88, 99, 0),
        24,
        "6to4 relay anycast (192.88.99.0/24)",
    ),
    (v4(192, 168, 0, 0), 16, "private-use (192.168.0.0/16)"),
    (v4(198, 18, 0, 0), 15, "benchmarking (198.18.0.0/15)"),
    (v4(198, 51, 100, 0), 24, "documentation (198.51.100.0/24)"),
    (v4(203, 0, 113, 0), 24, "documentation (203.0.113.0/24)"),
    (v4(224, 0, 0, 0), 4, "multicast (224.0.0.0/4)"),
    (v4(240, 0, 0, 0), 4, "reserved (240.0.0.0/4)"),
    (
        v4(255, 255, 255, 255),
        32,
        "limited broadcast (255.255.255.255/32)",
    ),
];

/// IPv6 blocks refused outright, from the IANA IPv6 Special-Purpose Address Registry. Blocks
/// that embed an IPv4 address (IPv4-mapped, NAT64 64:ff9b::/96, 6to4) are not here: their
/// embedded address decides (see [`non_public_reason`]). Everything outside 2000::/3, the only
/// space IANA allocates for global unicast, is refused as well.
pub const V6_SPECIAL: &[V6Block] = &[
    (
        v6([0, 0, 0, 0, 0, 0, 0, 0]),
        96,
        "IPv4-compatible, unspecified or loopback (::/96)",
    ),
    (
        v6([0x64, 0xff9b, 1, 0, 0, 0, 0, 0]),
        48,
        "local-use NAT64 (64:ff9b:1::/48)",
    ),
    (
        v6([0x100, 0, 0, 0, 0, 0, 0, 0]),
        64,
        "discard-only (100::/64)",
    ),
    (
        v6([0x2001, 0, 0, 0, 0, 0, 0, 0]),
        23,
        "IETF protocol assignments incl. Teredo (2001::/23)",
    ),
    (
        v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]),
        32,
        "documentation (2001:db8::/32)",
    ),
    (
        v6([0x3fff, 0, 0, 0, 0, 0, 0, 0]),
        20,
        "documentation (3fff::/20)",
    ),
    (
        v6([0x5f00, 0, 0, 0, 0, 0, 0, 0]),
        16,
        "segment routing SIDs (5f00::/16)",
    ),
    (
        v6([0xfc00, 0, 0, 0, 0, 0, 0, 0]),
        7,
        "unique local (fc00::/7)",
    ),
    (
        v6([0xfe80, 0, 0, 0, 0, 0, 0, 0]),
        10,
        "link-local (fe80::/10)",
    ),
    (
        v6([0xfec0, 0, 0, 0, 0, 0, 0, 0]),
        10,
        "site-local (fec0::/10)",
    ),
    (v6([0xff00, 0, 0, 0, 0, 0, 0, 0]), 8, "multicast (ff00::/8)"),
];

/// IPv4-mapped addresses (`::ffff:a.b.c.d`): the embedded IPv4 address decides.
const V6_MAPPED: (u128, u8) = (v6([0, 0, 0, 0, 0, 0xffff, 0, 0]), 96);
/// The well-known NAT64 prefix (RFC 6052): the embedded IPv4 address decides.
const V6_NAT64: (u128, u8) = (v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0]), 96);
/// 6to4 (RFC 3056): the IPv4 address in bits 16..48 decides.
const V6_6TO4: (u128, u8) = (v6([0x2002, 0, 0, 0, 0, 0, 0, 0]), 16);
/// Global unicast space (2000::/3).
const V6_GLOBAL_UNICAST: (u128, u8) = (v6([0x2000, 0, 0, 0, 0, 0, 0, 0]), 3);

fn in_v4(ip: u32, (net, len): (u32, u8)) -> bool {
    let mask = if len == 0 { 0 } else { u32::MAX << (32 - len) };
    ip & mask == net
}

fn in_v6(ip: u128, (net, len): (u128, u8)) -> bool {
    let mask = if len == 0 {
        0
    } else {
        u128::MAX << (128 - len)
    };
    ip & mask == net
}

/// Why an address may not be called (the special-purpose block it is in), or `None` for a
/// public address.
pub fn non_public_reason(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(a) => {
            let n = u32::from(a);
            V4_SPECIAL
                .iter()
                .find(|b| in_v4(n, (b.0, b.1)))
                .map(|b| b.2)
        }
        IpAddr::V6(a) => {
            let n = u128::from(a);
            // Forms that carry an IPv4 address reach that address: classify it.
            if in_v6(n, V6_MAPPED) || in_v6(n, V6_NAT64) {
                return non_public_reason(IpAddr::V4(Ipv4Addr::from(n as u32)));
            }
            if in_v6(n, V6_6TO4) {
                return non_public_reason(IpAddr::V4(Ipv4Addr::from((n >> 80) as u32)));
            }
            if let Some(b) = V6_SPECIAL.iter().find(|b| in_v6(n, (b.0, b.1))) {
                return Some(b.2);
            }
            (!in_v6(n, V6_GLOBAL_UNICAST)).then_some("outside global unicast (2000::/3)")
        }
    }
}

/// The refusal of an IP-literal host that is not public (a literal never passes the resolver).
fn literal_refusal(url: &url::Url) -> Option<String> {
    let ip = match url.host()? {
        url::Host::Ipv4(a) => IpAddr::V4(a),
        url::Host::Ipv6(a) => IpAddr::V6(a),
        url::Host::Domain(_) => return None,
    };
    non_public_reason(ip).map(|why| format!("{ip} is not a public address: {why}"))
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
    let Some(host) = url.host() else {
        return Err("the URL has no host".into());
    };
    if policy.allow_private {
        return Ok(url);
    }
    let name = match host {
        url::Host::Domain(name) => name,
        url::Host::Ipv4(_) | url::Host::Ipv6(_) => {
            return literal_refusal(&url).map_or(Ok(url), Err);
        }
    };
    let port = url.port_or_known_default().unwrap_or(443);
    let addrs: Vec<SocketAddr> = tokio::time::timeout(
        Duration::from_secs(5),
        tokio::net::lookup_host((name, port)),
    )
    .await
    .map_err(|_| format!("resolving {name} timed out"))?
    .map_err(|e| format!("cannot resolve {name}: {e}"))?
    .collect();
    all_public(name, addrs)?;
    Ok(url)
}

/// The addresses a name resolved to, when every one of them is public; the same rule when the
/// URL is given and when connecting.
fn all_public(name: &str, addrs: Vec<SocketAddr>) -> Result<Vec<SocketAddr>, String> {
    if addrs.is_empty() {
        return Err(format!("{name} resolves to no address"));
    }
    if let Some((a, why)) = addrs
        .iter()
        .find_map(|a| non_public_reason(a.ip()).map(|why| (a.ip(), why)))
    {
        return Err(format!(
            "{name} resolves to the non-public address {a}: {why}"
        ));
    }
    Ok(addrs)
}

/// The resolver of the HTTP client: every address is checked when connecting, so a name that
/// resolved to a public address when the URL was given and to a private one now (DNS
/// rebinding) is refused.
#[derive(Debug, Clone, Copy)]
struct PublicOnly;

impl reqwest::dns::Resolve for PublicOnly {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let addrs = all_public(&host, addrs)?;
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
        // A proxy would resolve the name itself, past the resolver's check.
        .no_proxy()
        .user_agent(concat!("folio-webhooks/", env!("CARGO_PKG_VERSION")));
    if !policy.allow_private {
        b = b.dns_resolver(Arc::new(PublicOnly));
    }
    b.build().expect("HTTP client settings are valid")
}

/// One request of a webhook: a delivery's attempt, or the cabinet's test event.
#[derive(Debug, Clone, Copy)]
pub struct Outgoing<'a> {
    /// Target.
    pub url: &'a str,
    /// Event kind.
    pub event: &'a str,
    /// Event id (the receiver's deduplication key).
    pub event_id: &'a str,
    /// Delivery id.
    pub delivery_id: &'a str,
    /// The operation of an operation or document event.
    pub operation_id: Option<&'a str>,
    /// The document of a document event.
    pub document_id: Option<&'a str>,
    /// Signing secret, when signed.
    pub secret: Option<&'a str>,
    /// Body.
    pub payload: &'a str,
}

impl DueDelivery {
    /// The request of this delivery.
    fn outgoing(&self) -> Outgoing<'_> {
        Outgoing {
            url: &self.url,
            event: &self.event,
            event_id: &self.event_id,
            delivery_id: &self.id,
            operation_id: Some(&self.operation_id),
            document_id: self.document_id.as_deref(),
            secret: self.secret.as_deref(),
            payload: &self.payload,
        }
    }
}

/// Sends one request with the contract's headers (signed when there is a secret); returns
/// (HTTP status, error text).
pub async fn send(state: &App, d: &Outgoing<'_>) -> (Option<u16>, Option<String>) {
    // IP-literal hosts bypass the resolver: check them here, by the same table.
    if !state.url_policy.allow_private
        && let Some(refusal) = url::Url::parse(d.url)
            .ok()
            .and_then(|u| literal_refusal(&u))
    {
        return (None, Some(format!("refused: {refusal}")));
    }
    let ts = chrono::Utc::now().timestamp().to_string();
    let p = &state.header_prefix;
    let mut req = state
        .http
        .post(d.url)
        .header("content-type", "application/json")
        .header(format!("{p}Event"), d.event)
        .header(format!("{p}Delivery-Id"), d.delivery_id)
        .header(format!("{p}Event-Id"), d.event_id)
        .header(format!("{p}Timestamp"), &ts);
    if let Some(op) = d.operation_id {
        req = req.header(format!("{p}Operation-Id"), op);
    }
    if let Some(doc) = d.document_id {
        req = req.header(format!("{p}Document-Id"), doc);
    }
    if let Some(secret) = d.secret {
        req = req.header(
            format!("{p}Signature"),
            folio::webhook::sign(secret.as_bytes(), &ts, d.payload.as_bytes()),
        );
    }
    match req.body(d.payload.to_string()).send().await {
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
    let (status, error) = send(&state, &d.outgoing()).await;
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
            let node = state.node_id.clone();
            match state
                .db
                .call_tx(move |tx| store::claim_due_deliveries(tx, &node, free))
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

    fn is_public(ip: IpAddr) -> bool {
        non_public_reason(ip).is_none()
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn every_special_purpose_block_is_refused_at_both_ends() {
        for (net, len, name) in V4_SPECIAL {
            let last = net | (u32::MAX.checked_shr(u32::from(*len)).unwrap_or(0));
            // First, middle and last address of the block.
            for a in [*net, net + (last - net) / 2, last] {
                let a = IpAddr::V4(Ipv4Addr::from(a));
                assert!(!is_public(a), "{a} ({name})");
            }
        }
        for (net, len, name) in V6_SPECIAL {
            let last = net | (u128::MAX.checked_shr(u32::from(*len)).unwrap_or(0));
            // First, middle and last address of the block.
            for a in [*net, net + (last - net) / 2, last] {
                let a = IpAddr::V6(std::net::Ipv6Addr::from(a));
                assert!(!is_public(a), "{a} ({name})");
            }
        }
    }

    #[test]
    fn public_addresses_just_outside_the_blocks_pass() {
        for a in [
            "1.0.0.0",
            "8.8.8.8",
            "9.255.255.255",
            "11.0.0.0",
            "100.63.255.255",
            "100.128.0.0",
            "126.255.255.255",
            "128.0.0.0",
            "169.253.255.255",
            "169.255.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "192.0.1.0",
            "192.0.3.0",
            "192.88.98.255",
            "192.88.100.0",
            "192.167.255.255",
            "192.169.0.0",
            "198.17.255.255",
            "198.20.0.0",
            "198.51.99.255",
            "198.51.101.0",
            "203.0.112.255",
            "203.0.114.0",
            "223.255.255.255",
            "2606:4700:4700::1111",
            "2a00:1450:4001::1",
            "2001:200::1",
            "2001:db7:ffff::1",
            "2001:db9::1",
            "3ffe:ffff::1",
            "3fff:1000::1",
            "2002:808:808::1",
            "64:ff9b::808:808",
            "::ffff:8.8.8.8",
        ] {
            assert!(is_public(ip(a)), "{a}: {:?}", non_public_reason(ip(a)));
        }
    }

    #[test]
    fn refused_addresses_including_embedded_ipv4() {
        for a in [
            "0.0.0.0",
            "0.1.2.3",
            "10.1.2.3",
            "100.64.0.1",
            "100.127.255.255",
            "127.0.0.1",
            "127.255.255.254",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.9",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            // IPv4-compatible (deprecated): `[::127.0.0.1]`, and any other.
            "::127.0.0.1",
            "::8.8.8.8",
            // IPv4-mapped: the embedded address decides.
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            // NAT64 well-known prefix: the embedded address decides; local-use NAT64 refused.
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::808:808",
            // 6to4: the address in bits 16..48 decides.
            "2002:7f00:1::",
            "2002:a00:1::1",
            "2002:c612:1::",
            "100::1",
            // 2001::/23 with Teredo (its IPv4 is obfuscated: refused whatever it is).
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2001:2::1",
            "2001:1ff:ffff::1",
            "2001:db8::1",
            "3fff::1",
            "5f00::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "ff02::1",
            // Outside 2000::/3 (reserved by the IETF).
            "1::1",
            "4000::1",
            "8000::1",
            "::ffff:0:7f00:1",
        ] {
            assert!(!is_public(ip(a)), "{a}");
        }
    }

    #[test]
    fn ip_literal_urls_are_refused_by_the_table() {
        for u in [
            "https://[::127.0.0.1]/",
            "https://[64:ff9b::7f00:1]/",
            "https://[2002:7f00:1::]/",
            "https://198.18.0.1/",
            "https://[::ffff:10.0.0.1]/",
            "https://[::ffff:7f00:1]/h",
            "https://2130706433/",
            "https://0x7f.1/",
            "https://127.1/",
            "https://[fd00::1]:8443/h",
        ] {
            let url = url::Url::parse(u).unwrap();
            assert!(literal_refusal(&url).is_some(), "{u}");
        }
        for u in [
            "https://8.8.8.8/h",
            "https://[2606:4700::1]/",
            "https://example.com/",
        ] {
            let url = url::Url::parse(u).unwrap();
            assert_eq!(literal_refusal(&url), None, "{u}");
        }
    }

    #[test]
    fn a_name_with_any_private_address_is_refused() {
        let public: SocketAddr = "8.8.8.8:443".parse().unwrap();
        let private: SocketAddr = "[64:ff9b::a00:1]:443".parse().unwrap();
        assert_eq!(all_public("h", vec![public]).unwrap(), vec![public]);
        assert!(all_public("h", vec![public, private]).is_err());
        assert!(all_public("h", vec![]).is_err());
    }

    #[tokio::test]
    async fn url_policy() {
        let strict = UrlPolicy::default();
        assert!(check_url("http://example.com/h", strict).await.is_err());
        assert!(check_url("ftp://example.com/h", strict).await.is_err());
        assert!(check_url("https://127.0.0.1/h", strict).await.is_err());
        assert!(check_url("https://localhost/h", strict).await.is_err());
        for u in [
            "https://[::127.0.0.1]/",
            "https://[64:ff9b::7f00:1]/",
            "https://[2002:7f00:1::]/",
            "https://198.18.0.1/",
        ] {
            assert!(check_url(u, strict).await.is_err(), "{u}");
        }
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
