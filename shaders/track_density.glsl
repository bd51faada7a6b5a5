// Colouring by density on the GPU (src/motion/coloring.rs, DensityGrid): pedestrians are
// listed by cells as wide as the radius their neighbours are counted in, the cells hashed
// into a power-of-two number of buckets; a bucket may hold several cells, so whoever walks
// a bucket's list checks each one's cell.
#ifndef THRONG_TRACK_DENSITY_GLSL
#define THRONG_TRACK_DENSITY_GLSL

const float DENSITY_RADIUS = float(TRACK_DENSITY_RADIUS_MM) / 1000.0;

ivec2 density_cell(vec2 p) {
    return ivec2(floor(p / DENSITY_RADIUS));
}

uint density_bucket(ivec2 cell, uint buckets) {
    uint h = (uint(cell.x) * 73856093u) ^ (uint(cell.y) * 19349663u);
    return h & (buckets - 1u);
}

#endif
