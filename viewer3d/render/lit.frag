#version 330
// Shared surface shading for props and the robot: key light + sky/ground ambient, bevelled
// face edges, a little contact darkening near the floor, and (with PATTERNS defined: crates,
// hazard stripes) procedural materials. Plain walls, the bulk of the boxes, skip that code.
uniform vec3 u_wall_color;
uniform float u_alpha;
uniform vec3 u_emissive_boost;
uniform float u_light;            // theme.json "3d".light: strength of the key light
#ifdef PATTERNS
uniform sampler2DArray u_tiles;   // theme pictures: crate faces show wall-p, the robot's head its picture
uniform float u_crate_layer;
uniform float u_robot_layer;
#endif

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
in vec3 v_color;
flat in float v_material;
out vec4 f_color;

const vec3 LIGHT = normalize(vec3(0.45, 0.85, 0.3));

void main() {
    vec3 n = normalize(v_normal);
    vec3 base = IS_MATERIAL(v_material, MATERIAL_WALL) ? u_wall_color : v_color;
#ifdef PATTERNS
    if (IS_MATERIAL(v_material, MATERIAL_CRATE)) {  // crate: the theme's wall-p picture on every face
        base = texture(u_tiles, vec3(v_uv.x, 1.0 - v_uv.y, u_crate_layer)).rgb * 0.8;  // lit like paint, not glare
    } else if (IS_MATERIAL(v_material, MATERIAL_DECAL)) {  // decal: the robot picture, top row towards the robot's front
        vec4 picture = texture(u_tiles, vec3(v_uv, u_robot_layer));
        if (picture.a < 0.5 || u_robot_layer < 0.0) discard;
        base = picture.rgb;
    } else if (IS_MATERIAL(v_material, MATERIAL_HAZARD)) {  // hazard stripes on steel
        float stripe = step(0.5, fract((v_world.x + v_world.y + v_world.z) * 4.0));
        base = mix(vec3(0.95, 0.75, 0.12), vec3(0.12, 0.12, 0.12), stripe);
    }
#endif
    if (IS_MATERIAL(v_material, MATERIAL_EMISSIVE)) {
        f_color = vec4(base + u_emissive_boost, u_alpha);
        return;
    }
    float diffuse = max(dot(n, LIGHT), 0.0) * u_light;
    float sky = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.22, 0.2, 0.2), vec3(0.42, 0.45, 0.52), sky);
    vec2 e = min(v_uv, 1.0 - v_uv);
    float bevel = 0.8 + 0.2 * clamp(min(e.x, e.y) * 16.0, 0.0, 1.0);
    float contact = 0.55 + 0.45 * clamp((v_world.y + 0.02) * 4.2, 0.0, 1.0);
    vec3 color = base * (ambient + diffuse * vec3(0.85, 0.82, 0.76)) * bevel * contact;
    f_color = vec4(color + u_emissive_boost * 0.35, u_alpha);
}
