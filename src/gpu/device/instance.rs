//! Loading Vulkan and creating the instance: API version, the surface extensions a window
//! needs, and the validation layer with its messenger when validation is wanted.

use std::ffi::{CStr, CString, c_char};

use ash::vk;

use super::error::{GpuError, VkContext};
use super::validation::messenger_info;

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

/// Set to `0` to run the validation layer without its synchronization and best-practice
/// checks (they slow recording down; every test runs with them).
pub const SYNC_VALIDATION_ENV: &str = "THRONG_SYNC_VALIDATION";

/// What the validation layer checks beyond its core rules: synchronization hazards (a missing
/// or too weak barrier is a `SYNC-HAZARD-*` message, which fails a test like any other) and
/// best practices (the few kinds throng does on purpose are explained, and not counted, in
/// `validation::EXPLAINED`), unless [`SYNC_VALIDATION_ENV`] is `0`.
fn validation_features() -> &'static [vk::ValidationFeatureEnableEXT] {
    if std::env::var(SYNC_VALIDATION_ENV).as_deref() == Ok("0") {
        &[]
    } else {
        &[
            vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION,
            vk::ValidationFeatureEnableEXT::BEST_PRACTICES,
        ]
    }
}

/// The loaded library, the instance and (with validation) its messenger.
pub struct Instance {
    /// The Vulkan loader.
    pub entry: ash::Entry,
    /// The instance.
    pub instance: ash::Instance,
    /// `VK_EXT_debug_utils` at instance level (messenger, and object names on the device).
    pub debug_utils: Option<ash::ext::debug_utils::Instance>,
    messenger: vk::DebugUtilsMessengerEXT,
    /// Whether the validation layer is enabled.
    pub validation: bool,
}

impl Instance {
    /// Loads the Vulkan library and creates an instance with `extensions` (the window
    /// system's surface extensions, or none for headless use).
    pub fn new(extensions: &[*const c_char], validation: bool) -> Result<Self, GpuError> {
        // SAFETY: loading the system's Vulkan loader; its initialisation has no preconditions.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| GpuError::NoLoader(e.to_string()))?;
        // SAFETY: plain enumeration calls on a loaded entry.
        let layers = unsafe { entry.enumerate_instance_layer_properties() }
            .context("listing Vulkan layers")?;
        let available_ext = unsafe { entry.enumerate_instance_extension_properties(None) }
            .context("listing Vulkan instance extensions")?;
        let has_layer = layers
            .iter()
            .any(|l| l.layer_name_as_c_str() == Ok(VALIDATION_LAYER));
        let has_ext = |name: &CStr| {
            available_ext
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(name))
        };
        let validation = if validation && !has_layer {
            log::warn!(
                "validation was asked for but {} is not installed (apt-get install vulkan-validationlayers)",
                VALIDATION_LAYER.to_string_lossy()
            );
            false
        } else {
            validation
        };
        let debug_utils_available = has_ext(ash::ext::debug_utils::NAME);
        // The layer provides VK_EXT_validation_features itself; the struct that turns on the
        // synchronization checks needs the extension enabled.
        let features_available = validation && {
            // SAFETY: enumeration of the layer's own extensions on a loaded entry.
            let layer_ext =
                unsafe { entry.enumerate_instance_extension_properties(Some(VALIDATION_LAYER)) }
                    .unwrap_or_default();
            layer_ext
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(ash::ext::validation_features::NAME))
        };

        let mut ext: Vec<*const c_char> = extensions.to_vec();
        if debug_utils_available {
            ext.push(ash::ext::debug_utils::NAME.as_ptr());
        }
        if features_available {
            ext.push(ash::ext::validation_features::NAME.as_ptr());
        }
        let layer_names: Vec<*const c_char> = if validation {
            vec![VALIDATION_LAYER.as_ptr()]
        } else {
            Vec::new()
        };
        let app_name = CString::from(c"throng");
        let app = vk::ApplicationInfo::default()
            .application_name(&app_name)
            .application_version(1)
            .engine_name(&app_name)
            .api_version(vk::API_VERSION_1_3);
        // With validation, the messenger also covers vkCreateInstance and vkDestroyInstance.
        let mut early_messenger = messenger_info();
        let mut info = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_extension_names(&ext)
            .enabled_layer_names(&layer_names);
        let mut features =
            vk::ValidationFeaturesEXT::default().enabled_validation_features(validation_features());
        if features_available {
            info = info.push_next(&mut features);
        }
        if validation && debug_utils_available {
            info = info.push_next(&mut early_messenger);
        }
        // SAFETY: every pointer in `info` refers to locals that outlive the call.
        let instance = unsafe { entry.create_instance(&info, None) }.map_err(|result| {
            if result == vk::Result::ERROR_INCOMPATIBLE_DRIVER {
                GpuError::NoDevice(" (the loader found no driver)".into())
            } else {
                GpuError::Vulkan {
                    what: "creating the Vulkan instance".into(),
                    result,
                }
            }
        })?;
        let debug_utils =
            debug_utils_available.then(|| ash::ext::debug_utils::Instance::new(&entry, &instance));
        let messenger = match (&debug_utils, validation) {
            (Some(du), true) => {
                // SAFETY: valid instance-level loader and create info.
                unsafe { du.create_debug_utils_messenger(&messenger_info(), None) }
                    .context("creating the validation messenger")?
            }
            _ => vk::DebugUtilsMessengerEXT::null(),
        };
        if validation {
            log::info!(
                "Vulkan validation enabled (synchronization checks: {})",
                if features_available && !validation_features().is_empty() {
                    "on"
                } else {
                    "off"
                }
            );
        }
        Ok(Self {
            entry,
            instance,
            debug_utils,
            messenger,
            validation,
        })
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: the device and every object made from this instance were destroyed first
        // (GpuContext owns the instance and drops it last).
        unsafe {
            if let Some(du) = &self.debug_utils
                && self.messenger != vk::DebugUtilsMessengerEXT::null()
            {
                du.destroy_debug_utils_messenger(self.messenger, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}
