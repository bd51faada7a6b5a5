//! Materials and their textures. Images come from a buffer view, a data URI or a file next
//! to the model; their headers are checked by [`crate::asset::texture`] and their bytes kept
//! (the renderer decodes them when it uploads them). Images with one source (the same buffer
//! view, the same data URI, the same file) are one texture, so a file that repeats one large
//! image under many `images` entries costs it once.
//!
//! What is missing and what is broken are treated differently: an external image file that
//! cannot be read (textures often do not travel with a model) is a warning, once per file,
//! and its materials fall back to their base color; but an image stored inside the model
//! (buffer view or data URI) whose header is not a usable image means the model itself is
//! damaged, like a truncated accessor, and is an error naming the image. An external file
//! that exists but is not a usable image is, like a missing one, a warning.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use gltf::Document;
use gltf::material::AlphaMode;

use crate::anim::{Material, Texture};
use crate::asset::texture;
use crate::asset::{ErrorKind, LoadError, source};

use super::buffers::Buffers;
use super::context::Ctx;
use super::uri::{self, Target};

/// Largest external image file read, matching the decoder's own size limit.
const MAX_IMAGE_FILE: u64 = 1 << 30;

/// Materials in the file's order, and the textures they use.
pub(super) struct Materials {
    /// One per glTF material.
    pub materials: Vec<Material>,
    /// Images, each once however many materials and `images` entries use its source.
    pub textures: Vec<Texture>,
}

/// Converts every material of `doc`, decoding the images its textures use.
pub(super) fn read(
    ctx: &mut Ctx,
    doc: &Document,
    buffers: &Buffers,
    base_dir: Option<&Path>,
) -> Result<Materials, LoadError> {
    let mut images = Images {
        buffers,
        base_dir,
        loaded: HashMap::new(),
        by_source: HashMap::new(),
        textures: Vec::new(),
    };
    let mut materials = Vec::with_capacity(doc.materials().len());
    for m in doc.materials() {
        let i = m.index().unwrap_or(materials.len());
        let pbr = m.pbr_metallic_roughness();
        let base = pbr.base_color_factor();
        let metallic = pbr.metallic_factor().clamp(0.0, 1.0);
        let base_color_texture = match pbr.base_color_texture() {
            Some(info) => images.get(ctx, doc, info.texture().source().index())?,
            None => None,
        };
        let normal_texture = match m.normal_texture() {
            Some(info) => images.get(ctx, doc, info.texture().source().index())?,
            None => None,
        };
        let finite = base.iter().all(|x| x.is_finite());
        materials.push(Material {
            name: match m.name() {
                Some(n) if !n.is_empty() => n.to_string(),
                _ => format!("material{i}"),
            },
            base_color: if finite {
                base
            } else {
                Material::default().base_color
            },
            base_color_texture,
            normal_texture,
            roughness: finite_or(pbr.roughness_factor(), 1.0).clamp(0.0, 1.0),
            // Metals reflect their base color; dielectrics about 4 % (the metallic-roughness
            // model's own convention).
            fresnel0: [0, 1, 2]
                .map(|c| 0.04 + (base[c].clamp(0.0, 1.0) - 0.04) * finite_or(metallic, 0.0)),
            alpha_clip: m.alpha_mode() == AlphaMode::Mask,
        });
    }
    Ok(Materials {
        materials,
        textures: images.textures,
    })
}

fn finite_or(x: f32, fallback: f32) -> f32 {
    if x.is_finite() { x } else { fallback }
}

/// Where an image's bytes are: what makes two `images` entries one texture.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum SourceKey {
    View(usize),
    DataUri(String),
    File(PathBuf),
}

/// Image probing with caches: several materials may share an image, several images a source.
struct Images<'b, 'a> {
    buffers: &'b Buffers<'a>,
    base_dir: Option<&'b Path>,
    /// Texture slot of each `images` index seen.
    loaded: HashMap<usize, Option<usize>>,
    /// Texture slot of each source read.
    by_source: HashMap<SourceKey, Option<usize>>,
    textures: Vec<Texture>,
}

impl Images<'_, '_> {
    /// The texture index of image `index`, `None` when its file is missing (warned).
    fn get(
        &mut self,
        ctx: &mut Ctx,
        doc: &Document,
        index: usize,
    ) -> Result<Option<usize>, LoadError> {
        if let Some(&known) = self.loaded.get(&index) {
            return Ok(known);
        }
        let slot = self.probe(ctx, doc, index)?;
        self.loaded.insert(index, slot);
        Ok(slot)
    }

    /// The slot of an image read from `key`, reading it with `read` the first time and
    /// charging its decoded pixels to the load's budget: one that does not fit is left out
    /// with a warning (`texture::charge`), like a missing file.
    fn slot_of(
        &mut self,
        ctx: &mut Ctx,
        section: &str,
        key: SourceKey,
        read: impl FnOnce(&mut Ctx) -> Result<Option<Texture>, LoadError>,
    ) -> Result<Option<usize>, LoadError> {
        if let Some(&known) = self.by_source.get(&key) {
            return Ok(known);
        }
        let slot = match read(ctx)? {
            Some(t) => match texture::charge(&mut ctx.budget, &t) {
                Ok(()) => {
                    self.textures.push(t);
                    Some(self.textures.len() - 1)
                }
                Err(why) => {
                    ctx.warn_once(
                        format!("budget {section}"),
                        format!("{section}: the image {why}; materials using it fall back to their base color"),
                    );
                    None
                }
            },
            None => None,
        };
        self.by_source.insert(key, slot);
        Ok(slot)
    }

    fn probe(
        &mut self,
        ctx: &mut Ctx,
        doc: &Document,
        index: usize,
    ) -> Result<Option<usize>, LoadError> {
        let section = format!("images[{index}]");
        let name = format!("image {index}");
        // The JSON is read directly: the crate's accessor assumes a MIME type is present.
        let Some(json) = doc.as_json().images.get(index) else {
            return Err(ctx.error(ErrorKind::IndexOutOfRange, section, "does not exist"));
        };
        let embedded = |ctx: &Ctx, bytes: &[u8]| {
            texture::probe(&name, Arc::from(bytes))
                .map(Some)
                .map_err(|e| {
                    ctx.error(
                        ErrorKind::Invalid,
                        section.as_str(),
                        format!("embedded image {e}"),
                    )
                })
        };
        if let Some(view) = json.buffer_view {
            let Some(view) = doc.views().nth(view.value()) else {
                return Err(ctx.error(
                    ErrorKind::IndexOutOfRange,
                    section,
                    "buffer view does not exist",
                ));
            };
            let buffers = self.buffers;
            return self.slot_of(ctx, &section, SourceKey::View(view.index()), |ctx| {
                embedded(ctx, buffers.view(ctx, &view)?)
            });
        }
        let Some(text) = json.uri.as_deref() else {
            return Err(ctx.error(
                ErrorKind::Invalid,
                section,
                "has neither a bufferView nor a uri",
            ));
        };
        match uri::parse(ctx, &section, text)? {
            Target::Data(payload) => {
                self.slot_of(ctx, &section, SourceKey::DataUri(text.to_string()), |ctx| {
                    let bytes = uri::decode_base64(ctx, &section, payload)?;
                    embedded(ctx, &bytes)
                })
            }
            Target::File(relative) => {
                // The file as the folder resolves it, so two spellings of one file (or a link
                // to it) are one texture; a path that does not resolve is reported by the read.
                let key = match self.base_dir {
                    Some(base) => source::resolve_referenced(base, &relative)
                        .unwrap_or_else(|_| relative.clone()),
                    None => relative.clone(),
                };
                let base_dir = self.base_dir;
                self.slot_of(ctx, &section, SourceKey::File(key), |ctx| {
                    read_external(ctx, &section, base_dir, &relative)
                })
            }
        }
    }
}

/// Reads and probes an external image file; a file that is missing or not a usable image is
/// a warning (`None`).
fn read_external(
    ctx: &mut Ctx,
    section: &str,
    base_dir: Option<&Path>,
    relative: &Path,
) -> Result<Option<Texture>, LoadError> {
    let fallback = |ctx: &mut Ctx, why: &str| {
        ctx.warn_once(
            format!("image file {}", relative.display()),
            format!("{section}: {why}; materials using it fall back to their base color"),
        );
    };
    let bytes = match uri::read_file(ctx, section, base_dir, relative, MAX_IMAGE_FILE) {
        Ok(bytes) => bytes,
        // Without a folder there is no file to miss: that is the caller's choice to pass
        // bytes only, and external references are then an error.
        Err(e) if e.kind == ErrorKind::Unsupported => return Err(e),
        Err(e) => {
            fallback(ctx, &e.message);
            return Ok(None);
        }
    };
    ctx.add_input(bytes.len() as u64);
    let name = relative.display().to_string();
    match texture::probe(&name, bytes.into()) {
        Ok(t) => Ok(Some(t)),
        Err(e) => {
            fallback(ctx, &format!("'{name}' {e}"));
            Ok(None)
        }
    }
}
