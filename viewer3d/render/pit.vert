#version 330
// One instanced quad over each hole tile, at floor level; the fragment shader looks down the shaft.
uniform mat4 u_view;
uniform mat4 u_proj;
in vec2 in_corner;   // 0..1
in vec2 i_tile;
out vec3 v_world;
flat out vec2 v_tile;

void main() {
    v_tile = i_tile;
    v_world = vec3(i_tile.x + in_corner.x, 0.0, i_tile.y + in_corner.y);
    gl_Position = u_proj * u_view * vec4(v_world, 1.0);
}
