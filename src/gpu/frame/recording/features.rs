//! What the features that keep state across frames hand one frame: the buffers they keep,
//! by the names their passes import them under (so the graph orders and barriers them like
//! any other resource), and per feature one value its passes read (found by its type). The
//! frame's own resources know nothing of any feature; a new one adds its buffers and its value
//! here, and nothing else the passes share changes.
//!
//! Fixed room, filled every frame without allocating: more than the room is a bug reported
//! as an error, never a silent drop.

use std::any::{Any, type_name};

use ash::vk;

use crate::gpu::device::error::GpuError;

/// The most buffers the features import into one frame.
pub const MAX_IMPORTS: usize = 24;
/// The most values the features hand one frame.
pub const MAX_VALUES: usize = 8;

/// See the module documentation.
#[derive(Default)]
pub struct FeatureFrame<'a> {
    imports: [(&'static str, vk::Buffer); MAX_IMPORTS],
    import_count: usize,
    values: [Option<&'a dyn Any>; MAX_VALUES],
}

impl<'a> FeatureFrame<'a> {
    /// Imports `buffer` under `name` (the name the feature's passes declared it by).
    pub fn import(&mut self, name: &'static str, buffer: vk::Buffer) -> Result<(), GpuError> {
        let room = self.imports.get_mut(self.import_count).ok_or_else(|| {
            GpuError::Other(format!(
                "more than {MAX_IMPORTS} feature buffers in one frame ({name})"
            ))
        })?;
        *room = (name, buffer);
        self.import_count += 1;
        Ok(())
    }

    /// Hands the feature's passes `value`, which they find by its type ([`Self::get`]).
    pub fn provide<T: Any>(&mut self, value: &'a T) -> Result<(), GpuError> {
        let room = self.values.iter_mut().find(|v| v.is_none());
        let room = room.ok_or_else(|| {
            GpuError::Other(format!(
                "more than {MAX_VALUES} feature values in one frame ({})",
                type_name::<T>()
            ))
        })?;
        *room = Some(value);
        Ok(())
    }

    /// The buffers imported so far, by name.
    pub fn imports(&self) -> &[(&'static str, vk::Buffer)] {
        &self.imports[..self.import_count]
    }

    /// The value of type `T` a feature handed this frame, if one did.
    pub fn get<T: Any>(&self) -> Option<&'a T> {
        self.values.iter().flatten().find_map(|v| v.downcast_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Glyphs(u32);
    #[derive(Debug, PartialEq)]
    struct Clocks(u32);

    #[test]
    fn values_are_found_by_their_type_and_imports_in_order() {
        let (g, c) = (Glyphs(3), Clocks(7));
        let mut f = FeatureFrame::default();
        assert_eq!(f.get::<Glyphs>(), None);
        f.provide(&g).unwrap();
        f.provide(&c).unwrap();
        assert_eq!(f.get::<Glyphs>(), Some(&Glyphs(3)));
        assert_eq!(f.get::<Clocks>(), Some(&Clocks(7)));
        f.import("a", vk::Buffer::null()).unwrap();
        f.import("b", vk::Buffer::null()).unwrap();
        let names: Vec<_> = f.imports().iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["a", "b"]);
    }

    #[test]
    fn more_than_the_room_is_an_error() {
        let mut f = FeatureFrame::default();
        for _ in 0..MAX_IMPORTS {
            f.import("x", vk::Buffer::null()).unwrap();
        }
        assert!(f.import("one too many", vk::Buffer::null()).is_err());
        let g = Glyphs(0);
        for _ in 0..MAX_VALUES {
            f.provide(&g).unwrap();
        }
        assert!(f.provide(&g).is_err());
    }
}
