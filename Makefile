# gpudiff — see README.md. `make test` is what CI runs (.ci/run).
SHELL := /bin/bash
GO ?= go
BIN := bin/gpudiff

# Debian packages the real adapters and validators need:
#   mesa-vulkan-drivers  lavapipe (Vulkan on llvmpipe)
#   libvulkan1           the Vulkan loader
#   libvulkan-dev        the Vulkan headers compiler/spirv's test runner (testdata/vkrun) is built with
#   chromium             ships the SwiftShader Vulkan ICD (/usr/lib/chromium/vk_swiftshader_icd.json)
#   libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri   wgpu's GL backend on llvmpipe (EGL, surfaceless)
#   spirv-tools          spirv-val / spirv-as / spirv-dis
#   spirv-headers        the machine-readable SPIR-V grammar
#   libegl-dev           libEGL.so, the unversioned name Dawn's GL backends load (harness/dawn)
#   libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev libgl-dev
#                        the headers GLFW's cgo build needs for `gpudiff view` (build tag glfw:
#                        make build-viewer, make test-viewer)
#   xvfb xauth           xvfb-run, the virtual X server test-viewer runs the viewer under
# and, outside apt's package list (checked by command: nodesource's nodejs
# conflicts with Debian's npm package), node + npm for Dawn (Tint) through
# its node binding, the npm package `webgpu` pinned in package-lock.json.
DEB_PACKAGES := mesa-vulkan-drivers libvulkan1 libvulkan-dev chromium libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri libegl-dev libgles-dev spirv-tools spirv-headers vulkan-tools \
  libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev libgl-dev xvfb xauth

# Mesa 25 beside the system's Mesa 22 (issue 37; harness.DriverSets, README
# "Driver sets"): Debian bookworm-backports' packages of one pinned version,
# downloaded with a private apt configuration (the system's sources and
# installed packages are untouched) and unpacked with dpkg-deb -x into
# $(MESA25_DIR)/root, never installed:
#   mesa-vulkan-drivers  lavapipe 25 (libvulkan_lvp.so; its ICD manifest is
#                        rewritten as $(MESA25_DIR)/lvp_icd.json)
#   libegl-mesa0         Mesa 25's EGL vendor library for glvnd (its vendor
#                        manifest rewritten as $(MESA25_DIR)/50_mesa.json)
#   mesa-libgallium      the gallium drivers (llvmpipe) both of those load
#   libgbm1 libgl1-mesa-dri   what libEGL_mesa links, and the DRI loader stub
#   libdrm2 libdrm-amdgpu1 libdrm-intel1   the libdrm 2.4.123 Mesa 25 needs
#                        (Debian 12 has 2.4.114), reached by LD_LIBRARY_PATH
# They depend on the system's libllvm15 (Mesa 25 "(LLVM 15.0.6)").
# $(MESA25_DIR)/VERSION, written last, holds MESA25_VERSION: when it does,
# nothing is downloaded.
MESA25_VERSION := 25.0.7-2~bpo12+1
LIBDRM25_VERSION := 2.4.123-1~bpo12+1
MESA25_DIR := build/mesa25
MESA25_PACKAGES := mesa-vulkan-drivers=$(MESA25_VERSION) libegl-mesa0=$(MESA25_VERSION) \
  mesa-libgallium=$(MESA25_VERSION) libgbm1=$(MESA25_VERSION) libgl1-mesa-dri=$(MESA25_VERSION) \
  libdrm2=$(LIBDRM25_VERSION) libdrm-amdgpu1=$(LIBDRM25_VERSION) libdrm-intel1=$(LIBDRM25_VERSION)
MESA25_SUITE := deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main

.PHONY: all deps mesa25 build build-viewer test test-long test-viewer vet lint run bench bench-all bench-find bench-instructions bench-gpu bench-gpu-build clean fuzz-smoke

all: build

# APT_INSTALL installs the Debian packages named after it (apt-get, through
# sudo unless root); a shell snippet for the recipes below.
APT_INSTALL = SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
  $$SUDO apt-get update -qq && \
  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends

# Idempotent: installs only what is missing; never runs apt-get when nothing is.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  $(APT_INSTALL) $$missing >/dev/null; \
	fi
	@command -v node >/dev/null && command -v npm >/dev/null || { \
	  echo "make deps: installing nodejs npm"; \
	  $(APT_INSTALL) nodejs npm >/dev/null; }
	@[ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund
	@$(MAKE) --no-print-directory mesa25
	@$(GO) mod download

# Mesa 25 into $(MESA25_DIR) (see MESA25_VERSION above); a no-op when
# $(MESA25_DIR)/VERSION already names that version. The manifests name
# their libraries by paths relative to themselves, so the checkout may move.
mesa25:
	@[ "$$(cat $(MESA25_DIR)/VERSION 2>/dev/null)" = "$(MESA25_VERSION)" ] || { \
	  echo "make deps: fetching Mesa $(MESA25_VERSION) (bookworm-backports) into $(MESA25_DIR)"; \
	  set -eo pipefail; tmp=$(MESA25_DIR).tmp; rm -rf "$$tmp"; \
	  mkdir -p "$$tmp/apt/lists/partial" "$$tmp/apt/cache/archives/partial" "$$tmp/debs" "$$tmp/root"; \
	  echo "$(MESA25_SUITE)" > "$$tmp/apt/sources.list"; \
	  apt="-o Dir::Etc::SourceList=$$PWD/$$tmp/apt/sources.list -o Dir::Etc::SourceParts=/dev/null \
	    -o Dir::State::Lists=$$PWD/$$tmp/apt/lists -o Dir::Cache=$$PWD/$$tmp/apt/cache -o Debug::NoLocking=1"; \
	  apt-get $$apt -qq update; \
	  (cd "$$tmp/debs" && apt-get $$apt -qq download $(MESA25_PACKAGES) 2>&1 | { grep -v "unsandboxed as root" || true; }); \
	  for deb in "$$tmp"/debs/*.deb; do dpkg-deb -x "$$deb" "$$tmp/root"; done; \
	  lvp=$$(cd "$$tmp/root" && find usr/lib -name libvulkan_lvp.so); lib=$$(dirname "$$lvp"); \
	  sed 's|"library_path" *: *"[^"]*"|"library_path": "./root/'"$$lib"'/libvulkan_lvp.so"|' \
	    "$$tmp/root/usr/share/vulkan/icd.d/lvp_icd.json" > "$$tmp/lvp_icd.json"; \
	  sed 's|"library_path" *: *"[^"]*"|"library_path": "./root/'"$$lib"'/libEGL_mesa.so.0"|' \
	    "$$tmp/root/usr/share/glvnd/egl_vendor.d/50_mesa.json" > "$$tmp/50_mesa.json"; \
	  echo "$$lib" > "$$tmp/LIBDIR"; \
	  rm -rf "$$tmp/apt" "$$tmp/debs"; \
	  echo "$(MESA25_VERSION)" > "$$tmp/VERSION"; \
	  rm -rf $(MESA25_DIR); mv "$$tmp" $(MESA25_DIR); }

# -buildvcs=auto: stamp the commit into the binary (gpudiff --version, the
# tool field of reports and case files) even where GOFLAGS turns it off.
build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/gpudiff

# gpudiff with the viewer (`gpudiff view`, README): GLFW through cgo, X11.
build-viewer:
	$(GO) build -buildvcs=auto -tags glfw -o $(BIN) ./cmd/gpudiff

vet:
	$(GO) vet ./...
	$(GO) vet -tags glfw ./harness/window ./cmd/gpudiff

# gofmt, go.mod/go.sum as `go mod tidy` leaves them, and generated code
# as its generator leaves it (TestNodeGenUpToDate checks ir/node_gen.go).
lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*')); \
	  if [ -n "$$unformatted" ]; then echo "make lint: gofmt -w these files:"; echo "$$unformatted"; exit 1; fi
	@$(GO) mod tidy -diff || { echo "make lint: go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }

# make test (CI, .ci/run): every package's tests on the real adapters, the
# generated-program properties and whole-corpus sweeps at a bounded share
# of their counts (the first programs of the same seeds), then test-viewer
# and fuzz-smoke at its execution counts; within 10 minutes on a 2-core machine
# (issue 38). make test-long (CI's nightly, .ci/nightly) runs the same tests
# with GPUDIFF_TEST_LONG=1, which the test files read for the full counts,
# and fuzz-smoke at FUZZSCALE_LONG times those counts. README "Testing gpudiff
# itself" says which runs where.
test: deps lint vet
	GPUDIFF_VERIFY_PASSES=1 $(GO) test -count=1 -timeout 20m ./...
	@$(MAKE) --no-print-directory test-viewer
	@$(MAKE) --no-print-directory fuzz-smoke

FUZZSCALE_LONG ?= 12
test-long: deps lint vet
	GPUDIFF_TEST_LONG=1 GPUDIFF_VERIFY_PASSES=1 $(GO) test -count=1 -timeout 90m ./...
	@GPUDIFF_TEST_LONG=1 $(MAKE) --no-print-directory test-viewer
	@$(MAKE) --no-print-directory fuzz-smoke FUZZSCALE=$(FUZZSCALE_LONG)

# The viewer's tests, built with the glfw tag, under a virtual X server
# (xvfb-run -a): harness/window's frame pixel by pixel, and `gpudiff view
# --screenshot` of the README's examples decoded and checked
# (TestViewScreenshot). `make test` runs them.
test-viewer:
	@command -v xvfb-run >/dev/null || { echo "make test-viewer: xvfb-run is missing (Debian package xvfb): run make deps"; exit 1; }
	$(GO) test -count=1 -tags glfw -timeout 10m ./harness/window
	$(GO) test -count=1 -tags glfw -timeout 10m -run '^TestView' ./cmd/gpudiff

# Each native fuzz target of untrusted input (and flatten's and the printer's
# properties) runs briefly in `make test` and longer in `make test-long`.
# The budget is a count of executions (-fuzztime Nx), about 10 s of each
# target on a 2-core machine, FUZZSCALE (12 in test-long, about 2 minutes)
# times that: a wall-clock -fuzztime on Go 1.26 can fail a clean run with
# "context deadline exceeded" when a starved worker misses the deadline
# (golang/go#75804, fixed in Go 1.27; CI met it on FuzzWGSLRoundTrip), and a
# count has no deadline to race. FUZZTIME=10m (a duration) replaces the
# counts for a longer run by hand. Minimizing each new-coverage input is
# bounded the same way (-fuzzminimizetime 100x): Go's default, 60 s of
# minimizing per input with executions not counted, stalled a 10 s run of
# FuzzWGSLRoundTrip for minutes.
FUZZSCALE ?= 1
FUZZTIME ?=
fuzz-budget = $(if $(FUZZTIME),$(FUZZTIME),$(shell echo $$(( $(1) * $(FUZZSCALE) )))x)
fuzz-smoke:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzzminimizetime 100x -fuzztime $(call fuzz-budget,100000) ./compiler/wgsl
	$(GO) test -run '^$$' -fuzz '^FuzzParseCase$$' -fuzzminimizetime 100x -fuzztime $(call fuzz-budget,60000) ./check
	$(GO) test -run '^$$' -fuzz '^FuzzParseInputs$$' -fuzzminimizetime 100x -fuzztime $(call fuzz-budget,60000) ./check
	$(GO) test -run '^$$' -fuzz '^FuzzFlatten$$' -fuzzminimizetime 100x -fuzztime $(call fuzz-budget,15000) ./check
	$(GO) test -run '^$$' -fuzz '^FuzzWGSLRoundTrip$$' -fuzzminimizetime 100x -fuzztime $(call fuzz-budget,8000) ./check

# The main job on the default adapter (lavapipe): every example through exec
# (interpreter vs GPU, original and twin), then a short campaign.
run: deps build
	@rc=0; for f in shaders/examples/*.wgsl; do \
	  echo "== $$f"; ./$(BIN) exec "$$f" --flat --spirv || rc=$$?; \
	done; \
	./$(BIN) run --seed 1 --count 200 || rc=$$?; \
	exit $$rc

# The throughput table (issue 8): driver floor vs gpudiff end to end per
# adapter, two adapters in parallel, interpreter ns/op vs native Go, flatten
# growth, and --jobs 2 vs --jobs 1 on lavapipe (BenchmarkGpudiffJobs, issue 15)
# — one run, cold (Mesa's disk shader cache off) — then the reference's
# dispatch-size sweep (issue 26: 65k/1M/4M invocations, gpudiff exec and
# the reference alone; wall and CPU time, peak RSS) and exec's peak memory
# on large bindings (issue 41, BenchmarkExecMemory: a cluster-lights-shaped
# shader and a 64 MiB storage buffer). `make bench-all` runs every
# package's micro-benchmarks too.
bench: deps
	MESA_SHADER_CACHE_DISABLE=true $(GO) test -run '^$$' -bench '^BenchmarkGpudiff(Jobs)?$$' -benchtime 1x -timeout 30m ./campaign/
	$(GO) test -run '^$$' -bench '^Benchmark(DispatchSweep|ExecMemory)$$' -benchtime 1x -timeout 20m -v ./shaders/

# The one check of a GPU machine (issue 25, deploy/benchgpu): driver
# floor per vendor adapter on 1 and N threads, run --jobs 1/4/8/N and
# --adapter all throughput, and a campaign per profile with the distinct
# bugs found, in one table, within GPUDIFF_BENCH_BUDGET (8m; the build
# before it is not counted). Without a vendor GPU it measures lavapipe and
# says so. Durations and sizes: environment variables, see
# deploy/benchgpu/main.go (e.g. GPUDIFF_BENCH_CAMPAIGN=20s for a short try).
# `make bench-gpu-build` only builds its binaries (stripped), for a GPU
# machine without Go: deploy/bench-gpu-device.sh runs them there.
bench-gpu: bench-gpu-build
	GPUDIFF=$(BIN) GPUDIFF_BENCH_TEST=bin/campaign.test ./bin/bench-gpu

bench-gpu-build: deps
	$(GO) build -buildvcs=auto -ldflags '-s -w' -o $(BIN) ./cmd/gpudiff
	$(GO) test -c -ldflags '-s -w' -o bin/campaign.test ./campaign
	$(GO) build -ldflags '-s -w' -o bin/bench-gpu ./deploy/benchgpu

# The finding rate (issue 41, internal/benchkit/findrate): one fixed-seed,
# fixed-budget campaign per generator profile on every adapter present
# (run --adapter all), new-to-the-project signatures (findings/known.txt
# as the known set) per CPU-hour, per stack and per bug class. About
# 90 s per profile (GPUDIFF_BENCH_FIND_DURATION; the other variables are
# in its doc comment); GPUDIFF_BENCH_FIND_OUT=f.json keeps the figures,
# GPUDIFF_BENCH_FIND_BASE=f.json compares a later run with them.
bench-find: deps build
	GPUDIFF=$(BIN) $(GO) run ./internal/benchkit/findrate

# Rows (d) and (e) of `make bench` in machine instructions and simulated
# cache misses under Valgrind's cachegrind (internal/benchkit/instructions):
# the same figures on every run, for judging an interpreter or flatten
# change on a noisy machine; about 2 minutes. Installs valgrind (Debian)
# when it is missing.
bench-instructions: deps
	@command -v valgrind >/dev/null || { \
	  echo "make bench-instructions: installing valgrind"; \
	  $(APT_INSTALL) valgrind >/dev/null; }
	$(GO) test -c -o bin/interp.test ./interp
	$(GO) test -c -o bin/flatten.test ./flatten
	$(GO) run ./internal/benchkit/instructions -interp bin/interp.test -flatten bin/flatten.test

bench-all: deps
	MESA_SHADER_CACHE_DISABLE=true $(GO) test -run '^$$' -bench . -benchtime 1x -timeout 60m ./...

clean:
	rm -rf bin
