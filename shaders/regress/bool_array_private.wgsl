// Regression: a private array<bool, 3> crosses the kernel ABI through a u32
// mirror; the emitter's conversion function once read an undefined name,
// which every stack rejected. Found by `gpudiff run --seed 8`.
//
// gpudiff case 8739f37cb4f0 — pass
// kernel kernel, 8 invocations; replay: gpudiff repro THIS_FILE

var<private> g1: array<bool, 3>;

fn kernel(a: bool) -> u32 {
  g1[1u] = a;
  g1[2u] = !a;
  return select(0u, 1u, g1[1u]);
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 8,
  "inputs": {
    "a": [
      false,
      true,
      false,
      true,
      false,
      true,
      false,
      true
    ]
  },
  "reference": [
    {
      "ret": 0,
      "g1": [
        false,
        false,
        true
      ]
    },
    {
      "ret": 1,
      "g1": [
        false,
        true,
        false
      ]
    },
    {
      "ret": 0,
      "g1": [
        false,
        false,
        true
      ]
    },
    {
      "ret": 1,
      "g1": [
        false,
        true,
        false
      ]
    },
    {
      "ret": 0,
      "g1": [
        false,
        false,
        true
      ]
    },
    {
      "ret": 1,
      "g1": [
        false,
        true,
        false
      ]
    },
    {
      "ret": 0,
      "g1": [
        false,
        false,
        true
      ]
    },
    {
      "ret": 1,
      "g1": [
        false,
        true,
        false
      ]
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
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
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
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
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
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
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
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
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
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        },
        {
          "ret": 0,
          "g1": [
            false,
            false,
            true
          ]
        },
        {
          "ret": 1,
          "g1": [
            false,
            true,
            false
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    }
  ],
  "verdict": "pass",
  "hash": "8739f37cb4f02a724c33fc9eee55a71b91f2010875ea22795e56161b8b50d284",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
