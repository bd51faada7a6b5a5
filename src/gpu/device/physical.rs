//! Choosing the physical device: one that can run throng (Vulkan 1.3, or 1.2 with the
//! extensions that 1.3 made core, plus `VK_KHR_push_descriptor`), preferring discrete over
//! integrated over virtual over CPU, or the one `--device NAME` names.

use std::ffi::CStr;

use ash::vk;

use super::error::{GpuError, VkContext};

/// A device that can run throng, and how its features are reached.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The device.
    pub physical: vk::PhysicalDevice,
    /// Its name as the driver reports it.
    pub name: String,
    /// Discrete, integrated, virtual, CPU...
    pub kind: vk::PhysicalDeviceType,
    /// Vulkan version the device supports.
    pub api_version: u32,
    /// A queue family with graphics (and so compute and transfer) support.
    pub queue_family: u32,
    /// Whether dynamic rendering, synchronization2 and extended dynamic state come from the
    /// core (1.3) rather than their extensions.
    pub core13: bool,
    /// Nanoseconds per timestamp tick.
    pub timestamp_period: f32,
    /// Whether the graphics queue writes timestamps.
    pub timestamps: bool,
    /// Device limits.
    pub limits: vk::PhysicalDeviceLimits,
    /// Whether the optional `maintenance4` feature (1.3) is there to enable.
    pub maintenance4: bool,
    /// Whether compute shaders can do 64-bit atomics on storage buffers (`shaderInt64` and
    /// `shaderBufferInt64Atomics`, turned on when there): what rasterizing impostor cards and
    /// meshes in compute needs (one atomic keeps each sample's nearest surface and its depth
    /// together).
    pub int64_atomics: bool,
    /// Bytes of the largest memory heap the host can map (where the palette ring lives).
    pub host_visible_heap: u64,
    /// The largest single allocation the device promises to make (`maxMemoryAllocationSize`).
    pub max_allocation: u64,
}

/// Device extensions throng cannot run without (besides what 1.3 made core).
pub const REQUIRED: &[&CStr] = &[ash::khr::push_descriptor::NAME];
/// What a 1.2 device must offer as extensions instead of 1.3 core.
pub const REQUIRED_BEFORE_13: &[&CStr] = &[
    ash::khr::dynamic_rendering::NAME,
    ash::khr::synchronization2::NAME,
    ash::ext::extended_dynamic_state::NAME,
];

fn rank(kind: vk::PhysicalDeviceType) -> u32 {
    match kind {
        vk::PhysicalDeviceType::DISCRETE_GPU => 4,
        vk::PhysicalDeviceType::INTEGRATED_GPU => 3,
        vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
        vk::PhysicalDeviceType::CPU => 1,
        _ => 0,
    }
}

/// Human name of a device type, for logs.
pub fn kind_name(kind: vk::PhysicalDeviceType) -> &'static str {
    match kind {
        vk::PhysicalDeviceType::DISCRETE_GPU => "discrete GPU",
        vk::PhysicalDeviceType::INTEGRATED_GPU => "integrated GPU",
        vk::PhysicalDeviceType::VIRTUAL_GPU => "virtual GPU",
        vk::PhysicalDeviceType::CPU => "CPU",
        _ => "other device",
    }
}

/// Picks the device: the best-ranked usable one, or the best usable one whose name contains
/// `wanted` (case-insensitive). `present` says whether a queue family can present (windowed).
pub fn choose(
    instance: &ash::Instance,
    wanted: Option<&str>,
    present: &dyn Fn(vk::PhysicalDevice, u32) -> bool,
) -> Result<Candidate, GpuError> {
    // SAFETY: a valid instance.
    let devices =
        unsafe { instance.enumerate_physical_devices() }.context("listing Vulkan devices")?;
    if devices.is_empty() {
        return Err(GpuError::NoDevice(String::new()));
    }
    let mut usable = Vec::new();
    let mut rejected = Vec::new();
    for physical in devices {
        match inspect(instance, physical, present) {
            Ok(c) => usable.push(c),
            Err((name, why)) => rejected.push(format!("{name} ({why})")),
        }
    }
    for r in &rejected {
        log::info!("not using {r}");
    }
    if let Some(wanted) = wanted {
        let names: Vec<String> = usable.iter().map(|c| c.name.clone()).collect();
        let needle = wanted.to_lowercase();
        usable.retain(|c| c.name.to_lowercase().contains(&needle));
        if usable.is_empty() {
            return Err(GpuError::NoSuchDevice {
                wanted: wanted.to_string(),
                found: names.join(", "),
            });
        }
    }
    usable.sort_by_key(|c| std::cmp::Reverse(rank(c.kind)));
    usable.into_iter().next().ok_or_else(|| {
        GpuError::NoDevice(format!(
            " that can run throng (found: {})",
            rejected.join(", ")
        ))
    })
}

/// Checks one device; on rejection returns its name and why.
fn inspect(
    instance: &ash::Instance,
    physical: vk::PhysicalDevice,
    present: &dyn Fn(vk::PhysicalDevice, u32) -> bool,
) -> Result<Candidate, (String, String)> {
    // SAFETY: `physical` came from this instance.
    let props = unsafe { instance.get_physical_device_properties(physical) };
    let name = props
        .device_name_as_c_str()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|_| String::from("unnamed device"));
    let fail = |why: String| Err((name.clone(), why));
    if props.api_version < vk::API_VERSION_1_2 {
        return fail("Vulkan 1.2 or newer is needed".into());
    }
    let core13 = props.api_version >= vk::API_VERSION_1_3;
    // SAFETY: as above.
    let extensions = match unsafe { instance.enumerate_device_extension_properties(physical) } {
        Ok(e) => e,
        Err(e) => return fail(format!("listing its extensions failed: {e}")),
    };
    let has = |n: &CStr| {
        extensions
            .iter()
            .any(|e| e.extension_name_as_c_str() == Ok(n))
    };
    let mut needed: Vec<&CStr> = REQUIRED.to_vec();
    if !core13 {
        needed.extend_from_slice(REQUIRED_BEFORE_13);
    }
    let missing: Vec<String> = needed
        .iter()
        .filter(|n| !has(n))
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    if !missing.is_empty() {
        return fail(format!("lacks {}", missing.join(", ")));
    }
    let Optional {
        maintenance4,
        int64_atomics,
    } = match features_supported(instance, physical, core13) {
        Ok(optional) => optional,
        Err(why) => return fail(why),
    };
    // SAFETY: as above.
    let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
    let Some((family, props_q)) = families.iter().enumerate().find(|(i, f)| {
        f.queue_flags.contains(vk::QueueFlags::GRAPHICS) && present(physical, *i as u32)
    }) else {
        return fail("no graphics queue that can present".into());
    };
    let (host_visible_heap, max_allocation) = memory_limits(instance, physical);
    Ok(Candidate {
        physical,
        name: name.clone(),
        kind: props.device_type,
        api_version: props.api_version,
        queue_family: family as u32,
        core13,
        timestamp_period: props.limits.timestamp_period,
        timestamps: props_q.timestamp_valid_bits > 0,
        limits: props.limits,
        maintenance4,
        int64_atomics,
        host_visible_heap,
        max_allocation,
    })
}

/// The largest host-visible heap and the largest allocation the device allows.
fn memory_limits(instance: &ash::Instance, physical: vk::PhysicalDevice) -> (u64, u64) {
    // SAFETY: `physical` came from this instance.
    let memory = unsafe { instance.get_physical_device_memory_properties(physical) };
    let types = &memory.memory_types[..memory.memory_type_count as usize];
    let heaps = &memory.memory_heaps[..memory.memory_heap_count as usize];
    let host_visible_heap = types
        .iter()
        .filter(|t| {
            t.property_flags
                .contains(vk::MemoryPropertyFlags::HOST_VISIBLE)
        })
        .filter_map(|t| heaps.get(t.heap_index as usize))
        .map(|h| h.size)
        .max()
        .unwrap_or(0);
    let mut maintenance3 = vk::PhysicalDeviceMaintenance3Properties::default();
    let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut maintenance3);
    // SAFETY: as above; Vulkan 1.1 made the query core, and throng needs 1.2.
    unsafe { instance.get_physical_device_properties2(physical, &mut props) };
    (host_visible_heap, maintenance3.max_memory_allocation_size)
}

/// The optional features a device may have, turned on where it does.
struct Optional {
    maintenance4: bool,
    int64_atomics: bool,
}

/// The features throng turns on must all be supported; returns which optional ones are.
fn features_supported(
    instance: &ash::Instance,
    physical: vk::PhysicalDevice,
    core13: bool,
) -> Result<Optional, String> {
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut dynamic = vk::PhysicalDeviceDynamicRenderingFeatures::default();
    let mut sync2 = vk::PhysicalDeviceSynchronization2Features::default();
    let mut eds = vk::PhysicalDeviceExtendedDynamicStateFeaturesEXT::default();
    let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut v12);
    if core13 {
        features = features.push_next(&mut v13);
    } else {
        features = features
            .push_next(&mut dynamic)
            .push_next(&mut sync2)
            .push_next(&mut eds);
    }
    // SAFETY: the chain holds structures valid for this device's version and extensions.
    unsafe { instance.get_physical_device_features2(physical, &mut features) };
    let base = features.features;
    let mut missing = Vec::new();
    if v12.timeline_semaphore == vk::FALSE {
        missing.push("timelineSemaphore");
    }
    if v12.separate_depth_stencil_layouts == vk::FALSE {
        missing.push("separateDepthStencilLayouts");
    }
    // The culled crowd is drawn with vkCmdDrawIndexedIndirectCount: up to one command per
    // level in each draw, the first instance starting the draw's list.
    if v12.draw_indirect_count == vk::FALSE {
        missing.push("drawIndirectCount");
    }
    if base.multi_draw_indirect == vk::FALSE {
        missing.push("multiDrawIndirect");
    }
    if base.draw_indirect_first_instance == vk::FALSE {
        missing.push("drawIndirectFirstInstance");
    }
    let (dr, s2) = if core13 {
        (v13.dynamic_rendering, v13.synchronization2)
    } else {
        if eds.extended_dynamic_state == vk::FALSE {
            missing.push("extendedDynamicState");
        }
        (dynamic.dynamic_rendering, sync2.synchronization2)
    };
    if dr == vk::FALSE {
        missing.push("dynamicRendering");
    }
    if s2 == vk::FALSE {
        missing.push("synchronization2");
    }
    if base.sampler_anisotropy == vk::FALSE {
        // Not required: textures then sample without anisotropy.
        log::debug!("no anisotropic filtering");
    }
    if missing.is_empty() {
        Ok(Optional {
            maintenance4: core13 && v13.maintenance4 == vk::TRUE,
            int64_atomics: base.shader_int64 == vk::TRUE
                && v12.shader_buffer_int64_atomics == vk::TRUE,
        })
    } else {
        Err(format!("lacks the features {}", missing.join(", ")))
    }
}
