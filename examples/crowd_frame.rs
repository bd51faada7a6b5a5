//! The library without the renderer: load the built-in character, spawn a small crowd, write
//! one frame of palettes into a ring in host memory and print one joint's palette matrix.
//!
//! ```sh
//! cargo run --example crowd_frame
//! ```

use std::sync::Arc;

use glam::{Quat, Vec3A};
use throng::anim::Mat3x4;
use throng::crowd::{Crowd, DEFAULT_SLOTS, HostAllocator, NoConsumer, PaletteRing};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `None` is the built-in character; a path loads a glTF or .m3d file instead.
    let model = Arc::new(throng::asset::load_model(None)?);

    // Eight walkers in a row, each half a walk cycle further along. 0 threads: one per core.
    let mut crowd = Crowd::new(0)?;
    let id = crowd.add_model(model.clone());
    let walk = model.clip_index("walk").unwrap_or(0);
    for i in 0..8 {
        let world = Mat3x4::from_trs(Vec3A::new(i as f32, 0.0, 0.0), Quat::IDENTITY, Vec3A::ONE);
        let instance = crowd.spawn(id, world)?;
        let anim = crowd.instance_mut(instance);
        anim.play(walk, 0.0)?;
        anim.set_time(i as f32 * 0.5 * model.clips()[walk].duration());
    }
    crowd.update(1.0 / 60.0);

    // A ring in host memory that nobody reads (NoConsumer: nothing to wait for). The renderer
    // uses the same ring over persistently mapped GPU memory and its timeline semaphore.
    let mut ring = PaletteRing::new(HostAllocator, DEFAULT_SLOTS, crowd.len(), 0)?;
    ring.reserve(crowd.len(), crowd.joint_count())?;
    let mut slot = ring.acquire(&mut NoConsumer)?;
    crowd.write_palettes(&mut slot)?;

    // Where instance 3 landed in the slot, and its left hand's palette matrix: bind-pose
    // model space to posed model space (the record's world matrix then places the instance).
    let placement = crowd.placement(3).ok_or("no instance 3")?;
    let hand = model.skeleton().find("hand_l").ok_or("no joint hand_l")?;
    let record = &slot.records[placement.record];
    let matrix = &slot.palettes[placement.palette_base + hand];
    println!(
        "{} instances, {} palette matrices in slot {}",
        crowd.len(),
        crowd.joint_count(),
        slot.index
    );
    println!(
        "instance 3 (record {}, stands at x = {}): hand_l at time {:.3} s",
        placement.record,
        record.world.translation().x,
        crowd.instance(3).time()
    );
    for row in matrix.rows {
        println!(
            "  [{:8.4} {:8.4} {:8.4} {:8.4}]",
            row.x, row.y, row.z, row.w
        );
    }
    Ok(())
}
