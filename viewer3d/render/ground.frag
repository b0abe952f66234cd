#version 330
// The ground around the board: a soft pool of light fading (fog) into the background colour, the
// board's soft shadow, a vignette towards the screen's corners. A handful of instructions per
// pixel; the pixels the board covers are rejected by the depth test before they get here.
uniform vec2 u_board;         // width, height in tiles
uniform vec2 u_viewport;      // pixels
uniform float u_shadow_reach; // world units
in vec2 v_xz;
out vec4 f_color;

void main() {
    float size = max(u_board.x, u_board.y);
    vec2 centre = u_board * 0.5;
    // the distance from the board's (shifted) footprint, 0 under it: a soft-edged rectangle
    vec2 outside = max(abs(v_xz - centre - SHADOW_OFFSET) - (centre + RIM), vec2(0.0));
    float shade = clamp(1.0 - length(outside) / u_shadow_reach, 0.0, 1.0);
    vec3 ground = GROUND_COLOUR * (1.0 - SHADOW_STRENGTH * shade * shade);
    float fog = smoothstep(FOG_NEAR, FOG_FAR, length(v_xz - centre) / size);
    vec2 screen = gl_FragCoord.xy / u_viewport - 0.5;
    float vignette = max(1.0 - VIGNETTE * dot(screen, screen), 0.0);
    f_color = vec4(BACKGROUND_COLOUR + (ground - BACKGROUND_COLOUR) * (1.0 - fog) * vignette, 1.0);
}
