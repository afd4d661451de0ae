// Regression: WGSL evaluates an assignment's reference, index operands left
// to right, before the right-hand side, then stores (#simple-assignment-
// section, #program-order). In a[gi][h()] = x, gi is read before h sets it
// to 1: a[0][0] = x, so k returns x * 10 (hand-derived; naga on the source as
// written, lavapipe and SwiftShader, agrees). flatten bound a global index
// operand of the reference only when the right-hand side had a call, not
// when a later index operand of the same reference did: the twin stored
// into a[1][0] and returned x. Found by the evaluation-order sweep (issue 12).
//
// gpudiff case 9c195ff1a0b7 — pass
// kernel k, 8 invocations; replay: gpudiff repro THIS_FILE

var<private> gi: i32;
var<private> a: array<array<i32, 2>, 2>;

fn h() -> i32 {
  gi = 1i;
  return 0i;
}

fn k(x: i32) -> i32 {
  gi = 0i;
  a = array<array<i32, 2>, 2>(array<i32, 2>(0i, 0i), array<i32, 2>(0i, 0i));
  a[gi][h()] = x;
  return a[0i][0i] * 10i + a[1i][0i];
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
      "gi": 1,
      "a": [
        [
          0,
          0
        ],
        [
          0,
          0
        ]
      ]
    },
    {
      "ret": 10,
      "gi": 1,
      "a": [
        [
          1,
          0
        ],
        [
          0,
          0
        ]
      ]
    },
    {
      "ret": -10,
      "gi": 1,
      "a": [
        [
          -1,
          0
        ],
        [
          0,
          0
        ]
      ]
    },
    {
      "ret": 0,
      "gi": 1,
      "a": [
        [
          -2147483648,
          0
        ],
        [
          0,
          0
        ]
      ]
    },
    {
      "ret": -10,
      "gi": 1,
      "a": [
        [
          2147483647,
          0
        ],
        [
          0,
          0
        ]
      ]
    },
    {
      "ret": 20,
      "gi": 1,
      "a": [
        [
          2,
          0
        ],
        [
          0,
          0
        ]
      ]
    },
    {
      "ret": -20,
      "gi": 1,
      "a": [
        [
          -2,
          0
        ],
        [
          0,
          0
        ]
      ]
    },
    {
      "ret": -362030,
      "gi": 1,
      "a": [
        [
          -36203,
          0
        ],
        [
          0,
          0
        ]
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
          "gi": 1,
          "a": [
            [
              0,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 10,
          "gi": 1,
          "a": [
            [
              1,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -10,
          "gi": 1,
          "a": [
            [
              -1,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 0,
          "gi": 1,
          "a": [
            [
              -2147483648,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -10,
          "gi": 1,
          "a": [
            [
              2147483647,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 20,
          "gi": 1,
          "a": [
            [
              2,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -20,
          "gi": 1,
          "a": [
            [
              -2,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -362030,
          "gi": 1,
          "a": [
            [
              -36203,
              0
            ],
            [
              0,
              0
            ]
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
          "gi": 1,
          "a": [
            [
              0,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 10,
          "gi": 1,
          "a": [
            [
              1,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -10,
          "gi": 1,
          "a": [
            [
              -1,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 0,
          "gi": 1,
          "a": [
            [
              -2147483648,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -10,
          "gi": 1,
          "a": [
            [
              2147483647,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 20,
          "gi": 1,
          "a": [
            [
              2,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -20,
          "gi": 1,
          "a": [
            [
              -2,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -362030,
          "gi": 1,
          "a": [
            [
              -36203,
              0
            ],
            [
              0,
              0
            ]
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
          "gi": 1,
          "a": [
            [
              0,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 10,
          "gi": 1,
          "a": [
            [
              1,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -10,
          "gi": 1,
          "a": [
            [
              -1,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 0,
          "gi": 1,
          "a": [
            [
              -2147483648,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -10,
          "gi": 1,
          "a": [
            [
              2147483647,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 20,
          "gi": 1,
          "a": [
            [
              2,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -20,
          "gi": 1,
          "a": [
            [
              -2,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -362030,
          "gi": 1,
          "a": [
            [
              -36203,
              0
            ],
            [
              0,
              0
            ]
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
          "gi": 1,
          "a": [
            [
              0,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 10,
          "gi": 1,
          "a": [
            [
              1,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -10,
          "gi": 1,
          "a": [
            [
              -1,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 0,
          "gi": 1,
          "a": [
            [
              -2147483648,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -10,
          "gi": 1,
          "a": [
            [
              2147483647,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 20,
          "gi": 1,
          "a": [
            [
              2,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -20,
          "gi": 1,
          "a": [
            [
              -2,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -362030,
          "gi": 1,
          "a": [
            [
              -36203,
              0
            ],
            [
              0,
              0
            ]
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
          "gi": 1,
          "a": [
            [
              0,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 10,
          "gi": 1,
          "a": [
            [
              1,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -10,
          "gi": 1,
          "a": [
            [
              -1,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 0,
          "gi": 1,
          "a": [
            [
              -2147483648,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -10,
          "gi": 1,
          "a": [
            [
              2147483647,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": 20,
          "gi": 1,
          "a": [
            [
              2,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -20,
          "gi": 1,
          "a": [
            [
              -2,
              0
            ],
            [
              0,
              0
            ]
          ]
        },
        {
          "ret": -362030,
          "gi": 1,
          "a": [
            [
              -36203,
              0
            ],
            [
              0,
              0
            ]
          ]
        }
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    }
  ],
  "verdict": "pass",
  "hash": "9c195ff1a0b740d33cb85b780c4f1947825db4afec3b03d066c2f8510db571b7",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
