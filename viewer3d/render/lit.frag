#version 330
// Shared surface shading for props and the robot: key light + sky/ground ambient, bevelled
// face edges, a little contact darkening near the floor, and (with PATTERNS defined: crates,
// hazard stripes) procedural materials. Plain walls, the bulk of the boxes, skip that code.
uniform vec3 u_wall_color;
uniform float u_alpha;
uniform vec3 u_emissive_boost;

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
in vec3 v_color;
flat in float v_material;
out vec4 f_color;

const vec3 LIGHT = normalize(vec3(0.45, 0.85, 0.3));

void main() {
    vec3 n = normalize(v_normal);
    vec3 base = v_material > 0.5 && v_material < 1.5 ? u_wall_color : v_color;
#ifdef PATTERNS
    if (v_material > 1.5 && v_material < 2.5) {  // crate: planks and a frame
        vec2 e = min(v_uv, 1.0 - v_uv);
        float frame = step(min(e.x, e.y), 0.1);
        float diagonal = step(abs(v_uv.x - v_uv.y), 0.06) * (1.0 - frame);
        float plank = step(0.93, fract(v_uv.y * 4.0)) * (1.0 - frame);
        base = mix(base, base * 0.62, max(plank, 0.0));
        base = mix(base, base * 1.25, max(frame, diagonal));
    } else if (v_material > 2.5 && v_material < 3.5) {  // hazard stripes on steel
        float stripe = step(0.5, fract((v_world.x + v_world.y + v_world.z) * 4.0));
        base = mix(vec3(0.95, 0.75, 0.12), vec3(0.12, 0.12, 0.12), stripe);
    }
#endif
    if (v_material > 3.5) {
        f_color = vec4(base + u_emissive_boost, u_alpha);
        return;
    }
    float diffuse = max(dot(n, LIGHT), 0.0);
    float sky = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.22, 0.2, 0.2), vec3(0.42, 0.45, 0.52), sky);
    vec2 e = min(v_uv, 1.0 - v_uv);
    float bevel = 0.8 + 0.2 * clamp(min(e.x, e.y) * 16.0, 0.0, 1.0);
    float contact = 0.55 + 0.45 * clamp((v_world.y + 0.02) * 4.2, 0.0, 1.0);
    vec3 color = base * (ambient + diffuse * vec3(0.85, 0.82, 0.76)) * bevel * contact;
    f_color = vec4(color + u_emissive_boost * 0.35, u_alpha);
}
