// The numbers the GLSL in shaders/ and the Rust side must agree on (flags, views, counts,
// sizes), and the binding numbers of the resources the shared includes declare, each defined
// once, here. The Rust side binds descriptors by the shaders' names and reads each
// pipeline's layout and workgroup size from its SPIR-V (src/gpu/device/pipeline.rs), so a
// new shader may number its own bindings in the GLSL. build.rs includes this file and
// hands every SHADER_DEFINES entry to shaderc as a preprocessor macro, so a shader writes
// `binding = BINDING_RECORDS` or `local_size_x = CULL_GROUP` and a name it misspells fails
// the build.
//
// Each constant is written once, inside `shader_constants!`, which makes both the Rust
// constant and its SHADER_DEFINES entry from the same name and value: the two cannot differ.
//
// Plain constants only: no `use`, no paths into the crate, no inner doc comments, since the
// build script compiles this file on its own (`include!`). The exceptions are the numbers the
// crowd and motion own and the shaders read (src/crowd/gpu_codes.rs,
// src/motion/device_codes.rs, themselves plain constants): build.rs includes those files as
// its own `crowd` and `motion` modules, so `crate::crowd::...` and `crate::motion::...`
// resolve there as in the library. tests/gpu_layouts.rs checks that the SPIR-V's bindings are
// these.

/// Defines each constant and lists it, by the same name and value, in `SHADER_DEFINES`.
macro_rules! shader_constants {
    ($($(#[$doc:meta])* $name:ident: $ty:ty = $value:expr;)*) => {
        $($(#[$doc])* pub const $name: $ty = $value;)*

        /// Every constant of this file as (macro name, value): what `build.rs` defines for
        /// every shader.
        #[allow(clippy::unnecessary_cast)] // some constants are u32 already, some usize
        pub const SHADER_DEFINES: &[(&str, u32)] = &[$((stringify!($name), $name as u32)),*];
    };
}

shader_constants! {
    // ---- Graphics passes, set 0 (pushed; `Layouts::set` in src/gpu/pipeline_builder.rs) ----

    /// Binding of the instance records (storage buffer).
    BINDING_RECORDS: u32 = 0;
    /// Binding of the palettes (storage buffer).
    BINDING_PALETTES: u32 = 1;
    /// Binding of the frame uniforms.
    BINDING_FRAME: u32 = 2;
    /// Binding of the base colour map.
    BINDING_BASE_COLOR: u32 = 3;
    /// Binding of the normal map.
    BINDING_NORMAL: u32 = 4;
    /// Binding of the shadow map (comparison sampler).
    BINDING_SHADOW_MAP: u32 = 5;
    /// Binding of the blurred ambient occlusion.
    BINDING_AO: u32 = 6;
    /// Binding of the image a debug view shows.
    BINDING_DEBUG_SOURCE: u32 = 7;
    /// Binding of the baked frames (storage buffer).
    BINDING_BAKED: u32 = 8;
    /// Binding of the culling pass's visible lists (storage buffer).
    BINDING_VISIBLE: u32 = 9;
    /// Binding of the crowd's looks (storage buffer, `Looks` in shaders/looks.glsl; after the
    /// impostor cards' own bindings, 10 to 12, in shaders/impostor_card.glsl).
    BINDING_LOOKS: u32 = 13;
    /// Binding of the sun's light the camera's passes wrote without a prepass (the composite
    /// pass, shaders/ambient_composite.frag).
    BINDING_DIRECT_LIGHT: u32 = 14;
    /// Binding of the sky's light before occlusion, beside it.
    BINDING_AMBIENT_LIGHT: u32 = 15;
    /// Binding of the skin pass's table (shaders/skin_table.glsl): where each visible list's
    /// vertices were skinned to. Above every other pass's own numbers, so a skinned pass may
    /// include anything.
    BINDING_SKIN_TABLE: u32 = 25;
    /// Binding of the vertices the skin pass skinned (`Skinned`, vec4s).
    BINDING_SKINNED: u32 = 26;
    /// Binding of a model's level tables (`SkinLevels`, src/gpu/frame/model_buffers.rs): each
    /// level's vertex count, and which of the mesh's vertices it uses.
    BINDING_SKIN_LEVELS: u32 = 27;
    /// Binding of a model's vertices read as words by the skin pass (`MeshVertices`).
    BINDING_MESH_VERTICES: u32 = 28;
    /// Binding of a model's indices read as words by the mesh raster (`MeshIndices`).
    BINDING_MESH_INDICES: u32 = 29;
    /// Binding of the culling inputs' draw ranges read by the mesh raster (`DrawRanges`).
    BINDING_DRAW_RANGES: u32 = 30;

    // ---- Culling passes, set 0 (`Layouts::cull_set`) ----

    /// Culling passes, set 0: the instance records.
    CULL_RECORDS: u32 = 0;
    /// Culling: the frame's views (`CullFrame`).
    CULL_FRAME: u32 = 1;
    /// Culling: the models.
    CULL_MODELS: u32 = 2;
    /// Culling: the models' bounds.
    CULL_BOUNDS: u32 = 3;
    /// Culling: the models' draw ranges.
    CULL_DRAW_RANGES: u32 = 4;
    /// Culling: the counters.
    CULL_COUNTERS: u32 = 5;
    /// Culling: the visible lists (the cull pass), or the draw counts (the draws pass).
    CULL_OUTPUT: u32 = 6;
    /// Culling: the indirect commands (the draws pass).
    CULL_COMMANDS: u32 = 7;
    /// Culling: the occlusion image (the late cull pass; a combined image sampler).
    CULL_OCCLUSION_DEPTH: u32 = 8;
    /// Culling: the instances waiting for the occlusion test.
    CULL_CANDIDATES: u32 = 9;
    /// Culling: the impostor cards' indirect commands, `[view][model]` (the draws pass).
    CULL_CARD_COMMANDS: u32 = 10;
    /// Culling: the skin pass's table (the draws pass reserves room there for each list).
    CULL_SKIN_TABLE: u32 = 11;

    // ---- Compute passes (SSAO, its blur, the occlusion image), set 0 (`Layouts::compute_set`) ----

    /// Compute passes (SSAO and its blur), set 0: the depth buffer.
    COMPUTE_DEPTH: u32 = 0;
    /// Compute: the second input (normals for SSAO, raw AO for the blur).
    COMPUTE_INPUT: u32 = 1;
    /// Compute: the frame uniforms (the same block and binding as the graphics passes).
    COMPUTE_FRAME: u32 = 2;
    /// Compute: the rotation noise.
    COMPUTE_NOISE: u32 = 3;
    /// Compute: the storage image written.
    COMPUTE_OUTPUT: u32 = 4;

    // ---- Culling: views, flags, sizes (src/gpu/frame/culling/data.rs re-exports them) ----

    /// Views the culling passes fill lists for: the camera (the instances drawn first), what
    /// shadows it, and the camera's late list (what the occlusion test let through).
    VIEWS: usize = 3;
    /// The camera's view (with occlusion culling: the instances large enough to hide others).
    VIEW_CAMERA: usize = 0;
    /// The shadow map's view.
    VIEW_SHADOW: usize = 1;
    /// The camera's late view: small instances the occlusion test found may be seen.
    VIEW_CAMERA_LATE: usize = 2;

    /// `CullFrame::counts.z`: test bounds against the views.
    CULL_FRUSTUM: u32 = 1;
    /// `CullFrame::counts.z`: choose levels by projected error.
    CULL_LOD: u32 = 2;
    /// `CullFrame::counts.z`: fill the shadow view's lists.
    CULL_SHADOWS: u32 = 4;
    /// `CullFrame::counts.z`: small instances wait for the occlusion test.
    CULL_OCCLUSION: u32 = 8;
    /// `CullFrame::counts.z`: instances shorter on screen than `CullFrame::impostor.x` pixels
    /// whose model has an impostor atlas go into the card lists.
    CULL_IMPOSTORS: u32 = 16;

    /// Pixels per occlusion texel (each holds the farthest depth of a block this wide).
    OCCLUSION_BLOCK: u32 = 8;

    /// Workgroup size of the culling shaders (`cull.comp`, `cull_late.comp`, `cull_draws.comp`).
    CULL_GROUP: u32 = 64;
    /// Invocations per workgroup of `skin.comp` (one vertex of one instance each). With a
    /// dispatch of at most 65,535 groups this bounds the skinned buffer (see
    /// [`SKIN_MAX_VEC4S`]).
    SKIN_GROUP: u32 = 256;
    /// Workgroup width and height of `occlusion_depth.comp`.
    OCCLUSION_GROUP: u32 = 8;
    /// Workgroup width and height of `ssao.comp` and `ssao_blur.comp`.
    SSAO_GROUP: u32 = 8;

    /// Mesh levels a model may draw with (the crowd's).
    LOD_LEVELS: usize = crate::crowd::LOD_LEVELS;
    /// The list after the mesh levels: the instances drawn as impostor cards.
    CARD_LEVEL: usize = 5;
    /// Lists per view and model: the mesh levels, then the cards.
    LIST_LEVELS: usize = 6;
    /// A visible list's entry: the record's index in its low bits (so a crowd numbers at most
    /// this many instances and one)...
    VISIBLE_RECORD_MASK: u32 = 0x00ff_ffff;
    /// ...and above them how much of the instance its mesh draws, in 255ths (255: the mesh
    /// alone; 0: the card alone; between, while it crosses the impostor threshold, both,
    /// each in its share of a dither pattern).
    VISIBLE_SHARE_SHIFT: u32 = 24;

    // ---- Skinning once per frame (src/gpu/features/skin.rs, shaders/skin_table.glsl) ----

    /// A list the skin pass did not skin (no room, or skinning in the vertex stage): its
    /// vertex shaders skin each vertex themselves.
    SKIN_NONE: u32 = 0xffff_ffff;
    /// vec4s per vertex skinned for the camera's views: position, normal, tangent.
    SKIN_CAMERA_VEC4S: u32 = 3;
    /// vec4s per vertex skinned for the sun's view: the position alone.
    SKIN_SHADOW_VEC4S: u32 = 1;
    /// The most vec4s the skinned buffer may hold, (65,535 - 16) x [`SKIN_GROUP`]: one
    /// model's skin dispatch of one phase (at most ten lists, each rounded up to a whole
    /// workgroup) stays within the 65,535 workgroups every device dispatches.
    SKIN_MAX_VEC4S: u32 = 16_772_864;
    /// Triangles one workgroup of the mesh raster takes (`shaders/mesh_raster.comp`: 64
    /// threads, four each); a list starts on a whole workgroup.
    RASTER_GROUP_TRIANGLES: u32 = 256;
    /// The most workgroups one model's mesh raster dispatch runs (what every device
    /// dispatches): the lists past it are drawn by the lit passes. A triangle's place in it
    /// (under 2^24) and its model (under [`RASTER_MODELS`]) name it in the visibility buffer.
    RASTER_MAX_GROUPS: u32 = 65535;
    /// Models whose levels the mesh raster may draw: the first 128.
    RASTER_MODELS: u32 = 128;
    /// Words of one [`crate::anim::Vertex`] as the skin pass reads it (position 0, normal 3,
    /// tangent 6, uv 10, joints 12 as two pairs of u16, weights 14).
    VERTEX_WORDS: u32 = 18;

    // ---- Instance records (the crowd's own: src/crowd/gpu_codes.rs) ----

    /// `InstanceRecord::model_flags`: the palette comes from the baked frames.
    RECORD_BAKED: u32 = crate::crowd::RECORD_BAKED;
    /// `InstanceRecord::model_flags`: the model index's bits.
    RECORD_MODEL_MASK: u32 = crate::crowd::RECORD_MODEL_MASK;
    /// `InstanceRecord::model_flags`: where the instance's look starts.
    RECORD_LOOK_SHIFT: u32 = crate::crowd::RECORD_LOOK_SHIFT;
    /// `InstanceRecord::model_flags`: the look's bits.
    RECORD_LOOK_MASK: u32 = crate::crowd::RECORD_LOOK_MASK;
    /// Materials a look tints.
    MAX_LOOK_TINTS: usize = crate::crowd::MAX_LOOK_TINTS;
    /// `InstanceRecord::joints`: the joint count's bits (the clip's phase is above them).
    RECORD_JOINTS_MASK: u32 = crate::crowd::RECORD_JOINTS_MASK;
    /// `InstanceRecord::joints`: where the clip's phase starts.
    RECORD_PHASE_SHIFT: u32 = crate::crowd::RECORD_PHASE_SHIFT;

    // ---- The crowd's state on the GPU (the codes are motion's own: src/motion/device_codes.rs) ----

    /// Invocations per workgroup of the crowd-state pass.
    CROWD_STATE_GROUP: u32 = 64;
    /// Distance bands the crowd-state pass counts the instances needing exact palettes in
    /// (`near_band` in shaders/crowd_state.comp, `near_band_start` in src/gpu/features/crowd_state/state.rs):
    /// [`NEAR_BANDS_PER_OCTAVE`] per doubling of the distance, the first from
    /// 2^-[`NEAR_BAND_FIRST_OCTAVE`] world units (nearer counts in it, farther in the last).
    NEAR_BANDS: u32 = 1024;
    /// Bands per doubling of the distance: each 2.2% deeper than the last, so the band where
    /// the list is cut holds few instances even in a dense crowd.
    NEAR_BANDS_PER_OCTAVE: u32 = 32;
    /// The first band starts at 2 to the minus this, world units (the last at 2^20).
    NEAR_BAND_FIRST_OCTAVE: u32 = 12;
    /// `DeviceWalker::flags`: playback clamps at the clip's ends.
    CROWD_WALKER_CLAMP: u32 = crate::motion::WALKER_CLAMP;
    /// `DeviceStep::route`: straight lanes.
    CROWD_ROUTE_LANES: u32 = crate::motion::ROUTE_LANES;
    /// `DeviceStep::route`: rings about the origin.
    CROWD_ROUTE_RINGS: u32 = crate::motion::ROUTE_RINGS;
    /// `DeviceCommand::kind`: moved.
    CROWD_COMMAND_MOVED: u32 = crate::motion::COMMAND_MOVED;
    /// `DeviceCommand::kind`: a clip played.
    CROWD_COMMAND_PLAYED: u32 = crate::motion::COMMAND_PLAYED;
    /// `DeviceCommand::kind`: the clock replaced.
    CROWD_COMMAND_REPLACED: u32 = crate::motion::COMMAND_REPLACED;
    /// `DeviceCommand::kind`: the instance wears another look.
    CROWD_COMMAND_RESTYLED: u32 = crate::motion::COMMAND_RESTYLED;
    /// `DeviceCommand::kind`: a new instance.
    CROWD_COMMAND_SPAWNED: u32 = crate::motion::COMMAND_SPAWNED;
    /// `DeviceCommand::kind`: an instance removed, the last taking its place.
    CROWD_COMMAND_DESPAWNED: u32 = crate::motion::COMMAND_DESPAWNED;
    /// `DeviceCommand::kind`: an instance's record moved.
    CROWD_COMMAND_RESLOTTED: u32 = crate::motion::COMMAND_RESLOTTED;
    /// `DeviceCommand::kind`: the instance plays at another rate.
    CROWD_COMMAND_PACED: u32 = crate::motion::COMMAND_PACED;
    /// `DeviceTrack::flags`: the slot holds a pedestrian.
    TRACK_OCCUPIED: u32 = crate::motion::TRACK_OCCUPIED;
    /// `DeviceTrack::flags`: the pedestrian has entered.
    TRACK_ENTERED: u32 = crate::motion::TRACK_ENTERED;
    /// `DeviceTrackCommand::kind`: a pedestrian assigned to a slot.
    TRACK_ASSIGN: u32 = crate::motion::TRACK_ASSIGN;
    /// `DeviceTrackCommand::kind`: a slot emptied.
    TRACK_CLEAR: u32 = crate::motion::TRACK_CLEAR;
    /// No look, no stance profile.
    TRACK_NONE: u32 = crate::motion::TRACK_NONE;
    /// A ramp step not taken yet.
    TRACK_NO_STEP: u32 = crate::motion::TRACK_NO_STEP;
    /// Steps of the colour ramp a track's model holds looks for.
    TRACK_RAMP_STEPS: u32 = crate::motion::RAMP_STEPS;
    /// Invocations per workgroup of the tracks' passes.
    TRACK_GROUP: u32 = 64;
    /// The radius a pedestrian's neighbours are counted in for its density, millimetres
    /// (`crate::motion::DENSITY_RADIUS`; also the side of the cells they are hashed by).
    TRACK_DENSITY_RADIUS_MM: u32 = crate::motion::DENSITY_RADIUS_MM;

    // ---- Frame uniforms (src/gpu/uniforms.rs) ----

    /// The ambient occlusion is computed at the render size divided by this.
    AO_SCALE: u32 = 2;
    /// Samples in the ambient-occlusion kernel.
    SSAO_KERNEL: usize = 16;

    /// `Frame::view_mode.x`: the lit image.
    VIEW_MODE_FINAL: u32 = 0;
    /// `Frame::view_mode.x`: characters white on black.
    VIEW_MODE_SILHOUETTE: u32 = 1;
    /// `Frame::view_mode.x`: the blurred ambient occlusion.
    VIEW_MODE_AO: u32 = 2;
    /// `Frame::view_mode.x`: the prepass's view-space normals.
    VIEW_MODE_NORMALS: u32 = 3;
    /// `Frame::view_mode.x`: the prepass's depth, linearized.
    VIEW_MODE_DEPTH: u32 = 4;
    /// `Frame::view_mode.x`: the shadow map.
    VIEW_MODE_SHADOW: u32 = 5;
}
