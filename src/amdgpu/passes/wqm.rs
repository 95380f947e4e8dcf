//! Whole-quad mode: which exec each instruction of a fragment shader runs under when helper
//! lanes must run (docs/wqm.md has the algorithm with examples).
//!
//! Where it runs: on machine SSA right after instruction selection, before register
//! allocation. By then every instruction that reads across a quad exists (the DPP of a
//! derivative, an implicit-LOD `image_sample`), each value has one definition to follow
//! back, and the exec-mask control flow (`isel/cf.rs`) is explicit, so the switches can be
//! placed relative to it; the allocator then sees the saved masks as ordinary temps.
//! Selection records what the pass needs in `Program::wqm` (`isel/quad.rs`): the live
//! mask, whether helper lanes are needed, the seed temps, the end block.
//!
//! Design (facts from LLVM's SIWholeQuadMode and ACO's exec-mask handling; no code):
//! 1. Needs. An instruction *needs WQM* when it defines a seed, or a temp some WQM
//!    instruction reads (transitively, through every definition of a multi-definition
//!    temp, hence across phis and loops), or a mask the exec-mask control flow reads (so
//!    that helper lanes follow the branches their quad takes). An instruction *must run
//!    exact* when it has an effect outside its lane's registers: a store or an atomic to
//!    memory other than scratch, an export. Everything else does not care.
//! 2. The shader enters WQM at the top (`exec = s_wqm exec` right after `live = exec`),
//!    so every region the exec-mask control flow opens inside holds whole quads.
//! 3. The switch to exact for good (`exec = s_and exec, live`) goes after the last
//!    instruction that needs WQM, at the top level: in the body's tail block when it
//!    falls straight into the end block (after its last WQM instruction and its last exec
//!    write), else at the top of the end block. Only the exports and what needs no
//!    helper follow it.
//! 4. Before that point, each run of exact instructions in a block becomes an exact
//!    island: `saved = s_and_saveexec live` before its first one, `exec = saved` after its
//!    last one. An island spans the don't-care instructions between its exact ones and
//!    stops at anything that needs WQM, touches exec or branches; it never crosses a
//!    block, so the exec-mask control flow always sees the WQM form.
//! 5. Discard and demote before that point leave `exec = s_and exec, s_wqm(live)`: a
//!    quad with a live lane keeps its dead lanes running as helpers.
//!
//! Invariants: nothing changes for a program without `Program::wqm` or without helper
//! lanes (the compute corpus and every fragment shader without derivatives are
//! untouched); no instruction that must be exact runs before the switch outside an island;
//! `live` is never written here. SCC: the island entry and the final switch write SCC; a
//! place where SCC is live is not chosen for the switch, and for an island it is a bug
//! reported as `Error::Verify`.

use crate::amdgpu::mir::{Arg, BlockId, MInst, Program, Temp, Wqm};
use crate::amdgpu::Error;
use crate::isa::{Format, Opcode, Props};

/// Inserts the whole-quad-mode switches into `p` (a no-op without helper lanes).
pub fn insert_wqm(p: &mut Program) -> Result<(), Error> {
    let Some(w) = p.wqm.clone() else {
        return Ok(());
    };
    if !w.helpers {
        return Ok(());
    }
    let needs = needs_wqm(p, &w);
    let exec = p.exec();
    let (sw_block, sw_at) = switch_point(p, &w, &needs);
    // islands and discards before the switch, block by block, back to front within each
    let last = sw_block.0 as usize;
    for b in 0..=last {
        let limit = if b == last {
            sw_at
        } else {
            p.blocks[b].insts.len()
        };
        let mut inserts: Vec<(usize, MInst)> = Vec::new();
        let mut open: Option<(usize, usize)> = None;
        for k in 0..limit {
            let i = &p.blocks[b].insts[k];
            let (discard, exact) = (is_discard_update(i, exec, w.live), must_be_exact(i));
            let barrier = marked(&needs, i) || touches_exec(i, exec);
            if discard {
                let t = p.new_temp(p.rc(w.live));
                inserts.push((
                    k,
                    lane(p, Opcode::SWqmB32, Arg::Temp(t), &[Arg::Temp(w.live)])?,
                ));
                p.blocks[b].insts[k].ops[1] = Arg::Temp(t);
            }
            if exact {
                open = Some((open.map_or(k, |o| o.0), k));
            } else if barrier {
                if let Some((s, e)) = open.take() {
                    island(p, &w, b, s, e, &mut inserts)?;
                }
            }
        }
        if let Some((s, e)) = open.take() {
            island(p, &w, b, s, e, &mut inserts)?;
        }
        if b == last {
            let i = lane(p, Opcode::SAndB32, exec, &[exec, Arg::Temp(w.live)])?;
            inserts.push((sw_at, i));
        }
        // stable: at one position, earlier entries go first
        inserts.sort_by_key(|(k, _)| *k);
        for (k, i) in inserts.into_iter().rev() {
            p.blocks[b].insts.insert(k, i);
        }
    }
    // enter WQM right after the live mask is taken
    let entry = &p.blocks[0].insts;
    let at = entry
        .iter()
        .position(|i| i.defs.first() == Some(&Arg::Temp(w.live)))
        .ok_or_else(|| Error::Verify("the live mask is not defined in the entry block".into()))?;
    let i = lane(p, Opcode::SWqmB32, exec, &[exec])?;
    p.blocks[0].insts.insert(at + 1, i);
    Ok(())
}

/// Per temp: whether helper lanes must compute it.
fn needs_wqm(p: &Program, w: &Wqm) -> Vec<bool> {
    let exec = p.exec();
    let mut defs: Vec<Vec<(usize, usize)>> = vec![Vec::new(); p.temps.len()];
    let mut work: Vec<Temp> = w.seeds.clone();
    for (b, blk) in p.blocks.iter().enumerate() {
        for (k, i) in blk.insts.iter().enumerate() {
            for d in &i.defs {
                if let Some(t) = d.temp() {
                    defs[t.0 as usize].push((b, k));
                }
            }
            // the masks the exec-mask control flow reads
            if i.defs.contains(&exec) {
                work.extend(
                    i.ops
                        .iter()
                        .filter_map(|a| a.temp())
                        .filter(|t| *t != w.live),
                );
            }
        }
    }
    let mut needs = vec![false; p.temps.len()];
    while let Some(t) = work.pop() {
        if std::mem::replace(&mut needs[t.0 as usize], true) {
            continue;
        }
        for &(b, k) in &defs[t.0 as usize] {
            let i = &p.blocks[b].insts[k];
            work.extend(i.ops.iter().filter_map(|a| a.temp()));
        }
    }
    needs
}

/// Whether `i` defines a temp helper lanes must compute.
fn marked(needs: &[bool], i: &MInst) -> bool {
    i.defs
        .iter()
        .any(|d| d.temp().is_some_and(|t| needs[t.0 as usize]))
}

/// Where the shader switches to exact for good: (block, instruction index).
fn switch_point(p: &Program, w: &Wqm, needs: &[bool]) -> (BlockId, usize) {
    let exec = p.exec();
    let end = p.block(w.end);
    let fallback = (w.end, 0);
    let [tail] = end.linear_preds[..] else {
        return fallback;
    };
    if tail.0 + 1 != w.end.0 || p.block(tail).linear_succs.len() != 1 {
        return fallback;
    }
    let insts = &p.block(tail).insts;
    let after = insts
        .iter()
        .rposition(|i| marked(needs, i) || touches_exec(i, exec) || is_branch(i))
        .map_or(0, |k| k + 1);
    if scc_live(insts, after) {
        return fallback;
    }
    (tail, after)
}

/// `saved = s_and_saveexec live` before instruction `s`, `exec = saved` after `e`.
fn island(
    p: &mut Program,
    w: &Wqm,
    b: usize,
    s: usize,
    e: usize,
    inserts: &mut Vec<(usize, MInst)>,
) -> Result<(), Error> {
    if scc_live(&p.blocks[b].insts, s) {
        return Err(Error::Verify(format!(
            "whole-quad mode: SCC is live where block {b} must switch to exact"
        )));
    }
    let saved = p.new_temp(p.rc(w.live));
    let exec = p.exec();
    let enter = lane(
        p,
        Opcode::SAndSaveexecB32,
        Arg::Temp(saved),
        &[Arg::Temp(w.live)],
    )?;
    let leave = lane(p, Opcode::SMovB32, exec, &[Arg::Temp(saved)])?;
    inserts.push((s, enter));
    inserts.push((e + 1, leave));
    Ok(())
}

/// A lane-mask SOP1/SOP2 instruction named by its 32-bit opcode.
fn lane(p: &Program, o: Opcode, def: Arg, ops: &[Arg]) -> Result<MInst, Error> {
    let t = p.target;
    let w = o
        .for_wave(t.wave)
        .and_then(|w| w.on(t.gen))
        .ok_or(Error::NotOnTarget { op: o, gen: t.gen })?;
    let fmt = if ops.len() == 1 {
        Format::Sop1
    } else {
        Format::Sop2
    };
    Ok(MInst::hw(w, fmt, &[def], ops))
}

/// An instruction with an effect outside its own lane's registers: a store or atomic to
/// memory other than the lane's scratch, or an export.
fn must_be_exact(i: &MInst) -> bool {
    let crate::amdgpu::mir::Op::Hw(o, fmt) = i.op else {
        return false;
    };
    let pr = o.props();
    pr.contains(Props::EXPORT)
        || (fmt != Format::Scratch && pr.intersects(Props::VS_CNT | Props::ATOMIC))
}

/// Reads or writes exec by name, or by its properties beyond the implicit VALU read.
fn touches_exec(i: &MInst, exec: Arg) -> bool {
    if i.defs.contains(&exec) || i.ops.contains(&exec) {
        return true;
    }
    let Some(o) = i.opcode() else {
        return false;
    };
    let pr = o.props();
    pr.contains(Props::WRITES_EXEC) || (pr.contains(Props::READS_EXEC) && !pr.contains(Props::VALU))
}

fn is_branch(i: &MInst) -> bool {
    i.opcode()
        .is_some_and(|o| o.props().contains(Props::BRANCH))
}

/// The discard/demote exec update `exec = s_and exec, live` (`isel/quad.rs`).
fn is_discard_update(i: &MInst, exec: Arg, live: Temp) -> bool {
    i.opcode()
        .is_some_and(|o| o == Opcode::SAndB32 || o == Opcode::SAndB64)
        && i.defs[..] == [exec]
        && i.ops[..] == [exec, Arg::Temp(live)]
}

/// Whether an instruction from `at` on reads SCC before one writes it.
fn scc_live(insts: &[MInst], at: usize) -> bool {
    for i in &insts[at..] {
        let Some(o) = i.opcode() else { continue };
        let pr = o.props();
        if pr.contains(Props::READS_SCC) {
            return true;
        }
        if pr.contains(Props::WRITES_SCC) {
            return false;
        }
    }
    false
}
