//! The compute-shader prolog: puts user data where the main part assumed it.
//!
//! Inputs (the key): the final user-SGPR contents (`inputs[i]` in s_i, from the pipeline
//! state), the descriptor table's dwords, what the main part assumed (`outputs[j]` wanted in
//! s_j, from its pre-link metadata), and how many system SGPRs (TGID x/y/z, TG_SIZE) the
//! hardware writes after the user SGPRs. The hardware puts those system SGPRs right after
//! the *final* user SGPRs, so they move too when the counts differ.
//!
//! Plan ([`CsPrologKey::plan`]): every wanted SGPR is a register move from the final
//! position of the same item, or a load from the descriptor table; anything else is a
//! `link::Error::State`. Code, in order:
//! 1. with loads: `s_getpc_b64 s[t:t+1]; s_mov_b32 s[t], s[ptr]` — a 64-bit table address
//!    from the table pointer's low half and the PC's high half (pal-abi §2.6), made before
//!    any move can overwrite `ptr`;
//! 2. the moves as a parallel copy: a move is emitted once no pending move still reads its
//!    destination; when only cycles remain, one destination is saved to a fresh scratch
//!    SGPR and its readers read the scratch instead;
//! 3. the loads, `s_load_dword s[j], s[t:t+1], 4*k` — after the moves, because they
//!    overwrite move sources — merged into `s_load_dwordx2` where an even SGPR and its odd
//!    neighbour take consecutive table dwords; then `s_waitcnt lgkmcnt(0)`;
//! 4. `s_branch <next>` with an `R_AMDGPU_REL16` relocation (removed by the link stage
//!    when the next part is laid out right after).
//!
//! Scratch SGPRs start at the first even SGPR above both layouts (user + system SGPRs),
//! so nothing the main part reads is clobbered. The prolog writes no VGPR, EXEC, VCC, M0 or
//! SCC (s_mov and s_getpc do not write SCC), and it leaves no memory counter outstanding:
//! the boundary contract of docs/link.md.

use super::code::PartCode;
use super::{Part, PartError};
use crate::binary::prelink::{Item, UserSgpr};
use crate::isa::{BufferError, CodeBuffer, Target};

/// Everything the CS prolog depends on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CsPrologKey {
    /// Target GPU and wave size.
    pub target: Target,
    /// Final user SGPR i holds `inputs[i]`.
    pub inputs: Vec<Item>,
    /// Descriptor-table dword k holds `table[k]`.
    pub table: Vec<Item>,
    /// The main part wants `outputs[j]` in user SGPR j.
    pub outputs: Vec<Item>,
    /// System SGPRs after the user SGPRs (enabled TGID x/y/z plus TG_SIZE).
    pub system_sgprs: u16,
    /// Symbol of the part that follows.
    pub next: String,
}

/// Where one wanted SGPR comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Final user/system SGPR n.
    Sgpr(u16),
    /// Descriptor-table dword k.
    Table(u16),
}

/// The prolog's work, before encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// (destination SGPR, source) for every SGPR whose value must change.
    pub moves: Vec<(u16, Source)>,
    /// SGPR holding the descriptor table's low address, when there are loads.
    pub table_ptr: Option<u16>,
    /// First scratch SGPR (even).
    pub scratch: u16,
}

impl Plan {
    /// Nothing to do: the layouts agree and no prolog is needed.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl CsPrologKey {
    /// The items a main part assumed, as layout items (`Workgroup` and unknown kinds have
    /// no place in a user-data layout and are a state error).
    pub fn outputs_from(assumed: &[UserSgpr]) -> Result<Vec<Item>, PartError> {
        assumed
            .iter()
            .enumerate()
            .map(|(j, u)| {
                Item::from_assumed(u).ok_or_else(|| {
                    PartError::Unsatisfiable(format!(
                        "the main part assumes {u:?} in user SGPR {j}; the link stage cannot \
                         supply it from a user-data layout"
                    ))
                })
            })
            .collect()
    }

    /// Works out the moves and loads.
    pub fn plan(&self) -> Result<Plan, PartError> {
        let n_in = self.inputs.len() as u16;
        let n_out = self.outputs.len() as u16;
        let mut moves = Vec::new();
        let mut table_ptr = None;
        for (j, want) in self.outputs.iter().enumerate() {
            let j = j as u16;
            if *want == Item::Unused {
                continue;
            }
            let src = if let Some(i) = self.inputs.iter().position(|x| x == want) {
                Source::Sgpr(i as u16)
            } else if let Some(k) = self.table.iter().position(|x| x == want) {
                let p = self
                    .inputs
                    .iter()
                    .position(|x| *x == Item::DescriptorTable)
                    .ok_or_else(|| {
                        PartError::Unsatisfiable(
                            "the descriptor table is used but no user SGPR points to it".into(),
                        )
                    })?;
                table_ptr = Some(p as u16);
                Source::Table(k as u16)
            } else {
                return Err(PartError::Unsatisfiable(format!(
                    "the main part assumes {} in user SGPR {j}; the layout has it neither in a \
                     user SGPR nor in the descriptor table",
                    want.text()
                )));
            };
            if src != Source::Sgpr(j) {
                moves.push((j, src));
            }
        }
        for k in 0..self.system_sgprs {
            if n_in != n_out {
                moves.push((n_out + k, Source::Sgpr(n_in + k)));
            }
        }
        let top = n_in.max(n_out) + self.system_sgprs;
        Ok(Plan {
            moves,
            table_ptr,
            scratch: top.next_multiple_of(2),
        })
    }

    /// Stable text of the key (hashed for the part caches).
    pub fn canonical(&self) -> String {
        let list = |v: &[Item]| v.iter().map(Item::text).collect::<Vec<_>>().join(",");
        format!(
            "cs_prolog;target={};wave={};in=[{}];table=[{}];out=[{}];sys={};next={}",
            self.target.mcpu(),
            self.target.wave.lanes(),
            list(&self.inputs),
            list(&self.table),
            list(&self.outputs),
            self.system_sgprs,
            self.next
        )
    }

    /// Encodes the prolog.
    pub fn build(&self, symbol: &str) -> Result<Part, PartError> {
        self.build_at(symbol, "cs_prolog", 0)
    }

    /// Encodes the prolog as part `kind` for a stage whose user SGPRs start at s`base`
    /// (every SGPR of the plan, scratch included, counted from there; the graphics
    /// stages' user-data prolog, `parts::user_data_prolog`).
    pub(crate) fn build_at(
        &self,
        symbol: &str,
        kind: &'static str,
        base: u16,
    ) -> Result<Part, PartError> {
        let mut plan = self.plan()?;
        for m in &mut plan.moves {
            m.0 += base;
            if let Source::Sgpr(s) = &mut m.1 {
                *s += base;
            }
        }
        plan.table_ptr = plan.table_ptr.map(|p| p + base);
        plan.scratch += base;
        let t = self.target;
        let mut c = CodeBuffer::new(t);
        let enc = |e: BufferError| PartError::Encode(e.to_string());
        let mut next_scratch = plan.scratch;
        let mut clobbers = Vec::new();
        let table_base = match plan.table_ptr {
            Some(p) => {
                let b = next_scratch;
                next_scratch += 2;
                c.s_getpc(b).map_err(enc)?;
                c.s_mov(b, p).map_err(enc)?;
                clobbers.extend([b, b + 1]);
                Some(b)
            }
            None => None,
        };
        // Parallel copy of register moves.
        let mut pending: Vec<(u16, u16)> = plan
            .moves
            .iter()
            .filter_map(|&(d, s)| match s {
                Source::Sgpr(s) => Some((d, s)),
                Source::Table(_) => None,
            })
            .collect();
        while !pending.is_empty() {
            let ready = pending
                .iter()
                .position(|&(d, _)| !pending.iter().any(|&(_, s)| s == d));
            match ready {
                Some(i) => {
                    let (d, s) = pending.remove(i);
                    c.s_mov(d, s).map_err(enc)?;
                }
                None => {
                    // Only cycles left: save one destination and redirect its readers.
                    let d = pending[0].0;
                    let tmp = next_scratch;
                    next_scratch += 1;
                    clobbers.push(tmp);
                    c.s_mov(tmp, d).map_err(enc)?;
                    for m in pending.iter_mut() {
                        if m.1 == d {
                            m.1 = tmp;
                        }
                    }
                }
            }
        }
        // Table loads, in destination order; an even destination whose odd neighbour takes
        // the next table dword is one s_load_dwordx2 (a 64-bit pointer pair, typically).
        let mut table_loads: Vec<(u16, u16)> = plan
            .moves
            .iter()
            .filter_map(|&(d, s)| match s {
                Source::Table(k) => Some((d, k)),
                Source::Sgpr(_) => None,
            })
            .collect();
        table_loads.sort();
        let mut loads = 0;
        let mut i = 0;
        while i < table_loads.len() {
            let (d, k) = table_loads[i];
            let base = table_base.expect("loads have a table base");
            let pair = d % 2 == 0 && table_loads.get(i + 1) == Some(&(d + 1, k + 1));
            if pair {
                c.s_load_dwordx2(d, base, 4 * k as u32).map_err(enc)?;
                i += 2;
            } else {
                c.s_load_dword(d, base, 4 * k as u32).map_err(enc)?;
                i += 1;
            }
            loads += 1;
        }
        if loads > 0 {
            c.wait_lgkm().map_err(enc)?;
        }
        c.branch_to_symbol(&self.next).map_err(enc)?;
        let code = c.finish().map_err(enc)?;
        let top = base + self.inputs.len().max(self.outputs.len()) as u16 + self.system_sgprs;
        let sgprs = next_scratch.max(top) as u32;
        let (n_in, n_out) = (
            base as usize + self.inputs.len(),
            base as usize + self.outputs.len(),
        );
        Ok(Part {
            kind,
            symbol: symbol.to_string(),
            next: Some(self.next.clone()),
            code: code.bytes,
            relocations: code.relocations,
            sgprs,
            vgprs: 0,
            interface: vec![
                ("inputs", self.inputs.iter().map(Item::text).collect()),
                ("table", self.table.iter().map(Item::text).collect()),
                ("outputs", self.outputs.iter().map(Item::text).collect()),
                (
                    "system_sgprs",
                    vec![format!(
                        "s{}..s{} -> s{}..s{}",
                        n_in,
                        n_in + self.system_sgprs as usize,
                        n_out,
                        n_out + self.system_sgprs as usize
                    )],
                ),
                (
                    "clobbers",
                    clobbers.iter().map(|s| format!("s{s}")).collect(),
                ),
                (
                    "exit",
                    vec![
                        "lgkmcnt=0".into(),
                        "vmcnt=0".into(),
                        "no_pending_hazard".into(),
                    ],
                ),
            ],
            target: self.target,
            loads,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Item::*;

    fn key(inputs: Vec<Item>, table: Vec<Item>, outputs: Vec<Item>, sys: u16) -> CsPrologKey {
        CsPrologKey {
            target: Target::new(crate::isa::Gen::Gfx10),
            inputs,
            table,
            outputs,
            system_sgprs: sys,
            next: "next".into(),
        }
    }

    #[test]
    fn plans() {
        // Same layout: nothing to do.
        let k = key(vec![PushConstant(0)], vec![], vec![PushConstant(0)], 2);
        assert!(k.plan().unwrap().is_empty());
        // A swap plus the TGID SGPR, which moves only when the counts differ.
        let k = key(
            vec![PushConstant(1), PushConstant(0)],
            vec![],
            vec![PushConstant(0), PushConstant(1)],
            1,
        );
        let p = k.plan().unwrap();
        assert_eq!(p.moves, [(0, Source::Sgpr(1)), (1, Source::Sgpr(0))]);
        assert_eq!(p.scratch, 4);
        // From the table; one fewer user SGPR, so the TGID SGPR moves from s1 to s2.
        let k = key(
            vec![DescriptorTable],
            vec![DescriptorSet(3), PushConstant(0)],
            vec![PushConstant(0), DescriptorSet(3)],
            1,
        );
        let p = k.plan().unwrap();
        assert_eq!(
            p.moves,
            [
                (0, Source::Table(1)),
                (1, Source::Table(0)),
                (2, Source::Sgpr(1))
            ]
        );
        assert_eq!(p.table_ptr, Some(0));
        // Not available anywhere.
        let k = key(vec![PushConstant(0)], vec![], vec![DescriptorSet(0)], 0);
        assert!(matches!(k.plan(), Err(PartError::Unsatisfiable(_))));
    }
}
