//! Crowd job system (issue #4).
