//! The `VK_EXT_debug_utils` messenger: every validation message (warning or error) is counted
//! and logged, so tests can fail on the first one and `--stats-json` can report them.

use std::ffi::{CStr, c_void};
use std::sync::atomic::{AtomicU64, Ordering};

use ash::vk;

/// Messages the validation layers reported, across every device of the process.
static MESSAGES: AtomicU64 = AtomicU64::new(0);

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
    let text = unsafe {
        data.as_ref()
            .filter(|d| !d.p_message.is_null())
            .map(|d| CStr::from_ptr(d.p_message).to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    if counted {
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
