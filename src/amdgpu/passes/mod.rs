//! Post-selection passes on machine IR, one file each: `lower_to_hw` (pseudo → real,
//! parallel copies sequentialised), `insert_waitcnt` (memory counters per generation),
//! `resolve_hazards` (per-generation software interlocks); before allocation,
//! `insert_wqm` (whole-quad mode of fragment shaders, on machine SSA).

pub mod insert_waitcnt;
pub mod lower_to_hw;
pub mod resolve_hazards;
pub mod wqm;

pub use insert_waitcnt::insert_waitcnt;
pub use lower_to_hw::lower_to_hw;
pub use resolve_hazards::resolve_hazards;
pub use wqm::insert_wqm;
