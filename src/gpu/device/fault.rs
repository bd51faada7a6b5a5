//! Faults on demand, for tests of the paths real faults take (they are rare and hard to
//! provoke): `THRONG_FAULT=device-lost:K` makes the submission of frame K (counted from 1)
//! report a lost device; `THRONG_FAULT=alloc:NAME` makes the allocation of the first buffer
//! whose name starts with NAME fail as if the device were out of memory;
//! `THRONG_FAULT=surface-lost:K` makes the K-th swapchain acquire (from 1) report the window's
//! surface lost; `THRONG_FAULT=stall-on-interrupt` makes a run that was asked to stop (the
//! first Ctrl-C) stall as a frame that never finishes would, so that only a second Ctrl-C
//! ends it. Unset (the normal case) nothing changes. Read once per process.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// The environment variable that asks for a fault.
pub const FAULT_ENV: &str = "THRONG_FAULT";

/// A fault to inject.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The submission of this frame (from 1) reports `VK_ERROR_DEVICE_LOST`.
    DeviceLostAt(u64),
    /// The first buffer allocation whose name starts with this fails.
    AllocationFails(String),
    /// This swapchain acquire (from 1) reports `VK_ERROR_SURFACE_LOST_KHR`.
    SurfaceLostAt(u64),
    /// Once the run is asked to stop, it never gets to stop on its own.
    StallOnInterrupt,
}

/// The fault asked for, if any (a value that parses as neither is ignored, with a warning).
pub fn injected() -> Option<&'static Fault> {
    static FAULT: OnceLock<Option<Fault>> = OnceLock::new();
    FAULT
        .get_or_init(|| {
            let spec = std::env::var(FAULT_ENV).ok()?;
            let fault = parse(&spec);
            if fault.is_none() {
                log::warn!(
                    "{FAULT_ENV}={} is not device-lost:FRAME, alloc:NAME, surface-lost:ACQUIRE \
                     or stall-on-interrupt; ignored",
                    crate::text::printable(&spec)
                );
            }
            fault
        })
        .as_ref()
}

fn parse(spec: &str) -> Option<Fault> {
    if spec == "stall-on-interrupt" {
        return Some(Fault::StallOnInterrupt);
    }
    let (kind, arg) = spec.split_once(':')?;
    match kind {
        "device-lost" => arg.parse().ok().filter(|&k| k > 0).map(Fault::DeviceLostAt),
        "alloc" if !arg.is_empty() => Some(Fault::AllocationFails(arg.to_string())),
        "surface-lost" => arg
            .parse()
            .ok()
            .filter(|&k| k > 0)
            .map(Fault::SurfaceLostAt),
        _ => None,
    }
}

/// Whether the submission of frame `number` (from 1) is to report a lost device.
pub fn device_lost_at(number: u64) -> bool {
    matches!(injected(), Some(Fault::DeviceLostAt(k)) if *k == number)
}

/// Whether swapchain acquire `number` (from 1) is to report a lost surface.
pub fn surface_lost_at(number: u64) -> bool {
    matches!(injected(), Some(Fault::SurfaceLostAt(k)) if *k == number)
}

/// Whether a run asked to stop is to stall instead.
pub fn stall_on_interrupt() -> bool {
    matches!(injected(), Some(Fault::StallOnInterrupt))
}

/// Whether the allocation of buffer `name` is to fail (once: the first match only).
pub fn allocation_fails(name: &str) -> bool {
    static FIRED: AtomicBool = AtomicBool::new(false);
    match injected() {
        Some(Fault::AllocationFails(prefix)) if name.starts_with(prefix.as_str()) => {
            !FIRED.swap(true, Ordering::Relaxed)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_or_are_refused() {
        assert_eq!(parse("device-lost:3"), Some(Fault::DeviceLostAt(3)));
        assert_eq!(parse("surface-lost:5"), Some(Fault::SurfaceLostAt(5)));
        assert_eq!(parse("stall-on-interrupt"), Some(Fault::StallOnInterrupt));
        assert_eq!(
            parse("alloc:palette ring"),
            Some(Fault::AllocationFails("palette ring".into()))
        );
        for bad in [
            "device-lost:0",
            "device-lost:x",
            "alloc:",
            "lost:3",
            "device-lost",
            "surface-lost:0",
            "stall-on-interrupt:1",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
