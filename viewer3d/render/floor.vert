#version 330
// The whole board floor is ONE quad; the fragment shader looks each pixel's tile up.
uniform mat4 u_view;
uniform mat4 u_proj;
in vec2 in_xz;
out vec3 v_world;

void main() {
    v_world = vec3(in_xz.x, 0.0, in_xz.y);
    gl_Position = u_proj * u_view * vec4(v_world, 1.0);
}
