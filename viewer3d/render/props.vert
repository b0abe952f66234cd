#version 330
// Instanced axis-aligned boxes: walls, crates, pusher plates, crusher jaws, goal flags, the board rim.
// Compiled twice: with ANIMATED defined (pusher plates, crusher jaws) each box reads its tile's
// phase from the info texture and slides along i_move; without it (walls etc.) no fetch is paid.
uniform mat4 u_view;
uniform mat4 u_proj;
uniform usampler2D u_info;
uniform float u_wall_scale;  // theme.json "3d".wall_height over the modelled height (walls only)

in vec3 in_pos;      // unit cube corner, -1..1
in vec3 in_normal;
in vec2 in_uv;
in vec3 i_center;
in vec3 i_half;
in vec3 i_color;
in vec3 i_move;      // displacement at full extension
in vec2 i_tile;      // tile whose phase animates this box, (-1, -1) = static
in float i_material; // MATERIAL_*: plain, wall (theme colour), crate, hazard steel, emissive

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
out vec3 v_color;
flat out float v_material;

void main() {
    vec3 offset = vec3(0.0);
#ifdef ANIMATED
    float phase = float(texelFetch(u_info, ivec2(i_tile), 0).a) / 255.0;
    offset = i_move * sin(3.14159265 * phase);
#endif
    vec3 stretch = IS_MATERIAL(i_material, MATERIAL_WALL) ? vec3(1.0, u_wall_scale, 1.0) : vec3(1.0);
    v_world = (i_center + in_pos * i_half) * stretch + offset;
    v_normal = in_normal;
    v_uv = in_uv;
    v_color = i_color;
    v_material = i_material;
    gl_Position = u_proj * u_view * vec4(v_world, 1.0);
}
