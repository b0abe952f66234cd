#version 330
// The ground around the board (see environment.py): a fixed grid GROUND_Y below the floor, lit per
// vertex (the grid is dense where the shadow's edge is): a soft pool of light fading (fog) into the
// background colour, the board's soft shadow. The screen-space vignette is left to ground.frag.
uniform mat4 u_view;
uniform mat4 u_proj;
uniform vec2 u_board;         // width, height in tiles
uniform float u_shadow_reach; // world units
in vec2 in_xz;
out vec3 v_light;             // the ground's colour minus the background's, before the vignette

void main() {
    gl_Position = u_proj * u_view * vec4(in_xz.x, GROUND_Y, in_xz.y, 1.0);
    float size = max(u_board.x, u_board.y);
    vec2 centre = u_board * 0.5;
    // the distance from the board's (shifted) footprint, 0 under it: a soft-edged rectangle
    vec2 outside = max(abs(in_xz - centre - SHADOW_OFFSET) - (centre + RIM), vec2(0.0));
    float shade = clamp(1.0 - length(outside) / u_shadow_reach, 0.0, 1.0);
    vec3 ground = GROUND_COLOUR * (1.0 - SHADOW_STRENGTH * shade * shade);
    float fog = smoothstep(FOG_NEAR, FOG_FAR, length(in_xz - centre) / size);
    v_light = (ground - BACKGROUND_COLOUR) * (1.0 - fog);
}
