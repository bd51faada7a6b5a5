// Impostor cards (src/gpu/impostors): what baking and drawing them share. A cell of a model's
// atlas shows the model from one direction at one moment of one clip; `ImpostorView` is the
// camera of the cells of one direction (model space).
#ifndef THRONG_IMPOSTOR_GLSL
#define THRONG_IMPOSTOR_GLSL

struct ImpostorView {
    mat4 view_proj;  // model space -> the cell's clip space (orthographic over the sphere)
    vec4 right;      // xyz: the cell's x axis, model space
    vec4 up;         // xyz: the cell's y axis
    vec4 towards;    // xyz: from the sphere's centre towards the camera
    vec4 centre;     // xyz: the sphere's centre, w: its radius (model units)
};

#endif
