#version 330
// The ground's colour is worked out per vertex (ground.vert): on llvmpipe every instruction here
// would be paid by every ground pixel on screen.
in vec3 v_colour;
out vec4 f_color;

void main() {
    f_color = vec4(v_colour, 1.0);
}
