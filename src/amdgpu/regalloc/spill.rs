//! Spilling: lowers register demand to the budget before assignment.
//!
//! Design (after ACO's `aco_spill.cpp` in its choice of victims, simpler in placement):
//! - Demand is measured in the model assignment uses (`live::ranges`: each temp's
//!   segments, with holes), per register file, in dwords, so tuples count their full
//!   size. A round sweeps the positions; wherever a file's demand, less what the round
//!   chose already, exceeds its limit, it spills enough of the temps live there to get
//!   back under it (the next round recomputes the ranges with the reloads the choices
//!   brought, and sweeps again): those not
//!   used in the current loop first (ACO's preference), then the furthest next use, then
//!   the largest, then the lowest temp number (deterministic).
//! - A spilled temp is spilled *everywhere* (Chaitin style): `p_spill` right after each
//!   of its definitions (every definition of a phi web, each with the exec of its own
//!   definition), and before every instruction that reads it a `p_reload` into a fresh
//!   temp that replaces the operand. The program stays SSA (reloads define new temps that
//!   live only up to their one use), and because the slot is written exactly where the
//!   register was, a value reaches every join through memory — no new phis are needed.
//! - SGPR slots are lanes of "linear" VGPRs (`p_start_linear_vgpr` at the entry, live on
//!   the whole linear CFG): one lane per dword, a tuple never straddles two VGPRs, wave32
//!   has 32 lanes per VGPR and wave64 64. `v_writelane_b32` / `v_readlane_b32` ignore
//!   exec, so divergent regions need no care.
//! - VGPR slots are per-lane scratch (`amdgpu::scratch`: `reserve`, `store`, `load` at a
//!   constant offset). Stores and reloads run under the exec of the definition / use, like
//!   the register they replace, so the lanes a use reads were written at the definition.
//!   The caller inserts the FLAT_SCRATCH setup (`scratch::insert_setup`) afterwards.
//! - Rematerialisation (ACO's first choice too): a temp whose single definition is a
//!   move of a constant (`s_mov_b32`/`s_mov_b64`/`v_mov_b32` whose operands are all
//!   constants, see [`remat_def`]) needs no slot: its definition is dropped and a copy of
//!   it, defining a fresh temp, goes right before every instruction that reads it. Such
//!   temps are chosen before any other. A VGPR move runs under the exec of the use, like
//!   a reload, and writes the lanes the use reads; it is only rematerialised when every
//!   VGPR write of the program changes only active lanes (`live::exact_lanes`). Nothing
//!   it reads can change between the definition and the use, so the recomputed value is
//!   the one the register held.
//! - Phi webs: a web is live from each definition on, so a spilled web's definitions write fresh temps (stored at once) and a parallel copy
//!   into a spilled web becomes a store of its source (reloaded first when spilled too),
//!   and a pair copying a spilled source becomes a reload and a one-pair copy, one pair
//!   at a time: a copy reloading many sources at once would recreate the demand the
//!   spill was meant to remove.
//! - The entry block's prologue (`p_startpgm`, `p_start_linear_vgpr`, the scratch setup)
//!   is kept whole: stores of hardware inputs go after it, and temps it reads or defines
//!   (other than `p_startpgm`'s) are never chosen.
//!
//! Invariants: the pass only adds instructions and temps (and moves pairs out of parallel
//! copies, above); reload temps, linear VGPRs,
//! the temps the scratch helpers create and tied operands (not `Program::untied`) are never
//! chosen; each round
//! spills at least one temp or fails, so it terminates. On success, demand ≤ limit at
//! every position for both files.

use super::live::{exact_lanes, ranges, Ranges};
use super::Budget;
use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo, RegClass, RegType, Temp};
use crate::amdgpu::scratch;
use crate::amdgpu::Error;
use crate::isa::{Opcode, Props};
use smallvec::SmallVec;
use std::collections::{BTreeMap, BTreeSet};

/// What spilling did so far; kept across rounds (and across the assignment retries).
#[derive(Clone, Debug, Default)]
pub struct State {
    /// Temps that must not be chosen: reload results, linear VGPRs.
    no_spill: BTreeSet<Temp>,
    /// Linear VGPRs holding SGPR slots.
    linear: Vec<Temp>,
    /// Next free lane in the last linear VGPR.
    next_lane: u32,
    /// Spilled SGPR dwords.
    pub spilled_sgprs: u32,
    /// Spilled VGPR dwords.
    pub spilled_vgprs: u32,
    /// Dwords recomputed at their uses instead of spilled (not counted above).
    pub rematerialized: u32,
}

fn file_name(ty: RegType) -> &'static str {
    match ty {
        RegType::Sgpr => "SGPR",
        RegType::Vgpr => "VGPR",
    }
}

/// Per-instruction facts of one layout.
struct Layout {
    /// Loop depth of instruction k.
    depth: Vec<u32>,
    /// Temps read or written by instruction k.
    refs: Vec<SmallVec<[Temp; 6]>>,
    /// Sorted read positions per temp.
    uses: Vec<Vec<u32>>,
    /// Temps that an instruction both reads and defines (tied operands), and temps the
    /// prologue references (other than `p_startpgm`'s definitions).
    tied: BTreeSet<Temp>,
    /// Per temp: may it be rematerialised ([`remat_def`])?
    remat: Vec<bool>,
}

/// The temp `i` defines when it can be recomputed anywhere its value is needed: a move
/// of constants only (nothing read that could change, no side effect, SCC and VCC
/// untouched), the single definition of its temp, and for a VGPR only when `exact`
/// (`live::exact_lanes`: a copy under a use's exec writes the lanes the use reads).
pub fn remat_def(p: &Program, exact: bool, i: &MInst) -> Option<Temp> {
    let Op::Hw(op, _) = i.op else { return None };
    let vector = match op {
        Opcode::SMovB32 | Opcode::SMovB64 => false,
        Opcode::VMovB32 => true,
        _ => return None,
    };
    let [Arg::Temp(t)] = i.defs[..] else {
        return None;
    };
    let constant = i
        .ops
        .iter()
        .all(|a| matches!(a, Arg::Const(_) | Arg::Imm(_)));
    (constant && !p.multi_def.contains(&t) && (exact || !vector)).then_some(t)
}

/// Index of the first instruction of block 0 after its prologue: `p_startpgm`, the
/// linear VGPRs and the scratch setup (which ends with the last FLAT_SCRATCH write).
pub fn prologue_end(p: &Program) -> usize {
    let Some(b) = p.blocks.first() else { return 0 };
    let mut end = 0;
    for (k, i) in b.insts.iter().enumerate() {
        let flat_scratch = i.defs.iter().any(|d| {
            matches!(d, Arg::Reg(r) if r.base.0 == 102 || r.base.0 == 103)
                && p.target.gen == crate::isa::Gen::Gfx9
        }) || i
            .opcode()
            .is_some_and(|o| o.props().contains(Props::WRITES_HWREG));
        if flat_scratch
            || matches!(
                i.op,
                Op::Pseudo(Pseudo::StartPgm) | Op::Pseudo(Pseudo::StartLinearVgpr)
            )
        {
            end = k + 1;
        }
    }
    end
}

fn layout(p: &Program) -> Layout {
    let mut l = Layout {
        depth: Vec::new(),
        refs: Vec::new(),
        uses: vec![Vec::new(); p.temps.len()],
        tied: BTreeSet::new(),
        remat: vec![false; p.temps.len()],
    };
    let pe = prologue_end(p);
    let exact = exact_lanes(p);
    for b in &p.blocks {
        for i in &b.insts {
            let k = l.depth.len() as u32;
            if k > 0 && (k as usize) < pe {
                l.tied
                    .extend(i.defs.iter().chain(&i.ops).filter_map(|a| a.temp()));
            }
            l.depth.push(b.loop_depth);
            if let Some(t) = remat_def(p, exact, i) {
                l.remat[t.0 as usize] = true;
            }
            let mut r: SmallVec<[Temp; 6]> = SmallVec::new();
            for o in &i.ops {
                if let Arg::Temp(t) = *o {
                    l.uses[t.0 as usize].push(2 * k);
                    r.push(t);
                }
            }
            for d in &i.defs {
                if let Arg::Temp(t) = *d {
                    if r.contains(&t) && !p.untied.contains(&t) {
                        l.tied.insert(t);
                    }
                    r.push(t);
                }
            }
            l.refs.push(r);
        }
    }
    l
}

/// Spills until demand fits `limit` (per file, in dwords) everywhere.
pub fn spill(p: &mut Program, limit: Budget, st: &mut State) -> Result<(), Error> {
    loop {
        let lr = ranges(p);
        let lay = layout(p);
        let mut chosen: Vec<Temp> = Vec::new();
        for (ty, lim) in [
            (RegType::Sgpr, limit.sgprs as u32),
            (RegType::Vgpr, limit.vgprs as u32),
        ] {
            choose(p, &lr, &lay, st, ty, lim, &mut chosen)?;
        }
        if chosen.is_empty() {
            return Ok(());
        }
        rewrite(p, &chosen, st);
    }
}

/// One round's victims in `ty`'s file: a sweep over the positions that, at each one
/// where demand (less what this round already chose) exceeds `lim`, chooses among the
/// temps live there. The reloads a choice brings are not seen until the next round,
/// which recomputes the ranges. An overflow that cannot be resolved ends the sweep;
/// it is an error only when the round has chosen nothing (else the next round, with
/// exact ranges, decides).
fn choose(
    p: &Program,
    lr: &Ranges,
    lay: &Layout,
    st: &State,
    ty: RegType,
    lim: u32,
    chosen: &mut Vec<Temp>,
) -> Result<(), Error> {
    let npos = 2 * lay.depth.len() + 2;
    let mut diff = vec![0i64; npos + 2];
    let mut by_start: Vec<(u32, u32)> = Vec::new();
    for t in 0..p.temps.len() {
        let rc = p.temps[t];
        if rc.ty != ty {
            continue;
        }
        let segs = lr.of(t);
        for &(s, e) in segs {
            diff[s as usize] += rc.dwords as i64;
            diff[e as usize + 1] -= rc.dwords as i64;
        }
        if let Some(&(s, _)) = segs.first() {
            by_start.push((s, t as u32));
        }
    }
    by_start.sort_unstable();
    let mut next_start = 0;
    // temps whose range has started (pruned of ended ones at each overflow)
    let mut active: Vec<u32> = Vec::new();
    // what the round's choices free: a running sum over the positions
    let mut freed_diff = vec![0i64; npos + 2];
    let mut taken = vec![false; p.temps.len()];
    let (mut demand, mut freed) = (0i64, 0i64);
    for pos in 0..npos + 1 {
        demand += diff[pos];
        freed += freed_diff[pos];
        while next_start < by_start.len() && by_start[next_start].0 as usize == pos {
            active.push(by_start[next_start].1);
            next_start += 1;
        }
        let need = demand - freed;
        if need <= lim as i64 {
            continue;
        }
        let pos = pos as u32;
        active.retain(|&t| {
            lr.of(t as usize).last().is_some_and(|l| l.1 >= pos) && !taken[t as usize]
        });
        let k = (pos / 2) as usize;
        let here = lay.refs.get(k).cloned().unwrap_or_default();
        let depth = lay.depth.get(k).copied().unwrap_or(0);
        // (not rematerialisable, used in this loop, -next use, -size, temp): the least first
        #[allow(clippy::type_complexity)]
        let mut cands: Vec<(
            bool,
            bool,
            std::cmp::Reverse<u32>,
            std::cmp::Reverse<u8>,
            Temp,
        )> = Vec::new();
        for &t in &active {
            let temp = Temp(t);
            if !lr.covers(t as usize, pos)
                || st.no_spill.contains(&temp)
                || lay.tied.contains(&temp)
                || here.contains(&temp)
            {
                continue;
            }
            let uses = &lay.uses[t as usize];
            let next = match uses.get(uses.partition_point(|&u| u < pos)) {
                Some(&u) => u - pos,
                // live only around a back edge: its next use is in the next iteration
                None => uses
                    .first()
                    .map_or(u32::MAX / 2, |&u| u32::MAX / 4 + (npos as u32 - pos) + u),
            };
            let in_loop = depth > 0 && uses.iter().any(|&u| lay.depth[(u / 2) as usize] >= depth);
            cands.push((
                !lay.remat[t as usize],
                in_loop,
                std::cmp::Reverse(next),
                std::cmp::Reverse(p.temps[t as usize].dwords),
                temp,
            ));
        }
        cands.sort();
        let mut got = 0i64;
        for c in cands {
            if need - got <= lim as i64 {
                break;
            }
            let t = c.4;
            let dw = p.rc(t).dwords as i64;
            got += dw;
            taken[t.0 as usize] = true;
            let segs = lr.of(t.0 as usize);
            for &(s, e) in &segs[segs.partition_point(|&(_, e)| e < pos)..] {
                if s > pos {
                    freed_diff[s as usize] += dw;
                }
                freed_diff[e as usize + 1] -= dw;
            }
            chosen.push(t);
        }
        freed += got;
        if need - got > lim as i64 {
            if !chosen.is_empty() {
                return Ok(());
            }
            return Err(Error::RegisterPressure {
                file: file_name(ty),
                needed: need as u32,
                budget: lim,
                tuple: None,
            });
        }
    }
    Ok(())
}

/// Lane slot of a new SGPR spill of `dwords` dwords: (linear VGPR, first lane).
fn lane_slot(p: &mut Program, st: &mut State, dwords: u32) -> (Temp, u32) {
    let lanes = p.target.wave.lanes();
    if st.linear.is_empty() || st.next_lane + dwords > lanes {
        let v = p.new_temp(RegClass::V1);
        st.no_spill.insert(v);
        st.linear.push(v);
        st.next_lane = 0;
        // right after p_startpgm (and the linear VGPRs made before)
        let entry = &mut p.blocks[0].insts;
        let at = entry
            .iter()
            .position(|i| {
                !matches!(
                    i.op,
                    Op::Pseudo(Pseudo::StartPgm) | Op::Pseudo(Pseudo::StartLinearVgpr)
                )
            })
            .unwrap_or(entry.len());
        entry.insert(
            at,
            MInst::pseudo(Pseudo::StartLinearVgpr, &[Arg::Temp(v)], &[]),
        );
    }
    let lane = st.next_lane;
    st.next_lane += dwords;
    (*st.linear.last().unwrap(), lane)
}

/// Where a spilled temp lives.
#[derive(Clone, Copy)]
enum Slot {
    /// Lanes from `.1` on of the linear VGPR `.0`.
    Lanes(Temp, u32),
    /// Per-lane scratch at this byte offset.
    Scratch(u32),
    /// Nowhere: recomputed by the definition at this index of the round's
    /// rematerialised definitions.
    Remat(usize),
}

/// The instructions that store `t` to / reload `r` from its slot; temps they create are
/// marked unspillable.
fn spill_code(
    p: &mut Program,
    st: &mut State,
    remat: &[MInst],
    slot: Slot,
    t: Temp,
    reload: bool,
) -> Vec<MInst> {
    let before = p.temps.len();
    let code = match (slot, reload) {
        (Slot::Remat(k), true) => {
            let mut i = remat[k].clone();
            i.defs[0] = Arg::Temp(t);
            vec![i]
        }
        (Slot::Remat(_), false) => Vec::new(),
        (Slot::Lanes(v, lane), false) => vec![MInst::pseudo(
            Pseudo::Spill,
            &[],
            &[Arg::Temp(v), Arg::Temp(t), Arg::Imm(lane)],
        )],
        (Slot::Lanes(v, lane), true) => vec![MInst::pseudo(
            Pseudo::Reload,
            &[Arg::Temp(t)],
            &[Arg::Temp(v), Arg::Imm(lane)],
        )],
        (Slot::Scratch(off), false) => scratch::store(p, t, scratch::Addr::Const(off)),
        (Slot::Scratch(off), true) => scratch::load(p, t, scratch::Addr::Const(off)),
    };
    st.no_spill
        .extend((before..p.temps.len()).map(|k| Temp(k as u32)));
    code
}

fn rewrite(p: &mut Program, chosen: &[Temp], st: &mut State) {
    // the definitions of the chosen temps that are recomputed instead of spilled
    let exact = exact_lanes(p);
    let mut remat: Vec<MInst> = Vec::new();
    let mut remat_of: BTreeMap<Temp, usize> = BTreeMap::new();
    let wanted: BTreeSet<Temp> = chosen.iter().copied().collect();
    for i in p.blocks.iter().flat_map(|b| &b.insts) {
        if let Some(t) = remat_def(p, exact, i).filter(|t| wanted.contains(t)) {
            remat_of.insert(t, remat.len());
            remat.push(i.clone());
        }
    }
    let mut slots: BTreeMap<Temp, Slot> = BTreeMap::new();
    for &t in chosen {
        // spilling a temp twice never helps (its hull stays from definition to store)
        st.no_spill.insert(t);
        let rc = p.rc(t);
        let slot = if let Some(&k) = remat_of.get(&t) {
            st.rematerialized += rc.dwords as u32;
            Slot::Remat(k)
        } else if rc.is_sgpr() {
            let (v, lane) = lane_slot(p, st, rc.dwords as u32);
            st.spilled_sgprs += rc.dwords as u32;
            Slot::Lanes(v, lane)
        } else {
            st.spilled_vgprs += rc.dwords as u32;
            Slot::Scratch(scratch::reserve(p, 4 * rc.dwords as u32))
        };
        slots.insert(t, slot);
    }
    // A phi web (a temp with several definitions) would stay live from each definition
    // to its store and across the joins in between: each definition of a spilled web writes a
    // fresh temp instead, stored at once, so nothing of the web stays live in between.
    let mut defs: BTreeMap<Temp, u32> = BTreeMap::new();
    for i in p.blocks.iter().flat_map(|b| &b.insts) {
        for d in &i.defs {
            if let Arg::Temp(t) = *d {
                if slots.contains_key(&t) {
                    *defs.entry(t).or_default() += 1;
                }
            }
        }
    }
    let pe = prologue_end(p);
    for bi in 0..p.blocks.len() {
        let insts = std::mem::take(&mut p.blocks[bi].insts);
        let mut out = Vec::with_capacity(insts.len());
        // stores of p_startpgm's definitions wait for the end of the prologue
        let mut after_start: Vec<MInst> = Vec::new();
        for (k, mut i) in insts.into_iter().enumerate() {
            if bi == 0 && k == pe {
                out.append(&mut after_start);
            }
            // a rematerialised definition goes: copies of it come before the uses
            if matches!(i.defs[..], [Arg::Temp(t)] if matches!(slots.get(&t), Some(Slot::Remat(_))))
            {
                continue;
            }
            if i.is_copy() {
                split_copy(p, st, &slots, &remat, &mut i, &mut out);
                if i.defs.is_empty() {
                    continue;
                }
            }
            let mut reloaded: SmallVec<[(Temp, Temp); 4]> = SmallVec::new();
            for o in i.ops.iter_mut() {
                let Arg::Temp(t) = *o else { continue };
                let Some(&slot) = slots.get(&t) else {
                    continue;
                };
                let r = match reloaded.iter().find(|(old, _)| *old == t) {
                    Some(&(_, r)) => r,
                    None => {
                        let r = p.new_temp(p.temps[t.0 as usize]);
                        st.no_spill.insert(r);
                        reloaded.push((t, r));
                        out.extend(spill_code(p, st, &remat, slot, r, true));
                        r
                    }
                };
                *o = Arg::Temp(r);
            }
            let mut stores: Vec<MInst> = Vec::new();
            for d in i.defs.iter_mut() {
                let Arg::Temp(t) = *d else { continue };
                if let Some(&slot) = slots.get(&t) {
                    let v = if defs[&t] > 1 {
                        let v = p.new_temp(p.temps[t.0 as usize]);
                        st.no_spill.insert(v);
                        *d = Arg::Temp(v);
                        v
                    } else {
                        t
                    };
                    stores.extend(spill_code(p, st, &remat, slot, v, false));
                }
            }
            let start = i.op == Op::Pseudo(Pseudo::StartPgm);
            out.push(i);
            if start {
                after_start = stores;
            } else {
                out.append(&mut stores);
            }
        }
        out.append(&mut after_start);
        p.blocks[bi].insts = out;
    }
}

/// The pairs of a parallel copy (a phi web's definition at the end of a predecessor)
/// that touch a spilled temp move out of it, one at a time, wherever no other pair
/// reads their destination (so writing it early changes nothing the copy reads):
/// - into a spilled temp: a store of the source (reloaded first when spilled too);
/// - from a spilled temp: a reload and a one-pair copy.
///
/// Left in the copy, every such pair would need its source (a reload) in a register at
/// the copy, all at once, and its destination's register right after; moved out, each
/// needs one at a time, and a destination left in a register is a candidate for the
/// next round like any other temp.
fn split_copy(
    p: &mut Program,
    st: &mut State,
    slots: &BTreeMap<Temp, Slot>,
    remat: &[MInst],
    i: &mut MInst,
    out: &mut Vec<MInst>,
) {
    let mut j = 0;
    while j < i.defs.len() {
        if let (Arg::Temp(t), Arg::Temp(s)) = (i.defs[j], i.ops[j]) {
            let read = i.ops.iter().any(|o| *o == Arg::Temp(t));
            let same = p.temps[s.0 as usize] == p.temps[t.0 as usize];
            let (to, from) = (slots.get(&t).copied(), slots.get(&s).copied());
            if !read && same && (to.is_some() || from.is_some()) {
                let v = match from {
                    Some(from) => {
                        let r = p.new_temp(p.temps[s.0 as usize]);
                        st.no_spill.insert(r);
                        out.extend(spill_code(p, st, remat, from, r, true));
                        r
                    }
                    None => s,
                };
                match to {
                    Some(slot) => out.extend(spill_code(p, st, remat, slot, v, false)),
                    None => out.push(MInst::pseudo(
                        Pseudo::ParallelCopy,
                        &[Arg::Temp(t)],
                        &[Arg::Temp(v)],
                    )),
                }
                i.defs.remove(j);
                i.ops.remove(j);
                continue;
            }
        }
        j += 1;
    }
}
