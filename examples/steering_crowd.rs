//! throng inside a program of one's own: the program opens its own winit window and event loop,
//! makes throng's renderer on it, and drives a crowd of the built-in character from its own
//! simulation. Its characters gather around a point that wanders the square: each keeps its own
//! distance from it, runs to it from far, walks when near, stands once there, and keeps apart
//! from its neighbours. The program says only where each one is and how it moves; throng's
//! locomotion ([`Locomotion`], the same that plays trajectory files) picks stand, walk or run
//! by its speed with cross-fades, the rate that keeps its feet from sliding, and a heading
//! turning at a bounded rate. Characters come and go while it runs: each stays 2 to 14
//! seconds, and newcomers run in from the edge as the crowd's size swells and ebbs between 120
//! and 240. The crowd's state lives on the GPU (`--crowd-state cpu` keeps it on the CPU). Only
//! the library's public API is used.
//!
//! ```sh
//! cargo run --release --example steering_crowd                    # a window; Esc quits
//! cargo run --release --example steering_crowd -- --frames 600    # a window, 600 frames
//! cargo run --release --example steering_crowd -- --headless 300 steering.png
//! cargo run --release --example steering_crowd -- --crowd-state cpu --headless 300 cpu.png
//! ```
//!
//! Once, before the first frame ([`Scene::new`]):
//!
//! 1. load the model, add it to the [`Crowd`] and to the renderer ([`Renderer::add_model`]
//!    with [`model_basis`]), find its clips for each gait ([`PlayModel::of`]), and give the
//!    crowd some looks ([`model_looks`], [`Crowd::add_look`], then
//!    [`Renderer::upload_looks`]) to dress new characters in;
//! 2. spawn the first characters through the locomotion ([`Locomotion::enter`]): as many as
//!    the crowd will ever hold, so that later spawns reuse their room;
//! 3. room in the renderer's palette ring for the most it will draw
//!    ([`Renderer::reserve_palettes`]), so that no later frame grows it;
//! 4. move the crowd's state to the GPU: bake its clips ([`Crowd::bake`],
//!    [`Renderer::upload_baked`]) and hand it over ([`CrowdMotion::still`],
//!    [`Renderer::set_crowd_state`]).
//!
//! Then every frame, in this order ([`Scene::step`], then the renderer):
//!
//! 1. the program's own simulation moves its characters;
//! 2. the locomotion hears of it: [`Locomotion::leave`] for those whose time is up (the last
//!    character takes the freed index, in the crowd and in the locomotion's list, so the
//!    program moves its own record the same way), [`Locomotion::enter`] for newcomers,
//!    [`Locomotion::place`] with everyone's place and velocity, then [`Locomotion::step`],
//!    which spawns, despawns, places, turns, re-clips and paces them through the crowd's API
//!    (a crowd whose state is on the GPU hands every change on to it);
//! 3. [`Crowd::update`]: every character's clock and cross-fade advance (the locomotion reads
//!    the clip times), and with the state on the GPU [`Renderer::step_crowd_state`] with
//!    [`DeviceStep::held`]: the GPU advances its copy by the same step;
//! 4. the renderer draws it: [`Renderer::render`] between [`Swapchain::acquire`] and
//!    [`Swapchain::present`] in a window, [`HeadlessRenderer::render`] without one. The
//!    renderer writes the records (on the GPU) and the near characters' exact palettes.
//!
//! After warm-up, none of this allocates: the crowd, the locomotion and the program's own list
//! never hold more characters than at the start (`tests/example_steering_crowd.rs` counts, on
//! both paths).

use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use ash::vk;
use glam::{DVec2, Vec2, Vec3, Vec4};
use raw_window_handle::{HasDisplayHandle, HasWindowHandle};
use throng::anim::SkinnedModel;
use throng::crowd::{AnimationMode, BakeSettings, Crowd};
use throng::gpu::{
    ContextOptions, FrameInputs, GpuContext, GpuError, HeadlessRenderer, PresentMode, Presentation,
    Renderer, Swapchain, ViewMode, WindowHandles, validation_wanted,
};
use throng::motion::{Arrival, CrowdMotion, DeviceStep, Locomotion, PlayModel, PlaybackSettings};
use throng::scene::{Camera, Light, model_basis, model_looks};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

/// The most characters at once (the crowd starts this large).
pub const MOST: usize = 240;
/// The fewest the crowd ebbs to.
pub const FEWEST: usize = 120;
/// Half the side of the square they live in, metres (the built-in character is 1.85 m tall).
const HALF_SIDE: f32 = 14.0;
/// Looks to dress characters in.
const LOOKS: usize = 32;
/// A fixed step for headless frames (the same frames give the same picture).
pub const DT: f32 = 1.0 / 60.0;
/// The longest step a window frame takes (after a stall the crowd jumps no further).
const MAX_DT: f32 = 0.1;

/// One character as the program's own simulation knows it. Its index in [`Scene::agents`] is
/// its index in the crowd.
struct Agent {
    at: Vec2,
    velocity: Vec2,
    /// How far from the goal it likes to stand, metres.
    comfort: f32,
    /// Seconds left to stay.
    life: f32,
}

/// A tiny seeded generator (xorshift64*): the program's own, not the library's.
struct Rng(u64);

impl Rng {
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// What the characters did so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Characters spawned after the first frame.
    pub spawned: usize,
    /// Characters despawned.
    pub despawned: usize,
    /// Clip changes made because a speed crossed into another gait.
    pub gait_changes: usize,
    /// The fewest characters at once, after the start.
    pub fewest: usize,
    /// Characters standing, walking and running at the last frame.
    pub gaits: [usize; 3],
}

/// Where the crowd's state lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// A compute pass advances the clocks again and writes every record; the CPU evaluates only
    /// the near characters' exact palettes.
    Gpu,
    /// The CPU writes every record and palette.
    Cpu,
}

/// The program's world: its characters, the crowd that draws them, and its clock.
pub struct Scene {
    /// The crowd the renderer draws (index `i` is `agents[i]`).
    pub crowd: Crowd,
    /// Each character's clip, rate and heading from where the simulation puts it.
    motion: Locomotion,
    agents: Vec<Agent>,
    next_id: u64,
    rng: Rng,
    time: f32,
    /// What happened so far.
    pub tally: Tally,
}

impl Scene {
    /// Loads the built-in character into a new crowd and into `renderer`, spawns the first
    /// [`MOST`] characters and puts the crowd's state where `state` says.
    pub fn new(renderer: &mut Renderer, state: State) -> Result<Self, Box<dyn Error>> {
        let model: Arc<SkinnedModel> = Arc::new(throng::asset::load_model(None)?);
        renderer.add_model(&model, &model_basis(&model))?;
        let mut crowd = Crowd::new(0)?;
        let id = crowd.add_model(model.clone());
        let mut character = PlayModel::of(id, &model)?;
        character.looks = model_looks(&model, 7, LOOKS)
            .into_iter()
            .map(|look| crowd.add_look(look))
            .collect::<Result<Vec<_>, _>>()?;
        // Before the first frame, so that frame does not wait for the upload.
        renderer.upload_looks(&crowd)?;
        let motion = Locomotion::new(vec![character], PlaybackSettings::default(), 0, MOST);
        let mut scene = Scene {
            crowd,
            motion,
            agents: Vec::with_capacity(MOST),
            next_id: 0,
            rng: Rng(0x9E37_79B9_7F4A_7C15),
            time: 0.0,
            tally: Tally::default(),
        };
        for _ in 0..MOST {
            let at = Vec2::new(
                scene.rng.range(-HALF_SIDE, HALF_SIDE),
                scene.rng.range(-HALF_SIDE, HALF_SIDE),
            );
            scene.spawn(at, Vec2::ZERO)?;
        }
        scene.tally = Tally {
            fewest: MOST,
            ..Tally::default()
        };
        // Room for every character's exact palette in every frame in flight, once: no frame
        // grows the ring later (near characters get exact palettes, the rest baked frames).
        renderer.reserve_palettes(MOST, MOST * model.joint_count())?;
        if state == State::Gpu {
            // The GPU's copy reads baked frames for all but the near characters.
            scene.crowd.bake(BakeSettings::default());
            scene.crowd.set_animation(AnimationMode::Auto);
            renderer.upload_baked(&scene.crowd)?;
            let tables = CrowdMotion::still(MOST).on_device(&scene.crowd)?;
            renderer.set_crowd_state(&mut scene.crowd, Some(&tables))?;
        }
        Ok(scene)
    }

    /// The camera over the middle of the square, where the goal wanders, for frames of
    /// `aspect` (width over height).
    pub fn inputs(&self, aspect: f32) -> FrameInputs {
        let half = 0.6 * HALF_SIDE;
        let (lo, hi) = (Vec3::new(-half, 0.0, -half), Vec3::new(half, 2.0, half));
        let camera = Camera::framing(lo, hi, aspect);
        // Ground to the horizon.
        let ground = Vec4::new(0.0, 0.0, HALF_SIDE * 10.0, 0.0);
        FrameInputs::new(
            &camera,
            aspect,
            &Light::default_sun(),
            ground,
            1.0,
            ViewMode::Final,
        )
    }

    /// Where the characters steer towards at the scene's time: a point wandering the square.
    fn goal(&self) -> Vec2 {
        let t = self.time;
        Vec2::new(
            0.45 * HALF_SIDE * (0.23 * t).sin(),
            0.45 * HALF_SIDE * (0.37 * t + 1.0).sin(),
        )
    }

    /// How many characters the crowd wants at the scene's time: from [`MOST`] to [`FEWEST`]
    /// and back every 30 seconds or so.
    fn wanted(&self) -> usize {
        let swell = 0.5 + 0.5 * (0.2 * self.time).cos();
        FEWEST + ((MOST - FEWEST) as f32 * swell) as usize
    }

    /// A newcomer at `at` moving at `velocity`, for 2 to 14 seconds: the locomotion spawns it
    /// in the gait of its speed, facing where it goes, in a look and at a point of its clip
    /// drawn from its id.
    fn spawn(&mut self, at: Vec2, velocity: Vec2) -> Result<(), Box<dyn Error>> {
        self.next_id += 1;
        self.motion.enter(
            &mut self.crowd,
            Arrival {
                key: self.next_id,
                id: self.next_id,
                model: 0,
                scale: 1.0,
                position: at.as_dvec2(),
                velocity: velocity.as_dvec2(),
                facing: DVec2::ZERO,
            },
        )?;
        self.agents.push(Agent {
            at,
            velocity,
            comfort: self.rng.range(1.5, 7.0),
            life: self.rng.range(2.0, 14.0),
        });
        Ok(())
    }

    /// One frame of `dt` seconds: the simulation, then what the crowd hears of it, then the
    /// crowd's clocks, and with the state on the GPU `renderer`'s step (see the module
    /// documentation).
    pub fn step(&mut self, dt: f32, renderer: &mut Renderer) -> Result<(), Box<dyn Error>> {
        self.time += dt;
        self.steer(dt);

        // Those whose time is up leave; the crowd moves its last character into the gap, and
        // so do the locomotion's list and the program's.
        let mut i = 0;
        while i < self.agents.len() {
            self.agents[i].life -= dt;
            if self.agents[i].life <= 0.0 && self.agents.len() > FEWEST {
                self.motion.leave(&mut self.crowd, i)?;
                self.agents.swap_remove(i);
                self.tally.despawned += 1;
            } else {
                i += 1;
            }
        }
        // Newcomers walk in from the edge, a few a frame, while the crowd is short of what it
        // wants.
        for _ in 0..3 {
            if self.agents.len() >= self.wanted().min(MOST) {
                break;
            }
            let angle = self.rng.range(0.0, std::f32::consts::TAU);
            let rim = Vec2::new(angle.cos(), angle.sin()) * HALF_SIDE;
            let inwards = -rim.normalize() * 1.3;
            self.spawn(rim, inwards)?;
            self.tally.spawned += 1;
        }
        self.tally.fewest = self.tally.fewest.min(self.agents.len());

        // Everyone's place and velocity; the locomotion turns them into clips, rates and
        // headings.
        for (k, a) in self.agents.iter().enumerate() {
            self.motion.place(k, a.at.as_dvec2(), a.velocity.as_dvec2());
        }
        self.tally.gait_changes += self.motion.step(&mut self.crowd, dt)?;
        let mut gaits = [0; 3];
        for k in 0..self.motion.len() {
            if let Some(m) = self.motion.member(k) {
                gaits[m.gait.index()] += 1;
            }
        }
        self.tally.gaits = gaits;
        // The clocks on the CPU too: the locomotion reads each clip's time for its rate.
        self.crowd.update(dt);
        if renderer.has_crowd_state() {
            renderer.step_crowd_state(DeviceStep::held(self.crowd.len(), dt));
        }
        Ok(())
    }

    /// The simulation: each character heads for the goal until it is as near as it likes,
    /// faster the farther it is (running from far, walking near, standing once there), keeps
    /// apart from its neighbours, and stays in the square.
    fn steer(&mut self, dt: f32) {
        let goal = self.goal();
        let count = self.agents.len();
        for i in 0..count {
            let a = &self.agents[i];
            let to = goal - a.at;
            let distance = to.length().max(1e-3);
            let along = to / distance;
            let pace = ((distance - a.comfort) * 0.8).clamp(0.0, 4.0);
            let mut push = Vec2::ZERO;
            for (j, b) in self.agents.iter().enumerate() {
                let away = a.at - b.at;
                let d2 = away.length_squared();
                if j != i && d2 < 1.0 && d2 > 1e-6 {
                    push += away / d2;
                }
            }
            let wanted = along * pace;
            // Neighbours nudge, never shove: a standing crowd settles instead of milling.
            let accel = (wanted - a.velocity) * 2.0 + push.clamp_length_max(2.0) * 0.5;
            let a = &mut self.agents[i];
            a.velocity += accel * dt;
            a.velocity = a.velocity.clamp_length_max(4.5);
            a.at += a.velocity * dt;
            a.at = a.at.clamp(Vec2::splat(-HALF_SIDE), Vec2::splat(HALF_SIDE));
        }
    }
}

/// Renders `frames` frames (at least one) headless with `renderer`, the crowd's state where
/// `state` says, and writes the last to `png`; returns what the characters did.
pub fn run_headless(
    renderer: &mut HeadlessRenderer,
    state: State,
    frames: u32,
    png: &Path,
) -> Result<Tally, Box<dyn Error>> {
    let mut scene = Scene::new(renderer.renderer(), state)?;
    let extent = renderer.extent();
    let inputs = scene.inputs(extent.width as f32 / extent.height.max(1) as f32);
    for frame in 1..=frames.max(1) {
        scene.step(DT, renderer.renderer())?;
        if frame == frames.max(1) {
            renderer.render_for_readback(&mut scene.crowd, &inputs)?;
        } else {
            renderer.render(&mut scene.crowd, &inputs)?;
        }
    }
    renderer.pixels()?.save_png(png)?;
    Ok(scene.tally)
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut state = State::Gpu;
    if let Some(at) = args.iter().position(|a| a == "--crowd-state") {
        state = match args.get(at + 1).map(String::as_str) {
            Some("gpu") => State::Gpu,
            Some("cpu") => State::Cpu,
            other => return Err(format!("--crowd-state gpu|cpu, not {other:?}").into()),
        };
        args.drain(at..at + 2);
    }
    let number = |s: Option<&String>| -> Result<Option<u32>, Box<dyn Error>> {
        s.map(|n| {
            n.parse()
                .map_err(|_| format!("'{n}' is not a whole number of frames").into())
        })
        .transpose()
    };
    let options = ContextOptions {
        device: None,
        validation: validation_wanted(),
    };
    match args.first().map(String::as_str) {
        Some("--headless") => {
            let frames = number(args.get(1))?.unwrap_or(300);
            let png = args
                .get(2)
                .map_or_else(|| PathBuf::from("steering-crowd.png"), PathBuf::from);
            let mut renderer = HeadlessRenderer::new(&options, 960, 540)?;
            let tally = run_headless(&mut renderer, state, frames, &png)?;
            println!("{tally:?}; wrote {}", png.display());
        }
        Some("--frames") | None => {
            let frames = number(args.get(1))?;
            let event_loop = EventLoop::new()?;
            let mut app = App {
                options,
                state,
                frames,
                live: None,
                error: None,
                last: Instant::now(),
                drawn: 0,
            };
            event_loop.run_app(&mut app)?;
            if let Some(e) = app.error {
                return Err(e);
            }
        }
        Some(other) => return Err(format!("unknown argument '{other}'").into()),
    }
    Ok(())
}

/// The window, the renderer on it and the scene. Fields drop in order: the renderer and the
/// swapchain before the context, the context (with its surface) before the window.
struct Live {
    scene: Scene,
    renderer: Renderer,
    swapchain: Swapchain,
    _ctx: Arc<GpuContext>,
    window: Arc<Window>,
    resize: bool,
}

/// The program's event loop.
struct App {
    options: ContextOptions,
    state: State,
    /// Quit after this many frames (`None`: on Esc or closing the window).
    frames: Option<u32>,
    live: Option<Live>,
    error: Option<Box<dyn Error>>,
    last: Instant,
    drawn: u32,
}

impl App {
    /// The window, a device context on it, its swapchain and a renderer for it, and the scene.
    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Box<dyn Error>> {
        let attributes = Window::default_attributes()
            .with_title("throng: a steering crowd")
            .with_inner_size(winit::dpi::PhysicalSize::new(1280, 720));
        let window = Arc::new(event_loop.create_window(attributes)?);
        let handles = WindowHandles {
            display: window.display_handle()?.as_raw(),
            window: window.window_handle()?.as_raw(),
        };
        // SAFETY: `Live` drops the context before the window its surface was made on.
        let ctx = unsafe { GpuContext::new(&self.options, Some(handles)) }?;
        let size = window.inner_size();
        let wanted = vk::Extent2D {
            width: size.width.max(1),
            height: size.height.max(1),
        };
        let swapchain = Swapchain::new(
            &ctx,
            wanted,
            PresentMode::Fifo,
            throng::crowd::DEFAULT_SLOTS,
        )?;
        let mut renderer = Renderer::new(
            &ctx,
            swapchain.format,
            swapchain.extent,
            Presentation::Swapchain,
        )?;
        let scene = Scene::new(&mut renderer, self.state)?;
        println!(
            "{} characters on {}; Esc quits",
            scene.crowd.len(),
            ctx.device_name()
        );
        window.request_redraw();
        self.live = Some(Live {
            scene,
            renderer,
            swapchain,
            _ctx: ctx,
            window,
            resize: false,
        });
        self.last = Instant::now();
        Ok(())
    }

    /// One frame: the scene's step, then the renderer between acquiring a swapchain image and
    /// presenting it.
    fn frame(&mut self) -> Result<(), GpuError> {
        let Some(live) = self.live.as_mut() else {
            return Ok(());
        };
        let size = live.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return Ok(()); // minimized
        }
        if live.resize {
            live.renderer.wait_idle()?;
            live.swapchain.recreate(vk::Extent2D {
                width: size.width,
                height: size.height,
            })?;
            live.renderer.resize(live.swapchain.extent)?;
            live.resize = false;
        }
        let Some(acquired) = live.swapchain.acquire()? else {
            live.resize = true;
            return Ok(());
        };
        let now = Instant::now();
        let dt = (now - self.last).as_secs_f32().min(MAX_DT);
        self.last = now;
        live.scene
            .step(dt, &mut live.renderer)
            .map_err(|e| GpuError::Other(e.to_string()))?;
        let extent = live.swapchain.extent;
        let inputs = live
            .scene
            .inputs(extent.width as f32 / extent.height.max(1) as f32);
        live.renderer.render(
            &mut live.scene.crowd,
            &inputs,
            acquired.target,
            acquired.sync,
            None,
        )?;
        if !live.swapchain.present(&acquired)? {
            live.resize = true;
        }
        self.drawn += 1;
        Ok(())
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.live.is_none()
            && let Err(e) = self.open(event_loop)
        {
            self.error = Some(e);
            event_loop.exit();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested
            | WindowEvent::KeyboardInput {
                event:
                    KeyEvent {
                        logical_key: Key::Named(NamedKey::Escape),
                        state: ElementState::Pressed,
                        ..
                    },
                ..
            } => event_loop.exit(),
            WindowEvent::Resized(_) => {
                if let Some(live) = self.live.as_mut() {
                    live.resize = true;
                }
            }
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.frame() {
                    self.error = Some(e.into());
                    event_loop.exit();
                    return;
                }
                if self.frames.is_some_and(|f| self.drawn >= f) {
                    event_loop.exit();
                } else if let Some(live) = &self.live {
                    live.window.request_redraw();
                }
            }
            _ => {}
        }
    }
}
