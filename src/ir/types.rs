//! Interned types with explicit memory layout.
//!
//! Every type lives once in a [`TypeArena`]: interning deduplicates by the full structural
//! key *including layout*, so two types are equal exactly when their handles are equal.
//! Layout sits where lowering wants it (option 2 of the 2018 mesa-dev "explicit memory
//! layouts in NIR" thread): struct members carry their byte offset, arrays their stride,
//! matrices their majorness and matrix stride, and vectors an optional stride (the column
//! of a row-major matrix is a vector whose components are a matrix stride apart). A layout
//! change therefore can only happen through a type change, never silently mid-chain.
//!
//! Each type records its *bare* twin — the same shape with every layout field cleared,
//! built recursively at interning time — so comparisons that ignore layout are one handle
//! compare: `arena.bare(a) == arena.bare(b)`. A bare type is its own bare type.
//!
//! Layout zero means "no explicit layout" (stride 0, offset `None`); [`TypeArena::size_of`]
//! and friends only make sense for explicitly laid out types and for the scalar/vector
//! leaves, and [`TypeArena::natural_layout`] builds a std430-like explicit layout for memory
//! that has none in SPIR-V (shared, function scratch).

use super::handle::{Arena, Handle};
use std::collections::HashMap;

/// A handle to an interned type.
pub type Type = Handle<TypeData>;

/// The kind of a scalar: how its bits are interpreted in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarKind {
    Bool,
    Sint,
    Uint,
    Float,
}

/// A scalar type: kind and bit size (bool is 1 bit as a value, 32 bits in memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scalar {
    pub kind: ScalarKind,
    pub bits: u8,
}

impl Scalar {
    pub const BOOL: Scalar = Scalar {
        kind: ScalarKind::Bool,
        bits: 1,
    };
    pub const F32: Scalar = Scalar::float(32);
    pub const U32: Scalar = Scalar::uint(32);
    pub const I32: Scalar = Scalar::sint(32);
    pub const fn float(bits: u8) -> Scalar {
        Scalar {
            kind: ScalarKind::Float,
            bits,
        }
    }
    pub const fn uint(bits: u8) -> Scalar {
        Scalar {
            kind: ScalarKind::Uint,
            bits,
        }
    }
    pub const fn sint(bits: u8) -> Scalar {
        Scalar {
            kind: ScalarKind::Sint,
            bits,
        }
    }
    /// Bytes this scalar takes in memory (bools are stored as 32-bit words).
    pub fn mem_bytes(self) -> u32 {
        if self.kind == ScalarKind::Bool {
            4
        } else {
            self.bits as u32 / 8
        }
    }
    pub fn name(self) -> &'static str {
        use ScalarKind::*;
        match (self.kind, self.bits) {
            (Bool, _) => "bool",
            (Sint, 8) => "i8",
            (Sint, 16) => "i16",
            (Sint, 32) => "i32",
            (Sint, 64) => "i64",
            (Uint, 8) => "u8",
            (Uint, 16) => "u16",
            (Uint, 32) => "u32",
            (Uint, 64) => "u64",
            (Float, 16) => "f16",
            (Float, 32) => "f32",
            (Float, 64) => "f64",
            _ => "?",
        }
    }
    pub fn from_name(s: &str) -> Option<Scalar> {
        Some(match s {
            "bool" => Scalar::BOOL,
            "i8" => Scalar::sint(8),
            "i16" => Scalar::sint(16),
            "i32" => Scalar::sint(32),
            "i64" => Scalar::sint(64),
            "u8" => Scalar::uint(8),
            "u16" => Scalar::uint(16),
            "u32" => Scalar::uint(32),
            "u64" => Scalar::uint(64),
            "f16" => Scalar::float(16),
            "f32" => Scalar::float(32),
            "f64" => Scalar::float(64),
            _ => return None,
        })
    }
}

/// Image dimensionality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dim {
    D1,
    D2,
    D3,
    Cube,
    Rect,
    Buffer,
    SubpassData,
}

impl Dim {
    pub const ALL: [Dim; 7] = [
        Dim::D1,
        Dim::D2,
        Dim::D3,
        Dim::Cube,
        Dim::Rect,
        Dim::Buffer,
        Dim::SubpassData,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Dim::D1 => "1d",
            Dim::D2 => "2d",
            Dim::D3 => "3d",
            Dim::Cube => "cube",
            Dim::Rect => "rect",
            Dim::Buffer => "buf",
            Dim::SubpassData => "subpass",
        }
    }
    /// Number of coordinate components (without the array layer).
    pub fn coord_components(self) -> u8 {
        match self {
            Dim::D1 | Dim::Buffer => 1,
            Dim::D2 | Dim::Rect | Dim::SubpassData => 2,
            Dim::D3 | Dim::Cube => 3,
        }
    }
}

/// An image type's shape, as SPIR-V's OpTypeImage gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImageType {
    pub dim: Dim,
    /// Scalar type the image returns (f32, i32, u32, …).
    pub sampled_type: Scalar,
    pub depth: bool,
    pub arrayed: bool,
    pub ms: bool,
    /// true: used with a sampler (texture); false: storage image.
    pub sampled: bool,
    /// SPIR-V ImageFormat enumerant (0 = Unknown).
    pub format: u32,
}

/// Where a variable or a pointer lives: NIR's variable modes / SPIR-V storage classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// Function-local (SPIR-V Function).
    Function,
    /// Per-invocation global (SPIR-V Private).
    Private,
    /// Workgroup-shared memory.
    Shared,
    /// Uniform buffer block (explicit layout).
    Ubo,
    /// Storage buffer block (explicit layout).
    Ssbo,
    /// Push constants (explicit layout).
    PushConst,
    /// Stage input.
    Input,
    /// Stage output.
    Output,
    /// Opaque descriptors: images, samplers, sampled images.
    Uniform,
    /// PhysicalStorageBuffer: 64-bit addresses (explicit layout).
    Global,
}

impl Mode {
    pub const ALL: [Mode; 10] = [
        Mode::Function,
        Mode::Private,
        Mode::Shared,
        Mode::Ubo,
        Mode::Ssbo,
        Mode::PushConst,
        Mode::Input,
        Mode::Output,
        Mode::Uniform,
        Mode::Global,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Mode::Function => "function",
            Mode::Private => "private",
            Mode::Shared => "shared",
            Mode::Ubo => "ubo",
            Mode::Ssbo => "ssbo",
            Mode::PushConst => "push_const",
            Mode::Input => "input",
            Mode::Output => "output",
            Mode::Uniform => "uniform",
            Mode::Global => "global",
        }
    }
    pub fn from_name(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == s)
    }
    /// Whether memory of this mode has an explicit (SPIR-V decorated) layout.
    pub fn has_explicit_layout(self) -> bool {
        matches!(
            self,
            Mode::Ubo | Mode::Ssbo | Mode::PushConst | Mode::Global
        )
    }
    /// Bit size of a deref value in this mode: 64-bit addresses for global memory.
    pub fn deref_bits(self) -> u8 {
        if self == Mode::Global {
            64
        } else {
            32
        }
    }
}

/// A struct member: its type and, for explicitly laid out structs, its byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    pub ty: Type,
    pub offset: Option<u32>,
}

/// The structural content of a type. Layout fields are 0 / `None` when absent.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    Void,
    Scalar(Scalar),
    /// A vector; `stride` is the byte distance between components (0 = packed).
    Vector {
        scalar: Scalar,
        len: u8,
        stride: u32,
    },
    /// `columns` columns, each of `column` (a vector type). `stride` is the matrix stride
    /// (bytes between columns, or between rows when `row_major`); 0 = no layout.
    Matrix {
        column: Type,
        columns: u8,
        row_major: bool,
        stride: u32,
    },
    /// `len == None` is a runtime array. `stride` 0 = no layout.
    Array {
        elem: Type,
        len: Option<u32>,
        stride: u32,
    },
    Struct {
        members: Vec<Member>,
    },
    Image(ImageType),
    Sampler,
    SampledImage(Type),
    /// A pointer value (PhysicalStorageBuffer or function-argument pointers).
    Pointer {
        pointee: Type,
        mode: Mode,
    },
}

/// An interned type: its structure and its cached bare twin.
#[derive(Clone, Debug)]
pub struct TypeData {
    pub kind: TypeKind,
    pub bare: Type,
}

/// The interner. Types are never removed.
#[derive(Clone, Debug, Default)]
pub struct TypeArena {
    types: Arena<TypeData>,
    lookup: HashMap<TypeKind, Type, super::handle::FxBuild>,
}

impl TypeArena {
    pub fn new() -> Self {
        Self::default()
    }

    /// Interns `kind`, returning the unique handle for that structure and layout.
    pub fn intern(&mut self, kind: TypeKind) -> Type {
        if let Some(&t) = self.lookup.get(&kind) {
            return t;
        }
        let bare_kind = self.bare_kind(&kind);
        let bare = if bare_kind == kind {
            None
        } else {
            Some(self.intern(bare_kind))
        };
        let h = self.types.alloc(TypeData {
            kind: kind.clone(),
            bare: Type::new(0),
        });
        self.types[h].bare = bare.unwrap_or(h);
        self.lookup.insert(kind, h);
        h
    }

    fn bare_kind(&self, kind: &TypeKind) -> TypeKind {
        match kind {
            TypeKind::Vector { scalar, len, .. } => TypeKind::Vector {
                scalar: *scalar,
                len: *len,
                stride: 0,
            },
            TypeKind::Matrix {
                column, columns, ..
            } => TypeKind::Matrix {
                column: self.bare(*column),
                columns: *columns,
                row_major: false,
                stride: 0,
            },
            TypeKind::Array { elem, len, .. } => TypeKind::Array {
                elem: self.bare(*elem),
                len: *len,
                stride: 0,
            },
            TypeKind::Struct { members } => TypeKind::Struct {
                members: members
                    .iter()
                    .map(|m| Member {
                        ty: self.bare(m.ty),
                        offset: None,
                    })
                    .collect(),
            },
            TypeKind::SampledImage(t) => TypeKind::SampledImage(self.bare(*t)),
            TypeKind::Pointer { pointee, mode } => TypeKind::Pointer {
                pointee: self.bare(*pointee),
                mode: *mode,
            },
            k => k.clone(),
        }
    }

    /// The handle of an already interned type, without interning.
    pub fn lookup(&self, kind: &TypeKind) -> Option<Type> {
        self.lookup.get(kind).copied()
    }

    /// The layout-free twin of `t`.
    #[inline]
    pub fn bare(&self, t: Type) -> Type {
        self.types[t].bare
    }
    #[inline]
    pub fn kind(&self, t: Type) -> &TypeKind {
        &self.types[t].kind
    }
    pub fn len(&self) -> usize {
        self.types.len()
    }
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
    pub fn contains(&self, t: Type) -> bool {
        self.types.contains(t)
    }

    // Convenience constructors.
    pub fn void(&mut self) -> Type {
        self.intern(TypeKind::Void)
    }
    pub fn scalar(&mut self, s: Scalar) -> Type {
        self.intern(TypeKind::Scalar(s))
    }
    pub fn vector(&mut self, s: Scalar, len: u8) -> Type {
        if len == 1 {
            return self.scalar(s);
        }
        self.intern(TypeKind::Vector {
            scalar: s,
            len,
            stride: 0,
        })
    }
    pub fn matrix(&mut self, column: Type, columns: u8, row_major: bool, stride: u32) -> Type {
        self.intern(TypeKind::Matrix {
            column,
            columns,
            row_major,
            stride,
        })
    }
    pub fn array(&mut self, elem: Type, len: Option<u32>, stride: u32) -> Type {
        self.intern(TypeKind::Array { elem, len, stride })
    }
    pub fn structure(&mut self, members: Vec<Member>) -> Type {
        self.intern(TypeKind::Struct { members })
    }
    pub fn pointer(&mut self, pointee: Type, mode: Mode) -> Type {
        self.intern(TypeKind::Pointer { pointee, mode })
    }

    /// Scalar of a scalar or vector type (with its component count), if it is one.
    pub fn as_vector(&self, t: Type) -> Option<(Scalar, u8)> {
        match *self.kind(t) {
            TypeKind::Scalar(s) => Some((s, 1)),
            TypeKind::Vector { scalar, len, .. } => Some((scalar, len)),
            _ => None,
        }
    }

    /// Whether values of this type can be held in one SSA value (scalar/vector/pointer).
    pub fn is_leaf(&self, t: Type) -> bool {
        matches!(
            self.kind(t),
            TypeKind::Scalar(_) | TypeKind::Vector { .. } | TypeKind::Pointer { .. }
        )
    }

    /// The (bits, components) of an SSA value holding a `t` (scalar, vector or pointer).
    pub fn value_type(&self, t: Type) -> Option<super::ValType> {
        match *self.kind(t) {
            TypeKind::Scalar(s) => Some(super::ValType::new(s.bits, 1)),
            TypeKind::Vector { scalar, len, .. } => Some(super::ValType::new(scalar.bits, len)),
            TypeKind::Pointer { mode, .. } => Some(super::ValType::new(mode.deref_bits(), 1)),
            _ => None,
        }
    }

    /// Type reached by indexing `t` (array element, matrix column, vector component).
    pub fn element(&mut self, t: Type) -> Option<Type> {
        match *self.kind(t) {
            TypeKind::Array { elem, .. } => Some(elem),
            TypeKind::Matrix {
                column,
                row_major,
                stride,
                ..
            } => {
                if row_major {
                    // A column of a row-major matrix: components a matrix stride apart.
                    let (s, n) = self.as_vector(column)?;
                    Some(self.intern(TypeKind::Vector {
                        scalar: s,
                        len: n,
                        stride,
                    }))
                } else {
                    Some(column)
                }
            }
            TypeKind::Vector { scalar, .. } => Some(self.scalar(scalar)),
            _ => None,
        }
    }

    /// Byte stride between consecutive elements of `t` when indexed (explicit layouts).
    pub fn element_stride(&self, t: Type) -> Option<u32> {
        match *self.kind(t) {
            TypeKind::Array { stride, .. } => Some(stride),
            TypeKind::Matrix {
                column,
                row_major,
                stride,
                ..
            } => {
                if row_major {
                    let (s, _) = self.as_vector(column)?;
                    Some(s.mem_bytes())
                } else {
                    Some(stride)
                }
            }
            TypeKind::Vector { scalar, stride, .. } => Some(if stride != 0 {
                stride
            } else {
                scalar.mem_bytes()
            }),
            _ => None,
        }
    }

    /// Number of elements an index can select (None: runtime array / not indexable).
    pub fn length(&self, t: Type) -> Option<u32> {
        match *self.kind(t) {
            TypeKind::Array { len, .. } => len,
            TypeKind::Matrix { columns, .. } => Some(columns as u32),
            TypeKind::Vector { len, .. } => Some(len as u32),
            _ => None,
        }
    }

    /// Size in bytes of an explicitly laid out type (the extent covered by its last
    /// element/member; runtime arrays count as zero elements).
    pub fn size_of(&self, t: Type) -> u32 {
        match *self.kind(t) {
            TypeKind::Void | TypeKind::Sampler | TypeKind::Image(_) | TypeKind::SampledImage(_) => {
                0
            }
            TypeKind::Scalar(s) => s.mem_bytes(),
            TypeKind::Vector {
                scalar,
                len,
                stride,
            } => {
                if stride == 0 {
                    scalar.mem_bytes() * len as u32
                } else {
                    stride * (len as u32 - 1) + scalar.mem_bytes()
                }
            }
            TypeKind::Matrix {
                column,
                columns,
                row_major,
                stride,
            } => {
                let (s, rows) = self.as_vector(column).unwrap_or((Scalar::F32, 1));
                if row_major {
                    stride * (rows as u32 - 1) + s.mem_bytes() * columns as u32
                } else {
                    stride * (columns as u32 - 1) + s.mem_bytes() * rows as u32
                }
            }
            TypeKind::Array { elem, len, stride } => match len {
                Some(0) | None => 0,
                Some(n) => stride * (n - 1) + self.size_of(elem),
            },
            TypeKind::Struct { ref members } => members
                .iter()
                .map(|m| m.offset.unwrap_or(0) + self.size_of(m.ty))
                .max()
                .unwrap_or(0),
            TypeKind::Pointer { .. } => 8,
        }
    }

    /// Alignment in bytes of `t` under the natural (std430-like, scalar-aligned vectors
    /// rounded up to a power of two) layout.
    pub fn natural_align(&self, t: Type) -> u32 {
        match *self.kind(t) {
            TypeKind::Scalar(s) => s.mem_bytes(),
            TypeKind::Vector { scalar, len, .. } => {
                scalar.mem_bytes() * if len == 3 { 4 } else { len as u32 }
            }
            TypeKind::Matrix { column, .. } => self.natural_align(column),
            TypeKind::Array { elem, .. } => self.natural_align(elem),
            TypeKind::Struct { ref members } => members
                .iter()
                .map(|m| self.natural_align(m.ty))
                .max()
                .unwrap_or(1),
            TypeKind::Pointer { .. } => 8,
            _ => 1,
        }
    }

    /// `t` with a natural std430-style explicit layout (for shared and scratch memory,
    /// which SPIR-V leaves undecorated). Already-laid-out parts are kept as they are.
    pub fn natural_layout(&mut self, t: Type) -> Type {
        match self.kind(t).clone() {
            TypeKind::Matrix {
                column,
                columns,
                row_major,
                stride,
            } => {
                if stride != 0 {
                    return t;
                }
                let a = self.natural_align(column);
                self.matrix(column, columns, row_major, a)
            }
            TypeKind::Array { elem, len, stride } => {
                let elem = self.natural_layout(elem);
                let stride = if stride != 0 {
                    stride
                } else {
                    let a = self.natural_align(elem);
                    self.size_of(elem).div_ceil(a) * a
                };
                self.array(elem, len, stride)
            }
            TypeKind::Struct { members } => {
                let mut off = 0u32;
                let mut out = Vec::with_capacity(members.len());
                for m in members {
                    let ty = self.natural_layout(m.ty);
                    let a = self.natural_align(ty);
                    let o = m.offset.unwrap_or(off.div_ceil(a) * a);
                    off = o + self.size_of(ty);
                    out.push(Member {
                        ty,
                        offset: Some(o),
                    });
                }
                self.structure(out)
            }
            _ => t,
        }
    }
}
