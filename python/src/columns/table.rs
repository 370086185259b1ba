//! A report value with its tables as columns: one buffer per field of a list of records.

use std::borrow::Cow;

/// A field name (serde's are static; a map's keys are not).
pub(super) type Key = Cow<'static, str>;

/// A report value, with tables and integer lists as buffers.
pub enum Out {
    Null,
    Bool(bool),
    Int(i64),
    /// An integer past 64 bits, by its digits.
    Big(String),
    Float(f64),
    Str(String),
    List(Vec<Out>),
    Map(Vec<(Key, Out)>),
    /// A list of integers that all fit 64 bits.
    Ints(Vec<i64>),
    Table(Box<Table>),
}

/// A list of records as columns.
pub struct Table {
    pub(super) rows: usize,
    pub(super) columns: Vec<Column>,
    /// The field names down to the value being written.
    pub(super) path: Vec<Key>,
    /// Which leaf of the current row is next (rows share their layout, so the column is
    /// usually found at this index without a search).
    pub(super) leaf: usize,
    /// A buffer lent to the lists of integers in cells.
    pub(super) spare: Vec<i64>,
    /// How many rows are expected.
    pub(super) hint: usize,
}

pub(super) struct Column {
    pub(super) path: Vec<Key>,
    pub(super) data: Data,
}

pub(super) enum Data {
    /// No value yet.
    New,
    Int(Vec<i64>),
    /// Lists of integers: row `i` is `values[offsets[i]..offsets[i + 1]]`.
    Ragged {
        values: Vec<i64>,
        offsets: Vec<i64>,
    },
    Values(Vec<Out>),
}

impl Data {
    pub(super) fn len(&self) -> usize {
        match self {
            Data::New => 0,
            Data::Int(v) => v.len(),
            Data::Ragged { offsets, .. } => offsets.len() - 1,
            Data::Values(v) => v.len(),
        }
    }

    /// The column as a list of values (when a cell does not fit its buffer).
    pub(super) fn values(&mut self) -> &mut Vec<Out> {
        let old = std::mem::replace(self, Data::New);
        *self = Data::Values(match old {
            Data::New => Vec::new(),
            Data::Int(v) => v.into_iter().map(Out::Int).collect(),
            Data::Ragged { values, offsets } => offsets
                .windows(2)
                .map(|w| {
                    Out::List(
                        values[w[0] as usize..w[1] as usize]
                            .iter()
                            .map(|&x| Out::Int(x))
                            .collect(),
                    )
                })
                .collect(),
            Data::Values(v) => v,
        });
        match self {
            Data::Values(v) => v,
            _ => unreachable!("just made a list of values"),
        }
    }
}

impl Table {
    pub(super) fn new(hint: usize) -> Table {
        Table {
            hint,
            rows: 0,
            columns: Vec::new(),
            path: Vec::new(),
            leaf: 0,
            spare: Vec::new(),
        }
    }

    /// The column of the current path, made (with missing values for earlier rows) when
    /// new.
    #[inline]
    pub(super) fn column(&mut self) -> &mut Data {
        let k = self.leaf;
        self.leaf += 1;
        let at = if self
            .columns
            .get(k)
            .is_some_and(|c| same_path(&c.path, &self.path))
        {
            k
        } else if let Some(i) = self
            .columns
            .iter()
            .position(|c| same_path(&c.path, &self.path))
        {
            i
        } else {
            let mut data = Data::New;
            if self.rows > 0 {
                data.values().extend((0..self.rows).map(|_| Out::Null));
            }
            self.columns.push(Column {
                path: self.path.clone(),
                data,
            });
            self.columns.len() - 1
        };
        &mut self.columns[at].data
    }

    #[inline]
    pub(super) fn int(&mut self, x: i64) {
        let hint = self.hint;
        let data = self.column();
        if matches!(data, Data::New) {
            *data = Data::Int(Vec::with_capacity(hint));
        }
        match data {
            Data::Int(v) => v.push(x),
            other => other.values().push(Out::Int(x)),
        }
    }

    #[inline]
    pub(super) fn ints(&mut self, xs: &[i64]) {
        let hint = self.hint;
        let data = self.column();
        if matches!(data, Data::New) {
            let mut offsets = Vec::with_capacity(hint + 1);
            offsets.push(0);
            *data = Data::Ragged {
                values: Vec::with_capacity(hint * xs.len().max(1)),
                offsets,
            };
        }
        match data {
            Data::Ragged { values, offsets } => {
                values.extend_from_slice(xs);
                offsets.push(values.len() as i64);
            }
            other => other
                .values()
                .push(Out::List(xs.iter().map(|&x| Out::Int(x)).collect())),
        }
    }

    #[inline]
    pub(super) fn value(&mut self, x: Out) {
        match x {
            Out::Int(x) => self.int(x),
            Out::Ints(xs) => self.ints(&xs),
            x => self.column().values().push(x),
        }
    }

    /// Closes a row: a field the row did not have is a missing value.
    #[inline]
    pub(super) fn end_row(&mut self) {
        self.rows += 1;
        self.leaf = 0;
        for c in &mut self.columns {
            if c.data.len() < self.rows {
                c.data.values().push(Out::Null);
            }
        }
    }
}

/// Whether two paths are equal; field names are usually the same static strings, so
/// their addresses decide without comparing text.
#[inline]
pub(super) fn same_path(a: &[Key], b: &[Key]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x.as_ptr() == y.as_ptr() && x.len() == y.len()) || x == y)
}
