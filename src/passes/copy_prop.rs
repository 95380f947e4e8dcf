//! Copy propagation: uses of a value that merely renames another are redirected to the
//! original. Handles `mov`, identity swizzles, swizzles of swizzles (composed), single
//! components of `vec`, a `vec` that reassembles a whole value from its components in
//! order, phis whose sources are all one value (or the phi itself), and casts of a deref
//! to the same type and mode. The copies are left for DCE.

use crate::ir::*;

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        progress |= copy_prop(f);
    }
    progress
}

fn copy_prop(f: &mut Function) -> bool {
    let mut map: SecondaryMap<InstData, Option<Value>> = SecondaryMap::new(None);
    let mut any = false;
    let resolve = |map: &SecondaryMap<InstData, Option<Value>>, mut v: Value| {
        while let Some(t) = map[v] {
            v = t;
        }
        v
    };
    for i in f.insts_in_order() {
        let ty = f.insts[i].ty;
        // Compose swizzles in place first.
        if let InstKind::Swizzle { src, comps } = &f.insts[i].kind {
            let src = resolve(&map, *src);
            if let InstKind::Swizzle {
                src: inner,
                comps: ic,
            } = &f.insts[src].kind
            {
                let comps: SmallVec<[u8; 4]> = comps.iter().map(|&c| ic[c as usize]).collect();
                f.insts[i].kind = InstKind::Swizzle { src: *inner, comps };
                any = true;
            }
        }
        let target = match &f.insts[i].kind {
            InstKind::Alu {
                op: AluOp::Mov,
                srcs,
            } => Some(srcs[0]),
            InstKind::Swizzle { src, comps } => {
                let src = resolve(&map, *src);
                let st = f.insts[src].ty;
                if st == ty && comps.iter().enumerate().all(|(k, &c)| c as usize == k) {
                    Some(src)
                } else if comps.len() == 1 {
                    match &f.insts[src].kind {
                        InstKind::Alu {
                            op: AluOp::Vec,
                            srcs,
                        } => Some(srcs[comps[0] as usize]),
                        _ => None,
                    }
                } else {
                    None
                }
            }
            InstKind::Alu {
                op: AluOp::Vec,
                srcs,
            } => {
                let mut base = None;
                let mut ok = true;
                for (k, &s) in srcs.iter().enumerate() {
                    let s = resolve(&map, s);
                    match &f.insts[s].kind {
                        InstKind::Swizzle { src, comps }
                            if comps.len() == 1 && comps[0] as usize == k =>
                        {
                            let src = resolve(&map, *src);
                            if base.is_none() {
                                base = Some(src);
                            }
                            ok &= base == Some(src);
                        }
                        _ => ok = false,
                    }
                }
                match base {
                    Some(b) if ok && f.insts[b].ty == ty => Some(b),
                    _ => None,
                }
            }
            InstKind::Phi(srcs) => {
                let mut only = None;
                let mut ok = !srcs.is_empty();
                for &(_, v) in srcs {
                    let v = resolve(&map, v);
                    if v == i {
                        continue;
                    }
                    match only {
                        None => only = Some(v),
                        Some(o) if o == v => {}
                        _ => ok = false,
                    }
                }
                if ok {
                    only
                } else {
                    None
                }
            }
            InstKind::Deref(Deref {
                kind: DerefKind::Cast { parent, .. },
                ty: cty,
                mode,
            }) => match &f.insts[resolve(&map, *parent)].kind {
                InstKind::Deref(pd) if pd.ty == *cty && pd.mode == *mode => Some(*parent),
                _ => None,
            },
            _ => None,
        };
        if let Some(t) = target {
            let t = resolve(&map, t);
            if t != i {
                map[i] = Some(t);
                any = true;
            }
        }
    }
    if any {
        f.rewrite_uses(&map);
    }
    any
}
