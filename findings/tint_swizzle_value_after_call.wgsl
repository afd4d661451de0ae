// gpudiff case d38c0d118048 — mismatch (vendor on dawn-vulkan:swiftshader)
// vendor divergence, compiler: dawn's WGSL compiler (Tint) is implicated — wgpu-vulkan:swiftshader runs their own translation of the same WGSL correctly on the same driver (vulkan:swiftshader)
// kernel k, 4 invocations; replay: gpudiff repro THIS_FILE

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
  "invocations": 4,
  "inputs": {
    "x": [
      0,
      1,
      -1,
      7
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
      "ret": 7,
      "g": [
        7,
        5,
        7
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
          "ret": 7,
          "g": [
            7,
            5,
            7
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
          "ret": 7,
          "g": [
            7,
            5,
            7
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
          "ret": 7,
          "g": [
            7,
            5,
            7
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
          "ret": 7,
          "g": [
            7,
            5,
            7
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:swiftshader",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:swiftshader",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:swiftshader",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:swiftshader",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "dawn-vulkan:swiftshader",
      "function": "k",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        {
          "ret": 5,
          "g": [
            0,
            5,
            0
          ]
        },
        {
          "ret": 5,
          "g": [
            1,
            5,
            1
          ]
        },
        {
          "ret": 5,
          "g": [
            -1,
            5,
            -1
          ]
        },
        {
          "ret": 5,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [
        0,
        1,
        2,
        3
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "dawn-vulkan:swiftshader",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "dawn-gl:llvmpipe",
      "function": "k",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        {
          "ret": 5,
          "g": [
            0,
            5,
            0
          ]
        },
        {
          "ret": 5,
          "g": [
            1,
            5,
            1
          ]
        },
        {
          "ret": 5,
          "g": [
            -1,
            5,
            -1
          ]
        },
        {
          "ret": 5,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [
        0,
        1,
        2,
        3
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "dawn-gl:llvmpipe",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "dawn-gles:llvmpipe",
      "function": "k",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        {
          "ret": 5,
          "g": [
            0,
            5,
            0
          ]
        },
        {
          "ret": 5,
          "g": [
            1,
            5,
            1
          ]
        },
        {
          "ret": 5,
          "g": [
            -1,
            5,
            -1
          ]
        },
        {
          "ret": 5,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [
        0,
        1,
        2,
        3
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "dawn-gles:llvmpipe",
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
          "ret": 7,
          "g": [
            7,
            5,
            7
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    }
  ],
  "verdict": "mismatch",
  "findings": [
    {
      "class": "vendor",
      "adapter": "dawn-vulkan:swiftshader",
      "runs": [
        "dawn-vulkan:swiftshader k wgsl"
      ],
      "implicates": "vendor divergence, compiler: dawn's WGSL compiler (Tint) is implicated — wgpu-vulkan:swiftshader runs their own translation of the same WGSL correctly on the same driver (vulkan:swiftshader)",
      "invocations": [
        0,
        1,
        2,
        3
      ]
    },
    {
      "class": "vendor",
      "adapter": "dawn-gl:llvmpipe",
      "runs": [
        "dawn-gl:llvmpipe k wgsl"
      ],
      "implicates": "vendor divergence, compiler: dawn's WGSL compiler (Tint) is implicated — wgpu-gl:llvmpipe runs their own translation of the same WGSL correctly on the same driver (gl:llvmpipe)",
      "invocations": [
        0,
        1,
        2,
        3
      ]
    },
    {
      "class": "vendor",
      "adapter": "dawn-gles:llvmpipe",
      "runs": [
        "dawn-gles:llvmpipe k wgsl"
      ],
      "implicates": "vendor divergence, compiler: dawn's WGSL compiler (Tint) is implicated — wgpu-gl:llvmpipe runs their own translation of the same WGSL correctly on the same driver (gl:llvmpipe)",
      "invocations": [
        0,
        1,
        2,
        3
      ]
    }
  ],
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
