//! A reference interpreter for one invocation of deref-form IR, used to check passes
//! semantically: run a module before and after a pass and compare the memory it leaves.
//!
//! Memory is modelled by access path, not bytes — a variable's contents are a map from
//! the path of constant indices (struct member, array element) to the leaf value stored
//! there — so the interpreter needs no layout and shares no logic with
//! `lower_explicit_io`. A vector-component deref reads or writes one component of its
//! parent leaf. Unwritten leaves of buffer/input variables read a deterministic pattern
//! derived from the path, everything else reads zero. ALU ops evaluate through the IR's
//! evaluation semantics (`ir::eval`), not the constant folder, so comparing runs before
//! and after folding checks the folder. Supported: constants, ALU, swizzles, phis,
//! derefs, `load_deref`, `store_deref`, `deref_atomic` (add), calls with `load_param`,
//! structured control flow, a few system values (ids from [`Invocation`]), barriers as no-ops. Anything else is an
//! [`Unsupported`] error, never a guess.
//!
//! Buffers (UBO/SSBO) are bytes, so deref-form and lowered IR can be compared: a deref
//! path into a buffer finds its bytes by walking the variable's explicit layout (an
//! independent short walk, not the lowering pass), and `load_ssbo` / `store_ssbo` /
//! `ssbo_atomic` address them directly (the interpreter's resource value is
//! `[set << 16 | binding, array index]`). Unwritten buffer bytes read a fixed pattern;
//! every buffer is [`BUFFER_SIZE`] bytes long. Shared and scratch memory are bytes too,
//! zero-initialised and not part of the result. Built-in id inputs read the invocation's
//! ids.

use super::eval::{eval_alu, EvalError};
use super::*;
use std::collections::BTreeMap;

/// The ids of the invocation being run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Invocation {
    pub local_id: [u32; 3],
    pub workgroup_id: [u32; 3],
}

/// What an invocation leaves behind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Observable path-modelled variables (outputs): (variable index, path) → components.
    pub vars: BTreeMap<(usize, Vec<u32>), Vec<u64>>,
    /// Bytes written to buffers: (set, binding, array index) → offset → byte.
    pub buffers: BTreeMap<(u32, u32, u32), BTreeMap<u32, u8>>,
}

/// Size every buffer reports (`get_ssbo_size`, runtime array lengths).
pub const BUFFER_SIZE: u32 = 1024;

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
    /// Buffer bytes written so far (reads of unwritten bytes see [`initial_byte`]).
    bufs: BTreeMap<(u32, u32, u32), BTreeMap<u32, u8>>,
    /// Shared / scratch bytes (not observable; zero-initialised).
    private_bytes: BTreeMap<(u8, u32), u8>,
    steps: u64,
}

/// Initial content of buffer byte `off` of buffer (set, binding, index).
fn initial_byte(buf: (u32, u32, u32), off: u32) -> u8 {
    let h = (off as u64)
        .wrapping_mul(31)
        .wrapping_add(buf.0 as u64 * 7 + buf.1 as u64 * 13 + buf.2 as u64 * 17);
    // Small values keep floats finite and integers meaningful.
    if off % 4 == 0 {
        (h % 61) as u8
    } else {
        0
    }
}

/// The (bits × comps) leaf a buffer path reaches, where its components are.
struct BufLeaf {
    buf: (u32, u32, u32),
    off: u32,
    bits: u8,
    is_bool: bool,
    comps: u8,
    comp_stride: u32,
}

/// Runs the entry point for one invocation; returns the memory of observable variables.
pub fn run(m: &Module, inv: Invocation) -> Result<Memory, Unsupported> {
    let mut it = Interp {
        m,
        inv,
        mem: BTreeMap::new(),
        bufs: BTreeMap::new(),
        private_bytes: BTreeMap::new(),
        steps: 0,
    };
    let entry = m
        .entry
        .ok_or_else(|| Unsupported("no entry point".into()))?;
    it.call(entry, vec![])?;
    let mut out = Memory {
        buffers: it.bufs,
        ..Default::default()
    };
    for ((v, p), c) in it.mem {
        if !matches!(m.vars[v].mode, Mode::Function | Mode::Private) {
            out.vars.insert((v.index(), p), c);
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

    /// Where a deref path into a UBO/SSBO variable lands, walking its explicit layout.
    fn buf_leaf(&self, p: &Ptr) -> Option<BufLeaf> {
        let var = &self.m.vars[p.var];
        if !matches!(var.mode, Mode::Ssbo | Mode::Ubo) {
            return None;
        }
        let types = &self.m.types;
        let (set, binding) = var.binding.unwrap_or((0, 0));
        let mut path = &p.path[..];
        let mut t = var.ty;
        let mut index = 0;
        if let TypeKind::Array {
            elem, stride: 0, ..
        } = types.kind(t)
        {
            index = *path.first()?;
            path = &path[1..];
            t = *elem;
        }
        let mut off = 0u32;
        // A row-major matrix column: components a matrix stride apart.
        let mut col_stride: Option<u32> = None;
        for &step in path {
            match types.kind(t).clone() {
                TypeKind::Struct { members } => {
                    let mm = members.get(step as usize)?;
                    off += mm.offset?;
                    t = mm.ty;
                }
                TypeKind::Array { elem, stride, .. } => {
                    off += step * stride;
                    t = elem;
                }
                TypeKind::Matrix {
                    column,
                    row_major,
                    stride,
                    ..
                } => {
                    let (sc, _) = types.as_vector(column)?;
                    if row_major {
                        off += step * sc.mem_bytes();
                        col_stride = Some(stride);
                    } else {
                        off += step * stride;
                    }
                    t = column;
                }
                _ => return None,
            }
        }
        let (scalar, n) = types.as_vector(t)?;
        let vstride = match types.kind(t) {
            TypeKind::Vector { stride, .. } if *stride != 0 => *stride,
            _ => col_stride.unwrap_or(scalar.mem_bytes()),
        };
        let (off, comps) = match p.comp {
            Some(c) => (off + c as u32 * vstride, 1),
            None => (off, n),
        };
        Some(BufLeaf {
            buf: (set, binding, index),
            off,
            bits: if scalar.kind == ScalarKind::Bool {
                32
            } else {
                scalar.bits
            },
            is_bool: scalar.kind == ScalarKind::Bool,
            comps,
            comp_stride: vstride,
        })
    }

    /// A built-in input variable read through a deref (the ids of the invocation).
    fn builtin(&self, b: Builtin, p: &Ptr, ty: ValType) -> Result<Vec<u64>, Unsupported> {
        let id = |k: usize| {
            (self.inv.workgroup_id[k] * self.m.local_size[k] + self.inv.local_id[k]) as u64
        };
        let full: Vec<u64> = match b {
            Builtin::LocalInvocationId => self.inv.local_id.iter().map(|&x| x as u64).collect(),
            Builtin::WorkgroupId => self.inv.workgroup_id.iter().map(|&x| x as u64).collect(),
            Builtin::GlobalInvocationId => (0..3).map(id).collect(),
            Builtin::WorkgroupSize => self.m.local_size.iter().map(|&x| x as u64).collect(),
            _ => return Err(Unsupported(format!("built-in {}", b.name()))),
        };
        Ok(match p.comp {
            Some(c) => vec![full[c as usize]],
            None => full[..ty.comps as usize].to_vec(),
        })
    }

    /// Byte offset and stride of a runtime array reached by `p` in a buffer.
    fn array_offset(&self, p: &Ptr) -> Option<(u32, u32)> {
        let var = &self.m.vars[p.var];
        let types = &self.m.types;
        let mut path = &p.path[..];
        let mut t = var.ty;
        if let TypeKind::Array {
            elem, stride: 0, ..
        } = types.kind(t)
        {
            path = &path[1..];
            t = *elem;
        }
        let mut off = 0;
        for &step in path {
            match types.kind(t) {
                TypeKind::Struct { members } => {
                    let mm = members.get(step as usize)?;
                    off += mm.offset?;
                    t = mm.ty;
                }
                _ => return None,
            }
        }
        match types.kind(t) {
            TypeKind::Array {
                len: None, stride, ..
            } => Some((off, *stride)),
            _ => None,
        }
    }

    fn read_bytes(&self, buf: (u32, u32, u32), off: u32, bytes: u32) -> u64 {
        let mut v = 0u64;
        for k in 0..bytes {
            let o = off.wrapping_add(k);
            let b = self
                .bufs
                .get(&buf)
                .and_then(|m| m.get(&o))
                .copied()
                .unwrap_or_else(|| initial_byte(buf, o));
            v |= (b as u64) << (8 * k);
        }
        v
    }

    fn write_bytes(&mut self, buf: (u32, u32, u32), off: u32, bytes: u32, v: u64) {
        let m = self.bufs.entry(buf).or_default();
        for k in 0..bytes {
            m.insert(off.wrapping_add(k), (v >> (8 * k)) as u8);
        }
    }

    fn buf_load(&self, l: &BufLeaf, ty: ValType) -> Vec<u64> {
        (0..l.comps as u32)
            .map(|k| {
                let x = self.read_bytes(l.buf, l.off + k * l.comp_stride, l.bits as u32 / 8);
                if l.is_bool {
                    (x != 0) as u64
                } else {
                    x & ty.mask()
                }
            })
            .collect()
    }

    fn buf_store(&mut self, l: &BufLeaf, v: &[u64], mask: u32) {
        for k in 0..l.comps as u32 {
            if mask & (1 << k) == 0 {
                continue;
            }
            let x = v[k as usize];
            self.write_bytes(l.buf, l.off + k * l.comp_stride, l.bits as u32 / 8, x);
        }
    }

    fn load(&self, p: &Ptr, ty: ValType) -> Vec<u64> {
        if let Some(l) = self.buf_leaf(p) {
            return self.buf_load(&l, ty);
        }
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
        if let Some(l) = self.buf_leaf(p) {
            self.buf_store(&l, v, mask);
            return;
        }
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
                        Ok(r) => Some(r.to_vec()),
                        // Undefined results (division by zero, …) read as zero.
                        Err(EvalError::Undefined(_)) => Some(vec![0; ty.comps as usize]),
                        Err(EvalError::IllTyped) => {
                            return Err(Unsupported(format!("ill-typed {}", op.name())))
                        }
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
                        match self.m.vars[p.var].builtin {
                            Some(b) => Some(self.builtin(b, &p, ty)?),
                            None => Some(self.load(&p, ty)),
                        }
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
                    Intrinsic::ArrayLengthDeref => {
                        // The deref is the runtime array: (size - its offset) / stride.
                        let p = self.ptr(fr, srcs[0])?;
                        let l = self
                            .array_offset(&p)
                            .ok_or_else(|| Unsupported("array length of a non-buffer".into()))?;
                        Some(vec![((BUFFER_SIZE - l.0) / l.1.max(1)) as u64])
                    }
                    Intrinsic::VulkanResourceIndex => {
                        let i = self.val(fr, srcs[0])?[0];
                        Some(vec![((idx[0] as u64) << 16) | idx[1] as u64, i])
                    }
                    Intrinsic::GetSsboSize => Some(vec![BUFFER_SIZE as u64]),
                    Intrinsic::LoadUbo | Intrinsic::LoadSsbo => {
                        let r = self.val(fr, srcs[0])?;
                        let off = self.val(fr, srcs[1])?[0] as u32;
                        let buf = ((r[0] >> 16) as u32, (r[0] & 0xffff) as u32, r[1] as u32);
                        let n = (ty.bits as u32).max(8) / 8;
                        Some(
                            (0..ty.comps as u32)
                                .map(|k| self.read_bytes(buf, off + k * n, n))
                                .collect(),
                        )
                    }
                    Intrinsic::StoreSsbo => {
                        let v = self.val(fr, srcs[0])?;
                        let r = self.val(fr, srcs[1])?;
                        let off = self.val(fr, srcs[2])?[0] as u32;
                        let buf = ((r[0] >> 16) as u32, (r[0] & 0xffff) as u32, r[1] as u32);
                        let n = (f.insts[srcs[0]].ty.bits as u32).max(8) / 8;
                        for (k, &x) in v.iter().enumerate() {
                            if idx[0] & (1 << k) != 0 {
                                self.write_bytes(buf, off + k as u32 * n, n, x);
                            }
                        }
                        None
                    }
                    Intrinsic::SsboAtomic if idx[0] == AtomicOp::Add as u32 => {
                        let r = self.val(fr, srcs[0])?;
                        let off = self.val(fr, srcs[1])?[0] as u32;
                        let d = self.val(fr, srcs[2])?[0];
                        let buf = ((r[0] >> 16) as u32, (r[0] & 0xffff) as u32, r[1] as u32);
                        let n = (ty.bits as u32).max(8) / 8;
                        let old = self.read_bytes(buf, off, n);
                        self.write_bytes(buf, off, n, old.wrapping_add(d));
                        Some(vec![old])
                    }
                    Intrinsic::LoadShared | Intrinsic::LoadScratch => {
                        let space = (*op == Intrinsic::LoadShared) as u8;
                        let off = self.val(fr, srcs[0])?[0] as u32 + idx[0];
                        let n = (ty.bits as u32).max(8) / 8;
                        Some(
                            (0..ty.comps as u32)
                                .map(|k| {
                                    (0..n).fold(0u64, |acc, j| {
                                        let b = self
                                            .private_bytes
                                            .get(&(space, off + k * n + j))
                                            .copied()
                                            .unwrap_or(0);
                                        acc | (b as u64) << (8 * j)
                                    })
                                })
                                .collect(),
                        )
                    }
                    Intrinsic::LoadConstant => {
                        let off = self.val(fr, srcs[0])?[0] as u32 as usize + idx[0] as usize;
                        let n = (ty.bits as usize).max(8) / 8;
                        let data = &self.m.constant_data;
                        let mut comps = Vec::with_capacity(ty.comps as usize);
                        for k in 0..ty.comps as usize {
                            let at = off + k * n;
                            let bytes = data.get(at..at + n).ok_or_else(|| {
                                Unsupported(format!("load_constant at byte {at} outside the data"))
                            })?;
                            comps
                                .push(bytes.iter().rev().fold(0u64, |acc, &b| acc << 8 | b as u64));
                        }
                        Some(comps)
                    }
                    Intrinsic::StoreShared | Intrinsic::StoreScratch => {
                        let space = (*op == Intrinsic::StoreShared) as u8;
                        let v = self.val(fr, srcs[0])?;
                        let off = self.val(fr, srcs[1])?[0] as u32 + idx[0];
                        let n = (f.insts[srcs[0]].ty.bits as u32).max(8) / 8;
                        for (k, &x) in v.iter().enumerate() {
                            if idx[1] & (1 << k) != 0 {
                                for j in 0..n {
                                    self.private_bytes.insert(
                                        (space, off + k as u32 * n + j),
                                        (x >> (8 * j)) as u8,
                                    );
                                }
                            }
                        }
                        None
                    }
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
