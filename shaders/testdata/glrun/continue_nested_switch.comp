#version 310 es
// findings/compute/mesa_glsl_continue_nested_switch.wgsl as naga writes it:
// a continue two switches deep in a loop with a continuing block. By hand
// (GLSL ES 3.10 §6.4: continue skips to the end of the innermost loop, here
// the loop_init test that runs i = i + 1): n = 1, i = 1, so out = 1 1 7 0.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { int o[4]; };
void main() {
    int n = 0;
    int i = 0;
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            i = i + 1;
        }
        loop_init = false;
        if (i >= 1) {
            break;
        }
        switch(0) {
            case 0: {
                n = n + 1;
                switch(1) {
                    case 1: {
                        continue;
                    }
                    default: {
                        break;
                    }
                }
                break;
            }
            default: {
                break;
            }
        }
    }
    o[0] = n;
    o[1] = i;
    o[2] = 7;
}
