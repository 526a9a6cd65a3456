//! Prometheus metrics in the text exposition format.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;

/// Upper bounds of the processing-time histogram, seconds.
const BUCKETS: [f64; 10] = [0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 120.0];

/// Counters and a histogram, updated by handlers and workers.
#[derive(Debug, Default)]
pub struct Metrics {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    requests: BTreeMap<(String, String, u16), u64>,
    documents: BTreeMap<String, u64>,
    deliveries: BTreeMap<String, u64>,
    processing: [u64; BUCKETS.len() + 1],
    processing_sum: f64,
    processing_count: u64,
}

impl Metrics {
    fn with(&self, f: impl FnOnce(&mut Inner)) {
        match self.inner.lock() {
            Ok(mut g) => f(&mut g),
            Err(p) => f(&mut p.into_inner()),
        }
    }

    /// One HTTP request answered.
    pub fn request(&self, method: &str, route: &str, status: u16) {
        self.with(|m| {
            *m.requests
                .entry((method.into(), route.into(), status))
                .or_default() += 1
        });
    }

    /// A document reached a final status after `seconds` of processing.
    pub fn document(&self, status: &str, seconds: f64) {
        self.with(|m| {
            *m.documents.entry(status.into()).or_default() += 1;
            let i = BUCKETS
                .iter()
                .position(|b| seconds <= *b)
                .unwrap_or(BUCKETS.len());
            m.processing[i] += 1;
            m.processing_sum += seconds;
            m.processing_count += 1;
        });
    }

    /// A webhook attempt ended in `status` (DELIVERED, RETRY, FAILED).
    pub fn delivery(&self, status: &str) {
        self.with(|m| *m.deliveries.entry(status.into()).or_default() += 1);
    }

    /// The exposition text, with the queue depth sampled by the caller.
    pub fn render(&self, queue_depth: i64) -> String {
        let mut out = String::new();
        self.with(|m| {
            let _ = writeln!(out, "# HELP folio_http_requests_total HTTP requests answered.");
            let _ = writeln!(out, "# TYPE folio_http_requests_total counter");
            for ((method, route, status), n) in &m.requests {
                let _ = writeln!(
                    out,
                    "folio_http_requests_total{{method=\"{method}\",route=\"{route}\",status=\"{status}\"}} {n}"
                );
            }
            let _ = writeln!(out, "# HELP folio_documents_total Documents by final status.");
            let _ = writeln!(out, "# TYPE folio_documents_total counter");
            for (status, n) in &m.documents {
                let _ = writeln!(out, "folio_documents_total{{status=\"{status}\"}} {n}");
            }
            let _ = writeln!(
                out,
                "# HELP folio_webhook_attempts_total Webhook delivery attempts by outcome."
            );
            let _ = writeln!(out, "# TYPE folio_webhook_attempts_total counter");
            for (status, n) in &m.deliveries {
                let _ = writeln!(out, "folio_webhook_attempts_total{{status=\"{status}\"}} {n}");
            }
            let _ = writeln!(
                out,
                "# HELP folio_document_processing_seconds Recognition time of one document."
            );
            let _ = writeln!(out, "# TYPE folio_document_processing_seconds histogram");
            let mut cumulative = 0;
            for (i, b) in BUCKETS.iter().enumerate() {
                cumulative += m.processing[i];
                let _ = writeln!(
                    out,
                    "folio_document_processing_seconds_bucket{{le=\"{b}\"}} {cumulative}"
                );
            }
            cumulative += m.processing[BUCKETS.len()];
            let _ = writeln!(
                out,
                "folio_document_processing_seconds_bucket{{le=\"+Inf\"}} {cumulative}"
            );
            let _ = writeln!(
                out,
                "folio_document_processing_seconds_sum {}",
                m.processing_sum
            );
            let _ = writeln!(
                out,
                "folio_document_processing_seconds_count {}",
                m.processing_count
            );
        });
        let _ = writeln!(
            out,
            "# HELP folio_queue_documents Documents waiting in the queue."
        );
        let _ = writeln!(out, "# TYPE folio_queue_documents gauge");
        let _ = writeln!(out, "folio_queue_documents {queue_depth}");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_and_histogram() {
        let m = Metrics::default();
        m.request("GET", "/healthz", 200);
        m.request("GET", "/healthz", 200);
        m.document("PROCESSED", 0.7);
        m.delivery("DELIVERED");
        let t = m.render(3);
        assert!(t.contains(
            r#"folio_http_requests_total{method="GET",route="/healthz",status="200"} 2"#
        ));
        assert!(t.contains(r#"folio_documents_total{status="PROCESSED"} 1"#));
        assert!(t.contains(r#"folio_document_processing_seconds_bucket{le="0.5"} 0"#));
        assert!(t.contains(r#"folio_document_processing_seconds_bucket{le="1"} 1"#));
        assert!(t.contains("folio_queue_documents 3"));
    }
}
