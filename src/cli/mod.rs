//! One module per `gcnc` subcommand.

pub mod ir;
