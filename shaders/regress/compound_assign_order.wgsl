// Regression: WGSL expands `g ^= h()` to `g = g ^ (h())`, evaluated left to
// right (#compound-assignment-sec, #program-order), so g is read before h
// writes it. naga 0.19.2 (wgpu 0.19.4) reads g after the call; gpudiff's
// portable mode spells the expansion out. Found by `gpudiff run --seed 1`
// (class stack, gpudiff's SPIR-V agreeing); Dawn/Tint agrees with WGSL.
//
// gpudiff case a10c87678612 — pass
// kernel kernel, 8 invocations; replay: gpudiff repro THIS_FILE

var<private> g1: i32 = 3i;

fn h3() -> i32 {
  g1 = 0i;
  return 1i;
}

fn kernel(p: i32) -> i32 {
  g1 ^= h3() + p;
  return g1;
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 8,
  "inputs": {
    "p": [
      0,
      1,
      -1,
      -2147483648,
      2147483647,
      2,
      -2,
      -36203
    ]
  },
  "reference": [
    {
      "ret": 2,
      "g1": 2
    },
    {
      "ret": 1,
      "g1": 1
    },
    {
      "ret": 3,
      "g1": 3
    },
    {
      "ret": -2147483646,
      "g1": -2147483646
    },
    {
      "ret": -2147483645,
      "g1": -2147483645
    },
    {
      "ret": 0,
      "g1": 0
    },
    {
      "ret": -4,
      "g1": -4
    },
    {
      "ret": -36203,
      "g1": -36203
    }
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "kernel_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        {
          "ret": 2,
          "g1": 2
        },
        {
          "ret": 1,
          "g1": 1
        },
        {
          "ret": 3,
          "g1": 3
        },
        {
          "ret": -2147483646,
          "g1": -2147483646
        },
        {
          "ret": -2147483645,
          "g1": -2147483645
        },
        {
          "ret": 0,
          "g1": 0
        },
        {
          "ret": -4,
          "g1": -4
        },
        {
          "ret": -36203,
          "g1": -36203
        }
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
        {
          "ret": 2,
          "g1": 2
        },
        {
          "ret": 1,
          "g1": 1
        },
        {
          "ret": 3,
          "g1": 3
        },
        {
          "ret": -2147483646,
          "g1": -2147483646
        },
        {
          "ret": -2147483645,
          "g1": -2147483645
        },
        {
          "ret": 0,
          "g1": 0
        },
        {
          "ret": -4,
          "g1": -4
        },
        {
          "ret": -36203,
          "g1": -36203
        }
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
        {
          "ret": 2,
          "g1": 2
        },
        {
          "ret": 1,
          "g1": 1
        },
        {
          "ret": 3,
          "g1": 3
        },
        {
          "ret": -2147483646,
          "g1": -2147483646
        },
        {
          "ret": -2147483645,
          "g1": -2147483645
        },
        {
          "ret": 0,
          "g1": 0
        },
        {
          "ret": -4,
          "g1": -4
        },
        {
          "ret": -36203,
          "g1": -36203
        }
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
        {
          "ret": 2,
          "g1": 2
        },
        {
          "ret": 1,
          "g1": 1
        },
        {
          "ret": 3,
          "g1": 3
        },
        {
          "ret": -2147483646,
          "g1": -2147483646
        },
        {
          "ret": -2147483645,
          "g1": -2147483645
        },
        {
          "ret": 0,
          "g1": 0
        },
        {
          "ret": -4,
          "g1": -4
        },
        {
          "ret": -36203,
          "g1": -36203
        }
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
        {
          "ret": 2,
          "g1": 2
        },
        {
          "ret": 1,
          "g1": 1
        },
        {
          "ret": 3,
          "g1": 3
        },
        {
          "ret": -2147483646,
          "g1": -2147483646
        },
        {
          "ret": -2147483645,
          "g1": -2147483645
        },
        {
          "ret": 0,
          "g1": 0
        },
        {
          "ret": -4,
          "g1": -4
        },
        {
          "ret": -36203,
          "g1": -36203
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    }
  ],
  "verdict": "pass",
  "hash": "a10c87678612caee25d85cc98ea794d28bfb38a0717d085117009815a1315871",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
