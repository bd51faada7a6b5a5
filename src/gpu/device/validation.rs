//! The `VK_EXT_debug_utils` messenger: every validation message (warning or error) is counted
//! and logged, so tests can fail on the first one and `--stats-json` can report them.

use std::ffi::{CStr, c_void};
use std::sync::atomic::{AtomicU64, Ordering};

use ash::vk;

/// Messages the validation layers reported, across every device of the process.
static MESSAGES: AtomicU64 = AtomicU64::new(0);

/// Best-practice warnings throng triggers on purpose, by message id, and why: logged at debug
/// level, not counted. Everything else the layer says fails a test.
pub const EXPLAINED: &[(&str, &str)] = &[
    (
        "UNASSIGNED-BestPractices-pipeline-stage-flags",
        "timestamps around each pass are written at ALL_COMMANDS: a pass's time starts when \
         everything before it has finished and ends when it has, so the passes' times add up \
         to the frame's (a narrower stage would let them overlap)",
    ),
    (
        "UNASSIGNED-BestPractices-SpirvDeprecated_WorkgroupSize",
        "the shaders are SPIR-V 1.5 (the Vulkan 1.2 target, for 1.2 devices and RenderDoc), \
         where a compute shader's WorkgroupSize is how its local size is given; LocalSizeId \
         would need SPIR-V 1.6 and maintenance4",
    ),
    (
        "UNASSIGNED-BestPractices-vkCreateInstance-specialuse-extension-debugging",
        "VK_EXT_debug_utils names every object and labels every pass, so that validation \
         messages and RenderDoc captures read in the program's own words",
    ),
    (
        "UNASSIGNED-BestPractices-SuboptimalSwapchain",
        "a window resized between an image's acquire and its present makes the present \
         report VK_SUBOPTIMAL_KHR; the window loop recreates the swapchain before the next \
         frame, which is what the warning asks for, but the layer warns on the report itself",
    ),
];

/// Whether a message's id is one of [`EXPLAINED`] (compared as bytes: the layer may call
/// back from inside a frame's recording, which must not allocate).
fn explained(id: &CStr) -> bool {
    EXPLAINED
        .iter()
        .any(|(known, _)| known.as_bytes() == id.to_bytes())
}

/// Validation warnings and errors reported so far in this process.
pub fn validation_messages() -> u64 {
    MESSAGES.load(Ordering::Relaxed)
}

/// Whether validation should run: debug builds and tests always, release builds when
/// `THRONG_VALIDATION=1`, never when `THRONG_VALIDATION=0`.
pub fn validation_wanted() -> bool {
    match std::env::var("THRONG_VALIDATION").as_deref() {
        Ok("1") => true,
        Ok("0") => false,
        _ => cfg!(debug_assertions),
    }
}

/// The messenger's settings: warnings and errors of every type, plus performance warnings.
pub fn messenger_info() -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(on_message))
}

/// Called by the layers on their own thread; must not unwind into C.
unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    kind: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user: *mut c_void,
) -> vk::Bool32 {
    // The loader's own GENERAL chatter (layer lists, driver manifests) is not a validation
    // finding; only count what the validation layer or a performance check says.
    let counted = kind.intersects(
        vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
            | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
    );
    // SAFETY: the layer passes a valid callback-data pointer whose strings live for the call.
    let data = unsafe { data.as_ref() };
    // SAFETY: as above.
    let id = data
        .filter(|d| !d.p_message_id_name.is_null())
        .map(|d| unsafe { CStr::from_ptr(d.p_message_id_name) });
    let is_explained = counted && id.is_some_and(explained);
    if is_explained && !log::log_enabled!(log::Level::Debug) {
        return vk::FALSE;
    }
    // SAFETY: as above.
    let text = data
        .filter(|d| !d.p_message.is_null())
        .map(|d| {
            unsafe { CStr::from_ptr(d.p_message) }
                .to_string_lossy()
                .into_owned()
        })
        .unwrap_or_default();
    if is_explained {
        log::debug!("validation (explained in gpu::validation::EXPLAINED): {text}");
    } else if counted {
        MESSAGES.fetch_add(1, Ordering::Relaxed);
        if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR) {
            log::error!("validation: {text}");
        } else {
            log::warn!("validation: {text}");
        }
    } else {
        log::debug!("vulkan: {text}");
    }
    vk::FALSE
}
