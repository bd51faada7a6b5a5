//! Which nodes the file's animations move. The skeleton needs this before any clip is
//! converted (an animated node above the joints becomes a joint of its own, see `skin`), and
//! the clips need the skeleton, so it is read on its own, straight from the JSON.

use gltf::Document;
use gltf::animation::Property;
use gltf::json::validation::Checked;

/// For each node, whether some channel animates its translation, rotation or scale. Read
/// from the JSON as `animation` reads channel targets; targets that do not exist are skipped
/// here and reported when the channel itself is converted.
pub(super) fn animated_nodes(doc: &Document, node_count: usize) -> Vec<bool> {
    let mut animated = vec![false; node_count];
    for animation in &doc.as_json().animations {
        for channel in &animation.channels {
            let moves = matches!(
                channel.target.path,
                Checked::Valid(Property::Translation | Property::Rotation | Property::Scale)
            );
            if let (true, Some(slot)) = (moves, animated.get_mut(channel.target.node.value())) {
                *slot = true;
            }
        }
    }
    animated
}
