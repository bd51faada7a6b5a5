//! What the passes make, kept by the renderer: transient images by their typed descriptions
//! ([`images`]), and each frame in flight's buffers the passes declare ([`buffers`]).

pub mod buffers;
pub mod images;
