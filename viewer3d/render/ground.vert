#version 330
// The ground plane under the board: one quad (see environment.py), GROUND_Y below the floor.
uniform mat4 u_view;
uniform mat4 u_proj;
uniform vec4 u_extent;  // min x, min z, max x, max z
in vec2 in_corner;      // 0..1
out vec2 v_xz;

void main() {
    v_xz = mix(u_extent.xy, u_extent.zw, in_corner);
    gl_Position = u_proj * u_view * vec4(v_xz.x, GROUND_Y, v_xz.y, 1.0);
}
