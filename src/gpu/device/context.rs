//! `GpuContext`: the instance, the chosen device, its one queue, the memory allocator and the
//! extension loaders, shared (`Arc`) by everything that creates Vulkan objects. Also the two
//! habits every object follows: a debug name, and memory from gpu-allocator.

use std::ffi::{CStr, CString, c_char};
use std::mem::ManuallyDrop;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};

use super::error::{GpuError, VkContext};
use super::instance::Instance;
use super::physical::{self, Candidate, REQUIRED, REQUIRED_BEFORE_13};

/// The window a context will present to.
#[derive(Clone, Copy, Debug)]
pub struct WindowHandles {
    /// The display connection.
    pub display: raw_window_handle::RawDisplayHandle,
    /// The window.
    pub window: raw_window_handle::RawWindowHandle,
}

/// The surface a context presents to; replaced whole when the old one is lost.
struct PresentSurface {
    current: Mutex<vk::SurfaceKHR>,
    loader: ash::khr::surface::Instance,
    window: WindowHandles,
}

// SAFETY: the raw window and display handles are plain addresses, only read by
// `replace_surface`, which the window's own thread calls (the swapchain that needs it lives
// there, as the window does); the surface itself is behind a mutex.
unsafe impl Send for PresentSurface {}
// SAFETY: as above.
unsafe impl Sync for PresentSurface {}

/// How to create a context.
#[derive(Clone, Debug, Default)]
pub struct ContextOptions {
    /// Only devices whose name contains this (case-insensitive).
    pub device: Option<String>,
    /// Turn the validation layer on (see [`super::validation_wanted`]).
    pub validation: bool,
}

/// Device-level entry points that moved into the core in 1.3: called through the core on 1.3
/// devices, through their extensions on 1.2 ones.
enum Commands13 {
    Core,
    Extensions {
        rendering: ash::khr::dynamic_rendering::Device,
        sync2: ash::khr::synchronization2::Device,
        dynamic_state: ash::ext::extended_dynamic_state::Device,
    },
}

/// The device and what goes with it; see the module documentation.
pub struct GpuContext {
    allocator: ManuallyDrop<Mutex<Allocator>>,
    /// The logical device.
    pub device: ash::Device,
    /// The graphics queue (also used for transfers and presentation).
    pub queue: vk::Queue,
    /// Serializes submissions to `queue` (Vulkan requires external synchronization).
    queue_lock: Mutex<()>,
    /// What was chosen and why.
    pub physical: Candidate,
    /// `VK_KHR_push_descriptor`.
    pub push_descriptor: ash::khr::push_descriptor::Device,
    debug_utils: Option<ash::ext::debug_utils::Device>,
    commands13: Commands13,
    /// The window surface, when presenting (destroyed before the instance), and the window
    /// it was made for (to make it again when the surface is lost).
    surface: Option<PresentSurface>,
    /// Declared last: dropped after the device.
    instance: Instance,
}

impl GpuContext {
    /// Loads Vulkan, chooses a device and creates it; with `window`, also a surface for it
    /// and a device whose queue can present to it.
    ///
    /// # Safety
    /// The window behind `window` must outlive the returned context.
    pub unsafe fn new(
        options: &ContextOptions,
        window: Option<WindowHandles>,
    ) -> Result<Arc<Self>, GpuError> {
        let extensions: Vec<*const c_char> = match window {
            Some(w) => ash_window::enumerate_required_extensions(w.display)
                .map_err(|e| GpuError::Window(format!("surface extensions: {e}")))?
                .to_vec(),
            None => Vec::new(),
        };
        let instance = Instance::new(&extensions, options.validation)?;
        let surface = match window {
            Some(w) => {
                // SAFETY: the caller keeps the window alive longer than the context.
                let surface = unsafe {
                    ash_window::create_surface(
                        &instance.entry,
                        &instance.instance,
                        w.display,
                        w.window,
                        None,
                    )
                }
                .context("creating the window surface")?;
                let loader = ash::khr::surface::Instance::new(&instance.entry, &instance.instance);
                Some((surface, loader))
            }
            None => None,
        };
        let chosen = physical::choose(
            &instance.instance,
            options.device.as_deref(),
            &|pd, family| {
                match &surface {
                    // SAFETY: valid physical device, family index and surface.
                    Some((s, loader)) => {
                        unsafe { loader.get_physical_device_surface_support(pd, family, *s) }
                            .unwrap_or(false)
                    }
                    None => true,
                }
            },
        );
        let physical = match chosen {
            Ok(p) => p,
            Err(e) => {
                if let Some((s, loader)) = &surface {
                    // SAFETY: nothing else uses the surface yet.
                    unsafe { loader.destroy_surface(*s, None) };
                }
                return Err(e);
            }
        };
        log::info!(
            "using {} ({}, Vulkan {}.{}.{})",
            physical.name,
            physical::kind_name(physical.kind),
            vk::api_version_major(physical.api_version),
            vk::api_version_minor(physical.api_version),
            vk::api_version_patch(physical.api_version),
        );
        let device = create_device(&instance, &physical, surface.is_some())?;
        // SAFETY: queue 0 of the family the device was created with.
        let queue = unsafe { device.get_device_queue(physical.queue_family, 0) };
        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: instance.instance.clone(),
            device: device.clone(),
            physical_device: physical.physical,
            debug_settings: Default::default(),
            buffer_device_address: false,
            allocation_sizes: Default::default(),
        })
        .map_err(|source| GpuError::Allocation {
            what: "the allocator".into(),
            source,
        })?;
        let push_descriptor = ash::khr::push_descriptor::Device::new(&instance.instance, &device);
        let debug_utils = instance
            .debug_utils
            .as_ref()
            .map(|_| ash::ext::debug_utils::Device::new(&instance.instance, &device));
        let commands13 = if physical.core13 {
            Commands13::Core
        } else {
            Commands13::Extensions {
                rendering: ash::khr::dynamic_rendering::Device::new(&instance.instance, &device),
                sync2: ash::khr::synchronization2::Device::new(&instance.instance, &device),
                dynamic_state: ash::ext::extended_dynamic_state::Device::new(
                    &instance.instance,
                    &device,
                ),
            }
        };
        let ctx = Self {
            allocator: ManuallyDrop::new(Mutex::new(allocator)),
            device,
            queue,
            queue_lock: Mutex::new(()),
            physical,
            push_descriptor,
            debug_utils,
            commands13,
            surface: surface
                .zip(window)
                .map(|((surface, loader), window)| PresentSurface {
                    current: Mutex::new(surface),
                    loader,
                    window,
                }),
            instance,
        };
        ctx.name(ctx.queue, "graphics queue");
        Ok(Arc::new(ctx))
    }

    /// Whether the device has `textureCompressionBC` (turned on whenever it is supported).
    pub fn block_compression(&self) -> bool {
        // SAFETY: querying a valid physical device.
        let features = unsafe {
            self.instance
                .instance
                .get_physical_device_features(self.physical.physical)
        };
        features.texture_compression_bc == vk::TRUE
    }

    /// The loader.
    pub fn entry(&self) -> &ash::Entry {
        &self.instance.entry
    }

    /// The window surface and its loader, when the context presents.
    pub fn surface(&self) -> Option<(vk::SurfaceKHR, &ash::khr::surface::Instance)> {
        self.surface.as_ref().map(|p| {
            let current = *p.current.lock().unwrap_or_else(PoisonError::into_inner);
            (current, &p.loader)
        })
    }

    /// Makes a new surface for the window after the old one was lost
    /// (`VK_ERROR_SURFACE_LOST_KHR`) and destroys the old one.
    ///
    /// # Safety
    /// No swapchain of the old surface may remain (destroy it first), and the window the
    /// context was made for is still alive (as [`GpuContext::new`] requires).
    pub unsafe fn replace_surface(&self) -> Result<(), GpuError> {
        let p = self
            .surface
            .as_ref()
            .ok_or_else(|| GpuError::Window("the context has no surface".into()))?;
        // SAFETY: the window outlives the context (the caller's promise to `new`).
        let fresh = unsafe {
            ash_window::create_surface(
                &self.instance.entry,
                &self.instance.instance,
                p.window.display,
                p.window.window,
                None,
            )
        }
        .context("creating the window surface again")?;
        let pd = self.physical.physical;
        // SAFETY: valid physical device, family and the surface just made.
        let supported = unsafe {
            p.loader
                .get_physical_device_surface_support(pd, self.physical.queue_family, fresh)
        }
        .unwrap_or(false);
        if !supported {
            // SAFETY: nothing uses the surface just made.
            unsafe { p.loader.destroy_surface(fresh, None) };
            return Err(GpuError::Window(
                "the window's new surface cannot be presented to from this device's queue".into(),
            ));
        }
        let mut current = p.current.lock().unwrap_or_else(PoisonError::into_inner);
        let old = std::mem::replace(&mut *current, fresh);
        // SAFETY: the caller destroyed every swapchain of the old surface.
        unsafe { p.loader.destroy_surface(old, None) };
        Ok(())
    }

    /// The instance.
    pub fn instance(&self) -> &ash::Instance {
        &self.instance.instance
    }

    /// Whether validation layers are on.
    pub fn validation(&self) -> bool {
        self.instance.validation
    }

    /// The device's name.
    pub fn device_name(&self) -> &str {
        &self.physical.name
    }

    /// The memory allocator (held briefly: creating and freeing resources).
    pub fn allocator(&self) -> MutexGuard<'_, Allocator> {
        self.allocator
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Gives `object` a debug name (seen in validation messages and RenderDoc).
    pub fn name<T: vk::Handle>(&self, object: T, name: &str) {
        let Some(du) = &self.debug_utils else { return };
        let Ok(name) = CString::new(name.replace('\0', " ")) else {
            return;
        };
        let info = vk::DebugUtilsObjectNameInfoEXT::default()
            .object_handle(object)
            .object_name(&name);
        // SAFETY: `object` is a live handle of this device; naming cannot fail meaningfully,
        // and a failure only loses a debug name.
        if let Err(e) = unsafe { du.set_debug_utils_object_name(&info) } {
            log::debug!("naming {name:?}: {e}");
        }
    }

    /// Opens a debug label region (a pass) in `cmd`. Names of up to 63 bytes (every pass's)
    /// are terminated on the stack: labelling a frame's passes allocates nothing.
    pub fn begin_label(&self, cmd: vk::CommandBuffer, name: &str) {
        let Some(du) = &self.debug_utils else { return };
        let mut stack = [0u8; 64];
        let heap;
        let name: &CStr = if name.len() < stack.len() && !name.contains('\0') {
            stack[..name.len()].copy_from_slice(name.as_bytes());
            match CStr::from_bytes_until_nul(&stack) {
                Ok(c) => c,
                Err(_) => return,
            }
        } else {
            let Ok(c) = CString::new(name.replace('\0', " ")) else {
                return;
            };
            heap = c;
            &heap
        };
        let label = vk::DebugUtilsLabelEXT::default().label_name(name);
        // SAFETY: `cmd` is recording.
        unsafe { du.cmd_begin_debug_utils_label(cmd, &label) };
    }

    /// Closes the label opened by [`Self::begin_label`].
    pub fn end_label(&self, cmd: vk::CommandBuffer) {
        if let Some(du) = &self.debug_utils {
            // SAFETY: `cmd` is recording inside a label.
            unsafe { du.cmd_end_debug_utils_label(cmd) };
        }
    }

    /// `vkCmdBeginRendering`, core or `VK_KHR_dynamic_rendering`.
    ///
    /// # Safety
    /// `cmd` is recording outside a render pass and `info` is valid.
    pub unsafe fn cmd_begin_rendering(&self, cmd: vk::CommandBuffer, info: &vk::RenderingInfo) {
        // SAFETY: forwarded contract.
        unsafe {
            match &self.commands13 {
                Commands13::Core => self.device.cmd_begin_rendering(cmd, info),
                Commands13::Extensions { rendering, .. } => {
                    rendering.cmd_begin_rendering(cmd, info)
                }
            }
        }
    }

    /// `vkCmdEndRendering`.
    ///
    /// # Safety
    /// `cmd` is inside dynamic rendering.
    pub unsafe fn cmd_end_rendering(&self, cmd: vk::CommandBuffer) {
        // SAFETY: forwarded contract.
        unsafe {
            match &self.commands13 {
                Commands13::Core => self.device.cmd_end_rendering(cmd),
                Commands13::Extensions { rendering, .. } => rendering.cmd_end_rendering(cmd),
            }
        }
    }

    /// `vkCmdPipelineBarrier2`.
    ///
    /// # Safety
    /// `cmd` is recording and `info` is valid.
    pub unsafe fn cmd_pipeline_barrier2(&self, cmd: vk::CommandBuffer, info: &vk::DependencyInfo) {
        // SAFETY: forwarded contract.
        unsafe {
            match &self.commands13 {
                Commands13::Core => self.device.cmd_pipeline_barrier2(cmd, info),
                Commands13::Extensions { sync2, .. } => sync2.cmd_pipeline_barrier2(cmd, info),
            }
        }
    }

    /// `vkCmdSetFrontFace` (extended dynamic state).
    ///
    /// # Safety
    /// `cmd` is recording with a pipeline that has front face as dynamic state.
    pub unsafe fn cmd_set_front_face(&self, cmd: vk::CommandBuffer, face: vk::FrontFace) {
        // SAFETY: forwarded contract.
        unsafe {
            match &self.commands13 {
                Commands13::Core => self.device.cmd_set_front_face(cmd, face),
                Commands13::Extensions { dynamic_state, .. } => {
                    dynamic_state.cmd_set_front_face(cmd, face)
                }
            }
        }
    }

    /// Submits to the queue (`vkQueueSubmit2`), serialized with other submissions.
    pub fn submit(&self, submits: &[vk::SubmitInfo2], fence: vk::Fence) -> Result<(), GpuError> {
        let _guard = self
            .queue_lock
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // SAFETY: the queue is externally synchronized by the lock; the caller built valid
        // submit infos.
        unsafe {
            match &self.commands13 {
                Commands13::Core => self.device.queue_submit2(self.queue, submits, fence),
                Commands13::Extensions { sync2, .. } => {
                    sync2.queue_submit2(self.queue, submits, fence)
                }
            }
        }
        .context("submitting to the queue")
    }

    /// Runs `f` on the queue's lock (presentation shares the queue).
    pub fn with_queue<R>(&self, f: impl FnOnce(vk::Queue) -> R) -> R {
        let _guard = self
            .queue_lock
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        f(self.queue)
    }

    /// Records commands with `record` into a throwaway command buffer, submits them and
    /// waits (for uploads at load time, never per frame).
    pub fn run_once(
        &self,
        what: &str,
        record: impl FnOnce(vk::CommandBuffer),
    ) -> Result<(), GpuError> {
        let device = &self.device;
        let pool_info = vk::CommandPoolCreateInfo::default()
            .flags(vk::CommandPoolCreateFlags::TRANSIENT)
            .queue_family_index(self.physical.queue_family);
        // SAFETY: valid device and create info; everything created here is destroyed below.
        unsafe {
            let pool = device
                .create_command_pool(&pool_info, None)
                .context(format!("{what}: creating a command pool"))?;
            self.name(pool, what);
            let result = (|| {
                let alloc = vk::CommandBufferAllocateInfo::default()
                    .command_pool(pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(1);
                let cmd = device
                    .allocate_command_buffers(&alloc)
                    .context(format!("{what}: allocating a command buffer"))?[0];
                self.name(cmd, what);
                device
                    .begin_command_buffer(
                        cmd,
                        &vk::CommandBufferBeginInfo::default()
                            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
                    )
                    .context(format!("{what}: beginning commands"))?;
                self.begin_label(cmd, what);
                record(cmd);
                self.end_label(cmd);
                device
                    .end_command_buffer(cmd)
                    .context(format!("{what}: ending commands"))?;
                let fence = device
                    .create_fence(&vk::FenceCreateInfo::default(), None)
                    .context(format!("{what}: creating a fence"))?;
                self.name(fence, what);
                let cmds = [vk::CommandBufferSubmitInfo::default().command_buffer(cmd)];
                let submit = vk::SubmitInfo2::default().command_buffer_infos(&cmds);
                let waited = self.submit(&[submit], fence).and_then(|()| {
                    device
                        .wait_for_fences(&[fence], true, u64::MAX)
                        .context(format!("{what}: waiting"))
                });
                device.destroy_fence(fence, None);
                waited
            })();
            device.destroy_command_pool(pool, None);
            result
        }
    }

    /// Waits until the device is idle (before destroying what it may still use).
    pub fn wait_idle(&self) {
        let _guard = self
            .queue_lock
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // SAFETY: valid device; a failure (device lost) leaves nothing better to do than go on
        // tearing down.
        if let Err(e) = unsafe { self.device.device_wait_idle() } {
            log::warn!("waiting for the device to go idle: {e}");
        }
    }
}

impl Drop for GpuContext {
    fn drop(&mut self) {
        self.wait_idle();
        // SAFETY: every resource holding an Arc<GpuContext> is gone (this is the last
        // reference), so no allocation or object of the device remains; the allocator goes
        // first because it frees device memory, then the device, then the instance (field
        // order).
        unsafe {
            ManuallyDrop::drop(&mut self.allocator);
            self.device.destroy_device(None);
            if let Some(p) = self.surface.take() {
                let surface = p
                    .current
                    .into_inner()
                    .unwrap_or_else(PoisonError::into_inner);
                p.loader.destroy_surface(surface, None);
            }
        }
    }
}

fn create_device(
    instance: &Instance,
    physical: &Candidate,
    swapchain: bool,
) -> Result<ash::Device, GpuError> {
    let mut extensions: Vec<*const c_char> = REQUIRED.iter().map(|n| n.as_ptr()).collect();
    if !physical.core13 {
        extensions.extend(REQUIRED_BEFORE_13.iter().map(|n| n.as_ptr()));
    }
    if swapchain {
        extensions.push(ash::khr::swapchain::NAME.as_ptr());
    }
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(physical.queue_family)
        .queue_priorities(&priorities)];
    // SAFETY: querying a valid physical device.
    let supported = unsafe {
        instance
            .instance
            .get_physical_device_features(physical.physical)
    };
    // Block-compressed textures are sampled as they are where the device can
    // (`GpuContext::block_compression` answers from the same query).
    let base = vk::PhysicalDeviceFeatures::default()
        .sampler_anisotropy(supported.sampler_anisotropy == vk::TRUE)
        .texture_compression_bc(supported.texture_compression_bc == vk::TRUE)
        .multi_draw_indirect(true)
        .draw_indirect_first_instance(true)
        .shader_int64(physical.int64_atomics);
    // Separate depth/stencil layouts: the frame graph uses DEPTH_ATTACHMENT_OPTIMAL and
    // DEPTH_READ_ONLY_OPTIMAL for depth-only images.
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default()
        .timeline_semaphore(true)
        .separate_depth_stencil_layouts(true)
        .draw_indirect_count(true)
        .shader_buffer_int64_atomics(physical.int64_atomics);
    // maintenance4 (optional) lets a vertex shader write outputs a fragment shader ignores
    // (the prepass shares the forward pass's vertex shader) without a performance warning.
    let mut v13 = vk::PhysicalDeviceVulkan13Features::default()
        .dynamic_rendering(true)
        .synchronization2(true)
        .maintenance4(physical.maintenance4);
    let mut dynamic = vk::PhysicalDeviceDynamicRenderingFeatures::default().dynamic_rendering(true);
    let mut sync2 = vk::PhysicalDeviceSynchronization2Features::default().synchronization2(true);
    let mut eds =
        vk::PhysicalDeviceExtendedDynamicStateFeaturesEXT::default().extended_dynamic_state(true);
    let mut info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&extensions)
        .enabled_features(&base)
        .push_next(&mut v12);
    if physical.core13 {
        info = info.push_next(&mut v13);
    } else {
        info = info
            .push_next(&mut dynamic)
            .push_next(&mut sync2)
            .push_next(&mut eds);
    }
    // SAFETY: every feature and extension was checked in `physical::choose`.
    unsafe {
        instance
            .instance
            .create_device(physical.physical, &info, None)
    }
    .context(format!("creating the device on {}", physical.name))
}
