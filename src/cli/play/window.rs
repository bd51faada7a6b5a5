//! `play` in a window: the file plays at its own pace (times `--speed`); Space pauses, the
//! left and right arrows seek five seconds back and forth, `[` and `]` halve and double the
//! speed, H toggles the heads-up display, Esc or closing the window quits. At the end the
//! playback holds its last frame, or starts over with `--loop`.

use std::sync::Arc;
use std::time::Instant;

use ash::vk;
use raw_window_handle::{HasDisplayHandle, HasWindowHandle};
use throng::gpu::{
    ContextOptions, GpuContext, PresentMode, Presentation, Renderer, Swapchain, WindowHandles,
    validation_wanted,
};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

use super::PlayArgs;
use super::hud::{PlayHud, PlayHudState};
use super::scene::PlayScene;
use crate::cli::CliError;
use crate::cli::hud::hud_scale;
use crate::cli::output::{say, shown};

/// Seconds of file time an arrow key seeks.
const SEEK: f64 = 5.0;
/// Longest wall-clock step taken at once (after a stall the playback jumps no further).
const MAX_DT: f64 = 0.1;
/// The slowest and fastest playback speeds the brackets reach.
const SPEEDS: (f64, f64) = (1.0 / 64.0, 64.0);

/// The window, the renderer on it and the playback. Fields drop in order: the renderer and
/// the swapchain before the context, the context (with its surface) before the window.
struct Live {
    scene: PlayScene,
    renderer: Renderer,
    swapchain: Swapchain,
    _ctx: Arc<GpuContext>,
    window: Arc<Window>,
    resize: bool,
}

/// The playback's clock and switches.
struct Clock {
    time: f64,
    start: f64,
    end: f64,
    speed: f64,
    paused: bool,
    looping: bool,
}

impl Clock {
    /// The file time after `dt` wall-clock seconds: held at the end, or back at the start
    /// when looping.
    fn advance(&mut self, dt: f64) {
        if self.paused {
            return;
        }
        self.time += dt * self.speed;
        if self.time > self.end {
            self.time = if self.looping { self.start } else { self.end };
        }
    }

    fn seek(&mut self, by: f64) {
        self.time = (self.time + by).clamp(self.start, self.end);
    }
}

struct App<'a> {
    args: &'a PlayArgs,
    file: Option<throng::motion::trajectory::TrackStore>,
    live: Option<Live>,
    clock: Clock,
    hud: Option<PlayHud>,
    error: Option<CliError>,
    last: Instant,
    drawn: u64,
}

pub fn run(
    args: &PlayArgs,
    file: throng::motion::trajectory::TrackStore,
    (start, end): (f64, f64),
) -> Result<(), CliError> {
    let event_loop =
        EventLoop::new().map_err(|e| CliError::Argument(format!("cannot open a window: {e}")))?;
    let mut app = App {
        args,
        file: Some(file),
        live: None,
        clock: Clock {
            time: start,
            start,
            end,
            speed: args.speed,
            paused: false,
            looping: args.looping,
        },
        hud: args
            .hud
            .is_none_or(crate::cli::pass_args::Switch::on)
            .then(|| PlayHud::new(1)),
        error: None,
        last: Instant::now(),
        drawn: 0,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| CliError::Argument(format!("the window's event loop failed: {e}")))?;
    match app.error {
        Some(e) => Err(e),
        None => say!(
            "played {} frame{}",
            app.drawn,
            if app.drawn == 1 { "" } else { "s" }
        ),
    }
}

impl App<'_> {
    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<(), CliError> {
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        let args = self.args;
        let attributes = Window::default_attributes()
            .with_title(format!("throng play: {}", args.file.display()))
            .with_inner_size(winit::dpi::PhysicalSize::new(args.width, args.height));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| CliError::Argument(format!("cannot open a window: {e}")))?,
        );
        let handle_error = |e: raw_window_handle::HandleError| {
            CliError::Argument(format!("the window has no handle: {e}"))
        };
        let handles = WindowHandles {
            display: window.display_handle().map_err(handle_error)?.as_raw(),
            window: window.window_handle().map_err(handle_error)?.as_raw(),
        };
        let options = ContextOptions {
            device: args.device.clone(),
            validation: validation_wanted(),
        };
        // SAFETY: `Live` drops the context before the window its surface was made on.
        let ctx = unsafe { GpuContext::new(&options, Some(handles)) }?;
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
        let default_msaa = renderer.default_msaa();
        renderer.set_settings(args.passes.settings(default_msaa))?;
        let mut scene = PlayScene::build(args, file)?;
        scene.upload(&mut renderer)?;
        renderer.set_impostor_memory(args.passes.impostor_memory());
        renderer.prepare_impostors(&scene.crowd)?;
        if let Some(hud) = self.hud.as_mut() {
            hud.text.set_scale(hud_scale(swapchain.extent.height));
        }
        say!(
            "playing {} pedestrians as {} on {}: Space pause, Left/Right seek, [ ] speed, H \
             hud, Esc quit",
            scene.playback.store().summaries().len(),
            scene.model_names(),
            shown(ctx.device_name())
        )?;
        say!("{}", scene.state_line())?;
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

    fn frame(&mut self) -> Result<(), CliError> {
        let Some(live) = self.live.as_mut() else {
            return Ok(());
        };
        let size = live.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return Ok(());
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
        let dt = (now - self.last).as_secs_f64().min(MAX_DT);
        self.last = now;
        self.clock.advance(dt);
        live.scene.advance(&mut live.renderer, self.clock.time)?;
        let extent = live.swapchain.extent;
        let aspect = extent.width as f32 / extent.height.max(1) as f32;
        let inputs = live.scene.inputs(aspect);
        match self.hud.as_mut() {
            Some(hud) => {
                hud.compose(&PlayHudState {
                    time: self.clock.time,
                    end: self.clock.end,
                    present: live.scene.present(),
                    pedestrians: live.scene.playback.store().summaries().len(),
                    speed: self.clock.speed,
                    paused: self.clock.paused,
                    followed: live.scene.followed(),
                    color_by: live.scene.playback.settings().color_by,
                    keys: true,
                });
                live.renderer.set_hud(Some(&hud.text));
            }
            None => live.renderer.set_hud(None),
        }
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

    /// A key pressed: the playback's controls, each said in a line on the terminal.
    fn key(&mut self, key: &Key) -> Result<(), CliError> {
        let c = &mut self.clock;
        match key {
            Key::Named(NamedKey::Space) => {
                c.paused = !c.paused;
                let what = if c.paused { "paused" } else { "playing" };
                say!("{what} at {:.2} s", c.time)
            }
            Key::Named(NamedKey::ArrowLeft | NamedKey::ArrowRight) => {
                let back = matches!(key, Key::Named(NamedKey::ArrowLeft));
                c.seek(if back { -SEEK } else { SEEK });
                say!("seek to {:.2} s", c.time)
            }
            Key::Character(k) if k == "[" || k == "]" => {
                c.speed = if k == "[" {
                    (c.speed * 0.5).max(SPEEDS.0)
                } else {
                    (c.speed * 2.0).min(SPEEDS.1)
                };
                say!("speed x{}", c.speed)
            }
            Key::Character(k) if k.eq_ignore_ascii_case("h") => {
                self.hud = match self.hud.take() {
                    Some(_) => None,
                    None => {
                        let height = self
                            .live
                            .as_ref()
                            .map_or(720, |l| l.swapchain.extent.height);
                        Some(PlayHud::new(hud_scale(height)))
                    }
                };
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

impl ApplicationHandler for App<'_> {
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
            WindowEvent::KeyboardInput {
                event:
                    KeyEvent {
                        logical_key,
                        state: ElementState::Pressed,
                        ..
                    },
                ..
            } => {
                if let Err(e) = self.key(&logical_key) {
                    self.error = Some(e);
                    event_loop.exit();
                }
            }
            WindowEvent::Resized(_) => {
                if let Some(live) = self.live.as_mut() {
                    live.resize = true;
                }
            }
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.frame() {
                    self.error = Some(e);
                    event_loop.exit();
                    return;
                }
                if crate::cli::interrupt::requested()
                    || self.args.frames.is_some_and(|f| self.drawn >= f)
                {
                    event_loop.exit();
                } else if let Some(live) = &self.live {
                    live.window.request_redraw();
                }
            }
            _ => {}
        }
    }
}
