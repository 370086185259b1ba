//! Tables, whatever they are written as. A report that is a table says once what its
//! columns, header groups and cells are ([`Table`]); each output format has one exporter
//! that writes any table ([`crate::latex`] for LaTeX), so no report lays itself out twice
//! and no format knows a report.
//!
//! Cells keep their numbers exact ([`Rational`]): an exporter prints `25/2` as a fraction
//! and a 40-digit count digit for digit, never a float.

use crate::rational::Rational;

/// How a column's cells are aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Flush left (text, outcome pairs with moves).
    Left,
    /// Flush right (numbers).
    Right,
    /// Centred.
    Center,
    /// Flush left, wrapped to a paragraph of most of the line's width (sentences).
    Wrap,
}

/// A column: its header and alignment.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The header as plain text (`da`).
    pub header: String,
    /// The header as a mathematical symbol in LaTeX (`\delta_\alpha`), where it is one;
    /// written in math mode as given, so it comes from code, never from input.
    pub symbol: Option<&'static str>,
    /// The alignment of its cells.
    pub align: Align,
}

impl Column {
    /// A column headed by plain text.
    pub fn new(header: impl Into<String>, align: Align) -> Column {
        Column {
            header: header.into(),
            symbol: None,
            align,
        }
    }

    /// A column headed by a symbol: `text` where symbols cannot be drawn, `symbol` (LaTeX
    /// math) where they can.
    pub fn symbol(text: impl Into<String>, symbol: &'static str, align: Align) -> Column {
        Column {
            header: text.into(),
            symbol: Some(symbol),
            align,
        }
    }
}

/// A header spanning consecutive columns (the paper's "FvA" over its outcome and its two
/// deviations).
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The title, plain text.
    pub title: String,
    /// How many columns it spans.
    pub span: usize,
}

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// Text, written as text (escaped by every exporter).
    Text(String),
    /// An exact number.
    Number(Rational),
    /// A tuple of numbers, such as an outcome `(14, 3)`.
    Tuple(Vec<Rational>),
    /// A list of numbers, such as the moves `3, 11`.
    List(Vec<Rational>),
    /// Cells side by side, separated by `", "` (an outcome with its moves).
    Joined(Vec<Cell>),
}

impl Cell {
    /// A number cell from anything that converts exactly.
    pub fn number(n: impl Into<i128>) -> Cell {
        Cell::Number(integer(n.into()))
    }

    /// A number cell from an exact rational.
    pub fn exact(x: crate::exact::Exact) -> Cell {
        Cell::Number(Rational::from_exact(x))
    }

    /// A tuple cell of exact rationals.
    pub fn exact_tuple(xs: &[crate::exact::Exact]) -> Cell {
        Cell::Tuple(xs.iter().map(|&x| Rational::from_exact(x)).collect())
    }

    /// A number cell from a count of any size.
    pub fn count(n: &num_bigint::BigUint) -> Cell {
        Cell::Number(Rational::from_big(num_rational::BigRational::from_integer(
            n.clone().into(),
        )))
    }

    /// A tuple cell of integers.
    pub fn tuple<T: Copy + Into<i128>>(xs: &[T]) -> Cell {
        Cell::Tuple(xs.iter().map(|&x| integer(x.into())).collect())
    }

    /// A list cell of integers.
    pub fn list<T: Copy + Into<i128>>(xs: &[T]) -> Cell {
        Cell::List(xs.iter().map(|&x| integer(x.into())).collect())
    }
}

fn integer(n: i128) -> Rational {
    Rational::from_exact(crate::exact::Exact::integer(n))
}

/// A table: a caption, optional header groups, the columns and the rows (each as many
/// cells as there are columns; [`Table::push`] checks).
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The caption (plain text; from the request where the user gave one).
    pub caption: String,
    /// Header groups over the columns, left to right, spanning all of them; empty when
    /// the table has none.
    pub groups: Vec<Group>,
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows.
    pub rows: Vec<Vec<Cell>>,
    /// A note under the table (what the symbols mean), plain text.
    pub note: Option<String>,
}

impl Table {
    /// An empty table with these columns.
    pub fn new(caption: impl Into<String>, columns: Vec<Column>) -> Table {
        Table {
            caption: caption.into(),
            groups: Vec::new(),
            columns,
            rows: Vec::new(),
            note: None,
        }
    }

    /// Adds a row.
    ///
    /// # Panics
    /// When the row's length is not the number of columns: a table is built by code, and
    /// a ragged one is a bug in the report that builds it.
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(row.len(), self.columns.len(), "a row of {}", self.caption);
        self.rows.push(row);
    }
}

/// A report that is one or more tables.
pub trait Tabulate {
    /// The tables, in order.
    fn tables(&self) -> Vec<Table>;
}
