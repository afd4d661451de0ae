// Regression: naga 0.19.2 (wgpu 0.19.4) rejects a run-time index into an
// array *value* ("The expression may only be indexed by a constant"), which
// WGSL allows (#array-access-expr). Found by `gpudiff run --seed 1` as a
// compile-error on every adapter; the WGSL emitter now indexes array values
// through a helper that copies them into a function-scope var.
//
// gpudiff case edc48ecfabe4 — pass
// kernel kernel, 8 invocations; replay: gpudiff repro THIS_FILE

struct S0 {
  f1: u32,
}

fn kernel(p1: vec4<u32>) -> u32 {
  var v1: S0 = array<S0, 3>(S0(1u), S0(2u), S0(3u))[min(p1[0u], 2u)];
  return v1.f1;
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 8,
  "inputs": {
    "p1": [
      [
        0,
        1,
        4294967295,
        2147483648
      ],
      [
        1,
        4294967295,
        2147483648,
        2
      ],
      [
        4294967295,
        2147483648,
        2,
        0
      ],
      [
        2147483648,
        2,
        0,
        1
      ],
      [
        2,
        0,
        1,
        4294967295
      ],
      [
        0,
        1,
        4294967295,
        2147483648
      ],
      [
        1,
        4294967295,
        2147483648,
        2
      ],
      [
        14666,
        11,
        16,
        30
      ]
    ]
  },
  "reference": [
    1,
    2,
    3,
    3,
    3,
    1,
    2,
    3
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "kernel_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        1,
        2,
        3,
        3,
        3,
        1,
        2,
        3
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        1,
        2,
        3,
        3,
        3,
        1,
        2,
        3
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        1,
        2,
        3,
        3,
        3,
        1,
        2,
        3
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        1,
        2,
        3,
        3,
        3,
        1,
        2,
        3
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel_flat",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        1,
        2,
        3,
        3,
        3,
        1,
        2,
        3
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    }
  ],
  "verdict": "pass",
  "hash": "edc48ecfabe4e5c4c9c076aa2ec4a87a0fd3388033eb4101b6a5ebd93227848d",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
