//! Materials and their textures. Images come from a buffer view, a data URI or a file next
//! to the model, and are decoded by [`crate::asset::texture`].
//!
//! What is missing and what is broken are treated differently: an external image file that
//! cannot be read (textures often do not travel with a model) is a warning, once per file,
//! and its materials fall back to their base color; but an image stored inside the model
//! (buffer view or data URI) that does not decode means the model itself is damaged, like a
//! truncated accessor, and is an error naming the image. An external file that exists but
//! does not decode is, like a missing one, a warning.

use std::collections::HashMap;
use std::path::Path;

use gltf::Document;
use gltf::material::AlphaMode;

use crate::anim::{Material, Texture};
use crate::asset::texture;
use crate::asset::{ErrorKind, LoadError};

use super::buffers::Buffers;
use super::context::Ctx;
use super::uri::{self, Target};

/// Largest external image file read, matching the decoder's own size limit.
const MAX_IMAGE_FILE: u64 = 1 << 30;

/// Materials in the file's order, and the textures they use.
pub(super) struct Materials {
    /// One per glTF material.
    pub materials: Vec<Material>,
    /// Decoded images, each once however many materials use it.
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

/// Image decoding with a cache (several materials may share an image).
struct Images<'b, 'a> {
    buffers: &'b Buffers<'a>,
    base_dir: Option<&'b Path>,
    loaded: HashMap<usize, Option<usize>>,
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
        let texture = self.decode(ctx, doc, index)?;
        let slot = texture.map(|t| {
            self.textures.push(t);
            self.textures.len() - 1
        });
        self.loaded.insert(index, slot);
        Ok(slot)
    }

    fn decode(
        &mut self,
        ctx: &mut Ctx,
        doc: &Document,
        index: usize,
    ) -> Result<Option<Texture>, LoadError> {
        let section = format!("images[{index}]");
        let name = format!("image {index}");
        // The JSON is read directly: the crate's accessor assumes a MIME type is present.
        let Some(json) = doc.as_json().images.get(index) else {
            return Err(ctx.error(ErrorKind::IndexOutOfRange, section, "does not exist"));
        };
        let embedded = |ctx: &Ctx, bytes: &[u8]| {
            texture::decode(&name, bytes).map_err(|e| {
                ctx.error(
                    ErrorKind::Invalid,
                    section.as_str(),
                    format!("embedded image does not decode: {e}"),
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
            let bytes = self.buffers.view(ctx, &view)?;
            return embedded(ctx, bytes).map(Some);
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
                let bytes = uri::decode_base64(ctx, &section, payload)?;
                embedded(ctx, &bytes).map(Some)
            }
            Target::File(relative) => {
                let bytes =
                    match uri::read_file(ctx, &section, self.base_dir, &relative, MAX_IMAGE_FILE) {
                        Ok(bytes) => bytes,
                        // Without a folder there is no file to miss: that is the caller's choice
                        // to pass bytes only, and external references are then an error.
                        Err(e) if e.kind == ErrorKind::Unsupported => return Err(e),
                        Err(e) => {
                            ctx.warn_once(
                            format!("image file {}", relative.display()),
                            format!(
                                "{section}: {}; materials using it fall back to their base color",
                                e.message
                            ),
                        );
                            return Ok(None);
                        }
                    };
                ctx.add_input(bytes.len() as u64);
                match texture::decode(&relative.display().to_string(), &bytes) {
                    Ok(t) => Ok(Some(t)),
                    Err(e) => {
                        ctx.warn_once(
                            format!("image file {}", relative.display()),
                            format!(
                                "{section}: {e}; materials using it fall back to their base color"
                            ),
                        );
                        Ok(None)
                    }
                }
            }
        }
    }
}
