#version 330
uniform sampler2DArray u_tiles;
uniform float u_disc;   // 1: a turning rotator disc (opaque, round); 0: a transparent overlay (start marker)
in vec2 v_uv;
flat in float v_layer;
out vec4 f_color;

void main() {
    // only the round disc turns; the square corners stay as drawn by the floor
    vec2 r = v_uv - 0.5;
    if (u_disc > 0.5 && dot(r, r) > 0.2) discard;
    vec4 texel = texture(u_tiles, vec3(v_uv, v_layer));
    f_color = vec4(texel.rgb * 0.97, u_disc > 0.5 ? 1.0 : texel.a);
}
