//! How instances look: a table of [`Look`]s (a colour tint per material), shared by the
//! instances wearing them. An instance names its look by [`LookId`]; the record the GPU reads
//! carries the id ([`RECORD_LOOK_SHIFT`](super::RECORD_LOOK_SHIFT)), and the fragment stages multiply each material's
//! colour by the look's tint for it. Look 0 is [`Look::PLAIN`] (every tint white: the model as
//! its file makes it), which every instance wears until told otherwise.
//!
//! A table rather than tints per instance: a few hundred looks are enough for a crowd to stop
//! looking copied, the record keeps its 80 bytes, and the GPU's copy is uploaded only when a
//! look is added or changed, never per frame.

use super::error::CrowdError;
use super::record::MAX_LOOKS;

pub use super::gpu_codes::MAX_LOOK_TINTS;
// An impostor atlas texel names its material in four bits, 15 meaning none tinted
// (`pack_material` in shaders/impostor.glsl); `Look::hidden` has a bit per material.
const _: () = assert!(MAX_LOOK_TINTS < 15 && MAX_LOOK_TINTS <= 8);

/// Identifies a look in its crowd ([`crate::crowd::Crowd::add_look`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LookId(pub u32);

impl LookId {
    /// [`Look::PLAIN`], which every crowd holds.
    pub const PLAIN: Self = Self(0);
}

/// A colour tint per material: linear RGB factors multiplying the material's base colour
/// (texture times colour). Factors above 1 brighten a dark material; a look meant for a
/// textured material keeps its factors near each other so the texture's detail stays. A look
/// can also leave materials out (a prop some instances carry and others not:
/// [`crate::asset::props`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    /// Per material index: the RGB factor.
    pub tints: [[f32; 3]; MAX_LOOK_TINTS],
    /// Bit `m` set: material `m` is not drawn (nor cast a shadow, nor show on a card).
    pub hidden: u8,
}

impl Look {
    /// Every tint white, nothing hidden.
    pub const PLAIN: Self = Self {
        tints: [[1.0; 3]; MAX_LOOK_TINTS],
        hidden: 0,
    };

    /// Whether material `m` is drawn.
    pub fn shows(&self, m: usize) -> bool {
        m >= MAX_LOOK_TINTS || self.hidden & (1 << m) == 0
    }

    /// Whether every factor is finite and not negative (the table refuses others).
    pub fn is_valid(&self) -> bool {
        self.tints
            .iter()
            .flatten()
            .all(|f| f.is_finite() && *f >= 0.0)
    }
}

impl Default for Look {
    fn default() -> Self {
        Self::PLAIN
    }
}

/// A crowd's looks, [`Look::PLAIN`] first, and a count of changes (what tells a copy
/// elsewhere, the GPU's, that it is stale).
#[derive(Clone, Debug)]
pub(crate) struct LookTable {
    looks: Vec<Look>,
    generation: u64,
}

impl Default for LookTable {
    fn default() -> Self {
        Self {
            looks: vec![Look::PLAIN],
            generation: 0,
        }
    }
}

impl LookTable {
    /// Adds `look`; refused when the table is full or a factor is not a finite, non-negative
    /// number.
    pub(crate) fn add(&mut self, look: Look) -> Result<LookId, CrowdError> {
        if !look.is_valid() {
            return Err(CrowdError::BadLook);
        }
        if self.looks.len() >= MAX_LOOKS {
            return Err(CrowdError::TooManyLooks);
        }
        self.looks.push(look);
        self.generation += 1;
        Ok(LookId(self.looks.len() as u32 - 1))
    }

    /// Replaces look `id` (the plain look included) for every instance wearing it.
    pub(crate) fn replace(&mut self, id: LookId, look: Look) -> Result<(), CrowdError> {
        if !look.is_valid() {
            return Err(CrowdError::BadLook);
        }
        let slot = self
            .looks
            .get_mut(id.0 as usize)
            .ok_or(CrowdError::UnknownLook(id.0))?;
        *slot = look;
        self.generation += 1;
        Ok(())
    }

    /// Checks that `id` names a look of this table.
    pub(crate) fn check(&self, id: LookId) -> Result<(), CrowdError> {
        if (id.0 as usize) < self.looks.len() {
            Ok(())
        } else {
            Err(CrowdError::UnknownLook(id.0))
        }
    }

    /// Every look, by id.
    pub(crate) fn all(&self) -> &[Look] {
        &self.looks
    }

    /// Changes so far (adds and replacements).
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_look_is_first_and_ids_follow_the_order_of_adding() {
        let mut table = LookTable::default();
        assert_eq!(table.all(), &[Look::PLAIN]);
        let mut red = Look::PLAIN;
        red.tints[1] = [1.0, 0.2, 0.2];
        assert_eq!(table.add(red).expect("room"), LookId(1));
        assert_eq!(table.all()[1], red);
        assert_eq!(table.generation(), 1);
        table.replace(LookId::PLAIN, red).expect("known");
        assert_eq!(table.generation(), 2);
        assert!(table.check(LookId(1)).is_ok());
        assert!(matches!(
            table.check(LookId(2)),
            Err(CrowdError::UnknownLook(2))
        ));
    }

    #[test]
    fn bad_factors_and_a_full_table_are_refused() {
        let mut table = LookTable::default();
        for bad in [f32::NAN, f32::INFINITY, -0.5] {
            let mut look = Look::PLAIN;
            look.tints[3][2] = bad;
            assert!(matches!(table.add(look), Err(CrowdError::BadLook)));
            assert!(matches!(
                table.replace(LookId::PLAIN, look),
                Err(CrowdError::BadLook)
            ));
        }
        for _ in 1..MAX_LOOKS {
            table.add(Look::PLAIN).expect("room");
        }
        assert_eq!(table.all().len(), MAX_LOOKS);
        assert!(matches!(
            table.add(Look::PLAIN),
            Err(CrowdError::TooManyLooks)
        ));
    }
}
