#version 460
// The playback on the GPU, one invocation per slot of the pool: the rules src/motion/playback.rs
// (Playback::enter, Playback::move_members) applies on the CPU, from the samples of the
// slot's ring (src/motion/track_path.rs reads a path the same way): hidden outside its
// pedestrian's first and last sample; on entering, the gait of its speed, facing where it
// goes, somewhere in its clip; then every frame the gait from its smoothed speed (with the
// thresholds' hysteresis, cross-fading), the heading turned towards its velocity at a bounded
// rate, its place on the smoothed path (turned about the planted foot), the clip's rate from
// the planted foot's slide (src/motion/gait.rs, src/scene/stance.rs), and its colour step.
// It writes the walker's place and look and the clock's clip and rate, which
// shaders/crowd_state.comp then advances and records. Positions are metres from the
// playback's origin and times seconds after its epoch, in single precision (the CPU works in
// double): the two agree within a millimetre and a few microseconds of clip time.
#include "crowd_tables.glsl"
#include "record.glsl"
#include "track.glsl"
#include "track_looks.glsl"

layout(local_size_x = TRACK_GROUP) in;

layout(std430, set = 0, binding = 0) buffer Tracks {
    Track tracks[];
};

layout(std430, set = 0, binding = 1) readonly buffer Samples {
    Sample samples[];
};

layout(std430, set = 0, binding = 2) readonly buffer GaitTable {
    Gaits gaits[];
};

// Per profile: duration, bins, then per bin the planted foot's backward speed, its x, its z
// (x >= 1e38: none planted), then the travel at each bin's start and the cycle's end.
layout(std430, set = 0, binding = 3) readonly buffer Stances {
    float stances[];
};

layout(std430, set = 0, binding = 4) buffer Walkers {
    Walker walkers[];
};

layout(std430, set = 0, binding = 5) buffer Clocks {
    Clock clocks[];
};

layout(std430, set = 0, binding = 6) readonly buffer Models {
    Model models[];
};

layout(std430, set = 0, binding = 7) readonly buffer Clips {
    Clip clips[];
};

layout(push_constant) uniform Step {
    TRACK_STEP_FIELDS
} step;

const float PI = 3.14159265358979;
const float TAU = 6.28318530717959;

// The slot's ring: samples lo..hi-1 (by index; the place is index modulo the ring).
uint ring_base;
uint ring_lo;
uint ring_hi;

Sample sample_at(uint k) {
    return samples[ring_base + k % step.ring];
}

vec2 at_of(Sample s) {
    return vec2(s.position[0], s.position[1]);
}

// The first sample held later than `t` (ring_hi when none).
uint first_after(float t) {
    uint a = ring_lo;
    uint b = ring_hi;
    while (a < b) {
        uint m = (a + b) / 2u;
        if (sample_at(m).time <= t) {
            a = m + 1u;
        } else {
            b = m;
        }
    }
    return a;
}

// TrackPath::position: linear between samples, held before the first and after the last.
vec2 position_at(float t) {
    if (ring_hi == ring_lo) {
        return vec2(0.0);
    }
    Sample first = sample_at(ring_lo);
    if (ring_hi - ring_lo == 1u || !(t > first.time)) {
        return at_of(first);
    }
    Sample last = sample_at(ring_hi - 1u);
    if (t >= last.time) {
        return at_of(last);
    }
    uint k = first_after(t);
    Sample a = sample_at(k - 1u);
    Sample b = sample_at(k);
    float f = (t - a.time) / (b.time - a.time);
    return at_of(a) + (at_of(b) - at_of(a)) * f;
}

// TrackPath::smoothed: the centred moving average over `window` seconds (shrunk to fit the
// track), never further than max_departure from the file's position. The integral counts the
// samples held only, as the CPU's; it is taken about the exact point, so single precision
// keeps millimetres.
vec2 smoothed(float t, float window, float start, float end) {
    vec2 exact = position_at(t);
    float h = max(min(min(0.5 * window, t - start), end - t), 0.0);
    if (!(h > 1e-9) || ring_hi - ring_lo < 2u) {
        return exact;
    }
    float from = max(t - h, sample_at(ring_lo).time);
    float to = min(t + h, sample_at(ring_hi - 1u).time);
    vec2 area = vec2(0.0);
    float covered = 0.0;
    if (to > from) {
        for (uint k = max(first_after(from), ring_lo + 1u); k < ring_hi; ++k) {
            Sample s0 = sample_at(k - 1u);
            Sample s1 = sample_at(k);
            float u0 = max(s0.time, from);
            float u1 = min(s1.time, to);
            if (u1 > u0) {
                float span = s1.time - s0.time;
                vec2 d = at_of(s1) - at_of(s0);
                vec2 p0 = at_of(s0) - exact + d * ((u0 - s0.time) / span);
                vec2 p1 = at_of(s0) - exact + d * ((u1 - s0.time) / span);
                area += (u1 - u0) * 0.5 * (p0 + p1);
                covered += u1 - u0;
            }
            if (s1.time >= to) {
                break;
            }
        }
    }
    vec2 off = (exact * (covered - 2.0 * h) + area) / (2.0 * h);
    float d = length(off);
    return d > step.max_departure ? exact + off * (step.max_departure / d) : exact + off;
}

// TrackPath::velocity: the file's positions' difference across the window (at least
// min_velocity_half_window each side), one-sided at the track's ends.
vec2 velocity(float t, float window, float start, float end) {
    float h = max(0.5 * window, step.min_velocity_half_window);
    float a = max(t - h, start);
    float b = min(t + h, end);
    if (!(b - a > 1e-9)) {
        return vec2(0.0);
    }
    return (position_at(b) - position_at(a)) / (b - a);
}

// GaitSpeeds::next and GaitSpeeds::first.
uint next_gait(uint from, float speed, bool can_run) {
    uint g = from;
    if (from == 0u) {
        if (speed > step.run_above) {
            g = 2u;
        } else if (speed > step.walk_above) {
            g = 1u;
        }
    } else if (from == 1u) {
        if (speed < step.stand_below) {
            g = 0u;
        } else if (speed > step.run_above) {
            g = 2u;
        }
    } else {
        if (speed < step.stand_below) {
            g = 0u;
        } else if (speed < step.walk_below) {
            g = 1u;
        }
    }
    return g == 2u && !can_run ? 1u : g;
}

uint first_gait(float speed, bool can_run) {
    if (speed > 0.5 * (step.run_above + step.walk_below) && can_run) {
        return 2u;
    }
    return speed > 0.5 * (step.walk_above + step.stand_below) ? 1u : 0u;
}

// Stance profiles (src/scene/stance.rs): the bin of a clip time, wrapped to the clip.
uint stance_bins(uint b) {
    return uint(stances[b + 1u]);
}

uint stance_bin(uint b, float time) {
    uint bins = stance_bins(b);
    float x = time / stances[b];
    float phase = x - floor(x);
    return min(uint(max(phase, 0.0) * float(bins)), bins - 1u);
}

// StanceProfile::at (0 where no foot is planted: the rate ignores it).
float stance_speed(uint b, float time) {
    return stances[b + 2u + stance_bin(b, time)];
}

// StanceProfile::planted_foot; x >= 1e38 where none is.
vec2 planted_foot(uint b, float time) {
    uint bins = stance_bins(b);
    uint k = stance_bin(b, time);
    return vec2(stances[b + 2u + bins + k], stances[b + 2u + 2u * bins + k]);
}

// StanceProfile::travelled.
float travelled(uint b, float time) {
    float duration = stances[b];
    uint bins = stance_bins(b);
    uint tr = b + 2u + 3u * bins;
    float cycle = stances[tr + bins];
    float cycles = floor(time / duration);
    float within = (time - cycles * duration) / duration * float(bins);
    uint k = min(uint(max(floor(within), 0.0)), bins - 1u);
    float f = within - float(k);
    return cycles * cycle + stances[tr + k] + f * (stances[tr + k + 1u] - stances[tr + k]);
}

// StanceProfile::time_after; false for a profile that travels nowhere.
bool time_after(uint b, float time, float distance, out float later) {
    later = 0.0;
    if (b == TRACK_NONE) {
        return false;
    }
    float duration = stances[b];
    uint bins = stance_bins(b);
    uint tr = b + 2u + 3u * bins;
    float cycle = stances[tr + bins];
    if (!(cycle > 0.0) || isinf(time) || isnan(time) || isinf(distance) || isnan(distance)) {
        return false;
    }
    float target = travelled(b, time) + max(distance, 0.0);
    float cycles = floor(target / cycle);
    float rest = target - cycles * cycle;
    uint lo = 0u;
    uint hi = bins + 1u;
    while (lo < hi) {
        uint m = (lo + hi) / 2u;
        if (stances[tr + m] <= rest) {
            lo = m + 1u;
        } else {
            hi = m;
        }
    }
    uint k = clamp(lo, 1u, bins) - 1u;
    float span = stances[tr + k + 1u] - stances[tr + k];
    float f = span > 0.0 ? clamp((rest - stances[tr + k]) / span, 0.0, 1.0) : 0.0;
    later = cycles * duration + (float(k) + f) * duration / float(bins);
    return true;
}

// GaitClips::steady_rate, GaitClips::rate and GaitClips::step_rate.
float steady_rate(Gaits g, uint gait, float speed, float scale) {
    float stride = g.strides[gait] * scale;
    if (gait == 0u) {
        return g.frozen_stand != 0u ? 0.0 : 1.0;
    }
    return stride > 1e-6 ? min(speed / stride, step.max_rate) : 1.0;
}

float rate_at(Gaits g, uint gait, float speed, float scale, float time) {
    float stride = g.strides[gait] * scale;
    if (gait == 0u) {
        return g.frozen_stand != 0u ? 0.0 : 1.0;
    }
    if (!(stride > 1e-6)) {
        return 1.0;
    }
    float steady = speed / stride;
    float rate = steady;
    uint b = g.stances[gait];
    if (b != TRACK_NONE) {
        float back = stance_speed(b, time);
        if (back * scale > 1e-6) {
            rate = clamp(speed / (back * scale), 0.25 * steady, 3.0 * steady);
        }
    }
    return min(rate, step.max_rate);
}

float step_rate(Gaits g, uint gait, float distance, float speed, float scale, float time) {
    if (gait == 0u || !(step.dt > 0.0) || !(scale > 0.0)) {
        return rate_at(g, gait, speed, scale, time);
    }
    float steady = steady_rate(g, gait, speed, scale);
    float later;
    if (!time_after(g.stances[gait], time, distance / scale, later)) {
        return rate_at(g, gait, speed, scale, time);
    }
    return min(clamp((later - time) / step.dt, 0.25 * steady, 3.0 * steady), step.max_rate);
}

// src/motion/heading.rs.
float wrap_angle(float a) {
    float r = a - TAU * floor(a / TAU);
    if (r >= TAU) {
        r -= TAU;
    }
    return r > PI ? r - TAU : r;
}

float turn_towards(float heading, float target, float rate, float dt) {
    float most = max(rate * dt, 0.0);
    float diff = wrap_angle(target - heading);
    return wrap_angle(heading + clamp(diff, -most, most));
}

float heading_of(vec2 v) {
    return atan(v.x, -v.y);
}

vec2 rotate(vec2 v, float angle) {
    float c = cos(angle);
    float s = sin(angle);
    return vec2(c * v.x - s * v.y, s * v.x + c * v.y);
}

// src/motion/pivot.rs, pivoted: the root swung about the planted foot through the turn
// from `was` to `now`; what is left fades and stays within max_pivot.
vec2 pivoted(vec2 offset, float was, float now, vec2 foot, float scale) {
    offset *= exp(-step.pivot_fade * step.dt);
    if (foot.x < 1e38) {
        vec2 local = vec2(foot.x, -foot.y) * scale;
        vec2 from_foot = -rotate(local, was);
        offset += rotate(from_foot, wrap_angle(now - was)) - from_foot;
    }
    float d = length(offset);
    return d > step.max_pivot ? offset * (step.max_pivot / d) : offset;
}

// Playback::world: at `p` (file plane), facing `heading`, scaled, stood by `standing`.
void world_rows(vec2 p, float heading, float scale, vec4 standing[3], out vec4 rows[3]) {
    float c = cos(heading);
    float s = sin(heading);
    vec4 a[3] = vec4[3](vec4(c * scale, 0.0, s * scale, p.x),
                        vec4(0.0, scale, 0.0, 0.0),
                        vec4(-s * scale, 0.0, c * scale, -p.y));
    for (int r = 0; r < 3; ++r) {
        rows[r] = a[r].x * standing[0] + a[r].y * standing[1] + a[r].z * standing[2]
            + vec4(0.0, 0.0, 0.0, a[r].w);
    }
}

void main() {
    uint s = gl_GlobalInvocationID.x;
    if (s >= step.count) {
        return;
    }
    uint i = step.base + s;
    Track tr = tracks[s];
    Walker w = walkers[i];
    float t = step.time;
    if ((tr.flags & TRACK_OCCUPIED) == 0u || !(t >= tr.start) || !(t <= tr.end)) {
        // Nobody here now: a transform of no size, which culling skips.
        tr.flags &= ~TRACK_ENTERED;
        tracks[s] = tr;
        walkers[i].start = vec4[3](vec4(0.0), vec4(0.0), vec4(0.0));
        return;
    }
    ring_base = s * step.ring;
    ring_hi = tr.head;
    ring_lo = tr.head > step.ring ? tr.head - step.ring : 0u;
    Gaits g = gaits[w.model];
    Model m = models[w.model];
    Clock c = clocks[i];
    bool can_run = g.can_run != 0u;
    float window = step.window;

    if ((tr.flags & TRACK_ENTERED) == 0u) {
        // Playback::enter.
        vec2 v = velocity(t, window, tr.start, tr.end);
        float speed = length(v);
        vec2 ahead = velocity(t + 0.5 * step.entry_window, step.entry_window, tr.start, tr.end);
        if (length(ahead) < 1e-6) {
            ahead = v;
        }
        tr.heading = length(ahead) > 1e-6 ? heading_of(ahead) : 0.0;
        tr.gait = first_gait(speed, can_run);
        tr.speed = speed;
        tr.position = smoothed(t, window, tr.start, tr.end);
        tr.pivot = vec2(0.0);
        tr.step = TRACK_NO_STEP;
        uint clip = g.clips[tr.gait];
        float duration = clips[m.first_clip + clip].duration;
        float time = tr.phase * duration;
        c.clips = clip | (clip << 16);
        c.time = time;
        c.from_time = 0.0;
        c.fade_elapsed = 0.0;
        c.fade_duration = 0.0;
        c.speed = rate_at(g, tr.gait, speed, tr.scale, time);
        c.distance = 0.0;
        c.stride = 1.0;
        wear(w, tr.look);
        tr.flags |= TRACK_ENTERED;
    }

    // Playback::move_members.
    vec2 v = velocity(t, window, tr.start, tr.end);
    float speed = length(v);
    uint gait = next_gait(tr.gait, speed, can_run);
    if (gait != tr.gait) {
        uint clip = g.clips[gait];
        play_clip(c, clip, clips[m.first_clip + clip].duration, step.fade);
    }
    float heading = tr.heading;
    if (gait != 0u && speed > 1e-6) {
        heading = turn_towards(tr.heading, heading_of(v), step.turn_rate, step.dt);
    }
    vec2 position = smoothed(t, window, tr.start, tr.end);
    vec2 pivot = vec2(0.0);
    if (window > 0.0) {
        uint b = g.stances[gait];
        vec2 foot = b == TRACK_NONE ? vec2(3.0e38) : planted_foot(b, c.time);
        pivot = pivoted(tr.pivot, tr.heading, heading, foot, tr.scale);
    }
    world_rows(position + pivot, heading, tr.scale, g.standing, w.start);
    vec2 forward = vec2(sin(heading), -cos(heading));
    float distance = max(dot(position - tr.position, forward), 0.0);
    c.speed = gait == tr.gait ? step_rate(g, gait, distance, speed, tr.scale, c.time)
                              : rate_at(g, gait, speed, tr.scale, c.time);
    // Coloured by density, shaders/track_density.comp dresses everyone once all are placed.
    if (step.color_top > 0.0 && step.density_buckets == 0u) {
        uint want = color_step(speed, step.color_top);
        if (want != tr.step && want < g.ramp_len) {
            wear(w, g.ramp[want]);
            tr.step = want;
        }
    }
    tr.gait = gait;
    tr.heading = heading;
    tr.speed = speed;
    tr.position = position;
    tr.pivot = pivot;
    tracks[s] = tr;
    walkers[i] = w;
    clocks[i] = c;
}
