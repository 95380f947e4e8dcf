//! Loop-invariant scalar loads move in front of their loop (machine SSA, before register
//! allocation).
//!
//! What moves: `s_load_*` whose base is an ABI pointer (`p_startpgm` defines the push
//! constant and descriptor set pointers) and `s_buffer_load_*` (UBO and read-only SSBO
//! reads through a V#), when every temp they read is defined outside the loop. Every
//! memory SMEM reads is read-only for the dispatch (push constants, descriptor sets, UBOs,
//! and storage buffers only where `lower_explicit_io` found that no write of the dispatch
//! reaches them, `ir::ACCESS_CAN_REORDER`, `isel/buffers.rs`), so no store in the loop can
//! change what such a load returns, and the load gives the same value on every iteration.
//! Loads that became invariant by a hoist count as defined outside the loop, so the
//! descriptor load (`s_load_dwordx4` from a set pointer) and the UBO read through that
//! descriptor move together.
//!
//! Why moving is safe when the loop might not reach the load: an ABI pointer plus the
//! selector's offsets stays inside the table it points to, and a buffer load is checked
//! against its descriptor's range; scalar loads do not depend on exec. Loads through any
//! other address (a pointer read from memory or computed) stay where they are.
//!
//! Loops are found on the linear CFG: block `h` heads a loop when a block at or after it
//! branches back to it; the loop is `h..=last such block` (the selector lays structured
//! loops out contiguously). The preheader is block `h - 1`, which must be `h`'s only
//! predecessor from before it. Inner loops are treated first (headers last to first), so a
//! load lands in the outermost loop's preheader where it is invariant.
//!
//! Pressure: each hoisted load keeps its SGPRs live across the whole loop, so at most
//! [`MAX_DWORDS`] dwords are hoisted in the whole program (inner loops first, then layout
//! order; a load hoisted again out of an enclosing loop counts again). With a budget per
//! loop instead (32 dwords), two large real-world compute shaders with many loops went
//! from 57 and 69 SGPRs to 106 and spilled 34 and 50 SGPRs.
//!
//! Invariants: the program stays in SSA (the preheader dominates every block of the loop
//! and every block after it that a loop value reaches); a hoisted load is placed before
//! the preheader's trailing branches and before the SCC writer they read, so no SCC value
//! is kept live across it; single-definition temps only (phi webs are never moved).

use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo, Temp};
use crate::isa::tables::Props;
use crate::isa::Opcode;

/// The most SGPR dwords hoisted in one program.
pub const MAX_DWORDS: u32 = 16;

/// Hoists invariant scalar loads out of loops; returns how many moved.
pub fn hoist_loop_invariants(p: &mut Program) -> u32 {
    let n = p.blocks.len();
    // the block of each temp's (first) definition; usize::MAX: none
    let mut def_block = vec![usize::MAX; p.temps.len()];
    let mut abi_ptr = vec![false; p.temps.len()];
    for (b, blk) in p.blocks.iter().enumerate() {
        for i in &blk.insts {
            for d in &i.defs {
                if let Arg::Temp(t) = d {
                    if def_block[t.0 as usize] == usize::MAX {
                        def_block[t.0 as usize] = b;
                    }
                    if matches!(i.op, Op::Pseudo(Pseudo::StartPgm)) {
                        abi_ptr[t.0 as usize] = true;
                    }
                }
            }
        }
    }
    let mut moved = 0;
    let mut dwords = 0u32;
    for h in (1..n).rev() {
        let Some(last) = p.blocks[h]
            .linear_preds
            .iter()
            .map(|b| b.0 as usize)
            .filter(|&b| b >= h)
            .max()
        else {
            continue;
        };
        let pre = h - 1;
        let outside: Vec<usize> = p.blocks[h]
            .linear_preds
            .iter()
            .map(|b| b.0 as usize)
            .filter(|&b| b < h)
            .collect();
        if outside != [pre] {
            continue;
        }
        let in_loop = |t: Temp, def_block: &[usize]| {
            let b = def_block[t.0 as usize];
            p.multi_def.contains(&t) || (h..=last).contains(&b)
        };
        let mut hoisted: Vec<MInst> = Vec::new();
        for b in h..=last {
            let mut k = 0;
            while k < p.blocks[b].insts.len() {
                let i = &p.blocks[b].insts[k];
                let fits = |d: u32| dwords + d <= MAX_DWORDS;
                let size = match hoistable(p, i, &abi_ptr) {
                    Some(t) => p.rc(t).dwords as u32,
                    None => {
                        k += 1;
                        continue;
                    }
                };
                let invariant = i
                    .ops
                    .iter()
                    .all(|a| !matches!(a, Arg::Temp(t) if in_loop(*t, &def_block)));
                if !invariant || !fits(size) {
                    k += 1;
                    continue;
                }
                let i = p.blocks[b].insts.remove(k);
                for d in &i.defs {
                    if let Arg::Temp(t) = d {
                        def_block[t.0 as usize] = pre;
                    }
                }
                dwords += size;
                hoisted.push(i);
            }
        }
        moved += hoisted.len() as u32;
        if !hoisted.is_empty() {
            let at = insert_point(&p.blocks[pre].insts);
            p.blocks[pre].insts.splice(at..at, hoisted);
        }
    }
    moved
}

/// The single temp `i` defines when it is a scalar load this pass may move.
fn hoistable(p: &Program, i: &MInst, abi_ptr: &[bool]) -> Option<Temp> {
    use Opcode as O;
    let ok = match i.opcode()? {
        O::SBufferLoadDword
        | O::SBufferLoadDwordx2
        | O::SBufferLoadDwordx4
        | O::SBufferLoadDwordx8
        | O::SBufferLoadDwordx16
        | O::SBufferLoadB32
        | O::SBufferLoadB64
        | O::SBufferLoadB128
        | O::SBufferLoadB256
        | O::SBufferLoadB512 => true,
        O::SLoadDword
        | O::SLoadDwordx2
        | O::SLoadDwordx4
        | O::SLoadDwordx8
        | O::SLoadDwordx16
        | O::SLoadB32
        | O::SLoadB64
        | O::SLoadB128
        | O::SLoadB256
        | O::SLoadB512 => {
            matches!(i.ops.first(), Some(Arg::Temp(t)) if abi_ptr[t.0 as usize])
                && i.ops[1..].iter().all(|a| !matches!(a, Arg::Temp(_)))
        }
        _ => false,
    };
    match i.defs.as_slice() {
        [Arg::Temp(t)] if ok && !p.multi_def.contains(t) => Some(*t),
        _ => None,
    }
}

/// Where hoisted instructions go in the preheader `insts`: before its trailing branches,
/// and before the SCC writer they read if they read SCC.
fn insert_point(insts: &[MInst]) -> usize {
    let props = |i: &MInst| i.opcode().map_or(Props::empty(), |o| o.props());
    let mut at = insts.len();
    while at > 0 && props(&insts[at - 1]).contains(Props::BRANCH) {
        at -= 1;
    }
    if insts[at..]
        .iter()
        .any(|i| props(i).contains(Props::READS_SCC))
    {
        while at > 0 {
            at -= 1;
            if props(&insts[at]).contains(Props::WRITES_SCC) {
                break;
            }
        }
    }
    at
}
