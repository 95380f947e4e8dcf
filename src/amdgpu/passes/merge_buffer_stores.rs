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
//! Before that, two 16-bit stores of one dword (`buffer_store_short` at offsets 4k and
//! 4k + 2, same key, nothing fencing between them, no other store to either half in
//! between) become one dword store of `v_perm_b32 d, hi, lo, 0x05040100` (bytes 0–1 of
//! the low half's data, then bytes 0–1 of the high half's: the upper bits of a 16-bit
//! value's register are undefined, so the select picks only the stored bytes), placed at
//! the later store; those dword stores then join runs like any other. ACO pairs 16-bit
//! stores the same way (its gfx1030 output for tests/shaders/compute/arith_i16 stores ten
//! shorts as one x4 and one dword). Bounds: RADV writes a storage buffer descriptor's
//! range rounded up to a multiple of 4 bytes, plain and dynamic alike (Mesa
//! src/amd/vulkan/radv_descriptors.h, `radv_write_buffer_descriptor` and
//! `radv_write_dynamic_buffer_descriptor`, `align(range, 4)`; radv_descriptor_set.c's
//! `write_buffer_descriptor` in older Mesa), citing robustBufferAccess's leave and its
//! 4-byte-aligned buffer sizes; so the dword is in bounds whenever its low half is, and a
//! high half past the application's range lands in the buffer's own memory, which
//! robustBufferAccess lets an out-of-bounds write modify. GFX9 has no literal in VOP3:
//! the selector goes into one SGPR per block
//! (`s_mov_b32`, before the block's first pair).
//!
//! Invariant: the program stays valid MIR; linear in the number of instructions of a
//! block (plus sorting each run).

use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo, RegClass};
use crate::isa::tables::Props;
use crate::isa::{Format, Gen, Mods, Opcode};
use std::collections::{BTreeMap, BTreeSet};

/// `v_perm_b32` selector: bytes 0–1 from src1 (the low half), then bytes 0–1 of src0.
const PACK_LOW_HALVES: u32 = 0x0504_0100;

/// Pairs 16-bit stores into dword stores, then merges runs of one-dword buffer stores;
/// returns how many stores were removed.
pub fn merge_buffer_stores(p: &mut Program) -> u32 {
    let gen = p.target.gen;
    let Some(one) = Opcode::BufferStoreDword.on(gen) else {
        return 0;
    };
    let mut removed = pair_short_stores(p, one);
    let wide: Vec<Option<Opcode>> = [
        Opcode::BufferStoreDwordx2,
        Opcode::BufferStoreDwordx3,
        Opcode::BufferStoreDwordx4,
    ]
    .iter()
    .map(|o| o.on(gen))
    .collect();
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

/// The 16-bit half of [`merge_buffer_stores`]: `buffer_store_short` pairs covering one
/// dword become `v_perm_b32` + `buffer_store_dword`; returns how many stores went.
fn pair_short_stores(p: &mut Program, dword: Opcode) -> u32 {
    let gen = p.target.gen;
    let (Some(short), Some(perm)) = (Opcode::BufferStoreShort.on(gen), Opcode::VPermB32.on(gen))
    else {
        return 0;
    };
    let literal_ok = gen != Gen::Gfx9;
    let mut removed = 0;
    for b in 0..p.blocks.len() {
        let insts = std::mem::take(&mut p.blocks[b].insts);
        let mut out: Vec<Option<MInst>> = Vec::with_capacity(insts.len());
        // short stores since the last fence, not yet paired: positions in `out`
        let mut open: Vec<usize> = Vec::new();
        // the block's selector register (GFX9)
        let mut sel: Option<Arg> = None;
        for i in insts {
            if !is_store(&i, short) {
                if fence(&i) {
                    open.clear();
                }
                out.push(Some(i));
                continue;
            }
            let off = i.mods.mem.offset;
            let at = |r: usize, out: &[Option<MInst>]| {
                out[r]
                    .as_ref()
                    .filter(|o| same_key(o, &i))
                    .map(|o| o.mods.mem.offset)
            };
            // an earlier store to this half: it must stay before this one, so nothing
            // open pairs across it
            if open.iter().any(|&r| at(r, &out) == Some(off)) {
                open.clear();
            }
            // the other half of the dword (odd offsets pair with nothing)
            let want = match off % 4 {
                0 => off + 2,
                2 => off - 2,
                _ => i32::MIN,
            };
            let partner = open.iter().position(|&r| at(r, &out) == Some(want));
            let Some(k) = partner else {
                open.push(out.len());
                out.push(Some(i));
                continue;
            };
            let r = open.remove(k);
            let other = out[r].take().expect("an open store is in place");
            let (lo, hi) = if off % 4 == 0 {
                (i.ops[0], other.ops[0])
            } else {
                (other.ops[0], i.ops[0])
            };
            let selector = if literal_ok {
                Arg::Const(PACK_LOW_HALVES)
            } else {
                *sel.get_or_insert_with(|| {
                    let t = Arg::Temp(p.new_temp(RegClass::S1));
                    out.push(Some(MInst::hw(
                        Opcode::SMovB32,
                        Format::Sop1,
                        &[t],
                        &[Arg::Const(PACK_LOW_HALVES)],
                    )));
                    t
                })
            };
            let data = Arg::Temp(p.new_temp(RegClass::v(1)));
            out.push(Some(MInst::hw(
                perm,
                Format::Vop3,
                &[data],
                &[hi, lo, selector],
            )));
            let mut st = MInst::hw(dword, Format::Mubuf, &[], &i.ops);
            st.ops[0] = data;
            st.mods = i.mods;
            st.mods.mem.offset = off.min(want);
            out.push(Some(st));
            removed += 1;
        }
        p.blocks[b].insts = out.into_iter().flatten().collect();
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
