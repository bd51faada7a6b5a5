//! Ctrl-C: the first stops the run after the frame being drawn, waits for the GPU to finish
//! with everything (which a large crowd on a software device can make take minutes) and exits
//! as usual; a second exits at once, without freeing anything: memory the GPU may still read
//! is left to the operating system rather than handed back while it reads.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once, before the first frame).
pub fn install() {
    #[cfg(unix)]
    // SAFETY: `on_interrupt` only touches an atomic and calls `_exit`, both
    // async-signal-safe; the handler is a valid `extern "C" fn(c_int)`.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

/// Whether Ctrl-C asked the run to stop.
///
/// Under `THRONG_FAULT=stall-on-interrupt` (tests only) a run asked to stop stalls here for
/// ever, as one whose frame never finishes: only the second Ctrl-C ends it.
pub fn requested() -> bool {
    let requested = REQUESTED.load(Ordering::Relaxed);
    if requested && throng::gpu::fault::stall_on_interrupt() {
        loop {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
    requested
}

#[cfg(unix)]
extern "C" fn on_interrupt(_signal: libc::c_int) {
    if REQUESTED.swap(true, Ordering::Relaxed) {
        // SAFETY: `_exit` is async-signal-safe and ends the process without running
        // destructors: nothing is freed while the GPU may read it.
        unsafe { libc::_exit(130) };
    }
}
