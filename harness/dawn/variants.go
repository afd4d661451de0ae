package dawn

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/gpudiff/gpudiff/harness"
)

// LavapipeWidthEnv is the Mesa variable that sets llvmpipe's and
// lavapipe's SIMD width in bits (gallivm's lp_native_vector_width, read
// once per process). Lavapipe's subgroup size is that width over 32-bit
// lanes: VkPhysicalDeviceSubgroupProperties.subgroupSize =
// lp_native_vector_width / 32 (Mesa src/gallium/frontends/lavapipe
// lvp_device.c), and Dawn reports it as the adapter's subgroup size range.
const LavapipeWidthEnv = "LP_NATIVE_VECTOR_WIDTH"

// shaderCacheEnv is the Mesa shader cache setting of a variant at width
// bits: a cache directory of its own, MESA_SHADER_CACHE_DIR=<user cache
// dir>/gpudiff/mesa-shader-cache-lp<bits> (MESA_SHADER_CACHE_DISABLE=true
// where there is no user cache directory). Mesa 25.0.7's disk cache does
// not key lavapipe's binaries by LP_NATIVE_VECTOR_WIDTH: in one shared
// cache a variant loads the binary another width compiled, and a module
// without subgroup_size or a ballot (whose lowering differs per width)
// then runs at that width's subgroup size while the adapter reports its
// own — subgroupBroadcastFirst partitions of 8 on lp128 and lp512
// (TestSubgroupProbeBinding, before this setting). Each width's own
// directory keeps caching correct.
func shaderCacheEnv(bits int) string {
	dir, err := os.UserCacheDir()
	if err != nil || dir == "" {
		return "MESA_SHADER_CACHE_DISABLE=true"
	}
	return "MESA_SHADER_CACHE_DIR=" + filepath.Join(dir, "gpudiff", "mesa-shader-cache-"+harness.LavapipeVariant(bits))
}

// lavapipeWidths are the widths a lavapipe adapter with subgroups is also
// listed at, beside its own, as variants (harness.AdapterInfo.Variant
// "lp<bits>"): the ones whose subgroup size WebGPU allows (a power of two
// in [4, 128], WGSL #subgroup-size) and Mesa 25's lavapipe honours, as
// measured here (Dawn's subgroupMinSize/MaxSize, subgroup_size and
// countOneBits(subgroupBallot(true)) agree): 128 → 4, 256 → 8 (the
// AVX2 host's own), 512 → 16. 64 gives size 2, below WebGPU's minimum:
// Dawn then offers no subgroups. 1024 (beyond gallivm's
// LP_MAX_VECTOR_WIDTH, 512) reports subgroup_size 32 while subgroupAdd(1u)
// counts 16 and subgroup_invocation_id runs 0..15: not a configuration
// Mesa supports, so not an adapter.
var lavapipeWidths = []int{128, 256, 512}

var bitsInName = regexp.MustCompile(`(\d+) bits`)

// lavapipeWidth is the vector width lavapipe's device name states
// ("llvmpipe (LLVM 15.0.6, 256 bits)" → 256), 0 when it states none.
func lavapipeWidth(device string) int {
	m := bitsInName.FindStringSubmatch(device)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// isLavapipe reports whether a is Dawn's Vulkan adapter on lavapipe.
func isLavapipe(a harness.AdapterInfo) bool {
	return a.Backend == "vulkan" && a.Driver == "llvmpipe" && lavapipeWidth(a.Device) != 0
}

// lavapipeVariants lists, for every adapter of listed that is lavapipe
// under Dawn with the subgroups feature, the same driver at each other
// width of lavapipeWidths: a Dawn listing of its Vulkan backend in the
// adapter's environment plus LP_NATIVE_VECTOR_WIDTH (one node process
// per width, in parallel, about 0.3 s), kept when lavapipe's device name
// states that width and its subgroup size is width / 32 (so a Mesa that
// ignores the variable adds nothing). The variants are unnamed: Variant
// "lp<bits>" makes their names (harness.NameAdapters). Failed listings
// add nothing.
func lavapipeVariants(t tools, listed []adapter) []adapter {
	type job struct {
		base  adapter
		width int
	}
	var jobs []job
	for _, a := range listed {
		if !isLavapipe(a.info) || !a.info.HasFeature(harness.FeatureSubgroups) {
			continue
		}
		for _, w := range lavapipeWidths {
			if w != lavapipeWidth(a.info.Device) {
				jobs = append(jobs, job{a, w})
			}
		}
	}
	found := make([]*adapter, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env := append(slices.Clone(j.base.env), fmt.Sprintf("%s=%d", LavapipeWidthEnv, j.width), shaderCacheEnv(j.width))
			ws, err := listWire(t, env, j.base.wire.Backend)
			if err != nil {
				return
			}
			for _, w := range ws {
				info := w.info(t)
				info.DriverSet = j.base.info.DriverSet
				size := uint32(j.width / 32)
				if !isLavapipe(info) || lavapipeWidth(info.Device) != j.width || info.SubgroupMinSize != size || info.SubgroupMaxSize != size {
					continue
				}
				info.Variant = fmt.Sprintf("lp%d", j.width)
				found[i] = &adapter{info: info, wire: w, env: env}
				return
			}
		}()
	}
	wg.Wait()
	var out []adapter
	for _, a := range found {
		if a != nil {
			out = append(out, *a)
		}
	}
	return out
}
