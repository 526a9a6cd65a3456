//! [`Conn`] over PostgreSQL (the `postgres` crate, the blocking face of `tokio-postgres`): the
//! shared database of a deployment with several nodes. Statements are prepared once per
//! connection and cached; parameters and columns are converted between [`SqlValue`] and the
//! column types of the schema (BIGINT, TEXT, and what expressions yield: BOOLEAN, NUMERIC).

use super::db::{DbError, DbResult};
use super::sql::{Conn, Dialect, Params, Row, SqlValue, postgres_sql};
use bytes::BytesMut;
use postgres::GenericClient;
use postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};
use std::cell::RefCell;
use std::collections::HashMap;
use std::error::Error;

type BoxError = Box<dyn Error + Sync + Send>;

impl ToSql for SqlValue {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        let text = |s: &str, out: &mut BytesMut| s.to_sql(&Type::TEXT, out);
        match self {
            SqlValue::Null => Ok(IsNull::Yes),
            SqlValue::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::FLOAT4 => (*i as f32).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
                    text(&i.to_string(), out)
                }
                _ => Err(format!("an integer parameter where {ty} is wanted").into()),
            },
            SqlValue::Real(f) => match *ty {
                Type::FLOAT8 => f.to_sql(ty, out),
                Type::FLOAT4 => (*f as f32).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::UNKNOWN => text(&f.to_string(), out),
                _ => Err(format!("a real parameter where {ty} is wanted").into()),
            },
            SqlValue::Text(s) => match *ty {
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
                    text(s, out)
                }
                Type::INT8 => s.parse::<i64>()?.to_sql(ty, out),
                _ => Err(format!("a text parameter where {ty} is wanted").into()),
            },
            SqlValue::Blob(b) => match *ty {
                Type::BYTEA => b.as_slice().to_sql(ty, out),
                _ => Err(format!("a binary parameter where {ty} is wanted").into()),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// A result column of any type the server's statements yield.
struct Cell(SqlValue);

impl<'a> FromSql<'a> for Cell {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(Cell(match *ty {
            Type::INT8 => SqlValue::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => SqlValue::Int(i32::from_sql(ty, raw)?.into()),
            Type::INT2 => SqlValue::Int(i16::from_sql(ty, raw)?.into()),
            Type::OID => SqlValue::Int(u32::from_sql(ty, raw)?.into()),
            Type::BOOL => SqlValue::Int(bool::from_sql(ty, raw)?.into()),
            Type::FLOAT8 => SqlValue::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => SqlValue::Real(f32::from_sql(ty, raw)?.into()),
            Type::NUMERIC => numeric(raw)?,
            Type::BYTEA => SqlValue::Blob(raw.to_vec()),
            Type::VOID => SqlValue::Null,
            _ if <&str as FromSql>::accepts(ty) => SqlValue::Text(String::from_sql(ty, raw)?),
            _ => return Err(format!("a column of type {ty} the server does not read").into()),
        }))
    }

    fn from_sql_null(_: &Type) -> Result<Self, BoxError> {
        Ok(Cell(SqlValue::Null))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// A NUMERIC in PostgreSQL's binary form (what `SUM` of BIGINT yields): an integer when it has
/// no fraction and fits, else a real.
fn numeric(raw: &[u8]) -> Result<SqlValue, BoxError> {
    let word = |i: usize| -> Result<u16, BoxError> {
        raw.get(i..i + 2)
            .map(|b| u16::from_be_bytes([b[0], b[1]]))
            .ok_or_else(|| "a short NUMERIC".into())
    };
    let ndigits = word(0)? as usize;
    let weight = word(2)? as i16 as i32;
    let sign = word(4)?;
    let dscale = word(6)?;
    if sign == 0xC000 {
        return Ok(SqlValue::Real(f64::NAN));
    }
    let negative = sign == 0x4000;
    let digits: Vec<u16> = (0..ndigits)
        .map(|i| word(8 + 2 * i))
        .collect::<Result<_, _>>()?;
    let fraction = digits
        .iter()
        .enumerate()
        .any(|(i, d)| *d != 0 && weight - (i as i32) < 0);
    if dscale == 0 && !fraction && weight < 5 {
        let mut v: i128 = 0;
        for i in 0..=weight.max(-1) {
            v = v * 10_000 + i128::from(digits.get(i as usize).copied().unwrap_or(0));
        }
        let v = if negative { -v } else { v };
        if let Ok(v) = i64::try_from(v) {
            return Ok(SqlValue::Int(v));
        }
    }
    let mut f = 0f64;
    for (i, d) in digits.iter().enumerate() {
        f += f64::from(*d) * 10_000f64.powi(weight - i as i32);
    }
    Ok(SqlValue::Real(if negative { -f } else { f }))
}

impl From<postgres::Error> for DbError {
    fn from(e: postgres::Error) -> Self {
        DbError::Postgres(e)
    }
}

/// Whether a PostgreSQL error only says "run the transaction again": a serialization failure
/// or a deadlock, which concurrent transactions can meet.
pub fn is_retryable(e: &DbError) -> bool {
    use postgres::error::SqlState;
    match e {
        DbError::Postgres(e) => matches!(
            e.code(),
            Some(c) if *c == SqlState::T_R_SERIALIZATION_FAILURE || *c == SqlState::T_R_DEADLOCK_DETECTED
        ),
        _ => false,
    }
}

/// Prepared statements of one connection, by the statement's text.
pub type StatementCache = HashMap<String, postgres::Statement>;

/// What a [`PgConn`] runs its statements on.
pub enum Target<'a> {
    /// A connection in autocommit mode.
    Client(&'a mut postgres::Client),
    /// A transaction on a connection.
    Tx(postgres::Transaction<'a>),
}

impl Target<'_> {
    fn client(&mut self) -> &mut dyn GenericClientDyn {
        match self {
            Target::Client(c) => *c,
            Target::Tx(t) => t,
        }
    }
}

/// The methods of [`postgres::GenericClient`] the interface needs, object-safe.
trait GenericClientDyn {
    fn prepare(&mut self, sql: &str) -> Result<postgres::Statement, postgres::Error>;
    fn execute(
        &mut self,
        st: &postgres::Statement,
        p: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, postgres::Error>;
    fn query(
        &mut self,
        st: &postgres::Statement,
        p: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>, postgres::Error>;
    fn batch_execute(&mut self, sql: &str) -> Result<(), postgres::Error>;
}

impl<C: GenericClient> GenericClientDyn for C {
    fn prepare(&mut self, sql: &str) -> Result<postgres::Statement, postgres::Error> {
        GenericClient::prepare(self, sql)
    }
    fn execute(
        &mut self,
        st: &postgres::Statement,
        p: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, postgres::Error> {
        GenericClient::execute(self, st, p)
    }
    fn query(
        &mut self,
        st: &postgres::Statement,
        p: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>, postgres::Error> {
        GenericClient::query(self, st, p)
    }
    fn batch_execute(&mut self, sql: &str) -> Result<(), postgres::Error> {
        GenericClient::batch_execute(self, sql)
    }
}

/// A PostgreSQL connection (or a transaction on one) with its statement cache, as a [`Conn`].
pub struct PgConn<'a> {
    target: RefCell<Target<'a>>,
    cache: RefCell<&'a mut StatementCache>,
}

impl<'a> PgConn<'a> {
    pub fn new(target: Target<'a>, cache: &'a mut StatementCache) -> Self {
        PgConn {
            target: RefCell::new(target),
            cache: RefCell::new(cache),
        }
    }

    /// Commits the transaction this connection runs in (nothing to do in autocommit mode).
    pub fn commit(self) -> DbResult<()> {
        match self.target.into_inner() {
            Target::Tx(t) => Ok(t.commit()?),
            Target::Client(_) => Ok(()),
        }
    }

    fn statement(&self, sql: &str) -> DbResult<postgres::Statement> {
        if let Some(st) = self.cache.borrow().get(sql) {
            return Ok(st.clone());
        }
        let st = self
            .target
            .borrow_mut()
            .client()
            .prepare(&postgres_sql(sql))?;
        self.cache.borrow_mut().insert(sql.to_owned(), st.clone());
        Ok(st)
    }
}

fn values(params: Params<'_>) -> Vec<SqlValue> {
    params.iter().map(|p| p.to_sql_value()).collect()
}

impl Conn for PgConn<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn execute(&self, sql: &str, params: Params<'_>) -> DbResult<usize> {
        let st = self.statement(sql)?;
        let vals = values(params);
        let refs: Vec<&(dyn ToSql + Sync)> =
            vals.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        let n = self.target.borrow_mut().client().execute(&st, &refs)?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn query(&self, sql: &str, params: Params<'_>) -> DbResult<Vec<Row>> {
        let st = self.statement(sql)?;
        let vals = values(params);
        let refs: Vec<&(dyn ToSql + Sync)> =
            vals.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        let rows = self.target.borrow_mut().client().query(&st, &refs)?;
        rows.iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| Ok(r.try_get::<_, Cell>(i)?.0))
                    .collect::<DbResult<Vec<_>>>()
                    .map(Row::new)
            })
            .collect()
    }

    fn execute_batch(&self, sql: &str) -> DbResult<()> {
        Ok(self.target.borrow_mut().client().batch_execute(sql)?)
    }
}

/// The TLS connector of PostgreSQL connections (rustls): the system's root certificates, and
/// the certificates of `ca_file` (PEM) when given (a private CA, as libpq's `sslrootcert`).
/// The server's certificate is always verified against them, name included.
pub fn tls_connector(
    ca_file: Option<&std::path::Path>,
) -> Result<tokio_postgres_rustls::MakeRustlsConnect, String> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        let _ = roots.add(cert);
    }
    if let Some(path) = ca_file {
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
            .and_then(|it| it.collect::<Result<_, _>>())
            .map_err(|e| format!("cannot read the CA certificates {}: {e}", path.display()))?;
        if certs.is_empty() {
            return Err(format!("no certificate in {}", path.display()));
        }
        for cert in certs {
            roots
                .add(cert)
                .map_err(|e| format!("unusable CA certificate in {}: {e}", path.display()))?;
        }
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

/// A PostgreSQL URL without its `sslrootcert` parameter (libpq's name for the CA file, which
/// the URL parser of `postgres` does not know), and that file.
pub fn split_sslrootcert(url: &str) -> (String, Option<std::path::PathBuf>) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_string(), None);
    };
    let mut ca = None;
    let kept: Vec<&str> = query
        .split('&')
        .filter(|kv| match kv.strip_prefix("sslrootcert=") {
            Some(path) => {
                ca = Some(std::path::PathBuf::from(path));
                false
            }
            None => true,
        })
        .collect();
    if kept.is_empty() {
        (base.to_string(), ca)
    } else {
        (format!("{base}?{}", kept.join("&")), ca)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numeric_bytes(weight: i16, sign: u16, dscale: u16, digits: &[u16]) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend((digits.len() as u16).to_be_bytes());
        b.extend(weight.to_be_bytes());
        b.extend(sign.to_be_bytes());
        b.extend(dscale.to_be_bytes());
        for d in digits {
            b.extend(d.to_be_bytes());
        }
        b
    }

    #[test]
    fn the_ca_file_is_taken_out_of_the_url() {
        assert_eq!(
            split_sslrootcert("postgres://u@h/db?sslmode=require&sslrootcert=/etc/ca.pem"),
            (
                "postgres://u@h/db?sslmode=require".to_string(),
                Some("/etc/ca.pem".into())
            )
        );
        assert_eq!(
            split_sslrootcert("postgres://u@h/db?sslrootcert=/ca.pem"),
            ("postgres://u@h/db".to_string(), Some("/ca.pem".into()))
        );
        assert_eq!(
            split_sslrootcert("postgres://u@h/db"),
            ("postgres://u@h/db".to_string(), None)
        );
        assert!(tls_connector(Some(std::path::Path::new("/nonexistent/ca.pem"))).is_err());
        assert!(tls_connector(None).is_ok());
    }

    #[test]
    fn numerics_decode_to_integers_or_reals() {
        // 123456789 = 1|2345|6789 in base 10,000.
        assert_eq!(
            numeric(&numeric_bytes(2, 0, 0, &[1, 2345, 6789])).unwrap(),
            SqlValue::Int(123_456_789)
        );
        assert_eq!(
            numeric(&numeric_bytes(0, 0x4000, 0, &[42])).unwrap(),
            SqlValue::Int(-42)
        );
        // 20000 = 2 x 10,000 with the trailing zero digit dropped.
        assert_eq!(
            numeric(&numeric_bytes(1, 0, 0, &[2])).unwrap(),
            SqlValue::Int(20_000)
        );
        assert_eq!(
            numeric(&numeric_bytes(0, 0, 0, &[])).unwrap(),
            SqlValue::Int(0)
        );
        assert_eq!(
            numeric(&numeric_bytes(0, 0, 1, &[1, 5000])).unwrap(),
            SqlValue::Real(1.5)
        );
        assert!(numeric(&[0, 1]).is_err());
    }
}
