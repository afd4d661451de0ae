#version 310 es
// The control of continue_nested_switch.comp: the same loop with the
// continue one switch deep. out = 1 1 7 0 by the same reading.
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
                continue;
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
