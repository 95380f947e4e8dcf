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
use crate::memory::{BufferDesc, Memory};
use crate::wave::Checks;
use gcnc::amdgpu::abi::{PipelineLayout, DESCRIPTOR_BYTES, MAX_SETS};
use gcnc::binary::{ComputeShaderInfo, ElfFile, UserData};
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
    /// Only through its 64-bit device address, written at this byte offset of the
    /// push-constant block.
    PushAddress(u32),
    /// Only through its device address, written into resource `index` at byte `offset`
    /// (linked structures).
    ResourceAddress { index: usize, offset: u32 },
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
    /// GPU address of each `Setup::resources` entry.
    pub addrs: Vec<u64>,
    /// Byte size of each resource.
    pub sizes: Vec<usize>,
}

impl Prepared {
    /// The current contents of resource `index`.
    pub fn resource(&self, index: usize) -> Result<Vec<u8>> {
        let (a, n) = self
            .addrs
            .get(index)
            .zip(self.sizes.get(index))
            .ok_or_else(|| Error::setup(format!("no resource {index}")))?;
        self.mem.read_vec(*a, *n)
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
    let mut next = DATA_BASE;
    for r in &setup.resources {
        map_bytes(&mut mem, next, &r.data, 16)?;
        addrs.push(next);
        next += (r.data.len() as u64).max(16).next_multiple_of(0x1_0000);
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
    let binding_offset = |set: u32, binding: u32| -> Result<u32> {
        let linked = setup.link_state.as_ref().and_then(|s| {
            s.descriptor_layout
                .iter()
                .find(|b| (b.set, b.binding) == (set, binding) && b.kind == "buffer")
        });
        match linked {
            Some(b) => Ok(b.offset),
            None => setup
                .layout
                .binding_offset(set, binding)
                .map_err(|e| Error::setup(e.to_string())),
        }
    };
    let mut set_bytes = [0u64; MAX_SETS as usize];
    for r in &setup.resources {
        if let Place::Binding { set, binding } = r.place {
            if set >= MAX_SETS {
                return Err(Error::setup(format!(
                    "descriptor set {set} (0..{MAX_SETS})"
                )));
            }
            let off = binding_offset(set, binding)?;
            let end = off as u64 + DESCRIPTOR_BYTES as u64;
            set_bytes[set as usize] = set_bytes[set as usize].max(end);
        }
    }
    for (s, &n) in set_bytes.iter().enumerate() {
        mem.map(sets_base + s as u64 * SET_STRIDE, n.max(4096));
    }
    let mut push_patch = Vec::new();
    for (k, r) in setup.resources.iter().enumerate() {
        match r.place {
            Place::Binding { set, binding } => {
                let size = u32::try_from(r.data.len()).map_err(|_| {
                    Error::setup(format!("set {set} binding {binding}: buffer above 4 GiB"))
                })?;
                let off = binding_offset(set, binding)?;
                let base = sets_base + set as u64 * SET_STRIDE + off as u64;
                for (j, w) in BufferDesc::raw(gen, addrs[k], size).iter().enumerate() {
                    mem.write_u32(base + 4 * j as u64, *w)?;
                }
            }
            Place::PushAddress(off) => push_patch.push((PUSH_BASE + off as u64, addrs[k])),
            Place::ResourceAddress { index, offset } => {
                let (a, n) = addrs
                    .get(index)
                    .zip(setup.resources.get(index).map(|r| r.data.len()))
                    .ok_or_else(|| {
                        Error::setup(format!("resource {k}: address target {index} missing"))
                    })?;
                if offset as usize + 8 > n {
                    return Err(Error::setup(format!(
                        "resource {k}: address at byte {offset} of a {n}-byte resource"
                    )));
                }
                push_patch.push((a + offset as u64, addrs[k]));
            }
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
            Item::PushConstant(n) => {
                let at = 4 * *n as usize;
                let mut b = [0u8; 4];
                for (k, x) in b.iter_mut().enumerate() {
                    *x = setup.push.get(at + k).copied().unwrap_or(0);
                }
                u32::from_le_bytes(b)
            }
            Item::PushConstantPointer => half(PUSH_BASE, false),
            Item::PushConstantPointerHi => half(PUSH_BASE, true),
            Item::DescriptorTable => DESCRIPTOR_TABLE_LO,
            Item::Unused => 0,
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
    })
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
