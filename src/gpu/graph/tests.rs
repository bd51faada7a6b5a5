//! Barrier derivation, culling and validation, checked against exact stage, access and
//! layout values (no device needed).

use ash::vk;
use vk::AccessFlags2 as A;
use vk::ImageLayout as L;
use vk::PipelineStageFlags2 as S;

use super::*;

const DEPTH_STAGES: S =
    S::from_raw(S::EARLY_FRAGMENT_TESTS.as_raw() | S::LATE_FRAGMENT_TESTS.as_raw());

fn color(g: &mut GraphBuilder, name: &'static str) -> ResourceId {
    g.transient_image(ImageDesc {
        name,
        format: vk::Format::R16G16B16A16_SFLOAT,
        kind: ImageKind::Color,
        extent: Extent::Target,
        samples: vk::SampleCountFlags::TYPE_1,
    })
}

fn depth(g: &mut GraphBuilder) -> ResourceId {
    g.transient_image(ImageDesc {
        name: "depth",
        format: vk::Format::D32_SFLOAT,
        kind: ImageKind::Depth,
        extent: Extent::Target,
        samples: vk::SampleCountFlags::TYPE_1,
    })
}

fn swapchain(g: &mut GraphBuilder) -> ResourceId {
    g.imported_image(
        "swapchain",
        ImageKind::Color,
        L::UNDEFINED,
        Some(Access::Present),
    )
}

/// An image barrier, fields in declaration order.
fn image(resource: ResourceId, src: (S, A), dst: (S, A), old_layout: L, new_layout: L) -> Barrier {
    Barrier {
        resource,
        src_stage: src.0,
        src_access: src.1,
        dst_stage: dst.0,
        dst_access: dst.1,
        old_layout: Some(old_layout),
        new_layout: Some(new_layout),
    }
}

fn buffer(resource: ResourceId, src: (S, A), dst: (S, A)) -> Barrier {
    Barrier {
        resource,
        src_stage: src.0,
        src_access: src.1,
        dst_stage: dst.0,
        dst_access: dst.1,
        old_layout: None,
        new_layout: None,
    }
}

/// The barriers before the step running `pass`.
fn before(plan: &Plan, pass: PassId) -> Vec<Barrier> {
    let step = plan
        .steps()
        .iter()
        .find(|s| s.pass == pass)
        .expect("pass was culled");
    plan.barriers(step).to_vec()
}

/// The barriers on `res` anywhere in the plan, final ones included.
fn on(plan: &Plan, res: ResourceId) -> Vec<Barrier> {
    plan.steps()
        .iter()
        .flat_map(|s| plan.barriers(s))
        .chain(plan.final_barriers())
        .filter(|b| b.resource == res)
        .copied()
        .collect()
}

/// colour written by `draw`, sampled in the fragment shader by `post`, which writes the
/// swapchain.
fn draw_then_post() -> (GraphBuilder, ResourceId, ResourceId, PassId, PassId) {
    let mut g = GraphBuilder::new();
    let hdr = color(&mut g, "hdr");
    let sc = swapchain(&mut g);
    let draw = g
        .pass("draw")
        .write(hdr, Access::ColorAttachmentWrite)
        .finish();
    let post = g
        .pass("post")
        .read(hdr, Access::Sampled(Stages::Fragment))
        .write(sc, Access::ColorAttachmentWrite)
        .finish();
    (g, hdr, sc, draw, post)
}

#[test]
fn read_after_write_colour_then_sampled() {
    let (g, hdr, sc, _, post) = draw_then_post();
    let plan = g.compile().unwrap();
    assert_eq!(
        before(&plan, post),
        [
            image(
                hdr,
                (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE),
                (S::FRAGMENT_SHADER, A::SHADER_READ),
                L::COLOR_ATTACHMENT_OPTIMAL,
                L::SHADER_READ_ONLY_OPTIMAL,
            ),
            // The swapchain's first use: from UNDEFINED, chained after the acquire semaphore
            // waited on at the use's own stage.
            image(
                sc,
                (S::COLOR_ATTACHMENT_OUTPUT, A::NONE),
                (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE),
                L::UNDEFINED,
                L::COLOR_ATTACHMENT_OPTIMAL,
            ),
        ]
    );
    assert_eq!(plan.first_use_stages(sc), S::COLOR_ATTACHMENT_OUTPUT);
}

#[test]
fn first_use_of_transient_transitions_from_undefined_after_last_frame() {
    let (g, hdr, _, draw, _) = draw_then_post();
    let plan = g.compile().unwrap();
    // The previous frame's last use was fragment sampling: the transition (a write) waits
    // for it, with no memory to make available.
    assert_eq!(
        before(&plan, draw),
        [image(
            hdr,
            (S::FRAGMENT_SHADER, A::NONE),
            (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE),
            L::UNDEFINED,
            L::COLOR_ATTACHMENT_OPTIMAL,
        )]
    );
}

#[test]
fn final_barrier_to_present() {
    let (g, _, sc, _, _) = draw_then_post();
    let plan = g.compile().unwrap();
    assert_eq!(
        plan.final_barriers(),
        [image(
            sc,
            (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE),
            (S::NONE, A::NONE),
            L::COLOR_ATTACHMENT_OPTIMAL,
            L::PRESENT_SRC_KHR,
        )]
    );
}

#[test]
fn final_barrier_to_transfer_src_and_none_when_already_there() {
    let mut g = GraphBuilder::new();
    let target = g.imported_image(
        "target",
        ImageKind::Color,
        L::UNDEFINED,
        Some(Access::TransferSrc),
    );
    g.pass("draw")
        .write(target, Access::ColorAttachmentWrite)
        .finish();
    let plan = g.compile().unwrap();
    assert_eq!(
        plan.final_barriers(),
        [image(
            target,
            (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE),
            (S::ALL_TRANSFER, A::TRANSFER_READ),
            L::COLOR_ATTACHMENT_OPTIMAL,
            L::TRANSFER_SRC_OPTIMAL,
        )]
    );
    assert_eq!(
        plan.image_usage(target),
        vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC
    );

    // A last pass that already reads it as a transfer source leaves nothing to do.
    let readback = g.imported_buffer("readback");
    g.pass("copy")
        .read(target, Access::TransferSrc)
        .write(readback, Access::TransferDst)
        .finish();
    g.mark_output(readback);
    let plan = g.compile().unwrap();
    assert_eq!(plan.culled(), []);
    assert_eq!(plan.final_barriers(), []);
}

#[test]
fn read_after_read_in_same_layout_needs_no_barrier() {
    let (mut g, hdr, sc, _, _) = draw_then_post();
    let again = g
        .pass("again")
        .read(hdr, Access::Sampled(Stages::Fragment))
        .write(sc, Access::ColorAttachmentReadWrite)
        .finish();
    let plan = g.compile().unwrap();
    // Only the swapchain's write-after-write; nothing for hdr.
    assert_eq!(
        before(&plan, again),
        [image(
            sc,
            (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE),
            (
                S::COLOR_ATTACHMENT_OUTPUT,
                A::COLOR_ATTACHMENT_READ | A::COLOR_ATTACHMENT_WRITE
            ),
            L::COLOR_ATTACHMENT_OPTIMAL,
            L::COLOR_ATTACHMENT_OPTIMAL,
        )]
    );
}

#[test]
fn second_reader_at_a_new_stage_gets_its_own_barrier() {
    let (mut g, hdr, sc, _, _) = draw_then_post();
    let vert = g
        .pass("vertex reader")
        .read(hdr, Access::Sampled(Stages::Vertex))
        .write(sc, Access::ColorAttachmentReadWrite)
        .finish();
    let plan = g.compile().unwrap();
    let hdr_barriers: Vec<_> = before(&plan, vert)
        .into_iter()
        .filter(|b| b.resource == hdr)
        .collect();
    // The write is already available and the image already transitioned (by the barrier
    // before "post"); the vertex stage must wait for that transition, which happened before
    // the fragment stage, and see the data.
    assert_eq!(
        hdr_barriers,
        [image(
            hdr,
            (S::FRAGMENT_SHADER, A::NONE),
            (S::VERTEX_SHADER, A::SHADER_READ),
            L::SHADER_READ_ONLY_OPTIMAL,
            L::SHADER_READ_ONLY_OPTIMAL,
        )]
    );
}

#[test]
fn buffer_second_reader_waits_on_the_write_itself() {
    let mut g = GraphBuilder::new();
    let sc = swapchain(&mut g);
    let buf = g.imported_buffer("instances");
    g.pass("cull")
        .write(buf, Access::StorageWrite(Stages::Compute))
        .finish();
    let a = g
        .pass("a")
        .read(buf, Access::StorageRead(Stages::Vertex))
        .write(sc, Access::ColorAttachmentWrite)
        .finish();
    let b = g
        .pass("b")
        .read(buf, Access::StorageRead(Stages::Fragment))
        .read(buf, Access::StorageRead(Stages::Vertex))
        .write(sc, Access::ColorAttachmentReadWrite)
        .finish();
    let c = g
        .pass("c")
        .read(buf, Access::StorageRead(Stages::VertexAndFragment))
        .write(sc, Access::ColorAttachmentReadWrite)
        .finish();
    let plan = g.compile().unwrap();
    let storage = (S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE);
    assert_eq!(
        on(&plan, buf),
        [
            buffer(buf, storage, (S::VERTEX_SHADER, A::SHADER_STORAGE_READ)),
            // "b" reads at fragment (new) and vertex (covered): one merged barrier for both.
            buffer(
                buf,
                storage,
                (
                    S::VERTEX_SHADER | S::FRAGMENT_SHADER,
                    A::SHADER_STORAGE_READ
                )
            ),
        ]
    );
    assert_eq!(before(&plan, a)[0].resource, buf);
    assert_eq!(before(&plan, b)[0].resource, buf);
    // Both stages already covered by "c".
    assert!(before(&plan, c).iter().all(|x| x.resource != buf));
}

#[test]
fn write_after_read_is_execution_only() {
    let mut g = GraphBuilder::new();
    let sc = swapchain(&mut g);
    let buf = g.imported_buffer("particles");
    g.pass("sim")
        .write(buf, Access::StorageWrite(Stages::Compute))
        .finish();
    g.pass("draw")
        .read(buf, Access::VertexBuffer)
        .read(buf, Access::StorageRead(Stages::Vertex))
        .write(sc, Access::ColorAttachmentWrite)
        .finish();
    let sim2 = g
        .pass("sim again")
        .write(buf, Access::StorageWrite(Stages::Compute))
        .finish();
    g.mark_output(buf);
    let plan = g.compile().unwrap();
    assert_eq!(
        before(&plan, sim2),
        [buffer(
            buf,
            (S::VERTEX_ATTRIBUTE_INPUT | S::VERTEX_SHADER, A::NONE),
            (S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE),
        )]
    );
}

#[test]
fn write_after_write_waits_on_the_write() {
    let mut g = GraphBuilder::new();
    let buf = g.imported_buffer("counts");
    let clear = g.pass("clear").write(buf, Access::TransferDst).finish();
    let count = g
        .pass("count")
        .write(buf, Access::StorageWrite(Stages::Compute))
        .finish();
    g.mark_output(buf);
    let plan = g.compile().unwrap();
    // Nothing before the first write of an import in the graph: the submit orders it.
    assert_eq!(before(&plan, clear), []);
    assert_eq!(
        before(&plan, count),
        [buffer(
            buf,
            (S::ALL_TRANSFER, A::TRANSFER_WRITE),
            (S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE),
        )]
    );
    assert_eq!(
        plan.buffer_usage(buf),
        vk::BufferUsageFlags::TRANSFER_DST | vk::BufferUsageFlags::STORAGE_BUFFER
    );
}

#[test]
fn depth_prepass_then_equal_test_goes_read_only() {
    let mut g = GraphBuilder::new();
    let d = depth(&mut g);
    let sc = swapchain(&mut g);
    let prepass = g
        .pass("prepass")
        .write(d, Access::DepthAttachmentWrite)
        .finish();
    let forward = g
        .pass("forward")
        .read(d, Access::DepthAttachmentRead)
        .write(sc, Access::ColorAttachmentWrite)
        .finish();
    let plan = g.compile().unwrap();
    assert_eq!(
        before(&plan, forward)[0],
        image(
            d,
            (DEPTH_STAGES, A::DEPTH_STENCIL_ATTACHMENT_WRITE),
            (DEPTH_STAGES, A::DEPTH_STENCIL_ATTACHMENT_READ),
            L::DEPTH_ATTACHMENT_OPTIMAL,
            L::DEPTH_READ_ONLY_OPTIMAL,
        )
    );
    // Next frame's prepass waits for this frame's depth tests before discarding.
    assert_eq!(
        before(&plan, prepass),
        [image(
            d,
            (DEPTH_STAGES, A::NONE),
            (
                DEPTH_STAGES,
                A::DEPTH_STENCIL_ATTACHMENT_READ | A::DEPTH_STENCIL_ATTACHMENT_WRITE
            ),
            L::UNDEFINED,
            L::DEPTH_ATTACHMENT_OPTIMAL,
        )]
    );
    assert_eq!(
        plan.image_usage(d),
        vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
    );
}

#[test]
fn transient_last_written_carries_a_memory_dependency_into_next_frame() {
    let mut g = GraphBuilder::new();
    let d = depth(&mut g);
    let sc = swapchain(&mut g);
    let forward = g
        .pass("forward")
        .write(d, Access::DepthAttachmentWrite)
        .write(sc, Access::ColorAttachmentWrite)
        .finish();
    let plan = g.compile().unwrap();
    assert_eq!(
        before(&plan, forward)[0],
        image(
            d,
            (DEPTH_STAGES, A::DEPTH_STENCIL_ATTACHMENT_WRITE),
            (
                DEPTH_STAGES,
                A::DEPTH_STENCIL_ATTACHMENT_READ | A::DEPTH_STENCIL_ATTACHMENT_WRITE
            ),
            L::UNDEFINED,
            L::DEPTH_ATTACHMENT_OPTIMAL,
        )
    );
}

#[test]
fn layout_change_after_reads_waits_on_the_readers() {
    let mut g = GraphBuilder::new();
    let d = depth(&mut g);
    let sc = swapchain(&mut g);
    g.pass("prepass")
        .write(d, Access::DepthAttachmentWrite)
        .finish();
    g.pass("ssao")
        .read(d, Access::Sampled(Stages::Fragment))
        .write(sc, Access::ColorAttachmentWrite)
        .finish();
    let forward = g
        .pass("forward")
        .read(d, Access::DepthAttachmentRead)
        .write(sc, Access::ColorAttachmentReadWrite)
        .finish();
    let plan = g.compile().unwrap();
    assert_eq!(
        before(&plan, forward)[0],
        image(
            d,
            (S::FRAGMENT_SHADER, A::NONE),
            (DEPTH_STAGES, A::DEPTH_STENCIL_ATTACHMENT_READ),
            L::SHADER_READ_ONLY_OPTIMAL,
            L::DEPTH_READ_ONLY_OPTIMAL,
        )
    );
}

#[test]
fn one_pass_merges_uses_of_one_resource_into_one_barrier() {
    let mut g = GraphBuilder::new();
    let img = color(&mut g, "accum");
    g.pass("clear").write(img, Access::TransferDst).finish();
    let blur = g
        .pass("blur")
        .write(img, Access::StorageWrite(Stages::Compute))
        .read(img, Access::StorageRead(Stages::Compute))
        .finish();
    g.mark_output(img);
    let plan = g.compile().unwrap();
    assert_eq!(
        before(&plan, blur),
        [image(
            img,
            (S::ALL_TRANSFER, A::TRANSFER_WRITE),
            (
                S::COMPUTE_SHADER,
                A::SHADER_STORAGE_READ | A::SHADER_STORAGE_WRITE
            ),
            L::TRANSFER_DST_OPTIMAL,
            L::GENERAL,
        )]
    );
    assert_eq!(
        plan.image_usage(img),
        vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::STORAGE
    );
}

#[test]
fn culling_drops_unread_passes_and_keeps_upstream_ones() {
    let mut g = GraphBuilder::new();
    let a = color(&mut g, "a");
    let b = color(&mut g, "b");
    let unused = color(&mut g, "unused");
    let sc = swapchain(&mut g);
    let first = g
        .pass("first")
        .write(a, Access::ColorAttachmentWrite)
        .finish();
    let debug = g
        .pass("debug view")
        .read(a, Access::Sampled(Stages::Fragment))
        .write(unused, Access::ColorAttachmentWrite)
        .finish();
    let second = g
        .pass("second")
        .read(a, Access::Sampled(Stages::Fragment))
        .write(b, Access::ColorAttachmentWrite)
        .finish();
    let last = g
        .pass("last")
        .read(b, Access::Sampled(Stages::Fragment))
        .write(sc, Access::ColorAttachmentWrite)
        .finish();
    let plan = g.compile().unwrap();

    assert_eq!(plan.culled(), [debug]);
    let order: Vec<_> = plan.steps().iter().map(|s| s.pass).collect();
    assert_eq!(order, [first, second, last]);
    assert_eq!(on(&plan, unused), []);
    assert_eq!(plan.image_usage(unused), vk::ImageUsageFlags::empty());
    let transients: Vec<_> = plan.transients().map(|(id, _)| id).collect();
    assert_eq!(transients, [a, b]);
    // With "debug view" gone, "second" is the first reader of `a` and transitions it.
    assert_eq!(
        before(&plan, second)[0],
        image(
            a,
            (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE),
            (S::FRAGMENT_SHADER, A::SHADER_READ),
            L::COLOR_ATTACHMENT_OPTIMAL,
            L::SHADER_READ_ONLY_OPTIMAL,
        )
    );

    // Without an output nothing survives.
    let mut g = GraphBuilder::new();
    let x = color(&mut g, "x");
    let p = g.pass("p").write(x, Access::ColorAttachmentWrite).finish();
    let plan = g.compile().unwrap();
    assert_eq!(plan.culled(), [p]);
    assert!(plan.steps().is_empty());
}

#[test]
fn side_effects_and_marked_outputs_are_kept() {
    let mut g = GraphBuilder::new();
    let x = color(&mut g, "x");
    let y = color(&mut g, "y");
    let overlay = g.pass("overlay").side_effect().finish();
    let writer = g
        .pass("writer")
        .write(x, Access::ColorAttachmentWrite)
        .finish();
    let dead = g
        .pass("dead")
        .write(y, Access::ColorAttachmentWrite)
        .finish();
    g.mark_output(x);
    let plan = g.compile().unwrap();
    assert_eq!(plan.culled(), [dead]);
    let order: Vec<_> = plan.steps().iter().map(|s| s.pass).collect();
    assert_eq!(order, [overlay, writer]);
}

#[test]
fn host_writes_need_no_barrier_but_a_later_device_write_does() {
    let mut g = GraphBuilder::new();
    let sc = swapchain(&mut g);
    let ring = g.imported_buffer("palette ring slot");
    let draw = g
        .pass("draw")
        .write(ring, Access::HostWrite)
        .read(ring, Access::StorageRead(Stages::Vertex))
        .write(sc, Access::ColorAttachmentWrite)
        .finish();
    let scribble = g
        .pass("scribble")
        .write(ring, Access::StorageWrite(Stages::Compute))
        .finish();
    g.mark_output(ring);
    let plan = g.compile().unwrap();
    assert!(before(&plan, draw).iter().all(|b| b.resource != ring));
    assert_eq!(plan.host_written(), [ring]);
    assert_eq!(
        before(&plan, scribble),
        [buffer(
            ring,
            (S::VERTEX_SHADER, A::NONE),
            (S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE),
        )]
    );
    assert_eq!(
        plan.buffer_usage(ring),
        vk::BufferUsageFlags::STORAGE_BUFFER
    );
}

#[test]
fn imported_image_in_its_needed_layout_needs_no_first_barrier() {
    let mut g = GraphBuilder::new();
    let sc = swapchain(&mut g);
    let lut = g.imported_image("lut", ImageKind::Color, L::SHADER_READ_ONLY_OPTIMAL, None);
    let draw = g
        .pass("draw")
        .read(lut, Access::Sampled(Stages::Fragment))
        .write(sc, Access::ColorAttachmentWrite)
        .finish();
    let plan = g.compile().unwrap();
    assert!(before(&plan, draw).iter().all(|b| b.resource != lut));
    assert_eq!(plan.image_usage(lut), vk::ImageUsageFlags::SAMPLED);
}

#[test]
fn display_lists_steps_and_barriers() {
    let (g, _, _, _, _) = draw_then_post();
    let text = g.compile().unwrap().to_string();
    assert!(text.contains("post (PassId(1))"), "{text}");
    assert!(
        text.contains("COLOR_ATTACHMENT_OPTIMAL -> SHADER_READ_ONLY_OPTIMAL"),
        "{text}"
    );
    assert!(text.contains("final"), "{text}");
}

#[test]
fn extents_resolve_against_the_render_size() {
    let target = vk::Extent2D {
        width: 1920,
        height: 1081,
    };
    assert_eq!(Extent::Target.resolve(target), target);
    assert_eq!(
        Extent::TargetScaled(2).resolve(target),
        vk::Extent2D {
            width: 960,
            height: 540
        }
    );
    assert_eq!(
        Extent::TargetScaled(4096).resolve(target),
        vk::Extent2D {
            width: 1,
            height: 1
        }
    );
    assert_eq!(
        Extent::Fixed(64, 32).resolve(target),
        vk::Extent2D {
            width: 64,
            height: 32
        }
    );
}

mod errors {
    use super::*;

    #[test]
    fn reading_a_transient_nothing_wrote_yet() {
        let mut g = GraphBuilder::new();
        let x = color(&mut g, "x");
        let sc = swapchain(&mut g);
        g.pass("reader")
            .read(x, Access::Sampled(Stages::Fragment))
            .write(sc, Access::ColorAttachmentWrite)
            .finish();
        g.pass("writer")
            .write(x, Access::ColorAttachmentWrite)
            .finish();
        assert_eq!(
            g.compile().unwrap_err(),
            GraphError::ReadBeforeWrite {
                pass: "reader",
                resource: "x"
            }
        );
    }

    #[test]
    fn a_pass_cannot_satisfy_its_own_read() {
        let mut g = GraphBuilder::new();
        let x = color(&mut g, "x");
        g.pass("rw")
            .read(x, Access::StorageRead(Stages::Compute))
            .write(x, Access::StorageWrite(Stages::Compute))
            .finish();
        g.mark_output(x);
        assert!(matches!(
            g.compile(),
            Err(GraphError::ReadBeforeWrite { pass: "rw", .. })
        ));
    }

    #[test]
    fn reading_an_undefined_import_before_writing_it() {
        let mut g = GraphBuilder::new();
        let sc = swapchain(&mut g);
        g.pass("blit")
            .read(sc, Access::TransferSrc)
            .side_effect()
            .finish();
        assert_eq!(
            g.compile().unwrap_err(),
            GraphError::ReadBeforeWrite {
                pass: "blit",
                resource: "swapchain"
            }
        );
    }

    #[test]
    fn ids_from_elsewhere() {
        let mut g = GraphBuilder::new();
        g.pass("p")
            .write(ResourceId(7), Access::ColorAttachmentWrite)
            .finish();
        assert_eq!(
            g.compile().unwrap_err(),
            GraphError::UnknownResource {
                pass: "p",
                resource: ResourceId(7)
            }
        );

        let mut other = GraphBuilder::new();
        let _ = color(&mut other, "a");
        let foreign = color(&mut other, "b");
        let mut g = GraphBuilder::new();
        g.mark_output(foreign);
        assert_eq!(
            g.compile().unwrap_err(),
            GraphError::UnknownResource {
                pass: "mark_output",
                resource: foreign
            }
        );
        let plan = GraphBuilder::new().compile().unwrap();
        assert_eq!(plan.resource_name(foreign), "");
        assert_eq!(plan.image_usage(foreign), vk::ImageUsageFlags::empty());
    }

    #[test]
    fn colour_output_and_sampled_in_one_pass() {
        let mut g = GraphBuilder::new();
        let x = color(&mut g, "x");
        g.pass("init")
            .write(x, Access::ColorAttachmentWrite)
            .finish();
        g.pass("feedback")
            .write(x, Access::ColorAttachmentWrite)
            .read(x, Access::Sampled(Stages::Fragment))
            .finish();
        assert_eq!(
            g.compile().unwrap_err(),
            GraphError::ConflictingLayouts {
                pass: "feedback",
                resource: "x",
                first: Access::ColorAttachmentWrite,
                second: Access::Sampled(Stages::Fragment),
            }
        );
    }

    #[test]
    fn accesses_that_do_not_fit_the_resource() {
        let mut g = GraphBuilder::new();
        let x = color(&mut g, "x");
        g.pass("p").read(x, Access::VertexBuffer).finish();
        assert!(matches!(
            g.compile(),
            Err(GraphError::WrongResourceType {
                access: Access::VertexBuffer,
                ..
            })
        ));

        let mut g = GraphBuilder::new();
        let b = g.imported_buffer("b");
        g.pass("p").write(b, Access::ColorAttachmentWrite).finish();
        assert!(matches!(
            g.compile(),
            Err(GraphError::WrongResourceType { resource: "b", .. })
        ));
    }

    #[test]
    fn read_declared_with_a_writing_access_and_the_reverse() {
        let mut g = GraphBuilder::new();
        let x = color(&mut g, "x");
        g.pass("p").read(x, Access::ColorAttachmentWrite).finish();
        assert!(matches!(
            g.compile(),
            Err(GraphError::MisdeclaredAccess {
                declared: "read",
                ..
            })
        ));

        let mut g = GraphBuilder::new();
        let x = color(&mut g, "x");
        g.pass("p")
            .write(x, Access::Sampled(Stages::Fragment))
            .finish();
        assert!(matches!(
            g.compile(),
            Err(GraphError::MisdeclaredAccess {
                declared: "write",
                ..
            })
        ));
    }

    #[test]
    fn present_only_as_a_final_access() {
        let mut g = GraphBuilder::new();
        let sc = swapchain(&mut g);
        g.pass("p").read(sc, Access::Present).finish();
        assert!(matches!(
            g.compile(),
            Err(GraphError::PresentInPass { pass: "p", .. })
        ));

        let mut g = GraphBuilder::new();
        g.imported_image(
            "t",
            ImageKind::Color,
            L::UNDEFINED,
            Some(Access::IndexBuffer),
        );
        assert_eq!(
            g.compile().unwrap_err(),
            GraphError::InvalidFinalAccess {
                resource: "t",
                access: Access::IndexBuffer
            }
        );
    }

    #[test]
    fn host_write_after_device_use() {
        let mut g = GraphBuilder::new();
        let ring = g.imported_buffer("ring");
        g.pass("gpu")
            .read(ring, Access::StorageRead(Stages::Compute))
            .side_effect()
            .finish();
        g.pass("cpu").write(ring, Access::HostWrite).finish();
        assert_eq!(
            g.compile().unwrap_err(),
            GraphError::HostWriteAfterDeviceUse {
                pass: "cpu",
                resource: "ring"
            }
        );
    }

    #[test]
    fn zero_extents() {
        for extent in [
            Extent::Fixed(0, 4),
            Extent::Fixed(4, 0),
            Extent::TargetScaled(0),
        ] {
            let mut g = GraphBuilder::new();
            g.transient_image(ImageDesc {
                name: "z",
                format: vk::Format::R8_UNORM,
                kind: ImageKind::Color,
                extent,
                samples: vk::SampleCountFlags::TYPE_1,
            });
            assert_eq!(
                g.compile().unwrap_err(),
                GraphError::ZeroExtent { resource: "z" }
            );
        }
    }
}

mod recording {
    use super::*;
    use ash::vk::Handle;

    fn bind(res: ResourceId) -> Bound {
        match res.0 {
            0 => Bound::Image {
                image: vk::Image::from_raw(0x10),
                aspect: vk::ImageAspectFlags::DEPTH,
            },
            _ => Bound::Buffer {
                buffer: vk::Buffer::from_raw(0x20),
                offset: 256,
                size: 1024,
            },
        }
    }

    #[test]
    fn fills_image_and_buffer_barriers_for_whole_resources() {
        let img = image(
            ResourceId(0),
            (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE),
            (S::FRAGMENT_SHADER, A::SHADER_READ),
            L::COLOR_ATTACHMENT_OPTIMAL,
            L::SHADER_READ_ONLY_OPTIMAL,
        );
        let buf = buffer(
            ResourceId(1),
            (S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE),
            (S::VERTEX_SHADER, A::SHADER_STORAGE_READ),
        );
        let mut scratch = BarrierScratch::new();
        scratch.fill(&[img, buf], bind).unwrap();

        let [i] = scratch.image_barriers() else {
            panic!("one image barrier")
        };
        assert_eq!(i.image.as_raw(), 0x10);
        assert_eq!(
            (
                i.src_stage_mask,
                i.src_access_mask,
                i.dst_stage_mask,
                i.dst_access_mask
            ),
            (img.src_stage, img.src_access, img.dst_stage, img.dst_access)
        );
        assert_eq!(
            (i.old_layout, i.new_layout),
            (L::COLOR_ATTACHMENT_OPTIMAL, L::SHADER_READ_ONLY_OPTIMAL)
        );
        assert_eq!(i.src_queue_family_index, vk::QUEUE_FAMILY_IGNORED);
        assert_eq!(i.dst_queue_family_index, vk::QUEUE_FAMILY_IGNORED);
        let r = i.subresource_range;
        assert_eq!(r.aspect_mask, vk::ImageAspectFlags::DEPTH);
        assert_eq!(
            (r.base_mip_level, r.level_count),
            (0, vk::REMAINING_MIP_LEVELS)
        );
        assert_eq!(
            (r.base_array_layer, r.layer_count),
            (0, vk::REMAINING_ARRAY_LAYERS)
        );

        let [b] = scratch.buffer_barriers() else {
            panic!("one buffer barrier")
        };
        assert_eq!(b.buffer.as_raw(), 0x20);
        assert_eq!((b.offset, b.size), (256, 1024));
        assert_eq!(
            (
                b.src_stage_mask,
                b.src_access_mask,
                b.dst_stage_mask,
                b.dst_access_mask
            ),
            (buf.src_stage, buf.src_access, buf.dst_stage, buf.dst_access)
        );
        assert_eq!(b.src_queue_family_index, vk::QUEUE_FAMILY_IGNORED);

        // Refilling reuses the arrays: no allocation once warm.
        let (ip, bp) = (
            scratch.image_barriers().as_ptr(),
            scratch.buffer_barriers().as_ptr(),
        );
        scratch.fill(&[img, buf], bind).unwrap();
        assert_eq!(scratch.image_barriers().as_ptr(), ip);
        assert_eq!(scratch.buffer_barriers().as_ptr(), bp);
    }

    #[test]
    fn mismatched_binding_is_an_error_and_leaves_nothing() {
        let as_buffer = image(
            ResourceId(1),
            (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE),
            (S::FRAGMENT_SHADER, A::SHADER_READ),
            L::COLOR_ATTACHMENT_OPTIMAL,
            L::SHADER_READ_ONLY_OPTIMAL,
        );
        let ok = image(
            ResourceId(0),
            (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE),
            (S::FRAGMENT_SHADER, A::SHADER_READ),
            L::COLOR_ATTACHMENT_OPTIMAL,
            L::SHADER_READ_ONLY_OPTIMAL,
        );
        let mut scratch = BarrierScratch::new();
        assert_eq!(
            scratch.fill(&[ok, as_buffer], bind).unwrap_err(),
            GraphError::BindingMismatch {
                resource: ResourceId(1)
            }
        );
        assert!(scratch.image_barriers().is_empty());
        assert!(scratch.buffer_barriers().is_empty());
    }
}

#[test]
fn a_host_read_buffer_ends_with_a_barrier_to_the_host_and_keeps_its_writer() {
    let mut g = GraphBuilder::new();
    let target = g.imported_image("target", ImageKind::Color, vk::ImageLayout::UNDEFINED, None);
    let readback = g.host_read_buffer("readback");
    g.pass("draw")
        .write(target, Access::ColorAttachmentWrite)
        .finish();
    let copy = g
        .pass("copy")
        .read(target, Access::TransferSrc)
        .write(readback, Access::TransferDst)
        .finish();
    let plan = g.compile().expect("plan");
    assert_eq!(plan.steps().last().map(|s| s.pass), Some(copy));
    let host: Vec<_> = plan
        .final_barriers()
        .iter()
        .filter(|b| b.resource == readback)
        .collect();
    assert_eq!(host.len(), 1);
    assert_eq!(host[0].src_stage, vk::PipelineStageFlags2::ALL_TRANSFER);
    assert_eq!(host[0].src_access, vk::AccessFlags2::TRANSFER_WRITE);
    assert_eq!(host[0].dst_stage, vk::PipelineStageFlags2::HOST);
    assert_eq!(host[0].dst_access, vk::AccessFlags2::HOST_READ);
    assert_eq!((host[0].old_layout, host[0].new_layout), (None, None));
}

#[test]
fn host_read_is_not_a_pass_access() {
    let mut g = GraphBuilder::new();
    let buf = g.imported_buffer("b");
    g.pass("p").read(buf, Access::HostRead).finish();
    g.mark_output(buf);
    assert!(matches!(g.compile(), Err(GraphError::PresentInPass { .. })));
}

/// The culling pattern: counters cleared by a transfer, counted by compute atomics, read by
/// compute to write indirect commands that draws read, and copied out for statistics.
#[test]
fn counters_cleared_counted_then_read() {
    let mut g = GraphBuilder::new();
    let sc = swapchain(&mut g);
    let counters = g.imported_buffer("counters");
    let commands = g.imported_buffer("commands");
    let stats = g.host_read_buffer("stats");
    g.pass("clear")
        .write(counters, Access::TransferDst)
        .finish();
    let count = g
        .pass("count")
        .write(counters, Access::StorageReadWrite(Stages::Compute))
        .finish();
    let build = g
        .pass("build")
        .read(counters, Access::StorageRead(Stages::Compute))
        .write(commands, Access::StorageWrite(Stages::Compute))
        .finish();
    let draw = g
        .pass("draw")
        .read(commands, Access::IndirectRead)
        .write(sc, Access::ColorAttachmentWrite)
        .finish();
    let copy = g
        .pass("copy")
        .read(counters, Access::TransferSrc)
        .write(stats, Access::TransferDst)
        .finish();
    let plan = g.compile().unwrap();
    let atomics = (
        S::COMPUTE_SHADER,
        A::SHADER_STORAGE_READ | A::SHADER_STORAGE_WRITE,
    );
    // The atomics read what the clear wrote and write themselves.
    assert_eq!(
        before(&plan, count),
        [buffer(
            counters,
            (S::ALL_TRANSFER, A::TRANSFER_WRITE),
            atomics
        )]
    );
    assert_eq!(
        before(&plan, build),
        [buffer(
            counters,
            (S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE),
            (S::COMPUTE_SHADER, A::SHADER_STORAGE_READ)
        )]
    );
    assert_eq!(
        on(&plan, commands),
        [buffer(
            commands,
            (S::COMPUTE_SHADER, A::SHADER_STORAGE_WRITE),
            (S::DRAW_INDIRECT, A::INDIRECT_COMMAND_READ)
        )]
    );
    assert_eq!(before(&plan, draw)[0].resource, commands);
    // The copy reads the atomics' writes: not yet visible to transfers.
    assert_eq!(
        before(&plan, copy)
            .iter()
            .filter(|b| b.resource == counters)
            .count(),
        1
    );
    assert!(plan.buffer_usage(counters).contains(
        vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST
            | vk::BufferUsageFlags::TRANSFER_SRC
    ));
}

/// State a feature keeps on the device (a persistent buffer): its first use in a frame waits
/// for the previous frame's last write, where an ordinary import's first use waits for
/// nothing; within the frame, uses are ordered as for any buffer.
#[test]
fn a_persistent_buffer_waits_for_the_last_frames_write() {
    let mut g = GraphBuilder::new();
    let state = g.persistent_buffer("clocks");
    let fresh = g.imported_buffer("commands");
    let out = g.host_read_buffer("near list");
    let rw = Access::StorageReadWrite(Stages::Compute);
    let apply = g
        .pass("apply")
        .read(fresh, Access::StorageRead(Stages::Compute))
        .write(state, rw)
        .finish();
    let advance = g.pass("advance").write(state, rw).write(out, rw).finish();
    let plan = g.compile().unwrap();
    let compute = S::COMPUTE_SHADER;
    let rw_flags = A::SHADER_STORAGE_READ | A::SHADER_STORAGE_WRITE;
    // The previous frame's advance wrote the clocks: apply waits for it; the commands
    // (written by the host) need nothing.
    assert_eq!(
        before(&plan, apply),
        [buffer(
            state,
            (compute, A::SHADER_STORAGE_WRITE),
            (compute, rw_flags)
        )]
    );
    // Within the frame, as ever: advance waits for apply's write.
    assert!(
        before(&plan, advance).contains(&buffer(
            state,
            (compute, A::SHADER_STORAGE_WRITE),
            (compute, rw_flags)
        )),
        "{:?}",
        before(&plan, advance)
    );
    // An ordinary import used the same way waits for nothing at its first use.
    let mut g = GraphBuilder::new();
    let plain = g.imported_buffer("clocks");
    let out = g.host_read_buffer("near list");
    let first = g.pass("apply").write(plain, rw).write(out, rw).finish();
    let plan = g.compile().unwrap();
    assert!(
        before(&plan, first).iter().all(|b| b.resource != plain),
        "{:?}",
        before(&plan, first)
    );
}
