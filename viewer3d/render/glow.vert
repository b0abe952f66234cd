#version 330
// Goal beacons: soft additive light columns (instanced boxes without lighting).
uniform mat4 u_view;
uniform mat4 u_proj;
in vec3 in_pos;
in vec3 i_center;
in vec3 i_half;
out float v_height;
out vec2 v_side;

void main() {
    v_height = in_pos.y * 0.5 + 0.5;
    v_side = in_pos.xz;
    gl_Position = u_proj * u_view * vec4(i_center + in_pos * i_half, 1.0);
}
