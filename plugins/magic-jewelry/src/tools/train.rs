//! train placeholder
