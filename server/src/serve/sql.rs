//! One SQL interface over the two databases the server keeps its records in: the embedded SQLite
//! file (one machine, nothing to start) and a shared PostgreSQL (many nodes). The storage code
//! ([`super::store`]) is written once against [`Conn`]; the statements it runs are the common
//! subset of both dialects, with parameters written `?1`, `?2`, ... (PostgreSQL receives them as
//! `$1`, `$2`, ...). Where the dialects differ a statement asks [`Conn::dialect`].
//!
//! Values cross the interface as [`SqlValue`] (the five SQLite storage classes); PostgreSQL
//! columns and parameters are converted to and from the column types the schema uses.

use super::db::{DbError, DbResult};

/// One value of a parameter or a result column.
#[derive(Debug, Clone, PartialEq)]
pub enum SqlValue {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// A Rust value that can be a statement parameter.
pub trait ToSqlValue {
    fn to_sql_value(&self) -> SqlValue;
}

impl<T: ToSqlValue + ?Sized> ToSqlValue for &T {
    fn to_sql_value(&self) -> SqlValue {
        (**self).to_sql_value()
    }
}

impl<T: ToSqlValue> ToSqlValue for Option<T> {
    fn to_sql_value(&self) -> SqlValue {
        match self {
            Some(v) => v.to_sql_value(),
            None => SqlValue::Null,
        }
    }
}

impl ToSqlValue for str {
    fn to_sql_value(&self) -> SqlValue {
        SqlValue::Text(self.to_owned())
    }
}

impl ToSqlValue for String {
    fn to_sql_value(&self) -> SqlValue {
        SqlValue::Text(self.clone())
    }
}

impl ToSqlValue for bool {
    fn to_sql_value(&self) -> SqlValue {
        SqlValue::Int(i64::from(*self))
    }
}

impl ToSqlValue for f64 {
    fn to_sql_value(&self) -> SqlValue {
        SqlValue::Real(*self)
    }
}

impl ToSqlValue for [u8] {
    fn to_sql_value(&self) -> SqlValue {
        SqlValue::Blob(self.to_vec())
    }
}

impl ToSqlValue for SqlValue {
    fn to_sql_value(&self) -> SqlValue {
        self.clone()
    }
}

macro_rules! int_to_sql {
    ($($t:ty),*) => {$(
        impl ToSqlValue for $t {
            fn to_sql_value(&self) -> SqlValue {
                // Every integer the server stores fits i64 (counts, milliseconds, sizes).
                SqlValue::Int(i64::try_from(*self).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_to_sql!(i64, i32, i16, u16, u32, u64, usize);

/// A Rust value a result column can be read as.
pub trait FromSqlValue: Sized {
    fn from_sql_value(v: &SqlValue) -> Result<Self, String>;
}

impl<T: FromSqlValue> FromSqlValue for Option<T> {
    fn from_sql_value(v: &SqlValue) -> Result<Self, String> {
        match v {
            SqlValue::Null => Ok(None),
            v => T::from_sql_value(v).map(Some),
        }
    }
}

impl FromSqlValue for String {
    fn from_sql_value(v: &SqlValue) -> Result<Self, String> {
        match v {
            SqlValue::Text(s) => Ok(s.clone()),
            v => Err(format!("expected text, found {v:?}")),
        }
    }
}

impl FromSqlValue for f64 {
    fn from_sql_value(v: &SqlValue) -> Result<Self, String> {
        match v {
            SqlValue::Real(f) => Ok(*f),
            SqlValue::Int(i) => Ok(*i as f64),
            v => Err(format!("expected a number, found {v:?}")),
        }
    }
}

impl FromSqlValue for bool {
    fn from_sql_value(v: &SqlValue) -> Result<Self, String> {
        match v {
            SqlValue::Int(i) => Ok(*i != 0),
            v => Err(format!("expected a boolean, found {v:?}")),
        }
    }
}

impl FromSqlValue for Vec<u8> {
    fn from_sql_value(v: &SqlValue) -> Result<Self, String> {
        match v {
            SqlValue::Blob(b) => Ok(b.clone()),
            SqlValue::Text(s) => Ok(s.as_bytes().to_vec()),
            v => Err(format!("expected bytes, found {v:?}")),
        }
    }
}

macro_rules! int_from_sql {
    ($($t:ty),*) => {$(
        impl FromSqlValue for $t {
            fn from_sql_value(v: &SqlValue) -> Result<Self, String> {
                match v {
                    SqlValue::Int(i) => <$t>::try_from(*i)
                        .map_err(|_| format!("{i} out of range for {}", stringify!($t))),
                    v => Err(format!("expected an integer, found {v:?}")),
                }
            }
        }
    )*};
}
int_from_sql!(i64, i32, i16, u16, u32, u64, usize);

impl FromSqlValue for SqlValue {
    fn from_sql_value(v: &SqlValue) -> Result<Self, String> {
        Ok(v.clone())
    }
}

/// One result row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    values: Vec<SqlValue>,
}

impl Row {
    pub fn new(values: Vec<SqlValue>) -> Row {
        Row { values }
    }

    /// Column `i` (0-based) as `T`.
    pub fn get<T: FromSqlValue>(&self, i: usize) -> DbResult<T> {
        let v = self.values.get(i).ok_or_else(|| {
            DbError::Other(format!("no column {i} in a row of {}", self.values.len()))
        })?;
        T::from_sql_value(v).map_err(|e| DbError::Other(format!("column {i}: {e}")))
    }
}

/// Which database a connection talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// Statement parameters.
pub type Params<'a> = &'a [&'a dyn ToSqlValue];

/// A connection (or a transaction on one) of either database.
pub trait Conn {
    fn dialect(&self) -> Dialect;
    /// Runs one statement; the number of rows it changed.
    fn execute(&self, sql: &str, params: Params<'_>) -> DbResult<usize>;
    /// Runs one query; all its rows.
    fn query(&self, sql: &str, params: Params<'_>) -> DbResult<Vec<Row>>;
    /// Runs several statements without parameters (schema scripts).
    fn execute_batch(&self, sql: &str) -> DbResult<()>;
}

impl dyn Conn + '_ {
    /// The first row of a query through `f`; [`DbError::NoRows`] when there is none.
    pub fn query_row<T>(
        &self,
        sql: &str,
        params: Params<'_>,
        f: impl FnOnce(&Row) -> DbResult<T>,
    ) -> DbResult<T> {
        match self.query(sql, params)?.first() {
            Some(r) => f(r),
            None => Err(DbError::NoRows),
        }
    }

    /// Every row of a query through `f`.
    pub fn query_map<T>(
        &self,
        sql: &str,
        params: Params<'_>,
        f: impl FnMut(&Row) -> DbResult<T>,
    ) -> DbResult<Vec<T>> {
        self.query(sql, params)?.iter().map(f).collect()
    }
}

/// `query_row(...).optional()`: no row is `None`.
pub trait OptionalExtension<T> {
    fn optional(self) -> DbResult<Option<T>>;
}

impl<T> OptionalExtension<T> for DbResult<T> {
    fn optional(self) -> DbResult<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(DbError::NoRows) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// Statement parameters from expressions: `params![a, b]`.
macro_rules! params {
    () => { &[] as &[&dyn $crate::serve::sql::ToSqlValue] };
    ($($x:expr),+ $(,)?) => {
        &[$(&$x as &dyn $crate::serve::sql::ToSqlValue),+] as &[&dyn $crate::serve::sql::ToSqlValue]
    };
}
pub(crate) use params;

/// A statement written for both dialects (`?N` parameters) as PostgreSQL reads it (`$N`).
/// Quoted text and identifiers are left alone; a bare `?` takes the next number.
pub fn postgres_sql(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut chars = sql.chars().peekable();
    let mut quote: Option<char> = None;
    let mut next = 1u32;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            out.push(c);
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                out.push(c);
            }
            '?' => {
                out.push('$');
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                if digits.is_empty() {
                    out.push_str(&next.to_string());
                    next += 1;
                } else {
                    out.push_str(&digits);
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_renumbered_outside_quotes_only() {
        assert_eq!(
            postgres_sql("SELECT a FROM t WHERE b = ?1 AND c = ?12 AND d = '?2' AND e = \"?\""),
            "SELECT a FROM t WHERE b = $1 AND c = $12 AND d = '?2' AND e = \"?\""
        );
        assert_eq!(
            postgres_sql("VALUES (?, ?, 'it''s ?', ?)"),
            "VALUES ($1, $2, 'it''s ?', $3)"
        );
    }

    #[test]
    fn values_convert_both_ways() {
        let r = Row::new(vec![
            SqlValue::Int(3),
            SqlValue::Null,
            SqlValue::Text("x".into()),
            SqlValue::Int(-1),
        ]);
        assert_eq!(r.get::<i64>(0).unwrap(), 3);
        assert!(r.get::<bool>(0).unwrap());
        assert_eq!(r.get::<Option<String>>(1).unwrap(), None);
        assert_eq!(r.get::<String>(2).unwrap(), "x");
        assert!(r.get::<String>(0).is_err());
        assert!(
            r.get::<u32>(3).is_err(),
            "a negative count is refused, not wrapped"
        );
        assert!(r.get::<i64>(4).is_err());
        let p: Params<'_> = params![1i64, "a", Some(2u32), None::<String>, true];
        let v: Vec<SqlValue> = p.iter().map(|p| p.to_sql_value()).collect();
        assert_eq!(
            v,
            vec![
                SqlValue::Int(1),
                SqlValue::Text("a".into()),
                SqlValue::Int(2),
                SqlValue::Null,
                SqlValue::Int(1)
            ]
        );
    }
}
