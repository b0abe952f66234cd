#version 330
uniform vec3 u_glow_color;
uniform float u_time;
in float v_height;
in vec2 v_side;
out vec4 f_color;

void main() {
    float core = 1.0 - smoothstep(0.2, 1.0, max(abs(v_side.x), abs(v_side.y)));
    float fade = (1.0 - v_height) * (1.0 - v_height);
    float pulse = 0.75 + 0.25 * sin(u_time * 3.0 - v_height * 6.0);
    f_color = vec4(u_glow_color * fade * pulse * (0.35 + 0.65 * core) * 0.55, 1.0);
}
