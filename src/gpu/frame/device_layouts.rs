// The renderer's structs the GPU reads, each written once, as Rust and GLSL both read it:
// `gpu_layouts!` (src/layouts.rs) makes each entry a `#[repr(C)]` Rust struct in
// `gpu::frame::gpu_layouts`, and build.rs makes it the GLSL the shaders include as
// `renderer_layouts.glsl`. See src/layouts.rs for the notation.
//
// Plain tokens only: no `use`, no inner doc comments, since build.rs includes this file too.

gpu_layouts! {
    /// One look as the shaders read it (128 bytes, std430): a linear RGB factor per material, and 1
    /// where the material is drawn, 0 where the look hides it.
    GpuLook => Look {
        /// Per material index: RGB, and whether it is drawn (1 or 0).
        tints: [[f32; 4]; MAX_LOOK_TINTS],
    }

    /// The `CullFrame` block (std430, 384 bytes).
    CullFrame => CullView {
        /// The camera's frustum planes, `n . p + d >= 0` inside.
        camera_planes: [Vec4; 6],
        /// The shadow map's volume.
        light_planes: [Vec4; 6],
        /// xyz: the eye; w: pixels per world unit one unit in front of it.
        eye: Vec4,
        /// xyz: unit vector towards the sun; w: the ground's height.
        light: Vec4,
        /// x: allowed error in pixels; y: nearest distance; z: the lowest sun (sine of its
        /// elevation) a shadow is swept for; w: how many times that error a shadow's level may
        /// have ([`crate::crowd::visibility::SHADOW_ERROR_SCALE`]).
        lod: Vec4,
        /// x: instance records; y: models; z: `CULL_*` flags; w: most subsets of one model.
        counts: [u32; 4],
        /// x: a shadow-map texel's size in world units; y: the texels of error a shadow's level
        /// may have ([`crate::crowd::visibility::SHADOW_TEXEL_ERROR`]); z: the pixels of error
        /// baked frames may show before an instance needs exact palettes (read by the
        /// crowd-state pass).
        shadow: Vec4,
        /// World to the camera's clip space.
        view_proj: Mat4,
        /// x: [`OCCLUDER_RADIUS_PX`](crate::gpu::frame::culling::data::OCCLUDER_RADIUS_PX); y:
        /// [`OCCLUSION_BLOCK`](crate::gpu::frame::shader_interface::OCCLUSION_BLOCK); zw: the
        /// occlusion image's size.
        occlusion: Vec4,
        /// x: the height on screen, pixels, under which an instance is an impostor card, in part
        /// (`--impostor-px`); y: under which it is a card alone
        /// ([`crate::crowd::visibility::CARD_FADE`]).
        impostor: Vec4,
        /// x: vec4s the skin pass may fill this frame (0: every skinned pass skins in its
        /// vertex shader); y: the first mesh level the camera's mesh raster draws (0: none);
        /// z: the sun's; w unused.
        skin: [u32; 4],
        /// x: the near shadow cascade's reach ([`crate::scene::NearCascade::reach`]; 0: the
        /// frame has none), within which an instance's shadow is never a card; yzw unused.
        near_shadow: Vec4,
    }

    /// One model's `CullModel` (80 bytes).
    CullModel => CullModel {
        /// x: first record; y: records; z: first bound; w: mesh levels (1 to
        /// [`crate::crowd::visibility::LOD_LEVELS`]).
        range: [u32; 4],
        /// The error of levels 1 to 4, in model units.
        errors: Vec4,
        /// x: first draw range; y: subsets; z: clips its impostor atlas holds (0: none); w:
        /// the vertices the full mesh's triangles use (what the skin pass skins per instance
        /// drawn with it).
        draws: [u32; 4],
        /// The vertices levels 1 to 4 use (0 for levels the model does not have).
        level_vertices: [u32; 4],
        /// The triangles of levels 1 to 4 where the mesh raster may draw them
        /// (`shaders/mesh_raster.comp`); 0 where the graphics passes draw the level.
        level_triangles: [u32; 4],
    }

    /// A model-space box (`Bound`, 32 bytes).
    CullBound => Bound {
        /// Lowest corner (w unused).
        lo: Vec4,
        /// Highest corner (w unused).
        hi: Vec4,
    }

    /// `VkDrawIndexedIndirectCommand`, as `shaders/cull_draws.comp` writes it.
    #[derive(Eq)]
    DrawCommand => DrawCommand {
        /// Indices per instance.
        index_count: u32,
        /// Instances.
        instance_count: u32,
        /// First index in the model's index buffer.
        first_index: u32,
        /// Added to every index.
        vertex_offset: i32,
        /// Where the draw's list starts (see `list_start` in `shaders/cull.glsl`).
        first_instance: u32,
    }

    /// `VkDrawIndirectCommand`: one view's and model's impostor cards, as
    /// `shaders/cull_draws.comp` writes it.
    #[derive(Eq)]
    CardCommand => CardCommand {
        /// Four: a triangle strip, generated.
        vertex_count: u32,
        /// Cards.
        instance_count: u32,
        /// Zero.
        first_vertex: u32,
        /// Where the cards' list starts.
        first_instance: u32,
    }

    /// `vkCmdPushConstants` of `shaders/cull_draws.comp`: the views a dispatch builds draws for.
    DrawViews => DrawViewRange {
        /// The first view.
        first: u32,
        /// How many views.
        count: u32,
    }

    /// `vkCmdPushConstants` of `shaders/skin.comp`: the model a dispatch skins, and which of
    /// the culling's phases (0: the camera's and the sun's lists, 1: the camera's late list).
    SkinTarget => SkinTarget {
        /// The model.
        model: u32,
        /// The phase.
        phase: u32,
    }

    /// The `Frame` uniform block (std140, 864 bytes).
    FrameData => FrameUniforms {
        /// World to Vulkan clip space.
        view_proj: Mat4,
        /// World to view space.
        view: Mat4,
        /// View to clip space.
        proj: Mat4,
        /// Clip to view space.
        inv_proj: Mat4,
        /// World to the shadow map's clip space.
        light_view_proj: Mat4,
        /// xyz: unit vector towards the light.
        light_dir: Vec4,
        /// rgb: light colour times intensity.
        light_color: Vec4,
        /// Ambient from above.
        sky_color: Vec4,
        /// Ambient from below.
        ground_color: Vec4,
        /// xyz: the eye.
        camera_pos: Vec4,
        /// x, y: the ground quad's centre (world x, z); z: half its size; w: its height.
        ground_plane: Vec4,
        /// x: the ground's checker tile size.
        ground_tile: Vec4,
        /// xy: render size in pixels; zw: their reciprocals.
        target: Vec4,
        /// x: shadows on (0/1); y: one texel of a cascade's square of the shadow map, in v
        /// (and in u where the map holds one square); z: normal offset of the lookup (world
        /// units); w: shadow strength.
        shadow: Vec4,
        /// World to the near cascade's clip space
        /// ([`NearCascade`](crate::scene::NearCascade)).
        light_view_proj_near: Mat4,
        /// x: the near cascade serves this frame (0/1); y: its lookup's normal offset (world
        /// units); z: the band, in world units inside its receivers' box, over which it gives
        /// way to the whole box's; w: the share of the shadow map's width each cascade's
        /// square takes (1, or 0.5 where the map holds the near square beside the whole
        /// box's).
        shadow_near: Vec4,
        /// xyz: the near cascade's receivers' box, lower corner; w: 1 in the near cascade's
        /// copy of the frame (its passes draw only the sun's meshes the culling found within
        /// its reach), 0 in the frame's own.
        near_lo: Vec4,
        /// xyz: its upper corner.
        near_hi: Vec4,
        /// x: ambient occlusion on (0/1); y: radius (world units); z: depth bias; w: power.
        ssao: Vec4,
        /// x: [`crate::gpu::frame::settings::ViewMode::shader_value`].
        view_mode: [u32; 4],
        /// Hemisphere samples for the ambient occlusion.
        ssao_kernel: [Vec4; SSAO_KERNEL],
    }

    /// The `Draw` push-constant block (48 bytes): one model subset's material.
    DrawConstants => DrawMaterial {
        /// Linear RGBA base colour.
        base_color: Vec4,
        /// rgb: specular reflectance at normal incidence; w: the material's index in its mesh
        /// (which of an instance's look's tints applies).
        fresnel0: Vec4,
        /// x: roughness, y: alpha clip (0/1), z: has a normal map (0/1), w: -1 when the
        /// instance transform mirrors, else +1.
        params: Vec4,
    }

    /// One character as the HUD pass reads it (8 bytes).
    #[derive(Eq)]
    HudGlyph => HudGlyph {
        /// Its cell: column in the low 16 bits, line in the high 16.
        cell: u32,
        /// The character (ASCII, 0 to 127) in the low 8 bits; its colour above them
        /// ([`HudColor`](crate::gpu::features::hud::HudColor)).
        code: u32,
    }

    /// One cell camera as the shaders read it (`ImpostorView` in shaders/impostor.glsl).
    ViewData => ImpostorView {
        /// Model space to the cell's clip space.
        view_proj: Mat4,
        /// The cell's x axis (w unused).
        right: Vec4,
        /// Its y axis.
        up: Vec4,
        /// From the centre towards the camera.
        towards: Vec4,
        /// The sphere's centre (xyz) and radius (w).
        centre: Vec4,
    }

    /// The push constants of one bake draw (`BakeDraw` in shaders/impostor_bake.*).
    BakeDraw => BakeDrawConstants {
        /// Which cell camera (an index into the atlas's views).
        view: u32,
        /// The pose's first palette matrix.
        pose: u32,
        /// The subset's material index.
        material: u32,
        /// Unused.
        pad: u32,
        /// The subset's material colour.
        base_color: Vec4,
        /// x: roughness; y: alpha clip (0/1).
        params: Vec4,
    }

    /// The card shaders' push constants (`Card` in shaders/impostor_card.glsl).
    CardConstants => CardConstants {
        /// Directions per ring, rings, frames per clip, clips.
        grid: [u32; 4],
        /// xy: a picture's size in the atlas's uv; z: 1 when drawn from the sun; w: 1 when the
        /// fragment shader writes the picture's depth (the quad is then rasterized at a depth in
        /// front of every surface its picture stores: see `card_corner`).
        cell: Vec4,
        /// yzw: the model's reflectance at normal incidence (the atlas holds each texel's
        /// roughness; x unused).
        material: Vec4,
    }

    /// The mesh raster's and mesh shading's own push constants (`MeshConstants` in
    /// shaders/mesh_compute.glsl; the shading's follow a [`DrawConstants`]).
    MeshConstants => MeshConstants {
        /// x: the model; y: its first draw range; z: its subsets; w: the subset a shading
        /// dispatch lights.
        model: [u32; 4],
        /// x: the windings drawn (1: front, 2: back, 3: both); y: 1 where counter-clockwise
        /// on screen faces the eye; zw: the target's width and height.
        raster: [u32; 4],
        /// x: samples per pixel; y: 1 where the ground pass draws the ground (the shading
        /// tests its depth); zw unused. The sun's raster: x and y the shadow pass's depth
        /// bias (constant, slope), as the floats' bits.
        merge: [u32; 4],
    }

    /// `Ground` in shaders/ground.comp.
    GroundConstants => GroundConstants {
        /// The sky where no ground is (the forward pass's clear colour without this pass).
        background: [f32; 4],
    }

    /// `ExposureFrame` in shaders/exposure_measure.comp and shaders/exposure_apply.frag: what
    /// the auto exposure passes read each frame.
    ExposureConstants => ExposureConstants {
        /// The share of the way from the adapted value to this frame's measurement covered this
        /// frame (from the frame's time).
        rate: f32,
        /// log2 of the average luminance the exposure brings a frame to.
        target_log: f32,
        /// The range the adapted log2 luminance is kept in (a black frame is not brightened
        /// without bound, a white one not darkened without bound).
        min_log: f32,
        /// See `min_log`.
        max_log: f32,
    }
}
