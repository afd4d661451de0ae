// gpudiff case (raw mode: WGSL's operators as written reach the stack; the
// runs recorded below are from deno-gl, dawn-gl and deno-vulkan on Mesa 22)
// naga's GLSL backend writes WGSL's i32 `/` and `%` as GLSL's own
// operators, whose results GLSL leaves undefined for a zero divisor, for
// INT_MIN / -1 and (`%`) for negative operands (GLSL ES 3.20 §5.9): on
// llvmpipe GL, through naga 29.0.3 (deno-gl) and naga 0.19.2 (wgpu-gl),
// Mesa 22 and Mesa 25 alike, 7 / 0, INT_MIN / -1, -7 % 2 and -8 % 35
// come out wrong. Tint (dawn-gl) and naga's SPIR-V writer (naga 29 on
// Vulkan) polyfill them. gfx-rs/wgpu#9687 (merged 2026-06-16, after naga
// 29) rewrites signed `%` as a - b * (a / b); the zero and overflow
// divisors are not covered by it. Found by harness/dawn's
// TestIntegerSemanticsFollowWGSL on deno-gl:llvmpipe; see
// findings/README.md.
// Each invocation i divides a = in[i].x by b = in[i].y (WGSL §8.7,
// "Arithmetic Expressions", by hand):
//   i = 0: 7, 0: a / 0 = a = 7; a % 0 = 0
//   i = 1: INT_MIN, -1: INT_MIN / -1 = INT_MIN; INT_MIN % -1 = 0
//   i = 2: -7, 2: truncate(-3.5) = -3; -7 - 2 * -3 = -1
//   i = 3: -8, 35: truncate(-0.23) = 0; -8 - 35 * 0 = -8
// so out = [7, 0, -2147483648, 0, -3, -1, 0, -8].
@group(0) @binding(0) var<storage, read> inp: array<vec2<i32>, 4>;
@group(0) @binding(1) var<storage, read_write> out: array<i32, 8>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let a = inp[i].x;
  let b = inp[i].y;
  out[2u * i] = a / b;
  out[2u * i + 1u] = a % b;
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "main",
  "invocations": 1,
  "workgroups": [
    1,
    1,
    1
  ],
  "inputs": {
    "inp": [
      [
        7,
        0
      ],
      [
        -2147483648,
        -1
      ],
      [
        -7,
        2
      ],
      [
        -8,
        35
      ]
    ],
    "out": [
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0
    ]
  },
  "reference": [
    {
      "out": [
        7,
        0,
        -2147483648,
        0,
        -3,
        -1,
        0,
        -8
      ]
    }
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "main_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        {
          "out": [
            7,
            0,
            -2147483648,
            0,
            -3,
            -1,
            0,
            -8
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "dawn-gl:llvmpipe",
      "function": "main",
      "format": "wgsl",
      "mode": "raw",
      "outputs": [
        {
          "out": [
            7,
            0,
            -2147483648,
            0,
            -3,
            -1,
            0,
            -8
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "deno-vulkan:llvmpipe",
      "function": "main",
      "format": "wgsl",
      "mode": "raw",
      "outputs": [
        {
          "out": [
            7,
            0,
            -2147483648,
            0,
            -3,
            -1,
            0,
            -8
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "deno-gl:llvmpipe",
      "function": "main",
      "format": "wgsl",
      "mode": "raw",
      "outputs": [
        {
          "out": [
            0,
            -1,
            -2147483648,
            -2147483648,
            -3,
            1,
            0,
            3
          ]
        }
      ],
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "dawn-gl:llvmpipe",
      "function": "main_flat",
      "format": "wgsl",
      "mode": "raw",
      "outputs": [
        {
          "out": [
            7,
            0,
            -2147483648,
            0,
            -3,
            -1,
            0,
            -8
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "deno-vulkan:llvmpipe",
      "function": "main_flat",
      "format": "wgsl",
      "mode": "raw",
      "outputs": [
        {
          "out": [
            7,
            0,
            -2147483648,
            0,
            -3,
            -1,
            0,
            -8
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "deno-gl:llvmpipe",
      "function": "main_flat",
      "format": "wgsl",
      "mode": "raw",
      "outputs": [
        {
          "out": [
            0,
            -1,
            -2147483648,
            -2147483648,
            -3,
            1,
            0,
            3
          ]
        }
      ],
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
      "error": ""
    }
  ],
  "verdict": "mismatch",
  "findings": [
    {
      "class": "vendor",
      "adapter": "deno-gl:llvmpipe",
      "runs": [
        "deno-gl:llvmpipe main wgsl"
      ],
      "implicates": "vendor divergence, compiler: deno's WGSL compiler (deno's compiler) is implicated — dawn-gl:llvmpipe runs their own translation of the same WGSL correctly on the same driver (gl:llvmpipe)",
      "invocations": [
        0
      ]
    }
  ],
  "hash": "26fab0f3f8e24d13e0916ce30e0abf6fbdf8fca92b942625db25b2de6d5ce17d",
  "mode": "raw",
  "flat": true,
  "spirv": false,
  "tool": {
    "version": "devel+93f81ba26f2e 2026-12-01T20:38:25Z (modified)",
    "go": "go1.26.8"
  },
  "drivers": [
    {
      "adapter": "dawn-gl:llvmpipe",
      "driver": "Mesa",
      "driver_version": "22.3.6",
      "driver_info": "OpenGL version 4.5 (Core Profile) Mesa 22.3.6",
      "implementation": "dawn",
      "implementation_version": "webgpu 0.6.2 (dawn.node)"
    },
    {
      "adapter": "deno-gl:llvmpipe",
      "driver": "Mesa",
      "driver_version": "22.3.6",
      "driver_info": "OpenGL ES 3.2 Mesa 22.3.6",
      "implementation": "deno",
      "implementation_version": "deno 2.9.6 (wgpu-core 29.0.1, naga 29.0.3)"
    },
    {
      "adapter": "deno-vulkan:llvmpipe",
      "driver": "llvmpipe",
      "driver_version": "22.3.6",
      "driver_info": "Mesa 22.3.6 (LLVM 15.0.6)",
      "conformance_version": "1.3.1.1",
      "implementation": "deno",
      "implementation_version": "deno 2.9.6 (wgpu-core 29.0.1, naga 29.0.3)"
    }
  ]
}
*/
