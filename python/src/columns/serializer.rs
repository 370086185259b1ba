//! The serde serialiser that writes a report into [`Out`] values, each list of records
//! into a [`Table`]'s columns as it goes.

use std::borrow::Cow;
use std::fmt;

use serde::ser::{self, Serialize};

use super::table::{Key, Out, Table};

/// Why a report could not be written (never expected: reports are plain data).
#[derive(Debug)]
pub struct SerError(String);

impl fmt::Display for SerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SerError {}

impl ser::Error for SerError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        SerError(msg.to_string())
    }
}

/// serde_json's `arbitrary_precision` writes a big number as a struct of this name whose
/// one field holds the digits.
pub(super) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

pub(super) fn int_of<T: TryInto<i64> + ToString + Copy>(x: T) -> Out {
    match x.try_into() {
        Ok(v) => Out::Int(v),
        Err(_) => Out::Big(x.to_string()),
    }
}

/// Serialises a value into an [`Out`]; `flat` inside a table's cell, where values stay
/// plain (no nested tables or integer buffers).
#[derive(Clone, Copy)]
pub struct Plain {
    pub(super) flat: bool,
}

/// The parts of a list, a map or a record under construction.
pub enum Compound<'t> {
    /// A list: records go to a table, other items to a list.
    Seq {
        items: Vec<Out>,
        table: Option<Box<Table>>,
        /// The list's length, when known: a table's columns are made that long at once.
        hint: usize,
        flat: bool,
    },
    Map {
        entries: Vec<(Key, Out)>,
        key: Option<Key>,
        flat: bool,
    },
    /// A big number's digits.
    Number(Option<Out>),
    /// A variant wrapping a value: `{variant: value}`.
    Variant(&'static str, Box<Compound<'t>>),
    /// A record inside a table: its fields go to the table's columns.
    Row(&'t mut Table),
    /// A compound value inside a table's cell (a list of integers, a big number): written
    /// into the cell's column at its end.
    InCell(&'t mut Table, Box<Compound<'t>>),
    /// A list inside a table's cell: integers go to `ints` (a buffer the table lends, so
    /// the common case allocates nothing), anything else turns it into a list of values.
    CellSeq {
        table: &'t mut Table,
        ints: Vec<i64>,
        others: Option<Vec<Out>>,
    },
}

impl<'t> Compound<'t> {
    fn seq(hint: Option<usize>, flat: bool) -> Compound<'t> {
        Compound::Seq {
            items: Vec::new(),
            table: None,
            hint: hint.unwrap_or(0),
            flat,
        }
    }
    fn map(flat: bool) -> Compound<'t> {
        Compound::Map {
            entries: Vec::new(),
            key: None,
            flat,
        }
    }

    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), SerError> {
        match self {
            Compound::Seq {
                items,
                table,
                hint,
                flat,
            } => {
                if !*flat && items.is_empty() && table.is_none() && is_record(v) {
                    *table = Some(Box::new(Table::new(*hint)));
                }
                match table {
                    Some(t) => {
                        v.serialize(Cell(t))?;
                        t.end_row();
                        Ok(())
                    }
                    None => {
                        items.push(v.serialize(Plain { flat: *flat })?);
                        Ok(())
                    }
                }
            }
            Compound::Variant(_, inner) | Compound::InCell(_, inner) => inner.element(v),
            Compound::CellSeq { ints, others, .. } => {
                let x = v.serialize(Plain { flat: true })?;
                match (x, others) {
                    (Out::Int(x), None) => ints.push(x),
                    (x, others) => {
                        let list =
                            others.get_or_insert_with(|| ints.drain(..).map(Out::Int).collect());
                        list.push(x);
                    }
                }
                Ok(())
            }
            _ => Err(SerError("an element outside a list".into())),
        }
    }

    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: Key, v: &T) -> Result<(), SerError> {
        match self {
            Compound::Map { entries, flat, .. } => {
                entries.push((key, v.serialize(Plain { flat: *flat })?));
                Ok(())
            }
            Compound::Number(digits) => {
                *digits = Some(match v.serialize(Plain { flat: true })? {
                    Out::Str(s) => match s.parse::<i64>() {
                        Ok(x) => Out::Int(x),
                        Err(_) => Out::Big(s),
                    },
                    other => other,
                });
                Ok(())
            }
            Compound::Row(t) => {
                t.path.push(key);
                let r = v.serialize(Cell(t));
                t.path.pop();
                r.map(|_| ())
            }
            Compound::Variant(_, inner) | Compound::InCell(_, inner) => inner.field(key, v),
            Compound::Seq { .. } | Compound::CellSeq { .. } => {
                Err(SerError("a field inside a list".into()))
            }
        }
    }

    #[inline]
    fn finish(self) -> Out {
        match self {
            Compound::Seq {
                items, table, flat, ..
            } => match table {
                Some(t) => Out::Table(t),
                None => {
                    if !flat && !items.is_empty() && items.iter().all(|x| matches!(x, Out::Int(_)))
                    {
                        Out::Ints(
                            items
                                .into_iter()
                                .map(|x| match x {
                                    Out::Int(x) => x,
                                    _ => 0,
                                })
                                .collect(),
                        )
                    } else {
                        Out::List(items)
                    }
                }
            },
            Compound::Map { entries, .. } => Out::Map(entries),
            Compound::Number(d) => d.unwrap_or(Out::Null),
            Compound::Variant(name, inner) => Out::Map(vec![(Cow::Borrowed(name), inner.finish())]),
            // A row's fields are in the table already.
            Compound::Row(_) => Out::Null,
            Compound::CellSeq {
                table,
                mut ints,
                others,
            } => {
                match others {
                    None => table.ints(&ints),
                    Some(list) => table.value(Out::List(list)),
                }
                ints.clear();
                table.spare = ints;
                Out::Null
            }
            Compound::InCell(t, inner) => {
                t.value(inner.finish());
                Out::Null
            }
        }
    }
}

/// Whether a value serialises as a record (a struct or a map).
pub(super) fn is_record<T: ?Sized + Serialize>(v: &T) -> bool {
    struct Probe;
    #[derive(Debug)]
    struct Found(bool);
    impl fmt::Display for Found {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}", self.0)
        }
    }
    impl std::error::Error for Found {}
    impl ser::Error for Found {
        fn custom<T: fmt::Display>(_: T) -> Self {
            Found(false)
        }
    }
    macro_rules! no {
        ($($f:ident($($t:ty),*)),*) => {$(
            fn $f(self, $(_: $t),*) -> Result<(), Found> { Err(Found(false)) }
        )*};
    }
    impl ser::Serializer for Probe {
        type Ok = ();
        type Error = Found;
        type SerializeSeq = ser::Impossible<(), Found>;
        type SerializeTuple = ser::Impossible<(), Found>;
        type SerializeTupleStruct = ser::Impossible<(), Found>;
        type SerializeTupleVariant = ser::Impossible<(), Found>;
        type SerializeMap = ser::Impossible<(), Found>;
        type SerializeStruct = ser::Impossible<(), Found>;
        type SerializeStructVariant = ser::Impossible<(), Found>;
        no!(
            serialize_bool(bool),
            serialize_i8(i8),
            serialize_i16(i16),
            serialize_i32(i32),
            serialize_i64(i64),
            serialize_i128(i128),
            serialize_u8(u8),
            serialize_u16(u16),
            serialize_u32(u32),
            serialize_u64(u64),
            serialize_u128(u128),
            serialize_f32(f32),
            serialize_f64(f64),
            serialize_char(char),
            serialize_str(&str),
            serialize_bytes(&[u8]),
            serialize_none(),
            serialize_unit(),
            serialize_unit_struct(&'static str),
            serialize_unit_variant(&'static str, u32, &'static str)
        );
        fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<(), Found> {
            v.serialize(self)
        }
        fn serialize_newtype_struct<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            v: &T,
        ) -> Result<(), Found> {
            v.serialize(self)
        }
        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Found> {
            Err(Found(false))
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Found> {
            Err(Found(false))
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Found> {
            Err(Found(false))
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, Found> {
            Err(Found(false))
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, Found> {
            Err(Found(false))
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Found> {
            Err(Found(true))
        }
        fn serialize_struct(
            self,
            name: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStruct, Found> {
            Err(Found(name != NUMBER_TOKEN))
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, Found> {
            Err(Found(false))
        }
    }
    // The probe stops at the first call, so it costs one call per list, not per value.
    matches!(v.serialize(Probe), Err(Found(true)))
}

/// A map key as text.
pub(super) struct KeyText;

macro_rules! key_from_display {
    ($($f:ident($t:ty)),*) => {$(
        fn $f(self, v: $t) -> Result<Key, SerError> { Ok(Cow::Owned(v.to_string())) }
    )*};
}

impl ser::Serializer for KeyText {
    type Ok = Key;
    type Error = SerError;
    type SerializeSeq = ser::Impossible<Key, SerError>;
    type SerializeTuple = ser::Impossible<Key, SerError>;
    type SerializeTupleStruct = ser::Impossible<Key, SerError>;
    type SerializeTupleVariant = ser::Impossible<Key, SerError>;
    type SerializeMap = ser::Impossible<Key, SerError>;
    type SerializeStruct = ser::Impossible<Key, SerError>;
    type SerializeStructVariant = ser::Impossible<Key, SerError>;
    key_from_display!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str)
    );
    fn serialize_bytes(self, _: &[u8]) -> Result<Key, SerError> {
        Err(SerError("bytes as a map key".into()))
    }
    fn serialize_none(self) -> Result<Key, SerError> {
        Ok(Cow::Borrowed("null"))
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<Key, SerError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Key, SerError> {
        Ok(Cow::Borrowed("null"))
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<Key, SerError> {
        Ok(Cow::Borrowed(name))
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Key, SerError> {
        Ok(Cow::Borrowed(variant))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Key, SerError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Key, SerError> {
        Err(SerError("a compound map key".into()))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, SerError> {
        Err(SerError("a compound map key".into()))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, SerError> {
        Err(SerError("a compound map key".into()))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, SerError> {
        Err(SerError("a compound map key".into()))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, SerError> {
        Err(SerError("a compound map key".into()))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, SerError> {
        Err(SerError("a compound map key".into()))
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, SerError> {
        Err(SerError("a compound map key".into()))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, SerError> {
        Err(SerError("a compound map key".into()))
    }
}

/// The serialiser's methods shared by [`Plain`] (which returns the value) and [`Cell`]
/// (which writes it into a table's column): `$done` turns an [`Out`] into `Self::Ok`,
/// `$open` a new compound into the compound this serialiser continues.
macro_rules! serializer_body {
    ($t:lifetime, $flat:expr, $done:expr, $seq:expr, $wrap:expr, $record:expr) => {
        type Ok = Out;
        type Error = SerError;
        type SerializeSeq = Compound<$t>;
        type SerializeTuple = Compound<$t>;
        type SerializeTupleStruct = Compound<$t>;
        type SerializeTupleVariant = Compound<$t>;
        type SerializeMap = Compound<$t>;
        type SerializeStruct = Compound<$t>;
        type SerializeStructVariant = Compound<$t>;

        fn serialize_bool(self, v: bool) -> Result<Out, SerError> {
            $done(self, Out::Bool(v))
        }
        fn serialize_i8(self, v: i8) -> Result<Out, SerError> {
            $done(self, Out::Int(v.into()))
        }
        fn serialize_i16(self, v: i16) -> Result<Out, SerError> {
            $done(self, Out::Int(v.into()))
        }
        fn serialize_i32(self, v: i32) -> Result<Out, SerError> {
            $done(self, Out::Int(v.into()))
        }
        fn serialize_i64(self, v: i64) -> Result<Out, SerError> {
            $done(self, Out::Int(v))
        }
        fn serialize_i128(self, v: i128) -> Result<Out, SerError> {
            $done(self, int_of(v))
        }
        fn serialize_u8(self, v: u8) -> Result<Out, SerError> {
            $done(self, Out::Int(v.into()))
        }
        fn serialize_u16(self, v: u16) -> Result<Out, SerError> {
            $done(self, Out::Int(v.into()))
        }
        fn serialize_u32(self, v: u32) -> Result<Out, SerError> {
            $done(self, Out::Int(v.into()))
        }
        fn serialize_u64(self, v: u64) -> Result<Out, SerError> {
            $done(self, int_of(v))
        }
        fn serialize_u128(self, v: u128) -> Result<Out, SerError> {
            $done(self, int_of(v))
        }
        fn serialize_f32(self, v: f32) -> Result<Out, SerError> {
            $done(self, Out::Float(v.into()))
        }
        fn serialize_f64(self, v: f64) -> Result<Out, SerError> {
            $done(self, Out::Float(v))
        }
        fn serialize_char(self, v: char) -> Result<Out, SerError> {
            $done(self, Out::Str(v.to_string()))
        }
        fn serialize_str(self, v: &str) -> Result<Out, SerError> {
            $done(self, Out::Str(v.to_string()))
        }
        fn serialize_bytes(self, v: &[u8]) -> Result<Out, SerError> {
            $done(self, Out::Ints(v.iter().map(|&b| b.into()).collect()))
        }
        fn serialize_none(self) -> Result<Out, SerError> {
            $done(self, Out::Null)
        }
        fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<Out, SerError> {
            v.serialize(self)
        }
        fn serialize_unit(self) -> Result<Out, SerError> {
            $done(self, Out::Null)
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<Out, SerError> {
            $done(self, Out::Null)
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
        ) -> Result<Out, SerError> {
            $done(self, Out::Str(variant.to_string()))
        }
        fn serialize_newtype_struct<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            v: &T,
        ) -> Result<Out, SerError> {
            v.serialize(self)
        }
        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            v: &T,
        ) -> Result<Out, SerError> {
            let inner = v.serialize(Plain { flat: $flat(&self) })?;
            $done(self, Out::Map(vec![(Cow::Borrowed(variant), inner)]))
        }
        fn serialize_seq(self, len: Option<usize>) -> Result<Compound<$t>, SerError> {
            Ok($seq(self, len))
        }
        fn serialize_tuple(self, len: usize) -> Result<Compound<$t>, SerError> {
            Ok($seq(self, Some(len)))
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            len: usize,
        ) -> Result<Compound<$t>, SerError> {
            Ok($seq(self, Some(len)))
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            len: usize,
        ) -> Result<Compound<$t>, SerError> {
            let flat = $flat(&self);
            Ok($wrap(
                self,
                Compound::Variant(variant, Box::new(Compound::seq(Some(len), flat))),
            ))
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Compound<$t>, SerError> {
            Ok($record(self))
        }
        fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<$t>, SerError> {
            if name == NUMBER_TOKEN {
                return Ok($wrap(self, Compound::Number(None)));
            }
            Ok($record(self))
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            _: usize,
        ) -> Result<Compound<$t>, SerError> {
            let flat = $flat(&self);
            Ok($wrap(
                self,
                Compound::Variant(variant, Box::new(Compound::map(flat))),
            ))
        }
    };
}

impl ser::Serializer for Plain {
    serializer_body!(
        'static,
        |p: &Plain| p.flat,
        |_: Plain, out: Out| Ok(out),
        |p: Plain, len: Option<usize>| Compound::seq(len, p.flat),
        |_: Plain, c: Compound<'static>| c,
        |p: Plain| Compound::map(p.flat)
    );
}

/// Writes a value into the current column of a table; a record's fields go one level
/// down the path.
pub(super) struct Cell<'t>(&'t mut Table);

impl<'t> ser::Serializer for Cell<'t> {
    serializer_body!(
        't,
        |_: &Cell<'t>| true,
        |cell: Cell<'t>, out: Out| {
            cell.0.value(out);
            Ok(Out::Null)
        },
        |cell: Cell<'t>, _: Option<usize>| {
            let ints = std::mem::take(&mut cell.0.spare);
            Compound::CellSeq {
                table: cell.0,
                ints,
                others: None,
            }
        },
        |cell: Cell<'t>, c: Compound<'t>| Compound::InCell(cell.0, Box::new(c)),
        |cell: Cell<'t>| Compound::Row(cell.0)
    );
}

macro_rules! compound_impls {
    ($($tr:ident: $m:ident),*) => {$(
        impl<'t> ser::$tr for Compound<'t> {
            type Ok = Out;
            type Error = SerError;
            fn $m<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), SerError> {
                self.element(v)
            }
            fn end(self) -> Result<Out, SerError> {
                Ok(self.finish())
            }
        }
    )*};
}

compound_impls!(
    SerializeSeq: serialize_element,
    SerializeTuple: serialize_element,
    SerializeTupleStruct: serialize_field,
    SerializeTupleVariant: serialize_field
);

impl<'t> ser::SerializeMap for Compound<'t> {
    type Ok = Out;
    type Error = SerError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, k: &T) -> Result<(), SerError> {
        let key = k.serialize(KeyText)?;
        match self {
            Compound::Map { key: slot, .. } => *slot = Some(key),
            Compound::Row(t) => t.path.push(key),
            _ => return Err(SerError("a key outside a map".into())),
        }
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), SerError> {
        match self {
            Compound::Map { entries, key, flat } => {
                let k = key.take().unwrap_or(Cow::Borrowed(""));
                entries.push((k, v.serialize(Plain { flat: *flat })?));
                Ok(())
            }
            Compound::Row(t) => {
                let r = v.serialize(Cell(t));
                t.path.pop();
                r.map(|_| ())
            }
            _ => Err(SerError("a value outside a map".into())),
        }
    }
    fn end(self) -> Result<Out, SerError> {
        Ok(self.finish())
    }
}

macro_rules! struct_impls {
    ($($tr:ident),*) => {$(
        impl<'t> ser::$tr for Compound<'t> {
            type Ok = Out;
            type Error = SerError;
            fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, v: &T) -> Result<(), SerError> {
                self.field(Cow::Borrowed(key), v)
            }
            fn end(self) -> Result<Out, SerError> {
                Ok(self.finish())
            }
        }
    )*};
}

struct_impls!(SerializeStruct, SerializeStructVariant);
