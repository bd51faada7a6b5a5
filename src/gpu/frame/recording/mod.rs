//! Recording a compiled frame: the compiled frame itself ([`compiled`]: plan, recordings,
//! pipelines, pass-made buffers), this frame's handles for its resources ([`bindings`]), what
//! a pass records with ([`pass`]: declared resources, descriptors bound by the shaders' names,
//! dispatches), drawing the characters a culling pass kept ([`draws`]), and the frame's command
//! buffer with every step's barriers, label and timestamps ([`frame`]).

pub mod bindings;
pub mod compiled;
pub mod draws;
pub mod features;
pub mod frame;
pub mod pass;
