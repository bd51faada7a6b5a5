//! Decoding a vertex buffer into throng's vertices for one mesh.
//!
//! A skinned mesh's blend indices index the mesh's own bone list (frame indices), which is
//! remapped here to joints. A mesh without a bone list (or without blend indices) is rigid: its
//! vertices are in the space of the frame that places it, so they are moved into model space by
//! that frame's bind to-root and bound to it with weight 1.

use glam::{Mat3, Vec3};

use super::buffers::VertexBuffer;
use super::declaration::Element;
use crate::anim::{Mat3x4, Vertex};
use crate::asset::ErrorKind;

/// How a mesh's vertices follow the skeleton.
pub(super) enum Binding {
    /// Blend index `i` means joint `joints[i]`.
    Skinned { joints: Vec<u16> },
    /// Every vertex follows `joint`, whose bind to-root is `to_root`.
    Rigid { joint: u16, to_root: Mat3x4 },
}

/// Quantized weights (`UBYTE4N`) sum to 1 only within 1/255 per weight; a sum further from 1
/// than this is counted for the loader's warning (every sum is renormalized either way).
const WEIGHT_SUM_TOLERANCE: f32 = 4.0 / 255.0;

/// Appends the `vb.count` vertices of `vb` to `out`; returns how many had weights far from
/// summing to 1. Errors name the vertex (`vertex 12: ...`).
pub(super) fn decode(
    vb: &VertexBuffer,
    binding: &Binding,
    out: &mut Vec<Vertex>,
) -> Result<usize, (ErrorKind, String)> {
    let d = &vb.declaration;
    let read = |e: Option<Element>, bytes: &[u8]| -> Option<[f32; 4]> {
        let e = e?;
        Some(e.ty.decode(bytes.get(e.offset..).unwrap_or(&[])))
    };
    let normal_matrix = match binding {
        Binding::Rigid { to_root, .. } => {
            let linear = Mat3::from(to_root.to_affine().matrix3);
            Some((linear, linear.inverse().transpose()))
        }
        Binding::Skinned { .. } => None,
    };
    let mut off = 0;
    out.reserve(vb.count);
    for v in 0..vb.count {
        let bytes = vb.vertex(v);
        let p = read(d.position, bytes).unwrap_or_default();
        let n = read(d.normal, bytes).unwrap_or([0.0, 1.0, 0.0, 0.0]);
        let t = read(d.tangent, bytes).unwrap_or([1.0, 0.0, 0.0, 1.0]);
        let uv = read(d.texcoord, bytes).unwrap_or_default();
        let handedness = match d.tangent {
            Some(e) if e.ty.components() >= 4 && t[3] < 0.0 => -1.0,
            _ => 1.0,
        };
        let mut vertex = Vertex {
            position: [p[0], p[1], p[2]],
            normal: [n[0], n[1], n[2]],
            tangent: [t[0], t[1], t[2], handedness],
            uv: [uv[0], uv[1]],
            joints: [0; 4],
            weights: [1.0, 0.0, 0.0, 0.0],
        };
        match binding {
            Binding::Skinned { joints } => {
                let indices = read(d.blend_indices, bytes).unwrap_or_default();
                let weights = weights(d.blend_weights, read(d.blend_weights, bytes));
                let far = skin(&mut vertex, joints, indices, weights)
                    .map_err(|(kind, why)| (kind, format!("vertex {v}: {why}")))?;
                off += usize::from(far);
            }
            Binding::Rigid { joint, to_root } => {
                vertex.joints[0] = *joint;
                let (linear, normals) = normal_matrix.unwrap_or((Mat3::IDENTITY, Mat3::IDENTITY));
                vertex.position = to_root.transform_point3(Vec3::from(vertex.position)).into();
                let n = normals * Vec3::from(vertex.normal);
                vertex.normal = n.try_normalize().unwrap_or(n).into();
                let t3 = linear * Vec3::new(t[0], t[1], t[2]);
                let t3 = t3.try_normalize().unwrap_or(t3);
                vertex.tangent = [t3.x, t3.y, t3.z, handedness];
            }
        }
        out.push(vertex);
    }
    Ok(off)
}

/// The four blend weights of a vertex. With fewer than four stored, the next one is what the
/// stored ones leave of 1 (Direct3D 9's rule); with none, the first index has all the weight.
fn weights(element: Option<Element>, stored: Option<[f32; 4]>) -> [f32; 4] {
    let (Some(e), Some(w)) = (element, stored) else {
        return [1.0, 0.0, 0.0, 0.0];
    };
    let n = e.ty.components().min(4);
    let mut out = [0.0; 4];
    out[..n].copy_from_slice(&w[..n]);
    if let Some(next) = out.get_mut(n) {
        *next = (1.0 - w[..n].iter().sum::<f32>()).max(0.0);
    }
    out
}

/// Sets the joints and weights of `vertex` from its stored blend indices and weights;
/// returns whether the weights were far from summing to 1.
fn skin(
    vertex: &mut Vertex,
    joints: &[u16],
    indices: [f32; 4],
    weights: [f32; 4],
) -> Result<bool, (ErrorKind, String)> {
    if let Some(w) = weights.iter().find(|w| !(**w >= 0.0 && w.is_finite())) {
        return Err((
            ErrorKind::Invalid,
            format!("blend weight {w} is negative or not finite"),
        ));
    }
    let sum: f32 = weights.iter().sum();
    if !(sum > 0.0 && sum.is_finite()) {
        return Err((
            ErrorKind::Invalid,
            "all blend weights are 0, so the vertex follows no bone".into(),
        ));
    }
    vertex.joints = [0; 4];
    vertex.weights = [0.0; 4];
    for k in 0..4 {
        if weights[k] == 0.0 {
            continue;
        }
        // Integer element types decode to whole, non-negative-or-small numbers.
        let local = indices[k];
        let joint = (local >= 0.0)
            .then(|| joints.get(local as usize))
            .flatten()
            .ok_or_else(|| {
                (
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "blend index {local} is outside the mesh's {} frame influences",
                        joints.len()
                    ),
                )
            })?;
        vertex.joints[k] = *joint;
        vertex.weights[k] = weights[k] / sum;
    }
    Ok((sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_weights_complete_to_one_and_indices_are_remapped() {
        let mut v = Vertex::default();
        let e = Element {
            offset: 0,
            ty: super::super::declaration::ElementType::Float(1),
        };
        let w = weights(Some(e), Some([0.25, 9.0, 9.0, 9.0]));
        assert_eq!(w, [0.25, 0.75, 0.0, 0.0]);
        let far = skin(&mut v, &[7, 9], [1.0, 0.0, 0.0, 0.0], w).expect("valid");
        assert!(!far);
        assert_eq!(
            (v.joints, v.weights),
            ([9, 7, 0, 0], [0.25, 0.75, 0.0, 0.0])
        );
        let err = skin(&mut v, &[7], [3.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]).expect_err("oob");
        assert!(
            err.1.contains("outside the mesh's 1 frame influences"),
            "{err:?}"
        );
    }
}
