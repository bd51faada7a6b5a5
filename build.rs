//! Compiles every GLSL shader in `shaders/` (`*.vert`, `*.frag`, `*.comp`) to SPIR-V with
//! shaderc, into `OUT_DIR/shaders/NAME.spv`; `src/gpu/shaders.rs` embeds them. `*.glsl` files
//! are includes (`#include "frame.glsl"`), resolved in `shaders/` only.
//!
//! Every shader is compiled with the macros of `src/gpu/frame/shader_interface.rs`
//! (`SHADER_DEFINES`: binding numbers, flags, workgroup sizes), so the numbers the GLSL uses
//! are the Rust side's; a name a shader uses that is not defined there is a compile error.
//!
//! A shader error fails the build with shaderc's messages, which name the file and line.

use std::fs;
use std::path::{Path, PathBuf};

/// The constants the shaders share with the Rust side; only `SHADER_DEFINES` is read here.
#[allow(dead_code)]
mod shader_interface {
    include!("src/gpu/frame/shader_interface.rs");
}

/// The codes of the crowd's state on the GPU, which `shader_interface` takes from
/// `crate::motion` (their one definition): the same file, so those paths resolve here too.
#[allow(dead_code)]
mod motion {
    include!("src/motion/device_codes.rs");
}

/// The crowd's numbers the shaders read (the record's bits, the looks' tints, the mesh
/// levels), which `shader_interface` takes from `crate::crowd` (their one definition).
#[allow(dead_code)]
mod crowd {
    include!("src/crowd/gpu_codes.rs");
}

/// Makes a layout list (`src/layouts.rs` explains them) a table of (Rust name, GLSL name,
/// members as (name, Rust type, GLSL spelling or "")).
macro_rules! gpu_layouts {
    (@spelled $spelled:literal) => { $spelled };
    (@spelled) => { "" };
    ($(
        $(#[$doc:meta])*
        $name:ident => $glsl:ident {
            $($(#[$field_doc:meta])* $field:ident: $ty:ty $(= $spelled:literal)?,)*
        }
    )*) => {
        pub const LAYOUTS: Layouts = &[$((
            stringify!($name),
            stringify!($glsl),
            &[$((stringify!($field), stringify!($ty), gpu_layouts!(@spelled $($spelled)?))),*],
        )),*];
    };
}

/// A layout list as `gpu_layouts!` tables it.
type Layouts = &'static [(
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str, &'static str)],
)];

/// The crowd's structs the GPU reads (the instance record).
mod crowd_layouts {
    use super::Layouts;
    include!("src/crowd/device_layouts.rs");
}

/// Motion's tables on the GPU (the crowd's state, the playback's tracks).
mod motion_layouts {
    use super::Layouts;
    include!("src/motion/device_layouts.rs");
}

/// The renderer's own structs the GPU reads (the looks).
mod renderer_layouts {
    use super::Layouts;
    include!("src/gpu/frame/device_layouts.rs");
}

/// The includes the shaders read the layouts from (made here, not files in shaders/), each
/// with its list.
const GENERATED: &[(&str, Layouts)] = &[
    ("crowd_layouts.glsl", crowd_layouts::LAYOUTS),
    ("motion_layouts.glsl", motion_layouts::LAYOUTS),
    ("renderer_layouts.glsl", renderer_layouts::LAYOUTS),
];

/// Where `shader_interface`, the codes it reads and the generated layouts come from,
/// relative to the manifest.
const SHADER_INTERFACE: &[&str] = &[
    "src/gpu/frame/shader_interface.rs",
    "src/crowd/gpu_codes.rs",
    "src/motion/device_codes.rs",
    "src/crowd/device_layouts.rs",
    "src/motion/device_layouts.rs",
    "src/gpu/frame/device_layouts.rs",
];

fn main() {
    if let Err(message) = compile_all() {
        // One message per line so cargo shows each `file:line: error` clearly.
        for line in message.lines() {
            println!("cargo::error={line}");
        }
        std::process::exit(1);
    }
}

fn compile_all() -> Result<(), String> {
    let manifest = PathBuf::from(env("CARGO_MANIFEST_DIR")?);
    let dir = manifest.join("shaders");
    let out = PathBuf::from(env("OUT_DIR")?).join("shaders");
    fs::create_dir_all(&out).map_err(|e| format!("creating {}: {e}", out.display()))?;
    println!("cargo::rerun-if-changed={}", dir.display());
    for file in SHADER_INTERFACE {
        println!("cargo::rerun-if-changed={}", manifest.join(file).display());
    }

    let compiler = shaderc::Compiler::new()
        .map_err(|e| format!("shaderc could not create a compiler: {e}"))?;
    let mut entries: Vec<PathBuf> = fs::read_dir(&dir)
        .map_err(|e| format!("reading {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    let layouts = GENERATED
        .iter()
        .map(|(name, list)| Ok((name.to_string(), layouts_glsl(name, list)?)))
        .collect::<Result<Vec<_>, String>>()?;
    let mut errors = Vec::new();
    // Every compiled shader by file name, for `shaders::named`: a new shader needs no line of
    // Rust to be embedded.
    let mut table = String::from("&[\n");
    for path in entries {
        println!("cargo::rerun-if-changed={}", path.display());
        let Some(kind) = stage(&path) else { continue };
        match compile(&compiler, &dir, &path, kind, &out, &layouts) {
            Ok(name) => table.push_str(&format!(
                "    ({name:?}, include_bytes!(concat!(env!(\"OUT_DIR\"), \"/shaders/{name}.spv\"))),\n"
            )),
            Err(e) => errors.push(e),
        }
    }
    table.push_str("]\n");
    let listing = out.join("table.rs");
    fs::write(&listing, table).map_err(|e| format!("writing {}: {e}", listing.display()))?;
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

/// The GLSL include `name` for a layout list: per entry a `NAME_FIELDS` macro of its members
/// (for a push-constant block) and the struct made of them.
fn layouts_glsl(name: &str, list: Layouts) -> Result<String, String> {
    let guard = format!("THRONG_{}", upper_snake(&name.replace(".glsl", "")));
    let mut text = format!(
        "// Made by build.rs from a layout list (src/layouts.rs), the one definition, with the\n\
         // members' meanings: do not edit.\n#ifndef {guard}\n#define {guard}\n"
    );
    let named = |rust: &str| list.iter().find(|(r, _, _)| *r == rust).map(|(_, g, _)| *g);
    for (rust, glsl, fields) in list {
        let mut members = Vec::new();
        for (field, ty, spelled) in *fields {
            let member = if !spelled.is_empty() {
                spelled.to_string()
            } else {
                glsl_member(field, ty, named)
                    .ok_or_else(|| format!("{rust}.{field}: no GLSL type for `{ty}`: spell it"))?
            };
            members.push(format!("{member};"));
        }
        let macro_name = upper_snake(glsl);
        text.push_str(&format!(
            "\n#define {macro_name}_FIELDS {}\nstruct {glsl} {{ {macro_name}_FIELDS }};\n",
            members.join(" ")
        ));
    }
    text.push_str("\n#endif\n");
    Ok(text)
}

/// A member `field` of Rust type `ty` in GLSL, another entry by its GLSL name (`named`).
fn glsl_member<'a>(
    field: &str,
    ty: &str,
    named: impl Fn(&str) -> Option<&'a str>,
) -> Option<String> {
    let ty = ty.replace(' ', "");
    // A type that is one GLSL value (a scalar, a vector, a matrix, another entry).
    let single = |t: &str| match t {
        "u32" => Some("uint".to_string()),
        "i32" => Some("int".to_string()),
        "f32" => Some("float".to_string()),
        "[f32;2]" => Some("vec2".to_string()),
        "[f32;4]" | "Vec4" => Some("vec4".to_string()),
        "[u32;4]" => Some("uvec4".to_string()),
        "Mat4" => Some("mat4".to_string()),
        other => named(other).map(str::to_string),
    };
    Some(match ty.as_str() {
        "Mat3x4" => format!("vec4 {field}[3]"),
        t => match single(t) {
            Some(glsl) => format!("{glsl} {field}"),
            // An array: the length is the last `;`'s (an element may be an array itself), a
            // number or a constant the shaders are given by that name.
            None if t.starts_with('[') && t.ends_with(']') => {
                let (element, count) = t[1..t.len() - 1].rsplit_once(';')?;
                format!("{} {field}[{count}]", single(element)?)
            }
            None => return None,
        },
    })
}

/// `CrowdStep` as `CROWD_STEP` (`motion_layouts` as `MOTION_LAYOUTS`).
fn upper_snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

fn env(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("{name} is not set (build.rs runs under cargo)"))
}

fn stage(path: &Path) -> Option<shaderc::ShaderKind> {
    match path.extension()?.to_str()? {
        "vert" => Some(shaderc::ShaderKind::Vertex),
        "frag" => Some(shaderc::ShaderKind::Fragment),
        "comp" => Some(shaderc::ShaderKind::Compute),
        _ => None,
    }
}

fn compile(
    compiler: &shaderc::Compiler,
    dir: &Path,
    path: &Path,
    kind: shaderc::ShaderKind,
    out: &Path,
    layouts: &[(String, String)],
) -> Result<String, String> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("{}: not a UTF-8 file name", path.display()))?;
    let source =
        fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let mut options = shaderc::CompileOptions::new()
        .map_err(|e| format!("shaderc could not create compile options: {e}"))?;
    // Vulkan 1.2 targets SPIR-V 1.5: it runs on 1.2 devices too (and under RenderDoc, which
    // reports 1.2), and compute local sizes stay literal (no maintenance4 needed).
    options.set_target_env(
        shaderc::TargetEnv::Vulkan,
        shaderc::EnvVersion::Vulkan1_2 as u32,
    );
    options.set_optimization_level(shaderc::OptimizationLevel::Performance);
    options.set_generate_debug_info();
    options.set_warnings_as_errors();
    for (name, value) in shader_interface::SHADER_DEFINES {
        options.add_macro_definition(name, Some(&value.to_string()));
    }
    // Includes shared by the fragment and compute stages leave out what names a fragment's
    // own inputs (gl_FragCoord) when compiled into a compute shader.
    if kind == shaderc::ShaderKind::Compute {
        options.add_macro_definition("STAGE_COMPUTE", Some("1"));
    }
    let include_dir = dir.to_path_buf();
    let layouts = layouts.to_vec();
    options.set_include_callback(move |requested, _type, from, _depth| {
        if let Some((_, content)) = layouts.iter().find(|(name, _)| name == requested) {
            return Ok(shaderc::ResolvedInclude {
                resolved_name: requested.to_string(),
                content: content.clone(),
            });
        }
        // Plain file names only: every include lives in shaders/.
        if requested.contains(['/', '\\']) {
            return Err(format!(
                "{from}: include '{requested}' must be a file in shaders/"
            ));
        }
        let file = include_dir.join(requested);
        let content =
            fs::read_to_string(&file).map_err(|e| format!("{from}: include '{requested}': {e}"))?;
        println!("cargo::rerun-if-changed={}", file.display());
        Ok(shaderc::ResolvedInclude {
            resolved_name: requested.to_string(),
            content,
        })
    });
    let artifact = compiler
        .compile_into_spirv(&source, kind, name, "main", Some(&options))
        .map_err(|e| format!("shaders/{}", e.to_string().trim()))?;
    let target = out.join(format!("{name}.spv"));
    fs::write(&target, artifact.as_binary_u8())
        .map_err(|e| format!("writing {}: {e}", target.display()))?;
    Ok(name.to_string())
}
