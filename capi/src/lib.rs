//! libgcnc: the C API of gcnc, for drivers and engines written in C or C++ (issue 18).
//!
//! Every function here is a thin shell around the library driver: it checks the C
//! arguments, turns them into [`gcnc::Options`] (target, entry point, pipeline layout,
//! specialization constants, unlinked or whole), calls `gcnc::compile_spirv` /
//! `compile_spirv_unlinked`, `compile_graphics::compile_pipeline` or `link::link`, and
//! hands back an owned [`gcnc_binary`]. `include/gcnc.h` is generated from this file by
//! cbindgen (`tests/header.rs` fails when the committed header is stale); `docs/c-api.md`
//! states the ownership of every pointer.
//!
//! Invariants:
//! - No Rust panic crosses the boundary: each entry point runs inside `catch_unwind`, and a
//!   panic becomes `GCNC_ERROR_INTERNAL` with the panic message in `gcnc_last_error`.
//! - Every failure returns a `gcnc_result` code and sets the calling thread's last-error
//!   message (`gcnc_last_error`), which is `gcnc::Error`'s own text: the SPIR-V word and
//!   opcode, the IR instruction, the register file, the link input. Success clears it.
//! - A `gcnc_compiler` is immutable after creation except for its caches, which are
//!   internally synchronised: any number of threads may compile, link and destroy
//!   binaries through one compiler at once (the static assertion below keeps the types
//!   `Send + Sync`). The library keeps no global mutable state but caches of pure
//!   functions (the process-wide part cache, the assembler's mnemonic tables), so the
//!   bytes never depend on the threads.
//! - Enumerations that come *from* C (`gcnc_target`, `gcnc_stage`, `gcnc_descriptor_kind`)
//!   are `uint32_t` typedefs checked here, never Rust enums a bad value could make
//!   undefined.
//!
//! With a cache directory, compiled binaries (ELF, statistics, disassembly) and the link
//! stage's parts are kept in `gcnc::cache::ShaderCache` on disk, keyed by the SPIR-V words
//! and every option that changes the bytes; a hit returns the same bytes a compile would.

#![allow(non_camel_case_types)]

use gcnc::amdgpu::abi::{BindingSlot, PipelineLayout, MAX_SETS, MAX_SET_BYTES};
use gcnc::amdgpu::emit::{self, Stats};
use gcnc::cache::{CacheKey, EntryKind, ShaderCache};
use gcnc::isa::{Gen, Target, Wave};
use gcnc::link::PipelineState;
use gcnc::parts::{PartCache, PartKey};
use gcnc::{Missing, Options};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

/// A GPU generation (`GCNC_GFX900`, `GCNC_GFX1030`, `GCNC_GFX1100`).
pub type gcnc_target = u32;
/// GFX9, gfx900 (Vega): wave64 only.
pub const GCNC_GFX900: gcnc_target = 0;
/// GFX10.3, gfx1030 (RDNA2): wave32 (default) or wave64.
pub const GCNC_GFX1030: gcnc_target = 1;
/// GFX11, gfx1100 (RDNA3): wave32 (default) or wave64.
pub const GCNC_GFX1100: gcnc_target = 2;

/// A shader stage.
pub type gcnc_stage = u32;
pub const GCNC_STAGE_COMPUTE: gcnc_stage = 0;
pub const GCNC_STAGE_VERTEX: gcnc_stage = 1;
pub const GCNC_STAGE_FRAGMENT: gcnc_stage = 2;

/// What a binding holds (docs/abi.md "Descriptor memory"); fixes the default stride.
pub type gcnc_descriptor_kind = u32;
/// Uniform or storage buffer (16-byte V#).
pub const GCNC_DESCRIPTOR_BUFFER: gcnc_descriptor_kind = 0;
/// Uniform or storage texel buffer (16 bytes).
pub const GCNC_DESCRIPTOR_TEXEL_BUFFER: gcnc_descriptor_kind = 1;
/// Storage image (32-byte T#).
pub const GCNC_DESCRIPTOR_STORAGE_IMAGE: gcnc_descriptor_kind = 2;
/// Sampled image without a sampler (32-byte T#).
pub const GCNC_DESCRIPTOR_SAMPLED_IMAGE: gcnc_descriptor_kind = 3;
/// Sampler (16-byte S#).
pub const GCNC_DESCRIPTOR_SAMPLER: gcnc_descriptor_kind = 4;
/// Combined image + sampler (48 bytes: T#, then S#).
pub const GCNC_DESCRIPTOR_COMBINED_IMAGE_SAMPLER: gcnc_descriptor_kind = 5;

/// `gcnc_binding::stride` / `sampler_offset`: the kind's default.
pub const GCNC_DEFAULT: u32 = 0xffff_ffff;

/// `gcnc_compile_info::flags`: compile an unlinked shader for `gcnc_link`
/// (docs/link.md): the descriptor and user-data layouts, and the specialization
/// constants listed in `link_spec_ids`, are left to the link stage.
pub const GCNC_COMPILE_UNLINKED: u32 = 1;

/// What a call returned. Every code but `GCNC_SUCCESS` comes with a message
/// (`gcnc_last_error`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum gcnc_result {
    GCNC_SUCCESS = 0,
    /// A null pointer, an unknown enumeration value or flag, a bad wave size, a bad
    /// pipeline layout or link state, an entry point the module does not have.
    GCNC_ERROR_INVALID_ARGUMENT = 1,
    /// The SPIR-V module is malformed or invalid (the message names the word and opcode).
    GCNC_ERROR_INVALID_SPIRV = 2,
    /// Valid input gcnc does not compile (yet): a capability, an instruction, a stage
    /// on this generation, more registers than the budget.
    GCNC_ERROR_UNSUPPORTED = 3,
    /// An unlinked compile cannot leave this to the link stage: compile the whole
    /// pipeline.
    GCNC_ERROR_NEEDS_WHOLE_PIPELINE = 4,
    /// The link stage refused its inputs or state.
    GCNC_ERROR_LINK = 5,
    /// The cache directory could not be created.
    GCNC_ERROR_IO = 6,
    /// A bug in gcnc (a broken internal invariant or a caught panic).
    GCNC_ERROR_INTERNAL = 7,
}

use gcnc_result::*;

/// How to create a compiler.
#[repr(C)]
pub struct gcnc_options {
    /// `GCNC_GFX900`, `GCNC_GFX1030` or `GCNC_GFX1100`.
    pub target: gcnc_target,
    /// 32 or 64; 0 for the generation's default (wave64 on GFX9, wave32 after).
    pub wave_size: u32,
    /// A directory for the shader cache (created if missing), or NULL for none. Copied.
    pub cache_dir: *const c_char,
}

/// Where one binding's descriptors sit in its set's memory: the content of the JSON
/// pipeline layout (docs/abi.md). A set named by any binding must list every binding the
/// shader uses; sets no binding names are packed from the shader's declarations.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct gcnc_binding {
    pub set: u32,
    pub binding: u32,
    /// A `GCNC_DESCRIPTOR_*` value.
    pub kind: gcnc_descriptor_kind,
    /// Byte offset of element 0 in the set (a multiple of 4 below 1 MiB).
    pub offset: u32,
    /// Bytes between array elements, or `GCNC_DEFAULT` (the kind's size).
    pub stride: u32,
    /// Combined image+sampler only: where the S# sits in an element, or `GCNC_DEFAULT`
    /// (32).
    pub sampler_offset: u32,
}

/// One specialization constant value.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct gcnc_spec_constant {
    /// The SpecId.
    pub id: u32,
    /// 4 or 8: the bytes of the constant (a bool or 32-bit value is 4).
    pub size: u32,
    /// The bit pattern, in the low `size` bytes.
    pub value: u64,
}

/// What to compile. Zero-initialised, it asks for the module's first compute entry
/// point with the default layout.
#[repr(C)]
pub struct gcnc_compile_info {
    /// The entry point name, or NULL for the stage's only/first one.
    pub entry_point: *const c_char,
    /// `GCNC_STAGE_COMPUTE` for `gcnc_compile_spirv` (graphics stages compile as a
    /// pipeline with `gcnc_compile_graphics`, which ignores this field).
    pub stage: gcnc_stage,
    /// The pipeline layout (`binding_count` entries; NULL when 0).
    pub bindings: *const gcnc_binding,
    pub binding_count: usize,
    /// Specialization constants (`spec_constant_count` entries; NULL when 0).
    pub spec_constants: *const gcnc_spec_constant,
    pub spec_constant_count: usize,
    /// `GCNC_COMPILE_*` bits.
    pub flags: u32,
    /// With `GCNC_COMPILE_UNLINKED`: SpecIds whose values come at link time.
    pub link_spec_ids: *const u32,
    pub link_spec_id_count: usize,
}

/// Bytes in memory (an input of `gcnc_link`).
#[repr(C)]
pub struct gcnc_blob {
    pub data: *const u8,
    pub size: usize,
}

/// RADV-named statistics of one stage's main code (the names RADV's
/// `VK_KHR_pipeline_executable_properties` reports).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct gcnc_stats {
    /// "Instructions"
    pub instructions: u32,
    /// "Code size": bytes up to and including `s_endpgm`
    pub code_size: u32,
    /// "SGPRs"
    pub sgprs: u32,
    /// "VGPRs"
    pub vgprs: u32,
    /// "Spilled SGPRs"
    pub spilled_sgprs: u32,
    /// "Spilled VGPRs"
    pub spilled_vgprs: u32,
    /// "Scratch size": bytes per lane
    pub scratch_size: u32,
    /// "LDS size"
    pub lds_size: u32,
    /// "Subgroups per SIMD"
    pub subgroups_per_simd: u32,
    /// "Copies"
    pub copies: u32,
    /// "Branches"
    pub branches: u32,
}

impl From<&Stats> for gcnc_stats {
    fn from(s: &Stats) -> gcnc_stats {
        gcnc_stats {
            instructions: s.instructions,
            code_size: s.code_size,
            sgprs: s.sgprs,
            vgprs: s.vgprs,
            spilled_sgprs: s.spilled_sgprs,
            spilled_vgprs: s.spilled_vgprs,
            scratch_size: s.scratch_size,
            lds_size: s.lds_size,
            subgroups_per_simd: s.subgroups_per_simd,
            copies: s.copies,
            branches: s.branches,
        }
    }
}

impl gcnc_stats {
    const FIELDS: usize = 11;

    fn to_words(self) -> [u32; Self::FIELDS] {
        [
            self.instructions,
            self.code_size,
            self.sgprs,
            self.vgprs,
            self.spilled_sgprs,
            self.spilled_vgprs,
            self.scratch_size,
            self.lds_size,
            self.subgroups_per_simd,
            self.copies,
            self.branches,
        ]
    }

    fn from_words(w: [u32; Self::FIELDS]) -> gcnc_stats {
        gcnc_stats {
            instructions: w[0],
            code_size: w[1],
            sgprs: w[2],
            vgprs: w[3],
            spilled_sgprs: w[4],
            spilled_vgprs: w[5],
            scratch_size: w[6],
            lds_size: w[7],
            subgroups_per_simd: w[8],
            copies: w[9],
            branches: w[10],
        }
    }
}

/// A compiler: a target and wave size, and the caches. Opaque.
pub struct gcnc_compiler {
    target: Target,
    /// The on-disk shader cache, when `gcnc_options::cache_dir` was given.
    cache: Option<ShaderCache>,
    /// The parts `gcnc_link` built or read from the cache.
    parts: PartCache,
}

/// A compiled or linked binary: the PAL ELF, the statistics of each compiled stage and
/// (made on first request) the disassembly. Opaque.
pub struct gcnc_binary {
    elf: Vec<u8>,
    /// (stage, statistics) of each compiled stage; empty for a linked pipeline.
    stats: Vec<(gcnc_stage, gcnc_stats)>,
    /// How to disassemble the code, until `gcnc_binary_disassembly` asks.
    code: Code,
    asm: OnceLock<Result<CString, String>>,
}

/// The code to disassemble: (label, start, end) ranges of a `.text` for a target.
struct Code {
    target: Target,
    text: Vec<u8>,
    ranges: Vec<(String, usize, usize)>,
    /// The disassembly itself, when it came from the cache.
    cached: Option<String>,
}

impl Code {
    fn disassemble(&self) -> Result<String, String> {
        if let Some(t) = &self.cached {
            return Ok(t.clone());
        }
        let mut out = String::new();
        for (label, start, end) in &self.ranges {
            if self.ranges.len() > 1 {
                out.push_str(&format!("; {label}\n"));
            }
            let asm = emit::disassemble_range(self.target, &self.text, *start, *end)
                .map_err(|e| e.to_string())?;
            out.push_str(&asm);
        }
        Ok(out)
    }
}

/// The types C shares between threads: a compile on one thread and a destroy on
/// another, or many compiles through one compiler, need nothing more.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<gcnc_compiler>();
    send_sync::<gcnc_binary>();
};

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(msg: &str) {
    // an interior NUL cannot be in a C string: show it as U+FFFD
    let c = CString::new(msg.replace('\0', "\u{fffd}")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// A failed call: the code and the message for `gcnc_last_error`.
struct Failure(gcnc_result, String);

fn invalid(msg: impl Into<String>) -> Failure {
    Failure(GCNC_ERROR_INVALID_ARGUMENT, msg.into())
}

impl From<gcnc::Error> for Failure {
    fn from(e: gcnc::Error) -> Failure {
        Failure(result_of(&e), e.to_string())
    }
}

/// The code of a library error: who is at fault (input, gcnc's coverage, gcnc's bugs).
fn result_of(e: &gcnc::Error) -> gcnc_result {
    use gcnc::amdgpu::Error as B;
    use gcnc::front::ErrorKind as F;
    match e {
        gcnc::Error::Target(_) => GCNC_ERROR_INVALID_ARGUMENT,
        gcnc::Error::Front(f) => match f.kind {
            F::Unsupported => GCNC_ERROR_UNSUPPORTED,
            F::NeedsWholePipeline => GCNC_ERROR_NEEDS_WHOLE_PIPELINE,
            F::NoEntryPoint => GCNC_ERROR_INVALID_ARGUMENT,
            F::Internal => GCNC_ERROR_INTERNAL,
            F::Malformed | F::BadId | F::BadOperands | F::BadType | F::BadControlFlow => {
                GCNC_ERROR_INVALID_SPIRV
            }
        },
        gcnc::Error::Backend(b) => match b {
            B::Unsupported { .. } | B::NotOnTarget { .. } | B::RegisterPressure { .. } => {
                GCNC_ERROR_UNSUPPORTED
            }
            B::Layout(_) => GCNC_ERROR_INVALID_ARGUMENT,
            B::NeedsWholePipeline(_) => GCNC_ERROR_NEEDS_WHOLE_PIPELINE,
            B::NoEntryPoint => GCNC_ERROR_INVALID_SPIRV,
            // the driver retries with an SGPR pair kept for the long branch form, so a range
            // error that escapes it is gcnc's
            B::Encode(_) | B::BranchRange { .. } | B::Isa { .. } | B::Binary(_) | B::Verify(_) => {
                GCNC_ERROR_INTERNAL
            }
        },
        gcnc::Error::Link(_) => GCNC_ERROR_LINK,
        // the front end hands on only verified IR, and the passes keep it so: a failure
        // after it is gcnc's
        gcnc::Error::Verify(_) | gcnc::Error::Pass(_) | gcnc::Error::Binary(_) => {
            GCNC_ERROR_INTERNAL
        }
    }
}

/// Runs an entry point's body: its failure or panic becomes a code and the thread's
/// last error; success clears the last error.
fn guard(body: impl FnOnce() -> Result<(), Failure>) -> gcnc_result {
    let r = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        Err(Failure(
            GCNC_ERROR_INTERNAL,
            format!("internal error (caught panic): {what}"),
        ))
    });
    match r {
        Ok(()) => {
            set_last_error("");
            GCNC_SUCCESS
        }
        Err(Failure(code, msg)) => {
            set_last_error(&msg);
            code
        }
    }
}

/// `&*p`, or an invalid-argument failure naming `what` when `p` is null.
///
/// # Safety
/// `p` is null or points to a live `T`.
unsafe fn non_null<'a, T>(p: *const T, what: &str) -> Result<&'a T, Failure> {
    p.as_ref().ok_or_else(|| invalid(format!("{what} is NULL")))
}

/// The `count` elements at `p` (NULL allowed when `count` is 0).
///
/// # Safety
/// `p` is null or points to `count` live elements.
unsafe fn slice<'a, T>(p: *const T, count: usize, what: &str) -> Result<&'a [T], Failure> {
    if count == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(invalid(format!("{what} is NULL but its count is {count}")));
    }
    Ok(std::slice::from_raw_parts(p, count))
}

/// A C string argument (NULL → `None`).
///
/// # Safety
/// `p` is null or a NUL-terminated string.
unsafe fn opt_str(p: *const c_char, what: &str) -> Result<Option<String>, Failure> {
    if p.is_null() {
        return Ok(None);
    }
    CStr::from_ptr(p)
        .to_str()
        .map(|s| Some(s.to_string()))
        .map_err(|_| invalid(format!("{what} is not UTF-8")))
}

fn target_of(o: &gcnc_options) -> Result<Target, Failure> {
    let gen = match o.target {
        GCNC_GFX900 => Gen::Gfx9,
        GCNC_GFX1030 => Gen::Gfx10,
        GCNC_GFX1100 => Gen::Gfx11,
        t => {
            return Err(invalid(format!(
                "unknown target {t} (GCNC_GFX900, GCNC_GFX1030, GCNC_GFX1100)"
            )))
        }
    };
    match o.wave_size {
        0 => Ok(Target::new(gen)),
        32 => Target::with_wave(gen, Wave::W32).map_err(|e| invalid(e.to_string())),
        64 => Target::with_wave(gen, Wave::W64).map_err(|e| invalid(e.to_string())),
        w => Err(invalid(format!(
            "wave size {w}: 32, 64 or 0 (the generation's default)"
        ))),
    }
}

/// Creates a compiler, or returns NULL (with `gcnc_last_error` set) when the options are
/// bad or the cache directory cannot be created. Destroy it with `gcnc_compiler_destroy`.
///
/// # Safety
/// `opts` is null or points to a valid `gcnc_options` whose `cache_dir` is null or a
/// NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn gcnc_compiler_create(opts: *const gcnc_options) -> *mut gcnc_compiler {
    let mut out = std::ptr::null_mut();
    guard(|| {
        let o = non_null(opts, "opts")?;
        let target = target_of(o)?;
        let cache = match opt_str(o.cache_dir, "opts->cache_dir")? {
            None => None,
            Some(dir) => Some(
                ShaderCache::with_dir(&dir)
                    .map_err(|e| Failure(GCNC_ERROR_IO, format!("cache directory {dir}: {e}")))?,
            ),
        };
        out = Box::into_raw(Box::new(gcnc_compiler {
            target,
            cache,
            parts: PartCache::new(),
        }));
        Ok(())
    });
    out
}

/// Destroys a compiler (NULL is ignored). No call may be using it; binaries it made stay
/// valid.
///
/// # Safety
/// `c` is null or a compiler from `gcnc_compiler_create` not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn gcnc_compiler_destroy(c: *mut gcnc_compiler) {
    destroy(c)
}

/// Frees what `Box::into_raw` gave C (NULL ignored; a panic in a destructor stays here).
///
/// # Safety
/// `p` is null or from `Box::into_raw` and not yet freed.
unsafe fn destroy<T>(p: *mut T) {
    if !p.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(p))));
    }
}

/// The layout the bindings give, checked as the JSON layout is.
fn layout_of(bindings: &[gcnc_binding]) -> Result<PipelineLayout, Failure> {
    let mut layout = PipelineLayout::default();
    for (i, b) in bindings.iter().enumerate() {
        let at = format!("bindings[{i}] (set {} binding {})", b.set, b.binding);
        if b.kind > GCNC_DESCRIPTOR_COMBINED_IMAGE_SAMPLER {
            return Err(invalid(format!("{at}: unknown descriptor kind {}", b.kind)));
        }
        if b.set >= MAX_SETS {
            return Err(invalid(format!(
                "{at}: descriptor set {} is beyond the ABI's {MAX_SETS} sets",
                b.set
            )));
        }
        let value = |what: &str, v: u32| -> Result<u32, Failure> {
            if v < MAX_SET_BYTES && v % 4 == 0 {
                Ok(v)
            } else {
                Err(invalid(format!(
                    "{at}: {what} {v} must be a multiple of 4 below 1 MiB"
                )))
            }
        };
        let optional = |what: &str, v: u32| -> Result<Option<u32>, Failure> {
            (v != GCNC_DEFAULT).then(|| value(what, v)).transpose()
        };
        let slot = BindingSlot {
            offset: value("offset", b.offset)?,
            stride: optional("stride", b.stride)?,
            sampler_offset: optional("sampler_offset", b.sampler_offset)?,
        };
        if slot.sampler_offset.is_some() && b.kind != GCNC_DESCRIPTOR_COMBINED_IMAGE_SAMPLER {
            return Err(invalid(format!(
                "{at}: a sampler_offset belongs to a combined image+sampler only"
            )));
        }
        if layout
            .bindings
            .entry(b.set)
            .or_default()
            .insert(b.binding, slot)
            .is_some()
        {
            return Err(invalid(format!("{at}: given twice")));
        }
    }
    Ok(layout)
}

fn spec_of(spec: &[gcnc_spec_constant]) -> Result<BTreeMap<u32, u64>, Failure> {
    let mut out = BTreeMap::new();
    for (i, s) in spec.iter().enumerate() {
        let at = format!("spec_constants[{i}] (SpecId {})", s.id);
        match s.size {
            4 if s.value > u32::MAX as u64 => {
                return Err(invalid(format!(
                    "{at}: a 4-byte value {:#x} has high bits set",
                    s.value
                )))
            }
            4 | 8 => {}
            n => return Err(invalid(format!("{at}: size {n}: 4 or 8 bytes"))),
        }
        if out.insert(s.id, s.value).is_some() {
            return Err(invalid(format!("{at}: given twice")));
        }
    }
    Ok(out)
}

/// The library options `info` asks for, with the cache-key fields of everything that
/// changes the bytes.
struct Request {
    opts: Options,
    unlinked: bool,
    key_fields: Vec<(&'static str, Vec<u8>)>,
}

/// # Safety
/// `info`'s pointers are valid for their counts.
unsafe fn request(c: &gcnc_compiler, info: &gcnc_compile_info) -> Result<Request, Failure> {
    if info.flags & !GCNC_COMPILE_UNLINKED != 0 {
        return Err(invalid(format!(
            "info->flags {:#x}: unknown bits",
            info.flags
        )));
    }
    let unlinked = info.flags & GCNC_COMPILE_UNLINKED != 0;
    let bindings = slice(info.bindings, info.binding_count, "info->bindings")?;
    let spec = slice(
        info.spec_constants,
        info.spec_constant_count,
        "info->spec_constants",
    )?;
    let late = slice(
        info.link_spec_ids,
        info.link_spec_id_count,
        "info->link_spec_ids",
    )?;
    if !late.is_empty() && !unlinked {
        return Err(invalid("info->link_spec_ids needs GCNC_COMPILE_UNLINKED"));
    }
    let mut opts = Options::new(c.target);
    opts.entry = opt_str(info.entry_point, "info->entry_point")?;
    opts.layout = layout_of(bindings)?;
    opts.spec = spec_of(spec)?;
    if unlinked {
        opts.missing = Missing::all();
        opts.missing.spec_constants = late.iter().copied().collect();
    }
    let mut key_fields: Vec<(&'static str, Vec<u8>)> = vec![
        ("target", format!("{:?}", c.target).into_bytes()),
        ("unlinked", vec![unlinked as u8]),
    ];
    let words = |it: &mut dyn Iterator<Item = u32>| -> Vec<u8> {
        it.flat_map(|w| w.to_le_bytes()).collect()
    };
    key_fields.push((
        "layout",
        words(&mut bindings.iter().flat_map(|b| {
            [
                b.set,
                b.binding,
                b.kind,
                b.offset,
                b.stride,
                b.sampler_offset,
            ]
        })),
    ));
    key_fields.push((
        "spec",
        words(
            &mut opts
                .spec
                .iter()
                .flat_map(|(&id, &v)| [id, v as u32, (v >> 32) as u32]),
        ),
    ));
    key_fields.push((
        "link_spec",
        words(&mut opts.missing.spec_constants.iter().copied()),
    ));
    Ok(Request {
        opts,
        unlinked,
        key_fields,
    })
}

impl gcnc_compiler {
    /// A binary from the cache or from `make`, stored in the cache when there is one.
    fn cached(
        &self,
        words: &[u32],
        entry: &str,
        key_fields: &[(&'static str, Vec<u8>)],
        make: impl FnOnce() -> Result<gcnc_binary, Failure>,
    ) -> Result<gcnc_binary, Failure> {
        let Some(cache) = &self.cache else {
            return make();
        };
        let deps: Vec<(&str, &[u8])> = key_fields.iter().map(|(n, b)| (*n, b.as_slice())).collect();
        let key = CacheKey::shader(words, entry, &deps);
        if let Some(b) = cache
            .get(EntryKind::Pipeline, key)
            .and_then(|bytes| gcnc_binary::from_cache_entry(self.target, &bytes))
        {
            return Ok(b);
        }
        let b = make()?;
        let asm = b.asm_text().map_err(|m| Failure(GCNC_ERROR_INTERNAL, m))?;
        // a failed disk write leaves the entry in memory only: the cache is an optimisation
        let _ = cache.put(EntryKind::Pipeline, key, b.cache_entry(asm));
        Ok(b)
    }
}

const ENTRY_MAGIC: &[u8; 8] = b"GCNCAPI1";

impl gcnc_binary {
    fn asm_text(&self) -> Result<&str, String> {
        self.asm
            .get_or_init(|| {
                self.code
                    .disassemble()
                    .map(|t| CString::new(t).unwrap_or_default())
            })
            .as_ref()
            .map(|c| c.to_str().unwrap_or(""))
            .map_err(|e| e.clone())
    }

    /// The cache payload: magic, stage count, (stage, 11 statistics) per stage,
    /// disassembly length and text, then the ELF (all little-endian).
    fn cache_entry(&self, asm: &str) -> Vec<u8> {
        let mut v = ENTRY_MAGIC.to_vec();
        v.extend((self.stats.len() as u32).to_le_bytes());
        for (stage, s) in &self.stats {
            v.extend(stage.to_le_bytes());
            for w in s.to_words() {
                v.extend(w.to_le_bytes());
            }
        }
        v.extend((asm.len() as u64).to_le_bytes());
        v.extend(asm.as_bytes());
        v.extend(&self.elf);
        v
    }

    /// Reads [`gcnc_binary::cache_entry`]; `None` for anything else.
    fn from_cache_entry(target: Target, bytes: &[u8]) -> Option<gcnc_binary> {
        let mut rest = bytes.strip_prefix(ENTRY_MAGIC.as_slice())?;
        let mut take = |n: usize| -> Option<&[u8]> {
            let (a, b) = (rest.get(..n)?, rest.get(n..)?);
            rest = b;
            Some(a)
        };
        let u32_at = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
        let stages = u32_at(take(4)?);
        let mut stats = Vec::new();
        for _ in 0..stages.min(2) {
            let stage = u32_at(take(4)?);
            let mut w = [0u32; gcnc_stats::FIELDS];
            for x in &mut w {
                *x = u32_at(take(4)?);
            }
            stats.push((stage, gcnc_stats::from_words(w)));
        }
        if stages > 2 {
            return None;
        }
        let len = u64::from_le_bytes(take(8)?.try_into().ok()?) as usize;
        let asm = std::str::from_utf8(take(len)?).ok()?.to_string();
        let elf = rest.to_vec();
        Some(gcnc_binary {
            elf,
            stats,
            code: Code {
                target,
                text: Vec::new(),
                ranges: Vec::new(),
                cached: Some(asm),
            },
            asm: OnceLock::new(),
        })
    }
}

/// Compiles one compute shader: SPIR-V words → a PAL ELF, the whole pipeline (a CS
/// pipeline ELF ready for PAL) or, with `GCNC_COMPILE_UNLINKED`, an unlinked shader for
/// `gcnc_link`. On success `*out` is a new binary the caller destroys with
/// `gcnc_binary_destroy`; on failure `*out` is NULL.
///
/// # Safety
/// `c` is a live compiler, `words` points to `count` words, `info` to a valid
/// `gcnc_compile_info`, `out` to writable storage for a pointer.
#[no_mangle]
pub unsafe extern "C" fn gcnc_compile_spirv(
    c: *const gcnc_compiler,
    words: *const u32,
    count: usize,
    info: *const gcnc_compile_info,
    out: *mut *mut gcnc_binary,
) -> gcnc_result {
    compile_into(out, || {
        let c = non_null(c, "compiler")?;
        let words = slice(words, count, "words")?;
        let info = non_null(info, "info")?;
        if info.stage != GCNC_STAGE_COMPUTE {
            return Err(match info.stage {
                GCNC_STAGE_VERTEX | GCNC_STAGE_FRAGMENT => Failure(
                    GCNC_ERROR_UNSUPPORTED,
                    "a vertex or fragment shader compiles only as part of a VS+FS pipeline: gcnc_compile_graphics".into(),
                ),
                s => invalid(format!("unknown stage {s}")),
            });
        }
        let r = request(c, info)?;
        let entry = r.opts.entry.clone().unwrap_or_default();
        c.cached(words, &entry, &r.key_fields, || {
            let compiled = if r.unlinked {
                gcnc::compile_spirv_unlinked(words, &r.opts)
            } else {
                gcnc::compile_spirv(words, &r.opts)
            }?;
            Ok(gcnc_binary {
                stats: vec![(GCNC_STAGE_COMPUTE, (&compiled.stats).into())],
                code: Code {
                    target: c.target,
                    ranges: vec![("cs".into(), compiled.entry.0, compiled.entry.1)],
                    text: compiled.text,
                    cached: None,
                },
                elf: compiled.elf,
                asm: OnceLock::new(),
            })
        })
    })
}

/// Compiles a vertex and a fragment shader into one VS+PS pipeline ELF with the default
/// graphics state (docs/abi.md "Graphics"). `info` gives the entry point name (NULL:
/// each module's first of its stage), the layout and the specialization constants of
/// both stages; its `stage` is ignored, and `GCNC_COMPILE_UNLINKED` is refused (graphics
/// has no link stage yet). Ownership as `gcnc_compile_spirv`.
///
/// # Safety
/// As `gcnc_compile_spirv`, for both word arrays.
#[no_mangle]
pub unsafe extern "C" fn gcnc_compile_graphics(
    c: *const gcnc_compiler,
    vs_words: *const u32,
    vs_count: usize,
    fs_words: *const u32,
    fs_count: usize,
    info: *const gcnc_compile_info,
    out: *mut *mut gcnc_binary,
) -> gcnc_result {
    compile_into(out, || {
        let c = non_null(c, "compiler")?;
        let vs = slice(vs_words, vs_count, "vs_words")?;
        let fs = slice(fs_words, fs_count, "fs_words")?;
        let info = non_null(info, "info")?;
        let mut r = request(c, info)?;
        if r.unlinked {
            return Err(invalid(
                "GCNC_COMPILE_UNLINKED: graphics pipelines compile whole (no graphics link stage yet)",
            ));
        }
        let fs_bytes: Vec<u8> = fs.iter().flat_map(|w| w.to_le_bytes()).collect();
        r.key_fields.push(("graphics_fragment", fs_bytes));
        let entry = r.opts.entry.clone().unwrap_or_default();
        c.cached(vs, &entry, &r.key_fields, || {
            let state = gcnc::amdgpu::abi_graphics::GraphicsState::default();
            let p = gcnc::compile_graphics::compile_pipeline(vs, fs, &r.opts, &state)?;
            // the stages' code as the ELF lays it out: VS at 0, PS at the next 256 bytes
            let ps_at = p.vs.text.len().next_multiple_of(256);
            let mut text = p.vs.text.clone();
            text.resize(ps_at, 0);
            text.extend_from_slice(&p.ps.text);
            Ok(gcnc_binary {
                stats: vec![
                    (GCNC_STAGE_VERTEX, (&p.vs.stats).into()),
                    (GCNC_STAGE_FRAGMENT, (&p.ps.stats).into()),
                ],
                code: Code {
                    target: c.target,
                    ranges: vec![
                        ("vs stage".into(), 0, p.vs.code_bytes as usize),
                        ("ps stage".into(), ps_at, ps_at + p.ps.code_bytes as usize),
                    ],
                    text,
                    cached: None,
                },
                elf: p.elf,
                asm: OnceLock::new(),
            })
        })
    })
}

/// Stores the binary `body` makes in `*out` (NULL on failure).
///
/// # Safety
/// `out` is null (an invalid-argument failure) or writable.
unsafe fn compile_into(
    out: *mut *mut gcnc_binary,
    body: impl FnOnce() -> Result<gcnc_binary, Failure>,
) -> gcnc_result {
    if out.is_null() {
        return guard(|| Err(invalid("out is NULL")));
    }
    *out = std::ptr::null_mut();
    guard(|| {
        *out = Box::into_raw(Box::new(body()?));
        Ok(())
    })
}

/// Links unlinked shaders (ELF bytes from `gcnc_compile_spirv` with
/// `GCNC_COMPILE_UNLINKED`, or read back from anywhere) with the pipeline state into one
/// pipeline ELF. `state_json` is the link state in the JSON form of docs/link.md
/// (`descriptor_layout`, `user_data`, `spec_constants`, `relocatable`, `choices`); NULL
/// means `{}`. The inputs must be for the compiler's generation. With a cache directory
/// the parts come from and go to the cache. Ownership as `gcnc_compile_spirv`; the
/// linked binary has no statistics of its own (ask the unlinked binaries).
///
/// # Safety
/// `c` is a live compiler, `inputs` points to `count` blobs each valid for its size,
/// `state_json` is null or NUL-terminated, `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn gcnc_link(
    c: *const gcnc_compiler,
    inputs: *const gcnc_blob,
    count: usize,
    state_json: *const c_char,
    out: *mut *mut gcnc_binary,
) -> gcnc_result {
    compile_into(out, || {
        let c = non_null(c, "compiler")?;
        let blobs = slice(inputs, count, "inputs")?;
        let mut elfs = Vec::new();
        for (i, b) in blobs.iter().enumerate() {
            elfs.push(slice(b.data, b.size, &format!("inputs[{i}].data"))?);
        }
        let state = match opt_str(state_json, "state_json")? {
            None => PipelineState::default(),
            Some(t) => {
                PipelineState::from_json(&t).map_err(|e| invalid(format!("state_json: {e}")))?
            }
        };
        if let Some(cache) = &c.cache {
            for key in gcnc::link::needed_parts(&elfs, &state).map_err(link_failure)? {
                if !c.parts.contains(&key) {
                    let part = cache
                        .part(&key)
                        .map_err(|e| Failure(GCNC_ERROR_LINK, e.to_string()))?;
                    c.parts.insert(&PartKey::clone(&key), part);
                }
            }
        }
        let linked = gcnc::link::link(&elfs, &state, &c.parts).map_err(link_failure)?;
        if linked.object.gen != c.target.gen {
            return Err(invalid(format!(
                "the inputs are for {}, the compiler for {}",
                linked.object.gen, c.target.gen
            )));
        }
        let ranges = linked
            .object
            .functions
            .iter()
            .map(|f| {
                (
                    f.name.clone(),
                    f.offset as usize,
                    (f.offset + f.size) as usize,
                )
            })
            .collect();
        Ok(gcnc_binary {
            elf: linked.elf,
            stats: Vec::new(),
            code: Code {
                target: c.target,
                text: linked.object.text,
                ranges,
                cached: None,
            },
            asm: OnceLock::new(),
        })
    })
}

fn link_failure(e: gcnc::link::Error) -> Failure {
    Failure(GCNC_ERROR_LINK, e.to_string())
}

/// The ELF bytes (`gcnc_binary_size` of them), owned by the binary: valid until
/// `gcnc_binary_destroy`. NULL for a NULL binary.
///
/// # Safety
/// `b` is null or a live binary.
#[no_mangle]
pub unsafe extern "C" fn gcnc_binary_data(b: *const gcnc_binary) -> *const u8 {
    b.as_ref().map_or(std::ptr::null(), |b| b.elf.as_ptr())
}

/// The ELF's size in bytes (0 for a NULL binary).
///
/// # Safety
/// `b` is null or a live binary.
#[no_mangle]
pub unsafe extern "C" fn gcnc_binary_size(b: *const gcnc_binary) -> usize {
    b.as_ref().map_or(0, |b| b.elf.len())
}

/// The RADV-named statistics of `stage` in the binary into `*out`:
/// `GCNC_STAGE_COMPUTE` for a compute shader, `GCNC_STAGE_VERTEX` /
/// `GCNC_STAGE_FRAGMENT` for a graphics pipeline. A linked pipeline has none
/// (`GCNC_ERROR_INVALID_ARGUMENT`).
///
/// # Safety
/// `b` is null or a live binary; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn gcnc_binary_stats(
    b: *const gcnc_binary,
    stage: gcnc_stage,
    out: *mut gcnc_stats,
) -> gcnc_result {
    guard(|| {
        let b = non_null(b, "binary")?;
        if out.is_null() {
            return Err(invalid("out is NULL"));
        }
        let s = b.stats.iter().find(|(s, _)| *s == stage).ok_or_else(|| {
            invalid(if b.stats.is_empty() {
                "a linked binary has no statistics of its own (the unlinked binaries have them)"
                    .to_string()
            } else {
                format!("the binary has no stage {stage}")
            })
        })?;
        *out = s.1;
        Ok(())
    })
}

/// The disassembly of the binary's code (LLVM syntax, one instruction per line; a
/// graphics or linked binary labels each stage or part with a `; name` line), made on
/// the first call. Owned by the binary: valid until `gcnc_binary_destroy`. NULL on
/// failure, with `gcnc_last_error` set.
///
/// # Safety
/// `b` is null or a live binary.
#[no_mangle]
pub unsafe extern "C" fn gcnc_binary_disassembly(b: *const gcnc_binary) -> *const c_char {
    let mut out = std::ptr::null();
    guard(|| {
        let b = non_null(b, "binary")?;
        b.asm_text().map_err(|m| Failure(GCNC_ERROR_INTERNAL, m))?;
        if let Some(Ok(c)) = b.asm.get() {
            out = c.as_ptr();
        }
        Ok(())
    });
    out
}

/// Destroys a binary (NULL is ignored).
///
/// # Safety
/// `b` is null or a binary from this API not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn gcnc_binary_destroy(b: *mut gcnc_binary) {
    destroy(b)
}

/// The message of the calling thread's last failed call ("" after a success), with the
/// location gcnc knows (SPIR-V word and opcode, IR instruction, link input). Owned by
/// the library: valid until the thread's next gcnc call.
#[no_mangle]
pub extern "C" fn gcnc_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// The name of a `gcnc_result` code (`"GCNC_ERROR_INVALID_SPIRV"`), a static string.
#[no_mangle]
pub extern "C" fn gcnc_result_name(code: u32) -> *const c_char {
    let s: &'static CStr = match code {
        0 => c"GCNC_SUCCESS",
        1 => c"GCNC_ERROR_INVALID_ARGUMENT",
        2 => c"GCNC_ERROR_INVALID_SPIRV",
        3 => c"GCNC_ERROR_UNSUPPORTED",
        4 => c"GCNC_ERROR_NEEDS_WHOLE_PIPELINE",
        5 => c"GCNC_ERROR_LINK",
        6 => c"GCNC_ERROR_IO",
        7 => c"GCNC_ERROR_INTERNAL",
        _ => c"(not a gcnc_result)",
    };
    s.as_ptr()
}
