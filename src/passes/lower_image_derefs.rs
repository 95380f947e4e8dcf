//! Turns image and sampler derefs into descriptor values, so that instruction selection
//! sees every image, sampler and texel-buffer operand as an SSA value.
//!
//! The front-end names a descriptor by the deref of its `uniform` variable (an array of
//! descriptors is an `Array` deref chain on it), as NIR does. For every use — a `tex`
//! instruction's `texture` / `sampler` source, or source 0 of an `image_deref_*`
//! intrinsic — this pass inserts, right before the user,
//!
//! ```text
//! load_descriptor INDEX set=S binding=B desc=KIND
//! ```
//!
//! where `INDEX` is the flattened array index (0 for a single descriptor; for arrays of
//! arrays `((i0 · len1) + i1) · len2 + ...`), and `KIND` says which descriptor the user
//! needs ([`Descriptor`]): a storage or sampled image's T#, a sampler's S#, the T# or the
//! S# half of a combined image+sampler (the texture source of a combined deref takes the
//! T#, its sampler source the S#), or a texel buffer's view. Separate images and samplers
//! joined by `OpSampledImage` reach here as two derefs, one per source, so they need
//! nothing special. The `image_deref_*` intrinsics become `image_*` with the descriptor as
//! source 0 and the image type's `dim` / `arrayed` / `ms` as indices (the type lived on the
//! deref, which is gone).
//!
//! `load_descriptor` is pure, so CSE merges the loads of one descriptor; it is uniform
//! exactly when its index is (divergence analysis, `Div::Srcs`). A divergent
//! (`nonuniformEXT`) index is left to instruction selection to refuse or to wrap in a
//! waterfall loop. The orphaned derefs die in the clean-up after this pass; the variables
//! stay (the descriptor layout is computed from every declared binding).
//!
//! Invariants after the pass: no `tex` source and no image intrinsic refers to a deref,
//! unless the deref's root is not a descriptor variable (such IR is left unchanged and
//! instruction selection reports it); every `load_descriptor` precedes its single user in
//! the same block.

use crate::ir::*;

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    let handles: Vec<Func> = m.functions.handles().collect();
    for fh in handles {
        progress |= lower_function(m, fh);
    }
    progress
}

/// The descriptor a use names: its binding, the kind to load, and the element index
/// (a value to compute, built as a list of `(index, array length)` steps).
struct Use {
    set: u32,
    binding: u32,
    desc: Descriptor,
    image: Option<ImageType>,
    steps: Vec<(Value, u32)>,
}

fn lower_function(m: &mut Module, fh: Func) -> bool {
    let mut progress = false;
    let order = m.functions[fh].insts_in_order();
    for i in order {
        let kind = m.functions[fh].insts[i].kind.clone();
        match kind {
            InstKind::Tex(mut t) => {
                let mut changed = false;
                for k in 0..t.srcs.len() {
                    let (which, v) = t.srcs[k];
                    let sampler = match which {
                        TexSrc::Texture => false,
                        TexSrc::Sampler => true,
                        _ => continue,
                    };
                    let Some(u) = resolve(m, fh, v, sampler) else {
                        continue;
                    };
                    t.srcs[k].1 = emit(m, fh, i, &u);
                    changed = true;
                }
                if changed {
                    m.functions[fh].insts[i].kind = InstKind::Tex(t);
                    progress = true;
                }
            }
            InstKind::Intrinsic { op, mut srcs, idx } => {
                let (new, keep): (Intrinsic, &[u32]) = match op {
                    Intrinsic::ImageDerefLoad => (Intrinsic::ImageLoad, &idx[..1]),
                    Intrinsic::ImageDerefStore => (Intrinsic::ImageStore, &idx[..1]),
                    Intrinsic::ImageDerefAtomic => (Intrinsic::ImageAtomic, &idx[..1]),
                    Intrinsic::ImageDerefAtomicSwap => (Intrinsic::ImageAtomicSwap, &[]),
                    Intrinsic::ImageDerefSize => (Intrinsic::ImageSize, &[]),
                    Intrinsic::ImageDerefSamples => (Intrinsic::ImageSamples, &[]),
                    _ => continue,
                };
                let Some(u) = resolve(m, fh, srcs[0], false) else {
                    continue;
                };
                let Some(it) = u.image else {
                    continue;
                };
                srcs[0] = emit(m, fh, i, &u);
                let mut nidx: SmallVec<[u32; 4]> = SmallVec::new();
                nidx.push(it.dim as u32);
                nidx.push(it.arrayed as u32);
                nidx.push(it.ms as u32);
                nidx.extend_from_slice(keep);
                m.functions[fh].insts[i].kind = InstKind::Intrinsic {
                    op: new,
                    srcs,
                    idx: nidx,
                };
                progress = true;
            }
            _ => {}
        }
    }
    progress
}

/// The descriptor use behind deref `v` (its sampler half when `sampler`), or `None` when
/// `v` is not a deref chain of array steps on a descriptor variable.
fn resolve(m: &Module, fh: Func, v: Value, sampler: bool) -> Option<Use> {
    let f = &m.functions[fh];
    let mut indices = Vec::new();
    let mut cur = v;
    let var = loop {
        let InstKind::Deref(d) = &f.insts[cur].kind else {
            return None;
        };
        match d.kind {
            DerefKind::Var(var) => break var,
            DerefKind::Array { parent, index } => {
                indices.push(index);
                cur = parent;
            }
            _ => return None,
        }
    };
    let var = &m.vars[var];
    if var.mode != Mode::Uniform {
        return None;
    }
    let (set, binding) = var.binding?;
    indices.reverse();
    // one array length per index step, outermost first
    let mut ty = var.ty;
    let mut steps = Vec::new();
    for &index in &indices {
        let TypeKind::Array { elem, len, .. } = m.types.kind(ty) else {
            return None;
        };
        steps.push((index, len.unwrap_or(0)));
        ty = *elem;
    }
    let image_of = |t: Type| match m.types.kind(t) {
        TypeKind::Image(it) => Some(*it),
        _ => None,
    };
    let (desc, image) = match m.types.kind(ty) {
        TypeKind::Image(it) if it.dim == Dim::Buffer => (Descriptor::TexelBuffer, Some(*it)),
        TypeKind::Image(it) if it.sampled => (Descriptor::SampledImage, Some(*it)),
        TypeKind::Image(it) => (Descriptor::StorageImage, Some(*it)),
        TypeKind::Sampler => (Descriptor::Sampler, None),
        TypeKind::SampledImage(im) => {
            let it = image_of(*im)?;
            if it.dim == Dim::Buffer {
                (Descriptor::TexelBuffer, Some(it))
            } else if sampler {
                (Descriptor::CombinedSampler, None)
            } else {
                (Descriptor::CombinedImage, Some(it))
            }
        }
        _ => return None,
    };
    // a sampler source must name a sampler, a texture source an image
    let is_sampler = matches!(desc, Descriptor::Sampler | Descriptor::CombinedSampler);
    if is_sampler != sampler {
        return None;
    }
    Some(Use {
        set,
        binding,
        desc,
        image,
        steps,
    })
}

/// Inserts the flattened index and the `load_descriptor` of `u` before `at`.
fn emit(m: &mut Module, fh: Func, at: Inst, u: &Use) -> Value {
    let f = &mut m.functions[fh];
    let mut index: Option<Value> = None;
    for (k, &(step, _)) in u.steps.iter().enumerate() {
        let step = to_u32(f, at, step);
        index = Some(match index {
            None => step,
            Some(acc) => {
                // `acc` counts elements of the outer array; each holds `len` of the next
                let len = u.steps[k].1;
                let l = f.insert_before(
                    at,
                    InstKind::Const(SmallVec::from_slice(&[len as u64])),
                    ValType::U32,
                );
                let scaled = f.insert_before(
                    at,
                    InstKind::Alu {
                        op: AluOp::Imul,
                        srcs: [acc, l].into_iter().collect(),
                    },
                    ValType::U32,
                );
                f.insert_before(
                    at,
                    InstKind::Alu {
                        op: AluOp::Iadd,
                        srcs: [scaled, step].into_iter().collect(),
                    },
                    ValType::U32,
                )
            }
        });
    }
    let index = match index {
        Some(i) => i,
        None => f.insert_before(
            at,
            InstKind::Const(SmallVec::from_slice(&[0])),
            ValType::U32,
        ),
    };
    f.insert_before(
        at,
        InstKind::Intrinsic {
            op: Intrinsic::LoadDescriptor,
            srcs: [index].into_iter().collect(),
            idx: [u.set, u.binding, u.desc as u32].into_iter().collect(),
        },
        ValType::new(32, u.desc.dwords()),
    )
}

/// `v` as a 32-bit index (SPIR-V allows any integer width for access-chain indices).
fn to_u32(f: &mut Function, at: Inst, v: Value) -> Value {
    let ty = f.ty(v);
    if ty.bits == 32 {
        return v;
    }
    f.insert_before(
        at,
        InstKind::Alu {
            op: AluOp::U2u,
            srcs: [v].into_iter().collect(),
        },
        ValType::U32,
    )
}
