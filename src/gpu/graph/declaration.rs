//! The graph as declared: what [`super::GraphBuilder`] collects and `compile` turns into a
//! plan. Kept apart from both so that the builder (which calls the compiler) and the compiler
//! (which reads the declarations) each depend on this data, not on one another.

use super::access::Access;
use super::resource::{Resource, ResourceId};

/// One declared use of a resource by a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeclaredUse {
    pub resource: ResourceId,
    pub access: Access,
    /// Declared with [`super::PassBuilder::write`] (checked against the access at compile
    /// time).
    pub declared_write: bool,
}

/// A pass as declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PassDecl {
    pub name: &'static str,
    pub uses: Vec<DeclaredUse>,
    pub side_effect: bool,
}

/// Every resource, pass and output declared so far, unchecked.
#[derive(Debug, Clone, Default)]
pub(crate) struct Declarations {
    pub resources: Vec<Resource>,
    pub passes: Vec<PassDecl>,
    pub outputs: Vec<ResourceId>,
}
