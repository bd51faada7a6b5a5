//! The sun's mesh raster (`--mesh-raster compute`): the sun's coarser mesh levels, whose
//! triangles cover a few shadow-map texels each, rasterized by a compute pass into the shadow
//! map's depths ([`crate::gpu::features::shadow_splat`]) instead of by the shadow pass, as the
//! camera's are into the visibility buffer ([`crate::gpu::features::lit::mesh_compute`]). The
//! culling's draws pass plans which of the sun's lists it takes (`shaders/cull_draws.comp`:
//! the same levels and models as the camera's, one dispatch per model of its own) and leaves
//! them out of the shadow pass's draws; `mesh_shadow` (`shaders/mesh_shadow.comp`) then keeps
//! per texel the nearest depth of every planned triangle, with the shadow pass's winding and
//! depth bias, before the depths are copied into the shadow map and the shadow pass draws the
//! full meshes over them.

use crate::gpu::device::pipeline::Culling;
use crate::gpu::features::cull::Culled;
use crate::gpu::features::lit::mesh_compute::{self, RasterTarget};
use crate::gpu::features::{shadow, shadow_splat};
use crate::gpu::frame::declaration::{FrameDeclaration, compute};
use crate::gpu::frame::skinning::SkinTable;
use crate::gpu::graph::{Access, ResourceId, Stages};

/// The sun's coarser mesh levels into the shadow depths.
pub const NAME: &str = "mesh_shadow";

/// The same levels into the near cascade's square of them, through its matrix, where the
/// frame has one.
pub const NEAR_NAME: &str = "mesh_shadow_near";

/// Declares the sun's planned lists rasterized into the shadow map's `depths` (and into its
/// near cascade's square of them, where the frame has one), after the skin pass; nothing
/// unless the frame's shape asks for it.
pub fn declare(f: &mut FrameDeclaration, culled: &Culled, depths: Option<ResourceId>) {
    let Some(depths) = depths.filter(|_| f.shape.shadow_meshes_in_compute) else {
        return;
    };
    let pipeline = f.pipeline(compute("mesh shadow", "mesh_shadow.comp"));
    let c = *culled;
    let frame = f.frame;
    // The shadow pass culls front faces (shadow.rs): the back faces cast.
    let winding = mesh_compute::windings(Culling::Front);
    let bias = [
        shadow::BIAS.constant.to_bits(),
        shadow::BIAS.slope.to_bits(),
        0,
        0,
    ];
    let squares = if f.shape.shadow_cascade { 2 } else { 1 };
    for (name, near) in [(NAME, false), (NEAR_NAME, true)].into_iter().take(squares) {
        let mut p = f.pass(name, move |r| {
            let side = r.shared.shadow_size;
            let target = RasterTarget {
                name: "ShadowDepths",
                buffer: depths,
                phase: SkinTable::SHADOW_RASTER_PHASE,
                winding,
                size: [side, side],
                merge: bias,
                near_square: near.then(|| shadow_splat::near_square_offset(side)),
            };
            mesh_compute::record_raster(r, pipeline, &c, target)
        });
        mesh_compute::reads(&mut p, culled, frame.ring, frame.cull_inputs);
        p.read(culled.draws.skin_table, Access::IndirectRead)
            .write(depths, Access::StorageReadWrite(Stages::Compute))
            .finish();
    }
}
