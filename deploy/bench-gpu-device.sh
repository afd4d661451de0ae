#!/usr/bin/env bash
# deploy/bench-gpu-device.sh — run `make bench-gpu`'s check (deploy/benchgpu)
# on a GPU machine that has the repository but no Go toolchain or package
# registry (a lent device machine): it uses binaries built beforehand with
# `make bench-gpu-build` (bin/gpudiff, bin/campaign.test, bin/bench-gpu,
# about 60 MB stripped, built on a Debian 12 machine; they need only libc).
#
# Before running, where the machine lacks them:
#   - the Vulkan and EGL loaders: Debian's libvulkan1, libegl1, libglvnd0,
#     libopengl0, libgl1, libglx0 and libgles2 as .deb files in .gl/ (apt-get
#     download them on the build machine); this script unpacks them into /
#     and runs ldconfig (it must run as root then);
#   - the NVIDIA ICD and EGL vendor files are found at
#     /usr/local/nvidia/share/... when VK_DRIVER_FILES and
#     __EGL_VENDOR_LIBRARY_FILENAMES are unset.
# Dawn's adapters need node and node_modules (npm ci); without them the
# check measures wgpu's adapters only and says so on stderr.
#
# Every GPUDIFF_BENCH_* variable of deploy/benchgpu passes through
# (GPUDIFF_BENCH_BUDGET, default 8m, bounds the whole check).
set -u
cd "$(dirname "$0")/.."
for b in bin/gpudiff bin/campaign.test bin/bench-gpu; do
  [ -x "$b" ] || { echo "bench-gpu-device: $b is missing: run make bench-gpu-build first (on a machine with Go)" >&2; exit 2; }
done
if compgen -G ".gl/*.deb" >/dev/null; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
ldconfig -p | grep -q 'libvulkan.so.1' || echo "bench-gpu-device: warning: no Vulkan loader (libvulkan.so.1): put Debian's libvulkan1 .deb in .gl/" >&2
nv=/usr/local/nvidia/share
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nv/vulkan/icd.d/nvidia_icd.json" ]; then
  export VK_DRIVER_FILES="$nv/vulkan/icd.d/nvidia_icd.json"
fi
if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -f "$nv/glvnd/egl_vendor.d/10_nvidia.json" ]; then
  export __EGL_VENDOR_LIBRARY_FILENAMES="$nv/glvnd/egl_vendor.d/10_nvidia.json"
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
GPUDIFF=bin/gpudiff GPUDIFF_BENCH_TEST=bin/campaign.test exec bin/bench-gpu
