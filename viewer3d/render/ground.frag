#version 330
// The ground's light comes per vertex (ground.vert); here only the vignette towards the screen's
// corners, which is screen-space (per vertex it showed the grid as streaks up close). On llvmpipe
// every instruction here is paid by every ground pixel on screen.
uniform vec2 u_viewport;      // pixels
in vec3 v_light;
out vec4 f_color;

void main() {
    vec2 screen = gl_FragCoord.xy / u_viewport - 0.5;
    float vignette = max(1.0 - VIGNETTE * dot(screen, screen), 0.0);
    f_color = vec4(BACKGROUND_COLOUR + v_light * vignette, 1.0);
}
