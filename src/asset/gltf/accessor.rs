//! A bounds-checked accessor reader. Every offset, stride and count is checked against the
//! buffer view and buffer before anything is read, and the output is charged to the load's
//! budget before it is allocated: a malformed file gives an error, never a panic or a huge
//! allocation. Sparse accessors are supported.

use gltf::Accessor;
use gltf::accessor::sparse::IndexType;
use gltf::accessor::{DataType, Dimensions};

use crate::asset::{ErrorKind, LoadError};

use super::buffers::Buffers;
use super::context::Ctx;

/// Which component types an accessor may use for a given purpose.
#[derive(Clone, Copy)]
pub(super) enum Components {
    /// 32-bit floats only.
    Float,
    /// Floats, or the listed integer types with `normalized: true` (mapped to [0, 1] or
    /// [-1, 1] by the spec's formulas).
    FloatOrNormalized(&'static [DataType]),
    /// The listed unsigned integer types, read as integers.
    Unsigned(&'static [DataType]),
}

/// Reads accessors out of the loaded buffers.
pub(super) struct Reader<'r, 'a> {
    buffers: &'r Buffers<'a>,
}

impl<'r, 'a> Reader<'r, 'a> {
    /// A reader over `buffers`.
    pub fn new(buffers: &'r Buffers<'a>) -> Self {
        Self { buffers }
    }

    /// Floats of an accessor of shape `dims`, flattened (`count * components` values).
    pub fn floats(
        &self,
        ctx: &mut Ctx,
        acc: &Accessor,
        usage: &str,
        dims: Dimensions,
        accept: Components,
    ) -> Result<Vec<f32>, LoadError> {
        let normalized = acc.normalized();
        self.read(ctx, acc, usage, dims, accept, |dt, b| {
            to_f32(dt, normalized, b)
        })
    }

    /// Unsigned integers of an accessor of shape `dims`, flattened.
    pub fn unsigned(
        &self,
        ctx: &mut Ctx,
        acc: &Accessor,
        usage: &str,
        dims: Dimensions,
        accept: Components,
    ) -> Result<Vec<u32>, LoadError> {
        self.read(ctx, acc, usage, dims, accept, to_u32)
    }

    /// Elements of shape `dims`, each made from its floats by `make` (`Vec3::from_slice`,
    /// `Mat4::from_cols_slice`, ...).
    pub fn elements<E>(
        &self,
        ctx: &mut Ctx,
        acc: &Accessor,
        usage: &str,
        (dims, accept): (Dimensions, Components),
        make: fn(&[f32]) -> E,
    ) -> Result<Vec<E>, LoadError> {
        let v = self.floats(ctx, acc, usage, dims, accept)?;
        Ok(v.chunks_exact(dims.multiplicity()).map(make).collect())
    }

    /// `SCALAR` floats.
    pub fn scalar(
        &self,
        ctx: &mut Ctx,
        acc: &Accessor,
        usage: &str,
    ) -> Result<Vec<f32>, LoadError> {
        self.floats(ctx, acc, usage, Dimensions::Scalar, Components::Float)
    }

    fn read<T: Copy + Default>(
        &self,
        ctx: &mut Ctx,
        acc: &Accessor,
        usage: &str,
        dims: Dimensions,
        accept: Components,
        decode: impl Fn(DataType, &[u8]) -> T,
    ) -> Result<Vec<T>, LoadError> {
        let section = format!("accessors[{}]", acc.index());
        let fail = |kind, message: String| {
            ctx.error(kind, section.as_str(), format!("{usage}: {message}"))
        };
        let dt = acc.data_type();
        if acc.dimensions() != dims {
            return Err(fail(
                ErrorKind::Invalid,
                format!("type is {:?}, expected {dims:?}", acc.dimensions()),
            ));
        }
        check_components(dt, acc.normalized(), accept).map_err(|m| fail(ErrorKind::Invalid, m))?;
        let n = dims.multiplicity();
        let size = dt.size();
        // Matrices of 1- and 2-byte components pad their columns to 4 bytes; throng never
        // reads those (only MAT4 of floats), so the element is always tightly packed.
        let elem = n * size;
        let count = acc.count();
        let values = count
            .checked_mul(n)
            .ok_or_else(|| fail(ErrorKind::TooLarge, format!("count {count} is too large")))?;

        // Where the elements are, checked before anything is allocated.
        let base = match acc.view() {
            Some(view) => {
                let bytes = self.buffers.view(ctx, &view)?;
                let stride = view.stride().unwrap_or(elem);
                if stride < elem {
                    return Err(fail(
                        ErrorKind::Invalid,
                        format!(
                            "bufferViews[{}] has byteStride {stride}, less than the {elem}-byte element",
                            view.index()
                        ),
                    ));
                }
                let offset = acc.offset() as u128;
                let need = match count {
                    0 => 0,
                    c => offset + (c as u128 - 1) * stride as u128 + elem as u128,
                };
                if need > bytes.len() as u128 {
                    return Err(fail(
                        ErrorKind::IndexOutOfRange,
                        format!(
                            "{count} elements of {elem} bytes (stride {stride}) from byte {offset} need {need} bytes, \
                             but bufferViews[{}] has {}",
                            view.index(),
                            bytes.len()
                        ),
                    ));
                }
                Some((bytes, acc.offset(), stride))
            }
            None => None,
        };
        ctx.charge(
            &section,
            (values as u64).saturating_mul(std::mem::size_of::<T>().max(1) as u64),
        )?;
        let mut out = Vec::with_capacity(values);
        match base {
            Some((bytes, offset, stride)) => {
                for i in 0..count {
                    let start = offset + i * stride;
                    for c in 0..n {
                        let at = start + c * size;
                        out.push(decode(dt, &bytes[at..at + size]));
                    }
                }
            }
            None => out.resize(values, T::default()),
        }
        if let Some(sparse) = acc.sparse() {
            self.apply_sparse(
                ctx, &section, usage, &sparse, count, n, size, dt, &decode, &mut out,
            )?;
        }
        Ok(out)
    }

    /// Replaces the elements a sparse accessor lists.
    #[allow(clippy::too_many_arguments)]
    fn apply_sparse<T>(
        &self,
        ctx: &Ctx,
        section: &str,
        usage: &str,
        sparse: &gltf::accessor::sparse::Sparse,
        count: usize,
        n: usize,
        size: usize,
        dt: DataType,
        decode: &impl Fn(DataType, &[u8]) -> T,
        out: &mut [T],
    ) -> Result<(), LoadError> {
        let fail =
            |kind, message: String| ctx.error(kind, section, format!("{usage}: sparse: {message}"));
        let k = sparse.count();
        if k > count {
            return Err(fail(
                ErrorKind::CountMismatch,
                format!("{k} substitutions for {count} elements"),
            ));
        }
        let indices = sparse.indices();
        let index_size = match indices.index_type() {
            IndexType::U8 => 1,
            IndexType::U16 => 2,
            IndexType::U32 => 4,
        };
        let index_bytes = self.buffers.view(ctx, &indices.view())?;
        let index_bytes = slice(index_bytes, indices.offset(), k, index_size).ok_or_else(|| {
            fail(
                ErrorKind::IndexOutOfRange,
                format!(
                    "{k} indices run past bufferViews[{}]",
                    indices.view().index()
                ),
            )
        })?;
        let values = sparse.values();
        let value_bytes = self.buffers.view(ctx, &values.view())?;
        let elem = n * size;
        let value_bytes = slice(value_bytes, values.offset(), k, elem).ok_or_else(|| {
            fail(
                ErrorKind::IndexOutOfRange,
                format!("{k} values run past bufferViews[{}]", values.view().index()),
            )
        })?;
        for s in 0..k {
            let ib = &index_bytes[s * index_size..(s + 1) * index_size];
            let target = match index_size {
                1 => u32::from(ib[0]),
                2 => u32::from(u16::from_le_bytes([ib[0], ib[1]])),
                _ => u32::from_le_bytes([ib[0], ib[1], ib[2], ib[3]]),
            } as usize;
            if target >= count {
                return Err(fail(
                    ErrorKind::IndexOutOfRange,
                    format!("index {target} is past the {count} elements"),
                ));
            }
            for c in 0..n {
                let at = s * elem + c * size;
                out[target * n + c] = decode(dt, &value_bytes[at..at + size]);
            }
        }
        Ok(())
    }
}

/// `count` tightly packed elements of `elem` bytes from `offset`, if they fit.
fn slice(bytes: &[u8], offset: usize, count: usize, elem: usize) -> Option<&[u8]> {
    let len = count.checked_mul(elem)?;
    bytes.get(offset..offset.checked_add(len)?)
}

fn check_components(dt: DataType, normalized: bool, accept: Components) -> Result<(), String> {
    let ok = match accept {
        Components::Float => dt == DataType::F32,
        Components::FloatOrNormalized(ints) => {
            dt == DataType::F32 || (normalized && ints.contains(&dt))
        }
        Components::Unsigned(ints) => ints.contains(&dt),
    };
    if ok {
        return Ok(());
    }
    let expected = match accept {
        Components::Float => "FLOAT".to_string(),
        Components::FloatOrNormalized(ints) => format!("FLOAT or normalized {}", names(ints)),
        Components::Unsigned(ints) => names(ints),
    };
    let found = if normalized && dt != DataType::F32 {
        format!("normalized {}", name(dt))
    } else {
        name(dt).to_string()
    };
    Err(format!("component type is {found}, expected {expected}"))
}

fn name(dt: DataType) -> &'static str {
    match dt {
        DataType::I8 => "BYTE",
        DataType::U8 => "UNSIGNED_BYTE",
        DataType::I16 => "SHORT",
        DataType::U16 => "UNSIGNED_SHORT",
        DataType::U32 => "UNSIGNED_INT",
        DataType::F32 => "FLOAT",
    }
}

fn names(list: &[DataType]) -> String {
    list.iter()
        .map(|&d| name(d))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// One component as a float; normalized integers follow glTF 2.0's section 3.11 formulas
/// (`c / 255`, `max(c / 127, -1)`, `c / 65535`, `max(c / 32767, -1)`).
fn to_f32(dt: DataType, normalized: bool, b: &[u8]) -> f32 {
    match dt {
        DataType::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        DataType::U8 if normalized => f32::from(b[0]) / 255.0,
        DataType::U8 => f32::from(b[0]),
        DataType::I8 if normalized => (f32::from(b[0] as i8) / 127.0).max(-1.0),
        DataType::I8 => f32::from(b[0] as i8),
        DataType::U16 if normalized => f32::from(u16::from_le_bytes([b[0], b[1]])) / 65535.0,
        DataType::U16 => f32::from(u16::from_le_bytes([b[0], b[1]])),
        DataType::I16 if normalized => {
            (f32::from(i16::from_le_bytes([b[0], b[1]])) / 32767.0).max(-1.0)
        }
        DataType::I16 => f32::from(i16::from_le_bytes([b[0], b[1]])),
        DataType::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
    }
}

/// One unsigned component as an integer (only unsigned types reach this).
fn to_u32(dt: DataType, b: &[u8]) -> u32 {
    match dt {
        DataType::U8 => u32::from(b[0]),
        DataType::U16 => u32::from(u16::from_le_bytes([b[0], b[1]])),
        DataType::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalization_follows_the_spec() {
        assert_eq!(to_f32(DataType::U8, true, &[255]), 1.0);
        assert_eq!(to_f32(DataType::I8, true, &[0x80]), -1.0);
        assert_eq!(to_f32(DataType::I8, true, &[127]), 1.0);
        assert_eq!(to_f32(DataType::I16, true, &0x8000u16.to_le_bytes()), -1.0);
        assert_eq!(
            to_f32(DataType::U16, true, &32768u16.to_le_bytes()),
            32768.0 / 65535.0
        );
        assert_eq!(to_f32(DataType::U16, false, &7u16.to_le_bytes()), 7.0);
    }
}
