//! Small FBX files written for the tests (ASCII FBX 7.4, which ufbx reads like the binary
//! form): a node tree, one skinned mesh with its clusters, materials and textures, and
//! animation stacks with linear curves. Each sample says what it is for; the fuzz target's
//! seeds (`fuzz/corpus/fbx/seed-*`) are the ones `seeds` lists.
#![allow(dead_code)]

use std::fmt::Write as _;

use base64::Engine as _;
use glam::{DMat4, DQuat, DVec3, EulerRot};

/// FBX time units per second (`KTime`).
pub const KTIME: f64 = 46_186_158_000.0;

/// A node (`Model`): Euler rotation in degrees, applied X then Y then Z (FBX's default order).
#[derive(Clone, Debug)]
pub struct Node {
    pub name: &'static str,
    pub parent: Option<usize>,
    pub translation: [f64; 3],
    pub rotation: [f64; 3],
    pub scale: [f64; 3],
    /// Written as a `LimbNode` (a bone) rather than a `Null`.
    pub limb: bool,
}

impl Node {
    pub fn new(name: &'static str, parent: Option<usize>, translation: [f64; 3]) -> Self {
        Self {
            name,
            parent,
            translation,
            rotation: [0.0; 3],
            scale: [1.0; 3],
            limb: true,
        }
    }

    /// The node's local matrix.
    pub fn local(&self) -> DMat4 {
        let [x, y, z] = self.rotation.map(f64::to_radians);
        let r = DQuat::from_euler(EulerRot::ZYX, z, y, x);
        DMat4::from_scale_rotation_translation(
            DVec3::from(self.scale),
            r,
            DVec3::from(self.translation),
        )
    }
}

/// A texture as the material names it.
#[derive(Clone, Debug)]
pub struct TextureSpec {
    pub relative: &'static str,
    pub absolute: &'static str,
    /// Bytes embedded in the file (a `Video`'s `Content`).
    pub embedded: Option<Vec<u8>>,
}

/// A material: diffuse colour and, optionally, a diffuse texture.
#[derive(Clone, Debug)]
pub struct MaterialSpec {
    pub name: &'static str,
    pub diffuse: [f64; 3],
    pub texture: Option<TextureSpec>,
}

/// The skinned mesh, placed by its own node `node`.
#[derive(Clone, Debug)]
pub struct MeshSpec {
    pub node: usize,
    pub positions: Vec<[f64; 3]>,
    pub polygons: Vec<Vec<u32>>,
    pub uvs: Vec<[f64; 2]>,
    /// Material of each polygon (an index into `materials`).
    pub polygon_material: Vec<u32>,
    pub materials: Vec<MaterialSpec>,
    /// (bone node, [(vertex, weight)]) per cluster.
    pub clusters: Vec<(usize, Vec<(u32, f64)>)>,
}

/// One animated property of one node: `Lcl Translation`, `Lcl Rotation` (degrees) or
/// `Lcl Scaling`, keyed linearly at `times` seconds.
#[derive(Clone, Debug)]
pub struct Curve {
    pub node: usize,
    pub property: &'static str,
    pub keys: Vec<(f64, [f64; 3])>,
}

#[derive(Clone, Debug)]
pub struct StackSpec {
    pub name: &'static str,
    pub start: f64,
    pub stop: f64,
    pub curves: Vec<Curve>,
}

/// A whole file.
#[derive(Clone, Debug)]
pub struct Scene {
    /// `UpAxis`: 1 (y, front +z, as Maya writes) or 2 (z, front -y, as 3ds Max writes).
    pub up: u8,
    /// `UnitScaleFactor`: centimetres per unit.
    pub unit_cm: f64,
    /// `TimeMode` (6: 30 fps, 11: 24 fps, 14: custom) and `CustomFrameRate`.
    pub time_mode: u32,
    pub custom_fps: f64,
    pub nodes: Vec<Node>,
    pub mesh: MeshSpec,
    pub stacks: Vec<StackSpec>,
    /// Bones bound in another pose than their rest one: (node, world matrix at bind time).
    pub bind: Vec<(usize, DMat4)>,
}

impl Scene {
    /// A node's world matrix at rest.
    pub fn world(&self, n: usize) -> DMat4 {
        let node = &self.nodes[n];
        match node.parent {
            Some(p) => self.world(p) * node.local(),
            None => node.local(),
        }
    }

    /// A bone's world matrix when the skin was bound.
    pub fn bind_world(&self, n: usize) -> DMat4 {
        match self.bind.iter().find(|(b, _)| *b == n) {
            Some((_, m)) => *m,
            None => self.world(n),
        }
    }

    /// The file's text.
    pub fn write(&self) -> String {
        Writer::default().scene(self)
    }
}

/// Object ids: nodes from 1000, the mesh's objects from 2000, stacks from 3000.
fn node_id(n: usize) -> u64 {
    1000 + n as u64
}

#[derive(Default)]
struct Writer {
    out: String,
    links: Vec<String>,
}

impl Writer {
    fn line(&mut self, depth: usize, text: &str) {
        for _ in 0..depth {
            self.out.push('\t');
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn array(&mut self, depth: usize, name: &str, values: &[String]) {
        self.line(depth, &format!("{name}: *{} {{", values.len()));
        self.line(depth + 1, &format!("a: {}", values.join(",")));
        self.line(depth, "}");
    }

    fn link(&mut self, kind: &str, child: u64, parent: u64, property: Option<&str>) {
        let mut c = format!("C: \"{kind}\",{child},{parent}");
        if let Some(p) = property {
            let _ = write!(c, ", \"{p}\"");
        }
        self.links.push(c);
    }

    fn scene(mut self, s: &Scene) -> String {
        self.line(0, "; FBX 7.4.0 project file");
        self.line(0, "; written by throng's tests (tests/fbx_samples)");
        self.line(0, "FBXHeaderExtension:  {");
        self.line(1, "FBXHeaderVersion: 1003");
        self.line(1, "FBXVersion: 7400");
        self.line(0, "}");
        self.line(0, "GlobalSettings:  {");
        self.line(1, "Version: 1000");
        self.line(1, "Properties70:  {");
        // Right-handed, +X to the right: Maya's Y-up (front +Z) or 3ds Max's Z-up (front -Y).
        let (front, front_sign) = if s.up == 2 { (1, -1) } else { (2, 1) };
        for (name, value, sign) in [
            ("UpAxis", s.up, 1),
            ("FrontAxis", front, front_sign),
            ("CoordAxis", 0, 1),
        ] {
            self.line(
                2,
                &format!("P: \"{name}\", \"int\", \"Integer\", \"\",{value}"),
            );
            self.line(
                2,
                &format!("P: \"{name}Sign\", \"int\", \"Integer\", \"\",{sign}"),
            );
        }
        self.line(
            2,
            &format!(
                "P: \"UnitScaleFactor\", \"double\", \"Number\", \"\",{}",
                s.unit_cm
            ),
        );
        self.line(
            2,
            &format!("P: \"TimeMode\", \"enum\", \"\", \"\",{}", s.time_mode),
        );
        self.line(
            2,
            &format!(
                "P: \"CustomFrameRate\", \"double\", \"Number\", \"\",{}",
                s.custom_fps
            ),
        );
        self.line(1, "}");
        self.line(0, "}");
        self.line(0, "Objects:  {");
        for (n, node) in s.nodes.iter().enumerate() {
            self.node(s, n, node);
        }
        self.mesh(s);
        for (k, stack) in s.stacks.iter().enumerate() {
            self.stack(k, stack);
        }
        self.line(0, "}");
        self.line(0, "Connections:  {");
        for c in std::mem::take(&mut self.links) {
            self.line(1, &c);
        }
        self.line(0, "}");
        self.out
    }

    fn node(&mut self, _s: &Scene, n: usize, node: &Node) {
        let kind = if node.limb { "LimbNode" } else { "Null" };
        self.line(
            1,
            &format!(
                "Model: {}, \"Model::{}\", \"{kind}\" {{",
                node_id(n),
                node.name
            ),
        );
        self.line(2, "Version: 232");
        self.line(2, "Properties70:  {");
        for (name, v) in [
            ("Lcl Translation", node.translation),
            ("Lcl Rotation", node.rotation),
            ("Lcl Scaling", node.scale),
        ] {
            self.line(
                3,
                &format!(
                    "P: \"{name}\", \"{name}\", \"\", \"A\",{},{},{}",
                    v[0], v[1], v[2]
                ),
            );
        }
        self.line(2, "}");
        self.line(1, "}");
        let parent = node.parent.map_or(0, node_id);
        self.link("OO", node_id(n), parent, None);
    }

    fn mesh(&mut self, s: &Scene) {
        let m = &s.mesh;
        let geometry = 2000;
        self.line(
            1,
            &format!("Geometry: {geometry}, \"Geometry::body\", \"Mesh\" {{"),
        );
        let positions: Vec<String> = m
            .positions
            .iter()
            .flatten()
            .map(|x| x.to_string())
            .collect();
        self.array(2, "Vertices", &positions);
        let mut indices = Vec::new();
        let mut normals = Vec::new();
        let mut uv_index = Vec::new();
        for polygon in &m.polygons {
            // The polygon's normal, the same for its corners (the test meshes are flat).
            let p = |i: usize| DVec3::from(m.positions[polygon[i] as usize]);
            let normal = (p(1) - p(0)).cross(p(2) - p(0)).normalize_or(DVec3::Z);
            for (k, &v) in polygon.iter().enumerate() {
                // The last corner of a polygon is written as -(index + 1).
                let last = k + 1 == polygon.len();
                indices.push(if last { -(v as i64) - 1 } else { v as i64 }.to_string());
                normals.extend([normal.x, normal.y, normal.z].map(|x| x.to_string()));
                uv_index.push(v.to_string());
            }
        }
        self.array(2, "PolygonVertexIndex", &indices);
        self.line(2, "LayerElementNormal: 0 {");
        self.line(3, "Version: 101");
        self.line(3, "Name: \"\"");
        self.line(3, "MappingInformationType: \"ByPolygonVertex\"");
        self.line(3, "ReferenceInformationType: \"Direct\"");
        self.array(3, "Normals", &normals);
        self.line(2, "}");
        if !m.uvs.is_empty() {
            self.line(2, "LayerElementUV: 0 {");
            self.line(3, "Version: 101");
            self.line(3, "Name: \"UVMap\"");
            self.line(3, "MappingInformationType: \"ByPolygonVertex\"");
            self.line(3, "ReferenceInformationType: \"IndexToDirect\"");
            let uvs: Vec<String> = m.uvs.iter().flatten().map(|x| x.to_string()).collect();
            self.array(3, "UV", &uvs);
            self.array(3, "UVIndex", &uv_index);
            self.line(2, "}");
        }
        self.line(2, "LayerElementMaterial: 0 {");
        self.line(3, "Version: 101");
        self.line(3, "Name: \"\"");
        self.line(3, "MappingInformationType: \"ByPolygon\"");
        self.line(3, "ReferenceInformationType: \"IndexToDirect\"");
        let materials: Vec<String> = m.polygon_material.iter().map(|x| x.to_string()).collect();
        self.array(3, "Materials", &materials);
        self.line(2, "}");
        self.line(2, "Layer: 0 {");
        self.line(3, "Version: 100");
        for kind in [
            "LayerElementNormal",
            "LayerElementUV",
            "LayerElementMaterial",
        ] {
            if kind == "LayerElementUV" && m.uvs.is_empty() {
                continue;
            }
            self.line(3, "LayerElement:  {");
            self.line(4, &format!("Type: \"{kind}\""));
            self.line(4, "TypedIndex: 0");
            self.line(3, "}");
        }
        self.line(2, "}");
        self.line(1, "}");
        let model = node_id(m.node);
        self.link("OO", geometry, model, None);

        for (k, material) in m.materials.iter().enumerate() {
            let id = 2100 + 10 * k as u64;
            self.line(
                1,
                &format!("Material: {id}, \"Material::{}\", \"\" {{", material.name),
            );
            self.line(2, "Version: 102");
            self.line(2, "ShadingModel: \"phong\"");
            self.line(2, "Properties70:  {");
            let [r, g, b] = material.diffuse;
            self.line(
                3,
                &format!("P: \"DiffuseColor\", \"Color\", \"\", \"A\",{r},{g},{b}"),
            );
            self.line(3, "P: \"DiffuseFactor\", \"Number\", \"\", \"A\",1");
            self.line(2, "}");
            self.line(1, "}");
            self.link("OO", id, model, None);
            if let Some(t) = &material.texture {
                self.line(
                    1,
                    &format!("Texture: {}, \"Texture::{}\", \"\" {{", id + 1, t.relative),
                );
                self.line(2, "Type: \"TextureVideoClip\"");
                self.line(2, "Version: 202");
                self.line(2, &format!("FileName: \"{}\"", t.absolute));
                self.line(2, &format!("RelativeFilename: \"{}\"", t.relative));
                self.line(1, "}");
                self.link("OP", id + 1, id, Some("DiffuseColor"));
                if let Some(bytes) = &t.embedded {
                    self.line(
                        1,
                        &format!("Video: {}, \"Video::{}\", \"Clip\" {{", id + 2, t.relative),
                    );
                    self.line(2, "Type: \"Clip\"");
                    self.line(2, &format!("FileName: \"{}\"", t.absolute));
                    self.line(2, &format!("RelativeFilename: \"{}\"", t.relative));
                    let text = base64::engine::general_purpose::STANDARD.encode(bytes);
                    self.line(2, &format!("Content: , \"{text}\""));
                    self.line(1, "}");
                    self.link("OO", id + 2, id + 1, None);
                }
            }
        }

        let skin = 2500;
        self.line(
            1,
            &format!("Deformer: {skin}, \"Deformer::skin\", \"Skin\" {{"),
        );
        self.line(2, "Version: 101");
        self.line(2, "Link_DeformAcuracy: 50");
        self.line(1, "}");
        self.link("OO", skin, geometry, None);
        let mesh_world = s.world(m.node);
        for (k, (bone, weights)) in m.clusters.iter().enumerate() {
            let id = 2600 + k as u64;
            let name = s.nodes[*bone].name;
            self.line(
                1,
                &format!("Deformer: {id}, \"SubDeformer::{name}\", \"Cluster\" {{"),
            );
            self.line(2, "Version: 100");
            self.line(2, "UserData: \"\", \"\"");
            let vertices: Vec<String> = weights.iter().map(|w| w.0.to_string()).collect();
            let values: Vec<String> = weights.iter().map(|w| w.1.to_string()).collect();
            self.array(2, "Indexes", &vertices);
            self.array(2, "Weights", &values);
            // `Transform` is the mesh relative to the bone at bind time (as Blender and the FBX
            // SDK write it); `TransformLink` the bone's world transform at bind time.
            let matrix = |m: DMat4| m.to_cols_array().map(|x| x.to_string()).to_vec();
            let bone_world = s.bind_world(*bone);
            self.array(2, "Transform", &matrix(bone_world.inverse() * mesh_world));
            self.array(2, "TransformLink", &matrix(bone_world));
            self.line(1, "}");
            self.link("OO", id, skin, None);
            self.link("OO", node_id(*bone), id, None);
        }
    }

    fn stack(&mut self, k: usize, stack: &StackSpec) {
        let id = 3000 + 1000 * k as u64;
        let ktime = |t: f64| ((t * KTIME).round() as i64).to_string();
        self.line(
            1,
            &format!(
                "AnimationStack: {id}, \"AnimStack::{}\", \"\" {{",
                stack.name
            ),
        );
        self.line(2, "Properties70:  {");
        self.line(
            3,
            &format!(
                "P: \"LocalStart\", \"KTime\", \"Time\", \"\",{}",
                ktime(stack.start)
            ),
        );
        self.line(
            3,
            &format!(
                "P: \"LocalStop\", \"KTime\", \"Time\", \"\",{}",
                ktime(stack.stop)
            ),
        );
        self.line(2, "}");
        self.line(1, "}");
        let layer = id + 1;
        self.line(
            1,
            &format!("AnimationLayer: {layer}, \"AnimLayer::Base\", \"\" {{"),
        );
        self.line(1, "}");
        self.link("OO", layer, id, None);
        for (c, curve) in stack.curves.iter().enumerate() {
            let node_curve = id + 10 + 10 * c as u64;
            let short = match curve.property {
                "Lcl Translation" => "T",
                "Lcl Rotation" => "R",
                _ => "S",
            };
            self.line(
                1,
                &format!("AnimationCurveNode: {node_curve}, \"AnimCurveNode::{short}\", \"\" {{"),
            );
            self.line(2, "Properties70:  {");
            for (axis, value) in ["X", "Y", "Z"].iter().zip(curve.keys[0].1) {
                self.line(
                    3,
                    &format!("P: \"d|{axis}\", \"Number\", \"\", \"A\",{value}"),
                );
            }
            self.line(2, "}");
            self.line(1, "}");
            self.link("OO", node_curve, layer, None);
            self.link("OP", node_curve, node_id(curve.node), Some(curve.property));
            for (a, axis) in ["X", "Y", "Z"].iter().enumerate() {
                let curve_id = node_curve + 1 + a as u64;
                self.line(
                    1,
                    &format!("AnimationCurve: {curve_id}, \"AnimCurve::\", \"\" {{"),
                );
                self.line(2, &format!("Default: {}", curve.keys[0].1[a]));
                self.line(2, "KeyVer: 4009");
                let times: Vec<String> = curve.keys.iter().map(|k| ktime(k.0)).collect();
                let values: Vec<String> = curve.keys.iter().map(|k| k.1[a].to_string()).collect();
                self.array(2, "KeyTime", &times);
                self.array(2, "KeyValueFloat", &values);
                // Linear interpolation (eInterpolationLinear) on every key.
                self.array(2, "KeyAttrFlags", &["4".to_string()]);
                self.array(
                    2,
                    "KeyAttrDataFloat",
                    &["0", "0", "0", "0"].map(String::from),
                );
                self.array(2, "KeyAttrRefCount", &[curve.keys.len().to_string()]);
                self.line(1, "}");
                self.link("OP", curve_id, node_curve, Some(&format!("d|{axis}")));
            }
        }
    }
}

/// The standard character: an `Armature` (a `Null`, moved by the stack: root motion) above
/// `Hips` and `Spine`; a quad and a triangle skinned to both, two materials; one stack,
/// `Wave`, 1 s at 30 fps: the armature slides 2 units along x, the spine turns 90 degrees
/// about z.
pub fn standard() -> Scene {
    let mut armature = Node::new("Armature", None, [0.0, 0.0, 0.0]);
    armature.limb = false;
    let nodes = vec![
        armature,
        Node::new("Hips", Some(0), [0.0, 1.0, 0.0]),
        Node::new("Spine", Some(1), [0.0, 1.0, 0.0]),
        {
            let mut body = Node::new("Body", None, [0.0, 0.0, 0.0]);
            body.limb = false;
            body
        },
    ];
    Scene {
        up: 1,
        unit_cm: 1.0,
        time_mode: 6,
        custom_fps: -1.0,
        nodes,
        mesh: MeshSpec {
            node: 3,
            positions: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 2.0, 0.0],
            ],
            polygons: vec![vec![0, 1, 2, 3], vec![3, 2, 4]],
            uvs: vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.5]],
            polygon_material: vec![0, 1],
            materials: vec![
                MaterialSpec {
                    name: "Red",
                    diffuse: [1.0, 0.0, 0.0],
                    texture: None,
                },
                MaterialSpec {
                    name: "Blue",
                    diffuse: [0.0, 0.0, 1.0],
                    texture: None,
                },
            ],
            clusters: vec![
                (1, vec![(0, 1.0), (1, 1.0), (2, 0.5), (3, 0.5)]),
                (2, vec![(2, 0.5), (3, 0.5), (4, 1.0)]),
            ],
        },
        stacks: vec![StackSpec {
            name: "Wave",
            start: 0.0,
            stop: 1.0,
            curves: vec![
                Curve {
                    node: 0,
                    property: "Lcl Translation",
                    keys: vec![(0.0, [0.0; 3]), (1.0, [2.0, 0.0, 0.0])],
                },
                Curve {
                    node: 2,
                    property: "Lcl Rotation",
                    keys: vec![(0.0, [0.0; 3]), (1.0, [0.0, 0.0, 90.0])],
                },
            ],
        }],
        bind: Vec::new(),
    }
}

/// The standard character bound with its spine bent a quarter turn about z (the rest pose is
/// straight): the rest pose is not the bind pose.
pub fn bound_bent() -> Scene {
    let mut s = standard();
    let bent = s.world(2) * DMat4::from_rotation_z(std::f64::consts::FRAC_PI_2);
    s.bind.push((2, bent));
    s
}

/// The standard character written Z-up (as 3ds Max writes): the same shape turned so that its
/// up is +Z, with the file saying so.
pub fn z_up() -> Scene {
    let mut s = standard();
    s.up = 2;
    // The armature turns the character's +Y onto +Z.
    s.nodes[0].rotation = [90.0, 0.0, 0.0];
    s.nodes[3].rotation = [90.0, 0.0, 0.0];
    s.stacks.clear();
    s
}

/// A biped's layout: `Bip01` (moved) above `Bip01_Pelvis`, with `Bip01_Footsteps` (moved
/// too) beside the pelvis; the mesh is skinned to the pelvis and the spine only.
pub fn biped_with_footsteps() -> Scene {
    let mut s = standard();
    s.nodes = vec![
        Node::new("Bip01", None, [0.0, 0.0, 0.0]),
        Node::new("Bip01_Footsteps", Some(0), [0.0, 0.0, 0.0]),
        Node::new("Bip01_Pelvis", Some(0), [0.0, 1.0, 0.0]),
        Node::new("Bip01_Spine", Some(2), [0.0, 1.0, 0.0]),
        {
            let mut body = Node::new("Body", None, [0.0, 0.0, 0.0]);
            body.limb = false;
            body
        },
    ];
    s.mesh.node = 4;
    s.mesh.clusters[0].0 = 2;
    s.mesh.clusters[1].0 = 3;
    let slide = |node| Curve {
        node,
        property: "Lcl Translation",
        keys: vec![(0.0, [0.0; 3]), (1.0, [1.0, 0.0, 0.0])],
    };
    s.stacks[0].curves = vec![slide(0), slide(1)];
    s
}

/// The standard character with a vertex weighted by five bones: three more under `Spine`.
pub fn five_weights() -> Scene {
    let mut s = standard();
    for (name, x) in [("A", 0.1), ("B", 0.2), ("C", 0.3)] {
        s.nodes.push(Node::new(name, Some(2), [x, 0.0, 0.0]));
    }
    let n = s.nodes.len();
    s.mesh.clusters[0].1.push((4, 0.1));
    s.mesh.clusters.push((n - 3, vec![(4, 0.4)]));
    s.mesh.clusters.push((n - 2, vec![(4, 0.3)]));
    s.mesh.clusters.push((n - 1, vec![(4, 0.2)]));
    s
}

/// The samples the fuzz target's corpus starts from: (file name, text).
pub fn seeds() -> Vec<(&'static str, String)> {
    let mut textured = standard();
    textured.mesh.materials[0].texture = Some(TextureSpec {
        relative: "red.png",
        absolute: "C:\\art\\red.png",
        embedded: Some(tiny_png()),
    });
    vec![
        ("seed-standard.fbx", standard().write()),
        ("seed-z-up.fbx", z_up().write()),
        ("seed-footsteps.fbx", biped_with_footsteps().write()),
        ("seed-five-weights.fbx", five_weights().write()),
        ("seed-embedded-texture.fbx", textured.write()),
    ]
}

/// A 2x2 RGBA PNG.
pub fn tiny_png() -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, 2, 2);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("png header");
    writer
        .write_image_data(&[
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
        ])
        .expect("png data");
    drop(writer);
    out
}

/// A binary FBX 7.4 file of one mesh whose `Vertices` array claims `count` doubles that the
/// file does not hold (the array header says so, and ufbx sizes the array from it before it
/// reads a byte of it).
pub fn binary_claiming_vertices(count: u32) -> Vec<u8> {
    let mut out = b"Kaydara FBX Binary  \0\x1a\0".to_vec();
    out.extend_from_slice(&7400u32.to_le_bytes());
    let string = |s: &[u8]| {
        let mut p = vec![b'S'];
        p.extend_from_slice(&(s.len() as u32).to_le_bytes());
        p.extend_from_slice(s);
        p
    };
    // Begins a node record; its end offset is patched by `end`.
    let begin = |out: &mut Vec<u8>, name: &str, props: &[Vec<u8>]| {
        let at = out.len();
        let list: Vec<u8> = props.concat();
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&(props.len() as u32).to_le_bytes());
        out.extend_from_slice(&(list.len() as u32).to_le_bytes());
        out.push(name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&list);
        at
    };
    let end = |out: &mut Vec<u8>, at: usize, children: bool| {
        if children {
            out.extend_from_slice(&[0; 13]);
        }
        let offset = (out.len() as u32).to_le_bytes();
        out[at..at + 4].copy_from_slice(&offset);
    };
    let objects = begin(&mut out, "Objects", &[]);
    let mut id = vec![b'L'];
    id.extend_from_slice(&2000i64.to_le_bytes());
    let geometry = begin(
        &mut out,
        "Geometry",
        &[id, string(b"body\0\x01Geometry"), string(b"Mesh")],
    );
    let mut array = vec![b'd'];
    array.extend_from_slice(&count.to_le_bytes());
    array.extend_from_slice(&0u32.to_le_bytes());
    array.extend_from_slice(&count.wrapping_mul(8).to_le_bytes());
    array.extend_from_slice(&[0; 24]);
    let vertices = begin(&mut out, "Vertices", &[array]);
    end(&mut out, vertices, false);
    end(&mut out, geometry, true);
    end(&mut out, objects, true);
    out.extend_from_slice(&[0; 13]);
    out
}
