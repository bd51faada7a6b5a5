//! Which vector instruction set the batch kernels use: the widest this processor has, or a
//! narrower one named by `THRONG_ISA` (`portable`, `avx2`, `avx512`), so that benchmarks can
//! compare the kernels on one machine and a suspected kernel can be ruled out without a
//! rebuild. Decided once per process.

use std::sync::OnceLock;

/// A family of batch kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum VectorIsa {
    /// `Vec4` lanes, any processor: four instances per batch.
    Portable,
    /// AVX2: eight instances per batch.
    Avx2,
    /// AVX-512 F and VL: sixteen instances per batch.
    Avx512,
}

impl VectorIsa {
    /// Instances per batch with these kernels.
    #[must_use]
    pub fn lanes(self) -> usize {
        match self {
            Self::Portable => 4,
            Self::Avx2 => 8,
            Self::Avx512 => 16,
        }
    }

    /// The name `THRONG_ISA` takes.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Avx2 => "avx2",
            Self::Avx512 => "avx512",
        }
    }

    /// The widest family this processor runs.
    #[must_use]
    pub fn detected() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") && has!("avx512vl") {
                return Self::Avx512;
            }
            if has!("avx2") {
                return Self::Avx2;
            }
        }
        Self::Portable
    }
}

/// The family the batch kernels use: [`VectorIsa::detected`], lowered by `THRONG_ISA` if set
/// (a wider family than the processor has, or an unknown name, is ignored with a warning).
#[must_use]
pub fn vector_isa() -> VectorIsa {
    static CHOSEN: OnceLock<VectorIsa> = OnceLock::new();
    *CHOSEN.get_or_init(|| {
        let asked = std::env::var_os("THRONG_ISA");
        let (isa, warning) = choose(
            VectorIsa::detected(),
            asked.as_deref().map(|a| a.to_string_lossy()).as_deref(),
        );
        if let Some(warning) = warning {
            log::warn!("{warning}");
        }
        isa
    })
}

/// The family for a processor that has `detected` when `THRONG_ISA` is `asked`, and the
/// warning to give when `asked` cannot be followed.
fn choose(detected: VectorIsa, asked: Option<&str>) -> (VectorIsa, Option<String>) {
    let Some(asked) = asked else {
        return (detected, None);
    };
    let named = [VectorIsa::Portable, VectorIsa::Avx2, VectorIsa::Avx512]
        .into_iter()
        .find(|isa| isa.name() == asked);
    let why = match named {
        Some(isa) if isa <= detected => return (isa, None),
        Some(isa) => format!("this processor has no {}", isa.name()),
        None => "not one of portable, avx2, avx512".to_string(),
    };
    let warning = format!(
        "THRONG_ISA={}: {why}; using {}",
        crate::text::printable(asked),
        detected.name()
    );
    (detected, Some(warning))
}

/// How many instances one batch evaluates: 16 with AVX-512 (F and VL), 8 with AVX2, else 4
/// (see [`vector_isa`], which `THRONG_ISA` can lower).
#[must_use]
pub fn batch_lanes() -> usize {
    vector_isa().lanes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_can_lower_the_family_but_not_raise_it() {
        use VectorIsa::*;
        assert_eq!(choose(Avx512, None), (Avx512, None));
        assert_eq!(choose(Avx512, Some("avx2")), (Avx2, None));
        assert_eq!(choose(Avx2, Some("portable")), (Portable, None));
        assert_eq!(
            choose(Avx2, Some("avx512")),
            (
                Avx2,
                Some("THRONG_ISA=avx512: this processor has no avx512; using avx2".into())
            )
        );
        assert_eq!(
            choose(Portable, Some("sse\n")),
            (
                Portable,
                Some("THRONG_ISA=sse\\n: not one of portable, avx2, avx512; using portable".into())
            )
        );
    }
}
