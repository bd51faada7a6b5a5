//! What a compiled shader declares, read from its SPIR-V: the stage, every descriptor binding
//! (set, number, kind, and the name the shader gives it), the size of its push-constant block
//! and a compute shader's workgroup size. Pipeline layouts are made from this
//! ([`super::pipeline`]), so a binding number is written once, in the shader, and the Rust
//! side binds by name.
//!
//! Reads only the instructions that describe these (names, decorations, types, variables,
//! entry points and execution modes); anything malformed is an error naming the shader.

use std::collections::HashMap;

use ash::vk;

/// One descriptor binding a shader declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReflectedBinding {
    /// The name the shader gives it: a block's type name (`Records` for `buffer Records
    /// {..}`), otherwise the variable's (`shadow_map`).
    pub name: String,
    /// Its descriptor set.
    pub set: u32,
    /// Its binding number.
    pub binding: u32,
    /// What kind of descriptor it takes.
    pub kind: vk::DescriptorType,
    /// How many (an array of descriptors), 1 otherwise.
    pub count: u32,
}

/// What one shader declares; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reflection {
    /// Its stage.
    pub stage: vk::ShaderStageFlags,
    /// Its descriptor bindings, in the order the SPIR-V declares them.
    pub bindings: Vec<ReflectedBinding>,
    /// Bytes of its push-constant block (0: none).
    pub push_constant_bytes: u32,
    /// A compute shader's workgroup size (`[1, 1, 1]` for other stages).
    pub local_size: [u32; 3],
}

const MAGIC: u32 = 0x0723_0203;

const OP_NAME: u32 = 5;
const OP_ENTRY_POINT: u32 = 15;
const OP_EXECUTION_MODE: u32 = 16;
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
const OP_EXECUTION_MODE_ID: u32 = 331;

const DEC_BLOCK: u32 = 2;
const DEC_BUFFER_BLOCK: u32 = 3;
const DEC_ARRAY_STRIDE: u32 = 6;
const DEC_MATRIX_STRIDE: u32 = 7;
const DEC_BINDING: u32 = 33;
const DEC_DESCRIPTOR_SET: u32 = 34;
const DEC_OFFSET: u32 = 35;

const STORAGE_UNIFORM_CONSTANT: u32 = 0;
const STORAGE_UNIFORM: u32 = 2;
const STORAGE_PUSH_CONSTANT: u32 = 9;
const STORAGE_STORAGE_BUFFER: u32 = 12;

const MODE_LOCAL_SIZE: u32 = 17;
const MODE_LOCAL_SIZE_ID: u32 = 38;

/// The types the reflection needs to tell descriptor kinds and block sizes apart.
#[derive(Clone, Debug)]
enum Type {
    Scalar { bytes: u32 },
    Vector { component: u32, count: u32 },
    Matrix { column: u32, columns: u32 },
    Image { sampled: u32 },
    Sampler,
    SampledImage,
    Array { element: u32, length: u32 },
    RuntimeArray,
    Struct { members: Vec<u32> },
    Pointer { pointee: u32 },
}

/// Everything read from one module before it is put together.
#[derive(Default)]
struct Module {
    stage: Option<vk::ShaderStageFlags>,
    names: HashMap<u32, String>,
    types: HashMap<u32, Type>,
    constants: HashMap<u32, u32>,
    /// `(id, decoration) -> value` (0 for decorations without one).
    decorations: HashMap<(u32, u32), u32>,
    /// `(struct, member, decoration) -> value`.
    member_decorations: HashMap<(u32, u32, u32), u32>,
    /// `(pointer type, id, storage class)`.
    variables: Vec<(u32, u32, u32)>,
    local_size: Option<[u32; 3]>,
    local_size_ids: Option<[u32; 3]>,
}

/// Reads `spirv` (the bytes `build.rs` wrote); `name` is only for errors.
pub fn reflect(name: &str, spirv: &[u8]) -> Result<Reflection, String> {
    let fail = |why: &str| format!("shader {name}: {why}");
    if !spirv.len().is_multiple_of(4) || spirv.len() < 20 {
        return Err(fail("not SPIR-V (length)"));
    }
    let words: Vec<u32> = spirv
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if words[0] != MAGIC {
        return Err(fail("not SPIR-V (magic number)"));
    }
    let mut m = Module::default();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let op = words[at] & 0xffff;
        if count == 0 || at + count > words.len() {
            return Err(fail("an instruction runs past the end"));
        }
        read_instruction(&mut m, op, &words[at + 1..at + count]).map_err(|why| fail(&why))?;
        at += count;
    }
    assemble(&m).map_err(|why| fail(&why))
}

fn read_instruction(m: &mut Module, op: u32, w: &[u32]) -> Result<(), String> {
    let arg = |k: usize| {
        w.get(k)
            .copied()
            .ok_or_else(|| format!("instruction {op} is too short"))
    };
    match op {
        OP_NAME => {
            m.names.insert(arg(0)?, string(&w[1..]));
        }
        OP_ENTRY_POINT => {
            m.stage = Some(match arg(0)? {
                0 => vk::ShaderStageFlags::VERTEX,
                4 => vk::ShaderStageFlags::FRAGMENT,
                5 => vk::ShaderStageFlags::COMPUTE,
                other => return Err(format!("entry point of execution model {other}")),
            });
        }
        OP_EXECUTION_MODE if arg(1)? == MODE_LOCAL_SIZE => {
            m.local_size = Some([arg(2)?, arg(3)?, arg(4)?]);
        }
        OP_EXECUTION_MODE_ID if arg(1)? == MODE_LOCAL_SIZE_ID => {
            m.local_size_ids = Some([arg(2)?, arg(3)?, arg(4)?]);
        }
        OP_TYPE_INT | OP_TYPE_FLOAT => {
            m.types.insert(arg(0)?, Type::Scalar { bytes: arg(1)? / 8 });
        }
        OP_TYPE_VECTOR => {
            let t = Type::Vector {
                component: arg(1)?,
                count: arg(2)?,
            };
            m.types.insert(arg(0)?, t);
        }
        OP_TYPE_MATRIX => {
            let t = Type::Matrix {
                column: arg(1)?,
                columns: arg(2)?,
            };
            m.types.insert(arg(0)?, t);
        }
        OP_TYPE_IMAGE => {
            m.types.insert(arg(0)?, Type::Image { sampled: arg(6)? });
        }
        OP_TYPE_SAMPLER => {
            m.types.insert(arg(0)?, Type::Sampler);
        }
        OP_TYPE_SAMPLED_IMAGE => {
            m.types.insert(arg(0)?, Type::SampledImage);
        }
        OP_TYPE_ARRAY => {
            let t = Type::Array {
                element: arg(1)?,
                length: arg(2)?,
            };
            m.types.insert(arg(0)?, t);
        }
        OP_TYPE_RUNTIME_ARRAY => {
            m.types.insert(arg(0)?, Type::RuntimeArray);
        }
        OP_TYPE_STRUCT => {
            let t = Type::Struct {
                members: w[1..].to_vec(),
            };
            m.types.insert(arg(0)?, t);
        }
        OP_TYPE_POINTER => {
            let t = Type::Pointer { pointee: arg(2)? };
            m.types.insert(arg(0)?, t);
        }
        OP_CONSTANT => {
            // 32-bit constants are all the reflection needs (array lengths, sizes).
            m.constants.insert(arg(1)?, arg(2)?);
        }
        OP_VARIABLE => m.variables.push((arg(0)?, arg(1)?, arg(2)?)),
        OP_DECORATE => {
            m.decorations
                .insert((arg(0)?, arg(1)?), w.get(2).copied().unwrap_or(0));
        }
        OP_MEMBER_DECORATE => {
            m.member_decorations
                .insert((arg(0)?, arg(1)?, arg(2)?), w.get(3).copied().unwrap_or(0));
        }
        _ => {}
    }
    Ok(())
}

/// A literal string: UTF-8 bytes, nul-terminated, packed four to a word.
fn string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn assemble(m: &Module) -> Result<Reflection, String> {
    let stage = m.stage.ok_or("no entry point")?;
    let ty = |id: u32| {
        m.types
            .get(&id)
            .ok_or(format!("type %{id} is not declared"))
    };
    let mut bindings = Vec::new();
    let mut push_constant_bytes = 0;
    for &(pointer, id, class) in &m.variables {
        let Type::Pointer { pointee, .. } = ty(pointer)? else {
            return Err(format!("variable %{id} is not a pointer"));
        };
        if class == STORAGE_PUSH_CONSTANT {
            push_constant_bytes = push_constant_bytes.max(size_of_type(m, *pointee)?);
            continue;
        }
        if !matches!(
            class,
            STORAGE_UNIFORM_CONSTANT | STORAGE_UNIFORM | STORAGE_STORAGE_BUFFER
        ) {
            continue;
        }
        let (element, count) = match ty(*pointee)? {
            Type::Array { element, length } => {
                let n = m
                    .constants
                    .get(length)
                    .copied()
                    .ok_or(format!("array length %{length} is not a constant"))?;
                (*element, n)
            }
            _ => (*pointee, 1),
        };
        let kind = match (class, ty(element)?) {
            (STORAGE_UNIFORM_CONSTANT, Type::SampledImage) => {
                vk::DescriptorType::COMBINED_IMAGE_SAMPLER
            }
            (STORAGE_UNIFORM_CONSTANT, Type::Image { sampled: 2 }) => {
                vk::DescriptorType::STORAGE_IMAGE
            }
            (STORAGE_UNIFORM_CONSTANT, Type::Image { .. }) => vk::DescriptorType::SAMPLED_IMAGE,
            (STORAGE_UNIFORM_CONSTANT, Type::Sampler) => vk::DescriptorType::SAMPLER,
            (STORAGE_STORAGE_BUFFER, Type::Struct { .. }) => vk::DescriptorType::STORAGE_BUFFER,
            (STORAGE_UNIFORM, Type::Struct { .. })
                if m.decorations.contains_key(&(element, DEC_BUFFER_BLOCK)) =>
            {
                vk::DescriptorType::STORAGE_BUFFER
            }
            (STORAGE_UNIFORM, Type::Struct { .. })
                if m.decorations.contains_key(&(element, DEC_BLOCK)) =>
            {
                vk::DescriptorType::UNIFORM_BUFFER
            }
            (class, t) => {
                return Err(format!(
                    "variable %{id} of storage class {class} holds {t:?}, no descriptor"
                ));
            }
        };
        let block = matches!(ty(element)?, Type::Struct { .. });
        let name = if block {
            m.names.get(&element)
        } else {
            m.names.get(&id)
        }
        .cloned()
        .filter(|n| !n.is_empty())
        .ok_or(format!(
            "binding variable %{id} has no name (compiled without debug names?)"
        ))?;
        let decoration = |d: u32, what: &str| {
            m.decorations
                .get(&(id, d))
                .copied()
                .ok_or(format!("{name} has no {what}"))
        };
        bindings.push(ReflectedBinding {
            set: decoration(DEC_DESCRIPTOR_SET, "descriptor set")?,
            binding: decoration(DEC_BINDING, "binding")?,
            name,
            kind,
            count,
        });
    }
    let local_size = match (m.local_size, m.local_size_ids) {
        (Some(size), _) => size,
        (None, Some(ids)) => {
            let mut size = [1; 3];
            for (s, id) in size.iter_mut().zip(ids) {
                *s = m
                    .constants
                    .get(&id)
                    .copied()
                    .ok_or(format!("workgroup size %{id} is not a constant"))?;
            }
            size
        }
        (None, None) if stage == vk::ShaderStageFlags::COMPUTE => {
            return Err("a compute shader without a workgroup size".into());
        }
        (None, None) => [1; 3],
    };
    Ok(Reflection {
        stage,
        bindings,
        push_constant_bytes,
        local_size,
    })
}

/// Bytes a value of type `id` takes in an explicitly laid-out block (member offsets, array
/// and matrix strides from the decorations).
fn size_of_type(m: &Module, id: u32) -> Result<u32, String> {
    let t = m
        .types
        .get(&id)
        .ok_or(format!("type %{id} is not declared"))?;
    Ok(match t {
        Type::Scalar { bytes } => *bytes,
        Type::Vector { component, count } => size_of_type(m, *component)? * count,
        Type::Matrix { column, columns } => size_of_type(m, *column)? * columns,
        Type::Array { element, length } => {
            let n = m.constants.get(length).copied().unwrap_or(0);
            match m.decorations.get(&(id, DEC_ARRAY_STRIDE)) {
                Some(&stride) => stride * n,
                None => size_of_type(m, *element)? * n,
            }
        }
        // Unsized: only its start counts (it is the last member of its block).
        Type::RuntimeArray => 0,
        Type::Struct { members } => {
            let mut end = 0;
            for (k, &member) in members.iter().enumerate() {
                let offset = m
                    .member_decorations
                    .get(&(id, k as u32, DEC_OFFSET))
                    .copied()
                    .unwrap_or(0);
                let size = match (
                    m.types.get(&member),
                    m.member_decorations.get(&(id, k as u32, DEC_MATRIX_STRIDE)),
                ) {
                    (Some(Type::Matrix { columns, .. }), Some(&stride)) => stride * columns,
                    _ => size_of_type(m, member)?,
                };
                end = end.max(offset + size);
            }
            end
        }
        Type::Pointer { .. } | Type::Image { .. } | Type::Sampler | Type::SampledImage => 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::device::shaders::{ALL, named};

    fn of(name: &str) -> Reflection {
        reflect(name, named(name).expect("compiled")).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn every_compiled_shader_reflects() {
        for (name, spirv) in ALL {
            let r = reflect(name, spirv).unwrap_or_else(|e| panic!("{e}"));
            let stage = match name.rsplit('.').next() {
                Some("vert") => vk::ShaderStageFlags::VERTEX,
                Some("frag") => vk::ShaderStageFlags::FRAGMENT,
                _ => vk::ShaderStageFlags::COMPUTE,
            };
            assert_eq!(r.stage, stage, "{name}");
            // One name and one number per binding within a shader.
            for (i, a) in r.bindings.iter().enumerate() {
                for b in &r.bindings[i + 1..] {
                    assert!(
                        a.name != b.name && a.binding != b.binding,
                        "{name}: {a:?} {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn kinds_names_sizes_and_workgroups_are_the_shaders() {
        let cull = of("cull.comp");
        let kind = |r: &Reflection, n: &str| {
            r.bindings
                .iter()
                .find(|b| b.name == n)
                .map(|b| b.kind)
                .unwrap_or_else(|| panic!("{n} in {:?}", r.bindings))
        };
        assert_eq!(kind(&cull, "Records"), vk::DescriptorType::STORAGE_BUFFER);
        assert_eq!(
            cull.local_size,
            [crate::gpu::frame::shader_interface::CULL_GROUP, 1, 1]
        );
        let ssao = of("ssao.comp");
        assert_eq!(kind(&ssao, "ao_out"), vk::DescriptorType::STORAGE_IMAGE);
        assert_eq!(
            kind(&ssao, "depth_map"),
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER
        );
        assert_eq!(kind(&ssao, "Frame"), vk::DescriptorType::UNIFORM_BUFFER);
        // The vertex stage reads the draw's material index (a look may hide the material).
        assert_eq!(
            of("skinned.vert").push_constant_bytes as usize,
            size_of::<crate::gpu::DrawConstants>()
        );
        assert_eq!(of("ground.vert").push_constant_bytes, 0);
        let forward = of("skinned.frag");
        assert_eq!(
            forward.push_constant_bytes as usize,
            size_of::<crate::gpu::DrawConstants>()
        );
        let views = of("cull_draws.comp");
        assert_eq!(
            views.push_constant_bytes as usize,
            size_of::<crate::gpu::cull_data::DrawViews>()
        );
    }

    #[test]
    fn broken_modules_are_errors() {
        assert!(reflect("x", &[1, 2, 3]).is_err());
        assert!(reflect("x", &[0; 20]).is_err());
        // The first instruction's word count made to run past the end.
        let mut long = named("cull.comp").expect("compiled").to_vec();
        long[22..24].copy_from_slice(&[0xff, 0xff]);
        assert!(reflect("x", &long).is_err());
    }
}
