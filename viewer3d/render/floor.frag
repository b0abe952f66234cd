#version 330
// Per pixel: find the tile, fetch its info texel (layer, edge walls, kind, phase) and sample the
// theme's texture array at the CONTINUOUS world position (textures repeat every tile, so there
// are no mip seams at tile borders). Kept deliberately small: on llvmpipe every instruction here
// is paid by every floor pixel. Holes are discarded here and drawn by the pit pass; active
// rotators by the rotor pass.
uniform usampler2D u_info;        // RGBA8UI per tile: layer, edge walls, kind | dir << 4, phase * 255
uniform sampler2DArray u_tiles;   // theme textures
uniform sampler2D u_trail;        // R8 visit strength per tile (compiled in with TRAIL defined)
uniform vec2 u_board;             // width, height in tiles
uniform vec4 u_robot_shadow;      // x, z, 1 / radius, strength
uniform float u_flat_walls;       // 1 when walls are painted flat (zoomed far out)
uniform vec3 u_wall_color;
uniform float u_goal_pulse;

in vec3 v_world;
out vec4 f_color;

const vec2 DIRECTIONS[4] = DIRECTION_VECTORS;  // KIND_*, MATERIAL_*, DIRECTION_VECTORS: #defines from Python

void main() {
    vec2 xz = v_world.xz;
    vec2 tile = clamp(floor(xz), vec2(0.0), u_board - 1.0);
    uvec4 info = texelFetch(u_info, ivec2(tile), 0);
    uint kind = info.b & KIND_MASK;
    if (kind == KIND_HOLE) discard;
    float phase = float(info.a) * (1.0 / 255.0);
    vec2 scroll = kind == KIND_CONVEYOR ? DIRECTIONS[info.b >> KIND_BITS] * phase : vec2(0.0);
    vec3 color = texture(u_tiles, vec3(xz - scroll, float(info.r))).rgb;
    color += vec3(0.05, 0.22, 0.1) * (kind == KIND_GOAL ? u_goal_pulse : 0.0);

    // Soft contact shadow (baked ambient occlusion) along walled edges, a crate's included (its
    // neighbours carry the walls of the shared edges): read off the info texel already fetched, so
    // no shadow pass and no cost that grows with the board. (1 - k d)^2 falloff (no exp()). The key
    // light comes from +X and a little +Z, so walls on a tile's right and bottom (+X, +Z) edges
    // throw a longer, darker shadow onto it.
    vec2 f = xz - tile;
    uint walls = info.g;
    vec4 edge_distance = vec4(f.x, 1.0 - f.x, f.y, 1.0 - f.y);  // to the left, right, up, down edge
    vec4 has_wall = vec4(float(walls & 1u), float((walls >> 1u) & 1u), float((walls >> 2u) & 1u), float((walls >> 3u) & 1u));
    vec4 falloff = max(vec4(1.0) - edge_distance * vec4(2.5, 1.9, 2.5, 2.2), vec4(0.0));
    vec4 occlusion = has_wall * falloff * falloff * vec4(0.55, 0.62, 0.55, 0.6);
    color *= (1.0 - occlusion.x) * (1.0 - occlusion.y) * (1.0 - occlusion.z) * (1.0 - occlusion.w);
    if (u_flat_walls > 0.5 && any(greaterThan(has_wall * step(edge_distance, vec4(0.12)), vec4(0.0)))) {
        color = u_wall_color;
    }
#ifdef TRAIL
    float visits = texelFetch(u_trail, ivec2(tile), 0).r;
    vec2 inset = min(f, 1.0 - f);
    float inside = clamp((min(inset.x, inset.y) - 0.04) * 16.0, 0.0, 1.0);
    color = mix(color, vec3(0.1, 0.85, 0.25), visits * 0.6 * inside);
#endif
    // the robot's soft blob shadow
    vec2 to_robot = (xz - u_robot_shadow.xy) * u_robot_shadow.z;
    float blob = clamp(1.0 - dot(to_robot, to_robot), 0.0, 1.0);
    color *= 1.0 - u_robot_shadow.w * blob * blob;
    f_color = vec4(color * 0.97, 1.0);
}
