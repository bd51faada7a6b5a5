//! An independent reference for glTF palettes, built only on the `gltf` crate's own
//! document and reader: each joint's global transform is found by walking the node
//! hierarchy (non-joint ancestors included) with every node's TRS, animated by sampling that
//! node's channels with a linear key search, and multiplied by the file's inverse bind
//! matrix. It shares nothing with the loader but the file.

use base64::Engine;
use glam::{Mat4, Quat, Vec3, Vec4};
use gltf::animation::util::ReadOutputs;
use gltf::animation::{Interpolation, Property};
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel};

/// A parsed file with its buffers.
pub struct Reference {
    doc: gltf::Document,
    buffers: Vec<Vec<u8>>,
    parent: Vec<Option<usize>>,
}

enum Keys {
    Vec3(Vec<Vec3>),
    Quat(Vec<Quat>),
}

impl Reference {
    /// Parses `bytes` (GLB, or JSON with base64 data URIs).
    pub fn new(bytes: &[u8]) -> Self {
        let gltf = gltf::Gltf::from_slice(bytes).expect("the gltf crate parses it");
        let buffers = gltf
            .buffers()
            .map(|b| match b.source() {
                gltf::buffer::Source::Bin => gltf.blob.clone().expect("GLB blob"),
                gltf::buffer::Source::Uri(uri) => {
                    let (_, data) = uri.split_once(";base64,").expect("data URI");
                    base64::engine::general_purpose::STANDARD
                        .decode(data)
                        .expect("base64")
                }
            })
            .collect();
        let mut parent = vec![None; gltf.nodes().len()];
        for node in gltf.nodes() {
            for child in node.children() {
                parent[child.index()] = Some(node.index());
            }
        }
        Self {
            doc: gltf.document,
            buffers,
            parent,
        }
    }

    /// Node `n`'s local TRS at time `t` of `animation`.
    fn local(&self, n: usize, animation: usize, t: f32) -> Mat4 {
        let node = self.doc.nodes().nth(n).expect("node");
        let (t0, r0, s0) = node.transform().decomposed();
        let (mut tr, mut rot, mut sc) = (Vec3::from(t0), Quat::from_array(r0), Vec3::from(s0));
        let anim = self.doc.animations().nth(animation).expect("animation");
        for channel in anim.channels() {
            if channel.target().node().index() != n {
                continue;
            }
            let reader = channel.reader(|b| Some(&self.buffers[b.index()][..]));
            let times: Vec<f32> = reader.read_inputs().expect("inputs").collect();
            let keys = match reader.read_outputs().expect("outputs") {
                ReadOutputs::Translations(v) | ReadOutputs::Scales(v) => {
                    Keys::Vec3(v.map(Vec3::from).collect())
                }
                ReadOutputs::Rotations(v) => {
                    Keys::Quat(v.into_f32().map(Quat::from_array).collect())
                }
                ReadOutputs::MorphTargetWeights(_) => continue,
            };
            let interp = channel.sampler().interpolation();
            match (channel.target().property(), keys) {
                (Property::Translation, Keys::Vec3(k)) => {
                    tr = sample(&times, &k, interp, t, |v| v.extend(0.0), false).truncate()
                }
                (Property::Scale, Keys::Vec3(k)) => {
                    sc = sample(&times, &k, interp, t, |v| v.extend(0.0), false).truncate()
                }
                (Property::Rotation, Keys::Quat(k)) => {
                    rot =
                        Quat::from_vec4(sample(&times, &k, interp, t, Vec4::from, true).normalize())
                }
                _ => {}
            }
        }
        Mat4::from_scale_rotation_translation(sc, rot.normalize(), tr)
    }

    /// Node `n`'s global (scene) transform at time `t` of `animation`.
    pub fn global(&self, n: usize, animation: usize, t: f32) -> Mat4 {
        let local = self.local(n, animation, t);
        match self.parent[n] {
            Some(p) => self.global(p, animation, t) * local,
            None => local,
        }
    }

    /// The palette of skin `skin` at `t`, in the skin's joint order.
    pub fn palette(&self, skin: usize, animation: usize, t: f32) -> Vec<Mat4> {
        let skin = self.doc.skins().nth(skin).expect("skin");
        let reader = skin.reader(|b| Some(&self.buffers[b.index()][..]));
        let ibms: Vec<Mat4> = match reader.read_inverse_bind_matrices() {
            Some(m) => m.map(|m| Mat4::from_cols_array_2d(&m)).collect(),
            None => vec![Mat4::IDENTITY; skin.joints().count()],
        };
        skin.joints()
            .zip(ibms)
            .map(|(node, ibm)| self.global(node.index(), animation, t) * ibm)
            .collect()
    }

    /// Asserts that `model`'s palette of clip `animation` at `t` equals the reference for
    /// skin 0, joint by joint, to `rel` relative (largest difference over the largest
    /// element, at least 1).
    pub fn assert_matches(&self, model: &SkinnedModel, animation: usize, t: f32, rel: f32) {
        let n = model.joint_count();
        let mut scratch = PoseScratch::new(n);
        let mut ours = vec![Mat3x4::IDENTITY; n];
        model.evaluate(animation, t, &mut scratch, &mut ours);
        let from_source = model.skeleton().index_from_source();
        for (k, want) in self.palette(0, animation, t).iter().enumerate() {
            let j = from_source[k];
            let want = Mat3x4::from_mat4(want).to_array();
            let got = ours[j].to_array();
            let scale = want.iter().fold(1.0f32, |m, x| m.max(x.abs()));
            let diff = got
                .iter()
                .zip(&want)
                .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
            assert!(
                diff <= rel * scale,
                "{}: clip {animation} at {t}: skin joint {k} ({}) differs by {diff}\n  ours {got:?}\n  file {want:?}",
                model.name(),
                model.skeleton().names()[j]
            );
        }
    }
}

/// Samples keys at `t` (held before the first and after the last key); LINEAR rotations
/// use glam's slerp, everything else componentwise formulas.
fn sample<T: Copy>(
    times: &[f32],
    keys: &[T],
    interp: Interpolation,
    t: f32,
    v4: impl Fn(T) -> Vec4,
    rotation: bool,
) -> Vec4 {
    let cubic = interp == Interpolation::CubicSpline;
    let value = |k: usize| {
        if cubic {
            v4(keys[3 * k + 1])
        } else {
            v4(keys[k])
        }
    };
    let last = times.len() - 1;
    if t <= times[0] {
        return value(0);
    }
    if t >= times[last] {
        return value(last);
    }
    let k = times.iter().rposition(|&x| x <= t).expect("bracketed");
    let dt = times[k + 1] - times[k];
    let f = (t - times[k]) / dt;
    match interp {
        Interpolation::Step => value(k),
        Interpolation::Linear => {
            let (a, b) = (value(k), value(k + 1));
            if rotation {
                let (qa, qb) = (
                    Quat::from_vec4(a).normalize(),
                    Quat::from_vec4(b).normalize(),
                );
                Vec4::from(qa.slerp(qb, f))
            } else {
                a.lerp(b, f)
            }
        }
        Interpolation::CubicSpline => {
            let (p0, m0) = (value(k), v4(keys[3 * k + 2]) * dt);
            let (p1, m1) = (value(k + 1), v4(keys[3 * (k + 1)]) * dt);
            let (f2, f3) = (f * f, f * f * f);
            p0 * (2.0 * f3 - 3.0 * f2 + 1.0)
                + m0 * (f3 - 2.0 * f2 + f)
                + p1 * (-2.0 * f3 + 3.0 * f2)
                + m1 * (f3 - f2)
        }
    }
}
