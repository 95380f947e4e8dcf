//! The text form: a printer whose output the parser in [`super::parse`] reads back to an
//! identical module (printing again gives the same text).
//!
//! Names are canonical, not arena indices: values `%N`, blocks `block_N`, variables `@N`
//! and structs `$N` are numbered in order of appearance, so the text does not depend on
//! how a pass allocated or removed things. Struct types are printed once, at the top,
//! children before parents; every other type is printed inline. Zero-valued intrinsic
//! indices are omitted. See docs/ir.md for the grammar by example.

use super::*;
use std::collections::HashMap;
use std::fmt::Write;

/// Canonical numbering of one module's names.
pub(crate) struct Names {
    pub structs: HashMap<Type, u32>,
    pub struct_order: Vec<Type>,
    pub vars: HashMap<Var, u32>,
}

impl Names {
    pub(crate) fn new(m: &Module) -> Names {
        let mut n = Names {
            structs: HashMap::new(),
            struct_order: Vec::new(),
            vars: HashMap::new(),
        };
        let mut next_var = 0;
        for &g in &m.globals {
            n.vars.insert(g, next_var);
            next_var += 1;
            n.visit_type(&m.types, m.vars[g].ty);
        }
        for (_, f) in m.functions.iter() {
            for &l in &f.locals {
                n.vars.insert(l, next_var);
                next_var += 1;
                n.visit_type(&m.types, m.vars[l].ty);
            }
            for i in f.insts_in_order() {
                if let InstKind::Deref(d) = &f.insts[i].kind {
                    n.visit_type(&m.types, d.ty);
                }
            }
        }
        n
    }
    fn visit_type(&mut self, types: &TypeArena, t: Type) {
        match types.kind(t) {
            TypeKind::Struct { members } => {
                if self.structs.contains_key(&t) {
                    return;
                }
                for m in members {
                    self.visit_type(types, m.ty);
                }
                self.structs.insert(t, self.struct_order.len() as u32);
                self.struct_order.push(t);
            }
            TypeKind::Matrix { column, .. } => self.visit_type(types, *column),
            TypeKind::Array { elem, .. } => self.visit_type(types, *elem),
            TypeKind::SampledImage(i) => self.visit_type(types, *i),
            TypeKind::Pointer { pointee, .. } => self.visit_type(types, *pointee),
            _ => {}
        }
    }
}

/// Writes type `t` inline.
pub(crate) fn write_type(out: &mut String, types: &TypeArena, names: &Names, t: Type) {
    match types.kind(t) {
        TypeKind::Void => out.push_str("void"),
        TypeKind::Scalar(s) => out.push_str(s.name()),
        TypeKind::Vector {
            scalar,
            len,
            stride,
        } => {
            let _ = write!(out, "vec{}<{}", len, scalar.name());
            if *stride != 0 {
                let _ = write!(out, ", stride={}", stride);
            }
            out.push('>');
        }
        TypeKind::Matrix {
            column,
            columns,
            row_major,
            stride,
        } => {
            let (s, rows) = types.as_vector(*column).unwrap_or((Scalar::F32, 0));
            let _ = write!(out, "mat{}x{}<{}", columns, rows, s.name());
            if *row_major {
                out.push_str(", row_major");
            }
            if *stride != 0 {
                let _ = write!(out, ", stride={}", stride);
            }
            out.push('>');
        }
        TypeKind::Array { elem, len, stride } => {
            out.push('[');
            write_type(out, types, names, *elem);
            if let Some(n) = len {
                let _ = write!(out, ", {}", n);
            }
            if *stride != 0 {
                let _ = write!(out, ", stride={}", stride);
            }
            out.push(']');
        }
        TypeKind::Struct { .. } => {
            let _ = write!(
                out,
                "${}",
                names.structs.get(&t).copied().unwrap_or(u32::MAX)
            );
        }
        TypeKind::Image(i) => {
            let _ = write!(out, "image<{}, {}", i.dim.name(), i.sampled_type.name());
            for (on, name) in [
                (i.depth, "depth"),
                (i.arrayed, "arrayed"),
                (i.ms, "ms"),
                (i.sampled, "sampled"),
            ] {
                if on {
                    let _ = write!(out, ", {}", name);
                }
            }
            if i.format != 0 {
                let _ = write!(out, ", fmt={}", i.format);
            }
            out.push('>');
        }
        TypeKind::Sampler => out.push_str("sampler"),
        TypeKind::SampledImage(i) => {
            out.push_str("sampled_image<");
            write_type(out, types, names, *i);
            out.push('>');
        }
        TypeKind::Pointer { pointee, mode } => {
            let _ = write!(out, "ptr<{}, ", mode.name());
            write_type(out, types, names, *pointee);
            out.push('>');
        }
    }
}

/// A per-instruction annotation hook: text appended as a `;` comment.
pub type Annotate<'a> = &'a dyn Fn(Func, Inst) -> Option<String>;

/// Prints a whole module.
pub fn print_module(m: &Module) -> String {
    print_module_annotated(m, &|_, _| None)
}

/// Prints a whole module, appending `; <note>` to instructions `ann` has a note for
/// (analysis results in filetests; the parser ignores the comments).
pub fn print_module_annotated(m: &Module, ann: Annotate) -> String {
    let names = Names::new(m);
    let mut out = String::new();
    let _ = write!(out, "shader {}", m.stage.name());
    if m.stage == Stage::Compute {
        let [x, y, z] = m.local_size;
        let _ = write!(out, " local_size={},{},{}", x, y, z);
    }
    for (f, n) in ExecFlags::NAMES {
        if m.exec_flags.contains(f) {
            let _ = write!(out, " {}", n);
        }
    }
    if m.shared_size != 0 {
        let _ = write!(out, " shared_size={}", m.shared_size);
    }
    if m.scratch_size != 0 {
        let _ = write!(out, " scratch_size={}", m.scratch_size);
    }
    if !m.constant_data.is_empty() {
        out.push_str(" constant_data=\"");
        for b in &m.constant_data {
            let _ = write!(out, "{:02x}", b);
        }
        out.push('"');
    }
    out.push('\n');
    for &s in &names.struct_order {
        let _ = write!(out, "struct ${} {{", names.structs[&s]);
        if let TypeKind::Struct { members } = m.types.kind(s) {
            for (k, mem) in members.iter().enumerate() {
                out.push_str(if k == 0 { " " } else { ", " });
                write_type(&mut out, &m.types, &names, mem.ty);
                if let Some(o) = mem.offset {
                    let _ = write!(out, " @{}", o);
                }
            }
        }
        out.push_str(" }\n");
    }
    for &g in &m.globals {
        write_var(&mut out, m, &names, g, "");
    }
    for (fh, f) in m.functions.iter() {
        out.push('\n');
        print_function(&mut out, m, &names, fh, f, ann);
    }
    out
}

fn write_var(out: &mut String, m: &Module, names: &Names, v: Var, indent: &str) {
    let var = &m.vars[v];
    let _ = write!(
        out,
        "{}var @{} {} ",
        indent,
        names.vars[&v],
        var.mode.name()
    );
    write_type(out, &m.types, names, var.ty);
    if let Some((s, b)) = var.binding {
        let _ = write!(out, " set={} binding={}", s, b);
    }
    if let Some(l) = var.location {
        let _ = write!(out, " location={}", l);
    }
    if var.component != 0 {
        let _ = write!(out, " component={}", var.component);
    }
    if var.index != 0 {
        let _ = write!(out, " index={}", var.index);
    }
    if let Some(b) = var.builtin {
        let _ = write!(out, " builtin={}", b.name());
    }
    for (f, n) in VarFlags::NAMES {
        if var.flags.contains(f) {
            let _ = write!(out, " {}", n);
        }
    }
    if let Some(n) = &var.name {
        let _ = write!(out, " {:?}", n);
    }
    out.push('\n');
}

/// Per-function canonical numbering.
struct FNames {
    vals: SecondaryMap<InstData, u32>,
    blocks: SecondaryMap<BlockData, u32>,
}

impl FNames {
    /// Blocks numbered in layout order; values (instructions with a type) numbered in the
    /// order they appear; everything else `u32::MAX`.
    fn new(f: &Function) -> FNames {
        let mut fnames = FNames {
            vals: SecondaryMap::with_len(f.insts.len(), u32::MAX),
            blocks: SecondaryMap::with_len(f.blocks.len(), u32::MAX),
        };
        let mut nv = 0;
        for (k, b) in f.blocks_in_order().into_iter().enumerate() {
            fnames.blocks[b] = k as u32;
            for &i in &f.blocks[b].insts {
                if !f.insts[i].ty.is_none() {
                    fnames.vals[i] = nv;
                    nv += 1;
                }
            }
        }
        fnames
    }
}

fn print_function(
    out: &mut String,
    m: &Module,
    names: &Names,
    fh: Func,
    f: &Function,
    ann: Annotate,
) {
    let fnames = FNames::new(f);
    if m.entry == Some(fh) {
        out.push_str("entry ");
    }
    let _ = write!(out, "fn {}(", f.name);
    for (k, p) in f.params.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{}", p);
    }
    out.push(')');
    if !f.ret.is_none() {
        let _ = write!(out, " -> {}", f.ret);
    }
    out.push_str(" {\n");
    for &l in &f.locals {
        write_var(out, m, names, l, "  ");
    }
    let ctx = Ctx {
        m,
        names,
        fnames: &fnames,
        f,
        fh,
        ann,
    };
    print_list(out, &ctx, &f.body, 1);
    out.push_str("}\n");
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn val(fnames: &FNames, v: Value) -> String {
    let n = fnames.vals[v];
    if n == u32::MAX {
        format!("%?{}", v.index())
    } else {
        format!("%{}", n)
    }
}

struct Ctx<'a> {
    m: &'a Module,
    names: &'a Names,
    fnames: &'a FNames,
    f: &'a Function,
    fh: Func,
    ann: Annotate<'a>,
}

fn print_list(out: &mut String, ctx: &Ctx, list: &[CfNode], depth: usize) {
    let (m, names, fnames, f) = (ctx.m, ctx.names, ctx.fnames, ctx.f);
    for node in list {
        match node {
            CfNode::Block(b) => {
                indent(out, depth);
                let _ = writeln!(out, "block_{}:", fnames.blocks[*b]);
                for &i in &f.blocks[*b].insts {
                    indent(out, depth + 1);
                    print_inst(out, m, names, fnames, f, i);
                    if let Some(note) = (ctx.ann)(ctx.fh, i) {
                        let _ = write!(out, " ; {}", note);
                    }
                    out.push('\n');
                }
            }
            CfNode::If {
                cond,
                then_body,
                else_body,
                control,
            } => {
                indent(out, depth);
                let _ = write!(out, "if {}", val(fnames, *cond));
                match control {
                    Control::None => {}
                    Control::Prefer => out.push_str(" flatten"),
                    Control::Avoid => out.push_str(" dont_flatten"),
                }
                out.push_str(" {\n");
                print_list(out, ctx, then_body, depth + 1);
                indent(out, depth);
                out.push_str("} else {\n");
                print_list(out, ctx, else_body, depth + 1);
                indent(out, depth);
                out.push_str("}\n");
            }
            CfNode::Loop { body, control } => {
                indent(out, depth);
                out.push_str("loop");
                match control {
                    Control::None => {}
                    Control::Prefer => out.push_str(" unroll"),
                    Control::Avoid => out.push_str(" dont_unroll"),
                }
                out.push_str(" {\n");
                print_list(out, ctx, body, depth + 1);
                indent(out, depth);
                out.push_str("}\n");
            }
        }
    }
}

/// Formats one constant component: small integers in decimal, the rest in hex.
pub(crate) fn const_comp(bits: u8, c: u64) -> String {
    let sext = if bits >= 64 || bits <= 1 {
        c as i64
    } else {
        ((c << (64 - bits)) as i64) >> (64 - bits)
    };
    if bits == 1 {
        if c != 0 { "true" } else { "false" }.to_string()
    } else if (-4096..=4096).contains(&sext) {
        sext.to_string()
    } else {
        format!("{:#x}", c)
    }
}

fn float_comment(bits: u8, c: u64) -> String {
    match bits {
        16 => format!("{:?}", super::f16::f16_to_f32(c as u16)),
        32 => format!("{:?}", f32::from_bits(c as u32)),
        64 => format!("{:?}", f64::from_bits(c)),
        _ => String::new(),
    }
}

fn print_inst(out: &mut String, m: &Module, names: &Names, fnames: &FNames, f: &Function, i: Inst) {
    let d = &f.insts[i];
    if !d.ty.is_none() {
        let _ = write!(out, "{} {} = ", d.ty, val(fnames, i));
    }
    match &d.kind {
        InstKind::Const(c) => {
            out.push_str("const ");
            let mut any_hex = false;
            for (k, &x) in c.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                let s = const_comp(d.ty.bits, x);
                any_hex |= s.starts_with("0x");
                out.push_str(&s);
            }
            if any_hex && d.ty.bits >= 16 {
                out.push_str(" ; ");
                for (k, &x) in c.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&float_comment(d.ty.bits, x));
                }
            }
        }
        InstKind::Undef => out.push_str("undef"),
        InstKind::Alu { op, srcs } => {
            if d.exact {
                out.push_str("exact ");
            }
            out.push_str(op.name());
            for (k, &s) in srcs.iter().enumerate() {
                out.push_str(if k == 0 { " " } else { ", " });
                out.push_str(&val(fnames, s));
            }
        }
        InstKind::Swizzle { src, comps } => {
            let _ = write!(out, "swizzle {}.", val(fnames, *src));
            if comps.iter().all(|&c| c < 4) {
                for &c in comps {
                    out.push(b"xyzw"[c as usize] as char);
                }
            } else {
                out.push('[');
                for (k, c) in comps.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{}", c);
                }
                out.push(']');
            }
        }
        InstKind::Phi(srcs) => {
            out.push_str("phi");
            for (k, &(b, v)) in srcs.iter().enumerate() {
                out.push_str(if k == 0 { " " } else { ", " });
                let _ = write!(out, "block_{}: {}", fnames.blocks[b], val(fnames, v));
            }
        }
        InstKind::Deref(dr) => {
            match dr.kind {
                DerefKind::Var(v) => {
                    let _ = write!(
                        out,
                        "deref_var @{}",
                        names.vars.get(&v).copied().unwrap_or(u32::MAX)
                    );
                }
                DerefKind::Array { parent, index } => {
                    let _ = write!(
                        out,
                        "deref_array {}[{}]",
                        val(fnames, parent),
                        val(fnames, index)
                    );
                }
                DerefKind::Struct { parent, member } => {
                    let _ = write!(out, "deref_struct {}.{}", val(fnames, parent), member);
                }
                DerefKind::PtrAsArray {
                    parent,
                    index,
                    stride,
                } => {
                    let _ = write!(
                        out,
                        "deref_ptr_as_array {}[{}] stride={}",
                        val(fnames, parent),
                        val(fnames, index),
                        stride
                    );
                }
                DerefKind::Cast {
                    parent,
                    stride,
                    align,
                } => {
                    let _ = write!(
                        out,
                        "deref_cast {} stride={} align={}",
                        val(fnames, parent),
                        stride,
                        align
                    );
                }
            }
            let _ = write!(out, " : {} ", dr.mode.name());
            write_type(out, &m.types, names, dr.ty);
        }
        InstKind::Intrinsic { op, srcs, idx } => {
            out.push_str(op.name());
            for (k, &s) in srcs.iter().enumerate() {
                out.push_str(if k == 0 { " " } else { ", " });
                out.push_str(&val(fnames, s));
            }
            for (k, &(name, kind)) in op.indices().iter().enumerate() {
                let x = idx.get(k).copied().unwrap_or(0);
                if x == 0 && matches!(kind, IdxKind::Num | IdxKind::Hex) {
                    continue;
                }
                let _ = write!(out, " {}=", name);
                let _ = match kind {
                    IdxKind::Num => write!(out, "{}", x),
                    IdxKind::Hex => write!(out, "{:#x}", x),
                    IdxKind::Atomic => write!(
                        out,
                        "{}",
                        AtomicOp::ALL.get(x as usize).map_or("?", |o| o.name())
                    ),
                    IdxKind::Reduce => write!(
                        out,
                        "{}",
                        ReduceOp::ALL.get(x as usize).map_or("?", |o| o.name())
                    ),
                    IdxKind::Interp => write!(
                        out,
                        "{}",
                        Interp::ALL.get(x as usize).map_or("?", |o| o.name())
                    ),
                    IdxKind::Mode => write!(
                        out,
                        "{}",
                        Mode::ALL.get(x as usize).map_or("?", |o| o.name())
                    ),
                    IdxKind::Desc => write!(
                        out,
                        "{}",
                        Descriptor::ALL.get(x as usize).map_or("?", |o| o.name())
                    ),
                    IdxKind::Dim => write!(
                        out,
                        "{}",
                        Dim::ALL.get(x as usize).map_or("?", |o| o.name())
                    ),
                };
            }
        }
        InstKind::Tex(t) => {
            let _ = write!(out, "tex {} {}", t.op.name(), t.dim.name());
            if t.arrayed {
                out.push_str(" arrayed");
            }
            if t.shadow {
                out.push_str(" shadow");
            }
            if t.sparse {
                out.push_str(" sparse");
            }
            if t.component != 0 {
                let _ = write!(out, " comp={}", t.component);
            }
            for &(s, v) in &t.srcs {
                let _ = write!(out, " {}={}", s.name(), val(fnames, v));
            }
        }
        InstKind::Call { func, args } => {
            let _ = write!(out, "call {}(", m.functions[*func].name);
            for (k, &a) in args.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push_str(&val(fnames, a));
            }
            out.push(')');
        }
        InstKind::Jump(k, v) => {
            out.push_str(k.name());
            if let Some(v) = v {
                let _ = write!(out, " {}", val(fnames, *v));
            }
        }
    }
}

/// Prints one value's defining instruction (for error messages and debugging).
pub fn describe(m: &Module, f: &Function, i: Inst) -> String {
    let names = Names::new(m);
    let fnames = FNames::new(f);
    let mut out = String::new();
    print_inst(&mut out, m, &names, &fnames, f, i);
    out
}
