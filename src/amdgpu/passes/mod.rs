//! Passes on machine IR, one file each.
//!
//! After selection, on machine SSA ([`optimize_selected`], the order below):
//! `fold_copies` (readers of `x * 1`, `x + 0`, moves read `x`), `fold_address_offsets`
//! (`x + c` addresses of MUBUF/DS accesses become `x` and an immediate offset),
//! `reuse_scc` (no compare of a bool SCC already holds), `fold_source_modifiers`
//! (`fneg`/`fabs` into neg/abs source bits, `fsat` into the producer's clamp),
//! `number_values` (no value computed twice in a block), `merge_buffer_stores`
//! (one-dword buffer stores to consecutive offsets become one), `eliminate_dead_code`,
//! `hoist_loop_invariants` (read-only scalar loads in front of their loop),
//! `cluster_scalar_loads` (scalar loads up in their block, together, so one
//! wait covers them),
//! `coalesce_phi_copies` (values computed into the phi web they are copied to); then
//! `insert_wqm` (whole-quad mode of fragment shaders). After register allocation:
//! `lower_to_hw` (pseudo → real, parallel copies sequentialised), `thread_branches` (no
//! branch to the next instruction or to a lone branch, no conditional branch over a
//! branch), `drop_short_exec_branches` (no `s_cbranch_execz` over a few cheap
//! instructions), `simplify_exec_writes` (no `s_or exec, exec, x` where exec is empty, no
//! exec write nobody reads), `form_vopd` (GFX11 wave32: independent VALU pairs dual-issued as VOPD),
//! `insert_waitcnt` (memory counters per generation), `resolve_hazards`
//! (per-generation software interlocks).
//! `crate::compile::backend` runs them in that order.

pub mod cluster_scalar_loads;
pub mod coalesce_phi_copies;
pub mod drop_short_exec_branches;
pub mod eliminate_dead_code;
pub mod fold_address_offsets;
pub mod fold_copies;
pub mod fold_source_modifiers;
pub mod form_vopd;
pub mod hoist_loop_invariants;
pub mod insert_waitcnt;
pub mod lower_to_hw;
pub mod merge_buffer_stores;
pub mod number_values;
pub mod resolve_hazards;
pub mod reuse_scc;
pub mod simplify_exec_writes;
pub mod thread_branches;
pub mod wqm;

pub use cluster_scalar_loads::cluster_scalar_loads;
pub use coalesce_phi_copies::coalesce_phi_copies;
pub use drop_short_exec_branches::drop_short_exec_branches;
pub use eliminate_dead_code::eliminate_dead_code;
pub use fold_address_offsets::fold_address_offsets;
pub use fold_copies::fold_copies;
pub use fold_source_modifiers::fold_source_modifiers;
pub use form_vopd::form_vopd;
pub use hoist_loop_invariants::hoist_loop_invariants;
pub use insert_waitcnt::insert_waitcnt;
pub use lower_to_hw::lower_to_hw;
pub use merge_buffer_stores::merge_buffer_stores;
pub use number_values::number_values;
pub use resolve_hazards::resolve_hazards;
pub use reuse_scc::reuse_scc;
pub use simplify_exec_writes::simplify_exec_writes;
pub use thread_branches::thread_branches;
pub use wqm::insert_wqm;

use super::mir::Program;

/// The machine-SSA clean-up right after instruction selection. Each pass is one linear
/// walk; copy folding and the SCC reuse leave dead definitions that dead-code elimination
/// removes before phi copies are coalesced.
pub fn optimize_selected(p: &mut Program) {
    fold_copies(p);
    fold_address_offsets(p);
    reuse_scc(p);
    fold_source_modifiers(p);
    number_values(p);
    merge_buffer_stores(p);
    eliminate_dead_code(p);
    hoist_loop_invariants(p);
    cluster_scalar_loads(p);
    coalesce_phi_copies(p);
}
