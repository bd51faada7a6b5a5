//! The choice of where a crowd's walkers go, and what it asks of the layout.

use std::sync::Arc;

use super::route::Route;
use crate::anim::SkinnedModel;
use crate::scene::{CrowdLayout, PlacedInstance};

/// Where a crowd's walkers go (`throng run --layout grid|lanes|rings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkPaths {
    /// Nowhere: everyone treads in place where the layout put them.
    InPlace,
    /// Front to back (+Z) along straight lanes through the crowd, wrapping at its edge.
    Lanes,
    /// Round circles about the crowd's centre, all the same way round; the innermost cell
    /// stands.
    Rings,
}

impl WalkPaths {
    /// `layout` as walkers on these paths need it: facing along their paths from the start,
    /// which the layout's jittered headings would cross.
    pub fn prepare_layout(self, layout: CrowdLayout) -> CrowdLayout {
        match self {
            Self::InPlace => layout,
            Self::Lanes | Self::Rings => CrowdLayout {
                heading_jitter: 0.0,
                ..layout
            },
        }
    }

    /// The route through the crowd `layout` placed as `placed` from `models` (`None` in
    /// place, which spares measuring the models' footprints for the grid's pitch).
    pub(crate) fn route(
        self,
        layout: &CrowdLayout,
        models: &[Arc<SkinnedModel>],
        placed: &[PlacedInstance],
    ) -> Option<Route> {
        let cell = || layout.cell_size(models);
        match self {
            Self::InPlace => None,
            Self::Lanes => Some(Route::lanes(placed, cell())),
            Self::Rings => Some(Route::rings(cell())),
        }
    }
}
