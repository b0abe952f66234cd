#version 330
// Tile overlays just above the floor: active rotators' discs turned by the current angle, and the
// theme's start markers (if it has them) on start tiles.
uniform mat4 u_view;
uniform mat4 u_proj;
in vec2 in_corner;   // 0..1
in vec2 i_tile;
in float i_angle;
in float i_layer;
out vec2 v_uv;
flat out float v_layer;

void main() {
    vec2 centred = in_corner - 0.5;
    float c = cos(i_angle), s = sin(i_angle);
    v_uv = vec2(c * centred.x - s * centred.y, s * centred.x + c * centred.y) + 0.5;
    v_layer = i_layer;
    vec3 world = vec3(i_tile.x + in_corner.x, 0.002, i_tile.y + in_corner.y);
    gl_Position = u_proj * u_view * vec4(world, 1.0);
}
