//! A reference interpreter for one invocation of deref-form IR, used to check passes
//! semantically: run a module before and after a pass and compare the memory it leaves.
//!
//! Memory is modelled by access path, not bytes — a variable's contents are a map from
//! the path of constant indices (struct member, array element) to the leaf value stored
//! there — so the interpreter needs no layout and shares no logic with
//! `lower_explicit_io`. A vector-component deref reads or writes one component of its
//! parent leaf. Unwritten leaves of buffer/input variables read a deterministic pattern
//! derived from the path, everything else reads zero. ALU ops evaluate through the
//! constant folder. Supported: constants, ALU, swizzles, phis, derefs, `load_deref`,
//! `store_deref`, `deref_atomic` (add), calls with `load_param`, structured control flow,
//! a few system values (ids from [`Invocation`]), barriers as no-ops. Anything else is an
//! [`Unsupported`] error, never a guess.

use super::*;
use crate::passes::fold_constants::eval_alu;
use std::collections::BTreeMap;

/// The ids of the invocation being run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Invocation {
    pub local_id: [u32; 3],
    pub workgroup_id: [u32; 3],
}

/// Final contents of every observable (non-function, non-private) variable:
/// (variable index, path) → components.
pub type Memory = BTreeMap<(usize, Vec<u32>), Vec<u64>>;

/// An operation the interpreter does not model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

enum Flow {
    Normal,
    Break,
    Continue,
    Return(Option<Vec<u64>>),
}

/// A deref value: variable and path, plus a trailing vector component.
#[derive(Clone, Debug)]
struct Ptr {
    var: Var,
    path: Vec<u32>,
    comp: Option<u8>,
}

struct Frame {
    vals: SecondaryMap<InstData, Option<Vec<u64>>>,
    ptrs: SecondaryMap<InstData, Option<Ptr>>,
    params: Vec<Vec<u64>>,
    /// The last block executed (the predecessor for phis).
    last: Option<Block>,
}

struct Interp<'m> {
    m: &'m Module,
    inv: Invocation,
    mem: BTreeMap<(Var, Vec<u32>), Vec<u64>>,
    steps: u64,
}

/// Runs the entry point for one invocation; returns the memory of observable variables.
pub fn run(m: &Module, inv: Invocation) -> Result<Memory, Unsupported> {
    let mut it = Interp {
        m,
        inv,
        mem: BTreeMap::new(),
        steps: 0,
    };
    let entry = m
        .entry
        .ok_or_else(|| Unsupported("no entry point".into()))?;
    it.call(entry, vec![])?;
    let mut out = Memory::new();
    for ((v, p), c) in it.mem {
        if !matches!(m.vars[v].mode, Mode::Function | Mode::Private) {
            out.insert((v.index(), p), c);
        }
    }
    Ok(out)
}

fn pattern(v: Var, path: &[u32], comps: u8, bits: u8) -> Vec<u64> {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15 ^ (v.index() as u64);
    for &p in path {
        h = (h ^ p as u64).wrapping_mul(0x100_0000_01b3);
    }
    let m = ValType::new(bits, 1).mask();
    (0..comps as u64)
        .map(|k| {
            // Small integers: meaningful as ints, and as floats (denormals) harmless.
            ((h.wrapping_add(k * 0x51) >> 7) % 97) & m
        })
        .collect()
}

impl<'m> Interp<'m> {
    fn call(&mut self, fh: Func, params: Vec<Vec<u64>>) -> Result<Option<Vec<u64>>, Unsupported> {
        let f = &self.m.functions[fh];
        let mut fr = Frame {
            vals: SecondaryMap::new(None),
            ptrs: SecondaryMap::new(None),
            params,
            last: None,
        };
        // Function variables start out zero: drop stale contents from earlier calls.
        for &l in &f.locals {
            self.mem.retain(|(v, _), _| *v != l);
        }
        match self.list(f, &mut fr, &f.body)? {
            Flow::Return(v) => Ok(v),
            _ => Ok(None),
        }
    }

    fn list(&mut self, f: &Function, fr: &mut Frame, list: &[CfNode]) -> Result<Flow, Unsupported> {
        for n in list {
            match n {
                CfNode::Block(b) => {
                    let flow = self.block(f, fr, *b)?;
                    fr.last = Some(*b);
                    if !matches!(flow, Flow::Normal) {
                        return Ok(flow);
                    }
                }
                CfNode::If {
                    cond,
                    then_body,
                    else_body,
                    ..
                } => {
                    let c = self.val(fr, *cond)?[0] != 0;
                    let flow = self.list(f, fr, if c { then_body } else { else_body })?;
                    if !matches!(flow, Flow::Normal) {
                        return Ok(flow);
                    }
                }
                CfNode::Loop { body, .. } => loop {
                    self.steps += 1;
                    if self.steps > 1_000_000 {
                        return Err(Unsupported("loop does not terminate".into()));
                    }
                    match self.list(f, fr, body)? {
                        Flow::Break => break,
                        Flow::Normal | Flow::Continue => continue,
                        r @ Flow::Return(_) => return Ok(r),
                    }
                },
            }
        }
        Ok(Flow::Normal)
    }

    fn val(&self, fr: &Frame, v: Value) -> Result<Vec<u64>, Unsupported> {
        fr.vals[v]
            .clone()
            .ok_or_else(|| Unsupported(format!("value {:?} used before it was computed", v)))
    }

    fn ptr(&self, fr: &Frame, v: Value) -> Result<Ptr, Unsupported> {
        fr.ptrs[v]
            .clone()
            .ok_or_else(|| Unsupported(format!("{:?} is not a modelled deref", v)))
    }

    fn load(&self, p: &Ptr, ty: ValType) -> Vec<u64> {
        let var = &self.m.vars[p.var];
        let whole_comps = if p.comp.is_some() { 4 } else { ty.comps };
        let leaf = self
            .mem
            .get(&(p.var, p.path.clone()))
            .cloned()
            .unwrap_or_else(|| {
                if matches!(
                    var.mode,
                    Mode::Ssbo | Mode::Ubo | Mode::PushConst | Mode::Input
                ) {
                    pattern(p.var, &p.path, whole_comps.max(ty.comps), ty.bits.max(8))
                } else {
                    vec![0; whole_comps.max(ty.comps) as usize]
                }
            });
        match p.comp {
            None => (0..ty.comps as usize)
                .map(|k| leaf.get(k).copied().unwrap_or(0))
                .collect(),
            Some(c) => vec![leaf.get(c as usize).copied().unwrap_or(0)],
        }
    }

    fn store(&mut self, p: &Ptr, v: &[u64], mask: u32) {
        let key = (p.var, p.path.clone());
        let current = self.load(
            &Ptr {
                comp: None,
                ..p.clone()
            },
            ValType::new(32, 4),
        );
        let mut leaf = self.mem.get(&key).cloned().unwrap_or(current);
        match p.comp {
            Some(c) => {
                if leaf.len() <= c as usize {
                    leaf.resize(c as usize + 1, 0);
                }
                leaf[c as usize] = v[0];
            }
            None => {
                if leaf.len() < v.len() {
                    leaf.resize(v.len(), 0);
                }
                for (k, &x) in v.iter().enumerate() {
                    if mask & (1 << k) != 0 {
                        leaf[k] = x;
                    }
                }
                leaf.truncate(v.len());
            }
        }
        self.mem.insert(key, leaf);
    }

    fn block(&mut self, f: &Function, fr: &mut Frame, b: Block) -> Result<Flow, Unsupported> {
        // Phis read their sources as of the predecessor, all at once.
        let mut phi_vals = Vec::new();
        for &i in &f.blocks[b].insts {
            let InstKind::Phi(srcs) = &f.insts[i].kind else {
                break;
            };
            let pred = fr.last;
            let src = srcs
                .iter()
                .find(|s| Some(s.0) == pred)
                .ok_or_else(|| Unsupported("phi without a source for its predecessor".into()))?;
            phi_vals.push((i, self.val(fr, src.1)?));
        }
        for (i, v) in phi_vals {
            fr.vals[i] = Some(v);
        }
        for &i in &f.blocks[b].insts {
            let d = &f.insts[i];
            let ty = d.ty;
            let r: Option<Vec<u64>> = match &d.kind {
                InstKind::Phi(_) => continue,
                InstKind::Const(c) => Some(c.to_vec()),
                InstKind::Undef => Some(vec![0; ty.comps as usize]),
                InstKind::Alu { op, srcs } => {
                    let vs: Vec<(ValType, Vec<u64>)> = srcs
                        .iter()
                        .map(|&s| Ok((f.insts[s].ty, self.val(fr, s)?)))
                        .collect::<Result<_, Unsupported>>()?;
                    let refs: Vec<(ValType, &[u64])> =
                        vs.iter().map(|(t, v)| (*t, &v[..])).collect();
                    match eval_alu(*op, ty, &refs) {
                        Some(r) => Some(r.to_vec()),
                        // Undefined results (division by zero, …) read as zero.
                        None => Some(vec![0; ty.comps as usize]),
                    }
                }
                InstKind::Swizzle { src, comps } => {
                    let s = self.val(fr, *src)?;
                    Some(comps.iter().map(|&c| s[c as usize]).collect())
                }
                InstKind::Deref(dr) => {
                    let p = match dr.kind {
                        DerefKind::Var(v) => Ptr {
                            var: v,
                            path: vec![],
                            comp: None,
                        },
                        DerefKind::Struct { parent, member } => {
                            let mut p = self.ptr(fr, parent)?;
                            p.path.push(member);
                            p
                        }
                        DerefKind::Array { parent, index } => {
                            let mut p = self.ptr(fr, parent)?;
                            let idx = self.val(fr, index)?[0] as u32;
                            let parent_is_vec = matches!(
                                &f.insts[parent].kind,
                                InstKind::Deref(pd) if matches!(self.m.types.kind(pd.ty), TypeKind::Vector { .. })
                            );
                            if parent_is_vec {
                                p.comp = Some(idx as u8);
                            } else {
                                p.path.push(idx);
                            }
                            p
                        }
                        DerefKind::Cast { parent, .. } => match fr.ptrs[parent].clone() {
                            Some(p) => p,
                            None => {
                                return Err(Unsupported("cast of an address".into()));
                            }
                        },
                        DerefKind::PtrAsArray { .. } => {
                            return Err(Unsupported("deref_ptr_as_array".into()));
                        }
                    };
                    fr.ptrs[i] = Some(p);
                    Some(vec![0])
                }
                InstKind::Intrinsic { op, srcs, idx } => match op {
                    Intrinsic::LoadDeref => {
                        let p = self.ptr(fr, srcs[0])?;
                        Some(self.load(&p, ty))
                    }
                    Intrinsic::StoreDeref => {
                        let p = self.ptr(fr, srcs[0])?;
                        let v = self.val(fr, srcs[1])?;
                        self.store(&p, &v, idx[0]);
                        None
                    }
                    Intrinsic::DerefAtomic if idx[0] == AtomicOp::Add as u32 => {
                        let p = self.ptr(fr, srcs[0])?;
                        let old = self.load(&p, ty);
                        let d = self.val(fr, srcs[1])?;
                        let new = vec![old[0].wrapping_add(d[0]) & ty.mask()];
                        self.store(&p, &new, 1);
                        Some(old)
                    }
                    Intrinsic::LoadParam => Some(
                        fr.params
                            .get(idx[0] as usize)
                            .cloned()
                            .ok_or_else(|| Unsupported("missing parameter".into()))?,
                    ),
                    Intrinsic::LoadLocalInvocationId => {
                        Some(self.inv.local_id.iter().map(|&x| x as u64).collect())
                    }
                    Intrinsic::LoadWorkgroupId => {
                        Some(self.inv.workgroup_id.iter().map(|&x| x as u64).collect())
                    }
                    Intrinsic::LoadGlobalInvocationId => Some(
                        (0..3)
                            .map(|k| {
                                (self.inv.workgroup_id[k] * self.m.local_size[k]
                                    + self.inv.local_id[k]) as u64
                            })
                            .collect(),
                    ),
                    Intrinsic::Barrier => None,
                    _ => return Err(Unsupported(format!("intrinsic {}", op.name()))),
                },
                InstKind::Call { func, args } => {
                    let a: Vec<Vec<u64>> = args
                        .iter()
                        .map(|&x| self.val(fr, x))
                        .collect::<Result<_, _>>()?;
                    // Pointer arguments travel as deref values: keep their paths.
                    let ptr_args: Vec<Option<Ptr>> =
                        args.iter().map(|&x| fr.ptrs[x].clone()).collect();
                    let r = self.call_with_ptrs(*func, a, ptr_args)?;
                    r
                }
                InstKind::Tex(_) => return Err(Unsupported("tex".into())),
                InstKind::Jump(k, v) => {
                    fr.last = Some(b);
                    return Ok(match k {
                        JumpKind::Break => Flow::Break,
                        JumpKind::Continue => Flow::Continue,
                        JumpKind::Return => Flow::Return(match v {
                            Some(v) => Some(self.val(fr, *v)?),
                            None => None,
                        }),
                    });
                }
            };
            if let Some(mut r) = r {
                let m = ty.mask();
                for x in r.iter_mut() {
                    *x &= m;
                }
                fr.vals[i] = Some(r);
            }
        }
        Ok(Flow::Normal)
    }

    fn call_with_ptrs(
        &mut self,
        fh: Func,
        params: Vec<Vec<u64>>,
        ptr_params: Vec<Option<Ptr>>,
    ) -> Result<Option<Vec<u64>>, Unsupported> {
        let f = &self.m.functions[fh];
        let mut fr = Frame {
            vals: SecondaryMap::new(None),
            ptrs: SecondaryMap::new(None),
            params,
            last: None,
        };
        for &l in &f.locals {
            self.mem.retain(|(v, _), _| *v != l);
        }
        // load_param of a pointer argument yields that pointer.
        for i in f.insts_in_order() {
            if let InstKind::Intrinsic {
                op: Intrinsic::LoadParam,
                idx,
                ..
            } = &f.insts[i].kind
            {
                if let Some(Some(p)) = ptr_params.get(idx[0] as usize) {
                    fr.ptrs[i] = Some(p.clone());
                }
            }
        }
        match self.list(f, &mut fr, &f.body)? {
            Flow::Return(v) => Ok(v),
            _ => Ok(None),
        }
    }
}
