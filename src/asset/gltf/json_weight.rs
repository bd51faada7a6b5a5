//! How much memory the `gltf` crate's JSON document will take, found before it is built.
//!
//! The document is a tree of Rust structs, some far larger than their shortest JSON: an empty
//! node `{}` is 3 bytes of text and a 224-byte `json::Node` (plus the vector's spare
//! capacity), so 2.5 million empty nodes in 10 MB would take over a gigabyte. This pass walks
//! the JSON once without building anything (every value is skipped as it is read) and weighs
//! it: each element of a top-level array (`nodes`, `accessors`, ...) costs its struct's size,
//! each value nested inside one costs a small fixed amount, strings their length. The load
//! charges the weight to its budget before the document is built.

use std::fmt;
use std::mem::size_of;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use gltf::json;

/// A nested object or array (a primitive, a channel, a sampler, an attribute map, a list): at
/// least one heap block.
const NESTED_CONTAINER: u64 = 64;
/// A nested number, boolean or null (an index in a list, a matrix element).
const NESTED_SCALAR: u64 = 16;
/// A string's fixed part (its bytes are added).
const STRING: u64 = 32;
/// Anything outside the top-level arrays (`asset`, `scene`).
const TOP_LEVEL_VALUE: u64 = 256;

/// The name and element size of each top-level array the document holds.
fn element_size(key: &str) -> Option<(&'static str, u64)> {
    let size = match key {
        "accessors" => size_of::<json::Accessor>(),
        "animations" => size_of::<json::Animation>(),
        "buffers" => size_of::<json::Buffer>(),
        "bufferViews" => size_of::<json::buffer::View>(),
        "cameras" => size_of::<json::Camera>(),
        "images" => size_of::<json::Image>(),
        "materials" => size_of::<json::Material>(),
        "meshes" => size_of::<json::Mesh>(),
        "nodes" => size_of::<json::Node>(),
        "samplers" => size_of::<json::texture::Sampler>(),
        "scenes" => size_of::<json::Scene>(),
        "skins" => size_of::<json::Skin>(),
        "textures" => size_of::<json::Texture>(),
        _ => return None,
    };
    KEYS.iter().find(|k| **k == key).map(|k| (*k, size as u64))
}

const KEYS: [&str; 13] = [
    "accessors",
    "animations",
    "buffers",
    "bufferViews",
    "cameras",
    "images",
    "materials",
    "meshes",
    "nodes",
    "samplers",
    "scenes",
    "skins",
    "textures",
];

/// The weight of a document: bytes, and its longest top-level array (for the error line).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Weight {
    /// What the document will hold at most.
    pub bytes: u64,
    /// The longest of the top-level arrays (`nodes`, ...) and its length.
    pub longest: Option<(&'static str, u64)>,
}

impl Weight {
    /// What the weight is made of, as an error line says it: `2500000 nodes and the rest of
    /// the document`.
    pub fn describe(&self) -> String {
        match self.longest {
            Some((key, count)) => format!("the document's {count} {key} and the rest of it"),
            None => "the document".to_string(),
        }
    }
}

/// What the document built from `json` will hold at most, counting the spare capacity of its
/// vectors (they grow by doubling). A syntax error is returned as the parser would report it,
/// so nothing is built from a file that is not JSON.
pub(super) fn document_bytes(json: &[u8]) -> Result<Weight, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(json);
    let mut weight = de.deserialize_any(Root)?;
    de.end()?;
    weight.bytes = weight.bytes.saturating_mul(2);
    Ok(weight)
}

/// The root object: known arrays weighed by their element type, everything else generically.
struct Root;

impl<'de> Visitor<'de> for Root {
    type Value = Weight;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a glTF JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Weight, A::Error> {
        let mut total = Weight::default();
        while let Some(key) = map.next_key_seed(Key)? {
            let bytes = match key {
                Some((name, size)) => {
                    let (bytes, count) = map.next_value_seed(Elements(size))?;
                    if total.longest.is_none_or(|(_, longest)| count > longest) {
                        total.longest = Some((name, count));
                    }
                    bytes
                }
                None => map.next_value_seed(Weigh(TOP_LEVEL_VALUE))?,
            };
            total.bytes = total.bytes.saturating_add(bytes);
        }
        Ok(total)
    }

    // Not an object: the document parser says what is wrong; nothing large is built.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Weight, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Weight::default())
    }

    fn visit_bool<E>(self, _: bool) -> Result<Weight, E> {
        Ok(Weight::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Weight, E> {
        Ok(Weight::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Weight, E> {
        Ok(Weight::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Weight, E> {
        Ok(Weight::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<Weight, E> {
        Ok(Weight::default())
    }
    fn visit_unit<E>(self) -> Result<Weight, E> {
        Ok(Weight::default())
    }
}

/// A key of the root object, as the element size of the array it names (escaped keys are
/// decoded first, as the document parser does).
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Option<(&'static str, u64)>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Option<(&'static str, u64)>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a property name")
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(element_size(v))
    }
}

/// A top-level array whose elements cost `.0` bytes each, plus what they contain: its
/// weight and its length.
struct Elements(u64);

impl<'de> DeserializeSeed<'de> for Elements {
    type Value = (u64, u64);

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(u64, u64), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Elements {
    type Value = (u64, u64);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(u64, u64), A::Error> {
        let (mut total, mut count) = (0u64, 0u64);
        while let Some(weight) = seq.next_element_seed(Weigh(self.0))? {
            total = total.saturating_add(weight);
            count += 1;
        }
        Ok((total, count))
    }

    // Not an array: the document parser refuses it; weigh it like any value meanwhile.
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(u64, u64), A::Error> {
        Ok((Weigh(self.0).visit_map(map)?, 1))
    }
    fn visit_bool<E>(self, _: bool) -> Result<(u64, u64), E> {
        Ok((self.0, 1))
    }
    fn visit_i64<E>(self, _: i64) -> Result<(u64, u64), E> {
        Ok((self.0, 1))
    }
    fn visit_u64<E>(self, _: u64) -> Result<(u64, u64), E> {
        Ok((self.0, 1))
    }
    fn visit_f64<E>(self, _: f64) -> Result<(u64, u64), E> {
        Ok((self.0, 1))
    }
    fn visit_str<E>(self, v: &str) -> Result<(u64, u64), E> {
        Ok((self.0 + STRING + v.len() as u64, 1))
    }
    fn visit_unit<E>(self) -> Result<(u64, u64), E> {
        Ok((self.0, 1))
    }
}

/// Any value: a container costs `.0` bytes plus its contents, scalars and strings their own.
struct Weigh(u64);

impl<'de> DeserializeSeed<'de> for Weigh {
    type Value = u64;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Weigh {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        let mut total = self.0;
        while let Some(weight) = seq.next_element_seed(Weigh(NESTED_CONTAINER))? {
            total = total.saturating_add(weight);
        }
        Ok(total)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let mut total = self.0;
        while let Some(key) = map.next_key_seed(KeyLength)? {
            let value = map.next_value_seed(Weigh(NESTED_CONTAINER))?;
            total = total.saturating_add(key).saturating_add(value);
        }
        Ok(total)
    }

    fn visit_bool<E>(self, _: bool) -> Result<u64, E> {
        Ok(NESTED_SCALAR)
    }
    fn visit_i64<E>(self, _: i64) -> Result<u64, E> {
        Ok(NESTED_SCALAR)
    }
    fn visit_u64<E>(self, _: u64) -> Result<u64, E> {
        Ok(NESTED_SCALAR)
    }
    fn visit_f64<E>(self, _: f64) -> Result<u64, E> {
        Ok(NESTED_SCALAR)
    }
    fn visit_str<E>(self, v: &str) -> Result<u64, E> {
        Ok(STRING + v.len() as u64)
    }
    fn visit_unit<E>(self) -> Result<u64, E> {
        Ok(NESTED_SCALAR)
    }
}

/// A nested key: a struct's field name is matched, not stored; a map's key (a custom vertex
/// attribute name) is stored, at most its length.
struct KeyLength;

impl<'de> DeserializeSeed<'de> for KeyLength {
    type Value = u64;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyLength {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a property name")
    }

    fn visit_str<E>(self, v: &str) -> Result<u64, E> {
        Ok(v.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_nodes_weigh_their_struct() {
        let n = 1000;
        let nodes = vec!["{}"; n].join(",");
        let json = format!(r#"{{"asset":{{"version":"2.0"}},"nodes":[{nodes}]}}"#);
        let weight = document_bytes(json.as_bytes()).expect("valid JSON");
        assert_eq!(weight.longest, Some(("nodes", n as u64)));
        let w = weight.bytes;
        let node = size_of::<json::Node>() as u64;
        assert!(w >= 2 * n as u64 * node, "{w}");
        assert!(w < 2 * (n as u64 * node + 4096), "{w}");
    }

    #[test]
    fn syntax_errors_are_reported_before_anything_is_built() {
        assert!(document_bytes(br#"{"nodes":[{},{}"#).is_err());
        assert!(document_bytes(br#"{"nodes":[]} x"#).is_err());
        // An escaped key names the same array for the document parser.
        let escaped = document_bytes(br#"{"n\u006fdes":[{}]}"#)
            .expect("JSON")
            .bytes;
        assert!(escaped >= 2 * size_of::<json::Node>() as u64, "{escaped}");
        assert_eq!(document_bytes(b"[1, 2]").expect("JSON").bytes, 0);
    }
}
