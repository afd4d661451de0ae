package campaign

import "fmt"

// DriverChanges lists, one phrase each, how the drivers (or WebGPU
// implementation versions) a shard recorded differ from those of the
// merged header, the first journal given, which the merged report names:
// "shard 1/2 (b.jsonl): wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe
// 25.0.7" (DriverChanges of the two records). nil when every shard ran on
// the same drivers.
func (m *Merged) DriverChanges() []string {
	var out []string
	for _, s := range m.Shards {
		for _, c := range DriverChanges(m.Header.Drivers, s.Header.Drivers) {
			out = append(out, fmt.Sprintf("shard %s (%s): %s", s.Header.Shard, s.Path, c))
		}
	}
	return out
}
