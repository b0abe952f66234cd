#version 330
// Goal beacons: soft additive light columns (instanced boxes without lighting), standing on the
// floor; u_scale widens them when tiles are tiny on screen so a goal is found on a huge board.
uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_scale;
in vec3 in_pos;
in vec3 i_center;
in vec3 i_half;
out float v_height;
out vec2 v_side;

void main() {
    v_height = in_pos.y * 0.5 + 0.5;
    v_side = in_pos.xz;
    vec3 world = vec3(i_center.x, 0.0, i_center.z) + (in_pos + vec3(0.0, 1.0, 0.0)) * i_half * u_scale;
    gl_Position = u_proj * u_view * vec4(world, 1.0);
}
