//! Typed handles: a table declares each tunable as a `Setting<T>`, and code reads its value
//! through that handle, as the Rust type `T` gives it. Reading by a name that no table
//! declares is impossible (there is no handle to name), and reading a value as another kind
//! does not compile (`Setting<Int>` gives an `i64`, never a list).

use crate::tunable::{IntList, Kind, Tunable};
use crate::value::Value;

/// The Rust type a kind of tunable reads as.
pub trait Type {
    type Value<'a>;
    /// `value` is of the kind this handle was declared with (the parser made it from that
    /// declaration), so any other kind is a bug in this crate.
    fn read<'a>(&self, name: &str, value: Value<'a>) -> Self::Value<'a>;
}

/// One tunable and how to read it. Made by `tunables!`, which also puts it in its table.
pub struct Setting<T> {
    pub tunable: Tunable,
    ty: T,
}

impl<T: Type> Setting<T> {
    pub fn name(&self) -> &'static str {
        self.tunable.name
    }

    pub(crate) fn read<'a>(&self, value: Value<'a>) -> T::Value<'a> {
        self.ty.read(self.tunable.name, value)
    }
}

#[cold]
fn mismatch(name: &str) -> ! {
    panic!("setting {name} holds a value of another kind than its handle reads")
}

macro_rules! kinds {
    ($($(#[$meta:meta])* $ty:ident ($kind:pat) => $value:ty, |$v:ident| $read:pat => $out:expr, $new:ident;)*) => {$(
        $(#[$meta])*
        pub struct $ty;

        impl Type for $ty {
            type Value<'a> = $value;
            fn read<'a>(&self, name: &str, $v: Value<'a>) -> $value {
                match $v {
                    $read => $out,
                    _ => mismatch(name),
                }
            }
        }

        impl Setting<$ty> {
            /// A handle for `tunable`, whose kind must be this one (checked when the table is
            /// compiled: a mismatch fails the build).
            pub const fn $new(tunable: Tunable) -> Setting<$ty> {
                assert!(matches!(tunable.kind, $kind), "a tunable declared with another kind than its handle");
                Setting { tunable, ty: $ty }
            }
        }
    )*};
}

kinds! {
    /// `Kind::Int`, read as `i64`.
    Int(Kind::Int { .. }) => i64, |v| Value::Int(n) => n, int;
    /// `Kind::Fraction`, read as `(p, q)`.
    Fraction(Kind::Fraction) => (u64, u64), |v| Value::Fraction(p, q) => (p, q), fraction;
    /// `Kind::List`, read as its integers.
    List(Kind::List { .. }) => IntList, |v| Value::List(l) => l, list;
    /// `Kind::Features`, read as a bit set (bit i = the i-th name is on).
    Features(Kind::Features(_)) => u32, |v| Value::Features(bits) => bits, features;
    /// `Kind::Choices`, read as the index of each name given.
    Choices(Kind::Choices(_)) => IntList, |v| Value::List(l) => l, choices;
    /// `Kind::Text`, read as the text given.
    Text(Kind::Text) => &'a str, |v| Value::Text(t) => t, text;
}

/// `Kind::Choice`, read as the value of type `T` paired with the chosen name.
pub struct Choice<T: 'static>(&'static [T]);

impl<T: Copy> Type for Choice<T> {
    type Value<'a> = T;
    fn read<'a>(&self, name: &str, value: Value<'a>) -> T {
        match value {
            Value::Choice(i) => self.0[i],
            _ => mismatch(name),
        }
    }
}

impl<T: Copy> Setting<Choice<T>> {
    /// A handle for a `Kind::Choice` tunable whose i-th name reads as `values[i]`.
    pub const fn choice(tunable: Tunable, values: &'static [T]) -> Setting<Choice<T>> {
        match tunable.kind {
            Kind::Choice(names) => assert!(names.len() == values.len(), "a choice needs one value per name"),
            _ => panic!("a tunable declared with another kind than its handle"),
        }
        Setting { tunable, ty: Choice(values) }
    }
}

/// Declares a table of tunables and a typed handle for each, in the table's order: every
/// handle is in its table, so every value read is one the parser knows.
///
/// ```
/// runqueue_settings::tunables! {
///     /// What this part takes.
///     pub const TABLE;
///     pub SLICE: Int = Setting::int(Tunable { name: "rr.slice_ms", kind: Kind::Int { min: 1, max: 100 }, default: "5", unit: "ms", help: "the slice" });
/// }
/// # use runqueue_settings::{Int, Kind, Setting, Tunable};
/// ```
#[macro_export]
macro_rules! tunables {
    ($(#[$tmeta:meta])* $tvis:vis const $table:ident; $($(#[$meta:meta])* $vis:vis $name:ident: $ty:ty = $value:expr;)*) => {
        $($(#[$meta])* $vis const $name: $crate::Setting<$ty> = $value;)*
        $(#[$tmeta])* $tvis const $table: &[$crate::Tunable] = &[$($name.tunable),*];
    };
}
