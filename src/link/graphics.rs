//! Linking an unlinked vertex stage and an unlinked fragment stage
//! (`compile_graphics_unlinked`) with the graphics state into one VS+PS pipeline
//! (docs/link.md "Graphics parts").
//!
//! 1. Each stage's [`StageInterface`] comes out of its `gcnc.prelink`.
//! 2. Parts, from the interfaces and the state's vertex input and colour formats:
//!    - the vertex-fetch prolog when the vertex stage has inputs: each input location's
//!      attribute and binding (a location the state lacks is a `State` error), the
//!      registers the launch fills (VertexID/InstanceID at their ABI VGPRs; the table,
//!      BaseVertex and BaseInstance at the user SGPRs the stage's user-data map names);
//!    - the parameter-export epilog: the vertex stage's position values and, of its output
//!      locations, those the fragment stage reads, in the fragment stage's attribute order
//!      (the linkage: `SPI_PS_INPUT_CNTL_n.OFFSET` = the parameter, or the default value
//!      when the vertex stage does not write the location); when the fragment stage reads
//!      gl_PrimitiveID (`SLOT_PRIMITIVE_ID`, its last attribute), one more parameter with
//!      the id the vertex stage kept (GFX9 a VGPR, NGG its LDS hand-off);
//!    - the colour-export epilog: each colour output with the state's format for its
//!      location (the whole-pipeline default by width when the state names none).
//! 3. Chains `[user-data prolog] [prolog] vs-main epilog` and `[user-data prolog]
//!    [ps-prolog] ps-main epilog`; each main part's `gcnc.next`
//!    branch is renamed to its epilog's symbol, which the layout places right after it
//!    (fall-through).
//! 4. Metadata: `binary::graphics` builds the whole pipeline's registers from both
//!    stages' facts with the linkage and the formats above; register counts are the
//!    maxima over each chain's parts.
//!
//! The PS prolog (`parts::ps_prolog`) starts the fragment chain when the state forces
//! per-sample interpolation and inputs move; `gcnc.choice.per_sample` in a main part is
//! the state's sample shading (`relocated`). PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE is set for
//! a sample-rate main part, the state's sample shading and forced interpolation.
//!
//! User data: with a final layout for a stage (`stage_user_data.vertex` / `.fragment`,
//! docs/link.md "Graphics user data"), the stage's chain starts with the user-data prolog
//! (`parts::user_data_prolog`: moves and descriptor-table loads into the placement the
//! main part assumed) and the pipeline's user-data map is the layout's; without one the
//! stage keeps the placement it was compiled with. The compute `user_data` key is refused
//! (`State` error at `user_data`).

use super::error::{Error, Result};
use super::input::Input;
use super::layout::{self, Chain, ChainPart};
use super::state::{vertex_item_value, Item, PipelineState, StageUserData, UserDataLayout};
use super::{Linked, LinkedObject};
use crate::amdgpu::abi::set_entry;
use crate::amdgpu::abi_graphics::{
    vertex_is_ngg, ColorFormat, GraphicsAbi, GraphicsState, USER_DATA_BASE_INSTANCE,
    USER_DATA_BASE_VERTEX, USER_DATA_GLOBAL_TABLE, USER_DATA_VERTEX_BUFFER_TABLE,
};
use crate::amdgpu::isel::graphics::parts::{first_input_vgpr, SLOT_ATTR_OFFSET, SLOT_GLOBAL_TABLE};
use crate::amdgpu::isel::graphics::CHOICE_PER_SAMPLE;
use crate::amdgpu::isel::graphics::{
    SLOT_CLIP, SLOT_DUAL_SOURCE, SLOT_FRAG_DEPTH, SLOT_LAYER, SLOT_POINT_SIZE, SLOT_POSITION,
    SLOT_PRIMITIVE_ID, SLOT_PRIMITIVE_SHADING_RATE, SLOT_SAMPLE_MASK, SLOT_VIEWPORT,
};
use crate::binary::graphics::{GraphicsPipelineInfo, GraphicsStageInfo};
use crate::binary::prelink::PrelinkSymbol;
use crate::binary::{HwStage, UserData};
use crate::compile_graphics_unlinked::StageInterface;
use crate::parts::ps_prolog::pipeline_ena;
use crate::parts::vs_prolog::FetchedAttribute;
use crate::parts::{
    CsPrologKey, Part, PartCache, PartKey, PsEpilogKey, PsPrologKey, UserDataPrologKey,
    VsEpilogKey, VsPrologKey,
};
use std::borrow::Cow;
use std::sync::Arc;

/// Whether `s` is an unlinked graphics stage.
pub fn is_graphics(s: &Input) -> bool {
    matches!(s.stage, HwStage::Vs | HwStage::Gs | HwStage::Ps)
}

/// The stage's interface, decoded when the input was read.
fn interface(s: &Input) -> Result<&StageInterface> {
    match &s.interface {
        Some(Ok(i)) => Ok(i),
        Some(Err(reason)) => Err(Error::NotUnlinked {
            input: s.index,
            reason: reason.clone(),
        }),
        None => Err(Error::NotUnlinked {
            input: s.index,
            reason: "no gcnc.prelink.graphics interface".into(),
        }),
    }
}

/// The two stages (vertex, fragment) with their interfaces.
fn stages(shaders: &[Input]) -> Result<[(&Input, &StageInterface); 2]> {
    let find = |want: &[HwStage], what: &str| {
        shaders
            .iter()
            .find(|s| want.contains(&s.stage))
            .ok_or_else(|| Error::NotUnlinked {
                input: shaders.len(),
                reason: format!("a graphics link needs a {what} stage"),
            })
    };
    let vs = find(&[HwStage::Vs, HwStage::Gs], "vertex")?;
    let ps = find(&[HwStage::Ps], "fragment")?;
    if let Some(other) = shaders.iter().find(|s| !is_graphics(s)) {
        return Err(Error::NotUnlinked {
            input: other.index,
            reason: format!("a {} shader in a graphics link", other.stage.short()),
        });
    }
    Ok([(vs, interface(vs)?), (ps, interface(ps)?)])
}

/// The compiler form of the state's graphics part.
fn graphics_state(state: &PipelineState) -> Result<GraphicsState> {
    let st = state.graphics.as_ref().map(|g| g.to_state());
    checked_graphics(state, st.transpose()?)
}

/// The graphics state `st` converted from `state` (or none), if a graphics link can use
/// it.
fn checked_graphics(state: &PipelineState, st: Option<GraphicsState>) -> Result<GraphicsState> {
    if state.user_data.is_some() {
        return Err(Error::state(
            "user_data",
            "`user_data` is the compute stage's layout; a graphics link takes each stage's \
             as `stage_user_data.vertex` / `.fragment`",
        ));
    }
    st.ok_or_else(|| {
        Error::state(
            "graphics",
            "a vertex + fragment link needs the vertex-input and colour-export state",
        )
    })
}

/// The user SGPR (counted from the stage's first) holding PAL value `value`.
fn user_sgpr(iface: &StageInterface, value: u32) -> Option<u16> {
    iface
        .user_data
        .iter()
        .position(|&u| match UserData::decode(u) {
            Some(UserData::GlobalTable) => value == USER_DATA_GLOBAL_TABLE,
            Some(UserData::Special(v)) => v == value,
            _ => false,
        })
        .map(|i| i as u16)
}

/// Everything the link decides: the part keys and the linkage.
struct Plan {
    prolog: Option<VsPrologKey>,
    vs_epilog: VsEpilogKey,
    ps_prolog: Option<PsPrologKey>,
    /// SPI_PS_INPUT_ENA of the pipeline (the main part's, plus what the PS prolog reads).
    ps_ena: u32,
    ps_epilog: PsEpilogKey,
    /// The vertex output locations exported as parameters, in parameter order.
    params: Vec<u32>,
    /// Each stage's user-data prolog (vertex, fragment) when its final layout differs
    /// from the placement it was compiled with.
    user_data: [Option<UserDataPrologKey>; 2],
    /// Each stage's final user-data map (the state's layout, or the compiled one).
    user_maps: [Vec<UserData>; 2],
}

fn plan(
    vs: &Input,
    vi: &StageInterface,
    ps: &Input,
    pi: &StageInterface,
    st: &GraphicsState,
    layouts: Option<&StageUserData>,
) -> Result<Plan> {
    let reads: Vec<u32> = pi.ps_attributes.iter().map(|a| a.0).collect();
    let (prolog, vs_epilog, params) = vs_plan(vs, vi, &reads, st)?;
    let (ps_prolog, ps_ena) = ps_prolog_plan(ps, pi, st)?;
    let vs_next = prolog.clone().map_or(vs.main_symbol().to_string(), |k| {
        PartKey::VsProlog(k).symbol()
    });
    let ps_next = ps_prolog.clone().map_or(ps.main_symbol().to_string(), |k| {
        PartKey::PsProlog(k).symbol()
    });
    let (vs_ud, vs_map) = user_data_plan(
        vs,
        vi,
        layouts.and_then(|l| l.vertex.as_ref()),
        "stage_user_data.vertex",
        vs_next,
    )?;
    let (ps_ud, ps_map) = user_data_plan(
        ps,
        pi,
        layouts.and_then(|l| l.fragment.as_ref()),
        "stage_user_data.fragment",
        ps_next,
    )?;
    Ok(Plan {
        prolog,
        vs_epilog,
        ps_prolog,
        ps_ena,
        ps_epilog: ps_plan(ps, pi, st)?,
        params,
        user_data: [vs_ud, ps_ud],
        user_maps: [vs_map, ps_map],
    })
}

/// The layout item a graphics stage's user SGPR holds under the backend's ABI
/// (docs/abi.md: entries 0/1 the push-constant pointer, 2 + 2s / 3 + 2s set s's; PAL's
/// global table and the vertex stage's launch values), from its PAL mapping value.
fn assumed_item(pal: u32) -> Option<Item> {
    use crate::amdgpu::abi::PUSH_CONSTANT_ENTRY;
    Some(match UserData::decode(pal)? {
        UserData::Entry(n) if n == PUSH_CONSTANT_ENTRY => Item::PushConstantPointer,
        UserData::Entry(n) if n == PUSH_CONSTANT_ENTRY + 1 => Item::PushConstantPointerHi,
        UserData::Entry(n) if n >= set_entry(0) && n % 2 == 0 => {
            Item::DescriptorSet((n - set_entry(0)) / 2)
        }
        UserData::Entry(n) if n >= set_entry(0) => Item::DescriptorSetHi((n - set_entry(0)) / 2),
        UserData::GlobalTable => Item::GlobalTable,
        UserData::Unused => Item::Unused,
        UserData::Special(v) => [
            Item::VertexBufferTable,
            Item::BaseVertex,
            Item::BaseInstance,
            Item::DrawIndex,
        ]
        .into_iter()
        .find(|i| vertex_item_value(i) == Some(v))?,
        _ => return None,
    })
}

/// One stage's user-data prolog (`parts::user_data_prolog`) under the state's final
/// `layout` for it, continuing at `next`, and the stage's final user-data map. No layout:
/// the placement the stage was compiled with, no prolog. System SGPRs after the user
/// SGPRs (docs/abi.md): the PS's PRIM_MASK, then on GFX9/GFX10.3 the scratch wave offset
/// of a PS or a hardware VS with scratch; an NGG stage's come before them (base s8).
fn user_data_plan(
    s: &Input,
    i: &StageInterface,
    layout: Option<&UserDataLayout>,
    path: &str,
    next: String,
) -> Result<(Option<UserDataPrologKey>, Vec<UserData>)> {
    let compiled = || {
        i.user_data
            .iter()
            .filter_map(|&u| UserData::decode(u))
            .collect()
    };
    let Some(layout) = layout else {
        return Ok((None, compiled()));
    };
    let outputs = i
        .user_data
        .iter()
        .enumerate()
        .map(|(j, &u)| {
            assumed_item(u).ok_or_else(|| {
                Error::state(
                    path,
                    format!(
                        "the {} stage assumes PAL value {u:#x} in user SGPR {j}, which a \
                         layout cannot supply",
                        s.stage.short()
                    ),
                )
            })
        })
        .collect::<Result<Vec<Item>>>()?;
    let scratch = i.scratch_bytes > 0 && s.target.gen < crate::isa::Gen::Gfx11;
    let (base, system_sgprs) = match s.stage {
        HwStage::Ps => (0, 1 + scratch as u16),
        HwStage::Gs => (8, 0),
        _ => (0, scratch as u16),
    };
    let key = UserDataPrologKey {
        stage: s.stage,
        base,
        sgprs: CsPrologKey {
            target: s.target,
            inputs: layout.sgprs.iter().map(|u| u.item.clone()).collect(),
            table: layout.table.clone(),
            outputs,
            system_sgprs,
            next,
        },
    };
    let needed = key
        .needed()
        .map_err(|e| Error::state(path, e.to_string()))?;
    let map = layout.sgprs.iter().filter_map(|u| u.pal()).collect();
    Ok((needed.then_some(key), map))
}

/// The vertex stage's parts: the fetch prolog (when it has inputs) and the epilog
/// exporting, of its output locations, those in `reads` in that order; with the locations
/// exported.
fn vs_plan(
    vs: &Input,
    vi: &StageInterface,
    reads: &[u32],
    st: &GraphicsState,
) -> Result<(Option<VsPrologKey>, VsEpilogKey, Vec<u32>)> {
    let t = vs.target;
    let ngg = vertex_is_ngg(t.gen);
    let sbase: u16 = if ngg { 8 } else { 0 };
    let prolog = if vi.inputs.is_empty() {
        None
    } else {
        let mut attributes = Vec::new();
        for &(location, first, count) in &vi.inputs {
            let a = st.attributes.get(&location).ok_or_else(|| {
                Error::state(
                    "graphics.vertex_attributes",
                    format!("the vertex shader reads location {location}, which has no attribute"),
                )
            })?;
            let b = st.bindings.get(&a.binding).ok_or_else(|| {
                Error::state(
                    "graphics.vertex_bindings",
                    format!(
                        "attribute {location} reads binding {}, which is not bound",
                        a.binding
                    ),
                )
            })?;
            attributes.push(FetchedAttribute {
                location,
                first,
                count,
                binding: a.binding,
                offset: a.offset,
                format: a.format,
                per_instance: b.per_instance,
                divisor: b.divisor,
            });
        }
        let sgpr = |v: u32, what: &str| {
            user_sgpr(vi, v)
                .map(|i| sbase + i)
                .ok_or_else(|| Error::NotUnlinked {
                    input: vs.index,
                    reason: format!("the vertex stage has inputs but no {what} user SGPR"),
                })
        };
        let vid = if ngg { 5 } else { 0 };
        Some(VsPrologKey {
            target: t,
            attributes,
            vertex_id: vid,
            instance_id: if ngg { 8 } else { 1 },
            vb_table: sgpr(USER_DATA_VERTEX_BUFFER_TABLE, "vertex-buffer table")?,
            base_vertex: sgpr(USER_DATA_BASE_VERTEX, "BaseVertex")?,
            base_instance: sgpr(USER_DATA_BASE_INSTANCE, "BaseInstance")?,
            launch_sgprs: sbase + vi.user_data.len() as u16,
            next: vs.main_symbol().into(),
        })
    };
    debug_assert!(prolog.as_ref().is_none_or(|p| p
        .attributes
        .iter()
        .all(|a| a.first >= first_input_vgpr(t.gen))));
    let missing = |what: &str| Error::NotUnlinked {
        input: vs.index,
        reason: format!("the vertex stage's interface has no {what}"),
    };
    let pos = vi
        .output(SLOT_POSITION)
        .ok_or_else(|| missing("position"))?;
    let pos: Vec<u16> = pos
        .iter()
        .map(|r| r.ok_or_else(|| missing("position VGPR")))
        .collect::<Result<_>>()?;
    let mut params = Vec::new();
    let mut param_regs = Vec::new();
    let mut primitive_id_lds = None;
    for &loc in reads {
        if loc == SLOT_PRIMITIVE_ID {
            // gl_PrimitiveID: one more flat parameter, x = the id (GFX9 the main part's v2;
            // NGG loaded from LDS by the epilog)
            let r = vi.output(loc).ok_or_else(|| Error::NotUnlinked {
                input: vs.index,
                reason: "the fragment stage reads gl_PrimitiveID, and the vertex stage did \
                         not keep the primitive id for its epilog"
                    .into(),
            })?;
            params.push(loc);
            if ngg {
                primitive_id_lds = Some(param_regs.len());
                param_regs.push([None; 4]);
            } else {
                param_regs.push([r.first().copied().flatten(), None, None, None]);
            }
            continue;
        }
        if let Some(r) = vi.output(loc) {
            params.push(loc);
            let mut c = [None; 4];
            for (k, x) in r.iter().take(4).enumerate() {
                c[k] = *x;
            }
            param_regs.push(c);
        }
    }
    let vs_epilog = VsEpilogKey {
        target: t,
        pos: [pos[0], pos[1], pos[2], pos[3]],
        point_size: vi.output(SLOT_POINT_SIZE).and_then(|r| r[0]),
        shading_rate: vi.output(SLOT_PRIMITIVE_SHADING_RATE).and_then(|r| r[0]),
        layer: vi.output(SLOT_LAYER).and_then(|r| r[0]),
        viewport: vi.output(SLOT_VIEWPORT).and_then(|r| r[0]),
        distances: vi
            .output(SLOT_CLIP)
            .map_or(Vec::new(), |r| r.iter().flatten().copied().collect()),
        params: param_regs,
        global_table: vi.output(SLOT_GLOBAL_TABLE).and_then(|r| r[0]),
        attr_offset: vi.output(SLOT_ATTR_OFFSET).and_then(|r| r[0]),
        primitive_id_lds,
    };
    Ok((prolog, vs_epilog, params))
}

/// The fragment stage's PS prolog (`parts::ps_prolog`), when the state changes what its
/// input VGPRs hold, and the pipeline's SPI_PS_INPUT_ENA. Forced per-sample interpolation
/// of a main part that extrapolates from the pixel centre (interpolateAtOffset/AtSample)
/// is refused: the prolog would hand it the sample's barycentrics as the centre.
fn ps_prolog_plan(
    ps: &Input,
    pi: &StageInterface,
    st: &GraphicsState,
) -> Result<(Option<PsPrologKey>, u32)> {
    let force = st.force_sample_interpolation;
    if force && pi.ps_exact_center {
        return Err(Error::state(
            "graphics.force_sample_interpolation",
            "the fragment shader interpolates at an offset or a sample from the pixel \
             centre, which forced per-sample interpolation replaces",
        ));
    }
    let key = PsPrologKey::for_state(ps.target, pi.ps_input_ena, force, ps.main_symbol());
    Ok((key, pipeline_ena(pi.ps_input_ena, force)))
}

/// The relocated values of a graphics link: `state`'s, with `gcnc.choice.per_sample`
/// from the graphics state's sample shading when a stage reads it (a `choices` entry
/// that contradicts it is a `State` error).
fn relocated<'a>(
    state: &'a PipelineState,
    st: &GraphicsState,
    stages: &[&Input],
) -> Result<Cow<'a, PipelineState>> {
    let sym = PrelinkSymbol::Choice(CHOICE_PER_SAMPLE.into()).name();
    let reads = stages
        .iter()
        .any(|s| s.relocations.iter().any(|r| r.symbol == sym));
    match state.choices.get(CHOICE_PER_SAMPLE) {
        Some(&c) if c != st.sample_shading => Err(Error::state(
            "choices.per_sample",
            format!(
                "{c}, but the graphics state's sample shading is {}",
                st.sample_shading
            ),
        )),
        None if reads => {
            let mut s = state.clone();
            s.choices
                .insert(CHOICE_PER_SAMPLE.into(), st.sample_shading);
            Ok(Cow::Owned(s))
        }
        _ => Ok(Cow::Borrowed(state)),
    }
}

/// The fragment stage's colour-export epilog: each colour output with the state's format
/// for its location (the whole-pipeline default by width when the state names none),
/// keeping only the channels the state says the attachment uses (none: no export);
/// location 0's second source with dual-source blending; the alpha test on location 0's
/// alpha as the shader wrote it (before any channel is dropped).
fn ps_plan(ps: &Input, pi: &StageInterface, st: &GraphicsState) -> Result<PsEpilogKey> {
    let four = |r: &[Option<u16>]| {
        let mut c = [None; 4];
        for (k, x) in r.iter().take(4).enumerate() {
            c[k] = *x;
        }
        c
    };
    let masked = |c: [Option<u16>; 4], mask: u32| {
        let mut c = c;
        for (k, x) in c.iter_mut().enumerate() {
            if mask >> k & 1 == 0 {
                *x = None;
            }
        }
        c
    };
    let mut colors = Vec::new();
    let mut alpha0 = None;
    for (slot, r) in &pi.outputs {
        if *slot >= SLOT_POSITION {
            continue;
        }
        let c = four(r);
        if *slot == 0 {
            alpha0 = c[3];
        }
        let mask = st.channels(*slot);
        if mask == 0 {
            continue;
        }
        let comps = 4 - c.iter().rev().take_while(|x| x.is_none()).count() as u32;
        let f = st
            .color
            .get(slot)
            .copied()
            .unwrap_or_else(|| ColorFormat::for_components(comps));
        colors.push((*slot, f, masked(c, mask)));
    }
    let unsatisfiable = |why: String| Error::NotUnlinked {
        input: ps.index,
        reason: why,
    };
    let dual_source = if st.dual_source {
        let src1 = pi.output(SLOT_DUAL_SOURCE).ok_or_else(|| {
            unsatisfiable(
                "the state blends with two sources but the fragment shader writes no Index 1 output".into(),
            )
        })?;
        if let Some(c) = colors.iter().find(|c| c.0 != 0) {
            return Err(Error::state(
                "graphics.dual_source",
                format!(
                    "dual-source blending takes colour output 0 alone, but the fragment shader writes location {}",
                    c.0
                ),
            ));
        }
        // a masked-out location 0 exports neither source
        colors.first().map(|_| masked(four(src1), st.channels(0)))
    } else {
        None
    };
    let depth = pi.output(SLOT_FRAG_DEPTH).and_then(|r| r[0]);
    let sample_mask = pi.output(SLOT_SAMPLE_MASK).and_then(|r| r[0]);
    // GFX11 reads alpha to coverage's alpha from MRTZ when there is an MRTZ export
    let mrtz_alpha = (st.alpha_to_coverage
        && ps.target.gen == crate::isa::Gen::Gfx11
        && (depth.is_some() || sample_mask.is_some()))
    .then_some(alpha0)
    .flatten();
    Ok(PsEpilogKey {
        target: ps.target,
        colors,
        depth,
        sample_mask,
        mrtz_alpha,
        dual_source,
        alpha_test: st.alpha_test.map(|t| (t, alpha0)),
    })
}

/// The colour exports of the metadata (`SPI_SHADER_COL_FORMAT`, `CB_SHADER_MASK`): each
/// exported location with its format, and with dual-source blending MRT 1 with location
/// 0's format (as RADV programs it, GFX11's `dual_src_blend` exports included).
fn ps_colors(k: &PsEpilogKey) -> Vec<(u32, ColorFormat)> {
    let mut v: Vec<(u32, ColorFormat)> = k.colors.iter().map(|c| (c.0, c.1)).collect();
    if k.dual_source.is_some() {
        if let Some(&(_, f)) = v.first() {
            v.push((1, f));
        }
    }
    v
}

/// The relocatable items of the sample locations when the fragment stage loads them
/// (compiled without the sample count: `isel::graphics` `sample_position`), from the
/// state's sample count; a `State` error when the state gives none.
fn sample_location_items(ps: &Input, st: &GraphicsState) -> Result<Option<[(String, u32); 2]>> {
    use crate::amdgpu::abi_graphics::{packed_sample_locations, ITEM_SAMPLE_LOCATIONS};
    let names = ITEM_SAMPLE_LOCATIONS.map(|n| PrelinkSymbol::Item(n.into()).name());
    if !ps.relocations.iter().any(|r| names.contains(&r.symbol)) {
        return Ok(None);
    }
    let words = packed_sample_locations(st.samples).ok_or_else(|| {
        Error::state(
            "graphics.samples",
            "the fragment shader reads sample locations (gl_SamplePosition, \
             interpolateAtSample), which need the pipeline's sample count",
        )
    })?;
    let [x, y] = ITEM_SAMPLE_LOCATIONS;
    Ok(Some([(x.into(), words[0]), (y.into(), words[1])]))
}

/// CB_TARGET_MASK: each colour attachment's write mask at its MRT — the attachments of
/// the state, or with none named the exported locations (the default state's one
/// attachment per output).
fn cb_target_mask(st: &GraphicsState, k: &PsEpilogKey) -> u32 {
    let locations: Vec<u32> = if st.color.is_empty() {
        k.colors.iter().map(|c| c.0).collect()
    } else {
        st.color.keys().copied().collect()
    };
    locations
        .into_iter()
        .fold(0, |m, l| m | st.write_mask(l) << (4 * l))
}

/// The part keys a graphics link of `shaders` builds.
pub fn needed_parts(shaders: &[Input], state: &PipelineState) -> Result<Vec<PartKey>> {
    let st = graphics_state(state)?;
    let [(vs, vi), (ps, pi)] = stages(shaders)?;
    let p = plan(vs, vi, ps, pi, &st, state.stage_user_data.as_ref())?;
    let [vs_ud, ps_ud] = p.user_data;
    let mut keys: Vec<PartKey> = vs_ud.into_iter().map(PartKey::UserDataProlog).collect();
    keys.extend(p.prolog.map(PartKey::VsProlog));
    keys.push(PartKey::VsEpilog(p.vs_epilog));
    keys.extend(ps_ud.map(PartKey::UserDataProlog));
    keys.extend(p.ps_prolog.map(PartKey::PsProlog));
    keys.push(PartKey::PsEpilog(p.ps_epilog));
    Ok(keys)
}

fn get(parts: &PartCache, key: PartKey) -> Result<Arc<Part>> {
    parts
        .get(&key)
        .map_err(|e| Error::state("graphics", e.to_string()))
}

/// The main part with its `gcnc.next` branch aimed at `epilog`.
fn main_before<'a>(s: &'a Input, epilog: &Part) -> ChainPart<'a> {
    let mut m = ChainPart::main(s);
    let next = PrelinkSymbol::Next.name();
    if m.relocations.iter().any(|r| r.symbol == next) {
        for r in m.relocations.to_mut() {
            if r.symbol == next {
                r.symbol.clone_from(&epilog.symbol);
            }
        }
    }
    m
}

/// Links the vertex and fragment stages among `shaders` with `state`.
pub fn link(shaders: &[Input], state: &PipelineState, parts: &PartCache) -> Result<Linked> {
    link_state(shaders, &graphics_state(state)?, state, parts)
}

/// [`link`] with `st`, the graphics state `state.validated()` converted.
pub(crate) fn link_validated(
    shaders: &[Input],
    state: &PipelineState,
    st: Option<GraphicsState>,
    parts: &PartCache,
) -> Result<Linked> {
    link_state(shaders, &checked_graphics(state, st)?, state, parts)
}

/// [`link`] with the graphics state handed over as the compiler's structure (the
/// whole-pipeline compile, `compile_graphics`); `state` gives only relocated values.
pub fn link_state(
    shaders: &[Input],
    st: &GraphicsState,
    state: &PipelineState,
    parts: &PartCache,
) -> Result<Linked> {
    let [(vs, vi), (ps, pi)] = stages(shaders)?;
    let t = vs.target;
    if ps.target != t {
        return Err(Error::TargetMismatch {
            input: ps.index,
            reason: format!("{:?} here, {:?} in the vertex stage", ps.target, t),
        });
    }
    let p = plan(vs, vi, ps, pi, st, state.stage_user_data.as_ref())?;
    let with_locations;
    let state = match sample_location_items(ps, st)? {
        Some(items) => {
            let mut s = state.clone();
            s.relocatable.extend(items);
            with_locations = s;
            &with_locations
        }
        None => state,
    };
    let prolog = p
        .prolog
        .clone()
        .map(|k| get(parts, PartKey::VsProlog(k)))
        .transpose()?;
    let vs_epilog = get(parts, PartKey::VsEpilog(p.vs_epilog.clone()))?;
    let ps_epilog = get(parts, PartKey::PsEpilog(p.ps_epilog.clone()))?;
    let ps_prolog = p
        .ps_prolog
        .clone()
        .map(|k| get(parts, PartKey::PsProlog(k)))
        .transpose()?;
    let [vs_ud, ps_ud] = p.user_data.clone().map(|k| {
        k.map(|k| get(parts, PartKey::UserDataProlog(k)))
            .transpose()
    });
    let (vs_ud, ps_ud) = (vs_ud?, ps_ud?);
    let mut ps_parts: Vec<ChainPart> = ps_ud
        .iter()
        .chain(&ps_prolog)
        .map(ChainPart::generated)
        .collect();
    ps_parts.push(main_before(ps, &ps_epilog));
    ps_parts.push(ChainPart::generated(&ps_epilog));
    let mut vs_parts: Vec<ChainPart> = vs_ud
        .iter()
        .chain(&prolog)
        .map(ChainPart::generated)
        .collect();
    vs_parts.push(main_before(vs, &vs_epilog));
    vs_parts.push(ChainPart::generated(&vs_epilog));
    let chains = [
        Chain {
            input: vs.index,
            stage: vs.stage,
            parts: vs_parts,
        },
        Chain {
            input: ps.index,
            stage: ps.stage,
            parts: ps_parts,
        },
    ];
    let laid = layout::lay_out(t.gen, &chains, &*relocated(state, st, &[vs, ps])?)?;

    // Metadata: both stages' facts with the linkage, counts over the parts.
    let counts = |i: &StageInterface, ps: &[&Arc<Part>]| {
        let v = ps.iter().map(|p| p.vgprs).fold(i.vgprs, u32::max);
        let s = ps.iter().map(|p| p.sgprs).fold(i.sgprs, u32::max);
        (v.max(1), s.max(1))
    };
    let mut vparts: Vec<&Arc<Part>> = vs_ud.iter().chain(&prolog).collect();
    vparts.push(&vs_epilog);
    let (vv, vsg) = counts(vi, &vparts);
    let mut pparts: Vec<&Arc<Part>> = ps_ud.iter().chain(&ps_prolog).collect();
    pparts.push(&ps_epilog);
    let (pv, psg) = counts(pi, &pparts);
    let [vs_map, ps_map] = p.user_maps.clone();
    let ndist = p.vs_epilog.distances.len() as u32;
    let misc = p.vs_epilog.writes_misc();
    let vs_abi = GraphicsAbi {
        vgpr_comp_cnt: vi.vgpr_comp_cnt,
        vs_params: p.params.clone(),
        vs_primitive_id: vi.primitive_id,
        pos_exports: 1 + misc as u32 + ndist.div_ceil(4),
        writes_point_size: p.vs_epilog.point_size.is_some(),
        writes_shading_rate: p.vs_epilog.shading_rate.is_some(),
        writes_layer: p.vs_epilog.layer.is_some(),
        writes_viewport: p.vs_epilog.viewport.is_some(),
        clip_distances: vi.clip_distances,
        cull_distances: vi.cull_distances,
        ..Default::default()
    };
    let ps_abi = GraphicsAbi {
        ps_input_ena: p.ps_ena,
        ps_sample_rate: pi.ps_sample_rate || st.sample_shading || st.force_sample_interpolation,
        ps_attributes: pi.ps_attributes.clone(),
        ps_per_vertex: pi.ps_per_vertex.clone(),
        colors: ps_colors(&p.ps_epilog),
        cb_target_mask: cb_target_mask(st, &p.ps_epilog),
        writes_depth: p.ps_epilog.depth.is_some(),
        writes_sample_mask: p.ps_epilog.sample_mask.is_some(),
        mrtz_alpha: p.ps_epilog.mrtz_alpha.is_some(),
        alpha_to_coverage: st.alpha_to_coverage,
        can_discard: pi.can_discard,
        early_fragment_tests: pi.early_fragment_tests,
        writes_memory: pi.writes_memory,
        ..Default::default()
    };
    let info = GraphicsPipelineInfo {
        target: t,
        vs: GraphicsStageInfo {
            stage: vs.stage,
            vgprs: vv,
            sgprs: vsg,
            user_data: vs_map,
            scratch_bytes_per_lane: vi.scratch_bytes,
            abi: vs_abi,
        },
        ps: GraphicsStageInfo {
            stage: ps.stage,
            vgprs: pv,
            sgprs: psg,
            user_data: ps_map,
            scratch_bytes_per_lane: pi.scratch_bytes,
            abi: ps_abi,
        },
    };
    let md = info
        .to_metadata()
        .map_err(|source| Error::Metadata { source })?;
    LinkedObject {
        gen: t.gen,
        text: laid.text,
        functions: laid.functions,
        metadata: md,
        tree: None,
    }
    .finish(laid.placed)
}

/// One stage alone with the parts `st` gives it, laid out as a one-chain program at 0
/// (`compile_graphics::compile_stage`): a vertex stage's epilog exports every output
/// location, in location order; a fragment stage's exports its colours.
pub fn link_stage(s: &Input, st: &GraphicsState, parts: &PartCache) -> Result<layout::Laid> {
    let iface = interface(s)?;
    let mut prolog = None;
    let epilog = if s.stage == HwStage::Ps {
        if let Some(k) = ps_prolog_plan(s, iface, st)?.0 {
            prolog = Some(get(parts, PartKey::PsProlog(k))?);
        }
        get(parts, PartKey::PsEpilog(ps_plan(s, iface, st)?))?
    } else {
        let every: Vec<u32> = iface
            .outputs
            .iter()
            .map(|o| o.0)
            .filter(|&l| l < SLOT_POSITION)
            .collect();
        let (prolog_key, epilog, _) = vs_plan(s, iface, &every, st)?;
        if let Some(k) = prolog_key {
            prolog = Some(get(parts, PartKey::VsProlog(k))?);
        }
        get(parts, PartKey::VsEpilog(epilog))?
    };
    let mut chain: Vec<ChainPart> = prolog.iter().map(ChainPart::generated).collect();
    chain.push(main_before(s, &epilog));
    chain.push(ChainPart::generated(&epilog));
    let one = Chain {
        input: s.index,
        stage: s.stage,
        parts: chain,
    };
    let none = PipelineState::default();
    layout::lay_out(s.target.gen, &[one], &*relocated(&none, st, &[s])?)
}
