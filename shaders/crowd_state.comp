#version 460
// The crowd's state advanced on the GPU, one invocation per instance, by the rules the CPU
// applies in src/motion/rules (CrowdMotion::advance) and src/anim/instance.rs
// (SkinnedModelInstance::advance), in their order: the clip change the schedule's turn
// brings, the walker's step along its route at its clips' speed, the clocks (loops, clamps,
// the cross-fade's end). Then the instance's record for the frame, read by culling and the
// draws as if the CPU had written it: its place, its baked frames, its clip's bounds. And,
// when its baked frames' error could show from the camera (the CPU's rule, AnimationView::
// needs_exact), it is listed for the CPU, which evaluates its exact palettes for a later
// frame (shaders/crowd_state_exact.comp then points its record at them).
//
// The structs are src/motion/device_layouts.rs's (through crowd_tables.glsl). Float
// operations that the CPU rounds one at a time are `precise` here, so the compiler does not
// fuse them: the clocks then come out bit for bit as the CPU's (additions and
// multiplications round correctly in Vulkan); only divisions and the rings' trigonometry
// differ by an ulp or so.
#include "crowd_tables.glsl"
#include "record.glsl"
#include "renderer_layouts.glsl"

layout(local_size_x = CROWD_STATE_GROUP) in;

layout(std430, set = 0, binding = 0) writeonly buffer Records {
    InstanceRecord records[];
};

layout(std430, set = 0, binding = 1) readonly buffer Walkers {
    Walker walkers[];
};

layout(std430, set = 0, binding = 2) buffer Clocks {
    Clock clocks[];
};

layout(std430, set = 0, binding = 3) readonly buffer Models {
    Model models[];
};

layout(std430, set = 0, binding = 4) readonly buffer Clips {
    Clip clips[];
};

// Every clip's baked frames' times (BakedClip::time_of), clip after clip.
layout(std430, set = 0, binding = 7) readonly buffer FrameTimes {
    float frame_times[];
};

// The camera, as the culling inputs give it (src/gpu/frame/device_layouts.rs, CullFrame).
layout(std430, set = 0, binding = 5) readonly buffer CullFrame {
    CULL_VIEW_FIELDS
} view;

// The instances that need exact palettes, for the CPU (read after the frame): how many there
// were (listed or not) and their palette matrices in each distance band, from which the CPU
// chooses how near a later frame lists (step.near_within), and those listed.
layout(std430, set = 0, binding = 6) buffer NearList {
    uint near_count;
    uint near_pad0;
    uint near_pad1;
    uint near_pad2;
    uint near_instances_in[NEAR_BANDS];
    uint near_matrices_in[NEAR_BANDS];
    NearInstance near[];
};

layout(push_constant) uniform Step {
    CROWD_STEP_FIELDS
} step;

// The distance band of `distance` (NEAR_BANDS in src/gpu/frame/shader_interface.rs says how they
// are spaced; src/gpu/features/crowd_state/state.rs, near_band_start, where each starts).
uint near_band(float distance) {
    float octaves = log2(max(distance, 1e-30)) + float(NEAR_BAND_FIRST_OCTAVE);
    return uint(clamp(floor(octaves * float(NEAR_BANDS_PER_OCTAVE)), 0.0,
                      float(NEAR_BANDS - 1u)));
}

// Rust's f32::rem_euclid for d > 0: exact, as the CPU's, where one wrap is enough (a frame's
// step past either end); within a rounding where more are.
float rem_euclid(float t, float d) {
    precise float r;
    if (t >= d && t < 2.0 * d) {
        r = t - d;
    } else if (t < 0.0 && t >= -d) {
        r = t + d;
    } else {
        r = t - d * floor(t / d);
        if (r < 0.0) {
            r = r + d;
        }
        if (r >= d) {
            r = r - d;
        }
    }
    return r;
}

// The time `t` on clip `clip` (an index into the clip table) brought into the clip: wrapped
// when looping, clamped otherwise; 0 for a clip of no length or a time that is not finite.
float settle(uint clip, float t, bool clamped) {
    float d = clips[clip].duration;
    if (!(d > 0.0) || isinf(t) || isnan(t)) {
        return 0.0;
    }
    if (clamped) {
        return clamp(t, 0.0, d);
    }
    if (t >= 0.0 && t < d) {
        return t;
    }
    return rem_euclid(t, d);
}

// The baked frame before time `t` and the next one's weight, found on the frames' own times
// as the CPU finds them (src/anim/bake.rs, BakedClip::frame_at): the same frame, and the
// same weight where the division rounds correctly.
void baked_frame(Clip k, float t, out uint frame, out float weight) {
    uint n = k.baked_frames - 1u;
    frame = 0u;
    weight = 0.0;
    if (!(k.duration > 0.0) || n == 0u) {
        return;
    }
    float clamped = t > 0.0 ? min(t, k.duration) : 0.0;
    uint f = min(uint(clamped * (float(n) / k.duration)), n - 1u);
    // An estimate: settled on the frames' times (a step or two; bounded all the same).
    for (uint s = 0u; s <= n && f > 0u && clamped < frame_times[k.times_base + f]; ++s) {
        f -= 1u;
    }
    for (uint s = 0u; s <= n && f + 1u < n && clamped >= frame_times[k.times_base + f + 1u]; ++s) {
        f += 1u;
    }
    float t0 = frame_times[k.times_base + f];
    float t1 = frame_times[k.times_base + f + 1u];
    frame = f;
    if (t1 > t0) {
        precise float along = clamped - t0;
        precise float span = t1 - t0;
        weight = clamp(along / span, 0.0, 1.0);
    }
}

// The largest stretch of a transform's linear part (src/crowd/visibility.rs, max_scale).
float max_scale(vec4 rows[3]) {
    vec3 c0 = vec3(rows[0].x, rows[1].x, rows[2].x);
    vec3 c1 = vec3(rows[0].y, rows[1].y, rows[2].y);
    vec3 c2 = vec3(rows[0].z, rows[1].z, rows[2].z);
    return max(length(c0), max(length(c1), length(c2)));
}

// Whether an instance in the world-space sphere (centre, radius) whose baked frames may put a
// vertex `error` world units off needs exact palettes: the error could cover more than the
// allowed pixels where the sphere is nearest the eye, and the sphere may be in view
// (AnimationView::needs_exact).
bool needs_exact(vec3 centre, float radius, float error) {
    if (!(view.shadow.z > 0.0)) {
        return false;
    }
    float reach = error * view.eye.w / view.shadow.z;
    float within = radius + reach;
    vec3 d = view.eye.xyz - centre;
    if (!(reach > view.lod.y) || !(dot(d, d) < within * within)) {
        return false;
    }
    for (int p = 0; p < 6; ++p) {
        if (dot(view.camera_planes[p].xyz, centre) + view.camera_planes[p].w < -radius) {
            return false;
        }
    }
    return true;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= step.count) {
        return;
    }
    Walker w = walkers[i];
    Clock c = clocks[i];
    Model m = models[w.model];
    bool clamped = (w.flags & CROWD_WALKER_CLAMP) != 0u;
    uint clip = c.clips & 0xffffu;
    uint from = c.clips >> 16;

    // 1. The schedule's turn: a cross-fade to the model's next clip, unless a fade is still
    // under way (the CPU defers that turn too).
    bool due = (w.turn + step.count - step.turn) % step.count < step.changes;
    if (due && m.clips >= 2u && !(c.fade_duration > 0.0)) {
        uint next = (clip + 1u) % m.clips;
        if (step.fade > 0.0) {
            from = clip;
            c.from_time = c.time;
            c.fade_elapsed = 0.0;
            c.fade_duration = step.fade;
        }
        clip = next;
        c.time = c.speed >= 0.0 ? 0.0 : clips[m.first_clip + next].duration;
    }

    // 2. The walker's step, at the speed of the clips it shows (blended through a fade), its
    // playback rate and its stride.
    if (step.route != 0u) {
        float now_speed = clips[m.first_clip + clip].walk_speed;
        precise float speed = now_speed;
        if (c.fade_duration > 0.0) {
            float weight = clamp(c.fade_elapsed / c.fade_duration, 0.0, 1.0);
            speed = (1.0 - weight) * clips[m.first_clip + from].walk_speed + weight * now_speed;
        }
        speed = speed * c.speed;
        speed = speed * c.stride;
        if (speed != 0.0) {
            precise float walked = c.distance + speed * step.dt;
            c.distance = walked;
        }
    }

    // 3. The clocks: the fade's, then the faded-from clip's, then the clip playing.
    if (step.dt > 0.0 && !isinf(step.dt)) {
        precise float advance = step.dt * c.speed;
        if (c.fade_duration > 0.0) {
            precise float elapsed = c.fade_elapsed + step.dt;
            c.fade_elapsed = elapsed;
            if (c.fade_elapsed >= c.fade_duration) {
                c.fade_elapsed = 0.0;
                c.fade_duration = 0.0;
            }
        }
        if (c.fade_duration > 0.0) {
            precise float t = c.from_time + advance;
            c.from_time = settle(m.first_clip + from, t, clamped);
        } else {
            from = clip;
            c.from_time = 0.0;
        }
        precise float t = c.time + advance;
        c.time = settle(m.first_clip + clip, t, clamped);
    }
    c.clips = clip | (from << 16);
    clocks[i] = c;

    // 4. Where it stands: its start moved along the route (turned to face along a ring).
    vec4 rows[3] = w.start;
    vec3 origin = vec3(w.start[0].w, w.start[1].w, w.start[2].w);
    if (step.route == CROWD_ROUTE_LANES && c.distance != 0.0) {
        float depth = max(step.route_b, 1.17549435e-38);
        precise float along = origin.z + c.distance - step.route_a;
        precise float z = step.route_a + rem_euclid(along, depth);
        // As the CPU composes it (back to the origin, then out to the new place), rounding
        // for rounding.
        precise float shift = z - origin.z;
        precise float placed = origin.z + shift;
        rows[2].w = placed;
    } else if (step.route == CROWD_ROUTE_RINGS && c.distance != 0.0) {
        float radius = length(origin.xz);
        if (radius >= step.route_a) {
            float angle = atan(origin.z, origin.x) - c.distance / radius;
            // Within one turn before the trigonometry: GPUs' sine and cosine are accurate
            // near zero only.
            angle -= 6.28318530718 * floor(angle / 6.28318530718);
            float cs = cos(angle);
            float sn = sin(angle);
            // Facing along the circle: +Z turned to the tangent (sin, -cos), a turn whose
            // cosine is -cos(angle) and sine sin(angle).
            vec3 l0 = w.start[0].xyz;
            vec3 l2 = w.start[2].xyz;
            rows[0] = vec4(-cs * l0 + sn * l2, radius * cs);
            rows[1].w = origin.y;
            rows[2] = vec4(-sn * l0 - cs * l2, radius * sn);
        }
    }

    // 5. The record, reading the baked frames of both clips of a fade.
    Clip now_clip = clips[m.first_clip + clip];
    Clip from_clip = clips[m.first_clip + from];
    float phase = now_clip.duration > 0.0 ? clamp(c.time / now_clip.duration, 0.0, 1.0) : 0.0;
    InstanceRecord r;
    r.world = rows;
    r.joints = (m.joints & RECORD_JOINTS_MASK)
        | (uint(floor(phase * 65535.0 + 0.5)) << RECORD_PHASE_SHIFT);
    // The walker's flags keep its look where the record keeps it.
    r.model_flags = (w.model & RECORD_MODEL_MASK) | RECORD_BAKED
        | (w.flags & RECORD_LOOK_MASK);
    r.bounds = now_clip.bound | (from_clip.bound << 16);
    uint frame;
    float weight;
    baked_frame(now_clip, c.time, frame, weight);
    r.palette_base = now_clip.baked_base + frame * m.joints;
    r.frame_weight = weight;
    r.fade_base = 0u;
    r.fade_frame_weight = 0.0;
    r.fade = 0.0;
    if (c.fade_duration > 0.0) {
        baked_frame(from_clip, c.from_time, frame, weight);
        r.fade_base = from_clip.baked_base + frame * m.joints;
        r.fade_frame_weight = weight;
        r.fade = 1.0 - clamp(c.fade_elapsed / c.fade_duration, 0.0, 1.0);
    }
    records[w.slot] = r;

    // 6. Near enough for the baked frames' error to show: listed for exact palettes. A fade
    // is tested against a sphere holding both clips' spheres, and the larger error.
    if (step.near_capacity > 0u) {
        float scale = max_scale(rows);
        vec3 a = (vec4(now_clip.sphere.xyz, 1.0) * mat3x4(rows[0], rows[1], rows[2]));
        float ra = now_clip.sphere.w * scale;
        float error = now_clip.baked_error;
        if (from != clip) {
            vec3 b = (vec4(from_clip.sphere.xyz, 1.0) * mat3x4(rows[0], rows[1], rows[2]));
            float rb = from_clip.sphere.w * scale;
            float apart = distance(a, b);
            float r2 = 0.5 * (apart + ra + rb);
            if (r2 > ra && r2 > rb && apart > 0.0) {
                a = a + (b - a) * ((r2 - ra) / apart);
                ra = r2;
            } else {
                ra = max(ra, rb);
            }
            error = max(error, from_clip.baked_error);
        }
        if (needs_exact(a, ra, error * scale)) {
            // Counted by distance, listed only within step.near_within: when more need exact
            // palettes than the list or the palettes' room holds, the nearest are listed (as
            // the CPU path keeps the nearest exact), not the first to get here.
            float distance = max(length(view.eye.xyz - a) - ra, 0.0);
            uint band = near_band(distance);
            atomicAdd(near_instances_in[band], 1u);
            atomicAdd(near_matrices_in[band], m.joints);
            uint k = distance < step.near_within ? atomicAdd(near_count, 1u) : step.near_capacity;
            if (k < step.near_capacity) {
                NearInstance e;
                e.instance = i;
                e.slot = w.slot;
                e.model = w.model;
                e.turn = w.turn;
                e.flags = w.flags;
                e.pad = uint[3](0u, 0u, 0u);
                e.clock = c;
                near[k] = e;
            }
        }
    }
}
