//! One-dword buffer stores to consecutive offsets become one wider store (machine SSA,
//! before register allocation): `buffer_store_dword d0, v, s, 0 offen offset:0` … `offset:12`
//! becomes `buffer_store_dwordx4 (d0, d1, d2, d3), v, s, 0 offen offset:0`.
//!
//! Where the runs come from: a shader writing `o[k + 0] = …; o[k + 1] = …; …` stores one
//! component at a time; after `fold_address_offsets` all of them read the same address
//! VGPR and differ only in the immediate offset. The middle end combines loads only.
//!
//! When it is sound (what is checked): the stores are `buffer_store_dword` (MUBUF,
//! `offen`, no `idxen`) in one block with the same address, descriptor, `soffset` and cache
//! bits, and no instruction between the first and the last of a run accesses memory,
//! waits, synchronises, branches or writes exec (so no other access can observe the order,
//! and every store runs in the same lanes); two stores of the same place never join. Each
//! merged store takes the place of the last store it replaces, where every data value it
//! stores is defined (not the end of the whole run: a long run of stores, such as a
//! private array's initialisation, would keep every value live to its end). Dword
//! alignment of the merged access is that of its first dword, which is what the buffer
//! instructions need; the stores keep their lanes' bounds checks per dword
//! in the raw buffers of the ABI.
//!
//! Runs are cut into stores of four, three or two dwords (the largest first); a store that
//! joins nothing stays. The data becomes a `p_create_vector`, which register allocation
//! builds in place when the values' live ranges allow.
//!
//! Invariant: the program stays valid MIR; linear in the number of instructions of a
//! block (plus sorting each run).

use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo, RegClass};
use crate::isa::tables::Props;
use crate::isa::{Format, Mods, Opcode};
use std::collections::{BTreeMap, BTreeSet};

/// Merges runs of one-dword buffer stores; returns how many stores were removed.
pub fn merge_buffer_stores(p: &mut Program) -> u32 {
    let gen = p.target.gen;
    let Some(one) = Opcode::BufferStoreDword.on(gen) else {
        return 0;
    };
    let wide: Vec<Option<Opcode>> = [
        Opcode::BufferStoreDwordx2,
        Opcode::BufferStoreDwordx3,
        Opcode::BufferStoreDwordx4,
    ]
    .iter()
    .map(|o| o.on(gen))
    .collect();
    let mut removed = 0;
    for b in 0..p.blocks.len() {
        let insts = std::mem::take(&mut p.blocks[b].insts);
        let mut out: Vec<MInst> = Vec::with_capacity(insts.len());
        // the open run: positions in `out` of stores with the same key
        let mut run: Vec<usize> = Vec::new();
        for i in insts {
            if is_store(&i, one) {
                let joins = run.first().is_some_and(|&f| {
                    same_key(&out[f], &i)
                        && run
                            .iter()
                            .all(|&r| out[r].mods.mem.offset != i.mods.mem.offset)
                });
                if !joins {
                    removed += flush(p, &mut out, &mut run, &wide);
                }
                run.push(out.len());
                out.push(i);
                continue;
            }
            if fence(&i) {
                removed += flush(p, &mut out, &mut run, &wide);
            }
            out.push(i);
        }
        removed += flush(p, &mut out, &mut run, &wide);
        p.blocks[b].insts = out;
    }
    removed
}

fn is_store(i: &MInst, one: Opcode) -> bool {
    matches!(i.op, Op::Hw(o, Format::Mubuf) if o == one)
        && i.mods.mem.offen
        && !i.mods.mem.idxen
        && i.ops.len() == 4
        && matches!(i.ops[0], Arg::Temp(_))
}

/// Same address, descriptor, `soffset` and modifiers but the offset.
fn same_key(a: &MInst, b: &MInst) -> bool {
    let strip = |m: Mods| {
        let mut m = m;
        m.mem.offset = 0;
        m
    };
    a.ops[1..] == b.ops[1..] && strip(a.mods) == strip(b.mods)
}

/// Whether a run of stores may not extend over `i`.
fn fence(i: &MInst) -> bool {
    match i.op {
        Op::Pseudo(Pseudo::ParallelCopy | Pseudo::CreateVector | Pseudo::SplitVector) => false,
        Op::Pseudo(_) => true,
        Op::Hw(o, _) => {
            o.props().intersects(
                Props::VMEM
                    | Props::LDS
                    | Props::SMEM
                    | Props::BARRIER
                    | Props::WAITCNT
                    | Props::CACHE_INV
                    | Props::BRANCH
                    | Props::END_PGM
                    | Props::EXPORT
                    | Props::WRITES_EXEC
                    | Props::ATOMIC,
            ) || i.defs.iter().any(|d| matches!(d, Arg::Reg(_)))
        }
    }
}

/// Replaces the stores of `run` (positions in `out`) by wider ones where their offsets
/// are consecutive; returns how many stores went.
fn flush(
    p: &mut Program,
    out: &mut Vec<MInst>,
    run: &mut Vec<usize>,
    wide: &[Option<Opcode>],
) -> u32 {
    if run.len() < 2 {
        run.clear();
        return 0;
    }
    let mut by_off: Vec<usize> = run.clone();
    by_off.sort_by_key(|&r| out[r].mods.mem.offset);
    // position of the chunk's last store → the merged pair that replaces it
    let mut merged: BTreeMap<usize, [MInst; 2]> = BTreeMap::new();
    let mut gone: BTreeSet<usize> = BTreeSet::new();
    let mut k = 0;
    while k < by_off.len() {
        // the consecutive run from k
        let mut e = k + 1;
        while e < by_off.len()
            && out[by_off[e]].mods.mem.offset == out[by_off[e - 1]].mods.mem.offset + 4
        {
            e += 1;
        }
        let mut s = k;
        while e - s >= 2 {
            let n = (e - s).min(4);
            let Some(op) = wide[n - 2] else {
                break;
            };
            let chunk = &by_off[s..s + n];
            let parts: Vec<Arg> = chunk.iter().map(|&r| out[r].ops[0]).collect();
            let data = Arg::Temp(p.new_temp(RegClass::v(n as u8)));
            let first = &out[chunk[0]];
            let mut st = MInst::hw(op, Format::Mubuf, &[], &first.ops);
            st.ops[0] = data;
            st.mods = first.mods;
            let vec = MInst::pseudo(Pseudo::CreateVector, &[data], &parts);
            merged.insert(*chunk.iter().max().unwrap(), [vec, st]);
            gone.extend(chunk.iter().copied());
            s += n;
        }
        k = e;
    }
    run.clear();
    let Some(&start) = gone.first() else {
        return 0;
    };
    let removed = gone.len() - merged.len();
    let tail = out.split_off(start);
    for (j, i) in tail.into_iter().enumerate() {
        let j = start + j;
        if let Some(pair) = merged.remove(&j) {
            out.extend(pair);
        } else if !gone.contains(&j) {
            out.push(i);
        }
    }
    removed as u32
}
