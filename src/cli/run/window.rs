//! `run` in a window: winit + a Vulkan swapchain. Esc or closing the window quits; drag
//! with the left button to orbit, the right button to pan, the wheel to zoom. F switches to
//! fly mode and back: W/A/S/D move, Q/E go down and up, Shift goes faster, and dragging
//! looks around from where the eye is. The heads-up display (H) lists the live controls
//! (`controls.rs`): the crowd doubled or halved, passes switched, the camera, a pause and a
//! screenshot. Resizes, minimizing and out-of-date swapchains are handled by re-creating the
//! swapchain.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ash::vk;
use raw_window_handle::{HasDisplayHandle, HasWindowHandle};
use throng::gpu::{
    FrameCapture, GpuContext, GpuError, PassTime, Presentation, RenderSettings, Renderer,
    Swapchain, WindowHandles, WindowReadback,
};
use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::{ElementState, KeyEvent, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, KeyCode, NamedKey, PhysicalKey};
use winit::window::{Window, WindowId};

use super::RunArgs;
use super::capture_report::{report_capture, report_missed_capture};
use super::controls::{Action, action_of, next_msaa, resized, switch};
use super::fly::{FLY_SPEED, FlyKeys};
use crate::cli::crowd_args::CameraArg;
use crate::cli::hud::{HudComposer, HudScene, hud_scale};
use crate::cli::output::{say, shown};
use crate::cli::session::Session;
use crate::cli::stats::{Drawn, Stats, shadow_side, write_json};
use crate::cli::{CliError, MAX_INSTANCES};

/// "on" or "off".
fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

/// Longest animation step taken at once (after a stall, the crowd jumps no further).
const MAX_DT: f32 = 0.1;
/// Radians of orbit per pixel dragged.
const ORBIT_PER_PIXEL: f32 = 0.005;
/// How often a minimized window wakes to see whether Ctrl-C asked the run to stop.
const MINIMIZED_POLL: Duration = Duration::from_millis(250);

pub fn run(args: &RunArgs) -> Result<(), CliError> {
    let session = args.session()?;
    crate::cli::interrupt::install();
    let event_loop =
        EventLoop::new().map_err(|e| GpuError::Window(format!("opening the display: {e}")))?;
    let mut app = App {
        args,
        session,
        state: None,
        error: None,
        stats: Stats::new(true),
        start: Instant::now(),
        last_frame: Instant::now(),
        resize_pending: false,
        mouse: Mouse::default(),
        fly: None,
        gpu_ms_avg: None,
        pass_times: Vec::new(),
        capture: FrameCapture::inactive(),
        live: LiveControls {
            hud: HudComposer::new(hud_scale(args.height)),
            hud_on: args.hud_on(true),
            settings: RenderSettings::default(),
            paused: false,
            screenshot: false,
            shots: 0,
            readback: None,
        },
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| GpuError::Window(format!("event loop: {e}")))?;
    if let Some(e) = app.error.take() {
        return Err(e);
    }
    report_missed_capture(&app.capture, app.stats.frames());
    app.stats.print_overall(
        app.start.elapsed().as_secs_f64(),
        app.gpu_ms_avg,
        &app.pass_times,
    )
}

/// What exists once the window does. Fields drop in order: the renderer and swapchain
/// before the context, the context (and its surface) before the window.
struct Live {
    renderer: Renderer,
    swapchain: Swapchain,
    ctx: Arc<GpuContext>,
    window: Arc<Window>,
    device: String,
}

#[derive(Default)]
struct Mouse {
    orbiting: bool,
    panning: bool,
    last: Option<PhysicalPosition<f64>>,
}

struct App<'a> {
    args: &'a RunArgs,
    session: Session,
    state: Option<Live>,
    error: Option<CliError>,
    stats: Stats,
    start: Instant,
    last_frame: Instant,
    resize_pending: bool,
    mouse: Mouse,
    /// In fly mode: the keys held.
    fly: Option<FlyKeys>,
    /// Filled at exit from every frame's timestamps.
    gpu_ms_avg: Option<f64>,
    /// Each pass's GPU time, kept at exit (the renderer goes with the window).
    pass_times: Vec<PassTime>,
    /// `--capture-frame`: RenderDoc around one frame.
    capture: FrameCapture,
    /// What the keys changed.
    live: LiveControls,
}

/// What the window's keys change while it runs.
struct LiveControls {
    hud: HudComposer,
    hud_on: bool,
    /// The settings frames are drawn with (as the device took them).
    settings: RenderSettings,
    /// The crowd stands still.
    paused: bool,
    /// The next frame is written as PNG.
    screenshot: bool,
    /// Screenshots written so far (their file names count up).
    shots: u32,
    /// Where a screenshot is read back into (made for the first).
    readback: Option<WindowReadback>,
}

impl App<'_> {
    fn fail(&mut self, event_loop: &ActiveEventLoop, e: CliError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
        event_loop.exit();
    }

    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<(), CliError> {
        let attributes = Window::default_attributes()
            .with_title("throng")
            .with_inner_size(PhysicalSize::new(self.args.width, self.args.height));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| GpuError::Window(format!("creating the window: {e}")))?,
        );
        let handles = WindowHandles {
            display: window
                .display_handle()
                .map_err(|e| GpuError::Window(e.to_string()))?
                .as_raw(),
            window: window
                .window_handle()
                .map_err(|e| GpuError::Window(e.to_string()))?
                .as_raw(),
        };
        // SAFETY: `Live` drops the context before the window.
        let ctx = unsafe { GpuContext::new(&self.args.context_options(), Some(handles)) }?;
        let size = window.inner_size();
        let wanted = vk::Extent2D {
            width: size.width.max(1),
            height: size.height.max(1),
        };
        let swapchain = Swapchain::new(
            &ctx,
            wanted,
            self.args.present_mode(),
            throng::crowd::DEFAULT_SLOTS,
        )?;
        let mut renderer = Renderer::new(
            &ctx,
            swapchain.format,
            swapchain.extent,
            Presentation::Swapchain,
        )?;
        renderer.set_settings(self.args.settings(renderer.default_msaa()))?;
        self.live.settings = renderer.settings();
        self.session.upload(&mut renderer)?;
        // After the instance: RenderDoc's layer (when present) came in with it.
        self.capture = FrameCapture::new(self.args.capture_frame);
        say!(
            "rendering {} instances of {} on {} in a window, {} (Esc quits)",
            self.session.crowd.len(),
            self.session.model_names(),
            shown(ctx.device_name()),
            self.args.msaa_words(&renderer)
        )?;
        if let Some(line) = self.session.scale_line() {
            say!("{line}")?;
        }
        for line in self.session.root_motion_lines() {
            say!("{line}")?;
        }
        for line in self.session.bake_lines() {
            say!("{line}")?;
        }
        say!("{}", self.session.state_line())?;
        let memory = self.args.passes.impostor_memory();
        for line in self.session.prepare_impostors(&mut renderer, memory)? {
            say!("{line}")?;
        }
        say!(
            "drag to orbit, right-drag to pan, wheel to zoom; F flies (W/A/S/D, Q/E down and up, \
             Shift faster, drag to look)"
        )?;
        say!("keys: {}", crate::cli::hud::KEYS)?;
        let device = ctx.device_name().to_string();
        self.state = Some(Live {
            renderer,
            swapchain,
            ctx,
            window,
            device,
        });
        self.start = Instant::now();
        self.last_frame = Instant::now();
        Ok(())
    }

    /// Renders and presents one frame; returns whether the run should end.
    fn frame(&mut self) -> Result<bool, CliError> {
        let Some(live) = self.state.as_mut() else {
            return Ok(false);
        };
        let size = live.window.inner_size();
        if size.width == 0 || size.height == 0 {
            // Minimized: nothing to draw into.
            return Ok(false);
        }
        if self.resize_pending {
            live.renderer.wait_idle()?;
            live.swapchain.recreate(vk::Extent2D {
                width: size.width,
                height: size.height,
            })?;
            live.renderer.resize(live.swapchain.extent)?;
            self.resize_pending = false;
        }
        let Some(acquired) = live.swapchain.acquire()? else {
            self.resize_pending = true;
            return Ok(false);
        };
        let now = Instant::now();
        let dt = if self.live.paused {
            0.0
        } else {
            (now - self.last_frame).as_secs_f32().min(MAX_DT)
        };
        self.last_frame = now;
        if let Some(keys) = &self.fly {
            let speed = FLY_SPEED * self.session.camera.scene_radius.max(1e-3);
            let (forward, right, up) = keys.step(speed, dt);
            self.session.camera.fly(forward, right, up);
        }
        let anim_ms = self.session.advance(dt, &mut live.renderer)?;
        let extent = live.swapchain.extent;
        let inputs = self
            .session
            .inputs(extent.width as f32 / extent.height.max(1) as f32);
        if self.live.hud_on {
            let scene = HudScene {
                instances: self.session.crowd.len(),
                device: &live.device,
                settings: self.live.settings,
                camera: if self.fly.is_some() {
                    "fly"
                } else {
                    self.session.framing().name()
                },
                paused: self.live.paused,
                keys: true,
            };
            self.live.hud.compose(
                &self.stats.last_second(),
                live.renderer.pass_times(),
                self.stats.drawn(),
                &scene,
            );
            live.renderer.set_hud(Some(&self.live.hud.text));
        } else {
            live.renderer.set_hud(None);
        }
        // A screenshot reads this frame back, where the swapchain's images can be read.
        let shot = self.live.screenshot && live.swapchain.readable;
        if self.live.screenshot && !shot {
            say!("screenshot: this window's images cannot be read back")?;
        }
        self.live.screenshot = false;
        if shot
            && !self
                .live
                .readback
                .as_ref()
                .is_some_and(|r| r.fits(extent, live.swapchain.format))
        {
            self.live.readback = Some(WindowReadback::new(
                &live.ctx,
                extent,
                live.swapchain.format,
            )?);
        }
        let readback = self
            .live
            .readback
            .as_ref()
            .filter(|_| shot)
            .map(WindowReadback::buffer);
        let number = self.stats.frames() + 1;
        self.capture.begin(number);
        let times = live.renderer.render(
            &mut self.session.crowd,
            &inputs,
            acquired.target,
            acquired.sync,
            readback,
        )?;
        let presented = live.swapchain.present(&acquired)?;
        if let (true, Some(r)) = (shot, &self.live.readback) {
            live.renderer.wait_idle()?;
            self.live.shots += 1;
            let path = std::path::PathBuf::from(format!("throng-window-{}.png", self.live.shots));
            r.pixels()?.save_png(&path)?;
            say!("wrote {}", shown(&path.display().to_string()))?;
        }
        report_capture(self.capture.end(number), number)?;
        if !presented {
            self.resize_pending = true;
        }
        let eye = self
            .fly
            .is_some()
            .then(|| self.session.camera().eye.to_array());
        self.stats.set_flying_eye(eye);
        self.stats.frame(
            anim_ms + times.palette_ms,
            &times,
            now.elapsed().as_secs_f64() * 1e3,
            live.renderer.pass_times(),
            Drawn {
                draw: live.renderer.draw_stats(),
                animation: self.session.animation_counts(&live.renderer),
            },
        )?;
        let done = match (self.args.frames, self.args.seconds) {
            (Some(f), _) if self.stats.frames() >= f => true,
            (_, Some(s)) if self.start.elapsed() >= Duration::from_secs_f64(s) => true,
            _ => crate::cli::interrupt::requested(),
        };
        Ok(done)
    }

    /// Does what a key asked (`controls.rs`), saying so on stdout.
    fn act(&mut self, action: Action) -> Result<(), CliError> {
        let Some(live) = self.state.as_mut() else {
            return Ok(());
        };
        match action {
            Action::ToggleHud => {
                self.live.hud_on = !self.live.hud_on;
                say!("hud {}", on_off(self.live.hud_on))?;
            }
            Action::Crowd(resize) => {
                let n = resized(self.session.crowd.len(), resize, MAX_INSTANCES);
                live.renderer.wait_idle()?;
                let mut session = self.args.session_of(n)?;
                let mut renderer = Renderer::new(
                    &live.ctx,
                    live.swapchain.format,
                    live.swapchain.extent,
                    Presentation::Swapchain,
                )?;
                renderer.set_settings(self.live.settings)?;
                session.upload(&mut renderer)?;
                let memory = self.args.passes.impostor_memory();
                for line in session.prepare_impostors(&mut renderer, memory)? {
                    say!("{line}")?;
                }
                // The old renderer waits for its frames as it goes.
                live.renderer = renderer;
                self.session = session;
                self.fly = None;
                say!("crowd: {n} characters")?;
            }
            Action::Switch(which) => {
                let (settings, name, on) = switch(self.live.settings, which);
                live.renderer.set_settings(settings)?;
                self.live.settings = live.renderer.settings();
                say!("{name} {}", on_off(on))?;
            }
            Action::NextMsaa => {
                let mut settings = self.live.settings;
                settings.msaa = next_msaa(settings.msaa);
                live.renderer.set_settings(settings)?;
                self.live.settings = live.renderer.settings();
                say!("MSAA {}x", self.live.settings.msaa)?;
            }
            Action::NextCamera => {
                let next = match self.session.framing() {
                    CameraArg::Overview => CameraArg::Street,
                    CameraArg::Street => CameraArg::Overview,
                };
                self.fly = None;
                self.session.set_flying(false);
                say!("camera {}", self.session.use_framing(next))?;
            }
            Action::Pause => {
                self.live.paused = !self.live.paused;
                say!(
                    "{}",
                    if self.live.paused {
                        "paused"
                    } else {
                        "playing"
                    }
                )?;
            }
            Action::Screenshot => self.live.screenshot = true,
        }
        Ok(())
    }

    fn write_stats(&mut self) -> Result<(), CliError> {
        if let Some(live) = self.state.as_mut() {
            self.gpu_ms_avg = live.renderer.gpu_ms_average()?;
            self.pass_times = live.renderer.pass_times().to_vec();
            self.stats.set_draw(live.renderer.draw_stats());
        }
        let (Some(path), Some(live)) = (&self.args.stats_json, &mut self.state) else {
            return Ok(());
        };
        let extent = live.swapchain.extent;
        let first = self.session.first_world(&mut live.renderer)?;
        let shadow_size = shadow_side(&live.renderer);
        let doc = self.stats.json(self.gpu_ms_avg, &self.pass_times, |d| {
            self.session
                .fill_stats(d, &live.device, (extent.width, extent.height), first);
            d.shadow_size = shadow_size;
        });
        write_json(path, &doc)
    }
}

impl ApplicationHandler for App<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_none()
            && let Err(e) = self.open(event_loop)
        {
            self.fail(event_loop, e);
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::KeyboardInput {
                event:
                    KeyEvent {
                        logical_key: Key::Named(NamedKey::Escape),
                        state: ElementState::Pressed,
                        ..
                    },
                ..
            } => event_loop.exit(),
            WindowEvent::KeyboardInput {
                event:
                    KeyEvent {
                        physical_key: PhysicalKey::Code(code),
                        state,
                        repeat,
                        ..
                    },
                ..
            } => {
                let down = state == ElementState::Pressed;
                if let (true, false, Some(action)) = (down, repeat, action_of(code)) {
                    if let Err(e) = self.act(action) {
                        self.fail(event_loop, e);
                    }
                } else if code == KeyCode::KeyF && down && !repeat {
                    self.fly = match self.fly {
                        Some(_) => None,
                        None => Some(FlyKeys::default()),
                    };
                    self.session.set_flying(self.fly.is_some());
                } else if let Some(keys) = &mut self.fly {
                    keys.set(code, down);
                }
            }
            WindowEvent::Resized(_) => self.resize_pending = true,
            WindowEvent::MouseInput { state, button, .. } => {
                let down = state == ElementState::Pressed;
                match button {
                    MouseButton::Left => self.mouse.orbiting = down,
                    MouseButton::Right => self.mouse.panning = down,
                    _ => {}
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                if let Some(last) = self.mouse.last {
                    let (dx, dy) = ((position.x - last.x) as f32, (position.y - last.y) as f32);
                    if self.mouse.orbiting && self.fly.is_some() {
                        self.session
                            .camera
                            .look(-dx * ORBIT_PER_PIXEL, -dy * ORBIT_PER_PIXEL);
                    } else if self.mouse.orbiting {
                        self.session
                            .camera
                            .rotate(-dx * ORBIT_PER_PIXEL, dy * ORBIT_PER_PIXEL);
                    }
                    if self.mouse.panning {
                        let h = self
                            .state
                            .as_ref()
                            .map_or(self.args.height, |l| l.window.inner_size().height)
                            .max(1) as f32;
                        self.session.camera.pan(-dx / h, dy / h);
                    }
                }
                self.mouse.last = Some(position);
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let steps = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => (p.y / 40.0) as f32,
                };
                self.session.camera.zoom(0.9f32.powf(steps));
            }
            WindowEvent::RedrawRequested => match self.frame() {
                Ok(true) => event_loop.exit(),
                Ok(false) => {}
                Err(e) => self.fail(event_loop, e),
            },
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(live) = &self.state {
            // Minimized, there is nothing to draw: no redraw is asked for, so the event loop
            // sleeps until the next event (a restore, a resize) instead of spinning a core,
            // waking a few times a second only to see whether Ctrl-C asked it to stop.
            let size = live.window.inner_size();
            let minimized =
                live.window.is_minimized() == Some(true) || size.width == 0 || size.height == 0;
            if !minimized {
                event_loop.set_control_flow(ControlFlow::Wait);
                live.window.request_redraw();
            } else if crate::cli::interrupt::requested() {
                event_loop.exit();
            } else {
                event_loop
                    .set_control_flow(ControlFlow::WaitUntil(Instant::now() + MINIMIZED_POLL));
            }
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        if let Err(e) = self.write_stats()
            && self.error.is_none()
        {
            self.error = Some(e);
        }
        if let Some(live) = self.state.take() {
            // Wait before tearing down so nothing in flight refers to what goes away.
            live.ctx.wait_idle();
            drop(live);
        }
    }
}
