//! Affinities: which temps want their register at a fixed dword offset from another
//! temp's, so that the copies the pseudo instructions stand for vanish after
//! allocation (`lower_to_hw` drops identity moves).
//!
//! Sources, all between temps of the same register file:
//! - `p_parallelcopy`: each destination wants its source's register (and back), which
//!   coalesces copies into and out of phi webs and the splits' new temps;
//! - `p_create_vector`: each piece wants the vector's register + its offset, so the
//!   values are computed in place in the tuple their use needs (store data, image
//!   coordinates, 64-bit pairs);
//! - `p_split_vector`: each piece wants the whole's register + its offset (scalar load
//!   results stay where the load wrote them).
//!
//! Design: a compressed table per temp of `(other, offset)` meaning "my base = other's
//! base + offset", both directions of every relation. Assignment asks for the hinted
//! bases of a temp: directly from an assigned partner, or through one unassigned
//! partner to that partner's assigned partners (the sibling pieces of one vector meet
//! through the vector, which is assigned after them). Each temp consults at most
//! `MAX_HINTS` partners per level, so the cost stays linear in the program.
//! Affinities are only preferences: assignment takes a hinted base only when it is
//! aligned, inside the file and free for the temp's whole start, exactly the conditions
//! of any other base.

use crate::amdgpu::mir::{Arg, Op, Program, Pseudo};

/// Partners consulted per temp and per level.
pub const MAX_HINTS: usize = 8;

pub struct Affinities {
    /// `hints[start[t]..start[t + 1]]` are temp t's partners.
    start: Vec<u32>,
    hints: Vec<(u32, i32)>,
    /// For a piece of a vector built by `p_create_vector`: (vector temp, dword offset).
    /// The first such vector when a temp is a piece of several.
    pub vector_of: Vec<Option<(u32, u16)>>,
    /// For a temp defined by `p_split_vector` or `p_parallelcopy` from a temp: (source,
    /// dword offset of this temp's value in the source). Neither is a phi web, so both
    /// keep one value for their whole life and may share registers while both live.
    pub view_of: Vec<Option<(u32, u16)>>,
}

impl Affinities {
    pub fn new(p: &Program) -> Affinities {
        let n = p.temps.len();
        let mut pairs: Vec<(u32, u32, i32)> = Vec::new();
        let mut vector_of = vec![None; n];
        let mut view_of = vec![None; n];
        let single = |t: crate::amdgpu::mir::Temp| !p.multi_def.contains(&t);
        let same_file = |a: u32, b: u32| p.temps[a as usize].ty == p.temps[b as usize].ty;
        let width = |a: &Arg| a.temp().map_or(1, |t| p.rc(t).dwords as i32);
        let relate = |pairs: &mut Vec<(u32, u32, i32)>, a: u32, b: u32, off: i32| {
            if a != b && same_file(a, b) {
                pairs.push((a, b, off));
                pairs.push((b, a, -off));
            }
        };
        for b in &p.blocks {
            for i in &b.insts {
                match i.op {
                    Op::Pseudo(Pseudo::ParallelCopy) => {
                        for (d, o) in i.defs.iter().zip(&i.ops) {
                            if let (Some(d), Some(o)) = (d.temp(), o.temp()) {
                                if p.rc(d) == p.rc(o) {
                                    relate(&mut pairs, d.0, o.0, 0);
                                    if single(d) && single(o) && d != o {
                                        view_of[d.0 as usize] = Some((o.0, 0));
                                    }
                                }
                            }
                        }
                    }
                    Op::Pseudo(Pseudo::CreateVector) | Op::Pseudo(Pseudo::SplitVector) => {
                        let create = i.op == Op::Pseudo(Pseudo::CreateVector);
                        let (whole, parts) = if create {
                            (i.defs.first(), &i.ops[..])
                        } else {
                            (i.ops.first(), &i.defs[..])
                        };
                        let Some(w) = whole.and_then(|a| a.temp()) else {
                            continue;
                        };
                        let mut off = 0;
                        for a in parts.iter() {
                            if let Some(t) = a.temp() {
                                relate(&mut pairs, t.0, w.0, off);
                                if create
                                    && vector_of[t.0 as usize].is_none()
                                    && same_file(t.0, w.0)
                                {
                                    vector_of[t.0 as usize] = Some((w.0, off as u16));
                                }
                                if !create && single(t) && single(w) && same_file(t.0, w.0) {
                                    view_of[t.0 as usize] = Some((w.0, off as u16));
                                }
                            }
                            off += width(a);
                        }
                    }
                    _ => {}
                }
            }
        }
        // counting sort by temp; the order within a temp is program order
        let mut start = vec![0u32; n + 1];
        for &(a, _, _) in &pairs {
            start[a as usize + 1] += 1;
        }
        for t in 0..n {
            start[t + 1] += start[t];
        }
        let mut fill = start.clone();
        let mut hints = vec![(0u32, 0i32); pairs.len()];
        for &(a, b, off) in &pairs {
            hints[fill[a as usize] as usize] = (b, off);
            fill[a as usize] += 1;
        }
        Affinities {
            start,
            hints,
            vector_of,
            view_of,
        }
    }

    /// Temp t's partners: (other temp, t's base − other's base), at most `MAX_HINTS`.
    pub fn of(&self, t: usize) -> &[(u32, i32)] {
        match self.start.get(t + 1) {
            Some(&e) => {
                let s = self.start[t] as usize;
                &self.hints[s..(e as usize).min(s + MAX_HINTS)]
            }
            None => &[],
        }
    }
}
