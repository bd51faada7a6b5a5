//! Reading files from outside: the model named on the command line and the files it refers to
//! (buffers, images, animation files). One policy for every loader:
//!
//! - only regular files are read (a FIFO, a device or a folder is refused before it is opened
//!   for reading, so nothing blocks and nothing reads forever), and at most a size cap;
//! - a referenced file is a relative path inside the model's folder: never absolute, never `..`,
//!   and not a symbolic link that resolves outside the folder.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::asset::{ErrorKind, LoadError};

/// Default cap on the size of any one file read (`--max-file-size` changes it).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 2 << 30;

/// Why a file could not be read: the kind, and the end of a sentence that starts with the
/// file's name (`is not a regular file`, `cannot be read: ...`).
#[derive(Clone, Debug, PartialEq)]
pub struct ReadFailure {
    /// The class of failure.
    pub kind: ErrorKind,
    /// What is wrong, as a sentence fragment.
    pub why: String,
}

impl ReadFailure {
    fn new(kind: ErrorKind, why: impl Into<String>) -> Self {
        Self {
            kind,
            why: why.into(),
        }
    }

    /// This failure as a [`LoadError`] about `file` as a whole.
    pub fn into_load_error(self, file: &str) -> LoadError {
        LoadError::new(file, self.kind, self.why)
    }
}

/// Reads the model file `path`: a regular file (symbolic links followed) of at most
/// `max_size` bytes.
pub fn read_model_file(path: &Path, max_size: u64) -> Result<Vec<u8>, LoadError> {
    let file = path.display().to_string();
    read_regular(path, max_size).map_err(|f| f.into_load_error(&file))
}

/// The folder of the model file `path`, where the files it refers to are looked for: its
/// parent, or `.` for a bare file name (whose parent is empty).
pub fn model_folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Reads `relative`, a file a model refers to, inside `model_dir` under the path policy above.
/// `relative` is as the model wrote it (already URI-decoded where the format uses URIs).
pub fn read_referenced(
    model_dir: &Path,
    relative: &Path,
    max_size: u64,
) -> Result<Vec<u8>, ReadFailure> {
    let path = resolve_referenced(model_dir, relative)?;
    read_regular(&path, max_size)
}

/// Where `relative` lies inside `model_dir`, after checking the path policy; the file itself
/// is not opened. A missing file is an [`ErrorKind::Io`] failure (`not found`).
pub fn resolve_referenced(model_dir: &Path, relative: &Path) -> Result<PathBuf, ReadFailure> {
    let text = relative.to_string_lossy();
    let plain = !text.is_empty()
        && !text.contains('\\')
        && relative
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        && relative
            .components()
            .any(|c| matches!(c, Component::Normal(_)));
    if !plain {
        return Err(ReadFailure::new(
            ErrorKind::Unsupported,
            "is absolute or leaves the model's folder; only relative paths inside it are read",
        ));
    }
    let path = model_dir.join(relative);
    let io = |e: std::io::Error| {
        let kind = ErrorKind::Io;
        if e.kind() == std::io::ErrorKind::NotFound {
            ReadFailure::new(kind, "not found")
        } else {
            ReadFailure::new(kind, format!("cannot be read: {e}"))
        }
    };
    // The path has no `..`, but a symbolic link inside the folder could still lead out.
    let real = path.canonicalize().map_err(io)?;
    let real_dir = model_dir.canonicalize().map_err(io)?;
    if !real.starts_with(&real_dir) {
        return Err(ReadFailure::new(
            ErrorKind::Unsupported,
            "resolves outside the model's folder (through a symbolic link); not read",
        ));
    }
    Ok(real)
}

/// Reads a regular file of at most `max_size` bytes. The type is checked on the opened file
/// (not only on the path), and the open does not wait for a writer, so a FIFO swapped in
/// between the check and the open cannot block.
fn read_regular(path: &Path, max_size: u64) -> Result<Vec<u8>, ReadFailure> {
    let io = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::NotFound {
            ReadFailure::new(ErrorKind::Io, "not found")
        } else {
            ReadFailure::new(ErrorKind::Io, format!("cannot be read: {e}"))
        }
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    check_regular(&meta, max_size)?;
    let file = open_without_blocking(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    check_regular(&meta, max_size)?;
    // The size can change after the check: never read more than the cap (plus one byte, to
    // notice a file that grew past it).
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max_size.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > max_size {
        return Err(too_large(max_size));
    }
    Ok(bytes)
}

fn check_regular(meta: &std::fs::Metadata, max_size: u64) -> Result<(), ReadFailure> {
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a folder"
        } else {
            "a FIFO, socket or device"
        };
        return Err(ReadFailure::new(
            ErrorKind::Unsupported,
            format!("is not a regular file ({what}); only regular files are read"),
        ));
    }
    if meta.len() > max_size {
        return Err(too_large(max_size));
    }
    Ok(())
}

fn too_large(max_size: u64) -> ReadFailure {
    ReadFailure::new(
        ErrorKind::TooLarge,
        format!("is larger than the {max_size}-byte cap on one file (--max-file-size)"),
    )
}

#[cfg(unix)]
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever. Regular files
    // ignore the flag for reads.
    const O_NONBLOCK: i32 = 0o4000;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("throng-source-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        dir
    }

    #[test]
    fn reads_regular_files_up_to_the_cap() {
        let dir = scratch("cap");
        std::fs::write(dir.join("a.bin"), [1u8; 10]).expect("write");
        assert_eq!(
            read_model_file(&dir.join("a.bin"), 10).expect("fits").len(),
            10
        );
        let err = read_model_file(&dir.join("a.bin"), 9).expect_err("too large");
        assert_eq!(err.kind, ErrorKind::TooLarge);
        let err = read_referenced(&dir, Path::new("missing.bin"), 9).expect_err("missing");
        assert_eq!(err.why, "not found");
    }

    #[test]
    fn refuses_folders_and_paths_out_of_the_folder() {
        let dir = scratch("policy");
        std::fs::create_dir_all(dir.join("sub")).expect("sub");
        std::fs::write(dir.join("sub/x.bin"), b"x").expect("write");
        assert!(read_model_file(&dir, 100).is_err());
        assert_eq!(
            read_referenced(&dir, Path::new("sub/x.bin"), 100).expect("inside"),
            b"x"
        );
        for bad in ["/etc/passwd", "../x.bin", "sub/../../x", "a\\b", ""] {
            let err = read_referenced(&dir, Path::new(bad), 100).expect_err(bad);
            assert_eq!(err.kind, ErrorKind::Unsupported, "{bad}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn refuses_links_out_of_the_folder_and_fifos() {
        let root = scratch("links");
        let dir = root.join("model");
        std::fs::create_dir_all(&dir).expect("model folder");
        std::fs::write(root.join("outside.png"), b"secret").expect("write");
        std::os::unix::fs::symlink(root.join("outside.png"), dir.join("in.png")).expect("link");
        let err = read_referenced(&dir, Path::new("in.png"), 100).expect_err("escapes");
        assert!(
            err.why.contains("outside the model's folder"),
            "{}",
            err.why
        );

        let fifo = dir.join("pipe.m3d");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
        let err = read_model_file(&fifo, 100).expect_err("fifo");
        assert!(err.message.contains("not a regular file"), "{err}");
        let err = read_referenced(&dir, Path::new("pipe.m3d"), 100).expect_err("fifo");
        assert!(err.why.contains("not a regular file"), "{}", err.why);
    }
}
