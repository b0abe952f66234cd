#version 330
// The robot locator: a screen-space ring of a fixed size in pixels around the robot, so it is
// found at every zoom. Off screen, the ring is held at the nearest screen edge (pointing the way).
uniform mat4 u_view;
uniform mat4 u_proj;
uniform vec3 u_center;     // world position of the robot
uniform vec2 u_viewport;   // pixels
uniform float u_radius;    // pixels
in vec2 in_corner;         // 0..1
out vec2 v_local;          // -1..1 across the ring's square
flat out float v_off_screen;

void main() {
    vec4 clip = u_proj * u_view * vec4(u_center, 1.0);
    vec2 ndc = clip.xy / max(abs(clip.w), 1e-6) * sign(clip.w);
    vec2 margin = vec2(1.0) - 2.0 * (u_radius + 4.0) / u_viewport;
    vec2 held = clamp(ndc, -margin, margin);
    v_off_screen = clip.w <= 0.0 || any(notEqual(held, ndc)) ? 1.0 : 0.0;
    v_local = in_corner * 2.0 - 1.0;
    vec2 offset = v_local * u_radius * 2.0 / u_viewport;
    gl_Position = vec4(held + offset, 0.0, 1.0);
}
