#version 330
uniform vec3 u_top;
uniform vec3 u_bottom;
in vec2 v_uv;
out vec4 f_color;
void main() {
    float vignette = 1.0 - 0.25 * length(v_uv - vec2(0.5, 0.55));
    f_color = vec4(mix(u_bottom, u_top, v_uv.y) * vignette, 1.0);
}
