//! [`Conn`] over SQLite (rusqlite): the embedded database of one machine.

use super::db::{DbError, DbResult};
use super::sql::{Conn, Dialect, Params, Row, SqlValue};
use rusqlite::types::{Value, ValueRef};

fn to_rusqlite(v: SqlValue) -> Value {
    match v {
        SqlValue::Null => Value::Null,
        SqlValue::Int(i) => Value::Integer(i),
        SqlValue::Real(f) => Value::Real(f),
        SqlValue::Text(s) => Value::Text(s),
        SqlValue::Blob(b) => Value::Blob(b),
    }
}

fn from_rusqlite(v: ValueRef<'_>) -> SqlValue {
    match v {
        ValueRef::Null => SqlValue::Null,
        ValueRef::Integer(i) => SqlValue::Int(i),
        ValueRef::Real(f) => SqlValue::Real(f),
        ValueRef::Text(t) => SqlValue::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => SqlValue::Blob(b.to_vec()),
    }
}

fn bind(params: Params<'_>) -> Vec<Value> {
    params
        .iter()
        .map(|p| to_rusqlite(p.to_sql_value()))
        .collect()
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::QueryReturnedNoRows => DbError::NoRows,
            e => DbError::Sqlite(e),
        }
    }
}

impl Conn for rusqlite::Connection {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(&self, sql: &str, params: Params<'_>) -> DbResult<usize> {
        let mut st = self.prepare_cached(sql)?;
        Ok(st.execute(rusqlite::params_from_iter(bind(params)))?)
    }

    fn query(&self, sql: &str, params: Params<'_>) -> DbResult<Vec<Row>> {
        let mut st = self.prepare_cached(sql)?;
        let n = st.column_count();
        let mut rows = st.query(rusqlite::params_from_iter(bind(params)))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let mut values = Vec::with_capacity(n);
            for i in 0..n {
                values.push(from_rusqlite(r.get_ref(i)?));
            }
            out.push(Row::new(values));
        }
        Ok(out)
    }

    fn execute_batch(&self, sql: &str) -> DbResult<()> {
        Ok(rusqlite::Connection::execute_batch(self, sql)?)
    }
}

#[cfg(test)]
mod tests {
    use super::super::sql::{OptionalExtension, params};
    use super::*;

    #[test]
    fn a_sqlite_connection_reads_and_writes_through_the_interface() {
        let c = rusqlite::Connection::open_in_memory().unwrap();
        let c: &dyn Conn = &c;
        c.execute_batch("CREATE TABLE t (a INTEGER, b TEXT, c REAL, d BLOB)")
            .unwrap();
        let n = c
            .execute(
                "INSERT INTO t VALUES (?1, ?2, ?3, ?4)",
                params![7i64, "x", 1.5f64, b"zz".as_slice()],
            )
            .unwrap();
        assert_eq!(n, 1);
        c.execute("INSERT INTO t (a) VALUES (?1)", params![None::<i64>])
            .unwrap();
        let rows = c
            .query_map("SELECT a, b, c, d FROM t ORDER BY a", params![], |r| {
                Ok((r.get::<Option<i64>>(0)?, r.get::<Option<String>>(1)?))
            })
            .unwrap();
        assert_eq!(rows, vec![(None, None), (Some(7), Some("x".into()))]);
        let none = c
            .query_row("SELECT a FROM t WHERE a = 99", params![], |r| {
                r.get::<i64>(0)
            })
            .optional()
            .unwrap();
        assert_eq!(none, None);
        assert!(matches!(
            c.query_row("SELECT a FROM t WHERE a = 99", params![], |r| r
                .get::<i64>(0)),
            Err(DbError::NoRows)
        ));
    }
}
