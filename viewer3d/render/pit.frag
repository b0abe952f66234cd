#version 330
// A hole is a pit you can see into: cast the view ray from the opening against the shaft's four
// walls and its floor, shade what it hits (darker with depth) and write that point's depth, so a
// robot falling in is drawn inside the shaft and hidden by its near wall.
uniform mat4 u_view;
uniform mat4 u_proj;
uniform vec3 u_eye;
uniform vec3 u_forward;
uniform float u_ortho;
in vec3 v_world;
flat in vec2 v_tile;
out vec4 f_color;

const float PIT_DEPTH = 1.6;

void main() {
    vec3 dir = u_ortho > 0.5 ? u_forward : normalize(v_world - u_eye);
    vec3 p = v_world;
    vec2 tile = v_tile;
    float t_bottom = -PIT_DEPTH / min(dir.y, -1e-4);
    float t_x = dir.x > 0.0 ? (tile.x + 1.0 - p.x) / dir.x : (dir.x < 0.0 ? (tile.x - p.x) / dir.x : 1e9);
    float t_z = dir.z > 0.0 ? (tile.y + 1.0 - p.z) / dir.z : (dir.z < 0.0 ? (tile.y - p.z) / dir.z : 1e9);
    float t = min(t_bottom, min(t_x, t_z));
    vec3 hit = p + dir * t;
    vec3 color;
    if (t == t_bottom) {
        color = vec3(0.03, 0.03, 0.04);
    } else {
        float lit = t == t_x ? (dir.x > 0.0 ? 0.55 : 0.85) : (dir.z > 0.0 ? 0.65 : 0.75);
        vec2 brick = t == t_x ? hit.zy : hit.xy;
        float seam = step(0.92, fract(brick.y * 5.0)) + step(0.95, fract(brick.x * 3.0 + floor(brick.y * 5.0) * 0.5));
        color = vec3(0.36, 0.33, 0.31) * lit * (1.0 - 0.35 * min(seam, 1.0));
    }
    color *= exp(hit.y * 1.8);
    vec2 f = p.xz - tile;
    float edge = min(min(f.x, 1.0 - f.x), min(f.y, 1.0 - f.y));
    color = mix(vec3(0.55, 0.56, 0.6), color, smoothstep(0.0, 0.035, edge));
    vec4 clip = u_proj * u_view * vec4(hit, 1.0);
    gl_FragDepth = clamp(clip.z / clip.w * 0.5 + 0.5, 0.0, 1.0);
    f_color = vec4(color, 1.0);
}
