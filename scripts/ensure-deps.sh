#!/usr/bin/env bash
# Installs the Debian/Ubuntu system packages that building and testing throng needs, and only
# those that are missing. Run by `make run` and `make test`; safe to run again.
#
# Not root, or not an apt-based system: prints the exact packages and stops, so nothing is
# installed behind your back. THRONG_SKIP_DEPS=1 skips the check (you installed them yourself).
set -euo pipefail

# Keep this list in step with README.md ("System packages").
packages=(
  ca-certificates # cargo downloads crates over TLS
  gcc             # the linker driver rustc uses, and C code in -sys crates
  libc6-dev       # C runtime headers and startup files for linking
  make            # runs this project's commands
  pkg-config      # how -sys crates find system libraries
  binutils        # ar, to merge the static shaderc libraries (scripts/shaderc-lib.sh)
  g++             # libstdc++ for the static glslang/shaderc libraries
  libvulkan1      # the Vulkan loader
  libvulkan-dev   # libvulkan.so, which ash loads at run time
  mesa-vulkan-drivers    # lavapipe: a software Vulkan 1.3 device for machines without a GPU
  vulkan-validationlayers # validation in debug builds and tests (a message fails a test)
  libshaderc-dev  # shaderc, compiling shaders/ to SPIR-V in build.rs
  glslang-dev     # its static libraries, merged into one archive with shaderc's
  spirv-tools     # likewise (libSPIRV-Tools*.a)
  libx11-6        # windows through winit (X11)
  libxcursor1
  libxrandr2
  libxi6
  libx11-xcb1
  libxkbcommon-x11-0
  xvfb            # the window tests run under a virtual X server
  xauth           # xvfb-run needs it
  xdotool         # the window test resizes the window and types Escape
  renderdoc       # renderdoccmd + librenderdoc.so: `run --capture-frame` and tests/gpu_renderdoc.rs
  python3-renderdoc # RenderDoc's replay API for /usr/bin/python3: the test opens the capture
  libassimp-dev   # the `assimp` feature (on in `make test`): libassimp.so, and the headers
                  # src/asset/assimp/ffi_check.rs checks its declarations against
  assimp-utils    # `assimp export`: tests/assimp_loader.rs converts huesitos.fbx to glTF
  ffmpeg          # `throng play --record FILE.mp4` pipes its frames to it (H.264)
)

if [[ "${THRONG_SKIP_DEPS:-0}" == 1 ]]; then
  exit 0
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "throng: cargo is not on PATH; install Rust (https://rustup.rs) and run this again" >&2
  exit 1
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "throng: this is not an apt-based system, so I cannot check or install system packages." >&2
  echo "throng: install the equivalents of: ${packages[*]}" >&2
  echo "throng: then run again with THRONG_SKIP_DEPS=1" >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

if [[ "$(id -u)" -ne 0 ]]; then
  echo "throng: missing system packages: ${missing[*]}" >&2
  echo "throng: I am not root; install them with:" >&2
  echo "    sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

echo "throng: installing missing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "throng: installed ${missing[*]}"
