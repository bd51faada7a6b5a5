//! Props on joints: a static mesh (a hat, a staff, any model file's bind-pose mesh) fixed to a
//! joint of a character, made part of the character's own mesh.
//!
//! A prop's vertices are moved into the joint's bind-pose frame (then by the attachment's
//! offset, in the joint's frame) and bound to that joint alone with full weight: skinning them
//! with the joint's palette matrix (to-root times inverse bind) puts them where the joint is in
//! every pose. Being part of the mesh, a prop is drawn with its character by every pass and in
//! every mode (exact palettes, baked frames, cross-fades), culled with it (the clip bounds are
//! computed with it), drawn at every one of its mesh levels (whole: a prop is a few dozen
//! triangles) and on its impostor card, and drawn instanced: one indirect draw per prop subset
//! and level, like the character's own subsets.
//! Each prop brings its own materials; a look can hide them
//! ([`crate::crowd::Look::hidden`]), so a share of a crowd carries a prop and the rest not.

use glam::Vec3;

use crate::anim::{AnimError, Mat3x4, Mesh, SkinnedModel, Subset, Vertex};

/// A prop to attach: its mesh, the joint, and where on the joint.
#[derive(Clone, Debug)]
pub struct Attachment {
    /// What the prop is called (its materials are named after it).
    pub name: String,
    /// Its mesh, as its file or generator gives it (its joints and weights are replaced).
    pub mesh: Mesh,
    /// The joint it is fixed to (skeleton order).
    pub joint: usize,
    /// Where its origin sits in the joint's bind-pose frame (model units).
    pub offset: Vec3,
}

/// `model` with `attachments` made part of its mesh (see the module documentation), its mesh
/// levels made again when it had any. Refused when a joint does not exist, a prop has no
/// triangles, or the joined mesh would not fit a model (more vertices than 32-bit indices
/// address, or a pose that overflows).
pub fn attach(model: &SkinnedModel, attachments: &[Attachment]) -> Result<SkinnedModel, AnimError> {
    let mut mesh = model.mesh().clone();
    let binds: Vec<Mat3x4> = model.skeleton().bind_to_root();
    for a in attachments {
        let bind = binds.get(a.joint).ok_or_else(|| {
            AnimError::Mesh(format!(
                "prop {}: joint {} is not one of the model's {}",
                a.name,
                a.joint,
                binds.len()
            ))
        })?;
        append_prop(&mut mesh, a, bind)?;
    }
    let mut joined = SkinnedModel::new(
        model.name(),
        model.format(),
        model.skeleton().clone(),
        model.clips().to_vec(),
        mesh,
    )?;
    if !model.lods().is_empty() {
        let levels = with_props_whole(model.lods(), joined.mesh(), model.mesh().subsets.len());
        joined.set_lods(levels)?;
    }
    Ok(joined)
}

/// The model's own levels with the props' subsets (those from `first_prop` on in `mesh`)
/// whole at every level. A prop is a few dozen triangles, where a level's error would be the
/// prop's own shape lost (a staff's cylinder collapsed) rather than the body's: simplified
/// with the body, the staff multiplied the levels' errors by four to six, so coarser levels
/// took over much nearer and the street frame drew twice the triangles.
fn with_props_whole(
    own: &[crate::anim::MeshLod],
    mesh: &Mesh,
    first_prop: usize,
) -> Vec<crate::anim::MeshLod> {
    own.iter()
        .map(|level| {
            let mut level = level.clone();
            for s in &mesh.subsets[first_prop..] {
                let first = level.indices.len() as u32;
                let range = s.index_start as usize..(s.index_start + s.index_count) as usize;
                level.indices.extend_from_slice(&mesh.indices[range]);
                level.subsets.push((first, s.index_count));
            }
            level
        })
        .collect()
}

/// Appends `a`'s mesh to `mesh`, placed by `bind` (the joint's bind pose, model space) and the
/// attachment's offset, bound to the joint alone.
fn append_prop(mesh: &mut Mesh, a: &Attachment, bind: &Mat3x4) -> Result<(), AnimError> {
    if a.mesh.indices.is_empty() {
        return Err(AnimError::Mesh(format!("prop {} has no triangles", a.name)));
    }
    let joint = u16::try_from(a.joint)
        .map_err(|_| AnimError::Mesh(format!("prop {}: joint {} is too large", a.name, a.joint)))?;
    let base = u32::try_from(mesh.vertices.len())
        .ok()
        .filter(|b| b.checked_add(a.mesh.vertices.len() as u32).is_some())
        .ok_or_else(|| AnimError::Mesh(format!("prop {}: too many vertices", a.name)))?;
    let first_index = mesh.indices.len() as u32;
    let first_material = mesh.materials.len();
    let first_texture = mesh.textures.len();
    let place = |p: [f32; 3]| bind.transform_point3(Vec3::from(p) + a.offset).to_array();
    let turn = |d: Vec3| bind.transform_vector3(d).normalize_or_zero();
    mesh.vertices.extend(a.mesh.vertices.iter().map(|v| {
        let t = Vec3::new(v.tangent[0], v.tangent[1], v.tangent[2]);
        let t = turn(t);
        Vertex {
            position: place(v.position),
            normal: turn(Vec3::from(v.normal)).to_array(),
            tangent: [t.x, t.y, t.z, v.tangent[3]],
            uv: v.uv,
            joints: [joint, 0, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
        }
    }));
    mesh.indices.extend(a.mesh.indices.iter().map(|i| i + base));
    mesh.materials.extend(a.mesh.materials.iter().map(|m| {
        let mut m = m.clone();
        m.name = format!("{} {}", a.name, m.name);
        m.base_color_texture = m.base_color_texture.map(|t| t + first_texture);
        m.normal_texture = m.normal_texture.map(|t| t + first_texture);
        m
    }));
    mesh.textures.extend(a.mesh.textures.iter().cloned());
    mesh.subsets.extend(a.mesh.subsets.iter().map(|s| Subset {
        vertex_start: s.vertex_start + base,
        vertex_count: s.vertex_count,
        index_start: s.index_start + first_index,
        index_count: s.index_count,
        material: s.material + first_material,
    }));
    Ok(())
}

/// The materials `attachments` add to a model whose own mesh has `own` materials: their
/// indices in the joined mesh.
pub fn prop_materials(own: usize, attachments: &[Attachment]) -> std::ops::Range<usize> {
    own..own
        + attachments
            .iter()
            .map(|a| a.mesh.materials.len())
            .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::PoseScratch;
    use crate::asset::builtin;

    #[test]
    fn a_prop_follows_its_joint_in_every_pose() {
        let model = builtin::model().expect("builtin");
        let hand = model.skeleton().find("hand_r").expect("a right hand");
        let staff = builtin::props::prop("staff").expect("a staff");
        let offset = Vec3::new(0.0, -0.08, 0.01);
        let attachments = [Attachment {
            name: "staff".into(),
            mesh: staff.mesh.clone(),
            joint: hand,
            offset,
        }];
        let joined = attach(&model, &attachments).expect("attached");
        let own = model.mesh();
        let mesh = joined.mesh();
        assert_eq!(
            mesh.subsets.len(),
            own.subsets.len() + staff.mesh.subsets.len()
        );
        assert_eq!(
            prop_materials(own.materials.len(), &attachments),
            own.materials.len()..own.materials.len() + 1
        );
        assert!(
            mesh.materials
                .last()
                .expect("a material")
                .name
                .starts_with("staff ")
        );
        // Every prop vertex stays at its place in the hand's frame: its skinned position is the
        // hand's to-root transform applied to (its own position + offset), in every clip and at
        // every time.
        let first = own.vertices.len();
        let n = model.joint_count();
        let mut scratch = PoseScratch::new(n);
        let mut palette = vec![Mat3x4::IDENTITY; n];
        for clip in 0..model.clips().len() {
            for t in [0.0, 0.21, 0.47] {
                joined.evaluate(clip, t, &mut scratch, &mut palette);
                let to_root = scratch.to_root(n)[hand];
                for (k, v) in mesh.vertices[first..].iter().enumerate().step_by(7) {
                    assert_eq!(v.joints[0] as usize, hand);
                    assert_eq!(v.weights, [1.0, 0.0, 0.0, 0.0]);
                    let want = to_root
                        .transform_point3(Vec3::from(staff.mesh.vertices[k].position) + offset);
                    let got = palette[hand].transform_point3(Vec3::from(v.position));
                    assert!(
                        got.distance(want) < 1e-4,
                        "clip {clip} at {t}: vertex {k} at {got}, the hand puts it at {want}"
                    );
                }
            }
        }
        // Loaded, the character has levels: the joined model keeps them, the staff whole in
        // each, their errors the character's own.
        let loaded = crate::asset::load_model(None).expect("the built-in character, loaded");
        let with_levels = attach(&loaded, &attachments).expect("attached");
        assert!(!loaded.lods().is_empty());
        for (a, b) in loaded.lods().iter().zip(with_levels.lods()) {
            assert_eq!(b.error, a.error);
            assert_eq!(b.indices.len(), a.indices.len() + staff.mesh.indices.len());
        }
        assert_eq!(joined.lods().len(), model.lods().len());
    }

    #[test]
    fn a_missing_joint_or_an_empty_prop_is_refused() {
        let model = builtin::model().expect("builtin");
        let hat = builtin::props::prop("hat").expect("a hat");
        let bad_joint = Attachment {
            name: "hat".into(),
            mesh: hat.mesh.clone(),
            joint: 99,
            offset: Vec3::ZERO,
        };
        assert!(attach(&model, &[bad_joint]).is_err());
        let empty = Attachment {
            name: "nothing".into(),
            mesh: Mesh::default(),
            joint: 0,
            offset: Vec3::ZERO,
        };
        assert!(attach(&model, &[empty]).is_err());
    }
}
