#!/usr/bin/env bash
# Merges Debian's static shaderc, glslang and SPIRV-Tools archives into one
# target/shaderc/libshaderc_combined.a, which shaderc-sys links (SHADERC_LIB_DIR in
# .cargo/config.toml). Debian's own libshaderc_combined.a holds only shaderc itself, and its
# libshaderc.so does not record glslang and SPIRV-Tools as dependencies, so neither links alone.
# Run by `make`; does nothing when the archive is newer than its inputs.
set -euo pipefail
cd "$(dirname "$0")/.."

libdir=$(dirname "$(gcc -print-file-name=libshaderc_combined.a)")
if [[ ! -f "$libdir/libshaderc_combined.a" ]]; then
  libdir=/usr/lib/$(gcc -print-multiarch)
fi
parts=(shaderc_combined glslang MachineIndependent GenericCodeGen OSDependent OGLCompiler HLSL
  SPIRV SPIRV-Tools-opt SPIRV-Tools)
out=target/shaderc/libshaderc_combined.a

inputs=()
for p in "${parts[@]}"; do
  f="$libdir/lib$p.a"
  if [[ ! -f "$f" ]]; then
    echo "throng: $f is missing; install libshaderc-dev glslang-dev spirv-tools" >&2
    exit 1
  fi
  inputs+=("$f")
done

fresh=1
if [[ -f "$out" ]]; then
  for f in "${inputs[@]}"; do
    [[ "$f" -nt "$out" ]] && fresh=0
  done
else
  fresh=0
fi
[[ $fresh == 1 ]] && exit 0

mkdir -p target/shaderc
script="CREATE $out.tmp"$'\n'
for f in "${inputs[@]}"; do
  script+="ADDLIB $f"$'\n'
done
script+=$'SAVE\nEND\n'
ar -M <<<"$script"
ranlib "$out.tmp"
mv "$out.tmp" "$out"
# shaderc-sys does not watch SHADERC_LIB_DIR's contents: rebuild it against the new archive.
cargo clean -p shaderc-sys >/dev/null 2>&1 || true
echo "throng: merged $(basename "$out") for shaderc-sys"
