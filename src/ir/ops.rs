//! The operation tables: ALU opcodes, intrinsics and texture operations.
//!
//! Each table row gives an operation's text name and the facts the verifier, the passes and
//! the printer/parser need (source count, result shape, side effects, divergence class), so
//! adding an operation is one line here plus its semantics where they matter (constant
//! folding, isel). Names are unique across ALU ops and intrinsics: the parser looks a
//! mnemonic up in both tables.
//!
//! ALU values are typeless bit patterns as in NIR: the op says how it reads them (`fadd`
//! reads floats of the operand bit size, `iadd` integers). A result's bit size and
//! component count are the instruction's [`ValType`].

/// How an ALU op's result and sources relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Per-component; every source has the result's type.
    Same,
    /// Per-component compare; sources share one type, the result is 1-bit with their width.
    Cmp,
    /// Per-component conversion: one source, same component count, any bit size.
    Conv,
    /// Per-component; source 0 has the result type, the others the same component count
    /// and any bit size (shift amounts, exponents, bitfield offsets).
    FirstSame,
    /// `bcsel`: 1-bit condition, two sources of the result type.
    Select,
    /// Anything else; the verifier checks these one by one.
    Special,
}

macro_rules! alu_ops {
    ($($v:ident $name:literal $n:literal $shape:ident;)*) => {
        /// An ALU opcode.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum AluOp { $($v,)* }
        impl AluOp {
            pub const ALL: &'static [AluOp] = &[$(AluOp::$v,)*];
            /// Text mnemonic.
            pub fn name(self) -> &'static str { match self { $(AluOp::$v => $name,)* } }
            /// Number of sources; 0 means variadic (`vec`).
            pub fn num_srcs(self) -> usize { match self { $(AluOp::$v => $n,)* } }
            pub fn shape(self) -> Shape { match self { $(AluOp::$v => Shape::$shape,)* } }
        }
    };
}

alu_ops! {
    Mov "mov" 1 Same;
    Vec "vec" 0 Special;
    // float arithmetic
    Fneg "fneg" 1 Same; Fabs "fabs" 1 Same; Fsat "fsat" 1 Same; Fsign "fsign" 1 Same;
    Ffloor "ffloor" 1 Same; Fceil "fceil" 1 Same; Ftrunc "ftrunc" 1 Same;
    FroundEven "fround_even" 1 Same; Ffract "ffract" 1 Same;
    Fsqrt "fsqrt" 1 Same; Frsq "frsq" 1 Same; Frcp "frcp" 1 Same;
    Fexp2 "fexp2" 1 Same; Flog2 "flog2" 1 Same; Fsin "fsin" 1 Same; Fcos "fcos" 1 Same;
    Fquantize2f16 "fquantize2f16" 1 Same;
    Fadd "fadd" 2 Same; Fsub "fsub" 2 Same; Fmul "fmul" 2 Same; Fdiv "fdiv" 2 Same;
    Fmod "fmod" 2 Same; Frem "frem" 2 Same; Fmin "fmin" 2 Same; Fmax "fmax" 2 Same;
    Fpow "fpow" 2 Same;
    Ffma "ffma" 3 Same; Flrp "flrp" 3 Same;
    Fldexp "fldexp" 2 FirstSame;
    FfrexpSig "ffrexp_sig" 1 Same; FfrexpExp "ffrexp_exp" 1 Conv;
    Fdot "fdot" 2 Special;
    // derivatives
    Fddx "fddx" 1 Same; Fddy "fddy" 1 Same;
    FddxFine "fddx_fine" 1 Same; FddyFine "fddy_fine" 1 Same;
    FddxCoarse "fddx_coarse" 1 Same; FddyCoarse "fddy_coarse" 1 Same;
    // float compares (o = ordered: false on NaN; u = unordered: true on NaN)
    Flt "flt" 2 Cmp; Fge "fge" 2 Cmp; Feq "feq" 2 Cmp; Fneu "fneu" 2 Cmp;
    Fltu "fltu" 2 Cmp; Fgeu "fgeu" 2 Cmp; Fequ "fequ" 2 Cmp; Fneo "fneo" 2 Cmp;
    Fisnan "fisnan" 1 Cmp; Fisinf "fisinf" 1 Cmp;
    // integer arithmetic
    Ineg "ineg" 1 Same; Iabs "iabs" 1 Same; Isign "isign" 1 Same; Inot "inot" 1 Same;
    Iadd "iadd" 2 Same; Isub "isub" 2 Same; Imul "imul" 2 Same;
    Idiv "idiv" 2 Same; Udiv "udiv" 2 Same; Imod "imod" 2 Same; Irem "irem" 2 Same;
    Umod "umod" 2 Same;
    Imin "imin" 2 Same; Imax "imax" 2 Same; Umin "umin" 2 Same; Umax "umax" 2 Same;
    Iand "iand" 2 Same; Ior "ior" 2 Same; Ixor "ixor" 2 Same;
    UmulHigh "umul_high" 2 Same; ImulHigh "imul_high" 2 Same;
    UaddCarry "uadd_carry" 2 Same; UsubBorrow "usub_borrow" 2 Same;
    IaddSat "iadd_sat" 2 Same; UaddSat "uadd_sat" 2 Same;
    IsubSat "isub_sat" 2 Same; UsubSat "usub_sat" 2 Same;
    Ishl "ishl" 2 FirstSame; Ishr "ishr" 2 FirstSame; Ushr "ushr" 2 FirstSame;
    IbitfieldExtract "ibitfield_extract" 3 FirstSame;
    UbitfieldExtract "ubitfield_extract" 3 FirstSame;
    BitfieldInsert "bitfield_insert" 4 Special;
    BitfieldReverse "bitfield_reverse" 1 Same;
    BitCount "bit_count" 1 Conv; UfindMsb "ufind_msb" 1 Conv; IfindMsb "ifind_msb" 1 Conv;
    FindLsb "find_lsb" 1 Conv;
    // integer compares
    Ieq "ieq" 2 Cmp; Ine "ine" 2 Cmp; Ilt "ilt" 2 Cmp; Ige "ige" 2 Cmp;
    Ult "ult" 2 Cmp; Uge "uge" 2 Cmp;
    Bcsel "bcsel" 3 Select;
    Bany "bany" 1 Special; Ball "ball" 1 Special;
    // conversions
    F2f "f2f" 1 Conv; F2fRtz "f2f_rtz" 1 Conv; F2fRtne "f2f_rtne" 1 Conv;
    F2i "f2i" 1 Conv; F2u "f2u" 1 Conv; F2iSat "f2i_sat" 1 Conv; F2uSat "f2u_sat" 1 Conv;
    I2f "i2f" 1 Conv; U2f "u2f" 1 Conv;
    I2i "i2i" 1 Conv; U2u "u2u" 1 Conv; I2iSat "i2i_sat" 1 Conv; U2uSat "u2u_sat" 1 Conv;
    B2f "b2f" 1 Conv; B2i "b2i" 1 Conv;
    // pack / unpack
    PackHalf2x16 "pack_half_2x16" 1 Special; UnpackHalf2x16 "unpack_half_2x16" 1 Special;
    PackUnorm4x8 "pack_unorm_4x8" 1 Special; PackSnorm4x8 "pack_snorm_4x8" 1 Special;
    UnpackUnorm4x8 "unpack_unorm_4x8" 1 Special; UnpackSnorm4x8 "unpack_snorm_4x8" 1 Special;
    PackUnorm2x16 "pack_unorm_2x16" 1 Special; PackSnorm2x16 "pack_snorm_2x16" 1 Special;
    UnpackUnorm2x16 "unpack_unorm_2x16" 1 Special;
    UnpackSnorm2x16 "unpack_snorm_2x16" 1 Special;
    Pack64_2x32 "pack_64_2x32" 1 Special; Unpack64_2x32 "unpack_64_2x32" 1 Special;
    Pack32_2x16 "pack_32_2x16" 1 Special; Unpack32_2x16 "unpack_32_2x16" 1 Special;
    Pack32_4x8 "pack_32_4x8" 1 Special; Unpack32_4x8 "unpack_32_4x8" 1 Special;
}

impl AluOp {
    pub fn from_name(s: &str) -> Option<AluOp> {
        AluOp::ALL.iter().copied().find(|o| o.name() == s)
    }
    /// Ops whose (first) operand is a float.
    pub fn reads_float(self) -> bool {
        use AluOp::*;
        matches!(
            self,
            Fneg | Fabs
                | Fsat
                | Fsign
                | Ffloor
                | Fceil
                | Ftrunc
                | FroundEven
                | Ffract
                | Fsqrt
                | Frsq
                | Frcp
                | Fexp2
                | Flog2
                | Fsin
                | Fcos
                | Fquantize2f16
                | Fadd
                | Fsub
                | Fmul
                | Fdiv
                | Fmod
                | Frem
                | Fmin
                | Fmax
                | Fpow
                | Ffma
                | Flrp
                | Fldexp
                | FfrexpSig
                | FfrexpExp
                | Fdot
                | Fddx
                | Fddy
                | FddxFine
                | FddyFine
                | FddxCoarse
                | FddyCoarse
                | Flt
                | Fge
                | Feq
                | Fneu
                | Fltu
                | Fgeu
                | Fequ
                | Fneo
                | Fisnan
                | Fisinf
                | F2f
                | F2fRtz
                | F2fRtne
                | F2i
                | F2u
                | F2iSat
                | F2uSat
        )
    }
    /// Conversions whose result is a float.
    pub fn writes_float(self) -> bool {
        use AluOp::*;
        matches!(self, F2f | F2fRtz | F2fRtne | I2f | U2f | B2f)
    }
    /// Whether swapping sources 0 and 1 keeps the meaning (for CSE canonicalisation).
    pub fn is_commutative(self) -> bool {
        use AluOp::*;
        matches!(
            self,
            Fadd | Fmul
                | Fmin
                | Fmax
                | Iadd
                | Imul
                | Imin
                | Imax
                | Umin
                | Umax
                | Iand
                | Ior
                | Ixor
                | UmulHigh
                | ImulHigh
                | UaddCarry
                | IaddSat
                | UaddSat
                | Feq
                | Fneu
                | Fequ
                | Fneo
                | Ieq
                | Ine
                | Fdot
        )
    }
    /// Derivatives read neighbouring lanes: they are divergent-sensitive and may not move
    /// into non-uniform control flow.
    pub fn is_derivative(self) -> bool {
        use AluOp::*;
        matches!(
            self,
            Fddx | Fddy | FddxFine | FddyFine | FddxCoarse | FddyCoarse
        )
    }
}

/// How an intrinsic's result relates to uniformity (for divergence analysis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Div {
    /// Same for every invocation of a subgroup, whatever the sources.
    Uniform,
    /// Differs per invocation.
    Divergent,
    /// Uniform when every source is uniform.
    Srcs,
}

/// What an intrinsic index (constant operand) means, for printing and parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdxKind {
    Num,
    Hex,
    Atomic,
    Reduce,
    Interp,
    Mode,
    /// A [`Descriptor`] kind.
    Desc,
    /// An image [`Dim`](super::Dim).
    Dim,
}

/// Side-effect classes. Subgroup operations are removable when unused but never
/// reorderable (their result depends on which invocations are active).
pub mod flags {
    /// No side effects: may be removed when unused.
    pub const ELIM: u8 = 1;
    /// Also independent of memory state: may be CSE'd and moved.
    pub const REORDER: u8 = 2;
    pub const PURE: u8 = ELIM | REORDER;
    pub const NONE: u8 = 0;
}

macro_rules! intrinsics {
    ($($v:ident $name:literal $n:literal $dest:literal $flags:ident $div:ident [$($idx:ident:$ik:ident),*];)*) => {
        /// An intrinsic: an operation with side effects or a special meaning.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Intrinsic { $($v,)* }
        impl Intrinsic {
            pub const ALL: &'static [Intrinsic] = &[$(Intrinsic::$v,)*];
            pub fn name(self) -> &'static str { match self { $(Intrinsic::$v => $name,)* } }
            pub fn num_srcs(self) -> usize { match self { $(Intrinsic::$v => $n,)* } }
            /// Whether the intrinsic produces a value.
            pub fn has_dest(self) -> bool { match self { $(Intrinsic::$v => $dest,)* } }
            pub fn flags(self) -> u8 { match self { $(Intrinsic::$v => flags::$flags,)* } }
            pub fn divergence(self) -> Div { match self { $(Intrinsic::$v => Div::$div,)* } }
            /// Names and kinds of the constant indices, in order.
            pub fn indices(self) -> &'static [(&'static str, IdxKind)] {
                match self { $(Intrinsic::$v => &[$((stringify!($idx), IdxKind::$ik)),*],)* }
            }
        }
    };
}

intrinsics! {
    // deref-based memory access (before lower_explicit_io)
    LoadDeref "load_deref" 1 true ELIM Srcs [access:Hex];
    StoreDeref "store_deref" 2 false NONE Divergent [write_mask:Hex, access:Hex];
    DerefAtomic "deref_atomic" 2 true NONE Divergent [op:Atomic, access:Hex];
    DerefAtomicSwap "deref_atomic_swap" 3 true NONE Divergent [access:Hex];
    ArrayLengthDeref "array_length_deref" 1 true ELIM Srcs [];
    InterpDerefAtCentroid "interp_deref_at_centroid" 1 true ELIM Divergent [];
    InterpDerefAtSample "interp_deref_at_sample" 2 true ELIM Divergent [];
    InterpDerefAtOffset "interp_deref_at_offset" 2 true ELIM Divergent [];
    // images, addressed by a deref of an image variable
    ImageDerefLoad "image_deref_load" 4 true ELIM Srcs [access:Hex];
    ImageDerefStore "image_deref_store" 5 false NONE Divergent [access:Hex];
    ImageDerefAtomic "image_deref_atomic" 4 true NONE Divergent [op:Atomic];
    ImageDerefAtomicSwap "image_deref_atomic_swap" 5 true NONE Divergent [];
    ImageDerefSize "image_deref_size" 2 true PURE Srcs [];
    ImageDerefSamples "image_deref_samples" 1 true PURE Srcs [];
    // images and samplers after lower_image_derefs: source 0 is a descriptor value
    // (`load_descriptor`); `dim`/`arrayed`/`ms` are the image type's
    LoadDescriptor "load_descriptor" 1 true PURE Srcs [set:Num, binding:Num, desc:Desc];
    ImageLoad "image_load" 4 true ELIM Srcs [dim:Dim, arrayed:Num, ms:Num, access:Hex];
    ImageStore "image_store" 5 false NONE Divergent [dim:Dim, arrayed:Num, ms:Num, access:Hex];
    ImageAtomic "image_atomic" 4 true NONE Divergent [dim:Dim, arrayed:Num, ms:Num, op:Atomic];
    ImageAtomicSwap "image_atomic_swap" 5 true NONE Divergent [dim:Dim, arrayed:Num, ms:Num];
    ImageSize "image_size" 2 true PURE Srcs [dim:Dim, arrayed:Num, ms:Num];
    ImageSamples "image_samples" 1 true PURE Srcs [dim:Dim, arrayed:Num, ms:Num];
    // explicit memory access (after lower_explicit_io); offsets in bytes
    VulkanResourceIndex "vulkan_resource_index" 1 true PURE Srcs [set:Num, binding:Num, mode:Mode];
    LoadUbo "load_ubo" 2 true PURE Srcs [align:Num];
    LoadSsbo "load_ssbo" 2 true ELIM Srcs [access:Hex, align:Num];
    StoreSsbo "store_ssbo" 3 false NONE Divergent [write_mask:Hex, access:Hex, align:Num];
    SsboAtomic "ssbo_atomic" 3 true NONE Divergent [op:Atomic];
    SsboAtomicSwap "ssbo_atomic_swap" 4 true NONE Divergent [];
    GetSsboSize "get_ssbo_size" 1 true PURE Srcs [];
    LoadPushConstant "load_push_constant" 1 true PURE Srcs [base:Num, range:Num];
    // a specialization constant known only at link (unlinked compiles): a relocated literal
    LoadSpecConstant "load_spec_constant" 0 true PURE Uniform [spec_id:Num];
    LoadShared "load_shared" 1 true ELIM Srcs [base:Num, align:Num];
    StoreShared "store_shared" 2 false NONE Divergent [base:Num, write_mask:Hex, align:Num];
    SharedAtomic "shared_atomic" 2 true NONE Divergent [op:Atomic, base:Num];
    SharedAtomicSwap "shared_atomic_swap" 3 true NONE Divergent [base:Num];
    LoadGlobal "load_global" 1 true ELIM Srcs [access:Hex, align:Num];
    StoreGlobal "store_global" 2 false NONE Divergent [write_mask:Hex, access:Hex, align:Num];
    GlobalAtomic "global_atomic" 2 true NONE Divergent [op:Atomic];
    GlobalAtomicSwap "global_atomic_swap" 3 true NONE Divergent [];
    LoadScratch "load_scratch" 1 true ELIM Srcs [base:Num, align:Num];
    StoreScratch "store_scratch" 2 false NONE Divergent [base:Num, write_mask:Hex, align:Num];
    // the module's read-only constant data (`Module::constant_data`) at byte `base` + offset
    LoadConstant "load_constant" 1 true PURE Srcs [base:Num, align:Num];
    // stage I/O (after lower_explicit_io); offset source in 16-byte slots
    LoadInput "load_input" 1 true PURE Divergent [base:Num, component:Num];
    LoadInterpolatedInput "load_interpolated_input" 2 true PURE Divergent [base:Num, component:Num];
    // a per-vertex fragment input: srcs (vertex 0..3 of the primitive, slot offset)
    LoadInputVertex "load_input_vertex" 2 true PURE Divergent [base:Num, component:Num];
    LoadBarycentricPixel "load_barycentric_pixel" 0 true PURE Divergent [interp:Interp];
    LoadBarycentricCentroid "load_barycentric_centroid" 0 true PURE Divergent [interp:Interp];
    LoadBarycentricSample "load_barycentric_sample" 0 true PURE Divergent [interp:Interp];
    LoadBarycentricAtOffset "load_barycentric_at_offset" 1 true PURE Divergent [interp:Interp];
    LoadBarycentricAtSample "load_barycentric_at_sample" 1 true PURE Divergent [interp:Interp];
    StoreOutput "store_output" 2 false NONE Divergent [base:Num, component:Num, write_mask:Hex];
    // system values
    LoadLocalInvocationId "load_local_invocation_id" 0 true PURE Divergent [];
    LoadLocalInvocationIndex "load_local_invocation_index" 0 true PURE Divergent [];
    LoadGlobalInvocationId "load_global_invocation_id" 0 true PURE Divergent [];
    LoadWorkgroupId "load_workgroup_id" 0 true PURE Uniform [];
    LoadNumWorkgroups "load_num_workgroups" 0 true PURE Uniform [];
    LoadSubgroupInvocation "load_subgroup_invocation" 0 true PURE Divergent [];
    LoadSubgroupSize "load_subgroup_size" 0 true PURE Uniform [];
    LoadSubgroupId "load_subgroup_id" 0 true PURE Uniform [];
    LoadNumSubgroups "load_num_subgroups" 0 true PURE Uniform [];
    LoadSubgroupEqMask "load_subgroup_eq_mask" 0 true PURE Divergent [];
    LoadSubgroupGeMask "load_subgroup_ge_mask" 0 true PURE Divergent [];
    LoadSubgroupGtMask "load_subgroup_gt_mask" 0 true PURE Divergent [];
    LoadSubgroupLeMask "load_subgroup_le_mask" 0 true PURE Divergent [];
    LoadSubgroupLtMask "load_subgroup_lt_mask" 0 true PURE Divergent [];
    LoadVertexIndex "load_vertex_index" 0 true PURE Divergent [];
    LoadInstanceIndex "load_instance_index" 0 true PURE Divergent [];
    LoadBaseVertex "load_base_vertex" 0 true PURE Uniform [];
    LoadBaseInstance "load_base_instance" 0 true PURE Uniform [];
    LoadDrawId "load_draw_id" 0 true PURE Uniform [];
    LoadViewIndex "load_view_index" 0 true PURE Uniform [];
    LoadFragCoord "load_frag_coord" 0 true PURE Divergent [];
    LoadFrontFace "load_front_face" 0 true PURE Divergent [];
    LoadSampleId "load_sample_id" 0 true PURE Divergent [];
    LoadSamplePos "load_sample_pos" 0 true PURE Divergent [];
    LoadSampleMaskIn "load_sample_mask_in" 0 true PURE Divergent [];
    LoadPointCoord "load_point_coord" 0 true PURE Divergent [];
    LoadBaryCoord "load_bary_coord" 0 true PURE Divergent [];
    LoadBaryCoordNoPersp "load_bary_coord_no_persp" 0 true PURE Divergent [];
    LoadShadingRate "load_shading_rate" 0 true PURE Divergent [];
    LoadLayerId "load_layer_id" 0 true PURE Divergent [];
    LoadViewportIndex "load_viewport_index" 0 true PURE Divergent [];
    LoadPrimitiveId "load_primitive_id" 0 true PURE Divergent [];
    LoadHelperInvocation "load_helper_invocation" 0 true PURE Divergent [];
    IsHelperInvocation "is_helper_invocation" 0 true ELIM Divergent [];
    LoadParam "load_param" 0 true PURE Srcs [index:Num];
    // synchronisation and fragment control
    Barrier "barrier" 0 false NONE Divergent [exec_scope:Num, mem_scope:Num, semantics:Hex, modes:Hex];
    Discard "discard" 0 false NONE Divergent [];
    DiscardIf "discard_if" 1 false NONE Divergent [];
    Demote "demote" 0 false NONE Divergent [];
    DemoteIf "demote_if" 1 false NONE Divergent [];
    Terminate "terminate" 0 false NONE Divergent [];
    ShaderClock "shader_clock" 0 true NONE Uniform [scope:Num];
    // subgroup operations
    Elect "elect" 0 true ELIM Divergent [];
    Ballot "ballot" 1 true ELIM Uniform [];
    InverseBallot "inverse_ballot" 1 true ELIM Divergent [];
    BallotBitExtract "ballot_bit_extract" 2 true PURE Srcs [];
    BallotBitCountReduce "ballot_bit_count_reduce" 1 true PURE Srcs [];
    BallotBitCountInclusive "ballot_bit_count_inclusive" 1 true PURE Divergent [];
    BallotBitCountExclusive "ballot_bit_count_exclusive" 1 true PURE Divergent [];
    BallotFindLsb "ballot_find_lsb" 1 true PURE Srcs [];
    BallotFindMsb "ballot_find_msb" 1 true PURE Srcs [];
    VoteAll "vote_all" 1 true ELIM Uniform [];
    VoteAny "vote_any" 1 true ELIM Uniform [];
    VoteIeq "vote_ieq" 1 true ELIM Uniform [];
    VoteFeq "vote_feq" 1 true ELIM Uniform [];
    ReadInvocation "read_invocation" 2 true ELIM Uniform [];
    ReadFirstInvocation "read_first_invocation" 1 true ELIM Uniform [];
    Shuffle "shuffle" 2 true ELIM Divergent [];
    ShuffleXor "shuffle_xor" 2 true ELIM Divergent [];
    ShuffleUp "shuffle_up" 2 true ELIM Divergent [];
    ShuffleDown "shuffle_down" 2 true ELIM Divergent [];
    Reduce "reduce" 1 true ELIM Uniform [op:Reduce, cluster_size:Num];
    InclusiveScan "inclusive_scan" 1 true ELIM Divergent [op:Reduce];
    ExclusiveScan "exclusive_scan" 1 true ELIM Divergent [op:Reduce];
    QuadBroadcast "quad_broadcast" 2 true ELIM Divergent [];
    QuadSwapHorizontal "quad_swap_horizontal" 1 true ELIM Divergent [];
    QuadSwapVertical "quad_swap_vertical" 1 true ELIM Divergent [];
    QuadSwapDiagonal "quad_swap_diagonal" 1 true ELIM Divergent [];
}

impl Intrinsic {
    pub fn from_name(s: &str) -> Option<Intrinsic> {
        Intrinsic::ALL.iter().copied().find(|o| o.name() == s)
    }
    /// Index of the named constant index, if the intrinsic has it.
    pub fn index_pos(self, name: &str) -> Option<usize> {
        self.indices().iter().position(|(n, _)| *n == name)
    }
}

macro_rules! simple_enum {
    ($(#[$m:meta])* $ty:ident { $($v:ident $name:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $ty { $($v,)* }
        impl $ty {
            pub const ALL: &'static [$ty] = &[$($ty::$v,)*];
            pub fn name(self) -> &'static str { match self { $($ty::$v => $name,)* } }
            pub fn from_name(s: &str) -> Option<$ty> { $ty::ALL.iter().copied().find(|o| o.name() == s) }
        }
    };
}

simple_enum!(
    /// Atomic read-modify-write operations (index `op` of the atomic intrinsics).
    AtomicOp {
        Add "add", Imin "imin", Umin "umin", Imax "imax", Umax "umax", And "and", Or "or",
        Xor "xor", Xchg "xchg", Fadd "fadd", Fmin "fmin", Fmax "fmax", Inc "inc", Dec "dec",
    }
);

simple_enum!(
    /// Subgroup reduction/scan operations (index `op` of reduce / scans).
    ReduceOp {
        Iadd "iadd", Imul "imul", Fadd "fadd", Fmul "fmul", Imin "imin", Umin "umin",
        Fmin "fmin", Imax "imax", Umax "umax", Fmax "fmax", Iand "iand", Ior "ior", Ixor "ixor",
    }
);

simple_enum!(
    /// What a `load_descriptor` loads (index `desc`): the binding's descriptor type and,
    /// for a combined image+sampler, which half. Image halves are T#s (8 dwords), the
    /// others 4-dword descriptors (S#, texel-buffer view).
    Descriptor {
        StorageImage "storage_image", SampledImage "sampled_image", Sampler "sampler",
        CombinedImage "combined_image", CombinedSampler "combined_sampler",
        TexelBuffer "texel_buffer",
    }
);

impl Descriptor {
    /// Dwords of the descriptor value.
    pub fn dwords(self) -> u8 {
        match self {
            Descriptor::StorageImage | Descriptor::SampledImage | Descriptor::CombinedImage => 8,
            Descriptor::Sampler | Descriptor::CombinedSampler | Descriptor::TexelBuffer => 4,
        }
    }
}

simple_enum!(
    /// Interpolation qualifiers.
    Interp { Smooth "smooth", NoPerspective "noperspective", Flat "flat", }
);

simple_enum!(
    /// Texture operations (the `tex` instruction).
    TexOp {
        Sample "sample", SampleBias "sample_bias", SampleLod "sample_lod",
        SampleGrad "sample_grad", Fetch "fetch", FetchMs "fetch_ms", Gather "gather",
        QueryLod "query_lod", Size "size", Levels "levels", Samples "samples",
    }
);

simple_enum!(
    /// Named texture sources.
    TexSrc {
        Texture "texture", Sampler "sampler", Coord "coord", Bias "bias", Lod "lod",
        Ddx "ddx", Ddy "ddy", Offset "offset", Comparator "comparator", MinLod "min_lod",
        MsIndex "ms_index",
    }
);

/// Structured jumps: the only way out of a block other than falling through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JumpKind {
    Break,
    Continue,
    Return,
}

impl JumpKind {
    pub fn name(self) -> &'static str {
        match self {
            JumpKind::Break => "break",
            JumpKind::Continue => "continue",
            JumpKind::Return => "return",
        }
    }
}

use super::ValType;

/// The result type of ALU op `op` applied to sources of types `srcs`, or `None` when the
/// sources are ill-typed for it. Conversions (`Shape::Conv`) take the destination bit size
/// from `conv_bits`.
pub fn alu_result_type(op: AluOp, srcs: &[ValType], conv_bits: u8) -> Option<ValType> {
    use AluOp::*;
    let n = op.num_srcs();
    if n != 0 && srcs.len() != n {
        return None;
    }
    let s0 = *srcs.first()?;
    let all_same = |from: usize| srcs[from..].iter().all(|&t| t == s0);
    let same_comps = srcs.iter().all(|&t| t.comps == s0.comps);
    match op.shape() {
        Shape::Same => all_same(0).then_some(s0),
        Shape::Cmp => all_same(0).then_some(ValType::new(1, s0.comps)),
        Shape::Conv => Some(ValType::new(conv_bits, s0.comps)),
        Shape::FirstSame => same_comps.then_some(s0),
        Shape::Select => {
            let t = srcs[1];
            (s0.bits == 1 && s0.comps == t.comps && srcs[2] == t).then_some(t)
        }
        Shape::Special => {
            let fixed = |from: ValType, to: ValType| (s0 == from).then_some(to);
            match op {
                Vec => {
                    let ok = srcs.iter().all(|&t| t.comps == 1 && t.bits == s0.bits);
                    let t = ValType::new(s0.bits, srcs.len() as u8);
                    (ok && t.is_valid()).then_some(t)
                }
                Fdot => all_same(0).then_some(ValType::new(s0.bits, 1)),
                Bany | Ball => (s0.bits == 1).then_some(ValType::B1),
                BitfieldInsert => {
                    (srcs[1] == s0 && srcs[2].comps == s0.comps && srcs[3].comps == s0.comps)
                        .then_some(s0)
                }
                PackHalf2x16 | PackUnorm2x16 | PackSnorm2x16 => {
                    fixed(ValType::new(32, 2), ValType::U32)
                }
                UnpackHalf2x16 | UnpackUnorm2x16 | UnpackSnorm2x16 => {
                    fixed(ValType::U32, ValType::new(32, 2))
                }
                PackUnorm4x8 | PackSnorm4x8 => fixed(ValType::new(32, 4), ValType::U32),
                UnpackUnorm4x8 | UnpackSnorm4x8 => fixed(ValType::U32, ValType::new(32, 4)),
                Pack64_2x32 => fixed(ValType::new(32, 2), ValType::U64),
                Unpack64_2x32 => fixed(ValType::U64, ValType::new(32, 2)),
                Pack32_2x16 => fixed(ValType::new(16, 2), ValType::U32),
                Unpack32_2x16 => fixed(ValType::U32, ValType::new(16, 2)),
                Pack32_4x8 => fixed(ValType::new(8, 4), ValType::U32),
                Unpack32_4x8 => fixed(ValType::U32, ValType::new(8, 4)),
                _ => None,
            }
        }
    }
}
