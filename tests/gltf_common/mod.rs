//! Helpers shared by the glTF tests: a fixture model written by the tests, and an
//! independent reference evaluator built on the `gltf` crate.
#![allow(dead_code)]

pub mod fixture;
pub mod reference;
