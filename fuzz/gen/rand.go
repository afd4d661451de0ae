package gen

import "math/bits"

// The generator's only source of randomness. Every decision goes through a
// chooser, never through math/rand or anything machine- or
// version-dependent, so a seed (or a byte string) names exactly one program
// on every machine and Go version: the decisions are integer arithmetic
// only (no floating point, no map iteration).

// source yields the raw decisions.
type source interface {
	// intn returns a value in [0, n); n ≥ 1.
	intn(n uint64) uint64
}

// splitmix is SplitMix64 (Steele, Lea, Flood: "Fast splittable
// pseudorandom number generators", OOPSLA 2014), the seeding generator of
// java.util.SplittableRandom and of xoshiro.
type splitmix struct{ s uint64 }

func (r *splitmix) next() uint64 {
	r.s += splitmixGamma
	return mix64(r.s)
}

// splitmixGamma is SplitMix64's increment, the odd integer nearest
// 2^64/φ.
const splitmixGamma = 0x9e3779b97f4a7c15

// mix64 is SplitMix64's output function: a bijective 64-bit finalizer.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn maps a 64-bit output to [0, n) by Lemire's multiply-high (no
// division; the bias of at most n/2^64 is irrelevant here).
func (r *splitmix) intn(n uint64) uint64 {
	hi, _ := bits.Mul64(r.next(), n)
	return hi
}

// byteSource drives decisions from a byte string (go test -fuzz): each
// decision consumes the fewest bytes that can express n-1 (one byte for
// n ≤ 256), big-endian, reduced modulo n. Past the end every byte reads as
// zero, so every decision takes its first option: the generator's budgets
// still bound the program, so any byte string yields a valid program.
type byteSource struct {
	data []byte
	pos  int
}

func (b *byteSource) intn(n uint64) uint64 {
	if n <= 1 {
		return 0
	}
	var v uint64
	for need := n - 1; need > 0; need >>= 8 {
		v <<= 8
		if b.pos < len(b.data) {
			v |= uint64(b.data[b.pos])
			b.pos++
		}
	}
	return v % n
}

// chooser is the decision API the generator uses.
type chooser struct{ src source }

// intn returns a value in [0, n); n ≤ 0 yields 0.
func (c *chooser) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(c.src.intn(uint64(n)))
}

// between returns a value in [lo, hi] (inclusive); hi < lo yields lo.
func (c *chooser) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + c.intn(hi-lo+1)
}

// chance reports true with probability pct/100. With exhausted bytes it is
// false unless pct ≥ 100.
func (c *chooser) chance(pct int) bool {
	if pct <= 0 {
		return false
	}
	return c.intn(100) >= 100-pct
}

// u32 returns 32 random bits.
func (c *chooser) u32() uint32 { return uint32(c.src.intn(1 << 32)) }

// weighted returns an index i with probability ws[i]/sum(ws). Negative
// weights count as zero; when every weight is zero it returns 0.
func (c *chooser) weighted(ws ...int) int {
	sum := 0
	for _, w := range ws {
		if w > 0 {
			sum += w
		}
	}
	if sum == 0 {
		return 0
	}
	r := c.intn(sum)
	for i, w := range ws {
		if w <= 0 {
			continue
		}
		if r < w {
			return i
		}
		r -= w
	}
	return len(ws) - 1
}

// ProgramSeed returns the seed of program number index of the campaign
// seeded campaignSeed: a SplitMix64 mix of both, stable across releases
// (campaign reports name programs by it) and well mixed, so neighbouring
// indices and neighbouring campaign seeds give unrelated programs.
//
// It is the (index+1)-th output of a SplitMix64 stream started from the
// campaign seed, which is how CampaignParameters draws it.
func ProgramSeed(campaignSeed uint64, index int) uint64 {
	return mix64(mix64(campaignSeed^programSeedKey) + uint64(index)*splitmixGamma)
}

// programSeedKey separates campaign streams from other uses of a seed
// (the fractional bits of √2, SHA-512's first IV word).
const programSeedKey = 0x6a09e667f3bcc908
