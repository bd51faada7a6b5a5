// The numbers the GLSL in shaders/ and the Rust side must agree on: descriptor bindings,
// flags, counts and workgroup sizes, each defined once, here. build.rs includes this file and
// hands every SHADER_DEFINES entry to shaderc as a preprocessor macro, so a shader writes
// `binding = BINDING_RECORDS` or `local_size_x = CULL_GROUP` and a name it misspells (or one
// missing from SHADER_DEFINES) fails the build.
//
// Plain constants only: no `use`, no paths into the crate, no inner doc comments, since the
// build script compiles this file on its own (`include!`). tests/gpu_layouts.rs checks that
// every constant is in SHADER_DEFINES and that the SPIR-V's bindings are these.

// ---- Graphics passes, set 0 (pushed; `Layouts::set` in src/gpu/pipeline_builder.rs) ----

/// Binding of the instance records (storage buffer).
pub const BINDING_RECORDS: u32 = 0;
/// Binding of the palettes (storage buffer).
pub const BINDING_PALETTES: u32 = 1;
/// Binding of the frame uniforms.
pub const BINDING_FRAME: u32 = 2;
/// Binding of the base colour map.
pub const BINDING_BASE_COLOR: u32 = 3;
/// Binding of the normal map.
pub const BINDING_NORMAL: u32 = 4;
/// Binding of the shadow map (comparison sampler).
pub const BINDING_SHADOW_MAP: u32 = 5;
/// Binding of the blurred ambient occlusion.
pub const BINDING_AO: u32 = 6;
/// Binding of the image a debug view shows.
pub const BINDING_DEBUG_SOURCE: u32 = 7;
/// Binding of the baked frames (storage buffer).
pub const BINDING_BAKED: u32 = 8;
/// Binding of the culling pass's visible lists (storage buffer).
pub const BINDING_VISIBLE: u32 = 9;

// ---- Culling passes, set 0 (`Layouts::cull_set`) ----

/// Culling passes, set 0: the instance records.
pub const CULL_RECORDS: u32 = 0;
/// Culling: the frame's views (`CullFrame`).
pub const CULL_FRAME: u32 = 1;
/// Culling: the models.
pub const CULL_MODELS: u32 = 2;
/// Culling: the models' bounds.
pub const CULL_BOUNDS: u32 = 3;
/// Culling: the models' draw ranges.
pub const CULL_DRAW_RANGES: u32 = 4;
/// Culling: the counters.
pub const CULL_COUNTERS: u32 = 5;
/// Culling: the visible lists (the cull pass), or the draw counts (the draws pass).
pub const CULL_OUTPUT: u32 = 6;
/// Culling: the indirect commands (the draws pass).
pub const CULL_COMMANDS: u32 = 7;
/// Culling: the occlusion image (the late cull pass; a combined image sampler).
pub const CULL_OCCLUSION_DEPTH: u32 = 8;
/// Culling: the instances waiting for the occlusion test.
pub const CULL_CANDIDATES: u32 = 9;

// ---- Compute passes (SSAO, its blur, the occlusion image), set 0 (`Layouts::compute_set`) ----

/// Compute passes (SSAO and its blur), set 0: the depth buffer.
pub const COMPUTE_DEPTH: u32 = 0;
/// Compute: the second input (normals for SSAO, raw AO for the blur).
pub const COMPUTE_INPUT: u32 = 1;
/// Compute: the frame uniforms (the same block and binding as the graphics passes).
pub const COMPUTE_FRAME: u32 = 2;
/// Compute: the rotation noise.
pub const COMPUTE_NOISE: u32 = 3;
/// Compute: the storage image written.
pub const COMPUTE_OUTPUT: u32 = 4;

// ---- Culling: views, flags, sizes (src/gpu/cull_data.rs re-exports them) ----

/// Views the culling passes fill lists for: the camera (the instances drawn first), what
/// shadows it, and the camera's late list (what the occlusion test let through).
pub const VIEWS: usize = 3;
/// The camera's view (with occlusion culling: the instances large enough to hide others).
pub const VIEW_CAMERA: usize = 0;
/// The shadow map's view.
pub const VIEW_SHADOW: usize = 1;
/// The camera's late view: small instances the occlusion test found may be seen.
pub const VIEW_CAMERA_LATE: usize = 2;

/// `CullFrame::counts.z`: test bounds against the views.
pub const CULL_FRUSTUM: u32 = 1;
/// `CullFrame::counts.z`: choose levels by projected error.
pub const CULL_LOD: u32 = 2;
/// `CullFrame::counts.z`: fill the shadow view's lists.
pub const CULL_SHADOWS: u32 = 4;
/// `CullFrame::counts.z`: small instances wait for the occlusion test.
pub const CULL_OCCLUSION: u32 = 8;

/// Pixels per occlusion texel (each holds the farthest depth of a block this wide).
pub const OCCLUSION_BLOCK: u32 = 8;

/// Workgroup size of the culling shaders (`cull.comp`, `cull_late.comp`, `cull_draws.comp`).
pub const CULL_GROUP: u32 = 64;
/// Workgroup width and height of `occlusion_depth.comp`.
pub const OCCLUSION_GROUP: u32 = 8;
/// Workgroup width and height of `ssao.comp` and `ssao_blur.comp`.
pub const SSAO_GROUP: u32 = 8;

/// Mesh levels a model may draw with. A copy of `crowd::visibility::LOD_LEVELS` (the crowd
/// does not depend on the renderer); tests/gpu_layouts.rs checks they agree.
pub const LOD_LEVELS: usize = 5;

// ---- Instance records (copies of src/crowd/record.rs; tests/gpu_layouts.rs checks them) ----

/// `InstanceRecord::model_flags`: the palette comes from the baked frames.
pub const RECORD_BAKED: u32 = 1 << 16;
/// `InstanceRecord::model_flags`: the model index's bits.
pub const RECORD_MODEL_MASK: u32 = 0xffff;

// ---- Frame uniforms (src/gpu/uniforms.rs) ----

/// The ambient occlusion is computed at the render size divided by this.
pub const AO_SCALE: u32 = 2;
/// Samples in the ambient-occlusion kernel.
pub const SSAO_KERNEL: usize = 16;

/// `Frame::view_mode.x`: the lit image.
pub const VIEW_MODE_FINAL: u32 = 0;
/// `Frame::view_mode.x`: characters white on black.
pub const VIEW_MODE_SILHOUETTE: u32 = 1;
/// `Frame::view_mode.x`: the blurred ambient occlusion.
pub const VIEW_MODE_AO: u32 = 2;
/// `Frame::view_mode.x`: the prepass's view-space normals.
pub const VIEW_MODE_NORMALS: u32 = 3;
/// `Frame::view_mode.x`: the prepass's depth, linearized.
pub const VIEW_MODE_DEPTH: u32 = 4;
/// `Frame::view_mode.x`: the shadow map.
pub const VIEW_MODE_SHADOW: u32 = 5;

/// Every constant above as (macro name, value): what `build.rs` defines for every shader.
pub const SHADER_DEFINES: &[(&str, u32)] = &[
    ("BINDING_RECORDS", BINDING_RECORDS),
    ("BINDING_PALETTES", BINDING_PALETTES),
    ("BINDING_FRAME", BINDING_FRAME),
    ("BINDING_BASE_COLOR", BINDING_BASE_COLOR),
    ("BINDING_NORMAL", BINDING_NORMAL),
    ("BINDING_SHADOW_MAP", BINDING_SHADOW_MAP),
    ("BINDING_AO", BINDING_AO),
    ("BINDING_DEBUG_SOURCE", BINDING_DEBUG_SOURCE),
    ("BINDING_BAKED", BINDING_BAKED),
    ("BINDING_VISIBLE", BINDING_VISIBLE),
    ("CULL_RECORDS", CULL_RECORDS),
    ("CULL_FRAME", CULL_FRAME),
    ("CULL_MODELS", CULL_MODELS),
    ("CULL_BOUNDS", CULL_BOUNDS),
    ("CULL_DRAW_RANGES", CULL_DRAW_RANGES),
    ("CULL_COUNTERS", CULL_COUNTERS),
    ("CULL_OUTPUT", CULL_OUTPUT),
    ("CULL_COMMANDS", CULL_COMMANDS),
    ("CULL_OCCLUSION_DEPTH", CULL_OCCLUSION_DEPTH),
    ("CULL_CANDIDATES", CULL_CANDIDATES),
    ("COMPUTE_DEPTH", COMPUTE_DEPTH),
    ("COMPUTE_INPUT", COMPUTE_INPUT),
    ("COMPUTE_FRAME", COMPUTE_FRAME),
    ("COMPUTE_NOISE", COMPUTE_NOISE),
    ("COMPUTE_OUTPUT", COMPUTE_OUTPUT),
    ("VIEWS", VIEWS as u32),
    ("VIEW_CAMERA", VIEW_CAMERA as u32),
    ("VIEW_SHADOW", VIEW_SHADOW as u32),
    ("VIEW_CAMERA_LATE", VIEW_CAMERA_LATE as u32),
    ("CULL_FRUSTUM", CULL_FRUSTUM),
    ("CULL_LOD", CULL_LOD),
    ("CULL_SHADOWS", CULL_SHADOWS),
    ("CULL_OCCLUSION", CULL_OCCLUSION),
    ("OCCLUSION_BLOCK", OCCLUSION_BLOCK),
    ("CULL_GROUP", CULL_GROUP),
    ("OCCLUSION_GROUP", OCCLUSION_GROUP),
    ("SSAO_GROUP", SSAO_GROUP),
    ("LOD_LEVELS", LOD_LEVELS as u32),
    ("RECORD_BAKED", RECORD_BAKED),
    ("RECORD_MODEL_MASK", RECORD_MODEL_MASK),
    ("AO_SCALE", AO_SCALE),
    ("SSAO_KERNEL", SSAO_KERNEL as u32),
    ("VIEW_MODE_FINAL", VIEW_MODE_FINAL),
    ("VIEW_MODE_SILHOUETTE", VIEW_MODE_SILHOUETTE),
    ("VIEW_MODE_AO", VIEW_MODE_AO),
    ("VIEW_MODE_NORMALS", VIEW_MODE_NORMALS),
    ("VIEW_MODE_DEPTH", VIEW_MODE_DEPTH),
    ("VIEW_MODE_SHADOW", VIEW_MODE_SHADOW),
];
