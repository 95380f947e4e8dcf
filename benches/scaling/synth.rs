//! Synthetic compute shaders of a chosen size, for the size-scaling benchmark: SPIR-V
//! words built with rspirv's builder, deterministic (the same shape and size always give
//! the same words).
//!
//! Every shader reads `d[gl_GlobalInvocationID.x]` of one storage buffer of floats, works
//! on it through function-local variables (loads and stores, as glslang writes them, so
//! mem2reg sees realistic input) and writes the result back. A *unit* is one repetition of
//! the shape's pattern, each with its own constants (nothing folds or merges away):
//!
//! - [`Shape::Straight`]: two float multiply-adds and an integer xor-shift-multiply.
//! - [`Shape::IfElse`]: one more level of an if/else nest (`if (x > k) { x *= a; <deeper> }
//!   else { x += b; }`); a nest is closed every [`NEST_DEPTH`] levels and the next one
//!   follows it (the front end refuses structured control flow nested beyond 96 levels).
//! - [`Shape::Loops`]: one more loop in sequence, its trip count read from the buffer (no
//!   unrolling), its body two multiply-adds.
//! - [`Shape::Vectors`]: two `vec4` multiply-adds with swizzles.
//!
//! The units scale exactly: 4× size is 4× the units, so the words grow linearly too.

use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, LoopControl, MemoryModel, SelectionControl, StorageClass, Word,
};

/// Levels of one if/else nest of [`Shape::IfElse`].
pub const NEST_DEPTH: usize = 8;

/// The pattern repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Straight,
    IfElse,
    Loops,
    Vectors,
}

impl Shape {
    pub const ALL: [Shape; 4] = [Shape::Straight, Shape::IfElse, Shape::Loops, Shape::Vectors];

    pub fn name(self) -> &'static str {
        match self {
            Shape::Straight => "straight-line",
            Shape::IfElse => "if/else nest",
            Shape::Loops => "loops",
            Shape::Vectors => "vec4",
        }
    }
}

/// The ids every shape uses.
struct Ctx {
    b: Builder,
    f32: Word,
    u32: Word,
    bool: Word,
    v4: Word,
    /// Function variables: x, y (float), u (uint), v, w (vec4), j (uint, loop counter).
    x: Word,
    y: Word,
    u: Word,
    v: Word,
    w: Word,
    j: Word,
    /// The trip count every loop runs (a uint read from the buffer).
    trips: Word,
}

impl Ctx {
    fn cf(&mut self, v: f32) -> Word {
        self.b.constant_bit32(self.f32, v.to_bits())
    }
    fn cu(&mut self, v: u32) -> Word {
        self.b.constant_bit32(self.u32, v)
    }
    fn load(&mut self, ty: Word, p: Word) -> Word {
        self.b.load(ty, None, p, None, []).unwrap()
    }
    fn store(&mut self, p: Word, v: Word) {
        self.b.store(p, v, None, []).unwrap();
    }
    /// `*dst = *dst * k + *src` on floats.
    fn mad(&mut self, dst: Word, src: Word, k: f32) {
        let (t, a, s) = (self.f32, self.load(self.f32, dst), self.load(self.f32, src));
        let k = self.cf(k);
        let m = self.b.f_mul(t, None, a, k).unwrap();
        let r = self.b.f_add(t, None, m, s).unwrap();
        self.store(dst, r);
    }
    /// A constant that differs per unit `i` (and per use `n` within the unit).
    fn k(i: usize, n: usize) -> f32 {
        1.0 + ((i * 7 + n * 3) % 97) as f32 / 128.0
    }

    fn straight_unit(&mut self, i: usize) {
        self.mad(self.x, self.y, Self::k(i, 0));
        self.mad(self.y, self.x, -Self::k(i, 1));
        let t = self.u32;
        let u = self.load(t, self.u);
        let sh = self.cu(3 + (i % 5) as u32);
        let s = self.b.shift_right_logical(t, None, u, sh).unwrap();
        let x = self.b.bitwise_xor(t, None, u, s).unwrap();
        let m = self.cu(0x9e37_79b9u32.wrapping_add(2 * i as u32));
        let r = self.b.i_mul(t, None, x, m).unwrap();
        self.store(self.u, r);
    }

    fn vector_unit(&mut self, i: usize) {
        let t = self.v4;
        for (n, (dst, src, sw)) in [
            (self.v, self.w, [1, 2, 3, 0]),
            (self.w, self.v, [3, 2, 1, 0]),
        ]
        .into_iter()
        .enumerate()
        {
            let a = self.load(t, dst);
            let s = self.load(t, src);
            let swz = self.b.vector_shuffle(t, None, s, s, sw).unwrap();
            let ks: Vec<Word> = (0..4).map(|c| self.cf(Self::k(i, 2 * n + c))).collect();
            let k = self.b.constant_composite(t, ks);
            let m = self.b.f_mul(t, None, a, k).unwrap();
            let r = self.b.f_add(t, None, m, swz).unwrap();
            self.store(dst, r);
        }
    }

    /// `if (x > k) { x *= a; <then continues in the returned block> } else { x += b; }`:
    /// the caller goes on in the then-block and finally branches to the merge blocks,
    /// innermost first ([`Ctx::close_ifs`]).
    fn open_if(&mut self, i: usize, merges: &mut Vec<Word>) {
        let (t, bt) = (self.f32, self.bool);
        let x = self.load(t, self.x);
        let k = self.cf(Self::k(i, 0) * 0.5);
        let c = self.b.f_ord_greater_than(bt, None, x, k).unwrap();
        let (then_b, else_b, merge) = (self.b.id(), self.b.id(), self.b.id());
        self.b
            .selection_merge(merge, SelectionControl::NONE)
            .unwrap();
        self.b.branch_conditional(c, then_b, else_b, []).unwrap();
        self.b.begin_block(Some(else_b)).unwrap();
        let x = self.load(t, self.x);
        let kb = self.cf(Self::k(i, 1));
        let r = self.b.f_add(t, None, x, kb).unwrap();
        self.store(self.x, r);
        self.b.branch(merge).unwrap();
        self.b.begin_block(Some(then_b)).unwrap();
        self.mad(self.x, self.y, Self::k(i, 2));
        merges.push(merge);
    }

    /// Branches out of every open if, innermost first, with one multiply-add in each merge.
    fn close_ifs(&mut self, merges: Vec<Word>) {
        for (i, m) in merges.into_iter().rev().enumerate() {
            self.b.branch(m).unwrap();
            self.b.begin_block(Some(m)).unwrap();
            self.mad(self.y, self.x, Self::k(i, 3));
        }
    }

    /// `for (j = 0; j < trips; j++) { x = x*a + y; y = y*b + x; }`
    fn loop_unit(&mut self, i: usize) {
        let (t, bt) = (self.u32, self.bool);
        let zero = self.cu(0);
        self.store(self.j, zero);
        let (header, check, body, cont, merge) = (
            self.b.id(),
            self.b.id(),
            self.b.id(),
            self.b.id(),
            self.b.id(),
        );
        self.b.branch(header).unwrap();
        self.b.begin_block(Some(header)).unwrap();
        self.b
            .loop_merge(merge, cont, LoopControl::NONE, [])
            .unwrap();
        self.b.branch(check).unwrap();
        self.b.begin_block(Some(check)).unwrap();
        let j = self.load(t, self.j);
        let c = self.b.u_less_than(bt, None, j, self.trips).unwrap();
        self.b.branch_conditional(c, body, merge, []).unwrap();
        self.b.begin_block(Some(body)).unwrap();
        self.mad(self.x, self.y, Self::k(i, 0));
        self.mad(self.y, self.x, -Self::k(i, 1));
        self.b.branch(cont).unwrap();
        self.b.begin_block(Some(cont)).unwrap();
        let j = self.load(t, self.j);
        let one = self.cu(1);
        let j1 = self.b.i_add(t, None, j, one).unwrap();
        self.store(self.j, j1);
        self.b.branch(header).unwrap();
        self.b.begin_block(Some(merge)).unwrap();
    }
}

/// The SPIR-V words of `shape` repeated `units` times (entry point `main`, local size 64,
/// set 0 binding 0 a storage buffer of floats).
pub fn shader(shape: Shape, units: usize) -> Vec<u32> {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let fn_ty = b.type_function(void, []);
    let f32 = b.type_float(32);
    let u32 = b.type_int(32, 0);
    let bool = b.type_bool();
    let v4 = b.type_vector(f32, 4);
    let uv3 = b.type_vector(u32, 3);
    let arr = b.type_runtime_array(f32);
    b.decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
    let block = b.type_struct([arr]);
    b.decorate(block, Decoration::Block, []);
    b.member_decorate(block, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
    let buf_ptr = b.type_pointer(None, StorageClass::StorageBuffer, block);
    let elem_ptr = b.type_pointer(None, StorageClass::StorageBuffer, f32);
    let gid_ptr = b.type_pointer(None, StorageClass::Input, uv3);
    let fptr = b.type_pointer(None, StorageClass::Function, f32);
    let uptr = b.type_pointer(None, StorageClass::Function, u32);
    let v4ptr = b.type_pointer(None, StorageClass::Function, v4);
    let buf = b.variable(buf_ptr, None, StorageClass::StorageBuffer, None);
    b.decorate(buf, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
    b.decorate(buf, Decoration::Binding, [Operand::LiteralBit32(0)]);
    let gid = b.variable(gid_ptr, None, StorageClass::Input, None);
    b.decorate(
        gid,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
    );
    let main = b
        .begin_function(void, None, FunctionControl::NONE, fn_ty)
        .unwrap();
    b.entry_point(ExecutionModel::GLCompute, main, "main", [gid]);
    b.execution_mode(main, ExecutionMode::LocalSize, [64, 1, 1]);
    b.begin_block(None).unwrap();
    let vars: Vec<Word> = [fptr, fptr, uptr, v4ptr, v4ptr, uptr]
        .into_iter()
        .map(|p| b.variable(p, None, StorageClass::Function, None))
        .collect();
    let g = b.load(uv3, None, gid, None, []).unwrap();
    let i = b.composite_extract(u32, None, g, [0]).unwrap();
    let zero = b.constant_bit32(u32, 0);
    let p = b.access_chain(elem_ptr, None, buf, [zero, i]).unwrap();
    let d = b.load(f32, None, p, None, []).unwrap();
    let p0 = b.access_chain(elem_ptr, None, buf, [zero, zero]).unwrap();
    let d0 = b.load(f32, None, p0, None, []).unwrap();
    let trips = b.convert_f_to_u(u32, None, d0).unwrap();
    let mut c = Ctx {
        b,
        f32,
        u32,
        bool,
        v4,
        x: vars[0],
        y: vars[1],
        u: vars[2],
        v: vars[3],
        w: vars[4],
        j: vars[5],
        trips,
    };
    // Initial values from the buffer element.
    c.store(c.x, d);
    let half = c.cf(0.5);
    let y0 = c.b.f_mul(f32, None, d, half).unwrap();
    c.store(c.y, y0);
    let u0 = c.b.bitcast(u32, None, d).unwrap();
    c.store(c.u, u0);
    let v0 = c.b.composite_construct(v4, None, [d, y0, d, y0]).unwrap();
    c.store(c.v, v0);
    let w0 = c.b.composite_construct(v4, None, [y0, d, half, d]).unwrap();
    c.store(c.w, w0);
    let mut merges = Vec::new();
    for n in 0..units {
        match shape {
            Shape::Straight => c.straight_unit(n),
            Shape::IfElse => {
                c.open_if(n, &mut merges);
                if merges.len() == NEST_DEPTH {
                    c.close_ifs(std::mem::take(&mut merges));
                }
            }
            Shape::Loops => c.loop_unit(n),
            Shape::Vectors => c.vector_unit(n),
        }
    }
    c.close_ifs(merges);
    // d[i] = x + y + float(u) + dot-ish sum of v and w.
    let x = c.load(f32, c.x);
    let y = c.load(f32, c.y);
    let u = c.load(u32, c.u);
    let uf = c.b.convert_u_to_f(f32, None, u).unwrap();
    let v = c.load(v4, c.v);
    let w = c.load(v4, c.w);
    let vw = c.b.f_add(v4, None, v, w).unwrap();
    let mut sum = c.b.f_add(f32, None, x, y).unwrap();
    sum = c.b.f_add(f32, None, sum, uf).unwrap();
    for k in 0..4 {
        let e = c.b.composite_extract(f32, None, vw, [k]).unwrap();
        sum = c.b.f_add(f32, None, sum, e).unwrap();
    }
    c.b.store(p, sum, None, []).unwrap();
    c.b.ret().unwrap();
    c.b.end_function().unwrap();
    use rspirv::binary::Assemble;
    c.b.module().assemble()
}
