//! What a playback drew, as CSV: per pedestrian and output frame, the time, the id, the root's
//! position and heading, the clip and its time, the cross-fade's weight, the character's scale
//! and the world position of each foot joint (the joints the stride is measured from), all in
//! the file's coordinates (x, y on the ground, z up, metres), so that anyone can check the
//! motion outside throng: the positions against the file, the feet for sliding.

use std::io::Write;

use glam::Vec3;

use super::playback::Playback;
use crate::anim::{Mat3x4, PoseScratch};
use crate::crowd::Crowd;
use crate::scene::{bind_positions, foot_joints};

/// Writes a playback's frames as CSV rows (see the module documentation).
pub struct FootExport<W: Write> {
    out: W,
    /// Per model of the playback: its foot joints, their names and bind positions.
    feet: Vec<Vec<(usize, String, Vec3)>>,
    scratch: PoseScratch,
    palette: Vec<Mat3x4>,
    /// The most feet of any model: the number of foot column groups.
    columns: usize,
}

impl<W: Write> FootExport<W> {
    /// An export of `playback`'s frames to `out`; writes the header row.
    pub fn new(mut out: W, playback: &Playback, crowd: &Crowd) -> std::io::Result<Self> {
        let feet: Vec<Vec<(usize, String, Vec3)>> = playback
            .models()
            .iter()
            .map(|m| {
                let model = &crowd.models()[m.id.0 as usize];
                let bind = bind_positions(model);
                let names = model.skeleton().names();
                foot_joints(model)
                    .into_iter()
                    .map(|j| {
                        let name = names.get(j).cloned().unwrap_or_default();
                        (j, crate::text::printable(&name).into_owned(), bind[j])
                    })
                    .collect()
            })
            .collect();
        let columns = feet.iter().map(Vec::len).max().unwrap_or(0);
        // Room for the largest model's pose (the crowd may hold nobody yet).
        let joints = crowd
            .models()
            .iter()
            .map(|m| m.joint_count())
            .max()
            .unwrap_or(0)
            .max(1);
        write!(
            out,
            "time,id,x,y,z,heading,clip,clip_time,fade_weight,height_scale"
        )?;
        for f in 1..=columns {
            write!(out, ",foot{f}_joint,foot{f}_x,foot{f}_y,foot{f}_z")?;
        }
        writeln!(out)?;
        Ok(Self {
            out,
            feet,
            scratch: PoseScratch::new(joints),
            palette: vec![Mat3x4::IDENTITY; joints],
            columns,
        })
    }

    /// Writes one row per pedestrian present at `time` (the playback's last step). The
    /// heading is in the file's plane: radians counterclockwise from its +x axis.
    pub fn frame(&mut self, time: f64, playback: &Playback, crowd: &Crowd) -> std::io::Result<()> {
        for k in 0..playback.present() {
            let (Some(state), Some(model)) = (playback.member(k), playback.member_model(k)) else {
                continue;
            };
            let i = playback.base() + k;
            let inst = crowd.instance(i);
            let world = crowd.world(i);
            let root = playback.to_file(world.translation());
            let h = state.heading;
            let heading = (-h.cos()).atan2(h.sin());
            write!(
                self.out,
                "{time:.4},{},{:.4},{:.4},{:.4},{heading:.4},{},{:.4},",
                state.id,
                root[0],
                root[1],
                root[2],
                csv_field(inst.clip_name()),
                inst.time(),
            )?;
            // Empty outside a cross-fade (written straight out: no string per row).
            if let Some(w) = inst.fade_weight() {
                write!(self.out, "{w:.4}")?;
            }
            write!(self.out, ",{:.4}", state.scale)?;
            let feet = &self.feet[model];
            if !feet.is_empty() {
                inst.evaluate(&mut self.scratch, &mut self.palette);
            }
            for (j, name, bind) in feet {
                let p = world.transform_point3(self.palette[*j].transform_point3(*bind));
                let f = playback.to_file(p);
                write!(
                    self.out,
                    ",{},{:.4},{:.4},{:.4}",
                    csv_field(name),
                    f[0],
                    f[1],
                    f[2]
                )?;
            }
            for _ in feet.len()..self.columns {
                write!(self.out, ",,,,")?;
            }
            writeln!(self.out)?;
        }
        Ok(())
    }

    /// Flushes and returns the writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A name as one CSV field: quoted when it holds a comma, a quote or a line break.
fn csv_field(name: &str) -> std::borrow::Cow<'_, str> {
    if name.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", name.replace('"', "\"\"")).into()
    } else {
        name.into()
    }
}
