// Regression: in g[u32(c && f())], g is a memory view, loaded after the
// index operand is evaluated (WGSL #memory-views; #logical-expr: f runs
// only when c holds). Hand-derived: for x > 0, g = (x, x, x, x), f sets
// g[1] = 77 and returns true, so k returns 77; otherwise k returns x.
// ir.Normalize, lowering the && to an if, bound all of g to a let before
// the if, so the reference itself said x and every path agreed with it
// (naga on the source as written says 77). The module is kept as written,
// with the &&, so the replay goes through that lowering. Found by the
// evaluation-order sweep (issue 12), which compares each program with its
// effectful short-circuits spelled as helper functions.
//
// gpudiff case d2f57114fb18 — pass
// kernel k, 8 invocations; replay: gpudiff repro THIS_FILE

var<private> g: array<i32, 4>;

fn f() -> bool {
  g[1i] = 77i;
  return true;
}

fn k(x: i32) -> i32 {
  g = array<i32, 4>(x, x, x, x);
  let c: bool = x > 0i;
  return g[u32(c && f())];
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
        0,
        0,
        0
      ]
    },
    {
      "ret": 77,
      "g": [
        1,
        77,
        1,
        1
      ]
    },
    {
      "ret": -1,
      "g": [
        -1,
        -1,
        -1,
        -1
      ]
    },
    {
      "ret": -2147483648,
      "g": [
        -2147483648,
        -2147483648,
        -2147483648,
        -2147483648
      ]
    },
    {
      "ret": 77,
      "g": [
        2147483647,
        77,
        2147483647,
        2147483647
      ]
    },
    {
      "ret": 77,
      "g": [
        2,
        77,
        2,
        2
      ]
    },
    {
      "ret": -2,
      "g": [
        -2,
        -2,
        -2,
        -2
      ]
    },
    {
      "ret": -36203,
      "g": [
        -36203,
        -36203,
        -36203,
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
            0,
            0,
            0
          ]
        },
        {
          "ret": 77,
          "g": [
            1,
            77,
            1,
            1
          ]
        },
        {
          "ret": -1,
          "g": [
            -1,
            -1,
            -1,
            -1
          ]
        },
        {
          "ret": -2147483648,
          "g": [
            -2147483648,
            -2147483648,
            -2147483648,
            -2147483648
          ]
        },
        {
          "ret": 77,
          "g": [
            2147483647,
            77,
            2147483647,
            2147483647
          ]
        },
        {
          "ret": 77,
          "g": [
            2,
            77,
            2,
            2
          ]
        },
        {
          "ret": -2,
          "g": [
            -2,
            -2,
            -2,
            -2
          ]
        },
        {
          "ret": -36203,
          "g": [
            -36203,
            -36203,
            -36203,
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
            0,
            0,
            0
          ]
        },
        {
          "ret": 77,
          "g": [
            1,
            77,
            1,
            1
          ]
        },
        {
          "ret": -1,
          "g": [
            -1,
            -1,
            -1,
            -1
          ]
        },
        {
          "ret": -2147483648,
          "g": [
            -2147483648,
            -2147483648,
            -2147483648,
            -2147483648
          ]
        },
        {
          "ret": 77,
          "g": [
            2147483647,
            77,
            2147483647,
            2147483647
          ]
        },
        {
          "ret": 77,
          "g": [
            2,
            77,
            2,
            2
          ]
        },
        {
          "ret": -2,
          "g": [
            -2,
            -2,
            -2,
            -2
          ]
        },
        {
          "ret": -36203,
          "g": [
            -36203,
            -36203,
            -36203,
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
            0,
            0,
            0
          ]
        },
        {
          "ret": 77,
          "g": [
            1,
            77,
            1,
            1
          ]
        },
        {
          "ret": -1,
          "g": [
            -1,
            -1,
            -1,
            -1
          ]
        },
        {
          "ret": -2147483648,
          "g": [
            -2147483648,
            -2147483648,
            -2147483648,
            -2147483648
          ]
        },
        {
          "ret": 77,
          "g": [
            2147483647,
            77,
            2147483647,
            2147483647
          ]
        },
        {
          "ret": 77,
          "g": [
            2,
            77,
            2,
            2
          ]
        },
        {
          "ret": -2,
          "g": [
            -2,
            -2,
            -2,
            -2
          ]
        },
        {
          "ret": -36203,
          "g": [
            -36203,
            -36203,
            -36203,
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
            0,
            0,
            0
          ]
        },
        {
          "ret": 77,
          "g": [
            1,
            77,
            1,
            1
          ]
        },
        {
          "ret": -1,
          "g": [
            -1,
            -1,
            -1,
            -1
          ]
        },
        {
          "ret": -2147483648,
          "g": [
            -2147483648,
            -2147483648,
            -2147483648,
            -2147483648
          ]
        },
        {
          "ret": 77,
          "g": [
            2147483647,
            77,
            2147483647,
            2147483647
          ]
        },
        {
          "ret": 77,
          "g": [
            2,
            77,
            2,
            2
          ]
        },
        {
          "ret": -2,
          "g": [
            -2,
            -2,
            -2,
            -2
          ]
        },
        {
          "ret": -36203,
          "g": [
            -36203,
            -36203,
            -36203,
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
            0,
            0,
            0
          ]
        },
        {
          "ret": 77,
          "g": [
            1,
            77,
            1,
            1
          ]
        },
        {
          "ret": -1,
          "g": [
            -1,
            -1,
            -1,
            -1
          ]
        },
        {
          "ret": -2147483648,
          "g": [
            -2147483648,
            -2147483648,
            -2147483648,
            -2147483648
          ]
        },
        {
          "ret": 77,
          "g": [
            2147483647,
            77,
            2147483647,
            2147483647
          ]
        },
        {
          "ret": 77,
          "g": [
            2,
            77,
            2,
            2
          ]
        },
        {
          "ret": -2,
          "g": [
            -2,
            -2,
            -2,
            -2
          ]
        },
        {
          "ret": -36203,
          "g": [
            -36203,
            -36203,
            -36203,
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
  "hash": "d2f57114fb18ed48ed0701a2560838afe5f2fa467b050603e1ded2496fbb43c7",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
