//! What a frame's passes do ([`FrameShape`]): decided once from the view shown and the
//! settings before any pass is declared, so each feature declares itself (or nothing) from one
//! set of answers, and the passes that hand work to each other agree on who draws what.

use crate::gpu::frame::settings::{CardDepth, GraphKey, Raster, RenderSettings, ViewMode};

/// What the frame's passes do, decided once from the view and settings before any pass is
/// declared; each pass declares itself (or nothing) from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameShape {
    /// The view shown.
    pub view: ViewMode,
    /// The forward pass draws the frame (final or silhouette view); otherwise a debug view
    /// shows an intermediate image.
    pub shows_frame: bool,
    /// The forward pass reads the shadow map.
    pub shadows: bool,
    /// The frame is darkened by ambient occlusion (read by the forward pass after a prepass,
    /// by the composite pass without one).
    pub ao: bool,
    /// The depth prepass runs and the forward pass tests against its depth (equal, no
    /// write); always for the debug views, which show its images.
    pub prepass: bool,
    /// Small instances wait for the occlusion test: the camera's passes draw the late list
    /// too.
    pub occlusion: bool,
    /// The shadow view's lists are filled (a pass draws the shadow map).
    pub shadow_lists: bool,
    /// The shadow map holds the near cascade's square beside the whole box's, drawn by its
    /// own passes in the frames that use it (those the lit passes read shadows in).
    pub shadow_cascade: bool,
    /// Characters short on screen are impostor cards (their passes follow the shadow pass,
    /// the prepass and the forward pass).
    pub cards: bool,
    /// The camera's card passes keep the card's own depth ([`CardDepth::Plane`]).
    pub card_plane_depth: bool,
    /// The camera's cards are rasterized, shaded and merged by compute passes
    /// ([`Raster::Compute`]) instead of the graphics card passes.
    pub camera_cards_in_compute: bool,
    /// The sun's cards are splatted into the shadow map by a compute pass.
    pub shadow_cards_in_compute: bool,
    /// A compute pass draws the ground and the sky after the lit passes (which then leave the
    /// pixels no mesh covers empty).
    pub ground_in_compute: bool,
    /// The skin pass skins the listed instances' vertices once, after each culling pass.
    pub skin_pass: bool,
    /// The camera's coarser mesh levels are rasterized into the visibility buffer by a
    /// compute pass and lit per pixel, not drawn by the lit passes (with the ground in
    /// compute, whose resolve leaves out the samples they claim).
    pub meshes_in_compute: bool,
    /// The sun's coarser mesh levels are rasterized into the shadow map's depths by a compute
    /// pass before the shadow pass draws the rest.
    pub shadow_meshes_in_compute: bool,
}

impl FrameShape {
    /// Graphics passes draw the camera's cards (after the lit passes, which then leave their
    /// colours to be resolved by the cards' pass).
    pub fn camera_cards_in_graphics(&self) -> bool {
        self.cards && !self.camera_cards_in_compute
    }

    /// The shape of the frame `key` asks for under `settings`: [`FrameShape::new`] without
    /// cards where no model has an atlas, and without the near shadow cascade where the key
    /// has none.
    pub fn for_key(key: &GraphKey, settings: &RenderSettings) -> Self {
        let impostors = settings.impostors && key.cards;
        let mut shape = Self::new(
            key.view,
            &RenderSettings {
                impostors,
                ..*settings
            },
        );
        shape.shadow_cascade &= key.shadow_cascade;
        shape
    }

    /// The shape of a frame showing `view` under `settings`.
    pub fn new(view: ViewMode, settings: &RenderSettings) -> Self {
        let silhouette = view == ViewMode::Silhouette;
        let shows_frame = view == ViewMode::Final || silhouette;
        // The silhouette view is plain white: no light, so nothing to shadow or occlude, and
        // no depth to test occlusion against before it is drawn.
        let prepass = !shows_frame || (settings.prepass && !silhouette);
        let shadows = shows_frame && settings.shadows && !silhouette;
        let ao = shows_frame && settings.ssao && !silhouette;
        let shadow_lists = shadows || view == ViewMode::Shadow;
        let compute = settings.impostors && settings.card_raster == Raster::Compute;
        Self {
            view,
            shows_frame,
            shadows,
            ao,
            prepass,
            occlusion: settings.occlusion && settings.cull && !silhouette,
            shadow_lists,
            shadow_cascade: shadows && settings.shadow_cascade,
            cards: settings.impostors,
            card_plane_depth: settings.card_depth == CardDepth::Plane,
            // The compute passes merge into the sun's and the sky's light apart, which only
            // the lit frame without a prepass and with occlusion has.
            camera_cards_in_compute: compute && view == ViewMode::Final && !prepass && ao,
            shadow_cards_in_compute: compute && shadow_lists,
            ground_in_compute: settings.ground == Raster::Compute
                && view == ViewMode::Final
                && !prepass
                && ao,
            skin_pass: settings.skin_vec4s() > 0,
            // The ground pass leaves the samples they claim out of its resolve.
            meshes_in_compute: settings.mesh_raster == Raster::Compute
                && settings.ground == Raster::Compute
                && view == ViewMode::Final
                && !prepass
                && ao,
            shadow_meshes_in_compute: settings.mesh_raster == Raster::Compute && shadow_lists,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_camera_cards_and_the_ground_go_to_compute_only_in_a_frame_with_the_light_apart() {
        let compute = RenderSettings {
            impostors: true,
            card_raster: Raster::Compute,
            ground: Raster::Compute,
            ..RenderSettings::default()
        };
        let shape = FrameShape::new(ViewMode::Final, &compute);
        assert!(shape.camera_cards_in_compute && shape.shadow_cards_in_compute);
        assert!(shape.ground_in_compute);
        assert!(!shape.camera_cards_in_graphics());
        // A prepass, no ambient occlusion or a debug view: quads from the camera; the sun's
        // cards still in compute wherever a shadow map is drawn.
        for (view, settings) in [
            (
                ViewMode::Final,
                RenderSettings {
                    prepass: true,
                    ..compute
                },
            ),
            (
                ViewMode::Final,
                RenderSettings {
                    ssao: false,
                    ..compute
                },
            ),
            (ViewMode::Shadow, compute),
        ] {
            let shape = FrameShape::new(view, &settings);
            assert!(shape.camera_cards_in_graphics(), "{view:?} {settings:?}");
            assert!(!shape.ground_in_compute, "{view:?} {settings:?}");
            assert!(shape.shadow_cards_in_compute, "{view:?} {settings:?}");
        }
        let silhouette = FrameShape::new(ViewMode::Silhouette, &compute);
        assert!(!silhouette.camera_cards_in_compute && !silhouette.shadow_cards_in_compute);
        let graphics = RenderSettings {
            card_raster: Raster::Graphics,
            ..compute
        };
        let shape = FrameShape::new(ViewMode::Final, &graphics);
        assert!(!shape.camera_cards_in_compute && !shape.shadow_cards_in_compute);
        let none = RenderSettings {
            impostors: false,
            ..compute
        };
        let shape = FrameShape::new(ViewMode::Final, &none);
        assert!(!shape.camera_cards_in_compute && !shape.shadow_cards_in_compute);
    }
}
