//! The text `.x` loader on the two shared samples (`tiny.x`, `Testwuson.X`) and on small
//! files of our own: counts and names, the rotation-key convention checked against the file's
//! own frame matrices, palettes checked against two independent references (the naive
//! evaluator on the loaded model, and a textbook reader of the file's text doing D3DX's
//! row-vector math), the refusals, polygon fanning and vertex splitting.

mod common;

use std::path::{Path, PathBuf};

use glam::{DMat4, DQuat, DVec3, Vec3};
use throng::anim::{Mat3x4, PoseScratch, SkinnedModel};
use throng::asset::{self, ErrorKind, x};

fn tiny_path() -> PathBuf {
    common::shared_asset("dxsdk/tiny.x")
}

fn wuson_path() -> PathBuf {
    common::shared_asset("assimp/Testwuson.X")
}

fn load(path: &Path) -> SkinnedModel {
    x::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A sample's text (Testwuson.X has Latin-1 bytes in a comment string).
fn text_of(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).expect("readable")).into_owned()
}

fn small() -> &'static str {
    include_str!("x_samples/small.x")
}

fn palette(model: &SkinnedModel, clip: usize, t: f32) -> Vec<Mat3x4> {
    let mut scratch = PoseScratch::new(model.joint_count());
    let mut out = vec![Mat3x4::IDENTITY; model.joint_count()];
    model.evaluate(clip, t, &mut scratch, &mut out);
    out
}

/// Joint names in the order `info` and `pose` report them (the file's).
fn names_in_source_order(model: &SkinnedModel) -> Vec<String> {
    let s = model.skeleton();
    let mut named: Vec<(usize, String)> = (0..s.len())
        .map(|j| (s.source_index(j), s.names()[j].clone()))
        .collect();
    named.sort();
    named.into_iter().map(|(_, n)| n).collect()
}

#[test]
fn tiny_has_its_bones_then_its_animated_ancestors() {
    let model = load(&tiny_path());
    assert_eq!((model.name(), model.format()), ("tiny", "x"));
    let text = textbook::read(&text_of(&tiny_path()));
    // The 35 bones SkinWeights name, in that order; then the two frames above them that the
    // AnimationSet moves away from their own matrices (Box01, Bip01), in
    // file order. Scene_Root is keyed too, but its keys repeat its matrix: it stays folded.
    let names = names_in_source_order(&model);
    assert_eq!(text.bones.len(), 35);
    assert_eq!(names.len(), 37);
    assert_eq!(&names[..35], text.bones.as_slice());
    assert_eq!(&names[35..], ["Box01", "Bip01"]);
    assert_eq!(model.clips().len(), 1);
    let clip = &model.clips()[0];
    // No AnimTicksPerSecond: D3DX's 4800 applies; the last key is at tick 4960.
    assert_eq!(clip.name(), "clip0");
    assert!((clip.duration() - 4960.0 / 4800.0).abs() < 1e-6);
    let mesh = model.mesh();
    assert_eq!((mesh.vertices.len(), mesh.triangle_count()), (4432, 6841));
    assert_eq!(mesh.materials.len(), 1);
    assert_eq!(mesh.materials[0].name, "Tiny_skin");
    // Box01 and Bip01 carry no influence and an identity offset.
    for name in ["Box01", "Bip01"] {
        let j = model.skeleton().find(name).expect(name);
        assert_eq!(model.skeleton().offsets()[j], Mat3x4::IDENTITY);
        assert!(mesh.vertices.iter().all(|v| {
            v.joints
                .iter()
                .zip(v.weights)
                .all(|(&k, w)| k as usize != j || w == 0.0)
        }));
    }
}

#[test]
fn wuson_has_its_bones_root_and_three_clips() {
    let model = load(&wuson_path());
    let text = textbook::read(&text_of(&wuson_path()));
    let names = names_in_source_order(&model);
    assert_eq!(text.bones.len(), 37);
    assert_eq!(&names[..37], text.bones.as_slice());
    assert_eq!(&names[37..], ["Root"]);
    let clips: Vec<(&str, f32)> = model
        .clips()
        .iter()
        .map(|c| (c.name(), c.duration()))
        .collect();
    let want: Vec<(String, f32)> = text
        .sets
        .iter()
        .map(|s| (s.name.clone(), s.last_tick as f32 / 4800.0))
        .collect();
    assert_eq!(clips.len(), 3);
    for ((name, duration), (want_name, want_duration)) in clips.iter().zip(&want) {
        assert_eq!(name, want_name);
        assert!((duration - want_duration).abs() < 1e-6, "{name}");
    }
    assert_eq!(
        clips.iter().map(|c| c.0).collect::<Vec<_>>(),
        ["Wuson_Run", "Wuson_Walk", "Wuson_Bind"]
    );
    let mesh = model.mesh();
    assert_eq!((mesh.vertices.len(), mesh.triangle_count()), (3205, 3732));
}

/// D3DX's rotation matrix of a quaternion, row-vector layout (`p' = p R`), as
/// `D3DXMatrixRotationQuaternion` computes it.
fn d3dx_rotation(q: DQuat) -> DMat4 {
    // glam's matrix of q is column-vector; the row-vector matrix of the same rotation is its
    // transpose.
    DMat4::from_quat(q).transpose()
}

/// A frame's first rotation key reproduces its FrameTransformMatrix only when the key is read
/// as the conjugate of `w x y z` — the convention the loader uses.
#[test]
fn first_rotation_keys_reproduce_the_frame_matrices_one_way_round() {
    let text = textbook::read(&text_of(&wuson_path()));
    let (mut as_conjugate, mut as_written, mut rotated) = (0, 0, 0);
    for set in &text.sets {
        for (frame, keys) in &set.animations {
            let Some(q) = keys.rotation.first() else {
                continue;
            };
            let m = text.frames[frame].matrix;
            // The rotation part, scale divided out.
            let scale = DVec3::new(
                m.row(0).truncate().length(),
                m.row(1).truncate().length(),
                m.row(2).truncate().length(),
            );
            let r = DMat4::from_scale(scale.recip()) * m;
            let same = |a: DMat4| {
                (0..3).all(|i| {
                    (a.row(i).truncate() - r.row(i).truncate())
                        .abs()
                        .max_element()
                        < 1e-3
                })
            };
            let w = q.1;
            if same(d3dx_rotation(w.conjugate())) {
                as_conjugate += 1;
            }
            if same(d3dx_rotation(w)) {
                as_written += 1;
            }
            if !w.abs_diff_eq(DQuat::IDENTITY, 1e-3) && !w.abs_diff_eq(-DQuat::IDENTITY, 1e-3) {
                rotated += 1;
            }
        }
    }
    // Of the 117 animations (116 with a rotation that is not the identity), 60 start at
    // their frame's matrix read as conjugates (the bind set's among them); read as written,
    // one does (a rotation that is its own conjugate up to the tolerance).
    assert!(rotated > 100, "{rotated}");
    assert!(as_conjugate >= 50, "{as_conjugate}");
    assert!(as_written <= 2, "{as_written}");

    // The loaded model agrees: in Wuson_Bind every bone sits at its bind pose, so the palette
    // is the identity of the skin's bind (offset times bind to-root).
    let model = load(&wuson_path());
    let bind = model.clip_index("Wuson_Bind").expect("clip");
    let mut scratch = PoseScratch::new(model.joint_count());
    let mut at_bind = vec![Mat3x4::IDENTITY; model.joint_count()];
    model.bind_palette(&mut scratch, &mut at_bind);
    for (j, (a, b)) in palette(&model, bind, 0.0).iter().zip(&at_bind).enumerate() {
        assert!(a.abs_diff_eq(b, 1e-3), "joint {j}: {a:?} vs {b:?}");
    }
}

#[test]
fn tinys_first_matrix_keys_reproduce_most_frame_matrices() {
    // Box01's keys carry the root motion, so its first key is not its matrix: "usually".
    let text = textbook::read(&text_of(&tiny_path()));
    let set = &text.sets[0];
    let (mut same, mut total) = (0, 0);
    for (frame, keys) in &set.animations {
        let Some(first) = keys.matrix.first() else {
            continue;
        };
        total += 1;
        let m = text.frames[frame].matrix;
        if first.1.abs_diff_eq(
            m,
            1e-3 * m
                .abs()
                .to_cols_array()
                .iter()
                .fold(1.0f64, |a, &b| a.max(b)),
        ) {
            same += 1;
        }
    }
    // 36 of the 47 animations start at their frame's matrix.
    assert_eq!(total, 47);
    assert!(same >= 35, "{same} of {total}");
}

#[test]
fn palettes_agree_with_the_naive_evaluator() {
    for path in [tiny_path(), wuson_path()] {
        let model = load(&path);
        for (c, clip) in model.clips().iter().enumerate() {
            let end = clip.end();
            for t in [0.0, end * 0.013, end * 0.37, end * 0.5001, end, end + 1.0] {
                common::naive::assert_palette_matches(&model, c, t, 1e-4);
            }
        }
    }
}

#[test]
fn palettes_agree_with_the_file_walked_the_d3dx_way() {
    for path in [tiny_path(), wuson_path()] {
        let text = textbook::read(&text_of(&path));
        let model = load(&path);
        for (c, set) in text.sets.iter().enumerate() {
            // Ticks at which no channel is between two keys (no interpolation question).
            let ticks = set.exact_ticks();
            assert!(!ticks.is_empty(), "set {c}");
            for &tick in ticks.iter().step_by(7).chain(ticks.last()) {
                let seconds = tick as f32 / text.ticks_per_second as f32;
                let ours = palette(&model, c, seconds);
                let theirs = text.palettes(c, tick);
                for (bone, want) in &theirs {
                    let j = model.skeleton().find(bone).expect("bone is a joint");
                    // D3DX's row-vector matrix, transposed into throng's column-vector one.
                    let want = Mat3x4::from_mat4(&want.transpose().as_mat4());
                    let got = ours[j];
                    let scale = want.to_array().iter().fold(1.0f32, |m, x| m.max(x.abs()));
                    assert!(
                        got.abs_diff_eq(&want, 2e-4 * scale),
                        "{}: set {c} tick {tick} bone {bone}: {got:?} vs {want:?}",
                        path.display()
                    );
                }
            }
        }
    }
}

/// A second, deliberately naive reader of `.x` text: `split` on whitespace, `,` and `;`,
/// a recursive walk that knows only what drives a palette (frames and their matrices,
/// SkinWeights' bone names and offsets, animation keys), and D3DX's row-vector math in f64:
/// `combined = local * combined(parent)`, `final = offset * combined`, a keyed frame's local
/// being `S * R(conjugate key) * T` or its matrix key. Evaluated only at key times.
mod textbook {
    use std::collections::HashMap;

    use glam::{DMat4, DQuat, DVec3};

    pub struct Frame {
        pub parent: Option<String>,
        pub matrix: DMat4,
    }

    #[derive(Default)]
    pub struct Keys {
        pub rotation: Vec<(u32, DQuat)>,
        pub scale: Vec<(u32, DVec3)>,
        pub position: Vec<(u32, DVec3)>,
        pub matrix: Vec<(u32, DMat4)>,
    }

    pub struct Set {
        pub name: String,
        pub animations: Vec<(String, Keys)>,
        pub last_tick: u32,
    }

    impl Set {
        /// Key ticks at which every key list is exactly at a key, or before its first or
        /// past its last (where holding a key is the exact answer).
        pub fn exact_ticks(&self) -> Vec<u32> {
            let lists: Vec<Vec<u32>> = self
                .animations
                .iter()
                .flat_map(|(_, k)| {
                    [
                        k.rotation.iter().map(|k| k.0).collect::<Vec<_>>(),
                        k.scale.iter().map(|k| k.0).collect(),
                        k.position.iter().map(|k| k.0).collect(),
                        k.matrix.iter().map(|k| k.0).collect(),
                    ]
                })
                .filter(|l| !l.is_empty())
                .collect();
            let mut ticks: Vec<u32> = lists.iter().flatten().copied().collect();
            ticks.sort();
            ticks.dedup();
            ticks.retain(|t| {
                lists
                    .iter()
                    .all(|l| l.contains(t) || *t <= l[0] || *t >= l[l.len() - 1])
            });
            ticks
        }
    }

    pub struct File {
        pub frames: HashMap<String, Frame>,
        pub bones: Vec<String>,
        pub offsets: HashMap<String, DMat4>,
        pub sets: Vec<Set>,
        pub ticks_per_second: u32,
    }

    struct Tokens<'a> {
        t: Vec<&'a str>,
        at: usize,
    }

    impl<'a> Tokens<'a> {
        fn next(&mut self) -> &'a str {
            self.at += 1;
            self.t[self.at - 1]
        }
        fn peek(&self) -> &'a str {
            self.t.get(self.at).copied().unwrap_or("")
        }
        fn f(&mut self) -> f64 {
            self.next().parse().expect("number")
        }
        fn u(&mut self) -> u32 {
            self.next().parse().expect("count")
        }
        fn mat(&mut self) -> DMat4 {
            let v: Vec<f64> = (0..16).map(|_| self.f()).collect();
            // Row-vector layout kept as written: element (r, c) is v[4 r + c].
            DMat4::from_cols_array(&v.try_into().expect("16")).transpose()
        }
        /// Skips to the brace that closes the object whose `{` was just read.
        fn skip(&mut self) {
            let mut depth = 1;
            while depth > 0 {
                match self.next() {
                    "{" => depth += 1,
                    "}" => depth -= 1,
                    _ => {}
                }
            }
        }
        /// `Type [name] {` at the cursor: returns (type, name) after the `{`.
        fn header(&mut self) -> (&'a str, String) {
            let kind = self.next();
            if self.peek() == "{" {
                self.next();
                return (kind, String::new());
            }
            let name = self.next().to_string();
            assert_eq!(self.next(), "{");
            (kind, name)
        }
    }

    pub fn read(text: &str) -> File {
        // Braces and quotes become tokens of their own.
        let text: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let spaced = text
            .replace('{', " { ")
            .replace('}', " } ")
            .replace('"', " ");
        let body = spaced.split_once("0032").expect("header").1;
        let t: Vec<&str> = body
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|s| !s.is_empty())
            .collect();
        let mut tk = Tokens { t, at: 0 };
        let mut file = File {
            frames: HashMap::new(),
            bones: Vec::new(),
            offsets: HashMap::new(),
            sets: Vec::new(),
            ticks_per_second: 4800,
        };
        while tk.at < tk.t.len() {
            let (kind, name) = tk.header();
            match kind {
                "Frame" => frame(&mut tk, &mut file, name, None),
                "AnimTicksPerSecond" => {
                    file.ticks_per_second = tk.u();
                    tk.skip();
                }
                "AnimationSet" => set(&mut tk, &mut file, name),
                _ => tk.skip(),
            }
        }
        file
    }

    fn frame(tk: &mut Tokens, file: &mut File, name: String, parent: Option<String>) {
        file.frames.insert(
            name.clone(),
            Frame {
                parent,
                matrix: DMat4::IDENTITY,
            },
        );
        loop {
            if tk.peek() == "}" {
                tk.next();
                return;
            }
            let (kind, child) = tk.header();
            match kind {
                "FrameTransformMatrix" => {
                    let m = tk.mat();
                    file.frames.get_mut(&name).expect("frame").matrix = m;
                    tk.skip();
                }
                "Frame" => frame(tk, file, child, Some(name.clone())),
                "Mesh" => mesh(tk, file),
                _ => tk.skip(),
            }
        }
    }

    /// Only the SkinWeights of a mesh: the data before them is skipped by counting.
    fn mesh(tk: &mut Tokens, file: &mut File) {
        let n = tk.u() as usize;
        tk.at += 3 * n;
        let faces = tk.u();
        for _ in 0..faces {
            let k = tk.u() as usize;
            tk.at += k;
        }
        loop {
            if tk.peek() == "}" {
                tk.next();
                return;
            }
            let (kind, _) = tk.header();
            if kind != "SkinWeights" {
                tk.skip();
                continue;
            }
            let bone = tk.next().to_string();
            let n = tk.u() as usize;
            tk.at += 2 * n;
            let offset = tk.mat();
            tk.skip();
            file.bones.push(bone.clone());
            file.offsets.insert(bone, offset);
        }
    }

    fn set(tk: &mut Tokens, file: &mut File, name: String) {
        let mut set = Set {
            name,
            animations: Vec::new(),
            last_tick: 0,
        };
        loop {
            if tk.peek() == "}" {
                tk.next();
                break;
            }
            let (kind, _) = tk.header();
            if kind != "Animation" {
                tk.skip();
                continue;
            }
            let mut target = String::new();
            let mut keys = Keys::default();
            loop {
                match tk.peek() {
                    "}" => {
                        tk.next();
                        break;
                    }
                    "{" => {
                        tk.next();
                        target = tk.next().to_string();
                        assert_eq!(tk.next(), "}");
                        continue;
                    }
                    _ => {}
                }
                let (kind, _) = tk.header();
                if kind != "AnimationKey" {
                    tk.skip();
                    continue;
                }
                let ty = tk.u();
                let n = tk.u();
                for _ in 0..n {
                    let time = tk.u();
                    set.last_tick = set.last_tick.max(time);
                    let _count = tk.u();
                    match ty {
                        0 => {
                            let (w, x, y, z) = (tk.f(), tk.f(), tk.f(), tk.f());
                            keys.rotation.push((time, DQuat::from_xyzw(x, y, z, w)));
                        }
                        1 => keys.scale.push((time, DVec3::new(tk.f(), tk.f(), tk.f()))),
                        2 => keys
                            .position
                            .push((time, DVec3::new(tk.f(), tk.f(), tk.f()))),
                        _ => keys.matrix.push((time, tk.mat())),
                    }
                }
                tk.skip();
            }
            set.animations.push((target, keys));
        }
        file.sets.push(set);
    }

    /// The key at `tick` (keys are looked up exactly; a list without one holds its last
    /// earlier key, or its first).
    fn at<T: Copy>(keys: &[(u32, T)], tick: u32) -> Option<T> {
        let first = keys.first()?;
        Some(keys.iter().rev().find(|k| k.0 <= tick).unwrap_or(first).1)
    }

    impl File {
        fn local(&self, set: usize, frame: &str, tick: u32) -> DMat4 {
            let own = self.frames[frame].matrix;
            let Some((_, keys)) = self.sets[set].animations.iter().find(|(f, _)| f == frame) else {
                return own;
            };
            if let Some(m) = at(&keys.matrix, tick) {
                return m;
            }
            // The frame's own parts where a key list is missing.
            let (s0, r0, t0) = own.transpose().to_scale_rotation_translation();
            let s = at(&keys.scale, tick).unwrap_or(s0);
            let r = at(&keys.rotation, tick).map_or(r0.conjugate(), |q| q.normalize());
            let t = at(&keys.position, tick).unwrap_or(t0);
            // Row-vector: scale, then rotate (the key is the conjugate), then translate.
            let rotation = DMat4::from_quat(r.conjugate()).transpose();
            DMat4::from_scale(s) * rotation * DMat4::from_translation(t).transpose()
        }

        fn combined(&self, set: usize, frame: &str, tick: u32) -> DMat4 {
            let local = self.local(set, frame, tick);
            match &self.frames[frame].parent {
                Some(p) => local * self.combined(set, p, tick),
                None => local,
            }
        }

        /// Each bone's final matrix (row-vector layout) in `set` at `tick`: what D3DX
        /// applies to the mesh's own vertices.
        pub fn palettes(&self, set: usize, tick: u32) -> HashMap<String, DMat4> {
            self.bones
                .iter()
                .map(|b| (b.clone(), self.offsets[b] * self.combined(set, b, tick)))
                .collect()
        }
    }
}

#[test]
fn the_four_broken_samples_are_refused_with_one_line_each() {
    let cases = [
        (
            "assimp/anim_test.x",
            ErrorKind::IndexOutOfRange,
            "SkinWeights 'joint3': names the bone 'joint3', but no frame has that name",
        ),
        (
            "assimp/malformed_skinweights_oob.x",
            ErrorKind::IndexOutOfRange,
            "SkinWeights 'Cube': line 244: vertex index 1000000 is out of range: the mesh has 24 vertices",
        ),
        (
            "assimp/test_cube_binary.x",
            ErrorKind::Unsupported,
            "header: binary .x is not read natively; build with --features assimp",
        ),
        (
            "assimp/test_cube_compressed.x",
            ErrorKind::Unsupported,
            "header: compressed .x is not read natively; build with --features assimp",
        ),
    ];
    for (file, kind, message) in cases {
        let path = common::shared_asset(file);
        let err = x::load(&path).expect_err(file);
        assert_eq!(err.kind, kind, "{err}");
        assert_eq!(err.to_string(), format!("{}: {message}", path.display()));
        // Through the extension dispatch, as the command line loads it: the same line, except
        // that binary and compressed files go to Assimp when it is built in.
        let dispatched = asset::load_file(&path);
        if cfg!(feature = "assimp") && x::needs_assimp(&err) {
            assert!(dispatched.is_ok(), "{file}: {dispatched:?}");
        } else {
            assert_eq!(dispatched.expect_err(file), err);
        }
    }
}

#[test]
fn small_file_fans_polygons_and_splits_corners_by_normal() {
    let model = x::parse("small.x", small().as_bytes(), None).expect("loads");
    let mesh = model.mesh();
    // The quad (material Blue) fans into (0 1 2) (0 2 3); the triangle (Red) shares positions
    // 2 and 3 with it but not their normal, so those corners are vertices of their own.
    assert_eq!(mesh.vertices.len(), 7);
    assert_eq!(mesh.triangle_count(), 3);
    let names: Vec<&str> = mesh.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Red", "Blue"]);
    let red = &mesh.subsets[0];
    let blue = &mesh.subsets[1];
    assert_eq!((red.material, red.vertex_count, red.index_count), (0, 3, 3));
    assert_eq!(
        (blue.material, blue.vertex_count, blue.index_count),
        (1, 4, 6)
    );
    let position = |i: u32| Vec3::from(mesh.vertices[i as usize].position);
    let quad: Vec<Vec3> = mesh.indices[blue.index_start as usize..][..6]
        .iter()
        .map(|&i| position(i))
        .collect();
    let p = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
    assert_eq!(quad, [p[0], p[1], p[2], p[0], p[2], p[3]]);
    for &i in &mesh.indices[blue.index_start as usize..][..6] {
        assert_eq!(mesh.vertices[i as usize].normal, [0.0, 0.0, 1.0]);
    }
    for &i in &mesh.indices[red.index_start as usize..][..3] {
        assert_eq!(mesh.vertices[i as usize].normal, [0.0, 0.0, -1.0]);
    }
    // Texture coordinates follow positions.
    let top = mesh
        .vertices
        .iter()
        .find(|v| v.position == [0.0, 2.0, 0.0])
        .expect("apex");
    assert_eq!(top.uv, [0.0, 0.5]);
    // Weights: vertex 2 is half Hips, half Spine.
    let v2 = mesh
        .vertices
        .iter()
        .find(|v| v.position == [1.0, 1.0, 0.0])
        .expect("v2");
    let hips = model.skeleton().find("Hips").expect("Hips") as u16;
    let spine = model.skeleton().find("Spine").expect("Spine") as u16;
    let mut pairs: Vec<(u16, f32)> = v2
        .joints
        .iter()
        .copied()
        .zip(v2.weights)
        .filter(|p| p.1 > 0.0)
        .collect();
    pairs.sort_by_key(|p| p.0);
    let mut want = vec![(hips, 0.5), (spine, 0.5)];
    want.sort_by_key(|p| p.0);
    assert_eq!(pairs, want);
}

#[test]
fn small_file_clips_tick_rate_and_animated_root() {
    let model = x::parse("small.x", small().as_bytes(), None).expect("loads");
    assert_eq!(names_in_source_order(&model), ["Hips", "Spine", "Root"]);
    let clips: Vec<(&str, f32)> = model
        .clips()
        .iter()
        .map(|c| (c.name(), c.duration()))
        .collect();
    // AnimTicksPerSecond 30: the Hips matrix key at tick 60 is 2 s; the unnamed set is clip1.
    assert_eq!(clips, [("Wave", 2.0), ("clip1", 1.0)]);
    // The offsets invert the bind pose, so the first keys (which repeat the frames) give
    // identity palettes for the bones; Root's palette is its own matrix.
    let p = palette(&model, 0, 0.0);
    for j in ["Hips", "Spine"] {
        let j = model.skeleton().find(j).expect("joint");
        assert!(p[j].abs_diff_eq(&Mat3x4::IDENTITY, 1e-6), "{:?}", p[j]);
    }
    for (c, clip) in model.clips().iter().enumerate() {
        for t in [0.0, 0.25, clip.end() * 0.5, clip.end()] {
            common::naive::assert_palette_matches(&model, c, t, 1e-5);
        }
    }
    // The textbook reader agrees wherever no channel is between two keys.
    let text = textbook::read(small());
    let mut compared = 0;
    for (c, set) in text.sets.iter().enumerate() {
        for tick in set.exact_ticks() {
            let ours = palette(&model, c, tick as f32 / 30.0);
            for (bone, want) in text.palettes(c, tick) {
                let j = model.skeleton().find(&bone).expect("bone");
                let want = Mat3x4::from_mat4(&want.transpose().as_mat4());
                assert!(
                    ours[j].abs_diff_eq(&want, 1e-5),
                    "set {c} tick {tick} {bone}: {:?} vs {want:?}",
                    ours[j]
                );
                compared += 1;
            }
        }
    }
    // Wave at ticks 0 and 60, the unnamed set at 0 and 30; two bones each.
    assert_eq!(compared, 8);
}

#[test]
fn a_rigid_mesh_follows_its_frame_and_one_outside_frames_an_implicit_root() {
    let text = "xof 0303txt 0032\nFrame Box {\n FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 5,0,0,1;; }\n Mesh { 3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 3;0,1,2;; }\n}\nMesh { 3; 0;0;0;, 1;0;0;, 0;0;1;; 1; 3;0,1,2;; }\n";
    let model = x::parse("rigid.x", text.as_bytes(), None).expect("loads");
    assert_eq!(names_in_source_order(&model), ["Box", x::IMPLICIT_ROOT]);
    let mut scratch = PoseScratch::new(2);
    let mut bind = vec![Mat3x4::IDENTITY; 2];
    model.bind_palette(&mut scratch, &mut bind);
    // A rigid mesh keeps its own space; its joint's palette is its frame's to-root, as D3DX
    // draws it.
    let boxed = model.skeleton().find("Box").expect("Box");
    assert_eq!(bind[boxed].translation(), Vec3::new(5.0, 0.0, 0.0));
    let positions: Vec<[f32; 3]> = model.mesh().vertices.iter().map(|v| v.position).collect();
    assert!(positions.contains(&[1.0, 0.0, 0.0]));
    assert!(positions.contains(&[0.0, 0.0, 1.0]));
    // Normals the file does not give are generated from the faces.
    let normals: Vec<[f32; 3]> = model.mesh().vertices.iter().map(|v| v.normal).collect();
    assert_eq!(&normals[..3], [[0.0, 0.0, 1.0]; 3]);
    assert_eq!(&normals[3..], [[0.0, -1.0, 0.0]; 3]);
}

#[test]
fn a_pentagon_fans_into_three_triangles_in_order() {
    let text =
        "xof 0303txt 0032\nMesh { 5; 0;0;0;, 1;0;0;, 2;1;0;, 1;2;0;, 0;1;0;; 1; 5;0,1,2,3,4;; }\n";
    let model = x::parse("fan.x", text.as_bytes(), None).expect("loads");
    let mesh = model.mesh();
    let positions: Vec<[f32; 3]> = mesh
        .indices
        .iter()
        .map(|&i| mesh.vertices[i as usize].position)
        .collect();
    let p = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [2.0, 1.0, 0.0],
        [1.0, 2.0, 0.0],
        [0.0, 1.0, 0.0],
    ];
    assert_eq!(
        positions,
        [p[0], p[1], p[2], p[0], p[2], p[3], p[0], p[3], p[4]]
    );
}

#[test]
fn the_texture_is_looked_for_beside_the_model() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("x-texture");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let img = image::RgbaImage::from_pixel(2, 2, image::Rgba([200, 10, 10, 255]));
    img.save(dir.join("red.png")).expect("png");
    std::fs::write(dir.join("small.x"), small()).expect("write");
    let model = x::load(&dir.join("small.x")).expect("loads");
    let mesh = model.mesh();
    assert_eq!(mesh.textures.len(), 1);
    assert_eq!(mesh.materials[0].base_color_texture, Some(0));
    assert_eq!(mesh.materials[1].base_color_texture, None);
}

/// A 3ds Max biped's layout, written small: `Bip01` above the pelvis, and `Bip01_Footsteps`
/// beside the pelvis. All three are keyed away from their frame matrices.
fn biped_with_footsteps() -> String {
    let frame = |name: &str, y: f32, inner: &str| {
        format!(
            "Frame {name} {{\n FrameTransformMatrix {{ 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,{y},0,1;; }}\n{inner}}}\n"
        )
    };
    let moving = |name: &str| {
        format!(
            "Animation {{\n {{ {name} }}\n AnimationKey {{ 2; 2; 0;3;0,0,0;;, 4800;3;1,0,0;;; }}\n}}\n"
        )
    };
    let spine = frame("Bip01_Spine", 1.0, "");
    let pelvis = frame("Bip01_Pelvis", 1.0, &spine);
    let footsteps = frame("Bip01_Footsteps", 0.0, "");
    let bip = frame("Bip01", 0.0, &format!("{footsteps}{pelvis}"));
    let weights = |bone: &str, offset_y: f32| {
        format!(
            "SkinWeights {{ \"{bone}\"; 3; 0,1,2; 1,1,1; 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,{offset_y},0,1;; }}\n"
        )
    };
    let mesh = format!(
        "Mesh body {{\n 3; 0;1;0;, 1;1;0;, 0;2;0;;\n 1; 3;0,1,2;;\n{}{}}}\n",
        weights("Bip01_Pelvis", -1.0),
        weights("Bip01_Spine", -2.0).replace("1,1,1;", "0,0,0;")
    );
    format!(
        "xof 0303txt 0032\n{bip}{mesh}AnimationSet Walk {{\n{}{}{}}}\n",
        moving("Bip01"),
        moving("Bip01_Footsteps"),
        moving("Bip01_Pelvis")
    )
}

#[test]
fn an_animated_frame_with_no_bone_below_it_moves_nothing_and_is_no_joint() {
    let text = biped_with_footsteps();
    let model =
        x::parse("biped.x", text.as_bytes(), None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let names = names_in_source_order(&model);
    // The bones, then the animated frame above them; the footsteps frame, animated beside
    // the pelvis, is dropped like any frame that moves nothing.
    assert_eq!(names, ["Bip01_Pelvis", "Bip01_Spine", "Bip01"], "{text}");
    for t in [0.0, 0.5, 1.0] {
        common::naive::assert_palette_matches(&model, 0, t, 1e-5);
    }
}
