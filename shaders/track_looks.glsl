// The looks the playback on the GPU dresses its walkers in (src/motion/locomotion.rs,
// Locomotion::step): a look is an index in the walker's flags, and a colouring takes the
// ramp's step of the value it shows (src/motion/coloring.rs, ColorBy::step).
#ifndef THRONG_TRACK_LOOKS_GLSL
#define THRONG_TRACK_LOOKS_GLSL

// ColorBy::step: the ramp's step of `value` with `top` at the ramp's red end.
uint color_step(float value, float top) {
    float x = clamp(value / top, 0.0, 1.0);
    if (isnan(x)) {
        return 0u;
    }
    uint last = TRACK_RAMP_STEPS - 1u;
    return min(uint(floor(x * float(last) + 0.5)), last);
}

void wear(inout Walker w, uint look) {
    w.flags = (w.flags & ~RECORD_LOOK_MASK) | (look << RECORD_LOOK_SHIFT);
}

#endif
