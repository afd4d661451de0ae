// Regression: a multi-component swizzle is a value, not a memory view (WGSL
// #vector-multi-component), so g.yyy is loaded before h() runs (operands
// left to right, #program-order): k returns x (g = (x, x, x) at the load),
// not the 5 that h stores. flatten once treated g.yyy as a reference chain
// and loaded it after the inlined h; the twin returned 5. Found by `gpudiff
// run --seed 11 --profile loops --size 50 --no-gpu` (issue 12). Dawn/Tint
// gets the original wrong: findings/tint_swizzle_value_after_call.wgsl.
//
// gpudiff case d38c0d118048 — pass
// kernel k, 8 invocations; replay: gpudiff repro THIS_FILE

var<private> g: vec3<i32>;

fn h() -> u32 {
  g.y = 5i;
  return 0u;
}

fn k(x: i32) -> i32 {
  g = vec3<i32>(x);
  return g.yyy[h()];
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "k",
  "invocations": 8,
  "inputs": {
    "x": [
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
      "ret": 0,
      "g": [
        0,
        5,
        0
      ]
    },
    {
      "ret": 1,
      "g": [
        1,
        5,
        1
      ]
    },
    {
      "ret": -1,
      "g": [
        -1,
        5,
        -1
      ]
    },
    {
      "ret": -2147483648,
      "g": [
        -2147483648,
        5,
        -2147483648
      ]
    },
    {
      "ret": 2147483647,
      "g": [
        2147483647,
        5,
        2147483647
      ]
    },
    {
      "ret": 2,
      "g": [
        2,
        5,
        2
      ]
    },
    {
      "ret": -2,
      "g": [
        -2,
        5,
        -2
      ]
    },
    {
      "ret": -36203,
      "g": [
        -36203,
        5,
        -36203
      ]
    }
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "k_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        {
          "ret": 0,
          "g": [
            0,
            5,
            0
          ]
        },
        {
          "ret": 1,
          "g": [
            1,
            5,
            1
          ]
        },
        {
          "ret": -1,
          "g": [
            -1,
            5,
            -1
          ]
        },
        {
          "ret": -2147483648,
          "g": [
            -2147483648,
            5,
            -2147483648
          ]
        },
        {
          "ret": 2147483647,
          "g": [
            2147483647,
            5,
            2147483647
          ]
        },
        {
          "ret": 2,
          "g": [
            2,
            5,
            2
          ]
        },
        {
          "ret": -2,
          "g": [
            -2,
            5,
            -2
          ]
        },
        {
          "ret": -36203,
          "g": [
            -36203,
            5,
            -36203
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "k",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        {
          "ret": 0,
          "g": [
            0,
            5,
            0
          ]
        },
        {
          "ret": 1,
          "g": [
            1,
            5,
            1
          ]
        },
        {
          "ret": -1,
          "g": [
            -1,
            5,
            -1
          ]
        },
        {
          "ret": -2147483648,
          "g": [
            -2147483648,
            5,
            -2147483648
          ]
        },
        {
          "ret": 2147483647,
          "g": [
            2147483647,
            5,
            2147483647
          ]
        },
        {
          "ret": 2,
          "g": [
            2,
            5,
            2
          ]
        },
        {
          "ret": -2,
          "g": [
            -2,
            5,
            -2
          ]
        },
        {
          "ret": -36203,
          "g": [
            -36203,
            5,
            -36203
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "k",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        {
          "ret": 0,
          "g": [
            0,
            5,
            0
          ]
        },
        {
          "ret": 1,
          "g": [
            1,
            5,
            1
          ]
        },
        {
          "ret": -1,
          "g": [
            -1,
            5,
            -1
          ]
        },
        {
          "ret": -2147483648,
          "g": [
            -2147483648,
            5,
            -2147483648
          ]
        },
        {
          "ret": 2147483647,
          "g": [
            2147483647,
            5,
            2147483647
          ]
        },
        {
          "ret": 2,
          "g": [
            2,
            5,
            2
          ]
        },
        {
          "ret": -2,
          "g": [
            -2,
            5,
            -2
          ]
        },
        {
          "ret": -36203,
          "g": [
            -36203,
            5,
            -36203
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "k_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        {
          "ret": 0,
          "g": [
            0,
            5,
            0
          ]
        },
        {
          "ret": 1,
          "g": [
            1,
            5,
            1
          ]
        },
        {
          "ret": -1,
          "g": [
            -1,
            5,
            -1
          ]
        },
        {
          "ret": -2147483648,
          "g": [
            -2147483648,
            5,
            -2147483648
          ]
        },
        {
          "ret": 2147483647,
          "g": [
            2147483647,
            5,
            2147483647
          ]
        },
        {
          "ret": 2,
          "g": [
            2,
            5,
            2
          ]
        },
        {
          "ret": -2,
          "g": [
            -2,
            5,
            -2
          ]
        },
        {
          "ret": -36203,
          "g": [
            -36203,
            5,
            -36203
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "k_flat",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        {
          "ret": 0,
          "g": [
            0,
            5,
            0
          ]
        },
        {
          "ret": 1,
          "g": [
            1,
            5,
            1
          ]
        },
        {
          "ret": -1,
          "g": [
            -1,
            5,
            -1
          ]
        },
        {
          "ret": -2147483648,
          "g": [
            -2147483648,
            5,
            -2147483648
          ]
        },
        {
          "ret": 2147483647,
          "g": [
            2147483647,
            5,
            2147483647
          ]
        },
        {
          "ret": 2,
          "g": [
            2,
            5,
            2
          ]
        },
        {
          "ret": -2,
          "g": [
            -2,
            5,
            -2
          ]
        },
        {
          "ret": -36203,
          "g": [
            -36203,
            5,
            -36203
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    }
  ],
  "verdict": "pass",
  "hash": "d38c0d118048b40e8a08be6fcecdcda034565d9023d8bde66b5d0703bca64dfd",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
