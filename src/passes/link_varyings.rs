//! Linking a vertex and a fragment module at the IR level before the stages are compiled
//! apart (the whole-pipeline graphics compile, `compile_graphics`): the vertex stage's
//! `store_output`s to locations the fragment stage never reads are removed, and dead-code
//! elimination then removes what computed them.
//!
//! The stages are compiled as part-ready main parts and glued with the parts by the link
//! stage; the parameter-export epilog exports only what the fragment stage reads anyway,
//! but without this the vertex main part would still compute every output and keep it
//! live to its final branch. This is the knowledge of the whole pipeline the compile uses.
//!
//! Invariants:
//! - only user locations (slots below `lower_explicit_io::BUILTIN_SLOT_BASE`) are
//!   dropped; built-ins (position, point size, distances) stay;
//! - a vertex store with a dynamic slot is kept; a fragment input read with a dynamic slot
//!   (which could be any location) keeps every vertex output;
//! - run after the middle end (both stages' I/O lowered to `load_input` /
//!   `load_interpolated_input` / `load_input_vertex` / `store_output`), so the fragment reads are the ones left
//!   after its own optimization.

use super::dce;
use super::lower_explicit_io::BUILTIN_SLOT_BASE;
use crate::ir::*;
use std::collections::BTreeSet;

/// The input locations `fs` reads, `None` when one read has a dynamic slot.
pub fn fragment_reads(fs: &Module) -> Option<BTreeSet<u32>> {
    let mut locs = BTreeSet::new();
    for (_, f) in fs.functions.iter() {
        for i in f.insts_in_order() {
            let InstKind::Intrinsic { op, srcs, idx } = f.kind(i) else {
                continue;
            };
            if !matches!(
                op,
                Intrinsic::LoadInput
                    | Intrinsic::LoadInterpolatedInput
                    | Intrinsic::LoadInputVertex
            ) {
                continue;
            }
            let slot = f.as_scalar_const(*srcs.last()?)?;
            locs.insert(idx[0] + slot as u32);
        }
    }
    Some(locs)
}

/// Removes `vs`'s stores of user locations outside `reads` (then runs DCE); returns the
/// locations dropped.
pub fn drop_unread_outputs(vs: &mut Module, reads: &BTreeSet<u32>) -> BTreeSet<u32> {
    let mut dropped = BTreeSet::new();
    for (_, f) in vs.functions.iter_mut() {
        let dead: Vec<Inst> = f
            .insts_in_order()
            .into_iter()
            .filter(|&i| {
                let InstKind::Intrinsic {
                    op: Intrinsic::StoreOutput,
                    srcs,
                    idx,
                } = f.kind(i)
                else {
                    return false;
                };
                let Some(slot) = srcs.get(1).and_then(|&s| f.as_scalar_const(s)) else {
                    return false;
                };
                let loc = idx[0] + slot as u32;
                let drop = loc < BUILTIN_SLOT_BASE && !reads.contains(&loc);
                if drop {
                    dropped.insert(loc);
                }
                drop
            })
            .collect();
        for i in dead {
            f.remove(i);
        }
    }
    if !dropped.is_empty() {
        dce::run(vs);
    }
    dropped
}

/// Links `vs` to `fs` (module doc); returns the vertex locations dropped.
pub fn run(vs: &mut Module, fs: &Module) -> BTreeSet<u32> {
    match fragment_reads(fs) {
        Some(reads) => drop_unread_outputs(vs, &reads),
        None => BTreeSet::new(),
    }
}
