//! Palettes of instances the crowd does not hold (the near set of a crowd whose state lives on
//! the GPU, brought up to date on the CPU), evaluated on the crowd's worker threads with their
//! scratch: the same values as [`SkinnedModelInstance::evaluate`] one by one.

use std::sync::{Mutex, PoisonError};

use super::workers::{WorkerScratch, Workers};
use crate::anim::{Mat3x4, SkinnedModelInstance};

/// Instances evaluated by one task: a few, since each is a whole palette (tens of
/// microseconds).
const GRAIN: usize = 16;

/// Writes the palettes of `instances` one after another into `out` (each its model's joint
/// count; `out` holds at least their sum), in parallel when they are many.
pub(crate) fn evaluate_detached(
    workers: &mut Workers,
    instances: &[SkinnedModelInstance],
    out: &mut [Mat3x4],
) {
    let joints: usize = instances.iter().map(|i| i.model().joint_count()).sum();
    if workers.serial_frame(joints, instances.len()) {
        let scratch = &workers.scratch()[0];
        let mut scratch = scratch.lock().unwrap_or_else(PoisonError::into_inner);
        serial(instances, out, &mut scratch);
    } else {
        workers.run_with_scratch(|scratch| split(scratch, instances, out));
    }
}

/// Halves the instances (and `out` where the first half's palettes end) until a part is at
/// most [`GRAIN`]; no allocation (`rayon::join` keeps its jobs on the stack).
fn split(scratch: &[Mutex<WorkerScratch>], instances: &[SkinnedModelInstance], out: &mut [Mat3x4]) {
    if instances.len() <= GRAIN {
        let worker = rayon::current_thread_index().unwrap_or(0) % scratch.len();
        let mut scratch = scratch[worker]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        serial(instances, out, &mut scratch);
        return;
    }
    let (a, b) = instances.split_at(instances.len() / 2);
    let first: usize = a.iter().map(|i| i.model().joint_count()).sum();
    let (out_a, out_b) = out.split_at_mut(first);
    rayon::join(|| split(scratch, a, out_a), || split(scratch, b, out_b));
}

fn serial(instances: &[SkinnedModelInstance], out: &mut [Mat3x4], scratch: &mut WorkerScratch) {
    let mut base = 0;
    for inst in instances {
        let n = inst.model().joint_count();
        inst.evaluate(&mut scratch.pose, &mut out[base..base + n]);
        base += n;
    }
}

#[cfg(test)]
mod tests {
    use crate::anim::{Mat3x4, PoseScratch, SkinnedModelInstance};
    use crate::crowd::Crowd;
    use crate::crowd::test_models::stick;

    #[test]
    fn detached_palettes_are_each_instances_own_on_any_thread_count() {
        let model = stick(2);
        let instances: Vec<SkinnedModelInstance> = (0..45)
            .map(|k| {
                let mut inst = SkinnedModelInstance::new(model.clone());
                inst.play(k % 2, 0.0).expect("clip");
                inst.set_time(0.013 * k as f32);
                if k % 5 == 0 {
                    inst.play((k + 1) % 2, 0.3).expect("fade");
                    inst.advance(0.1);
                }
                inst
            })
            .collect();
        let joints = model.joint_count();
        let mut expected = vec![Mat3x4::IDENTITY; joints * instances.len()];
        let mut scratch = PoseScratch::default();
        for (k, inst) in instances.iter().enumerate() {
            inst.evaluate(&mut scratch, &mut expected[k * joints..(k + 1) * joints]);
        }
        for (threads, serial_below) in [(1, 32_768), (2, 0), (2, 32_768)] {
            let mut crowd = Crowd::new(threads).expect("crowd");
            crowd.add_model(model.clone());
            crowd.set_serial_below(serial_below, serial_below);
            let mut out = vec![Mat3x4::IDENTITY; expected.len()];
            crowd.evaluate_detached(&instances, &mut out);
            assert_eq!(
                out, expected,
                "{threads} threads, serial below {serial_below}"
            );
        }
    }
}
