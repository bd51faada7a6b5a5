//! throng inside a program of one's own: the program opens its own winit window and event loop,
//! makes throng's renderer on it, and drives a crowd of the built-in character from its own
//! simulation. Its characters gather around a point that wanders the square: each keeps its own
//! distance from it, runs to it from far, walks when near, stands once there, and keeps apart
//! from its neighbours; each plays idle, walk or run by its speed, at the rate that keeps its
//! feet from sliding. Characters come and go while it runs: each stays 2 to 14 seconds, and
//! newcomers run in from the edge as the crowd's size swells and ebbs between 120 and 240.
//! Only the library's public API is used.
//!
//! ```sh
//! cargo run --release --example steering_crowd                    # a window; Esc quits
//! cargo run --release --example steering_crowd -- --frames 600    # a window, 600 frames
//! cargo run --release --example steering_crowd -- --headless 300 steering.png
//! ```
//!
//! Once, before the first frame ([`Scene::new`]):
//!
//! 1. load the model, add it to the [`Crowd`] and to the renderer ([`Renderer::add_model`]
//!    with [`model_basis`]), and give the crowd some looks ([`model_looks`],
//!    [`Crowd::add_look`], then [`Renderer::upload_looks`]) to dress new characters in;
//! 2. spawn the first characters ([`Crowd::spawn`], [`Crowd::play`], [`Crowd::set_look`]): as
//!    many as the crowd will ever hold, so that later spawns reuse their room.
//!
//! Then every frame, in this order ([`Scene::step`], then the renderer):
//!
//! 1. the program's own simulation moves its characters;
//! 2. the crowd hears of it: [`Crowd::despawn`] for those whose time is up (the last
//!    character takes the freed index, so the program moves its own record the same way),
//!    [`Crowd::spawn`] for newcomers, [`Crowd::set_world`] for everyone's place and heading,
//!    [`Crowd::play`] with a cross-fade when a speed crosses into another gait, and the
//!    playback rate through [`Crowd::instance_mut`];
//! 3. [`Crowd::update`]: every character's clock and cross-fade advance;
//! 4. the renderer draws it: [`Renderer::render`] between [`Swapchain::acquire`] and
//!    [`Swapchain::present`] in a window, [`HeadlessRenderer::render`] without one. The
//!    renderer writes the crowd's palettes and records into its ring itself.
//!
//! After warm-up, none of this allocates: the crowd and the program's own list never hold more
//! characters than at the start (`tests/example_steering_crowd.rs` counts).

use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use ash::vk;
use glam::{Quat, Vec2, Vec3, Vec3A, Vec4};
use raw_window_handle::{HasDisplayHandle, HasWindowHandle};
use throng::anim::{Mat3x4, SkinnedModel};
use throng::crowd::{Crowd, LookId, ModelId};
use throng::gpu::{
    ContextOptions, FrameInputs, GpuContext, GpuError, HeadlessRenderer, PresentMode, Presentation,
    Renderer, Swapchain, ViewMode, WindowHandles, validation_wanted,
};
use throng::scene::{Camera, Light, model_basis, model_looks, standing_basis, stride_speed};
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

/// How a character moves, chosen from its speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gait {
    Idle,
    Walk,
    Run,
}

impl Gait {
    /// The gait for `speed` (m/s) coming from `self`: the thresholds up lie above those down,
    /// so a speed hovering near one does not flip the clip every frame.
    fn next(self, speed: f32) -> Gait {
        match self {
            Gait::Idle if speed > 0.5 => Gait::Walk,
            Gait::Walk if speed < 0.15 => Gait::Idle,
            Gait::Walk if speed > 2.8 => Gait::Run,
            Gait::Run if speed < 2.0 => Gait::Walk,
            g => g,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One character as the program's own simulation knows it. Its index in [`Scene::agents`] is
/// its index in the crowd.
struct Agent {
    at: Vec2,
    velocity: Vec2,
    heading: f32,
    gait: Gait,
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
    /// Characters idle, walking and running at the last frame.
    pub gaits: [usize; 3],
}

/// The program's world: its characters, the crowd that draws them, and its clock.
pub struct Scene {
    /// The crowd the renderer draws (index `i` is `agents[i]`).
    pub crowd: Crowd,
    model: ModelId,
    /// The model stood on the ground (`standing_basis`), under every character's place.
    standing: Mat3x4,
    /// The clip of each gait, and its stride speed (m/s at playback rate 1).
    clips: [usize; 3],
    strides: [f32; 3],
    looks: Vec<LookId>,
    agents: Vec<Agent>,
    rng: Rng,
    time: f32,
    /// What happened so far.
    pub tally: Tally,
}

impl Scene {
    /// Loads the built-in character into a new crowd and into `renderer`, and spawns the first
    /// [`MOST`] characters.
    pub fn new(renderer: &mut Renderer) -> Result<Self, Box<dyn Error>> {
        let model: Arc<SkinnedModel> = Arc::new(throng::asset::load_model(None)?);
        renderer.add_model(&model, &model_basis(&model))?;
        let mut crowd = Crowd::new(0)?;
        let id = crowd.add_model(model.clone());
        let clip = |name: &str| model.resolve_clip(name);
        let clips = [clip("idle")?, clip("walk")?, clip("run")?];
        let strides = clips.map(|c| stride_speed(&model, c));
        let looks = model_looks(&model, 7, LOOKS)
            .into_iter()
            .map(|look| crowd.add_look(look))
            .collect::<Result<Vec<_>, _>>()?;
        // Before the first frame, so that frame does not wait for the upload.
        renderer.upload_looks(&crowd)?;
        let mut scene = Scene {
            crowd,
            model: id,
            standing: standing_basis(&model),
            clips,
            strides,
            looks,
            agents: Vec::with_capacity(MOST),
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

    /// A newcomer at `at` moving at `velocity`, in a look of its own, for 2 to 14 seconds.
    fn spawn(&mut self, at: Vec2, velocity: Vec2) -> Result<(), Box<dyn Error>> {
        let look = self.looks[(self.rng.unit() * LOOKS as f32) as usize % LOOKS];
        let heading = velocity.x.atan2(velocity.y);
        let gait = Gait::Idle.next(velocity.length());
        let i = self
            .crowd
            .spawn(self.model, place(&self.standing, at, heading))?;
        self.crowd.set_look(i, look)?;
        self.crowd.play(i, self.clips[gait.index()], 0.0)?;
        // Not all in step: each starts somewhere in its clip.
        let inst = self.crowd.instance_mut(i);
        let duration = inst.model().clips()[inst.clip()].duration();
        inst.set_time(self.rng.unit() * duration);
        self.agents.push(Agent {
            at,
            velocity,
            heading,
            gait,
            comfort: self.rng.range(1.5, 7.0),
            life: self.rng.range(2.0, 14.0),
        });
        Ok(())
    }

    /// One frame of `dt` seconds: the simulation, then what the crowd hears of it, then the
    /// crowd's clocks (see the module documentation).
    pub fn step(&mut self, dt: f32) -> Result<(), Box<dyn Error>> {
        self.time += dt;
        self.steer(dt);

        // Those whose time is up leave; the crowd moves its last character into the gap, and
        // so does the program's list.
        let mut i = 0;
        while i < self.agents.len() {
            self.agents[i].life -= dt;
            if self.agents[i].life <= 0.0 && self.agents.len() > FEWEST {
                self.crowd.despawn(i)?;
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

        // Everyone's place, gait and rate.
        let mut gaits = [0; 3];
        for (i, a) in self.agents.iter_mut().enumerate() {
            let speed = a.velocity.length();
            if speed > 0.1 {
                a.heading = a.velocity.x.atan2(a.velocity.y);
            }
            self.crowd
                .set_world(i, place(&self.standing, a.at, a.heading));
            let gait = a.gait.next(speed);
            if gait != a.gait {
                self.crowd.play(i, self.clips[gait.index()], 0.25)?;
                a.gait = gait;
                self.tally.gait_changes += 1;
            }
            // The clip's own pace at this speed (idling at its own).
            let stride = self.strides[gait.index()];
            let rate = if gait == Gait::Idle || stride <= 0.0 {
                1.0
            } else {
                (speed / stride).clamp(0.5, 1.8)
            };
            self.crowd.instance_mut(i).set_speed(rate);
            gaits[gait.index()] += 1;
        }
        self.tally.gaits = gaits;
        self.crowd.update(dt);
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

/// The crowd's transform for a character at `at` (on the ground) facing `heading` (radians
/// from +Z towards +X), the model stood on the ground by `standing`.
fn place(standing: &Mat3x4, at: Vec2, heading: f32) -> Mat3x4 {
    let turn = Mat3x4::from_trs(
        Vec3A::new(at.x, 0.0, at.y),
        Quat::from_rotation_y(heading),
        Vec3A::ONE,
    );
    turn.mul(standing)
}

/// Renders `frames` frames (at least one) headless with `renderer` and writes the last to
/// `png`; returns what the characters did.
pub fn run_headless(
    renderer: &mut HeadlessRenderer,
    frames: u32,
    png: &Path,
) -> Result<Tally, Box<dyn Error>> {
    let mut scene = Scene::new(renderer.renderer())?;
    let extent = renderer.extent();
    let inputs = scene.inputs(extent.width as f32 / extent.height.max(1) as f32);
    for frame in 1..=frames.max(1) {
        scene.step(DT)?;
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
    let args: Vec<String> = std::env::args().skip(1).collect();
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
            let tally = run_headless(&mut renderer, frames, &png)?;
            println!("{tally:?}; wrote {}", png.display());
        }
        Some("--frames") | None => {
            let frames = number(args.get(1))?;
            let event_loop = EventLoop::new()?;
            let mut app = App {
                options,
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
        let scene = Scene::new(&mut renderer)?;
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
            .step(dt)
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
