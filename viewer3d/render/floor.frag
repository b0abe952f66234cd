#version 330
// Per pixel: find the tile, fetch its info texel (layer, walls, kind, phase), sample the theme's
// texture array with continuous gradients (no mip seams at tile borders), animate belts and
// rotators, look into holes (ray cast against the pit's walls, with a real depth), add wall
// ambient occlusion, the robot's blob shadow and the visit trail. Cost is O(pixels).
uniform usampler2D u_info;        // RGBA8UI per tile: layer, edge walls, kind | dir << 4, phase * 255
uniform sampler2DArray u_tiles;   // theme textures
uniform sampler2D u_trail;        // R8 visit strength per tile
uniform float u_trail_on;
uniform vec2 u_board;             // width, height in tiles
uniform mat4 u_view;
uniform mat4 u_proj;
uniform vec3 u_eye;
uniform vec3 u_forward;
uniform float u_ortho;
uniform vec4 u_robot_shadow;      // x, z, radius, strength
uniform float u_flat_walls;       // 1 when walls are painted flat (zoomed far out)
uniform vec3 u_wall_color;
uniform float u_time;

in vec3 v_world;
out vec4 f_color;

const float PIT_DEPTH = 1.6;
const vec3 LIGHT = normalize(vec3(0.45, 0.85, 0.3));

vec2 dir_vec(uint d) {
    if (d == 0u) return vec2(-1.0, 0.0);
    if (d == 1u) return vec2(1.0, 0.0);
    if (d == 2u) return vec2(0.0, -1.0);
    return vec2(0.0, 1.0);
}

vec3 pit(vec2 tile, vec3 dir, out vec3 hit) {
    vec3 p = v_world;
    float t_bottom = -PIT_DEPTH / min(dir.y, -1e-4);
    float t_x = dir.x > 0.0 ? (tile.x + 1.0 - p.x) / dir.x : (dir.x < 0.0 ? (tile.x - p.x) / dir.x : 1e9);
    float t_z = dir.z > 0.0 ? (tile.y + 1.0 - p.z) / dir.z : (dir.z < 0.0 ? (tile.y - p.z) / dir.z : 1e9);
    float t = min(t_bottom, min(t_x, t_z));
    hit = p + dir * t;
    float depth_fade = exp(hit.y * 1.8);
    vec3 shaft;
    if (t == t_bottom) {
        shaft = vec3(0.03, 0.03, 0.04);
    } else {
        float lit = t == t_x ? (dir.x > 0.0 ? 0.55 : 0.85) : (dir.z > 0.0 ? 0.65 : 0.75);
        vec2 brick = t == t_x ? hit.zy : hit.xy;
        float seam = step(0.92, fract(brick.y * 5.0)) + step(0.95, fract(brick.x * 3.0 + floor(brick.y * 5.0) * 0.5));
        shaft = vec3(0.36, 0.33, 0.31) * lit * (1.0 - 0.35 * min(seam, 1.0));
    }
    return shaft * depth_fade;
}

void main() {
    vec2 xz = v_world.xz;
    ivec2 tile = ivec2(clamp(floor(xz), vec2(0.0), u_board - 1.0));
    uvec4 info = texelFetch(u_info, tile, 0);
    uint kind = info.b & 15u;
    uint dir = info.b >> 4u;
    float phase = float(info.a) / 255.0;
    vec2 f = xz - vec2(tile);
    vec2 gx = dFdx(xz);
    vec2 gy = dFdy(xz);
    float depth = gl_FragCoord.z;
    vec3 color;

    if (kind == 1u) {  // hole
        vec3 ray = u_ortho > 0.5 ? u_forward : normalize(v_world - u_eye);
        vec3 hit;
        color = pit(vec2(tile), ray, hit);
        vec4 clip = u_proj * u_view * vec4(hit, 1.0);
        depth = clamp(clip.z / clip.w * 0.5 + 0.5, 0.0, 1.0);
        // a thin steel lip around the opening
        float edge = min(min(f.x, 1.0 - f.x), min(f.y, 1.0 - f.y));
        color = mix(vec3(0.55, 0.56, 0.6), color, smoothstep(0.0, 0.035, edge));
    } else {
        vec2 uv = f;
        if (kind == 2u) {  // conveyor: the belt pattern runs along its direction while it acts
            uv = f - dir_vec(dir) * phase;
        } else if (kind == 3u || kind == 4u) {  // rotators spin a quarter turn while they act
            float angle = (kind == 3u ? 1.0 : -1.0) * phase * 1.5707963;
            float c = cos(angle), s = sin(angle);
            vec2 r = f - 0.5;
            uv = vec2(c * r.x - s * r.y, s * r.x + c * r.y) + 0.5;
        }
        color = textureGrad(u_tiles, vec3(fract(uv), float(info.r)), gx, gy).rgb;
        if (kind == 7u) {  // goal: a slow pulse
            color += vec3(0.05, 0.22, 0.1) * (0.5 + 0.5 * sin(u_time * 3.0));
        }
        if (kind == 8u) {  // oil: a glossy highlight moving with the view
            vec3 ray = u_ortho > 0.5 ? u_forward : normalize(v_world - u_eye);
            float spec = pow(max(dot(reflect(ray, vec3(0.0, 1.0, 0.0)), LIGHT), 0.0), 24.0);
            color += spec * 0.35 * step(length(color), 0.35);
        }
        // contact shadow (ambient occlusion) along walled edges
        uint walls = info.g;
        float ao = 1.0;
        if ((walls & 1u) != 0u) ao *= 1.0 - 0.45 * exp(-f.x * 9.0);
        if ((walls & 2u) != 0u) ao *= 1.0 - 0.45 * exp(-(1.0 - f.x) * 9.0);
        if ((walls & 4u) != 0u) ao *= 1.0 - 0.45 * exp(-f.y * 9.0);
        if ((walls & 8u) != 0u) ao *= 1.0 - 0.45 * exp(-(1.0 - f.y) * 9.0);
        color *= ao;
        if (u_flat_walls > 0.5) {
            float band = 0.12;
            bool on_wall = ((walls & 1u) != 0u && f.x < band) || ((walls & 2u) != 0u && f.x > 1.0 - band)
                || ((walls & 4u) != 0u && f.y < band) || ((walls & 8u) != 0u && f.y > 1.0 - band);
            if (on_wall) color = u_wall_color;
        }
        if (u_trail_on > 0.5) {
            float visits = texelFetch(u_trail, tile, 0).r;
            vec2 inset = min(f, 1.0 - f);
            float inside = smoothstep(0.04, 0.1, min(inset.x, inset.y));
            color = mix(color, vec3(0.1, 0.85, 0.25), clamp(visits, 0.0, 1.0) * 0.6 * inside);
        }
        // the robot's soft blob shadow
        float d = length(xz - u_robot_shadow.xy) / max(u_robot_shadow.z, 1e-3);
        color *= 1.0 - u_robot_shadow.w * (1.0 - smoothstep(0.45, 1.0, d));
    }
    gl_FragDepth = depth;
    // gentle key light on the flat floor plus a cool ambient
    color *= 0.82 + 0.18 * LIGHT.y;
    f_color = vec4(pow(color, vec3(0.95)), 1.0);
}
