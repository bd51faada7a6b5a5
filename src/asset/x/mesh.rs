//! `Mesh` and what it holds: `MeshNormals`, `MeshTextureCoords`, `MeshMaterialList` and
//! `SkinWeights`, read into plain lists with every index checked against what it indexes.
//! `XSkinMeshHeader`, `VertexDuplicationIndices` and other children are skipped.

use glam::{Mat4, Vec2, Vec3};

use super::materials::{self, NamedMaterials, XMaterial};
use super::matrix;
use super::reader::{Child, Reader, Result, show};
use crate::asset::ErrorKind;

/// Fewest bytes of text a number takes (one digit and a separator).
const NUMBER_BYTES: usize = 2;

/// Polygons as index lists: face `f` is `indices[starts[f]..starts[f + 1]]`.
#[derive(Debug, Default)]
pub(super) struct Faces {
    /// Where each face starts in `indices`, plus the end of the last.
    pub starts: Vec<usize>,
    /// Every face's indices, one face after another.
    pub indices: Vec<u32>,
}

impl Faces {
    /// Number of faces.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The indices of face `f` (empty past the end).
    pub fn face(&self, f: usize) -> &[u32] {
        match (self.starts.get(f), self.starts.get(f + 1)) {
            (Some(&a), Some(&b)) => self.indices.get(a..b).unwrap_or_default(),
            _ => &[],
        }
    }
}

/// One `SkinWeights`: the vertices a bone moves, and the bone's offset matrix.
#[derive(Debug)]
pub(super) struct Skin {
    /// `transformNodeName`: the frame that is the bone.
    pub bone: String,
    /// Mesh vertex indices (checked).
    pub vertices: Vec<u32>,
    /// Their weights (finite, not negative).
    pub weights: Vec<f32>,
    /// `matrixOffset` in the column-vector convention: mesh space to bone space.
    pub offset: Mat4,
    /// Where it is, for errors found later.
    pub section: String,
}

/// One `Mesh`.
#[derive(Debug)]
pub(super) struct XMesh {
    /// The frame the mesh is in, if any.
    pub frame: Option<usize>,
    /// How errors found later name it (`Mesh 'mesh_Wuson'`).
    pub section: String,
    /// Vertex positions.
    pub positions: Vec<Vec3>,
    /// Faces over `positions`.
    pub faces: Faces,
    /// `MeshNormals`: normals and faces over them, one per mesh face with as many corners.
    pub normals: Option<(Vec<Vec3>, Faces)>,
    /// `MeshTextureCoords`: one per position.
    pub uvs: Option<Vec<Vec2>>,
    /// `MeshMaterialList`: one material per face (checked), and the materials.
    pub materials: Option<(Vec<u32>, Vec<XMaterial>)>,
    /// Every `SkinWeights`, in file order.
    pub skins: Vec<Skin>,
}

/// Reads a `Mesh` whose `{` is consumed. `frame` is the enclosing frame; `named` are the
/// top-level materials read so far (references resolve to them).
pub(super) fn read(
    r: &mut Reader,
    name: Option<&[u8]>,
    frame: Option<usize>,
    named: &NamedMaterials,
) -> Result<XMesh> {
    let section = format!(
        "Mesh '{}'",
        String::from_utf8_lossy(name.unwrap_or_default()).escape_debug()
    );
    let previous = r.enter(section.clone());
    let n = r.count("vertices", 3 * NUMBER_BYTES)?;
    let mut positions = Vec::with_capacity(n);
    for _ in 0..n {
        positions.push(Vec3::from_array(r.floats()?));
    }
    let faces = faces(r, n, "faces", "vertex")?;
    let mut mesh = XMesh {
        frame,
        section: section.clone(),
        positions,
        faces,
        normals: None,
        uvs: None,
        materials: None,
        skins: Vec::new(),
    };
    loop {
        match r.child()? {
            Child::Close => break,
            Child::Reference(_) => {}
            Child::Object { kind, name } => {
                let inner = r.enter(format!("{section} > {}", show(kind)));
                match kind {
                    b"MeshNormals" => {
                        once(r, mesh.normals.is_some())?;
                        mesh.normals = Some(normals(r, &mesh.faces)?);
                        r.close()?;
                    }
                    b"MeshTextureCoords" => {
                        once(r, mesh.uvs.is_some())?;
                        mesh.uvs = Some(texture_coords(r, mesh.positions.len())?);
                        r.close()?;
                    }
                    b"MeshMaterialList" => {
                        once(r, mesh.materials.is_some())?;
                        mesh.materials = Some(material_list(r, mesh.faces.len(), named)?);
                    }
                    b"SkinWeights" => {
                        let skin = skin_weights(r, name, mesh.positions.len())?;
                        mesh.skins.push(skin);
                    }
                    _ => r.skip_object()?,
                }
                r.leave(inner);
            }
        }
    }
    r.leave(previous);
    Ok(mesh)
}

/// Refuses a second child of a kind a mesh has once.
fn once(r: &Reader, seen: bool) -> Result<()> {
    if seen {
        return Err(r.error(ErrorKind::Invalid, "the mesh already has one"));
    }
    Ok(())
}

/// A face list (`nFaces; n; i, i, i;, ...`) over `targets` items.
fn faces(r: &mut Reader, targets: usize, what: &str, item: &str) -> Result<Faces> {
    let n = r.count(what, 2 * NUMBER_BYTES)?;
    let mut out = Faces {
        starts: Vec::with_capacity(n + 1),
        indices: Vec::with_capacity(3 * n),
    };
    out.starts.push(0);
    for f in 0..n {
        let corners = r.count("face corners", NUMBER_BYTES)?;
        if corners < 3 {
            return Err(r.error(
                ErrorKind::Invalid,
                format!("face {f} has {corners} corners; a face needs at least 3"),
            ));
        }
        for _ in 0..corners {
            let i = r.u32()?;
            if i as usize >= targets {
                return Err(r.error(
                    ErrorKind::IndexOutOfRange,
                    format!("face {f} uses {item} {i}, but there are {targets}"),
                ));
            }
            out.indices.push(i);
        }
        out.starts.push(out.indices.len());
    }
    Ok(out)
}

/// `MeshNormals`: normals, then one face per mesh face with the same number of corners.
fn normals(r: &mut Reader, mesh_faces: &Faces) -> Result<(Vec<Vec3>, Faces)> {
    let n = r.count("normals", 3 * NUMBER_BYTES)?;
    let mut normals = Vec::with_capacity(n);
    for _ in 0..n {
        normals.push(Vec3::from_array(r.floats()?));
    }
    let faces = faces(r, n, "normal faces", "normal")?;
    if faces.len() != mesh_faces.len() {
        return Err(r.error(
            ErrorKind::CountMismatch,
            format!(
                "{} normal faces for {} mesh faces",
                faces.len(),
                mesh_faces.len()
            ),
        ));
    }
    for f in 0..faces.len() {
        let (a, b) = (faces.face(f).len(), mesh_faces.face(f).len());
        if a != b {
            return Err(r.error(
                ErrorKind::CountMismatch,
                format!("normal face {f} has {a} corners, but mesh face {f} has {b}"),
            ));
        }
    }
    Ok((normals, faces))
}

/// `MeshTextureCoords`: one `u v` per vertex.
fn texture_coords(r: &mut Reader, vertices: usize) -> Result<Vec<Vec2>> {
    let n = r.count("texture coordinates", 2 * NUMBER_BYTES)?;
    if n != vertices {
        return Err(r.error(
            ErrorKind::CountMismatch,
            format!("{n} texture coordinates for {vertices} vertices"),
        ));
    }
    let mut uvs = Vec::with_capacity(n);
    for _ in 0..n {
        uvs.push(Vec2::from_array(r.floats()?));
    }
    Ok(uvs)
}

/// `MeshMaterialList` (its `{` consumed, read through its `}`): a material per face, then the
/// materials, inline or as references to top-level ones. A shorter face list repeats its
/// last entry for the remaining faces (as D3DX reads it).
fn material_list(
    r: &mut Reader,
    faces: usize,
    named: &NamedMaterials,
) -> Result<(Vec<u32>, Vec<XMaterial>)> {
    let count = r.count("materials", NUMBER_BYTES)?;
    let n = r.count("face materials", NUMBER_BYTES)?;
    if n > faces {
        return Err(r.error(
            ErrorKind::CountMismatch,
            format!("{n} face materials for {faces} faces"),
        ));
    }
    let mut per_face = Vec::with_capacity(faces);
    for f in 0..n {
        let m = r.u32()?;
        if m as usize >= count {
            return Err(r.error(
                ErrorKind::IndexOutOfRange,
                format!("face {f} uses material {m}, but the list has {count}"),
            ));
        }
        per_face.push(m);
    }
    let last = per_face.last().copied().unwrap_or(0);
    per_face.resize(faces, last);
    let mut list = Vec::with_capacity(count);
    loop {
        match r.child()? {
            Child::Close => break,
            Child::Reference(name) => match named.get(name) {
                Some(m) => list.push(m.clone()),
                None => {
                    return Err(r.error(
                        ErrorKind::IndexOutOfRange,
                        format!(
                            "refers to material '{}', which no earlier Material defines",
                            show(name)
                        ),
                    ));
                }
            },
            Child::Object {
                kind: b"Material",
                name,
            } => list.push(materials::read(r, name)?),
            Child::Object { .. } => r.skip_object()?,
        }
    }
    if list.len() != count {
        return Err(r.error(
            ErrorKind::CountMismatch,
            format!("the list promises {count} materials and has {}", list.len()),
        ));
    }
    Ok((per_face, list))
}

/// `SkinWeights` (its `{` consumed, read through its `}`).
fn skin_weights(r: &mut Reader, name: Option<&[u8]>, vertices: usize) -> Result<Skin> {
    let bone = r.string()?;
    let bone = String::from_utf8_lossy(bone).into_owned();
    let section = match name {
        Some(n) => format!("SkinWeights '{}' ('{}')", show(n), bone.escape_debug()),
        None => format!("SkinWeights '{}'", bone.escape_debug()),
    };
    let previous = r.enter(section.clone());
    let n = r.count("weights", 2 * NUMBER_BYTES)?;
    let mut indices = Vec::with_capacity(n);
    for _ in 0..n {
        let i = r.u32()?;
        if i as usize >= vertices {
            return Err(r.error(
                ErrorKind::IndexOutOfRange,
                format!("vertex index {i} is out of range: the mesh has {vertices} vertices"),
            ));
        }
        indices.push(i);
    }
    let mut weights = Vec::with_capacity(n);
    for _ in 0..n {
        let w = r.f32()?;
        if w < 0.0 {
            return Err(r.error(ErrorKind::Invalid, format!("the weight {w} is negative")));
        }
        weights.push(w);
    }
    let offset = matrix::read(r)?;
    r.close()?;
    r.leave(previous);
    Ok(Skin {
        bone,
        vertices: indices,
        weights,
        offset,
        section,
    })
}
