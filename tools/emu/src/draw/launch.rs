//! The driver and hardware side of a graphics wave's launch: memory a draw sets up, the
//! user SGPRs, and running one wave to its end with an export sink (docs/draw.md has
//! the same facts for the compiler's side).
//!
//! Memory (each range its own mapping):
//! - `GLOBAL_TABLE` (PAL's global table, in the code's 4 GiB: a 32-bit pointer plus the
//!   PC's high half reaches it); GFX11: the attribute ring's V# at byte
//!   `ATTR_RING_GIT_OFFSET`.
//! - `VB_TABLE`: the vertex buffer table, one 16-byte V# per binding number (binding b
//!   at `16·b`): base = the buffer, stride = the binding's stride, NUM_RECORDS = whole
//!   records in the buffer, DST_SEL = XYZW, no format (fetches name theirs), GFX10+
//!   OOB_SELECT = 1 (index checked).
//! - `VB_BASE + b·VB_STRIDE`: vertex buffer of binding b.
//! - `PUSH_BASE`: the push-constant bytes (`push_constants`).
//! - `SET_BASE + s·SET_STRIDE`: the descriptor memory of set `s`: each descriptor at its
//!   offset in `Draw::layout` (the compiler's packing of the description's bindings,
//!   docs/abi.md: single buffers at `16·b`): a buffer's raw V# (size = its bytes), an
//!   image's T# (linear, every level: `image` module docs), a combined image sampler's
//!   T# then its S# at the layout's sampler offset, a sampler's S#;
//!   `DESC_BUF_BASE + (s·32 + b)·DESC_BUF_STRIDE`: that buffer's or image's bytes.
//! - GFX9/GFX10.3 with scratch in a stage: the graphics scratch ring's V# at byte 0 of
//!   the global table (base `SCRATCH_RING`, a non-zero stride above bit 47 the shader
//!   must mask off).
//! - `ATTR_RING` (GFX11): the attribute ring, `ATTR_RING_BYTES` (RADV's setup on one
//!   shader engine: SPI_ATTRIBUTE_RING_BASE = `ATTR_RING >> 16`,
//!   SPI_ATTRIBUTE_RING_SIZE.MEM_SIZE = `(ATTR_RING_BYTES >> 16) - 1`), filled with
//!   `ATTR_RING_POISON` once per draw. Its V# in the global table is the driver's
//!   ([`attr_ring_desc`], Mesa's `ac_build_attr_ring_descriptor` with stride 0): format
//!   32_32_32_32_FLOAT, DST_SEL XYZW, SWIZZLE_ENABLE 3 (16-byte elements), INDEX_STRIDE 2
//!   (32 indices), OOB_SELECT 0 (structured with offset), NUM_RECORDS = the ring's bytes.
//!   Each NGG subgroup gets its own place in the ring ([`AttrRing::place`]: a
//!   round-robin allocation, never at 0, so subgroups differ and later ones land on the
//!   stale data of earlier ones), given in s5 bits 14:0 in 512-byte units, with bits
//!   31:15 set to a value that is not the offset (Mesa masks bits 14:0). The shader
//!   ORs STRIDE = 16 × the parameters into its copy of the V#; the pixel side reads
//!   vertex `l`'s parameter `a` where the swizzled store put it: subgroup place +
//!   `BufferDesc::byte_offset(l, 16·a)` with STRIDE = 16 × (SPI_VS_OUT_CONFIG
//!   .VS_EXPORT_COUNT + 1).
//!
//! User SGPRs (from s0; NGG: from s8), per the stage's user-data map: GlobalTable → the
//! table's low half; VertexBufferTable (0x1000000F) → `VB_TABLE`'s low half; BaseVertex
//! (…03) → first_vertex, or vertex_offset for an indexed draw; BaseInstance (…04) → first_instance; DrawIndex (…05) → the draw's index in its multi-draw (`Draw::draw_index`);
//! entry N → `entries[N]` (`entries(draw)`: gcnc's user data — the push-constant pointer
//! at entries 0/1, set `s`'s pointer at 2+2s/3+2s, the vertex-buffer table pointer at
//! 16/17; an entry the caller does not give is a `Setup` error); unused → never written.
//! Anything else is `Unsupported`.
//!
//! Scratch (RSRC2 SCRATCH_EN): every wave gets its own zeroed private window of
//! `.scratch_memory_size` bytes per lane (waves run one at a time). GFX9/GFX10.3: the
//! scratch wave offset (`SCRATCH_VS_OFFSET` / `SCRATCH_PS_OFFSET`) goes in the SGPR after
//! the user SGPRs (hardware VS), after PRIM_MASK (PS) or in s5 (NGG), and the wave must
//! set FLAT_SCRATCH to ring base + offset before its first scratch access (checked).
//! GFX11: architected flat scratch, nothing to set up.

use super::desc::Descriptor;
use super::shaders::{Pipeline, Stage};
use super::Draw;
use crate::error::{Error, ErrorKind, Result};
use crate::export::Exports;
use crate::memory::{Lds, Memory};
use crate::wave::{Checks, Env, Program, Status, Wave};
use gcnc::binary::registers::UserData;
use gcnc::binary::HwStage;
use gcnc::isa::Gen;

pub const CODE_BASE: u64 = 0x7000_0000_0000;
pub const GLOBAL_TABLE: u64 = 0x7000_1000_0000;
pub const VB_TABLE: u64 = 0x7000_2000_0000;
pub const VB_BASE: u64 = 0x1_0000_0000;
pub const VB_STRIDE: u64 = 0x1000_0000;
pub const ATTR_RING: u64 = 0x8_0000_0000;
/// Two 64 KiB units (RADV sizes the ring per shader engine in 64 KiB units): room for
/// several subgroups of the largest record (64 vertices × 32 parameters × 16 bytes).
pub const ATTR_RING_BYTES: u64 = 2 << 16;
/// What the attribute ring holds where no vertex stored (a NaN pattern).
pub const ATTR_RING_POISON: u32 = 0x7fc0_dead;
/// The unit of s5's ring offset (bits 14:0).
pub const ATTR_RING_UNIT: u64 = 512;
/// Entry 11 of PAL's global table (LLPC's `SiDrvTableOffChipParamCache`, the GFX11
/// attribute ring's V#; 16 bytes an entry).
pub const ATTR_RING_GIT_OFFSET: u64 = 11 * 16;
pub const PUSH_BASE: u64 = 0x7000_3000_0000;
pub const SET_BASE: u64 = 0x7000_4000_0000;
pub const SET_STRIDE: u64 = 0x1_0000;
pub const DESC_BUF_BASE: u64 = 0x4_0000_0000;
pub const DESC_BUF_STRIDE: u64 = 0x20_0000;
const GIT_BYTES: u64 = 0x200;
/// GFX9/GFX10.3 scratch: the graphics scratch ring's base (its V# at byte 0 of the global
/// table) and the scratch wave offset every vertex / pixel wave gets.
pub const SCRATCH_RING: u64 = 0x9_0000_0000;
pub const SCRATCH_VS_OFFSET: u64 = 0x10_0000;
pub const SCRATCH_PS_OFFSET: u64 = 0x20_0000;
const VB_TABLE_BYTES: u64 = 16 * 32;

const BASE_VERTEX: u32 = 0x1000_0003;
const BASE_INSTANCE: u32 = 0x1000_0004;
const DRAW_INDEX: u32 = 0x1000_0005;
const VERTEX_BUFFER_TABLE: u32 = 0x1000_000f;

/// User-data entries of the vertex-buffer table pointer in gcnc's graphics ABI (docs/abi.md).
pub const VB_TABLE_ENTRY: usize = 16;

/// The user-data entries of gcnc's graphics ABI for draw `d` (docs/abi.md): the
/// push-constant pointer at entries 0/1 (when `d` has push constants), set `s`'s
/// descriptor memory at 2+2s/3+2s (for each set `d` binds), `VB_TABLE` at 16/17.
pub fn entries(d: &Draw) -> Vec<Option<u32>> {
    let mut e = vec![None; VB_TABLE_ENTRY + 2];
    let mut put = |at: usize, addr: u64| {
        e[at] = Some(addr as u32);
        e[at + 1] = Some((addr >> 32) as u32);
    };
    if !d.push.is_empty() {
        put(0, PUSH_BASE);
    }
    for &s in d.sets().keys() {
        put(2 + 2 * s as usize, SET_BASE + s as u64 * SET_STRIDE);
    }
    put(VB_TABLE_ENTRY, VB_TABLE);
    if let Ok(l) = link_user_data(d) {
        for (&n, &v) in &l.entries {
            if e.len() <= n as usize {
                e.resize(n as usize + 1, None);
            }
            e[n as usize] = Some(v);
        }
    }
    e
}

/// Stage k's descriptor table of `link_user_data` (0 vertex, 1 fragment) is at
/// `DESC_TABLE + k * DESC_TABLE_STRIDE`, in the code's 4 GiB (its pointer is a low half).
pub const DESC_TABLE: u64 = 0x7000_5000_0000;
pub const DESC_TABLE_STRIDE: u64 = 0x100;

/// What the description's `link_user_data` (the driver's user-data layouts of a linked
/// pipeline, docs/draw.md) asks of the launch.
#[derive(Debug, Default, PartialEq)]
pub struct LinkUserData {
    /// User-data entry -> value.
    pub entries: std::collections::BTreeMap<u32, u32>,
    /// (address, dwords) of each stage's descriptor table.
    pub tables: Vec<(u64, Vec<u32>)>,
}

/// The entries and descriptor tables of `d.desc.link_user_data`: each item's value as
/// the default entries give it (push-constant pointer, set pointers), inline push dwords,
/// the stage's table address. An entry the layouts give two values, or one that
/// `entries`' default numbering gives another value, is an error.
pub fn link_user_data(d: &Draw) -> Result<LinkUserData> {
    use gcnc::binary::prelink::Item;
    let mut out = LinkUserData::default();
    let Some(l) = &d.desc.link_user_data else {
        return Ok(out);
    };
    let half = |a: u64, hi: bool| if hi { (a >> 32) as u32 } else { a as u32 };
    let sets = d.sets();
    let value = |item: &Item, table: u64| -> Result<u32> {
        let set = |n: u32, hi: bool| {
            if sets.contains_key(&n) {
                Ok(half(SET_BASE + n as u64 * SET_STRIDE, hi))
            } else {
                Err(Error::setup(format!(
                    "link_user_data: set {n} is not bound"
                )))
            }
        };
        Ok(match item {
            Item::PushConstantPointer => half(PUSH_BASE, false),
            Item::PushConstantPointerHi => half(PUSH_BASE, true),
            Item::DescriptorSet(n) => set(*n, false)?,
            Item::DescriptorSetHi(n) => set(*n, true)?,
            Item::PushConstant(k) => crate::pipeline::push_dword(&d.push, *k),
            Item::DescriptorTable => table as u32,
            Item::GlobalTable => GLOBAL_TABLE as u32,
            Item::Unused => 0,
            other => {
                return Err(Error::setup(format!(
                    "link_user_data: {} is not a value a user-data entry or table gives",
                    other.text()
                )))
            }
        })
    };
    let mut default = vec![None; VB_TABLE_ENTRY + 2];
    if !d.push.is_empty() {
        default[0] = Some(half(PUSH_BASE, false));
        default[1] = Some(half(PUSH_BASE, true));
    }
    for &s in sets.keys() {
        default[2 + 2 * s as usize] = Some(half(SET_BASE + s as u64 * SET_STRIDE, false));
        default[3 + 2 * s as usize] = Some(half(SET_BASE + s as u64 * SET_STRIDE, true));
    }
    default[VB_TABLE_ENTRY] = Some(VB_TABLE as u32);
    default[VB_TABLE_ENTRY + 1] = Some((VB_TABLE >> 32) as u32);
    for (k, layout) in [&l.vertex, &l.fragment].into_iter().enumerate() {
        let Some(layout) = layout else { continue };
        let table = DESC_TABLE + k as u64 * DESC_TABLE_STRIDE;
        for slot in &layout.sgprs {
            let Some(n) = slot.entry else { continue };
            let v = value(&slot.item, table)?;
            let clash = default
                .get(n as usize)
                .copied()
                .flatten()
                .filter(|&x| x != v);
            let twice = out.entries.get(&n).filter(|&&x| x != v);
            if clash.is_some() || twice.is_some() {
                return Err(Error::setup(format!(
                    "link_user_data: entry {n} holds {} here and another value elsewhere",
                    slot.item.text()
                )));
            }
            out.entries.insert(n, v);
        }
        if !layout.table.is_empty() {
            let words = layout
                .table
                .iter()
                .map(|i| value(i, table))
                .collect::<Result<Vec<u32>>>()?;
            out.tables.push((table, words));
        }
    }
    Ok(out)
}

/// The draw's memory and programs.
pub struct DrawMemory {
    pub mem: Memory,
    /// GFX11: the subgroups' places in the attribute ring.
    pub attr_ring: AttrRing,
    pub vs_prog: Program,
    pub ps_prog: Program,
    pub gen: Gen,
    pub instructions: u64,
}

/// GFX11: the attribute ring's V# as RADV builds it (`ac_build_attr_ring_descriptor`
/// with stride 0; Mesa's GFX11 register database for the fields): base, dword 1
/// SWIZZLE_ENABLE (31:30) = 3, dword 2 = the ring's bytes, dword 3 DST_SEL XYZW, FORMAT
/// (17:12) 32_32_32_32_FLOAT, INDEX_STRIDE (22:21) = 2, OOB_SELECT (29:28) = 0.
pub fn attr_ring_desc() -> Result<[u32; 4]> {
    let gen = Gen::Gfx11;
    let want = crate::bufformat::BufFormat {
        bits: vec![32; 4],
        num: crate::bufformat::Num::Float,
    };
    let format = (1..64)
        .find(|&c| crate::bufformat::decode(gen, c).is_ok_and(|f| f == want))
        .ok_or_else(|| Error::setup("no 32_32_32_32_FLOAT buffer format on gfx1100"))?;
    let dst_sel = 4 | 5 << 3 | 6 << 6 | 7 << 9;
    Ok([
        ATTR_RING as u32,
        (ATTR_RING >> 32) as u32 & 0xffff | 3 << 30,
        ATTR_RING_BYTES as u32,
        dst_sel | format << 12 | 2 << 21,
    ])
}

/// GFX11: where the NGG subgroups' attributes go in the ring.
#[derive(Clone, Debug, Default)]
pub struct AttrRing {
    /// The next subgroup's place, in bytes.
    next: u64,
    /// Subgroups placed so far.
    count: u32,
}

impl AttrRing {
    /// The place (bytes from the ring's base) of the next subgroup, which needs `bytes`,
    /// and its s5 value. Places go round the ring, never starting at 0.
    pub fn place(&mut self, bytes: u64) -> Result<(u64, u32)> {
        let need = bytes.max(1).next_multiple_of(ATTR_RING_UNIT);
        if need + ATTR_RING_UNIT > ATTR_RING_BYTES {
            return Err(Error::unsupported(format!(
                "a subgroup's {bytes} attribute bytes exceed the emulated ring"
            )));
        }
        if self.next == 0 || self.next + need > ATTR_RING_BYTES {
            // the first place, and after a wrap: 3 units in, so no place is 0
            self.next = 3 * ATTR_RING_UNIT;
        }
        let at = self.next;
        self.next += need + ATTR_RING_UNIT;
        self.count += 1;
        // bits 31:15 hold something else than the offset (nonzero)
        let s5 = (at / ATTR_RING_UNIT) as u32 | (0x8000 | self.count << 16);
        Ok((at, s5))
    }
}

/// A V# with a stride (structured), DST_SEL XYZW; GFX10+ OOB_SELECT 1.
pub fn structured_desc(gen: Gen, base: u64, stride: u32, records: u32) -> [u32; 4] {
    let dst_sel = 4 | 5 << 3 | 6 << 6 | 7 << 9;
    let d3 = match gen {
        Gen::Gfx9 => dst_sel,
        _ => dst_sel | 1 << 28,
    };
    [
        base as u32,
        (base >> 32) as u32 & 0xffff | (stride & 0x3fff) << 16,
        records,
        d3,
    ]
}

impl DrawMemory {
    pub fn new(p: &Pipeline, d: &Draw) -> Result<DrawMemory> {
        let gen = p.vs.target.gen;
        let mut mem = Memory::new();
        mem.map(GLOBAL_TABLE, GIT_BYTES);
        mem.map(VB_TABLE, VB_TABLE_BYTES);
        for vb in &d.vertex_buffers {
            if vb.binding >= 32 {
                return Err(Error::setup(format!(
                    "vertex buffer binding {} (0..32)",
                    vb.binding
                )));
            }
            let base = VB_BASE + vb.binding as u64 * VB_STRIDE;
            let len = (vb.data.len() as u64).max(4);
            mem.map(base, len);
            mem.write(base, &vb.data)?;
            let records = (vb.data.len() as u64 / vb.stride as u64) as u32;
            let desc = structured_desc(gen, base, vb.stride, records);
            for (k, w) in desc.iter().enumerate() {
                mem.write_u32(VB_TABLE + 16 * vb.binding as u64 + 4 * k as u64, *w)?;
            }
        }
        if !d.push.is_empty() {
            mem.map(PUSH_BASE, d.push.len() as u64);
            mem.write(PUSH_BASE, &d.push)?;
        }
        let layout = d.layout().map_err(|e| Error::setup(e.to_string()))?;
        let slot = |x: &Descriptor| {
            layout
                .slot(x.set, x.binding, x.ty.kind())
                .map_err(|e| Error::setup(e.to_string()))
        };
        for &s in d.sets().keys() {
            let mut end = 16;
            for x in d.descriptors.iter().filter(|x| x.set == s) {
                end = end.max(slot(x)?.offset + x.ty.kind().bytes());
            }
            mem.map(SET_BASE + s as u64 * SET_STRIDE, end as u64);
        }
        for x in &d.descriptors {
            let base = DESC_BUF_BASE + (x.set as u64 * 32 + x.binding as u64) * DESC_BUF_STRIDE;
            if !x.data.is_empty() {
                mem.map(base, x.data.len() as u64);
                mem.write(base, &x.data)?;
            }
            let s = slot(x)?;
            let at = SET_BASE + x.set as u64 * SET_STRIDE + s.offset as u64;
            let words: Vec<(u64, Vec<u32>)> = match (&x.image, x.sampler) {
                (Some(v), _) => {
                    let t = v.desc(base).encode(gen).ok_or_else(|| {
                        Error::setup(format!(
                            "descriptor (set {}, binding {}): format {:?} has no image format code on {gen}",
                            x.set, x.binding, v.fmt
                        ))
                    })?;
                    let mut w = vec![(at, t.to_vec())];
                    if let Some(smp) = v.sampler {
                        w.push((at + s.sampler_offset as u64, smp.to_vec()));
                    }
                    w
                }
                (None, Some(smp)) => vec![(at, smp.to_vec())],
                (None, None) => {
                    let v = crate::memory::BufferDesc::raw(gen, base, x.data.len() as u32);
                    vec![(at, v.to_vec())]
                }
            };
            for (at, w) in words {
                for (k, w) in w.into_iter().enumerate() {
                    mem.write_u32(at + 4 * k as u64, w)?;
                }
            }
        }
        if gen != Gen::Gfx11 && (p.vs.scratch_en || p.ps.scratch_en) {
            // base 47:0 plus a non-zero stride above it, which the shader must mask off
            let ring = [
                SCRATCH_RING as u32,
                (SCRATCH_RING >> 32) as u32 & 0xffff | 4 << 16,
                u32::MAX,
                0,
            ];
            for (k, w) in ring.iter().enumerate() {
                mem.write_u32(GLOBAL_TABLE + 4 * k as u64, *w)?;
            }
        }
        if gen == Gen::Gfx11 {
            mem.map(ATTR_RING, ATTR_RING_BYTES);
            let poison = ATTR_RING_POISON
                .to_le_bytes()
                .repeat((ATTR_RING_BYTES / 4) as usize);
            mem.write(ATTR_RING, &poison)?;
            let desc = attr_ring_desc()?;
            for (k, w) in desc.iter().enumerate() {
                mem.write_u32(GLOBAL_TABLE + ATTR_RING_GIT_OFFSET + 4 * k as u64, *w)?;
            }
        }
        for (at, words) in link_user_data(d)?.tables {
            mem.map(at, DESC_TABLE_STRIDE);
            for (k, w) in words.iter().enumerate() {
                mem.write_u32(at + 4 * k as u64, *w)?;
            }
        }
        // the code is readable memory too: constant data after it is read through the PC
        mem.map(CODE_BASE, p.code.len() as u64);
        mem.write(CODE_BASE, &p.code)?;
        Ok(DrawMemory {
            mem,
            attr_ring: AttrRing::default(),
            vs_prog: Program::new(p.vs.target, p.code.clone(), CODE_BASE),
            ps_prog: Program::new(p.ps.target, p.code.clone(), CODE_BASE),
            gen,
            instructions: 0,
        })
    }
}

/// A new wave of `stage` with its user SGPRs from `first` written.
pub fn new_wave(
    s: &Stage,
    d: &Draw,
    entries: &[Option<u32>],
    first: u16,
    budget: u64,
    checks: Checks,
) -> Result<Wave> {
    let mut w = Wave::new(s.target, s.vgprs, budget, checks);
    w.pc = s.entry;
    w.mode = s.float_mode;
    let dc = d.desc.draw;
    for (i, ud) in s.user_data.iter().enumerate() {
        let v = match *ud {
            UserData::Unused => continue,
            UserData::GlobalTable => GLOBAL_TABLE as u32,
            UserData::Entry(n) => entries.get(n as usize).copied().flatten().ok_or_else(|| {
                Error::setup(format!(
                    "user SGPR {i} holds user-data entry {n}, which the draw does not give"
                ))
            })?,
            UserData::Special(VERTEX_BUFFER_TABLE) => VB_TABLE as u32,
            UserData::Special(BASE_VERTEX) => d.base_vertex() as u32,
            UserData::Special(BASE_INSTANCE) => dc.first_instance,
            UserData::Special(DRAW_INDEX) => d.draw_index,
            other => {
                return Err(Error::unsupported(format!(
                    "user SGPR {i}: {other:?} in a draw"
                )))
            }
        };
        w.regs.set_s(first + i as u16, v)?;
    }
    if s.scratch_en {
        w.set_scratch(s.scratch_bytes);
        if s.target.gen != Gen::Gfx11 {
            let (sgpr, offset) = match s.hw {
                HwStage::Gs => (5, SCRATCH_VS_OFFSET),
                HwStage::Ps => (s.user_data.len() as u16 + 1, SCRATCH_PS_OFFSET),
                _ => (s.user_data.len() as u16, SCRATCH_VS_OFFSET),
            };
            w.regs.set_s(sgpr, offset as u32)?;
            w.scratch_expect = Some(SCRATCH_RING + offset);
        }
    }
    Ok(w)
}

/// Runs `w` to its end with `exports` as its sink; `spent` counts the draw's
/// instructions against `draw_budget`.
#[allow(clippy::too_many_arguments)]
pub fn run_wave(
    prog: &mut Program,
    mem: &mut Memory,
    lds: &mut Lds,
    w: &mut Wave,
    exports: &mut Exports,
    checks: Checks,
    spent: &mut u64,
    draw_budget: u64,
) -> Result<()> {
    while w.status == Status::Running {
        if *spent >= draw_budget {
            return Err(w.locate(
                Error::new(ErrorKind::DispatchBudget(draw_budget)),
                w.pc,
                None,
            ));
        }
        let mut env = Env {
            prog,
            mem,
            lds,
            checks,
            exports: Some(exports),
        };
        w.step(&mut env)?;
        *spent += 1;
    }
    if w.status == Status::AtBarrier {
        return Err(w.locate(
            Error::unsupported("s_barrier in a graphics wave (one-wave subgroups)"),
            w.pc,
            None,
        ));
    }
    Ok(())
}

/// A graphics rule broken by wave `w` after it ended.
pub fn rule(w: &Wave, what: String) -> Error {
    w.locate(Error::new(ErrorKind::Graphics(what)), w.pc, None)
}
