#version 330
// A hole is a pit you can see into: cast the view ray from the opening against the shaft's walls
// (adjacent holes share one shaft) and its floor, shade what it hits (darker with depth) and
// write that point's depth, so a robot falling in is drawn inside the shaft, behind its near wall.
uniform mat4 u_view;
uniform mat4 u_proj;
uniform vec3 u_eye;
uniform vec3 u_forward;
uniform float u_ortho;
uniform usampler2D u_info;
uniform vec2 u_board;
uniform sampler2DArray u_tiles;  // the theme's hole picture is the pit's floor and its rim
uniform float u_hole_layer;
in vec3 v_world;
flat in vec2 v_tile;
out vec4 f_color;

const float PIT_DEPTH = 1.6;

bool is_hole(vec2 tile) {
    if (any(lessThan(tile, vec2(0.0))) || any(greaterThanEqual(tile, u_board))) return false;
    return (texelFetch(u_info, ivec2(tile), 0).b & KIND_MASK) == KIND_HOLE;
}

void main() {
    vec3 dir = u_ortho > 0.5 ? u_forward : normalize(v_world - u_eye);
    vec3 p = v_world;
    vec2 tile = v_tile;
    float t_bottom = -PIT_DEPTH / min(dir.y, -1e-4);
    // Walk the ray through neighbouring holes (one shaft for a group of holes, no walls between
    // them) until it meets a wall or the bottom.
    float t = t_bottom;
    bool side_x = false;
    bool wall = false;
    for (int step = 0; step < 8; ++step) {
        float t_x = dir.x > 0.0 ? (tile.x + 1.0 - p.x) / dir.x : (dir.x < 0.0 ? (tile.x - p.x) / dir.x : 1e9);
        float t_z = dir.z > 0.0 ? (tile.y + 1.0 - p.z) / dir.z : (dir.z < 0.0 ? (tile.y - p.z) / dir.z : 1e9);
        float t_side = min(t_x, t_z);
        if (t_side >= t_bottom) break;
        side_x = t_x < t_z;
        vec2 next = tile + (side_x ? vec2(sign(dir.x), 0.0) : vec2(0.0, sign(dir.z)));
        if (!is_hole(next)) {
            t = t_side;
            wall = true;
            break;
        }
        tile = next;
    }
    vec3 hit = p + dir * t;
    vec3 color;
    if (!wall) {
        color = texture(u_tiles, vec3(hit.xz, u_hole_layer)).rgb * 0.55;  // the picture, in the shaft's shade
    } else {
        float lit = side_x ? (dir.x > 0.0 ? 0.55 : 0.85) : (dir.z > 0.0 ? 0.65 : 0.75);
        vec2 brick = side_x ? hit.zy : hit.xy;
        float seam = step(0.92, fract(brick.y * 5.0)) + step(0.95, fract(brick.x * 3.0 + floor(brick.y * 5.0) * 0.5));
        color = vec3(0.36, 0.33, 0.31) * lit * (1.0 - 0.35 * min(seam, 1.0));
        color *= exp(hit.y * 1.8);
    }
    // a thin steel lip where the opening meets solid floor
    vec2 f = p.xz - v_tile;
    float lip = 1.0;
    if (!is_hole(v_tile + vec2(-1.0, 0.0))) lip = min(lip, f.x);
    if (!is_hole(v_tile + vec2(1.0, 0.0))) lip = min(lip, 1.0 - f.x);
    if (!is_hole(v_tile + vec2(0.0, -1.0))) lip = min(lip, f.y);
    if (!is_hole(v_tile + vec2(0.0, 1.0))) lip = min(lip, 1.0 - f.y);
    vec3 rim = texture(u_tiles, vec3(p.xz, u_hole_layer)).rgb;  // the picture's outer band, at floor level
    color = mix(rim, color, smoothstep(0.19, 0.21, lip));
    vec4 clip = u_proj * u_view * vec4(hit, 1.0);
    gl_FragDepth = clamp(clip.z / clip.w * 0.5 + 0.5, 0.0, 1.0);
    f_color = vec4(color, 1.0);
}
