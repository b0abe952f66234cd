#version 330
uniform sampler2DArray u_tiles;
in vec2 v_uv;
flat in float v_layer;
out vec4 f_color;

void main() {
    // only the round disc turns; the square corners stay as drawn by the floor
    vec2 r = v_uv - 0.5;
    if (dot(r, r) > 0.2) discard;
    f_color = vec4(texture(u_tiles, vec3(v_uv, v_layer)).rgb * 0.97, 1.0);
}
