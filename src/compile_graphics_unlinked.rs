//! A vertex or a fragment shader compiled alone (issue 14): an unlinked stage ELF that
//! `link::link` completes with the vertex-fetch prolog and the export epilogs
//! (docs/link.md "Graphics parts").
//!
//! ```text
//! compile_graphics::compile_stage_linking (every graphics stage is a main part)
//!     (isel/graphics/parts.rs: inputs in prolog VGPRs, `s_branch gcnc.next` + the
//!      epilog's values instead of exports)
//! StageInterface    what the link needs of the stage: the registers of its values (read
//!                   off the final branch after allocation), its inputs, its user data
//!                   and the facts of the pipeline metadata, as JSON in
//!                   `gcnc.prelink.graphics`
//! CodeObject        `_amdgpu_{vs,gs,ps}_main` at 0, the branch's R_AMDGPU_REL16 against
//!                   `gcnc.next`
//! ```
//!
//! Invariants: the ELF carries no pipeline state — no vertex-input state, no colour
//! formats, nothing of the other stage; the descriptor layout is the default packing and
//! specialization constants are applied (as for the whole-pipeline compile); the user-data
//! placement is the backend's (the link keeps it).

use crate::amdgpu::abi_graphics::GraphicsState;
use crate::amdgpu::isel::graphics::parts::{SLOT_ATTR_OFFSET, SLOT_GLOBAL_TABLE, SLOT_VIEW_INDEX};
use crate::amdgpu::{isel, mir};
use crate::binary::elf_write::{CodeObject, FuncSymbol};
use crate::binary::metadata::{ApiShader, ApiStage, HardwareStage, PipelineMetadata};
use crate::binary::prelink::{PreLinkMetadata, PrelinkSymbol};
use crate::binary::{msgpack::Key, HwStage, PalMetadata, Value};
use crate::compile::Options;
use crate::compile_graphics::{compile_stage_linking, CompiledStage};
use crate::error::Error;
use crate::ir::Stage;
use crate::isa::{Opcode, Target};
use crate::settings::{Phase, Timer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `gcnc.prelink` key holding the [`StageInterface`] (JSON text).
pub const KEY_GRAPHICS: &str = ".graphics";

/// Per epilog value run: (output slot, each register or none).
pub type OutputRegisters = Vec<(u32, Vec<Option<u16>>)>;

/// What the link needs of an unlinked graphics stage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageInterface {
    /// Registers the main part uses (the metadata's counts).
    pub vgprs: u32,
    pub sgprs: u32,
    pub scratch_bytes: u32,
    /// The user-data map (index = user SGPR; `UserData::encode` values).
    pub user_data: Vec<u32>,
    /// The values handed to the epilog: (output slot, each register or none). Slots:
    /// locations below 64, `isel::graphics::SLOT_*`, [`SLOT_GLOBAL_TABLE`] and
    /// [`SLOT_ATTR_OFFSET`], [`SLOT_VIEW_INDEX`] (SGPRs).
    pub outputs: OutputRegisters,
    /// Vertex stage: (location, first VGPR, VGPRs) the fetch prolog fills.
    pub inputs: Vec<(u32, u16, u8)>,
    /// Vertex stage: VGPR_COMP_CNT, clip and cull distance counts.
    pub vgpr_comp_cnt: u32,
    /// Vertex stage: the primitive id is kept for the epilog (`GraphicsAbi::
    /// vs_primitive_id`).
    #[serde(default)]
    pub primitive_id: bool,
    pub clip_distances: u32,
    pub cull_distances: u32,
    /// Fragment stage: SPI_PS_INPUT_ENA, the attributes (location, flat) in order, and
    /// the DB_SHADER_CONTROL facts.
    pub ps_input_ena: u32,
    pub ps_attributes: Vec<(u32, bool)>,
    /// Fragment stage: the locations read per vertex (passthrough mode).
    #[serde(default)]
    pub ps_per_vertex: Vec<u32>,
    pub can_discard: bool,
    pub early_fragment_tests: bool,
    pub writes_memory: bool,
    /// Fragment stage: a sample-rate shader (`GraphicsAbi::ps_sample_rate`).
    #[serde(default)]
    pub ps_sample_rate: bool,
    /// Fragment stage: the centre barycentrics must stay the pixel centre
    /// (`GraphicsAbi::ps_exact_center`).
    #[serde(default)]
    pub ps_exact_center: bool,
}

impl StageInterface {
    /// The interface of an unlinked stage's metadata (`None`: not a graphics stage).
    pub fn from_prelink(p: &PreLinkMetadata) -> Option<Result<StageInterface, String>> {
        let v = p.extra.get(&Key::str(KEY_GRAPHICS))?;
        Some(match v.as_str() {
            Some(text) => serde_json::from_str(text).map_err(|e| e.to_string()),
            None => Err(format!("gcnc.prelink{KEY_GRAPHICS} is not a string")),
        })
    }

    /// The output run of `slot`.
    pub fn output(&self, slot: u32) -> Option<&[Option<u16>]> {
        self.outputs
            .iter()
            .find(|o| o.0 == slot)
            .map(|o| o.1.as_slice())
    }
}

/// The stage of the entry point `entry` (the first one when `None`) of a SPIR-V module,
/// read off its `OpEntryPoint`s; `None` when there is none (or the words are malformed:
/// the front end reports that properly).
pub fn entry_stage(words: &[u32], entry: Option<&str>) -> Option<Stage> {
    let mut at = 5;
    while at < words.len() {
        let (wc, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if wc == 0 || at + wc > words.len() {
            return None;
        }
        if op == 15 && wc >= 4 {
            let name: Vec<u8> = words[at + 3..at + wc]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take_while(|&b| b != 0)
                .collect();
            if entry.is_none_or(|e| e.as_bytes() == name.as_slice()) {
                return match words[at + 1] {
                    0 => Some(Stage::Vertex),
                    4 => Some(Stage::Fragment),
                    5 => Some(Stage::Compute),
                    _ => None,
                };
            }
        }
        at += wc;
    }
    None
}

/// An unlinked vertex or fragment stage.
#[derive(Clone, Debug)]
pub struct UnlinkedStage {
    pub elf: Vec<u8>,
    pub compiled: CompiledStage,
    pub interface: StageInterface,
}

/// Compiles the `stage` entry point of `words` alone (specialization constants from
/// `opts.spec`) into an unlinked stage ELF.
pub fn compile_stage_unlinked(
    words: &[u32],
    stage: Stage,
    opts: &Options,
) -> Result<UnlinkedStage, Error> {
    // the fragment stage it will be linked with may read gl_PrimitiveID
    let link = isel::LinkTime {
        vs_primitive_id: stage == Stage::Vertex,
        ..Default::default()
    };
    let mut timer = Timer::new(&opts.settings, Phase::Front);
    let c = compile_stage_linking(
        words,
        stage,
        opts,
        &GraphicsState::default(),
        &link,
        &mut timer,
    )?;
    let (interface, obj) = stage_object(&c, opts.target)?;
    let elf = obj.write()?;
    Ok(UnlinkedStage {
        elf,
        compiled: c,
        interface,
    })
}

/// The registers of the final branch's values, in `epilog_values` runs.
fn epilog_registers(p: &mir::Program) -> Result<OutputRegisters, Error> {
    let bad = |m: String| Error::from(crate::amdgpu::Error::Verify(m));
    let next = p.symbols.iter().position(|s| *s == PrelinkSymbol::Next);
    let branch = p
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .find(|i| {
            i.opcode() == Some(Opcode::SBranch)
                && matches!(i.ops.get(1), Some(mir::Arg::Symbol(k)) if Some(*k as usize) == next)
        })
        .ok_or_else(|| bad("an unlinked graphics stage without its branch to the epilog".into()))?;
    let mut vals = branch.ops[2..].iter();
    let mut out = Vec::new();
    for &(slot, n) in &p.abi.graphics.epilog_values {
        let mut regs = Vec::new();
        for _ in 0..n {
            regs.push(match vals.next() {
                Some(mir::Arg::Off) => None,
                Some(mir::Arg::Reg(r)) if r.count == 1 && r.base.is_vgpr() => {
                    Some(r.base.0 - crate::isa::PhysReg::vgpr(0).0)
                }
                Some(mir::Arg::Reg(r))
                    if r.count == 1
                        && matches!(
                            slot,
                            SLOT_GLOBAL_TABLE | SLOT_ATTR_OFFSET | SLOT_VIEW_INDEX
                        ) =>
                {
                    Some(r.base.0)
                }
                other => return Err(bad(format!("epilog value {other:?} of slot {slot}"))),
            });
        }
        out.push((slot, regs));
    }
    Ok(out)
}

fn interface(c: &CompiledStage) -> Result<StageInterface, Error> {
    let info = c.info();
    let g = &info.abi;
    Ok(StageInterface {
        vgprs: info.vgprs,
        sgprs: info.sgprs,
        scratch_bytes: info.scratch_bytes_per_lane,
        user_data: info.user_data.iter().map(|u| u.encode()).collect(),
        outputs: epilog_registers(&c.program)?,
        inputs: g
            .prolog_inputs
            .iter()
            .map(|(&loc, &(first, n))| (loc, first, n))
            .collect(),
        vgpr_comp_cnt: g.vgpr_comp_cnt,
        primitive_id: g.vs_primitive_id,
        clip_distances: g.clip_distances,
        cull_distances: g.cull_distances,
        ps_input_ena: g.ps_input_ena,
        ps_attributes: g.ps_attributes.clone(),
        ps_per_vertex: g.ps_per_vertex.clone(),
        can_discard: g.can_discard,
        early_fragment_tests: g.early_fragment_tests,
        writes_memory: g.writes_memory,
        ps_sample_rate: g.ps_sample_rate,
        ps_exact_center: g.ps_exact_center,
    })
}

/// The unlinked stage as a code object (what its ELF holds; the whole-pipeline compile
/// hands it to the link as it is): the code, the branch's relocation, the stage's hardware
/// entry and user-data registers, and `gcnc.prelink` with the interface.
pub(crate) fn stage_object(
    c: &CompiledStage,
    t: Target,
) -> Result<(StageInterface, CodeObject), Error> {
    let iface = interface(c)?;
    let stage = c.stage;
    let mut registers = BTreeMap::new();
    for (i, &u) in iface.user_data.iter().enumerate() {
        registers.insert(stage.user_data_base() + i as u32, u);
    }
    let hw = HardwareStage {
        entry_point: stage.entry_symbol(),
        scratch_memory_size: iface.scratch_bytes.next_multiple_of(16),
        lds_size: 0,
        sgpr_count: iface.sgprs,
        vgpr_count: iface.vgprs,
        wavefront_size: Some(t.wave),
        threadgroup_dimensions: None,
        extra: BTreeMap::new(),
    };
    let api = if stage == HwStage::Ps {
        ApiStage::Pixel
    } else {
        ApiStage::Vertex
    };
    let md = PalMetadata {
        version: Some(crate::binary::metadata::PAL_METADATA_VERSION),
        pipeline: PipelineMetadata {
            name: None,
            pipeline_type: if stage == HwStage::Vs { "VsPs" } else { "Ngg" }.into(),
            api: "Vulkan".into(),
            internal_pipeline_hash: [0, 0],
            shaders: BTreeMap::from([(
                api,
                ApiShader {
                    api_shader_hash: [0, 0],
                    hardware_mapping: vec![stage],
                    extra: BTreeMap::new(),
                },
            )]),
            hardware_stages: BTreeMap::from([(stage, hw)]),
            registers,
            user_data_limit: 0,
            spill_threshold: 0xffff,
            extra: BTreeMap::new(),
        },
        prelink: None,
        extra: BTreeMap::new(),
    };
    let mut obj = CodeObject {
        gen: t.gen,
        text: c.text.clone(),
        functions: vec![FuncSymbol {
            name: stage.entry_symbol(),
            offset: 0,
            size: c.code_bytes as u64,
        }],
        relocations: c.relocations.clone(),
        metadata: md.to_value(),
    };
    let mut pl = PreLinkMetadata::new(stage);
    pl.missing_state = vec![
        if stage == HwStage::Ps {
            "color_export"
        } else {
            "vertex_input"
        }
        .into(),
        "vs_ps_linkage".into(),
    ];
    let json = serde_json::to_string(&iface).expect("the interface serialises");
    pl.extra.insert(Key::str(KEY_GRAPHICS), Value::str(&json));
    if let Some(at) = c.data_at {
        pl.set_constant_data(u64::from(at), c.text.len() as u64);
        obj.functions.push(FuncSymbol {
            name: format!(
                "{}{}",
                stage.entry_symbol(),
                crate::binary::elf_write::CONST_DATA_SUFFIX
            ),
            offset: u64::from(at),
            size: c.text.len() as u64 - u64::from(at),
        });
    }
    obj.set_prelink(&pl)?;
    obj.validate()?;
    Ok((iface, obj))
}
