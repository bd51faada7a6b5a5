//! Calling Assimp: one import at a time, first in a throw-away child process.
//!
//! The system's libassimp is C++ that was not written for hostile input: Debian 12's 5.2.5
//! writes out of bounds on a `.x` file whose skin weights name vertices that do not exist
//! (Assimp's own test model `malformed_skinweights_oob.x`; fixed upstream only in 2026), and
//! a parser may loop. So each file is first imported by a forked child that does nothing
//! else: if the child dies on a signal or runs past [`PROBE_TIME_LIMIT`], the file is refused
//! with one line and this process never runs the import. Only when the child finished does
//! this process import the same bytes (Assimp is deterministic), which costs a second import.
//! The probe catches crashes and hangs, not corruption that happens not to crash: Assimp
//! stays unhardened (README, "Assimp").
//!
//! Imports are serialized by a lock: Assimp keeps its last error in a global string, and a
//! fork must not happen while another thread is inside Assimp holding one of its locks.

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_uint};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::ffi as sys;

use crate::asset::budget::Budget;
use crate::asset::{ErrorKind, LoadError};

/// The child's exit code when Assimp reported that an allocation failed: the import needs
/// more memory than the budget allows the child.
const EXIT_OUT_OF_BUDGET: c_int = 3;

/// How long the probe may take before the file counts as one Assimp cannot finish.
const PROBE_TIME_LIMIT: Duration = Duration::from_secs(120);

/// Serializes every use of Assimp in this process.
static ASSIMP: Mutex<()> = Mutex::new(());

/// An imported scene, released when dropped; holds the lock for its whole life.
pub(super) struct Scene {
    scene: *const sys::aiScene,
    _lock: MutexGuard<'static, ()>,
}

impl Scene {
    /// The scene's root structure.
    pub fn get(&self) -> &sys::aiScene {
        // SAFETY: `scene` is non-null (checked in `import`) and stays valid until `drop`
        // releases it; nothing here mutates it.
        unsafe { &*self.scene }
    }
}

impl Drop for Scene {
    fn drop(&mut self) {
        // SAFETY: `scene` came from an Assimp import and is released exactly once.
        unsafe { sys::aiReleaseImport(self.scene) }
    }
}

/// Imports `bytes` (a whole file, already read under the size cap) with `flags`. `hint` is
/// the file's extension, which tells Assimp the format when the content does not.
pub(super) fn import(
    file: &str,
    bytes: &[u8],
    hint: &str,
    flags: u32,
    budget: &Budget,
) -> Result<Scene, LoadError> {
    let error = |kind, message: String| LoadError::new(file, kind, message).in_section("assimp");
    let length = c_uint::try_from(bytes.len()).map_err(|_| {
        error(
            ErrorKind::TooLarge,
            format!(
                "{} bytes is more than Assimp can take from memory (4 GiB)",
                bytes.len()
            ),
        )
    })?;
    // Only a plain extension is a useful hint (Assimp refuses long ones).
    let hint = if hint.len() <= 16 && hint.bytes().all(|b| b.is_ascii_alphanumeric()) {
        hint
    } else {
        ""
    };
    let hint = CString::new(hint).unwrap_or_default();
    let lock = ASSIMP.lock().unwrap_or_else(PoisonError::into_inner);
    let limit = budget.limit();
    probe(bytes, length, &hint, flags, limit).map_err(|why| {
        let message = if why.kind == ErrorKind::TooLarge {
            // The child ran out of its address space: say so in the budget's words.
            format!(
                "Assimp's import of this file needs more than the load budget of {}",
                budget.describe()
            )
        } else {
            why.message
        };
        error(why.kind, message)
    })?;
    // SAFETY: the buffer is valid for `length` bytes for the call; Assimp copies what it keeps.
    let scene = unsafe { import_raw(bytes, length, &hint, flags) };
    if scene.is_null() {
        return Err(error(ErrorKind::Invalid, last_error()));
    }
    Ok(Scene { scene, _lock: lock })
}

/// One import with this loader's properties: FBX pivots are collapsed into the node they
/// belong to (instead of a chain of `$AssimpFbx$` helper nodes), so channels target the
/// bones themselves wherever Assimp can manage it.
///
/// # Safety
/// `bytes` must be valid for `length` bytes.
unsafe fn import_raw(bytes: &[u8], length: c_uint, hint: &CStr, flags: u32) -> *const sys::aiScene {
    // SAFETY: the property store is created, used and released here; the key is a C string.
    unsafe {
        let props = sys::aiCreatePropertyStore();
        if !props.is_null() {
            sys::aiSetImportPropertyInteger(props, c"IMPORT_FBX_PRESERVE_PIVOTS".as_ptr(), 0);
        }
        let scene = sys::aiImportFileFromMemoryWithProperties(
            bytes.as_ptr().cast::<c_char>(),
            length,
            flags,
            hint.as_ptr(),
            props,
        );
        if !props.is_null() {
            sys::aiReleasePropertyStore(props);
        }
        scene
    }
}

/// Assimp's message for the last failed import, as one line.
fn last_error() -> String {
    // SAFETY: Assimp returns a pointer to its own NUL-terminated string (or null).
    let raw = unsafe { sys::aiGetErrorString() };
    let text = if raw.is_null() {
        String::new()
    } else {
        // SAFETY: non-null and NUL-terminated, valid until the next import (we hold the lock).
        unsafe { CStr::from_ptr(raw) }
            .to_string_lossy()
            .into_owned()
    };
    let text = super::raw::one_line(&text);
    if text.is_empty() {
        "Assimp could not import the file (it gave no reason)".to_string()
    } else {
        format!("Assimp could not import the file: {text}")
    }
}

/// Why the probe refused a file.
struct Refusal {
    kind: ErrorKind,
    message: String,
}

/// Imports in a forked child whose address space may grow by at most `memory_limit` bytes,
/// and reports how the child ended.
fn probe(
    bytes: &[u8],
    length: c_uint,
    hint: &CStr,
    flags: u32,
    memory_limit: u64,
) -> Result<(), Refusal> {
    // Measured here, where reading a file may allocate; the child inherits this size.
    let address_space = current_address_space().unwrap_or(0);
    let cap = address_space.saturating_add(memory_limit);
    // SAFETY: the child only calls Assimp (no Rust allocation, no locks of this process other
    // than malloc's, which glibc's fork makes safe) and leaves with `_exit`, never returning
    // into the caller's code.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(Refusal {
            kind: ErrorKind::Io,
            message: format!(
                "cannot start the child process that imports first: {}",
                std::io::Error::last_os_error()
            ),
        });
    }
    if pid == 0 {
        // SAFETY: see above; `bytes` is still mapped in the child. `setrlimit` only reads
        // the struct; Assimp's error string is its own, valid until the next import.
        unsafe {
            let rlimit = libc::rlimit {
                rlim_cur: cap,
                rlim_max: cap,
            };
            if address_space > 0 {
                libc::setrlimit(libc::RLIMIT_AS, &rlimit);
            }
            let scene = import_raw(bytes, length, hint, flags);
            let code = if scene.is_null() {
                // Assimp turns a failed allocation into an error whose text names it.
                let raw = sys::aiGetErrorString();
                let text = if raw.is_null() {
                    &[][..]
                } else {
                    CStr::from_ptr(raw).to_bytes()
                };
                if text.windows(5).any(|w| w == b"alloc") {
                    EXIT_OUT_OF_BUDGET
                } else {
                    1
                }
            } else {
                sys::aiReleaseImport(scene);
                0
            };
            libc::_exit(code)
        }
    }
    wait(pid)
}

/// This process's virtual address space in bytes (`/proc/self/statm`'s first field).
fn current_address_space() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages.saturating_mul(u64::try_from(page).ok()?))
}

/// Waits for the probe child, killing it past the time limit.
fn wait(pid: libc::pid_t) -> Result<(), Refusal> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        let mut status: c_int = 0;
        // SAFETY: `pid` is our own child; `status` is a valid out pointer.
        let done = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if done == pid {
            if libc::WIFSIGNALED(status) {
                let signal = libc::WTERMSIG(status);
                return Err(Refusal {
                    kind: ErrorKind::Invalid,
                    message: format!(
                        "Assimp crashed importing this file ({}); the system's libassimp is not \
                         hardened against malformed files, so throng refuses it",
                        signal_name(signal)
                    ),
                });
            }
            if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == EXIT_OUT_OF_BUDGET {
                return Err(Refusal {
                    kind: ErrorKind::TooLarge,
                    message: String::new(),
                });
            }
            return Ok(());
        }
        if done < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(Refusal {
                kind: ErrorKind::Io,
                message: format!("lost the child process that imports first: {err}"),
            });
        }
        if start.elapsed() > PROBE_TIME_LIMIT {
            // SAFETY: our own child, still unreaped, so the pid cannot have been reused.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
            return Err(Refusal {
                kind: ErrorKind::Unsupported,
                message: format!(
                    "Assimp did not finish importing this file within {} s",
                    PROBE_TIME_LIMIT.as_secs()
                ),
            });
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

fn signal_name(signal: c_int) -> String {
    match signal {
        libc::SIGSEGV => "segmentation fault".to_string(),
        libc::SIGABRT => "abort".to_string(),
        libc::SIGBUS => "bus error".to_string(),
        libc::SIGFPE => "arithmetic exception".to_string(),
        libc::SIGILL => "illegal instruction".to_string(),
        other => format!("signal {other}"),
    }
}
