//! Typed ranges of numeric plugin options, checked when a rule set loads.
//!
//! Every numeric option field declares its allowed range next to the field, in one
//! attribute (the ranges are listed in `docs/options.md`):
//!
//! ```
//! #[derive(serde::Deserialize)]
//! struct Tax {
//!     #[serde(deserialize_with = "carcassonne_options::range::<0, 100, _, _>")]
//!     points: i32,
//! }
//! let e = serde_json::from_str::<Tax>(r#"{"points": -5}"#).err().unwrap().to_string();
//! assert!(e.starts_with("-5 is out of range (allowed: 0 to 100)"), "{e}");
//! ```
//!
//! Built-in plugins reach it as `carcassonne_core::options::range`, plugin files as
//! `carcassonne_plugin_api::range`: one check, one message for every option.

use serde::de::{Deserialize, Deserializer, Error};

/// Deserializes an integer option and refuses it outside `MIN..=MAX` (and outside the
/// field's type `T`); the message names the value and the allowed range.
pub fn range<'de, const MIN: i64, const MAX: i64, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<i64>,
{
    let v = i64::deserialize(d)?;
    if !(MIN..=MAX).contains(&v) {
        return Err(D::Error::custom(out_of_range(v, MIN, MAX)));
    }
    T::try_from(v).map_err(|_| D::Error::custom(out_of_range(v, MIN, MAX)))
}

/// The message for `v` outside `min..=max`.
pub fn out_of_range(v: i64, min: i64, max: i64) -> String {
    format!("{v} is out of range (allowed: {min} to {max})")
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    struct Opts {
        #[serde(deserialize_with = "super::range::<1, 30, _, _>")]
        followers: u8,
    }

    fn parse(json: &str) -> Result<u8, String> {
        serde_json::from_str::<Opts>(json).map(|o| o.followers).map_err(|e| e.to_string())
    }

    #[test]
    fn bounds_are_inclusive() {
        assert_eq!(parse(r#"{"followers": 1}"#), Ok(1));
        assert_eq!(parse(r#"{"followers": 30}"#), Ok(30));
    }

    #[test]
    fn outside_values_name_the_range() {
        for v in ["0", "31", "-1", "2147483647", "9223372036854775807"] {
            let e = parse(&format!(r#"{{"followers": {v}}}"#)).unwrap_err();
            assert!(e.starts_with(&format!("{v} is out of range (allowed: 1 to 30)")), "{e}");
        }
    }

    #[test]
    fn a_non_integer_is_a_type_error() {
        let e = parse(r#"{"followers": "seven"}"#).unwrap_err();
        assert!(e.contains("expected i64"), "{e}");
    }
}
