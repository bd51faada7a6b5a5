#version 460
// Impostor cards in the shadow map: the picture seen from the sun, its stored depth put
// back. A shader that writes depth gets no fixed-function depth bias, so the point is moved
// away from the sun by the receivers' normal offset instead: a card does not shadow itself.
#include "impostor_in.glsl"

void main() {
    vec3 world;
    if (!card_shadow_point(card_in(), world)) {
        discard;
    }
    world -= frame.light_dir.xyz * (2.0 * frame.shadow.z);
    gl_FragDepth = card_depth(frame.light_view_proj, world);
}
