#version 330
uniform float u_pulse;     // 0..1
uniform vec3 u_colour;     // the robot's yellow, a Tron cycle's bot colour
in vec2 v_local;
flat in float v_off_screen;
out vec4 f_color;

void main() {
    float r = length(v_local);
    float width = 0.16;
    float ring = 1.0 - smoothstep(width * 0.5, width * 0.5 + 0.08, abs(r - (0.78 + 0.1 * u_pulse)));
    float alpha = ring * 0.95 * (v_off_screen > 0.5 ? 0.75 : 1.0);  // nothing inside: the robot shows
    if (alpha <= 0.003) discard;
    vec3 color = mix(u_colour, vec3(1.0), 0.25 * ring);
    f_color = vec4(color, alpha);
}
