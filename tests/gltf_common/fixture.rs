//! A small skinned glTF written by the tests themselves: a strip of 8 triangles along +Y
//! bound to a three-joint chain (`root`, `mid`, `tip`), under a non-joint `armature` node
//! with a rotation, a uniform scale and a translation (so folding is exercised), with one
//! animation that uses all three samplers (STEP translation, LINEAR rotation, CUBICSPLINE
//! scale). The skin may list its joints in any order. Written as embedded-base64 `.gltf`
//! or as `.glb`; tests and the fuzz seed corpus mutate it.

use base64::Engine;
use glam::{Affine3A, Mat4, Quat, Vec3};
use serde_json::{Value, json};

/// glTF component types.
pub const FLOAT: u32 = 5126;
pub const UNSIGNED_BYTE: u32 = 5121;
pub const UNSIGNED_SHORT: u32 = 5123;
pub const SHORT: u32 = 5122;

/// Joint names in chain order; joint `j` is node `FIRST_JOINT_NODE + j`.
pub const JOINT_NAMES: [&str; 3] = ["root", "mid", "tip"];
pub const FIRST_JOINT_NODE: usize = 2;
/// Bind heights of the joints along the strip.
pub const JOINT_Y: [f32; 3] = [0.0, 1.0, 2.0];

/// Accessor indices of the base fixture.
#[derive(Clone, Copy, Debug)]
pub struct Accessors {
    pub positions: usize,
    pub indices: usize,
    pub joints: usize,
    pub weights: usize,
    pub ibm: usize,
    pub step_times: usize,
    pub linear_times: usize,
    pub cubic_times: usize,
}

/// The glTF JSON plus its one binary buffer.
#[derive(Clone, Debug)]
pub struct Fixture {
    pub json: Value,
    pub bin: Vec<u8>,
    pub acc: Accessors,
    /// Byte offset in `bin` of each accessor's data, by accessor index.
    pub offsets: Vec<usize>,
}

/// The armature's transform: a similarity (rotation about Z, scale 2, translation).
pub fn armature() -> Affine3A {
    Affine3A::from_scale_rotation_translation(
        Vec3::splat(2.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        Vec3::new(1.0, 0.0, 0.0),
    )
}

/// Row `r` of the strip (0..=4) and its two vertices, in the strip's own space.
fn strip_vertex(v: usize) -> Vec3 {
    let (row, side) = (v / 2, v % 2);
    Vec3::new(if side == 0 { -0.5 } else { 0.5 }, row as f32 * 0.5, 0.0)
}

/// Influences (chain joint, weight) of each row: rows between joints blend the two.
const ROW_WEIGHTS: [[(usize, f32); 2]; 5] = [
    [(0, 1.0), (0, 0.0)],
    [(0, 0.5), (1, 0.5)],
    [(1, 1.0), (0, 0.0)],
    [(1, 0.5), (2, 0.5)],
    [(2, 1.0), (0, 0.0)],
];

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

impl Fixture {
    /// The base fixture with the skin listing chain joints in `order` (a permutation of
    /// 0, 1, 2; `[2, 1, 0]` lists every child before its parent).
    pub fn strip(order: [usize; 3]) -> Self {
        let mut fx = Self {
            json: Value::Null,
            bin: Vec::new(),
            acc: Accessors {
                positions: 0,
                indices: 0,
                joints: 0,
                weights: 0,
                ibm: 0,
                step_times: 0,
                linear_times: 0,
                cubic_times: 0,
            },
            offsets: Vec::new(),
        };
        fx.json = json!({
            "asset": {"version": "2.0", "generator": "throng tests"},
            "buffers": [{"byteLength": 0}],
            "bufferViews": [],
            "accessors": [],
        });
        let arm = armature();
        let positions: Vec<f32> = (0..10)
            .flat_map(|v| arm.transform_point3(strip_vertex(v)).to_array())
            .collect();
        let mut indices = Vec::new();
        for r in 0..4u16 {
            let (a, b, c, d) = (2 * r, 2 * r + 1, 2 * r + 3, 2 * r + 2);
            indices.extend([a, b, c, a, c, d]);
        }
        let slot = |j: usize| order.iter().position(|&o| o == j).expect("permutation") as u8;
        let mut joints = Vec::new();
        let mut weights = Vec::new();
        for v in 0..10 {
            let row = ROW_WEIGHTS[v / 2];
            joints.extend([slot(row[0].0), slot(row[1].0), 0, 0]);
            weights.extend([row[0].1, row[1].1, 0.0, 0.0]);
        }
        let ibm: Vec<f32> = order
            .iter()
            .flat_map(|&j| {
                let global = Mat4::from(arm) * Mat4::from_translation(Vec3::Y * JOINT_Y[j]);
                global.inverse().to_cols_array()
            })
            .collect();
        fx.acc.positions = fx.add(&f32_bytes(&positions), FLOAT, 10, "VEC3", false);
        let idx: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        fx.acc.indices = fx.add(&idx, UNSIGNED_SHORT, 24, "SCALAR", false);
        fx.acc.joints = fx.add(&joints, UNSIGNED_BYTE, 10, "VEC4", false);
        fx.acc.weights = fx.add(&f32_bytes(&weights), FLOAT, 10, "VEC4", false);
        fx.acc.ibm = fx.add(&f32_bytes(&ibm), FLOAT, 3, "MAT4", false);
        fx.acc.step_times = fx.add(&f32_bytes(&[0.0, 1.0]), FLOAT, 2, "SCALAR", false);
        let step_values = fx.add(
            &f32_bytes(&[0.0, 0.0, 0.0, 0.5, 0.0, 0.0]),
            FLOAT,
            2,
            "VEC3",
            false,
        );
        fx.acc.linear_times = fx.add(&f32_bytes(&[0.0, 0.5, 1.0]), FLOAT, 3, "SCALAR", false);
        let rotations: Vec<f32> = [0.0f32, 0.6, -0.4]
            .iter()
            .flat_map(|&a| Quat::from_rotation_z(a).to_array())
            .collect();
        let linear_values = fx.add(&f32_bytes(&rotations), FLOAT, 3, "VEC4", false);
        fx.acc.cubic_times = fx.add(&f32_bytes(&[0.25, 1.5]), FLOAT, 2, "SCALAR", false);
        let cubic = [
            [0.0, 0.0, 0.0],
            [1.0, 1.0, 1.0],
            [0.5, 0.0, 0.0],
            [0.0, 0.2, 0.0],
            [1.5, 1.0, 1.0],
            [0.0, 0.0, 0.0],
        ];
        let cubic: Vec<f32> = cubic.iter().flatten().copied().collect();
        let cubic_values = fx.add(&f32_bytes(&cubic), FLOAT, 6, "VEC3", false);

        let joint_node = |j: usize| FIRST_JOINT_NODE + j;
        let a = arm.to_scale_rotation_translation();
        fx.json["nodes"] = json!([
            {"name": "strip", "mesh": 0, "skin": 0},
            {"name": "armature", "children": [joint_node(0)],
             "scale": a.0.to_array(), "rotation": a.1.to_array(), "translation": a.2.to_array()},
            {"name": JOINT_NAMES[0], "children": [joint_node(1)]},
            {"name": JOINT_NAMES[1], "children": [joint_node(2)], "translation": [0.0, 1.0, 0.0]},
            {"name": JOINT_NAMES[2], "translation": [0.0, 1.0, 0.0]},
        ]);
        fx.json["scene"] = json!(0);
        fx.json["scenes"] = json!([{"nodes": [0, 1]}]);
        fx.json["skins"] = json!([{
            "joints": order.iter().map(|&j| joint_node(j)).collect::<Vec<_>>(),
            "inverseBindMatrices": fx.acc.ibm,
        }]);
        fx.json["materials"] = json!([{
            "name": "strip",
            "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.2, 0.2, 1.0], "roughnessFactor": 0.5, "metallicFactor": 0.0},
        }]);
        fx.json["meshes"] = json!([{"primitives": [{
            "attributes": {"POSITION": fx.acc.positions, "JOINTS_0": fx.acc.joints, "WEIGHTS_0": fx.acc.weights},
            "indices": fx.acc.indices,
            "material": 0,
        }]}]);
        fx.json["animations"] = json!([{
            "name": "bend",
            "samplers": [
                {"input": fx.acc.step_times, "output": step_values, "interpolation": "STEP"},
                {"input": fx.acc.linear_times, "output": linear_values},
                {"input": fx.acc.cubic_times, "output": cubic_values, "interpolation": "CUBICSPLINE"},
            ],
            "channels": [
                {"sampler": 0, "target": {"node": joint_node(0), "path": "translation"}},
                {"sampler": 1, "target": {"node": joint_node(1), "path": "rotation"}},
                {"sampler": 2, "target": {"node": joint_node(2), "path": "scale"}},
            ],
        }]);
        fx
    }

    /// Appends tightly packed accessor data (4-byte aligned) with its buffer view and
    /// accessor; returns the accessor index.
    pub fn add(
        &mut self,
        data: &[u8],
        component: u32,
        count: usize,
        ty: &str,
        normalized: bool,
    ) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(data);
        let views = self.json["bufferViews"].as_array_mut().expect("views");
        views.push(json!({"buffer": 0, "byteOffset": offset, "byteLength": data.len()}));
        let view = views.len() - 1;
        let accessors = self.json["accessors"].as_array_mut().expect("accessors");
        let mut acc =
            json!({"bufferView": view, "componentType": component, "count": count, "type": ty});
        if normalized {
            acc["normalized"] = json!(true);
        }
        // glTF requires min/max on POSITION and on animation inputs; floats get them all.
        if component == FLOAT && count > 0 {
            let n = data.len() / 4 / count;
            let values: Vec<f32> = data
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            let (mut min, mut max) = (vec![f32::MAX; n], vec![f32::MIN; n]);
            for e in values.chunks_exact(n) {
                for c in 0..n {
                    min[c] = min[c].min(e[c]);
                    max[c] = max[c].max(e[c]);
                }
            }
            acc["min"] = json!(min);
            acc["max"] = json!(max);
        }
        accessors.push(acc);
        let index = accessors.len() - 1;
        self.offsets.push(offset);
        self.json["buffers"][0]["byteLength"] = json!(self.bin.len());
        index
    }

    /// Appends float accessor data of type `ty` (`SCALAR`, `VEC3`, `MAT4`, ...).
    pub fn add_floats(&mut self, values: &[f32], ty: &str) -> usize {
        let n = match ty {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            "MAT4" => 16,
            other => panic!("no float type {other}"),
        };
        self.add(&f32_bytes(values), FLOAT, values.len() / n, ty, false)
    }

    /// Overwrites little-endian f32 number `k` of accessor `acc`'s data.
    pub fn poke_f32(&mut self, acc: usize, k: usize, value: f32) {
        let at = self.offsets[acc] + 4 * k;
        self.bin[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }

    /// `.gltf` bytes: JSON with the buffer as a base64 data URI.
    pub fn gltf(&self) -> Vec<u8> {
        let mut json = self.json.clone();
        let data = base64::engine::general_purpose::STANDARD.encode(&self.bin);
        json["buffers"][0]["uri"] = json!(format!("data:application/octet-stream;base64,{data}"));
        serde_json::to_vec(&json).expect("serializes")
    }

    /// `.gltf` bytes whose buffer is the external file `uri`.
    pub fn gltf_external(&self, uri: &str) -> Vec<u8> {
        let mut json = self.json.clone();
        json["buffers"][0]["uri"] = json!(uri);
        serde_json::to_vec(&json).expect("serializes")
    }

    /// `.glb` bytes: header, JSON chunk, BIN chunk (both padded to 4 bytes).
    pub fn glb(&self) -> Vec<u8> {
        let mut json = serde_json::to_vec(&self.json).expect("serializes");
        while !json.len().is_multiple_of(4) {
            json.push(b' ');
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let total = 12 + 8 + json.len() + 8 + bin.len();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&json);
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
        out
    }
}
