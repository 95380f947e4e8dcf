//! Running a compiled compute pipeline (a PAL ELF) the way a driver would: the memory
//! layout and user-SGPR setup of docs/abi.md, shared by `gcnc run`, the backend corpus test
//! and anything else that runs gcnc's output with descriptor sets and push constants.
//!
//! Design: a [`Setup`] says what the application binds (push-constant bytes, buffers by
//! set/binding or reached by device address, the workgroup count, the pipeline layout);
//! [`prepare`] places everything in a fresh sparse [`Memory`] at fixed, documented
//! addresses, writes the V# of every bound buffer at its layout offset in its set's
//! descriptor memory, and fills the user SGPRs from the ELF's PAL user-data mapping
//! (push-constant and set pointers, the workgroup count, PAL's global table);
//! [`run_elf`] also dispatches. Invariants: every resource gets its own mapping (so an
//! access past a buffer's end faults or is range-checked, never lands in a neighbour), the
//! placement depends only on the `Setup` (deterministic addresses), and a user-data entry
//! the setup cannot provide is a `Setup` error, not a zero.
//!
//! Images, samplers and texel buffers ([`Place::Images`], [`Place::Samplers`],
//! [`Place::TexelBuffer`]): each image of a binding is placed at its own 256-byte aligned
//! address in the emulator's linear layout (`image` module docs; the resource's data is the
//! images one after another in that layout), its T# (and for a combined image+sampler the
//! S# at the layout's sampler offset) written at `offset + element · stride` of the set;
//! a texel buffer gets a V# with the format, stride = texel size and one record per
//! texel. Offsets come from `Setup::layout`, which must be the layout the compiler used:
//! [`default_layout`] computes the packed default from the SPIR-V the way `gcnc` does.
//!
//! A pipeline linked by `gcnc link` with a final user-data layout (`Setup::link_state`,
//! the same state JSON) has its own meaning for each user-data entry: the entries are then
//! filled with the items the state names, the descriptor table is written at
//! `DESCRIPTOR_TABLE_LO` in the code's 4 GiB (the CS prolog takes the high half of its
//! address from the PC, pal-abi §2.6), set memory moves to the code's 4 GiB too (so a
//! 32-bit set pointer works with the PC's high half), and descriptors sit at the state's
//! `descriptor_layout` offsets. An ELF with a CS prolog run without its state is a
//! `Setup` error saying so.

use crate::dispatch::{Dispatch, Stats};
use crate::error::{Error, Result};
use crate::image::ImageDesc;
use crate::memory::{BufferDesc, Memory};
use crate::texformat::TexFormat;
use crate::wave::Checks;
use gcnc::amdgpu::abi::{DescriptorKind, PipelineLayout, MAX_SETS};
use gcnc::binary::{ComputeShaderInfo, ElfFile, UserData};
use gcnc::isa::Gen;
use gcnc::link::state::{Item, PipelineState};

/// Address of the push-constant block.
pub const PUSH_BASE: u64 = 0x10_0000;
/// Address of the dispatch's workgroup count (three u32) for `gl_NumWorkGroups`.
pub const WGCOUNT_BASE: u64 = 0x30_0000;
/// Descriptor memory of set `s` is at `SETS_BASE + s * SET_STRIDE`.
pub const SETS_BASE: u64 = 0x100_0000;
/// Room per set: the ABI's largest binding offset (1 MiB) plus a descriptor, rounded up.
pub const SET_STRIDE: u64 = 0x20_0000;
/// Resources are placed from here, each 64 KiB aligned.
pub const DATA_BASE: u64 = 0x1000_0000;

/// Low half of the descriptor table's address in a linked run (high half: the PC's).
pub const DESCRIPTOR_TABLE_LO: u32 = 0x2000_0000;

/// The most bytes the resources of one setup may hold together (256 MiB): the emulator
/// keeps every byte in memory, so this bounds what a run allocates for its buffers.
pub const MAX_RESOURCE_BYTES: usize = 256 << 20;

/// Where the application makes a resource visible to the shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A raw buffer descriptor at (set, binding) (storage and uniform buffers alike).
    Binding { set: u32, binding: u32 },
    /// An array of raw buffer descriptors at (set, binding): element `k` covers bytes
    /// `ranges[k].0 ..` (`ranges[k].1` of them) of the data.
    Buffers {
        set: u32,
        binding: u32,
        ranges: Vec<(u32, u32)>,
    },
    /// Only through its 64-bit device address, written at this byte offset of the
    /// push-constant block.
    PushAddress(u32),
    /// Only through its device address, written into resource `index` at byte `offset`
    /// (linked structures).
    ResourceAddress { index: usize, offset: u32 },
    /// Images at (set, binding), one per array element; the data is theirs in turn.
    Images {
        set: u32,
        binding: u32,
        images: Vec<ImageView>,
    },
    /// Samplers (S# words) at (set, binding), one per array element; no data.
    Samplers {
        set: u32,
        binding: u32,
        samplers: Vec<[u32; 4]>,
    },
    /// A texel buffer of `format` at (set, binding).
    TexelBuffer {
        set: u32,
        binding: u32,
        format: TexFormat,
    },
}

/// One image as the shader sees it (the harness picks its address).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageView {
    /// T# type (`image::TYPE_*`).
    pub ty: u32,
    pub fmt: TexFormat,
    /// Width, height, depth (3D) or slices (arrays; 6 per cube).
    pub size: [u32; 3],
    pub levels: u32,
    pub samples: u32,
    pub dst_sel: [u8; 4],
    /// The S# of a combined image+sampler.
    pub sampler: Option<[u32; 4]>,
}

/// GFX9 has no 1D image type in its addressing: a driver describes a 1D image (array) as a
/// 2D image (array) of height one there, as RADV does (`radv_tex_dim`: "GFX9 allocates 1D
/// textures as 2D"), and the compiler addresses it so (docs/images.md, "Dimensions"). The
/// memory layout is the same.
fn gfx9_1d_as_2d(gen: Gen, mut d: ImageDesc) -> ImageDesc {
    if gen == Gen::Gfx9 {
        d.ty = match d.ty {
            crate::image::TYPE_1D => crate::image::TYPE_2D,
            crate::image::TYPE_1D_ARRAY => crate::image::TYPE_2D_ARRAY,
            t => t,
        };
    }
    d
}

impl ImageView {
    pub fn desc(&self, base: u64) -> ImageDesc {
        let mut d = ImageDesc::linear(
            base,
            self.fmt,
            self.ty,
            self.size,
            self.levels,
            self.samples,
        );
        d.dst_sel = self.dst_sel;
        d
    }

    /// Bytes of the image in the emulator's layout.
    pub fn bytes(&self) -> u64 {
        self.desc(0).bytes()
    }
}

/// The layout `gcnc` compiles `words` with: `opts.layout` with the sets it omits packed
/// from the module's declared bindings.
pub fn default_layout(words: &[u32], opts: &gcnc::Options) -> Result<PipelineLayout> {
    let fopts = gcnc::front::spirv::Options {
        entry: opts.entry.clone(),
        spec: opts.spec.clone(),
        stage: Some(gcnc::ir::Stage::Compute),
    };
    let m = gcnc::front::spirv::translate(words, &fopts)
        .map_err(|e| Error::setup(format!("SPIR-V: {e}")))?;
    let declared =
        gcnc::amdgpu::abi::declared_bindings(&m).map_err(|e| Error::setup(e.to_string()))?;
    opts.layout
        .complete(&declared)
        .map_err(|e| Error::setup(e.to_string()))
}

/// The V# of a texel buffer: `format`, stride = one texel, one record per texel.
pub fn texel_buffer_desc(gen: Gen, base: u64, bytes: u32, format: &TexFormat) -> Result<[u32; 4]> {
    let code = crate::bufformat::code_of(gen, format).ok_or_else(|| {
        Error::setup(format!(
            "texel buffer format {format:?} has no buffer format code on {gen}"
        ))
    })?;
    let stride = format.bytes();
    let sel = 4 | 5 << 3 | 6 << 6 | 7 << 9;
    let d3 = match gen {
        Gen::Gfx9 => sel | (code >> 4) << 12 | (code & 0xf) << 15,
        _ => sel | code << 12,
    };
    Ok([
        base as u32,
        (base >> 32) as u32 & 0xffff | stride << 16,
        bytes / stride,
        d3,
    ])
}

/// One buffer with its initial contents.
#[derive(Clone, Debug)]
pub struct Resource {
    pub data: Vec<u8>,
    pub place: Place,
}

/// What the application provides for one dispatch.
#[derive(Clone, Debug)]
pub struct Setup {
    pub groups: [u32; 3],
    pub push: Vec<u8>,
    pub resources: Vec<Resource>,
    pub layout: PipelineLayout,
    /// Force wave32/wave64 (None: the ELF's metadata decides).
    pub wave: Option<gcnc::isa::Wave>,
    pub checks: Checks,
    /// Instruction budget per wave (None: the emulator's default).
    pub budget: Option<u64>,
    /// Instruction budget of the whole dispatch (None: `DEFAULT_DISPATCH_BUDGET`).
    pub dispatch_budget: Option<u64>,
    /// The state the ELF was linked with (`gcnc link --state`): what its user-data
    /// entries and descriptor table hold, and where its descriptors are.
    pub link_state: Option<PipelineState>,
}

impl Setup {
    pub fn new(groups: [u32; 3]) -> Setup {
        Setup {
            groups,
            push: Vec::new(),
            resources: Vec::new(),
            layout: PipelineLayout::default(),
            wave: None,
            checks: Checks::default(),
            budget: None,
            dispatch_budget: None,
            link_state: None,
        }
    }
}

/// A prepared dispatch: run it with `crate::run(&p.dispatch, &mut p.mem)`.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub dispatch: Dispatch,
    pub mem: Memory,
    /// GPU address of each `Setup::resources` entry (of an image binding: its first image).
    pub addrs: Vec<u64>,
    /// Byte size of each resource.
    pub sizes: Vec<usize>,
    /// Where each resource's bytes are: (address, length) pieces in order (one piece,
    /// except for image bindings with several images).
    pub pieces: Vec<Vec<(u64, usize)>>,
}

impl Prepared {
    /// The current contents of resource `index` (an image binding's images in turn).
    pub fn resource(&self, index: usize) -> Result<Vec<u8>> {
        let p = self
            .pieces
            .get(index)
            .ok_or_else(|| Error::setup(format!("no resource {index}")))?;
        let mut out = Vec::new();
        for &(a, n) in p {
            out.extend(self.mem.read_vec(a, n)?);
        }
        Ok(out)
    }
}

/// The user-data mapping of the ELF's compute shader (which entry each user SGPR holds).
pub fn user_data(elf: &[u8]) -> Result<Vec<UserData>> {
    let f = ElfFile::parse(elf).map_err(|e| Error::setup(format!("ELF: {e}")))?;
    let gen = f
        .gen()
        .ok_or_else(|| Error::setup("ELF target is not gfx900/gfx1030/gfx1100"))?;
    let md = f
        .pal_metadata()
        .map_err(|e| Error::setup(format!("PAL metadata: {e}")))?
        .ok_or_else(|| Error::setup("ELF has no PAL metadata"))?;
    let size = f
        .entry(gcnc::binary::HwStage::Cs)
        .map(|s| s.size)
        .ok_or_else(|| Error::setup("ELF has no compute shader entry"))?;
    let info = ComputeShaderInfo::from_metadata(&md, gen, size)
        .map_err(|e| Error::setup(format!("PAL metadata: {e}")))?;
    Ok(info.user_data)
}

fn map_bytes(mem: &mut Memory, addr: u64, data: &[u8], min: u64) -> Result<()> {
    mem.map(addr, (data.len() as u64).max(min).next_multiple_of(256));
    mem.write(addr, data)
}

/// Places the setup's memory and builds the dispatch for `elf` (docs/abi.md).
pub fn prepare(elf: &[u8], setup: &Setup) -> Result<Prepared> {
    let mut d = Dispatch::from_elf(elf, setup.wave)?;
    let gen = d.target.gen;
    d.groups = setup.groups;
    d.checks = setup.checks;
    if let Some(b) = setup.budget {
        d.budget = b;
    }
    if let Some(b) = setup.dispatch_budget {
        d.dispatch_budget = b;
    }
    let total: usize = setup.resources.iter().map(|r| r.data.len()).sum();
    if total > MAX_RESOURCE_BYTES {
        return Err(Error::setup(format!(
            "the resources hold {total} bytes, above the limit of {MAX_RESOURCE_BYTES}"
        )));
    }
    let mut mem = Memory::new();
    map_bytes(&mut mem, PUSH_BASE, &setup.push, 4096)?;
    let mut wg = [0u8; 12];
    for k in 0..3 {
        wg[4 * k..4 * k + 4].copy_from_slice(&setup.groups[k].to_le_bytes());
    }
    map_bytes(&mut mem, WGCOUNT_BASE, &wg, 256)?;
    // resources, then the descriptors and device addresses pointing at them
    let mut addrs = Vec::new();
    let mut pieces = Vec::new();
    let mut next = DATA_BASE;
    for (k, r) in setup.resources.iter().enumerate() {
        let lens: Vec<usize> = match &r.place {
            Place::Images { images, .. } => {
                let lens: Vec<usize> = images.iter().map(|i| i.bytes() as usize).collect();
                if lens.iter().sum::<usize>() != r.data.len() {
                    return Err(Error::setup(format!(
                        "resource {k}: {} bytes of data for images of {} bytes",
                        r.data.len(),
                        lens.iter().sum::<usize>()
                    )));
                }
                lens
            }
            _ => vec![r.data.len()],
        };
        let mut at = 0;
        let mut p = Vec::new();
        for n in lens {
            map_bytes(&mut mem, next, &r.data[at..at + n], 16)?;
            p.push((next, n));
            at += n;
            next += (n as u64).max(16).next_multiple_of(0x1_0000);
        }
        addrs.push(p[0].0);
        pieces.push(p);
    }
    let linked = linked_prolog(elf)?;
    if let (Some(prolog), None) = (&linked, &setup.link_state) {
        return Err(Error::setup(format!(
            "the ELF was linked with a user-data layout (it starts with {prolog}): its user-data entries mean what the link state says; pass that state (gcnc run --state)"
        )));
    }
    // With a link state, set memory is in the code's 4 GiB: a set pointer given as its low
    // half alone is completed with the PC's high half.
    let pc_hi = d.code_base & !0xffff_ffff;
    let sets_base = if setup.link_state.is_some() {
        pc_hi | SETS_BASE
    } else {
        SETS_BASE
    };
    let slot = |set: u32, binding: u32, kind: DescriptorKind| -> Result<gcnc::amdgpu::abi::Slot> {
        let linked = setup.link_state.as_ref().and_then(|s| {
            s.descriptor_layout
                .iter()
                .find(|b| (b.set, b.binding) == (set, binding) && b.kind == "buffer")
        });
        match (linked, kind) {
            (Some(b), DescriptorKind::Buffer) => Ok(gcnc::amdgpu::abi::Slot {
                offset: b.offset,
                stride: kind.bytes(),
                sampler_offset: 0,
            }),
            (_, DescriptorKind::Buffer) | (None, _) => setup
                .layout
                .slot(set, binding, kind)
                .map_err(|e| Error::setup(e.to_string())),
            _ => Err(Error::setup(format!(
                "set {set} binding {binding}: image, sampler and texel-buffer descriptors in a linked run"
            ))),
        }
    };
    // every descriptor dword to write: (set, byte offset in the set, words)
    let mut descs: Vec<(u32, u32, Vec<u32>)> = Vec::new();
    let mut push_patch = Vec::new();
    for (k, r) in setup.resources.iter().enumerate() {
        let set_of = |set: u32| -> Result<u32> {
            if set >= MAX_SETS {
                Err(Error::setup(format!(
                    "descriptor set {set} (0..{MAX_SETS})"
                )))
            } else {
                Ok(set)
            }
        };
        match &r.place {
            Place::Binding { set, binding } => {
                let size = u32::try_from(r.data.len()).map_err(|_| {
                    Error::setup(format!("set {set} binding {binding}: buffer above 4 GiB"))
                })?;
                let s = slot(set_of(*set)?, *binding, DescriptorKind::Buffer)?;
                descs.push((
                    *set,
                    s.offset,
                    BufferDesc::raw(gen, addrs[k], size).to_vec(),
                ));
            }
            Place::Buffers {
                set,
                binding,
                ranges,
            } => {
                let s = slot(set_of(*set)?, *binding, DescriptorKind::Buffer)?;
                for (e, &(off, len)) in ranges.iter().enumerate() {
                    if off as usize + len as usize > r.data.len() {
                        return Err(Error::setup(format!(
                            "set {set} binding {binding} element {e}: bytes {off}..{} of a {}-byte resource",
                            off as usize + len as usize,
                            r.data.len()
                        )));
                    }
                    descs.push((
                        *set,
                        s.offset + e as u32 * s.stride,
                        BufferDesc::raw(gen, addrs[k] + off as u64, len).to_vec(),
                    ));
                }
            }
            Place::Images {
                set,
                binding,
                images,
            } => {
                let combined = images.iter().any(|i| i.sampler.is_some());
                if combined && images.iter().any(|i| i.sampler.is_none()) {
                    return Err(Error::setup(format!(
                        "set {set} binding {binding}: some images have a sampler and some not"
                    )));
                }
                let kind = if combined {
                    DescriptorKind::CombinedImageSampler
                } else {
                    DescriptorKind::SampledImage
                };
                let s = slot(set_of(*set)?, *binding, kind)?;
                for (e, (img, &(addr, _))) in images.iter().zip(&pieces[k]).enumerate() {
                    let at = s.offset + e as u32 * s.stride;
                    let t = gfx9_1d_as_2d(gen, img.desc(addr)).encode(gen).ok_or_else(|| {
                        Error::setup(format!(
                            "set {set} binding {binding}: format {:?} has no image format code on {gen}",
                            img.fmt
                        ))
                    })?;
                    descs.push((*set, at, t.to_vec()));
                    if let Some(smp) = img.sampler {
                        descs.push((*set, at + s.sampler_offset, smp.to_vec()));
                    }
                }
            }
            Place::Samplers {
                set,
                binding,
                samplers,
            } => {
                let s = slot(set_of(*set)?, *binding, DescriptorKind::Sampler)?;
                for (e, smp) in samplers.iter().enumerate() {
                    descs.push((*set, s.offset + e as u32 * s.stride, smp.to_vec()));
                }
            }
            Place::TexelBuffer {
                set,
                binding,
                format,
            } => {
                let size = u32::try_from(r.data.len()).map_err(|_| {
                    Error::setup(format!("set {set} binding {binding}: buffer above 4 GiB"))
                })?;
                let s = slot(set_of(*set)?, *binding, DescriptorKind::TexelBuffer)?;
                descs.push((
                    *set,
                    s.offset,
                    texel_buffer_desc(gen, addrs[k], size, format)?.to_vec(),
                ));
            }
            Place::PushAddress(off) => push_patch.push((PUSH_BASE + *off as u64, addrs[k])),
            Place::ResourceAddress { index, offset } => {
                let (a, n) = addrs
                    .get(*index)
                    .zip(setup.resources.get(*index).map(|r| r.data.len()))
                    .ok_or_else(|| {
                        Error::setup(format!("resource {k}: address target {index} missing"))
                    })?;
                if *offset as usize + 8 > n {
                    return Err(Error::setup(format!(
                        "resource {k}: address at byte {offset} of a {n}-byte resource"
                    )));
                }
                push_patch.push((a + *offset as u64, addrs[k]));
            }
        }
    }
    let mut set_bytes = [0u64; MAX_SETS as usize];
    for (set, off, words) in &descs {
        let end = *off as u64 + 4 * words.len() as u64;
        set_bytes[*set as usize] = set_bytes[*set as usize].max(end);
    }
    for (s, &n) in set_bytes.iter().enumerate() {
        mem.map(
            sets_base + s as u64 * SET_STRIDE,
            n.max(4096).next_multiple_of(256),
        );
    }
    for (set, off, words) in &descs {
        let base = sets_base + *set as u64 * SET_STRIDE + *off as u64;
        for (j, w) in words.iter().enumerate() {
            mem.write_u32(base + 4 * j as u64, *w)?;
        }
    }
    for (at, addr) in push_patch {
        mem.write(at, &addr.to_le_bytes())?;
    }
    let half = |a: u64, hi: bool| if hi { (a >> 32) as u32 } else { a as u32 };
    let layout = setup.link_state.as_ref().and_then(|s| s.user_data.as_ref());
    // What the driver puts in a user SGPR or table dword holding `item` (linked runs).
    let item_value = |item: &Item| -> Result<u32> {
        let set = |n: u32, hi: bool| {
            if n < MAX_SETS {
                Ok(half(sets_base + n as u64 * SET_STRIDE, hi))
            } else {
                Err(Error::setup(format!("descriptor set {n} (0..{MAX_SETS})")))
            }
        };
        Ok(match item {
            Item::GlobalTable => d.global_table_lo(),
            Item::DescriptorSet(n) => set(*n, false)?,
            Item::DescriptorSetHi(n) => set(*n, true)?,
            Item::PushConstant(n) => push_dword(&setup.push, *n),
            Item::PushConstantPointer => half(PUSH_BASE, false),
            Item::PushConstantPointerHi => half(PUSH_BASE, true),
            Item::DescriptorTable => DESCRIPTOR_TABLE_LO,
            Item::Unused => 0,
            Item::VertexBufferTable | Item::BaseVertex | Item::BaseInstance | Item::DrawIndex => {
                return Err(Error::setup(format!(
                    "the link state names {}, a vertex-stage item, in a dispatch",
                    item.text()
                )))
            }
            Item::SpillTable => {
                return Err(Error::setup(
                    "the link state names a spill table, which this setup does not provide",
                ))
            }
        })
    };
    if let Some(l) = layout {
        if !l.table.is_empty() {
            let at = pc_hi | DESCRIPTOR_TABLE_LO as u64;
            mem.map(at, (4 * l.table.len() as u64).next_multiple_of(256));
            for (k, item) in l.table.iter().enumerate() {
                mem.write_u32(at + 4 * k as u64, item_value(item)?)?;
            }
        }
    }
    let mut sg = Vec::new();
    for (i, u) in user_data(elf)?.into_iter().enumerate() {
        if let (Some(l), UserData::Entry(n)) = (layout, u) {
            let slot = l.sgprs.iter().find(|s| s.entry == Some(n)).ok_or_else(|| {
                Error::setup(format!(
                    "user SGPR s{i} loads user-data entry {n}, which the link state's user_data does not name"
                ))
            })?;
            sg.push(item_value(&slot.item)?);
            continue;
        }
        sg.push(match u {
            UserData::Entry(n) if n < 2 => half(PUSH_BASE, n == 1),
            UserData::Entry(n) if n < 2 + 2 * MAX_SETS => {
                half(sets_base + (n as u64 - 2) / 2 * SET_STRIDE, n % 2 == 1)
            }
            UserData::Workgroup => WGCOUNT_BASE as u32,
            // PAL's global table (the scratch ring descriptor), which the dispatch writes
            UserData::GlobalTable => d.global_table_lo(),
            // the high half of the workgroup-count pointer follows `Workgroup`
            UserData::Unused => (WGCOUNT_BASE >> 32) as u32,
            other => {
                return Err(Error::setup(format!(
                    "user SGPR s{i} holds {other:?}, which this setup does not provide"
                )))
            }
        });
    }
    d.user_sgprs = sg;
    Ok(Prepared {
        dispatch: d,
        mem,
        addrs,
        sizes: setup.resources.iter().map(|r| r.data.len()).collect(),
        pieces,
    })
}

/// Push-constant dword `n` of `push` (bytes past its end read as 0): what a user SGPR
/// holding `Item::PushConstant(n)` receives.
pub fn push_dword(push: &[u8], n: u32) -> u32 {
    let at = 4 * n as usize;
    let mut b = [0u8; 4];
    for (k, x) in b.iter_mut().enumerate() {
        *x = push.get(at + k).copied().unwrap_or(0);
    }
    u32::from_le_bytes(b)
}

/// The name of the CS prolog part `gcnc link` placed in `elf`, if any.
fn linked_prolog(elf: &[u8]) -> Result<Option<String>> {
    let f = ElfFile::parse(elf).map_err(|e| Error::setup(format!("ELF: {e}")))?;
    Ok(f.symbols
        .iter()
        .find(|s| s.name.starts_with("gcnc.part.cs_prolog."))
        .map(|s| s.name.clone()))
}

/// Prepares and runs `elf`; the returned memory holds what the shader wrote.
pub fn run_elf(elf: &[u8], setup: &Setup) -> Result<(Prepared, Stats)> {
    let mut p = prepare(elf, setup)?;
    let stats = crate::run(&p.dispatch, &mut p.mem)?;
    Ok((p, stats))
}
