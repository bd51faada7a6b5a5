#!/usr/bin/env bash
# Readies here what device-run.sh needs on a bare GPU machine: this checkout and OLD (a commit
# to measure against) built in release without the `assimp` feature (so they need no
# libassimp there) and stripped into .dev/new/throng and .dev/old/throng, and Debian 12's
# Vulkan loader packages in .gl (the machine's image has a driver but no loader). Both
# folders are kept out of git; name them in the device call's `carry`.
#
#   benches/results/gpu/prepare-device.sh OLD_COMMIT
set -euo pipefail
cd "$(dirname "$0")/../../.."
old=${1:?usage: prepare-device.sh OLD_COMMIT}
for d in /.gl/ /.dev/; do
  grep -qxF "$d" .git/info/exclude || echo "$d" >>.git/info/exclude
done
# Only what this call builds travels (carry takes 64 MiB in all).
rm -rf .dev
mkdir -p .dev/old .dev/new .gl
scripts/shaderc-lib.sh
cargo build --release --locked
strip -o .dev/new/throng target/release/throng
# The old commit in a worktree of its own, linking this checkout's shaderc archive.
tree=$(mktemp -d)
git worktree add -q --detach "$tree" "$old"
SHADERC_LIB_DIR=$PWD/target/shaderc CARGO_TARGET_DIR=$PWD/target/old \
  cargo build --release --locked --manifest-path "$tree/Cargo.toml"
git worktree remove --force "$tree"
strip -o .dev/old/throng target/old/release/throng
if ! ls .gl/libvulkan1_*.deb >/dev/null 2>&1; then
  lists=$(mktemp -d)
  mkdir -p "$lists/partial"
  o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 "-oDir::State::Lists=$lists")
  apt-get "${o[@]}" update -qq
  (cd .gl && apt-get "${o[@]}" download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
fi
du -sh .dev .gl
