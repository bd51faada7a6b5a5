//! `--attach PROP[@JOINT][:X,Y,Z]` (repeatable) and `--attach-share F`, shared by `run` and
//! `bench frame`: props made part of each model's mesh on a joint (`asset::props`), carried by
//! a share of the crowd.

use std::ops::Range;
use std::sync::Arc;

use clap::Args;
use glam::Vec3;
use throng::anim::SkinnedModel;
use throng::asset::builtin::props::{PROPS, prop};
use throng::asset::props::{Attachment, attach, prop_materials};

use super::CliError;
use super::load_args::LoadArgs;

/// The props to attach, and the share of the crowd carrying them.
#[derive(Debug, Args)]
pub struct AttachArgs {
    /// Attach a prop to a joint of every model that has the joint (repeatable): PROP is a
    /// built-in prop (`staff`: right hand, `hat`: head) or a model file whose bind-pose mesh is
    /// the prop; JOINT a joint name or index (a built-in prop's own by default); X,Y,Z where
    /// the prop's origin sits in the joint's frame, model units (a built-in prop's own, or 0).
    #[arg(long = "attach", value_name = "PROP[@JOINT][:X,Y,Z]", value_parser = parse_attach)]
    attach: Vec<AttachSpec>,
    /// The share of the instances that carry the props, 0 to 1 (the others' looks leave
    /// them out).
    #[arg(long, value_name = "F", default_value_t = 1.0, value_parser = parse_share)]
    attach_share: f32,
}

/// One `--attach` value.
#[derive(Clone, Debug, PartialEq)]
pub struct AttachSpec {
    prop: String,
    joint: Option<String>,
    offset: Option<Vec3>,
}

fn parse_attach(s: &str) -> Result<AttachSpec, String> {
    // The offset after the last ':' when it reads as three numbers (a path may hold ':').
    let (rest, offset) = match s.rsplit_once(':') {
        Some((rest, xyz)) => match parse_offset(xyz) {
            Some(v) => (rest, Some(v)),
            None => (s, None),
        },
        None => (s, None),
    };
    let (prop, joint) = match rest.rsplit_once('@') {
        Some((p, j)) if !j.is_empty() => (p, Some(j.to_string())),
        Some(_) => return Err(format!("'{s}': no joint after '@'")),
        None => (rest, None),
    };
    if prop.is_empty() {
        return Err(format!("'{s}': no prop before '@'"));
    }
    Ok(AttachSpec {
        prop: prop.to_string(),
        joint,
        offset,
    })
}

fn parse_offset(xyz: &str) -> Option<Vec3> {
    let v: Vec<f32> = xyz
        .split(',')
        .map(|c| c.trim().parse::<f32>().ok().filter(|x| x.is_finite()))
        .collect::<Option<_>>()?;
    <[f32; 3]>::try_from(v).ok().map(Vec3::from)
}

fn parse_share(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("'{s}' is not a share from 0 to 1")),
    }
}

/// The models with their props, and per model the materials the props added (which a look
/// hides from the instances that do not carry them).
pub struct WithProps {
    /// The models, in the order given.
    pub models: Vec<Arc<SkinnedModel>>,
    /// Per model: the props' materials.
    pub prop_materials: Vec<Range<usize>>,
    /// The share of the instances carrying them.
    pub share: f32,
}

impl AttachArgs {
    /// `models` with the props attached to each that has the joint (a model without it gets
    /// none, with a warning); prop files are loaded with `load`'s limits.
    pub fn apply(
        &self,
        models: Vec<Arc<SkinnedModel>>,
        load: &LoadArgs,
    ) -> Result<WithProps, CliError> {
        let mut out = WithProps {
            models: Vec::with_capacity(models.len()),
            prop_materials: Vec::with_capacity(models.len()),
            share: self.attach_share,
        };
        if self.attach.is_empty() {
            out.prop_materials = vec![0..0; models.len()];
            out.models = models;
            return Ok(out);
        }
        let props = self
            .attach
            .iter()
            .map(|a| self.prop_mesh(a, load))
            .collect::<Result<Vec<_>, _>>()?;
        let mut used = vec![false; props.len()];
        // Said once the arguments are known to be right (an error is one line alone).
        let mut skipped = Vec::new();
        for model in models {
            let mut attachments = Vec::new();
            for (k, (spec, (mesh, joint, offset))) in self.attach.iter().zip(&props).enumerate() {
                match find_joint(&model, joint) {
                    Some(j) => {
                        used[k] = true;
                        attachments.push(Attachment {
                            name: spec.prop.clone(),
                            mesh: mesh.clone(),
                            joint: j,
                            offset: *offset,
                        });
                    }
                    None => skipped.push(format!(
                        "{}: no joint {joint}; the {} is not attached to it",
                        throng::text::printable(model.name()),
                        throng::text::printable(&spec.prop)
                    )),
                }
            }
            let own = model.mesh().materials.len();
            let joined = attach(&model, &attachments)
                .map_err(|e| CliError::Argument(format!("--attach: {}: {e}", model.name())))?;
            out.prop_materials.push(prop_materials(own, &attachments));
            out.models.push(Arc::new(joined));
        }
        // A prop no model could take is a mistake in the arguments, not a choice.
        if let Some(k) = used.iter().position(|u| !u) {
            return Err(CliError::Argument(format!(
                "--attach {}: no model has the joint {}",
                self.attach[k].prop, props[k].1
            )));
        }
        for line in skipped {
            log::warn!("{line}");
        }
        Ok(out)
    }

    /// The mesh, joint and offset of one `--attach`.
    fn prop_mesh(
        &self,
        spec: &AttachSpec,
        load: &LoadArgs,
    ) -> Result<(throng::anim::Mesh, String, Vec3), CliError> {
        if let Some(p) = prop(&spec.prop) {
            let joint = spec.joint.clone().unwrap_or_else(|| p.joint.to_string());
            return Ok((p.mesh, joint, spec.offset.unwrap_or(p.offset)));
        }
        let joint = spec.joint.clone().ok_or_else(|| {
            CliError::Argument(format!(
                "--attach {}: a prop file needs @JOINT (built-in props: {})",
                spec.prop,
                PROPS.join(", ")
            ))
        })?;
        let model = load.load_models(std::slice::from_ref(&spec.prop))?;
        let mesh = model
            .first()
            .map(|m| m.mesh().clone())
            .ok_or_else(|| CliError::Argument(format!("--attach {}: no model", spec.prop)))?;
        Ok((mesh, joint, spec.offset.unwrap_or(Vec3::ZERO)))
    }
}

/// The joint `name` (a name, or an index) of `model`.
fn find_joint(model: &SkinnedModel, name: &str) -> Option<usize> {
    let joints = model.skeleton().len();
    model
        .skeleton()
        .find(name)
        .or_else(|| name.parse::<usize>().ok().filter(|&j| j < joints))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attach_values_parse_with_and_without_joint_and_offset() {
        let spec = |p: &str, j: Option<&str>, o: Option<[f32; 3]>| AttachSpec {
            prop: p.into(),
            joint: j.map(String::from),
            offset: o.map(Vec3::from),
        };
        assert_eq!(parse_attach("staff"), Ok(spec("staff", None, None)));
        assert_eq!(
            parse_attach("staff@hand_l"),
            Ok(spec("staff", Some("hand_l"), None))
        );
        assert_eq!(
            parse_attach("a/hat.glb@head:0,0.2,-0.01"),
            Ok(spec("a/hat.glb", Some("head"), Some([0.0, 0.2, -0.01])))
        );
        assert_eq!(
            parse_attach("C:/x.glb@5"),
            Ok(spec("C:/x.glb", Some("5"), None))
        );
        assert!(parse_attach("staff@").is_err());
        assert!(parse_attach("@head").is_err());
        assert!(parse_share("1.5").is_err() && parse_share("0.25") == Ok(0.25));
    }
}
