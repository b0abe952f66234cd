#version 330
// A small static mesh (the robot) placed by a model matrix; per-vertex colour and material.
uniform mat4 u_view;
uniform mat4 u_proj;
uniform mat4 u_model;

in vec3 in_pos;
in vec3 in_normal;
in vec2 in_uv;
in vec3 in_color;
in float in_material;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
out vec3 v_color;
flat out float v_material;

void main() {
    vec4 world = u_model * vec4(in_pos, 1.0);
    v_world = world.xyz;
    v_normal = mat3(u_model) * in_normal;
    v_uv = in_uv;
    v_color = in_color;
    v_material = in_material;
    gl_Position = u_proj * u_view * world;
}
