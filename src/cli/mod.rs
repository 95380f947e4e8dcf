//! Subcommand implementations, one file each.

pub mod ir;
