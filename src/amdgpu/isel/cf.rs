//! Structured control flow → logical + linear CFG.
//!
//! Uniform `if` (condition an SGPR 0/1):
//! ```text
//! pre:   s_cmp_lg_u32 c, 0 ; s_cbranch_scc0 ELSE        then → merge, else → merge
//! ```
//! Divergent `if` (condition a lane mask m), ACO's shape:
//! ```text
//! pre:    saved = s_and_saveexec m ; s_cbranch_execz INVERT
//! then:   ...
//! invert: t = exec ; exec = saved & ~m ; s_cbranch_execz MERGE
//! else:   ...
//! merge:  exec = exec | t
//! ```
//! Lanes that left through `break`/`continue`/`return` in an arm have exec 0 at its end,
//! so they are absent from `t` and from `saved & ~m`: they never come back at the merge.
//! When no arm can drop lanes (no such jump, no discard), `t` is not kept and the merge is
//! `exec = saved`. With an empty else arm the invert block only computes `t = saved & ~m`
//! (or nothing, when the merge restores `saved`). When one arm is empty and the other
//! only clears exec (a lone `break` out of a loop whose exit mask is its entry exec, or a
//! `return`), the clearing arm's lanes never come back: the saveexec becomes
//! `exec &= ~m` (then-arm clears) or `exec &= m` (else-arm clears), with nothing in the
//! invert block or at the merge, as ACO's code for `if (c) break;` removes the breaking
//! lanes in one instruction.
//!
//! Uniform loop: the latch branches back; `break`/`continue` are `s_branch`es.
//! Divergent loop: `continue` ORs exec into the loop's continue mask (cleared in the
//! header; only loops with a `continue` of their own have one) and clears exec; the latch
//! restores exec |= cont and leaves when exec is empty. `break` clears exec, and the
//! exit sets exec to the loop's exit mask: the lanes that break. When no lane can leave
//! the loop any other way (no `return` in it, at any depth, and no discard: compute
//! shaders), every lane that enters it leaves through a break or the header's exit test,
//! so the exit mask is exec at the loop's entry (`s_mov e, exec` before it, as ACO keeps
//! it) and a break is only `exec = 0`. Otherwise `break` ORs exec into a break mask
//! (zero before the loop), which is the exit mask. `return` inside divergent control
//! clears exec (returned lanes are in no mask, so they stay off); at top level under
//! uniform control it branches to the final `s_endpgm`.

use super::{Isel, LoopCx};
use crate::amdgpu::mir::{Arg, BlockId, MInst, RegClass};
use crate::amdgpu::Error;
use crate::ir::{self, CfNode, JumpKind, Value};
use crate::isa::{Format, Opcode};

impl Isel<'_> {
    fn new_block(&mut self) -> crate::amdgpu::mir::BlockId {
        self.p.new_block(self.loop_depth)
    }

    pub(super) fn if_node(
        &mut self,
        cond: Value,
        then_body: &[CfNode],
        else_body: &[CfNode],
    ) -> Result<(), Error> {
        if self.dead {
            return Ok(());
        }
        if self.div.is_divergent(cond) {
            return self.divergent_if(cond, then_body, else_body);
        }
        let c = self.ubool(cond, 0)?;
        let c = Arg::Temp(self.to_sgpr(c)?);
        self.hw(Opcode::SCmpLgU32, &[], &[c, Arg::Const(0)])?;
        let pre = self.cur;
        let to_else = self.branch(Opcode::SCbranchScc0, pre)?;
        let then_b = self.new_block();
        self.p.add_edge(pre, then_b, true);
        self.cur = then_b;
        self.list(then_body)?;
        let then_dead = std::mem::replace(&mut self.dead, false);
        let then_end = self.cur;
        let to_merge = if then_dead {
            None
        } else {
            Some(self.branch(Opcode::SBranch, then_end)?)
        };
        let else_b = self.new_block();
        self.p.add_edge(pre, else_b, true);
        self.patch(to_else, else_b);
        self.cur = else_b;
        self.list(else_body)?;
        let else_dead = std::mem::replace(&mut self.dead, false);
        let else_end = self.cur;
        let merge = self.new_block();
        if let Some(at) = to_merge {
            self.patch(at, merge);
            self.p.add_edge(then_end, merge, true);
        }
        if !else_dead {
            self.p.add_edge(else_end, merge, true);
        }
        self.cur = merge;
        self.dead = then_dead && else_dead;
        Ok(())
    }

    fn divergent_if(
        &mut self,
        cond: Value,
        then_body: &[CfNode],
        else_body: &[CfNode],
    ) -> Result<(), Error> {
        let mrc = self.mask_rc();
        let m = self.mask(cond, 0)?;
        // the mask must survive the then-arm: keep it in a temp
        let m = match m {
            Arg::Temp(_) => m,
            other => {
                let t = self.tmp(mrc);
                self.hw_lane(Opcode::SMovB32, &[Arg::Temp(t)], &[other])?;
                Arg::Temp(t)
            }
        };
        let saved = self.tmp(mrc);
        self.hw_lane(Opcode::SAndSaveexecB32, &[Arg::Temp(saved)], &[m])?;
        let pre = self.cur;
        let to_invert = self.branch(Opcode::SCbranchExecz, pre)?;
        let then_b = self.new_block();
        self.p.add_edge(pre, then_b, true);
        self.cur = then_b;
        self.div_if_depth += 1;
        self.list(then_body)?;
        let then_end = self.cur;
        let invert = self.new_block();
        self.p.add_edge(then_end, invert, false);
        self.p.add_edge(pre, invert, false);
        self.patch(to_invert, invert);
        let else_b = self.new_block();
        self.p.add_edge(invert, else_b, false);
        self.cur = else_b;
        self.list(else_body)?;
        self.div_if_depth -= 1;
        let else_end = self.cur;
        let else_empty = else_end == else_b && self.p.block(else_b).insts.is_empty();
        let merge = self.new_block();
        self.p.add_edge(else_end, merge, true);
        self.p.add_edge(invert, merge, false);
        // logical edges: pre → else arm, then arm → merge
        self.p.block_mut(pre).logical_succs.push(else_b);
        self.p.block_mut(else_b).logical_preds.push(pre);
        self.p.block_mut(then_end).logical_succs.push(merge);
        self.p.block_mut(merge).logical_preds.push(then_end);
        let exec = self.p.exec();
        // One arm empty and the other only `exec = 0` (a lone break, continue-less
        // return, ...): the lanes of the clearing arm never come back, so exec at the
        // merge is the other arm's lanes, computed in place of the saveexec.
        let kept = if else_empty && self.only_clears_exec(then_b, then_end) {
            Some((Opcode::SAndn2B32, then_b))
        } else if then_end == then_b
            && self.p.block(then_b).insts.is_empty()
            && self.only_clears_exec(else_b, else_end)
        {
            Some((Opcode::SAndB32, else_b))
        } else {
            None
        };
        if let Some((o, clearing)) = kept {
            let o = self.lane_op(o)?;
            let at = &mut self.p.block_mut(pre).insts[to_invert.1 - 1];
            debug_assert_eq!(at.defs.as_slice(), [Arg::Temp(saved)]);
            *at = MInst::hw(o, Format::Sop2, &[exec], &[exec, m]);
            self.p.block_mut(clearing).insts.clear();
            self.cur = merge;
            self.after_divergent_if(then_body, else_body, merge)?;
            return Ok(());
        }
        // the invert block, filled now that the else arm is known
        self.cur = invert;
        let keeps_exec = self.arms_keep_exec(then_body, else_body);
        // lanes to bring back at the merge besides the else arm's (none: `saved`)
        let rest = if keeps_exec {
            None
        } else {
            Some(self.tmp(mrc))
        };
        match rest {
            Some(t) if else_empty => {
                self.hw_lane(Opcode::SAndn2B32, &[Arg::Temp(t)], &[Arg::Temp(saved), m])?;
            }
            _ if else_empty => {}
            _ => {
                if let Some(t) = rest {
                    self.hw_lane(Opcode::SMovB32, &[Arg::Temp(t)], &[exec])?;
                }
                self.hw_lane(Opcode::SAndn2B32, &[exec], &[Arg::Temp(saved), m])?;
                let to_merge = self.branch(Opcode::SCbranchExecz, invert)?;
                self.patch(to_merge, merge);
            }
        }
        self.cur = merge;
        match rest {
            Some(t) => self.hw_lane(Opcode::SOrB32, &[exec], &[exec, Arg::Temp(t)])?,
            None => self.hw_lane(Opcode::SMovB32, &[exec], &[Arg::Temp(saved)])?,
        }
        self.after_divergent_if(then_body, else_body, merge)
    }

    /// After the merge of a divergent `if`: ends the program when every lane may have
    /// returned.
    fn after_divergent_if(
        &mut self,
        then_body: &[CfNode],
        else_body: &[CfNode],
        merge: BlockId,
    ) -> Result<(), Error> {
        if self.loops.is_empty() && contains_return(then_body, else_body, self.f) {
            // every lane may have returned: nothing else to do then
            let at = self.branch(Opcode::SCbranchExecz, merge)?;
            self.end_patches.push(at);
            let cont = self.new_block();
            self.p.add_edge(merge, cont, true);
            self.cur = cont;
        }
        self.dead = false;
        Ok(())
    }

    /// Whether the arm that starts at block `first` and ends at `end` is one block holding
    /// only `exec = 0` (what a break out of a loop with an entry exit mask, or a return
    /// inside a loop, leaves).
    fn only_clears_exec(&self, first: BlockId, end: BlockId) -> bool {
        let exec = self.p.exec();
        let Ok(mov) = self.lane_op(Opcode::SMovB32) else {
            return false;
        };
        first == end
            && matches!(self.p.block(first).insts.as_slice(),
                [i] if i.opcode() == Some(mov)
                    && i.defs.as_slice() == [exec]
                    && i.ops.as_slice() == [Arg::Const(0)])
    }

    /// Whether every lane that enters the arms of a divergent `if` is still active at
    /// their ends: no `break`/`continue` of the enclosing loop, no `return`, and no
    /// discard (compute shaders have none). The merge then restores the saved exec.
    fn arms_keep_exec(&self, then_body: &[CfNode], else_body: &[CfNode]) -> bool {
        use crate::passes::cf::has_jump;
        self.m.stage == ir::Stage::Compute
            && [then_body, else_body].iter().all(|arm| {
                [JumpKind::Break, JumpKind::Continue, JumpKind::Return]
                    .iter()
                    .all(|k| !has_jump(self.f, arm, *k))
            })
    }

    pub(super) fn loop_node(&mut self, body: &[CfNode]) -> Result<(), Error> {
        if self.dead {
            return Ok(());
        }
        let header_ir = ir::func::first_block(body);
        let divergent = self.div.loop_is_divergent(header_ir);
        let mrc = self.mask_rc();
        // `exit_mask`: exec after the loop; `brk`: the mask breaks OR into (none when the
        // exit mask is the entry exec)
        let (exit_mask, brk, cont) = if divergent {
            // a continue mask only for a loop with a `continue` of its own
            let cont = crate::passes::cf::has_jump(self.f, body, JumpKind::Continue).then(|| {
                let c = self.tmp(mrc);
                self.p.multi_def.insert(c);
                c
            });
            if self.loop_keeps_lanes(body) {
                let entry = self.tmp(mrc);
                let exec = self.p.exec();
                self.hw_lane(Opcode::SMovB32, &[Arg::Temp(entry)], &[exec])?;
                (Some(entry), None, cont)
            } else {
                let brk = self.tmp(mrc);
                self.p.multi_def.insert(brk);
                self.hw_lane(Opcode::SMovB32, &[Arg::Temp(brk)], &[Arg::Const(0)])?;
                (Some(brk), Some(brk), cont)
            }
        } else {
            (None, None, None)
        };
        let pre = self.cur;
        self.loop_depth += 1;
        let header = self.new_block();
        self.p.add_edge(pre, header, true);
        self.cur = header;
        if let Some(c) = cont {
            self.hw_lane(Opcode::SMovB32, &[Arg::Temp(c)], &[Arg::Const(0)])?;
        }
        self.loops.push(LoopCx {
            divergent,
            header,
            exit_patches: Vec::new(),
            brk,
            cont,
        });
        self.list(body)?;
        let latch = self.cur;
        let mut to_exit = None;
        if !self.dead {
            if divergent {
                if let Some(c) = cont {
                    let exec = self.p.exec();
                    self.hw_lane(Opcode::SOrB32, &[exec], &[exec, Arg::Temp(c)])?;
                }
                to_exit = Some(self.branch(Opcode::SCbranchExecz, latch)?);
            }
            self.branch(Opcode::SBranch, header)?;
            self.p.add_edge(latch, header, true);
        }
        self.dead = false;
        let cx = self.loops.pop().unwrap();
        self.loop_depth -= 1;
        let exit = self.new_block();
        if let Some(at) = to_exit {
            self.patch(at, exit);
            self.p.add_edge(latch, exit, false);
        }
        for at in cx.exit_patches {
            self.patch(at, exit);
            self.p.add_edge(at.0, exit, true);
        }
        self.cur = exit;
        if let Some(mask) = exit_mask {
            let exec = self.p.exec();
            self.hw_lane(Opcode::SMovB32, &[exec], &[Arg::Temp(mask)])?;
        }
        Ok(())
    }

    /// Whether every lane that enters the divergent loop `body` leaves it through a
    /// `break` or its exit test: no `return` in it (nested loops included) and no discard
    /// (compute shaders have none). Its exit mask is then exec at its entry.
    fn loop_keeps_lanes(&self, body: &[CfNode]) -> bool {
        self.m.stage == ir::Stage::Compute
            && !crate::passes::cf::has_jump(self.f, body, JumpKind::Return)
    }

    pub(super) fn jump(&mut self, k: JumpKind, i: Value) -> Result<(), Error> {
        let exec = self.p.exec();
        match k {
            JumpKind::Return => {
                if self.f.kind(i).is_jump() && self.f.ret.bits != 0 {
                    return Err(Error::unsupported(
                        Some(i.index() as u32),
                        "return with a value",
                    ));
                }
                if self.div_if_depth == 0 && self.loops.is_empty() {
                    let at = self.branch(Opcode::SBranch, self.cur)?;
                    self.end_patches.push(at);
                    self.dead = true;
                } else {
                    self.hw_lane(Opcode::SMovB32, &[exec], &[Arg::Const(0)])?;
                }
            }
            JumpKind::Break | JumpKind::Continue => {
                let cx = self.loops.last().ok_or_else(|| {
                    Error::unsupported(Some(i.index() as u32), "jump outside a loop")
                })?;
                if cx.divergent {
                    // the mask the lanes join: none for a break out of a loop whose exit
                    // mask is its entry exec
                    let m = if k == JumpKind::Break {
                        cx.brk
                    } else {
                        // `loop_node` keeps a continue mask for every loop with a continue
                        Some(cx.cont.ok_or_else(|| {
                            Error::Verify(format!(
                                "continue (IR instruction #{}) in a loop without a continue mask",
                                i.index()
                            ))
                        })?)
                    };
                    if let Some(m) = m {
                        self.hw_lane(Opcode::SOrB32, &[Arg::Temp(m)], &[Arg::Temp(m), exec])?;
                    }
                    self.hw_lane(Opcode::SMovB32, &[exec], &[Arg::Const(0)])?;
                } else if k == JumpKind::Break {
                    let at = self.branch(Opcode::SBranch, self.cur)?;
                    self.loops.last_mut().unwrap().exit_patches.push(at);
                    self.dead = true;
                } else {
                    let h = cx.header;
                    self.branch(Opcode::SBranch, h)?;
                    self.p.add_edge(self.cur, h, true);
                    self.dead = true;
                }
            }
        }
        if self.dead {
            // code after a jump in the same arm is unreachable; keep emitting into a fresh
            // block without predecessors (the IR has none: a jump ends its list)
            let nb = self.p.new_block(self.loop_depth);
            self.cur = nb;
        }
        Ok(())
    }
}

fn contains_return(a: &[CfNode], b: &[CfNode], f: &ir::Function) -> bool {
    use crate::passes::cf::has_jump;
    has_jump(f, a, JumpKind::Return) || has_jump(f, b, JumpKind::Return)
}

#[allow(dead_code)]
fn _rc(_: RegClass) {}
