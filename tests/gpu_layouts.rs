//! The GLSL layouts in `shaders/` and the Rust structs they mirror stay in step, and every
//! descriptor binding a shader declares is the `src/gpu/frame/shader_interface.rs` constant of its
//! name, with the descriptor type the shaders of its family share (the pipelines' layouts are
//! read from the shaders themselves, `src/gpu/device/pipeline.rs`, and the passes bind by
//! these names: a name's number and type agreeing across shaders is what lets one set of
//! binds serve several pipelines).
//!
//! Reads the SPIR-V the library embeds (compiled with debug info, so names survive) with a
//! small reader written here, and compares every member offset, array stride and block size
//! the compiler chose with `offset_of!` / `size_of!` of the Rust side: `InstanceRecord`
//! (`src/crowd/record.rs`), `Mat3x4` (`src/anim/matrix.rs`), `FrameData` and `DrawConstants`
//! (`src/gpu/uniforms.rs`), and the vertex input of the skinned pipeline
//! (`src/gpu/device/pipeline.rs`) against the shader's `in_*` locations and types. Every module the
//! frame graph uses is read (forward, shadow, depth/normal prepass, SSAO compute, debug
//! view): all that include `frame.glsl` must agree on the `Frame` block and its binding.
//! Needs no GPU (`tests/gpu_shader_bindings.rs` builds every pipeline the passes register
//! under the validation layer).

use std::collections::HashMap;
use std::mem::{offset_of, size_of, size_of_val};

use bytemuck::Zeroable;
use glam::Vec4;
use throng::anim::{Mat3x4, Vertex};
use throng::crowd::InstanceRecord;
use throng::gpu::cull_data::{CardCommand, CullBound, CullFrame, CullModel, DrawCommand};
use throng::gpu::frame::gpu_layouts::MeshConstants;
use throng::gpu::frame::shader_interface::SHADER_DEFINES;
use throng::gpu::frame::shader_interface::{
    BINDING_AMBIENT_LIGHT, BINDING_AO, BINDING_BAKED, BINDING_BASE_COLOR, BINDING_DEBUG_SOURCE,
    BINDING_DIRECT_LIGHT, BINDING_FRAME, BINDING_LOOKS, BINDING_MESH_VERTICES, BINDING_NORMAL,
    BINDING_PALETTES, BINDING_RECORDS, BINDING_SHADOW_MAP, BINDING_SKIN_LEVELS, BINDING_SKIN_TABLE,
    BINDING_SKINNED, BINDING_VISIBLE, COMPUTE_DEPTH, COMPUTE_FRAME, COMPUTE_INPUT, COMPUTE_NOISE,
    COMPUTE_OUTPUT, CULL_BOUNDS, CULL_CANDIDATES, CULL_CARD_COMMANDS, CULL_COMMANDS, CULL_COUNTERS,
    CULL_DRAW_RANGES, CULL_FRAME, CULL_MODELS, CULL_OCCLUSION_DEPTH, CULL_OUTPUT, CULL_RECORDS,
    CULL_SKIN_TABLE,
};
use throng::gpu::shaders::{
    CULL_COMP, CULL_DRAWS_COMP, CULL_LATE_COMP, DEBUG_VIEW_FRAG, DEPTH_NORMAL_FRAG,
    FULLSCREEN_VERT, GROUND_FRAG, GROUND_NORMAL_FRAG, GROUND_VERT, OCCLUSION_DEPTH_COMP,
    SHADOW_VERT, SKINNED_FRAG, SKINNED_VERT, SSAO_BLUR_COMP, SSAO_COMP, named,
};
use throng::gpu::{DrawConstants, FrameData};

// ---------------------------------------------------------------------------------------
// A SPIR-V reader: just the instructions that describe names, types and layouts.
// ---------------------------------------------------------------------------------------

const MAGIC: u32 = 0x0723_0203;

const OP_NAME: u32 = 5;
const OP_MEMBER_NAME: u32 = 6;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_VECTOR: u32 = 23;
const OP_TYPE_MATRIX: u32 = 24;
const OP_TYPE_IMAGE: u32 = 25;
const OP_TYPE_SAMPLER: u32 = 26;
const OP_TYPE_SAMPLED_IMAGE: u32 = 27;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_RUNTIME_ARRAY: u32 = 29;
const OP_TYPE_STRUCT: u32 = 30;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_VARIABLE: u32 = 59;
const OP_DECORATE: u32 = 71;
const OP_MEMBER_DECORATE: u32 = 72;

const DEC_BLOCK: u32 = 2;
const DEC_COL_MAJOR: u32 = 5;
const DEC_ARRAY_STRIDE: u32 = 6;
const DEC_MATRIX_STRIDE: u32 = 7;
const DEC_LOCATION: u32 = 30;
const DEC_BINDING: u32 = 33;
const DEC_DESCRIPTOR_SET: u32 = 34;
const DEC_OFFSET: u32 = 35;

const STORAGE_UNIFORM_CONSTANT: u32 = 0;
const STORAGE_INPUT: u32 = 1;
const STORAGE_UNIFORM: u32 = 2;
const STORAGE_PUSH_CONSTANT: u32 = 9;
const STORAGE_STORAGE_BUFFER: u32 = 12;

#[derive(Clone, Debug, PartialEq)]
enum Type {
    Int {
        width: u32,
        signed: bool,
    },
    Float {
        width: u32,
    },
    Vector {
        component: u32,
        count: u32,
    },
    Matrix {
        column: u32,
        count: u32,
    },
    /// `sampled`: 1 read through a sampler, 2 a storage image.
    Image {
        sampled: u32,
    },
    Sampler,
    SampledImage {
        image: u32,
    },
    Array {
        element: u32,
        length: u32,
    },
    RuntimeArray {
        element: u32,
    },
    Struct {
        members: Vec<u32>,
    },
    Pointer {
        storage: u32,
        pointee: u32,
    },
}

/// Decorations of one target: (decoration, its literal operands).
type Decorations = Vec<(u32, Vec<u32>)>;

#[derive(Default)]
struct Module {
    name: &'static str,
    names: HashMap<u32, String>,
    member_names: HashMap<(u32, u32), String>,
    decorations: HashMap<u32, Decorations>,
    member_decorations: HashMap<(u32, u32), Decorations>,
    types: HashMap<u32, Type>,
    /// id -> first literal word of an OpConstant (enough for array lengths)
    constants: HashMap<u32, u32>,
    /// variable id -> (pointer type id, storage class)
    variables: HashMap<u32, (u32, u32)>,
    /// structs in declaration order (glslang emits duplicates with different layouts)
    struct_order: Vec<u32>,
}

/// A nul-terminated UTF-8 string packed little-endian into words.
fn string(words: &[u32], what: &str) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes
        .iter()
        .position(|&b| b == 0)
        .unwrap_or_else(|| panic!("{what}: string without a terminating nul"));
    String::from_utf8(bytes[..end].to_vec()).unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"))
}

impl Module {
    fn parse(name: &'static str, bytes: &[u8]) -> Self {
        assert_eq!(
            bytes.len() % 4,
            0,
            "{name}: {} bytes is not whole words",
            bytes.len()
        );
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert!(words.len() > 5, "{name}: shorter than a SPIR-V header");
        assert_eq!(words[0], MAGIC, "{name}: not little-endian SPIR-V");
        let mut m = Module {
            name,
            ..Module::default()
        };
        let mut at = 5;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            let op = words[at] & 0xffff;
            assert!(
                count > 0 && at + count <= words.len(),
                "{name}: instruction at word {at} (opcode {op}) has bad word count {count}"
            );
            let args = &words[at + 1..at + count];
            let what = || format!("{name}: opcode {op} at word {at}");
            match op {
                OP_NAME => {
                    m.names.insert(args[0], string(&args[1..], &what()));
                }
                OP_MEMBER_NAME => {
                    m.member_names
                        .insert((args[0], args[1]), string(&args[2..], &what()));
                }
                OP_DECORATE => m
                    .decorations
                    .entry(args[0])
                    .or_default()
                    .push((args[1], args[2..].to_vec())),
                OP_MEMBER_DECORATE => m
                    .member_decorations
                    .entry((args[0], args[1]))
                    .or_default()
                    .push((args[2], args[3..].to_vec())),
                OP_TYPE_INT => {
                    m.types.insert(
                        args[0],
                        Type::Int {
                            width: args[1],
                            signed: args[2] != 0,
                        },
                    );
                }
                OP_TYPE_FLOAT => {
                    m.types.insert(args[0], Type::Float { width: args[1] });
                }
                OP_TYPE_VECTOR => {
                    m.types.insert(
                        args[0],
                        Type::Vector {
                            component: args[1],
                            count: args[2],
                        },
                    );
                }
                OP_TYPE_MATRIX => {
                    m.types.insert(
                        args[0],
                        Type::Matrix {
                            column: args[1],
                            count: args[2],
                        },
                    );
                }
                OP_TYPE_IMAGE => {
                    // result, sampled type, dim, depth, arrayed, MS, sampled, format
                    m.types.insert(args[0], Type::Image { sampled: args[6] });
                }
                OP_TYPE_SAMPLER => {
                    m.types.insert(args[0], Type::Sampler);
                }
                OP_TYPE_SAMPLED_IMAGE => {
                    m.types
                        .insert(args[0], Type::SampledImage { image: args[1] });
                }
                OP_TYPE_ARRAY => {
                    m.types.insert(
                        args[0],
                        Type::Array {
                            element: args[1],
                            length: args[2],
                        },
                    );
                }
                OP_TYPE_RUNTIME_ARRAY => {
                    m.types
                        .insert(args[0], Type::RuntimeArray { element: args[1] });
                }
                OP_TYPE_STRUCT => {
                    m.types.insert(
                        args[0],
                        Type::Struct {
                            members: args[1..].to_vec(),
                        },
                    );
                    m.struct_order.push(args[0]);
                }
                OP_TYPE_POINTER => {
                    m.types.insert(
                        args[0],
                        Type::Pointer {
                            storage: args[1],
                            pointee: args[2],
                        },
                    );
                }
                OP_CONSTANT => {
                    m.constants.insert(args[1], args[2]);
                }
                OP_VARIABLE => {
                    m.variables.insert(args[1], (args[0], args[2]));
                }
                _ => {}
            }
            at += count;
        }
        m
    }

    fn ty(&self, id: u32) -> &Type {
        self.types
            .get(&id)
            .unwrap_or_else(|| panic!("{}: %{id} is not a type this reader knows", self.name))
    }

    fn decoration(&self, id: u32, decoration: u32) -> Option<&[u32]> {
        self.decorations
            .get(&id)?
            .iter()
            .find(|(d, _)| *d == decoration)
            .map(|(_, v)| v.as_slice())
    }

    fn member_decoration(&self, id: u32, member: u32, decoration: u32) -> Option<&[u32]> {
        self.member_decorations
            .get(&(id, member))?
            .iter()
            .find(|(d, _)| *d == decoration)
            .map(|(_, v)| v.as_slice())
    }

    fn type_name(&self, id: u32) -> &str {
        self.names.get(&id).map_or("", String::as_str)
    }

    /// The structs named `name` that carry an explicit layout (member offsets): the ones in
    /// buffers. glslang also emits undecorated copies for function-local values.
    fn laid_out_structs(&self, name: &str) -> Vec<u32> {
        self.struct_order
            .iter()
            .copied()
            .filter(|&id| self.type_name(id) == name)
            .filter(|&id| self.member_decoration(id, 0, DEC_OFFSET).is_some())
            .collect()
    }

    /// The one laid-out struct named `name`, if the module declares it.
    fn laid_out_struct(&self, name: &str) -> Option<u32> {
        let found = self.laid_out_structs(name);
        assert!(
            found.len() <= 1,
            "{}: {} laid-out structs named {name}",
            self.name,
            found.len()
        );
        found.first().copied()
    }

    fn members(&self, id: u32) -> &[u32] {
        match self.ty(id) {
            Type::Struct { members } => members,
            other => panic!("{}: %{id} is {other:?}, not a struct", self.name),
        }
    }

    /// (name, offset, type) of every member of struct `id`.
    fn layout(&self, id: u32) -> Vec<(String, u32, u32)> {
        self.members(id)
            .iter()
            .enumerate()
            .map(|(i, &ty)| {
                let i = i as u32;
                let name = self
                    .member_names
                    .get(&(id, i))
                    .unwrap_or_else(|| panic!("{}: member {i} of %{id} has no name", self.name))
                    .clone();
                let offset = self
                    .member_decoration(id, i, DEC_OFFSET)
                    .unwrap_or_else(|| panic!("{}: member {name} has no Offset", self.name))[0];
                (name, offset, ty)
            })
            .collect()
    }

    fn array_stride(&self, id: u32) -> u32 {
        self.decoration(id, DEC_ARRAY_STRIDE)
            .unwrap_or_else(|| panic!("{}: array %{id} has no ArrayStride", self.name))[0]
    }

    /// Bytes a value of type `id` occupies in an explicitly laid-out block.
    fn size(&self, id: u32, matrix_stride: Option<u32>) -> u32 {
        match self.ty(id) {
            Type::Int { width, .. } | Type::Float { width } => width / 8,
            Type::Vector { component, count } => self.size(*component, None) * count,
            Type::Matrix { column, count } => {
                matrix_stride.unwrap_or_else(|| self.size(*column, None)) * count
            }
            Type::Array { length, .. } => {
                let n = self.constants.get(length).unwrap_or_else(|| {
                    panic!("{}: array length %{length} is not a constant", self.name)
                });
                self.array_stride(id) * n
            }
            Type::Struct { .. } => {
                let layout = self.layout(id);
                let Some((_, offset, ty)) = layout.last() else {
                    return 0;
                };
                let last = (layout.len() - 1) as u32;
                offset
                    + self.size(
                        *ty,
                        self.member_decoration(id, last, DEC_MATRIX_STRIDE)
                            .map(|s| s[0]),
                    )
            }
            other => panic!("{}: no size for {other:?}", self.name),
        }
    }

    /// Scalar kind and component count of a scalar or vector type: ("float", 32, 3).
    fn numeric(&self, id: u32) -> (&'static str, u32, u32) {
        match self.ty(id) {
            Type::Float { width } => ("float", *width, 1),
            Type::Int {
                width,
                signed: false,
            } => ("uint", *width, 1),
            Type::Int {
                width,
                signed: true,
            } => ("int", *width, 1),
            Type::Vector { component, count } => {
                let (kind, width, _) = self.numeric(*component);
                (kind, width, *count)
            }
            other => panic!("{}: {other:?} is not a scalar or vector", self.name),
        }
    }

    /// The variable called `name`: (its pointee type, storage class).
    fn variable(&self, name: &str) -> Option<(u32, u32)> {
        let (&_, &(ptr, storage)) = self
            .variables
            .iter()
            .find(|(id, _)| self.names.get(id).is_some_and(|n| n == name))?;
        match self.ty(ptr) {
            Type::Pointer { pointee, .. } => Some((*pointee, storage)),
            other => panic!("{}: variable {name} has type {other:?}", self.name),
        }
    }

    /// The storage class of the (one) variable whose type points at struct `id`.
    fn storage_of_block(&self, id: u32) -> u32 {
        let classes: Vec<u32> = self
            .variables
            .values()
            .filter_map(|&(ptr, storage)| match self.ty(ptr) {
                Type::Pointer { pointee, .. } if *pointee == id => Some(storage),
                _ => None,
            })
            .collect();
        assert_eq!(
            classes.len(),
            1,
            "{}: {} variables of block %{id}",
            self.name,
            classes.len()
        );
        classes[0]
    }
}

fn shaders() -> Vec<Module> {
    vec![
        Module::parse("skinned.vert", SKINNED_VERT),
        Module::parse("skinned.frag", SKINNED_FRAG),
        Module::parse("ground.vert", GROUND_VERT),
        Module::parse("ground.frag", GROUND_FRAG),
        Module::parse("shadow.vert", SHADOW_VERT),
        Module::parse("depth_normal.frag", DEPTH_NORMAL_FRAG),
        Module::parse("ground_normal.frag", GROUND_NORMAL_FRAG),
        Module::parse("ssao.comp", SSAO_COMP),
        Module::parse("ssao_blur.comp", SSAO_BLUR_COMP),
        Module::parse("fullscreen.vert", FULLSCREEN_VERT),
        Module::parse("debug_view.frag", DEBUG_VIEW_FRAG),
        Module::parse("cull.comp", CULL_COMP),
        Module::parse("cull_late.comp", CULL_LATE_COMP),
        Module::parse("cull_draws.comp", CULL_DRAWS_COMP),
        Module::parse("occlusion_depth.comp", OCCLUSION_DEPTH_COMP),
        // Without a prepass: the lit shaders writing the light apart, and its composite.
        Module::parse("skinned_apart.frag", compiled("skinned_apart.frag")),
        Module::parse("ground_apart.frag", compiled("ground_apart.frag")),
        Module::parse("ambient_composite.frag", compiled("ambient_composite.frag")),
        // Skinning once per frame: the skin pass and the vertex shaders that read it.
        Module::parse("skinned_once.vert", compiled("skinned_once.vert")),
        Module::parse("shadow_once.vert", compiled("shadow_once.vert")),
        Module::parse("skin.comp", compiled("skin.comp")),
        // The shadow pass's casters with alpha-clipped materials.
        Module::parse("shadow_clip.vert", compiled("shadow_clip.vert")),
        Module::parse("shadow_clip_once.vert", compiled("shadow_clip_once.vert")),
        Module::parse("shadow_clip.frag", compiled("shadow_clip.frag")),
    ]
}

/// A compute shader of the frame's own layout (its bindings numbered in its GLSL, not the
/// graphics layout's), parsed alone.
fn compute_module(name: &'static str) -> Module {
    Module::parse(name, compiled(name))
}

/// The SPIR-V `build.rs` compiled from `shaders/NAME`.
fn compiled(name: &str) -> &'static [u8] {
    named(name).unwrap_or_else(|| panic!("no shader was compiled from shaders/{name}"))
}

/// Modules that need no per-frame uniforms (the full-screen triangle is made from
/// `gl_VertexIndex` alone; the culling passes read their own `CullFrame`; the shadow pass's
/// clipping reads only the material).
const WITHOUT_FRAME: &[&str] = &[
    "shadow_clip.frag",
    "fullscreen.vert",
    "cull.comp",
    "cull_late.comp",
    "cull_draws.comp",
    "occlusion_depth.comp",
    "skin.comp",
];

/// The set and binding of the variable holding block `block` (a struct id).
fn binding_of(m: &Module, block: u32) -> (u32, u32) {
    let var = m
        .variables
        .iter()
        .find_map(|(&var, &(ptr, _))| match m.ty(ptr) {
            Type::Pointer { pointee, .. } if *pointee == block => Some(var),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{}: no variable of block %{block}", m.name));
    let one = |d| {
        m.decoration(var, d)
            .unwrap_or_else(|| panic!("{}: block %{block} lacks a set or binding", m.name))[0]
    };
    (one(DEC_DESCRIPTOR_SET), one(DEC_BINDING))
}

/// The element type of the one runtime-array member of storage block `block_name`, with the
/// array's stride; `None` when the module does not declare the block.
fn runtime_array_of(m: &Module, block_name: &str) -> Option<(u32, u32, u32)> {
    let block = m.laid_out_struct(block_name)?;
    assert_eq!(
        m.storage_of_block(block),
        STORAGE_STORAGE_BUFFER,
        "{}",
        m.name
    );
    let layout = m.layout(block);
    assert_eq!(layout.len(), 1, "{}: {block_name} has one member", m.name);
    let (_, offset, array) = &layout[0];
    assert_eq!(*offset, 0, "{}: {block_name}", m.name);
    let Type::RuntimeArray { element } = m.ty(*array).clone() else {
        panic!("{}: {block_name} does not hold a runtime array", m.name);
    };
    Some((block, element, m.array_stride(*array)))
}

/// The variable id called `name`.
fn variable_id(m: &Module, name: &str) -> Option<u32> {
    m.variables
        .keys()
        .copied()
        .find(|id| m.names.get(id).is_some_and(|n| n == name))
}

fn module(name: &str) -> Module {
    shaders()
        .into_iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no shader {name}"))
}

/// (name, offset, size) of Rust struct fields, in the order given.
macro_rules! rust_layout {
    ($ty:ty; $($field:ident),+ $(,)?) => {{
        let zero = <$ty as Zeroable>::zeroed();
        vec![$((stringify!($field).to_string(), offset_of!($ty, $field) as u32,
                size_of_val(&zero.$field) as u32)),+]
    }};
}

/// Compares a laid-out GLSL block with a Rust struct: same member names in the same order,
/// same offsets, same sizes, same total size.
fn assert_block_matches(m: &Module, id: u32, rust: &[(String, u32, u32)], rust_size: usize) {
    let glsl = m.layout(id);
    let glsl_sizes: Vec<(String, u32, u32)> = glsl
        .iter()
        .enumerate()
        .map(|(i, (name, offset, ty))| {
            let stride = m
                .member_decoration(id, i as u32, DEC_MATRIX_STRIDE)
                .map(|s| s[0]);
            (name.clone(), *offset, m.size(*ty, stride))
        })
        .collect();
    assert_eq!(
        glsl_sizes,
        rust,
        "{}: block {} (name, offset, size) differs from the Rust struct",
        m.name,
        m.type_name(id)
    );
    assert_eq!(
        m.size(id, None) as usize,
        rust_size,
        "{}: block {} size differs from the Rust struct",
        m.name,
        m.type_name(id)
    );
}

// ---------------------------------------------------------------------------------------
// The checks.
// ---------------------------------------------------------------------------------------

#[test]
fn the_reader_reads_the_embedded_modules() {
    for m in shaders() {
        // Debug info is on: every shader at least names its entry point, and every one but
        // the full-screen triangle its Frame block.
        assert!(
            m.names.values().any(|n| n == "main"),
            "{}: no OpName main (compiled without debug info?)",
            m.name
        );
        if WITHOUT_FRAME.contains(&m.name) {
            continue;
        }
        assert!(
            m.laid_out_struct("Frame").is_some(),
            "{}: no Frame block",
            m.name
        );
    }
}

#[test]
fn instance_records_match_the_rust_struct() {
    let rust = rust_layout!(InstanceRecord; world, palette_base, joints, model_flags, bounds,
        frame_weight, fade_base, fade_frame_weight, fade);
    // The numbers the comment in record.glsl promises, independent of both sides.
    let expected: Vec<(&str, u32)> = vec![
        ("world", 0),
        ("palette_base", 48),
        ("joints", 52),
        ("model_flags", 56),
        ("bounds", 60),
        ("frame_weight", 64),
        ("fade_base", 68),
        ("fade_frame_weight", 72),
        ("fade", 76),
    ];
    let rust_offsets: Vec<(&str, u32)> = rust.iter().map(|(n, o, _)| (n.as_str(), *o)).collect();
    assert_eq!(rust_offsets, expected);
    assert_eq!(size_of::<InstanceRecord>(), 80);

    let mut seen = 0;
    for m in shaders() {
        let Some(records) = m.laid_out_struct("Records") else {
            continue;
        };
        seen += 1;
        assert_eq!(
            m.storage_of_block(records),
            STORAGE_STORAGE_BUFFER,
            "{}",
            m.name
        );
        let layout = m.layout(records);
        assert_eq!(layout.len(), 1, "{}: Records has one member", m.name);
        let (name, offset, array) = &layout[0];
        assert_eq!((name.as_str(), *offset), ("records", 0), "{}", m.name);
        let Type::RuntimeArray { element } = m.ty(*array) else {
            panic!(
                "{}: records is {:?}, not a runtime array",
                m.name,
                m.ty(*array)
            );
        };
        assert_eq!(m.type_name(*element), "InstanceRecord", "{}", m.name);
        assert_eq!(
            m.array_stride(*array) as usize,
            size_of::<InstanceRecord>(),
            "{}: records[] stride",
            m.name
        );
        assert_block_matches(&m, *element, &rust, size_of::<InstanceRecord>());
        // world: vec4[3] with a 16-byte stride, exactly a Mat3x4.
        let world = m.members(*element)[0];
        let Type::Array { element: row, .. } = m.ty(world).clone() else {
            panic!("{}: world is {:?}", m.name, m.ty(world));
        };
        assert_eq!(m.numeric(row), ("float", 32, 4), "{}: world rows", m.name);
        assert_eq!(m.array_stride(world), 16, "{}: world stride", m.name);
        assert_eq!(
            m.size(world, None) as usize,
            size_of::<Mat3x4>(),
            "{}",
            m.name
        );
    }
    assert!(seen >= 1, "no shader declares the Records buffer");
    assert!(
        module("skinned.vert").laid_out_struct("Records").is_some(),
        "skinned.vert must read the records"
    );
    assert!(
        module("cull.comp").laid_out_struct("Records").is_some(),
        "cull.comp must read the records"
    );
}

/// Every storage buffer the skinned passes declare sits at the binding the renderer pushes
/// it to (`gpu::frame::shader_interface::BINDING_*`).
#[test]
fn the_skinned_buffers_sit_at_the_pushed_bindings() {
    let expected = [
        ("Records", BINDING_RECORDS),
        ("Palettes", BINDING_PALETTES),
        ("Baked", BINDING_BAKED),
        ("Visible", BINDING_VISIBLE),
    ];
    let skin = [
        ("SkinTable", BINDING_SKIN_TABLE),
        ("Skinned", BINDING_SKINNED),
        ("SkinLevels", BINDING_SKIN_LEVELS),
    ];
    let mesh = [("MeshVertices", BINDING_MESH_VERTICES)];
    type Blocks<'a> = &'a [&'a [(&'a str, u32)]];
    let shaders: [(&str, Blocks); 7] = [
        ("skinned.vert", &[&expected]),
        ("shadow.vert", &[&expected]),
        ("shadow_clip.vert", &[&expected]),
        ("skinned_once.vert", &[&expected, &skin]),
        ("shadow_once.vert", &[&expected, &skin]),
        ("shadow_clip_once.vert", &[&expected, &skin]),
        ("skin.comp", &[&expected, &skin, &mesh]),
    ];
    for (name, blocks) in shaders {
        let m = module(name);
        for &(block, binding) in blocks.iter().copied().flatten() {
            let id = m
                .laid_out_struct(block)
                .unwrap_or_else(|| panic!("{name}: no {block} buffer"));
            assert_eq!(binding_of(&m, id), (0, binding), "{name}: {block}");
        }
    }
    // Skinning in the vertex shaders reads nothing of the skin pass's.
    for name in ["skinned.vert", "shadow.vert", "shadow_clip.vert"] {
        for (block, _) in skin {
            assert!(
                module(name).laid_out_struct(block).is_none(),
                "{name}: {block}"
            );
        }
    }
}

/// The looks block every colouring stage reads (meshes and cards) is an array of
/// `gpu::GpuLook` at `BINDING_LOOKS`.
#[test]
fn the_looks_block_matches_gpu_look() {
    let rust = rust_layout!(throng::gpu::GpuLook; tints);
    for name in [
        "skinned.frag",
        "skinned_apart.frag",
        "impostor.frag",
        "impostor_plane.frag",
        "impostor_apart.frag",
        "impostor_plane_apart.frag",
    ] {
        let spirv = throng::gpu::shaders::named(name).expect("compiled");
        let m = Module::parse(name, spirv);
        let block = m
            .laid_out_struct("Looks")
            .unwrap_or_else(|| panic!("{name}: no Looks buffer"));
        assert_eq!(binding_of(&m, block), (0, BINDING_LOOKS), "{name}");
        let (_, element, stride) = runtime_array_of(&m, "Looks").expect("looks[]");
        assert_eq!(
            stride as usize,
            size_of::<throng::gpu::GpuLook>(),
            "{name}: looks[] stride"
        );
        assert_block_matches(&m, element, &rust, size_of::<throng::gpu::GpuLook>());
    }
}

/// The culling passes' blocks match `gpu::cull_data`, and sit at `gpu::frame::shader_interface::CULL_*`.
#[test]
fn the_culling_blocks_match_cull_data() {
    let frame = rust_layout!(CullFrame; camera_planes, light_planes, eye, light, lod, counts,
        shadow, view_proj, occlusion, impostor, skin, near_shadow);
    let model = rust_layout!(CullModel; range, errors, draws, level_vertices, level_triangles);
    let bound = rust_layout!(CullBound; lo, hi);
    let command = rust_layout!(DrawCommand; index_count, instance_count, first_index,
        vertex_offset, first_instance);
    for name in ["cull.comp", "cull_late.comp", "cull_draws.comp"] {
        let m = module(name);
        let block = m
            .laid_out_struct("CullFrame")
            .unwrap_or_else(|| panic!("{name}: no CullFrame"));
        assert_eq!(m.storage_of_block(block), STORAGE_STORAGE_BUFFER);
        assert_block_matches(&m, block, &frame, size_of::<CullFrame>());
        assert_eq!(binding_of(&m, block), (0, CULL_FRAME), "{name}: CullFrame");
        let (models, element, stride) = runtime_array_of(&m, "Models").expect("Models");
        assert_block_matches(&m, element, &model, size_of::<CullModel>());
        assert_eq!(stride as usize, size_of::<CullModel>());
        assert_eq!(binding_of(&m, models), (0, CULL_MODELS), "{name}: Models");
        // A block a shader does not use is not in its SPIR-V: only the cull passes read the
        // records and bounds, only the draws pass the draw ranges.
        let culls = name != "cull_draws.comp";
        if let Some((records, ..)) = runtime_array_of(&m, "Records") {
            assert_eq!(
                binding_of(&m, records),
                (0, CULL_RECORDS),
                "{name}: Records"
            );
        } else {
            assert!(!culls, "the cull pass reads the records");
        }
        if let Some((bounds, element, stride)) = runtime_array_of(&m, "Bounds") {
            assert_block_matches(&m, element, &bound, size_of::<CullBound>());
            assert_eq!(stride as usize, size_of::<CullBound>());
            assert_eq!(binding_of(&m, bounds), (0, CULL_BOUNDS), "{name}: Bounds");
        } else {
            assert!(!culls, "the cull pass reads the bounds");
        }
        if let Some((ranges, element, stride)) = runtime_array_of(&m, "DrawRanges") {
            // (first index, index count, material, unused), as src/gpu/frame/culling/inputs.rs
            // packs them.
            assert_eq!(m.numeric(element), ("uint", 32, 4), "{name}: draw ranges");
            assert_eq!(stride, 16, "{name}: draw range stride");
            assert_eq!(binding_of(&m, ranges), (0, CULL_DRAW_RANGES), "{name}");
        } else {
            assert!(culls, "the draws pass reads the draw ranges");
        }
        let (counters, element, stride) = runtime_array_of(&m, "Counters").expect("Counters");
        assert_eq!((m.numeric(element), stride), (("uint", 32, 1), 4), "{name}");
        assert_eq!(
            binding_of(&m, counters),
            (0, CULL_COUNTERS),
            "{name}: Counters"
        );
    }
    // The mesh raster and its shading read the same draw ranges, bound on their own.
    for name in ["mesh_raster.comp", "mesh_shade.comp"] {
        let m = compute_module(name);
        let (_, element, stride) = runtime_array_of(&m, "DrawRanges").expect("DrawRanges");
        assert_eq!(
            (m.numeric(element), stride),
            (("uint", 32, 4), 16),
            "{name}"
        );
    }
    for name in ["cull.comp", "cull_late.comp"] {
        let m = module(name);
        let (lists, ..) = runtime_array_of(&m, "Lists").expect("Lists");
        assert_eq!(binding_of(&m, lists), (0, CULL_OUTPUT), "{name}: Lists");
        let (candidates, ..) = runtime_array_of(&m, "Candidates").expect("Candidates");
        assert_eq!(binding_of(&m, candidates), (0, CULL_CANDIDATES), "{name}");
    }
    let m = module("cull_late.comp");
    let occlusion = variable_id(&m, "occlusion_depth").expect("the occlusion image");
    assert_eq!(
        (
            m.decoration(occlusion, DEC_DESCRIPTOR_SET),
            m.decoration(occlusion, DEC_BINDING)
        ),
        (Some(&[0][..]), Some(&[CULL_OCCLUSION_DEPTH][..]))
    );
    let m = module("cull_draws.comp");
    let (counts, ..) = runtime_array_of(&m, "DrawCounts").expect("DrawCounts");
    assert_eq!(binding_of(&m, counts), (0, CULL_OUTPUT));
    let (commands, element, stride) = runtime_array_of(&m, "DrawCommands").expect("commands");
    assert_block_matches(&m, element, &command, size_of::<DrawCommand>());
    assert_eq!(stride as usize, size_of::<DrawCommand>());
    assert_eq!(binding_of(&m, commands), (0, CULL_COMMANDS));
    let card = rust_layout!(CardCommand; vertex_count, instance_count, first_vertex,
        first_instance);
    let (cards, element, stride) = runtime_array_of(&m, "CardCommands").expect("cards");
    assert_block_matches(&m, element, &card, size_of::<CardCommand>());
    assert_eq!(stride as usize, size_of::<CardCommand>());
    assert_eq!(binding_of(&m, cards), (0, CULL_CARD_COMMANDS));
}

#[test]
fn palette_rows_are_mat3x4_rows() {
    assert_eq!(size_of::<Mat3x4>(), 3 * 16);
    assert_eq!(size_of::<Mat3x4>(), 3 * size_of::<Vec4>());
    assert_eq!(offset_of!(Mat3x4, rows), 0);
    let m = module("skinned.vert");
    let palettes = m
        .laid_out_struct("Palettes")
        .expect("skinned.vert declares the Palettes buffer");
    assert_eq!(m.storage_of_block(palettes), STORAGE_STORAGE_BUFFER);
    let layout = m.layout(palettes);
    assert_eq!(layout.len(), 1);
    let (name, offset, array) = &layout[0];
    assert_eq!((name.as_str(), *offset), ("palette_rows", 0));
    let Type::RuntimeArray { element } = m.ty(*array) else {
        panic!("palette_rows is {:?}, not a runtime array", m.ty(*array));
    };
    assert_eq!(
        m.numeric(*element),
        ("float", 32, 4),
        "palette_rows are vec4"
    );
    assert_eq!(m.array_stride(*array), 16, "palette_rows stride");
}

#[test]
fn the_frame_block_matches_frame_data() {
    let rust = rust_layout!(FrameData; view_proj, view, proj, inv_proj, light_view_proj,
        light_dir, light_color, sky_color, ground_color, camera_pos, ground_plane, ground_tile,
        target, shadow, light_view_proj_near, shadow_near, near_lo, near_hi, ssao, view_mode,
        ssao_kernel);
    // The offsets frame.glsl's std140 rules give, independent of both sides: five mat4, nine
    // vec4, a mat4, four vec4, a uvec4, then 16 vec4 of kernel.
    let offsets: Vec<(&str, u32)> = rust.iter().map(|(n, o, _)| (n.as_str(), *o)).collect();
    assert_eq!(
        offsets,
        [
            ("view_proj", 0),
            ("view", 64),
            ("proj", 128),
            ("inv_proj", 192),
            ("light_view_proj", 256),
            ("light_dir", 320),
            ("light_color", 336),
            ("sky_color", 352),
            ("ground_color", 368),
            ("camera_pos", 384),
            ("ground_plane", 400),
            ("ground_tile", 416),
            ("target", 432),
            ("shadow", 448),
            ("light_view_proj_near", 464),
            ("shadow_near", 528),
            ("near_lo", 544),
            ("near_hi", 560),
            ("ssao", 576),
            ("view_mode", 592),
            ("ssao_kernel", 608),
        ]
    );
    assert_eq!(size_of::<FrameData>(), 864);
    let mut seen = Vec::new();
    for m in shaders() {
        if WITHOUT_FRAME.contains(&m.name) {
            continue;
        }
        seen.push(m.name);
        let frame = m
            .laid_out_struct("Frame")
            .unwrap_or_else(|| panic!("{}: no Frame block", m.name));
        assert!(
            m.decoration(frame, DEC_BLOCK).is_some(),
            "{}: Frame is a Block",
            m.name
        );
        assert_eq!(m.storage_of_block(frame), STORAGE_UNIFORM, "{}", m.name);
        assert_block_matches(&m, frame, &rust, size_of::<FrameData>());
        // glam's Mat4 is column-major with 16-byte columns: all six matrices.
        let layout = m.layout(frame);
        for (i, (name, _, ty)) in layout.iter().enumerate() {
            if !matches!(m.ty(*ty), Type::Matrix { .. }) {
                continue;
            }
            assert!(
                m.member_decoration(frame, i as u32, DEC_COL_MAJOR)
                    .is_some(),
                "{}: {name} is not ColMajor",
                m.name
            );
            assert_eq!(
                m.member_decoration(frame, i as u32, DEC_MATRIX_STRIDE),
                Some(&[16][..]),
                "{}: {name} MatrixStride",
                m.name
            );
        }
        let matrices = layout
            .iter()
            .filter(|(_, _, ty)| matches!(m.ty(*ty), Type::Matrix { .. }))
            .count();
        assert_eq!(matrices, 6, "{}: mat4 members of Frame", m.name);
        // view_mode is compared with unsigned constants: uvec4 on both sides.
        let (_, _, view_mode) = layout
            .iter()
            .find(|(n, _, _)| n == "view_mode")
            .unwrap_or_else(|| panic!("{}: Frame has no view_mode", m.name));
        assert_eq!(
            m.numeric(*view_mode),
            ("uint", 32, 4),
            "{}: view_mode",
            m.name
        );
        // The kernel: SSAO_KERNEL vec4 with a 16-byte stride, as the Rust array.
        let (_, _, kernel) = layout.last().expect("Frame has members");
        let Type::Array { element, length } = m.ty(*kernel).clone() else {
            panic!("{}: ssao_kernel is {:?}", m.name, m.ty(*kernel));
        };
        assert_eq!(m.numeric(element), ("float", 32, 4), "{}", m.name);
        assert_eq!(
            m.array_stride(*kernel),
            16,
            "{}: ssao_kernel stride",
            m.name
        );
        assert_eq!(
            m.constants.get(&length).copied(),
            Some(FrameData::zeroed().ssao_kernel.len() as u32),
            "{}: ssao_kernel length",
            m.name
        );
        // Set 0, at the frame's binding of the pass's layout.
        let binding = if COMPUTE_SHADERS.contains(&m.name) {
            COMPUTE_FRAME
        } else {
            BINDING_FRAME
        };
        let var = variable_id(&m, "frame")
            .unwrap_or_else(|| panic!("{}: no variable named frame", m.name));
        assert_eq!(
            (
                m.decoration(var, DEC_DESCRIPTOR_SET),
                m.decoration(var, DEC_BINDING)
            ),
            (Some(&[0][..]), Some(&[binding][..])),
            "{}: Frame's set and binding",
            m.name
        );
    }
    assert_eq!(seen.len(), shaders().len() - WITHOUT_FRAME.len());
}

#[test]
fn the_draw_push_constants_match_draw_constants() {
    let rust = rust_layout!(DrawConstants; base_color, fresnel0, params);
    assert_eq!(size_of::<DrawConstants>(), 48);
    let mut seen = Vec::new();
    for m in shaders() {
        let Some(draw) = m.laid_out_struct("Draw") else {
            continue;
        };
        seen.push(m.name);
        assert_eq!(
            m.storage_of_block(draw),
            STORAGE_PUSH_CONSTANT,
            "{}",
            m.name
        );
        assert_block_matches(&m, draw, &rust, size_of::<DrawConstants>());
    }
    assert!(
        seen.contains(&"skinned.frag"),
        "skinned.frag reads the Draw push constants (found in {seen:?})"
    );
}

/// The mesh raster's push constants are `MeshConstants`, the shading's a `DrawConstants` and
/// then the same (`ShadeConstants` in src/gpu/features/lit/mesh_compute.rs).
#[test]
fn the_mesh_push_constants_match_the_rust_structs() {
    let mesh = rust_layout!(MeshConstants; model, raster, merge);
    let draw = rust_layout!(DrawConstants; base_color, fresnel0, params);
    let shading: Vec<(String, u32, u32)> = draw
        .iter()
        .cloned()
        .chain(mesh.iter().map(|(name, offset, size)| {
            (
                name.clone(),
                offset + size_of::<DrawConstants>() as u32,
                *size,
            )
        }))
        .collect();
    for (name, rust, size) in [
        ("mesh_raster.comp", &mesh, size_of::<MeshConstants>()),
        (
            "mesh_shade.comp",
            &shading,
            size_of::<DrawConstants>() + size_of::<MeshConstants>(),
        ),
    ] {
        let m = compute_module(name);
        let block = m
            .laid_out_struct("Mesh")
            .unwrap_or_else(|| panic!("{name}: no Mesh block"));
        assert_eq!(m.storage_of_block(block), STORAGE_PUSH_CONSTANT, "{name}");
        assert_block_matches(&m, block, rust, size);
    }
}

/// One vertex attribute of the skinned pipeline as `src/gpu/device/pipeline.rs` declares it:
/// `attr(LOCATION, vk::Format::FORMAT, offset_of!(Vertex, FIELD))`.
#[derive(Debug)]
struct Attribute {
    location: u32,
    format: String,
    field: String,
}

/// The attributes, read from the source: the pipeline keeps them private, so this is the way
/// to tie the shader's locations to the Rust fields without changing `src/`.
fn pipeline_attributes() -> Vec<Attribute> {
    let source: String = include_str!("../src/gpu/device/pipeline.rs")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut out = Vec::new();
    for (start, _) in source.match_indices("attr(") {
        let rest = &source[start + "attr(".len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let Ok(location) = digits.parse() else {
            continue; // the closure's definition, not a call
        };
        let rest = &rest[digits.len()..];
        let rest = rest.strip_prefix(",vk::Format::").unwrap_or_else(|| {
            panic!("device/pipeline.rs: attr({location}, ...) without vk::Format")
        });
        let format: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let rest = &rest[format.len()..];
        let rest = rest.strip_prefix(",offset_of!(Vertex,").unwrap_or_else(|| {
            panic!("device/pipeline.rs: attr({location}, ...) without offset_of!(Vertex, ...)")
        });
        let field: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        out.push(Attribute {
            location,
            format,
            field,
        });
    }
    out
}

/// ("float" | "uint" | "int", bits per component, components) of a `vk::Format` name such as
/// `R32G32B32_SFLOAT` or `R16G16B16A16_UINT`.
fn format_shape(format: &str) -> (&'static str, u32, u32) {
    let (channels, kind) = format
        .split_once('_')
        .unwrap_or_else(|| panic!("format {format}: no numeric type"));
    let kind = match kind {
        "SFLOAT" => "float",
        "UINT" => "uint",
        "SINT" => "int",
        other => panic!("format {format}: numeric type {other} not expected for a vertex input"),
    };
    let mut bits = Vec::new();
    for part in channels
        .split(['R', 'G', 'B', 'A'])
        .filter(|p| !p.is_empty())
    {
        bits.push(
            part.parse::<u32>()
                .unwrap_or_else(|_| panic!("format {format}")),
        );
    }
    assert!(
        !bits.is_empty() && bits.iter().all(|&b| b == bits[0]),
        "format {format}: mixed component sizes"
    );
    (kind, bits[0], bits.len() as u32)
}

#[test]
fn skinned_vertex_input_matches_the_shader_locations() {
    let m = module("skinned.vert");
    let expected = [
        ("position", 0),
        ("normal", 1),
        ("tangent", 2),
        ("uv", 3),
        ("joints", 4),
        ("weights", 5),
    ];
    for (field, location) in expected {
        let var = format!("in_{field}");
        let (_, storage) = m
            .variable(&var)
            .unwrap_or_else(|| panic!("skinned.vert has no input {var}"));
        assert_eq!(storage, STORAGE_INPUT, "{var} is not an input");
        let id = m
            .variables
            .keys()
            .copied()
            .find(|id| m.names.get(id).is_some_and(|n| *n == var))
            .expect("variable id");
        assert_eq!(
            m.decoration(id, DEC_LOCATION),
            Some(&[location][..]),
            "{var}: Location"
        );
    }

    let attributes = pipeline_attributes();
    let mut locations: Vec<u32> = attributes.iter().map(|a| a.location).collect();
    locations.sort_unstable();
    assert_eq!(
        locations,
        [0, 1, 2, 3, 4, 5],
        "device/pipeline.rs attributes: {attributes:?}"
    );
    let zero = Vertex::zeroed();
    let field_sizes: HashMap<&str, (usize, usize)> = [
        (
            "position",
            (offset_of!(Vertex, position), size_of_val(&zero.position)),
        ),
        (
            "normal",
            (offset_of!(Vertex, normal), size_of_val(&zero.normal)),
        ),
        (
            "tangent",
            (offset_of!(Vertex, tangent), size_of_val(&zero.tangent)),
        ),
        ("uv", (offset_of!(Vertex, uv), size_of_val(&zero.uv))),
        (
            "joints",
            (offset_of!(Vertex, joints), size_of_val(&zero.joints)),
        ),
        (
            "weights",
            (offset_of!(Vertex, weights), size_of_val(&zero.weights)),
        ),
    ]
    .into_iter()
    .collect();
    // The Rust layout the pipeline's offset_of! produces, spelled out.
    let offsets: Vec<(&str, usize)> = expected
        .iter()
        .map(|(f, _)| (*f, field_sizes[f].0))
        .collect();
    assert_eq!(
        offsets,
        [
            ("position", 0),
            ("normal", 12),
            ("tangent", 24),
            ("uv", 40),
            ("joints", 48),
            ("weights", 56)
        ]
    );
    assert_eq!(size_of::<Vertex>(), 72);

    for a in &attributes {
        let var = format!("in_{}", a.field);
        // The field the pipeline reads at this location is the one the shader expects there.
        let id = m
            .variables
            .keys()
            .copied()
            .find(|id| m.names.get(id).is_some_and(|n| *n == var))
            .unwrap_or_else(|| {
                panic!(
                    "location {} reads Vertex::{}, but skinned.vert has no {var}",
                    a.location, a.field
                )
            });
        assert_eq!(
            m.decoration(id, DEC_LOCATION),
            Some(&[a.location][..]),
            "device/pipeline.rs feeds Vertex::{} to location {}, the shader reads {var} elsewhere",
            a.field,
            a.location
        );
        // The format has the shader's numeric type and component count, and exactly the
        // bytes of the Rust field.
        let (ty, _) = m.variable(&var).expect("input");
        let (kind, width, count) = m.numeric(ty);
        let (f_kind, f_bits, f_count) = format_shape(&a.format);
        assert_eq!(
            (f_kind, f_count),
            (kind, count),
            "{var}: format {} for a {kind}x{count} input",
            a.format
        );
        assert!(
            f_bits <= width,
            "{var}: {f_bits}-bit format for {width}-bit input"
        );
        let (_, field_size) = field_sizes
            .get(a.field.as_str())
            .unwrap_or_else(|| panic!("Vertex has no field {}", a.field));
        assert_eq!(
            (f_bits / 8 * f_count) as usize,
            *field_size,
            "{var}: format {} is not the size of Vertex::{}",
            a.format,
            a.field
        );
    }
}

#[test]
fn the_shadow_pass_reads_the_skinned_vertex_inputs_where_the_forward_pass_does() {
    // The shadow pipelines bind the same vertex buffers with the same attribute formats, so
    // each input they read sits at skinned.vert's location with skinned.vert's type: the
    // position-only ones, and those of alpha-clipped materials, which read the texture
    // coordinate too (`VertexInput::SkinnedPosition`, `SkinnedPositionUv`).
    let skinned = module("skinned.vert");
    let position = ["in_joints", "in_position", "in_weights"];
    let with_uv = ["in_joints", "in_position", "in_uv", "in_weights"];
    for (name, expected) in [
        ("shadow.vert", &position[..]),
        ("shadow_once.vert", &position[..]),
        ("shadow_clip.vert", &with_uv[..]),
        ("shadow_clip_once.vert", &with_uv[..]),
    ] {
        shadow_inputs_match(&module(name), &skinned, expected);
    }
}

/// Checks that `shadow`'s vertex inputs are `expected` and sit where `skinned`'s do.
fn shadow_inputs_match(shadow: &Module, skinned: &Module, expected: &[&str]) {
    let mut inputs: Vec<String> = shadow
        .variables
        .iter()
        .filter(|(_, (_, storage))| *storage == STORAGE_INPUT)
        .filter_map(|(id, _)| shadow.names.get(id).cloned())
        .filter(|n| n.starts_with("in_"))
        .collect();
    inputs.sort();
    assert_eq!(inputs, expected, "{}", shadow.name);
    for var in &inputs {
        let location = |m: &Module| {
            let id = variable_id(m, var).unwrap_or_else(|| panic!("{}: no input {var}", m.name));
            m.decoration(id, DEC_LOCATION)
                .unwrap_or_else(|| panic!("{}: {var} has no Location", m.name))
                .to_vec()
        };
        assert_eq!(
            location(shadow),
            location(skinned),
            "{}: {var}: Location",
            shadow.name
        );
        let ty = |m: &Module| {
            let (ty, _) = m.variable(var).expect("input");
            m.numeric(ty)
        };
        assert_eq!(ty(shadow), ty(skinned), "{}: {var}: type", shadow.name);
    }
}

// ---------------------------------------------------------------------------------------
// Bindings: every resource a shader declares, against src/gpu/frame/shader_interface.rs.
// ---------------------------------------------------------------------------------------

/// A descriptor type, as the SPIR-V declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Descriptor {
    StorageBuffer,
    UniformBuffer,
    CombinedImageSampler,
    StorageImage,
}

/// One descriptor a module declares: its block's name (buffers) or its variable's name
/// (images), set, binding and type.
#[derive(Debug)]
struct Resource {
    name: String,
    set: u32,
    binding: u32,
    descriptor: Descriptor,
}

/// Every variable of `m` decorated with a binding.
fn resources(m: &Module) -> Vec<Resource> {
    let mut out: Vec<Resource> = m
        .variables
        .iter()
        .filter_map(|(&var, &(ptr, storage))| {
            let binding = m.decoration(var, DEC_BINDING)?[0];
            let set = m
                .decoration(var, DEC_DESCRIPTOR_SET)
                .unwrap_or_else(|| panic!("{}: binding {binding} without a set", m.name))[0];
            let Type::Pointer { pointee, .. } = m.ty(ptr) else {
                panic!("{}: variable %{var} is not a pointer", m.name);
            };
            let pointee = *pointee;
            let variable_name = || m.names.get(&var).cloned().unwrap_or_default();
            let (name, descriptor) = match (storage, m.ty(pointee)) {
                (STORAGE_STORAGE_BUFFER, Type::Struct { .. }) => {
                    (m.type_name(pointee).to_string(), Descriptor::StorageBuffer)
                }
                (STORAGE_UNIFORM, Type::Struct { .. })
                    if m.decoration(pointee, DEC_BLOCK).is_some() =>
                {
                    (m.type_name(pointee).to_string(), Descriptor::UniformBuffer)
                }
                (STORAGE_UNIFORM_CONSTANT, Type::SampledImage { .. }) => {
                    (variable_name(), Descriptor::CombinedImageSampler)
                }
                (STORAGE_UNIFORM_CONSTANT, Type::Image { sampled: 2 }) => {
                    (variable_name(), Descriptor::StorageImage)
                }
                (storage, other) => panic!(
                    "{}: binding {binding} holds {other:?} in storage class {storage}, a \
                     descriptor type this test does not know",
                    m.name
                ),
            };
            Some(Resource {
                name,
                set,
                binding,
                descriptor,
            })
        })
        .collect();
    out.sort_by_key(|r| r.binding);
    out
}

/// The compute layout's shaders (`Pipeline::compute` in `src/gpu/pipelines.rs`).
const COMPUTE_SHADERS: &[&str] = &["ssao.comp", "ssao_blur.comp", "occlusion_depth.comp"];
/// The culling shaders (they share the culling inputs' names and numbers).
const CULL_SHADERS: &[&str] = &["cull.comp", "cull_late.comp", "cull_draws.comp"];

/// One family of shaders (graphics, culling, screen-space compute): its binding constants
/// (name as the shaders write it, the Rust value) and, for each resource its shaders may
/// declare, which constant it sits at and its descriptor type.
struct LayoutTable {
    name: &'static str,
    constants: &'static [(&'static str, u32)],
    resources: &'static [(&'static str, &'static str, Descriptor)],
}

/// The three layouts as the shaders must see them.
fn layout_tables() -> [LayoutTable; 3] {
    use Descriptor::{CombinedImageSampler as Sampler, StorageBuffer, StorageImage, UniformBuffer};
    [
        LayoutTable {
            name: "graphics",
            constants: &[
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
                ("BINDING_LOOKS", BINDING_LOOKS),
                ("BINDING_DIRECT_LIGHT", BINDING_DIRECT_LIGHT),
                ("BINDING_AMBIENT_LIGHT", BINDING_AMBIENT_LIGHT),
                ("BINDING_SKIN_TABLE", BINDING_SKIN_TABLE),
                ("BINDING_SKINNED", BINDING_SKINNED),
                ("BINDING_SKIN_LEVELS", BINDING_SKIN_LEVELS),
                ("BINDING_MESH_VERTICES", BINDING_MESH_VERTICES),
            ],
            resources: &[
                ("Records", "BINDING_RECORDS", StorageBuffer),
                ("Palettes", "BINDING_PALETTES", StorageBuffer),
                ("Frame", "BINDING_FRAME", UniformBuffer),
                ("base_color_map", "BINDING_BASE_COLOR", Sampler),
                ("normal_map", "BINDING_NORMAL", Sampler),
                ("shadow_map", "BINDING_SHADOW_MAP", Sampler),
                ("ambient_occlusion", "BINDING_AO", Sampler),
                ("source", "BINDING_DEBUG_SOURCE", Sampler),
                ("Baked", "BINDING_BAKED", StorageBuffer),
                ("Visible", "BINDING_VISIBLE", StorageBuffer),
                ("Looks", "BINDING_LOOKS", StorageBuffer),
                ("direct_light", "BINDING_DIRECT_LIGHT", Sampler),
                ("ambient_light", "BINDING_AMBIENT_LIGHT", Sampler),
                ("SkinTable", "BINDING_SKIN_TABLE", StorageBuffer),
                ("Skinned", "BINDING_SKINNED", StorageBuffer),
                ("SkinLevels", "BINDING_SKIN_LEVELS", StorageBuffer),
                ("MeshVertices", "BINDING_MESH_VERTICES", StorageBuffer),
            ],
        },
        LayoutTable {
            name: "culling",
            constants: &[
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
                ("CULL_CARD_COMMANDS", CULL_CARD_COMMANDS),
                ("CULL_SKIN_TABLE", CULL_SKIN_TABLE),
            ],
            resources: &[
                ("Records", "CULL_RECORDS", StorageBuffer),
                ("CullFrame", "CULL_FRAME", StorageBuffer),
                ("Models", "CULL_MODELS", StorageBuffer),
                ("Bounds", "CULL_BOUNDS", StorageBuffer),
                ("DrawRanges", "CULL_DRAW_RANGES", StorageBuffer),
                ("Counters", "CULL_COUNTERS", StorageBuffer),
                ("Lists", "CULL_OUTPUT", StorageBuffer),
                ("DrawCounts", "CULL_OUTPUT", StorageBuffer),
                ("DrawCommands", "CULL_COMMANDS", StorageBuffer),
                ("occlusion_depth", "CULL_OCCLUSION_DEPTH", Sampler),
                ("Candidates", "CULL_CANDIDATES", StorageBuffer),
                ("CardCommands", "CULL_CARD_COMMANDS", StorageBuffer),
                ("SkinTable", "CULL_SKIN_TABLE", StorageBuffer),
            ],
        },
        LayoutTable {
            name: "compute",
            constants: &[
                ("COMPUTE_DEPTH", COMPUTE_DEPTH),
                ("COMPUTE_INPUT", COMPUTE_INPUT),
                ("COMPUTE_FRAME", COMPUTE_FRAME),
                ("COMPUTE_NOISE", COMPUTE_NOISE),
                ("COMPUTE_OUTPUT", COMPUTE_OUTPUT),
            ],
            resources: &[
                ("depth_map", "COMPUTE_DEPTH", Sampler),
                ("normal_map", "COMPUTE_INPUT", Sampler),
                ("ao_raw", "COMPUTE_INPUT", Sampler),
                ("Frame", "COMPUTE_FRAME", UniformBuffer),
                ("noise_map", "COMPUTE_NOISE", Sampler),
                ("ao_out", "COMPUTE_OUTPUT", StorageImage),
                ("occlusion_out", "COMPUTE_OUTPUT", StorageImage),
            ],
        },
    ]
}

/// The layout a module's pipeline is built with.
fn layout_of(name: &str) -> &'static str {
    if COMPUTE_SHADERS.contains(&name) {
        "compute"
    } else if CULL_SHADERS.contains(&name) {
        "culling"
    } else {
        "graphics"
    }
}

/// What `build.rs` defines `name` as.
fn shader_define(name: &str) -> u32 {
    let found: Vec<u32> = SHADER_DEFINES
        .iter()
        .filter(|(n, _)| *n == name)
        .map(|&(_, v)| v)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "SHADER_DEFINES defines {name} {} times",
        found.len()
    );
    found[0]
}

/// Every binding each shader's SPIR-V declares is the constant its layout names for that
/// resource, with that resource's descriptor type: a number changed in the GLSL (a literal in
/// place of the name) or in `SHADER_DEFINES` alone fails here, and so do two constants of one
/// layout on the same number.
#[test]
fn every_binding_is_the_shader_interface_constant_of_its_name() {
    let tables = layout_tables();
    for table in &tables {
        // The constants the shaders are compiled with are the Rust ones, and one layout has
        // no two on the same number.
        let mut numbers = HashMap::new();
        for &(name, value) in table.constants {
            assert_eq!(
                shader_define(name),
                value,
                "SHADER_DEFINES gives {name} another value than the Rust constant"
            );
            if let Some(other) = numbers.insert(value, name) {
                panic!(
                    "{} layout: {name} and {other} are both binding {value}",
                    table.name
                );
            }
        }
        for (_, constant, _) in table.resources {
            assert!(
                table.constants.iter().any(|(n, _)| n == constant),
                "{} layout: {constant} is not one of its bindings",
                table.name
            );
        }
    }
    let mut used: Vec<(&str, &str)> = Vec::new();
    for m in shaders() {
        let table = tables
            .iter()
            .find(|t| t.name == layout_of(m.name))
            .expect("a layout");
        for r in resources(&m) {
            let &(_, constant, descriptor) = table
                .resources
                .iter()
                .find(|(name, ..)| *name == r.name)
                .unwrap_or_else(|| {
                    panic!(
                        "{}: {} (binding {}) is not a resource of the {} layout (add it to \
                         layout_tables and to src/gpu/frame/shader_interface.rs)",
                        m.name, r.name, r.binding, table.name
                    )
                });
            assert_eq!(r.set, 0, "{}: {} is in set {}", m.name, r.name, r.set);
            assert_eq!(
                r.binding,
                shader_define(constant),
                "{}: {} is at binding {}, not {constant}",
                m.name,
                r.name,
                r.binding
            );
            assert_eq!(
                r.descriptor, descriptor,
                "{}: {} ({constant})",
                m.name, r.name
            );
            used.push((table.name, constant));
        }
        // No two resources of one module at one binding.
        let mut bindings: Vec<u32> = resources(&m).iter().map(|r| r.binding).collect();
        let count = bindings.len();
        bindings.dedup();
        assert_eq!(bindings.len(), count, "{}: a binding used twice", m.name);
    }
    // Every binding of every layout is read by some shader (the table has nothing stale).
    for table in &tables {
        for (name, _) in table.constants {
            assert!(
                used.contains(&(table.name, name)),
                "{} layout: no shader declares {name}",
                table.name
            );
        }
    }
}

/// The value of a constant as `shader_interface.rs` writes it: a decimal or hexadecimal
/// literal, or one shifted left by another.
fn literal_value(text: &str) -> u64 {
    let number = |t: &str| {
        let t = t.trim().replace('_', "");
        match t.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => t.parse(),
        }
        .unwrap_or_else(|e| panic!("{t:?} is not a literal this test reads: {e}"))
    };
    match text.split_once("<<") {
        Some((a, b)) => number(a) << number(b),
        None => number(text),
    }
}

/// The value `shader_interface.rs` gives a constant: a literal, or one of the crowd's or
/// motion's codes by its path (`crate::crowd::NAME`, `crate::motion::NAME`), read from that
/// code's line in `src/crowd/gpu_codes.rs` or `src/motion/device_codes.rs`.
fn interface_value(text: &str) -> u64 {
    let (code, codes) = if let Some(code) = text.strip_prefix("crate::motion::") {
        (code, include_str!("../src/motion/device_codes.rs"))
    } else if let Some(code) = text.strip_prefix("crate::crowd::") {
        (code, include_str!("../src/crowd/gpu_codes.rs"))
    } else {
        return literal_value(text);
    };
    let line = codes
        .lines()
        .find_map(|l| {
            ["u32", "usize"]
                .iter()
                .find_map(|ty| l.strip_prefix(&format!("pub const {code}: {ty} = ")))
        })
        .unwrap_or_else(|| panic!("no `pub const {code}` where {text} says"));
    literal_value(line.trim_end_matches(';'))
}

/// Every constant of `src/gpu/frame/shader_interface.rs` is passed to the shaders, once, with the
/// value its line in the source gives (read from the text here, not through the macro that
/// makes both).
#[test]
fn every_shader_interface_constant_is_a_shader_define() {
    let source = include_str!("../src/gpu/frame/shader_interface.rs");
    let constants: Vec<(&str, u64)> = source
        .lines()
        .filter_map(|line| {
            let (name, rest) = line.trim().split_once(": ")?;
            let (ty, value) = rest.split_once(" = ")?;
            let is_name = name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            (is_name && ["u32", "usize"].contains(&ty))
                .then(|| (name, interface_value(value.trim_end_matches(';'))))
        })
        .collect();
    assert!(constants.len() >= 25, "constants found: {constants:?}");
    for &(name, value) in &constants {
        assert_eq!(
            u64::from(shader_define(name)),
            value,
            "the shaders get another value for {name} than its line in shader_interface.rs"
        );
    }
    assert_eq!(
        SHADER_DEFINES.len(),
        constants.len(),
        "SHADER_DEFINES has names that are not constants of shader_interface.rs"
    );
}

/// The crowd state's tables and a playback's, as every shader that reads them lays them out,
/// match motion's structs (names, offsets, sizes): `shaders/crowd_tables.glsl`,
/// `shaders/track.glsl` and the track passes' own structs and push constants.
#[test]
fn the_crowd_and_track_tables_match_motions_structs() {
    use throng::motion::{
        DeviceClip, DeviceClock, DeviceGaits, DeviceModel, DeviceSample, DeviceSampleWrite,
        DeviceTrack, DeviceTrackCommand, DeviceTrackStep, DeviceWalker,
    };
    let state = [
        "crowd_state.comp",
        "crowd_state_apply.comp",
        "track_step.comp",
    ];
    // (GLSL struct, the Rust struct's layout and size, the shaders declaring it)
    type Table<'a> = (
        &'static str,
        Vec<(String, u32, u32)>,
        usize,
        &'a [&'static str],
    );
    let tables: Vec<Table> = vec![
        (
            "Walker",
            rust_layout!(DeviceWalker; start, turn, slot, model, flags),
            size_of::<DeviceWalker>(),
            &state,
        ),
        (
            "Clock",
            rust_layout!(DeviceClock; clips, time, from_time, fade_elapsed, fade_duration,
                speed, distance, stride),
            size_of::<DeviceClock>(),
            &state,
        ),
        (
            "Model",
            rust_layout!(DeviceModel; first_clip, clips, joints, pad),
            size_of::<DeviceModel>(),
            &state,
        ),
        (
            "Clip",
            rust_layout!(DeviceClip; duration, walk_speed, baked_base, baked_frames, bound,
                baked_error, times_base, pad, sphere),
            size_of::<DeviceClip>(),
            &state,
        ),
        (
            "Track",
            rust_layout!(DeviceTrack; flags, head, start, end, scale, phase, look, gait,
                heading, speed, step, pad, position, pivot),
            size_of::<DeviceTrack>(),
            &["track_apply.comp", "track_samples.comp", "track_step.comp"],
        ),
        (
            "Sample",
            rust_layout!(DeviceSample; time, position),
            size_of::<DeviceSample>(),
            &["track_samples.comp", "track_step.comp"],
        ),
        (
            "SampleWrite",
            rust_layout!(DeviceSampleWrite; slot, index, value, pad),
            size_of::<DeviceSampleWrite>(),
            &["track_samples.comp"],
        ),
        (
            "TrackCommand",
            rust_layout!(DeviceTrackCommand; kind, slot, pad, track),
            size_of::<DeviceTrackCommand>(),
            &["track_apply.comp"],
        ),
        (
            "Gaits",
            rust_layout!(DeviceGaits; standing, clips, can_run, strides, frozen_stand, stances,
                ramp_len, ramp),
            size_of::<DeviceGaits>(),
            &["track_step.comp"],
        ),
        (
            "Step",
            rust_layout!(DeviceTrackStep; time, dt, count, base, window, turn_rate, fade, ring,
                walk_above, stand_below, run_above, walk_below, color_top, commands, writes,
                density_buckets, entry_window, min_velocity_half_window, max_departure,
                max_pivot, pivot_fade, max_rate, density_most, pad2),
            size_of::<DeviceTrackStep>(),
            &[
                "track_step.comp",
                "track_density_insert.comp",
                "track_density.comp",
            ],
        ),
    ];
    for (name, rust, size, shaders) in tables {
        for &shader in shaders {
            let m = Module::parse(shader, compiled(shader));
            let id = m
                .laid_out_struct(name)
                .unwrap_or_else(|| panic!("{shader}: no laid-out {name}"));
            assert_block_matches(&m, id, &rust, size);
        }
    }
}
