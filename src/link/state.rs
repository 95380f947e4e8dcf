//! The pipeline state the link stage completes unlinked shaders with, and its JSON form
//! (the `--state` file of `gcnc link`).
//!
//! ```json
//! {
//!   "descriptor_layout": [
//!     {"set": 0, "binding": 1, "kind": "buffer", "offset": 32, "stride": 16}
//!   ],
//!   "user_data": {
//!     "sgprs": [ {"item": "global_table"},
//!                {"item": "descriptor_table", "entry": 0},
//!                {"item": {"push_constant": 0}, "entry": 1} ],
//!     "table": [ {"descriptor_set": 1}, {"descriptor_set": 0} ]
//!   },
//!   "spec_constants": {"3": 1065353216},
//!   "relocatable": {"shadow_desc_hi": 65535},
//!   "choices": {"per_sample": true}
//! }
//! ```
//!
//! - `descriptor_layout`: where each (set, binding, kind) descriptor sits in its set's
//!   memory: byte `offset` and array `stride`. Resolves `gcnc.desc.*` relocations.
//! - `user_data`: the final user-SGPR layout of the compute stage. `sgprs[i]` is what the
//!   driver puts in user SGPR i (`item`), and `entry` is the PAL user-data entry it comes
//!   from (required for everything but the global and spill tables, which PAL supplies).
//!   `table` lists what dword i of the descriptor table (pointed to by the
//!   `descriptor_table` SGPR, a 32-bit low address) holds. When absent, the shader keeps the
//!   placement it assumed and no CS prolog is built.
//! - `stage_user_data`: `{"vertex": L, "fragment": L}`, each stage's final layout in the
//!   same form (a graphics link; `user_data` is the compute stage's). The vertex stage's
//!   may also name `vertex_buffer_table`, `base_vertex`, `base_instance` and `draw_index`
//!   (PAL values the launch sets: no `entry`, never in a table).
//! - `spec_constants` (SpecId → 32-bit value), `relocatable` items and `choices` resolve
//!   `gcnc.spec.*`, `gcnc.item.*` and `gcnc.choice.*` (true = 1).
//!
//! Invariant after [`PipelineState::validate`]: (set, binding, kind) keys are unique, their
//! offsets and strides are multiples of 4 below 1 MiB, the
//! user-SGPR list fits the 16 compute user-data registers, the global table is only in
//! user SGPR 0, every driver-set slot names its entry, and a `table` needs a
//! `descriptor_table` slot.

use super::error::{Error, Result};
pub use crate::amdgpu::vertex_format::VertexFormat;
pub use crate::binary::prelink::Item;
use crate::binary::prelink::{DescKind, PrelinkSymbol};
use crate::binary::UserData;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Descriptor offsets and strides are below this (1 MiB of descriptor memory per set,
/// the backend ABI's limit).
pub use crate::amdgpu::abi::MAX_SET_BYTES as MAX_DESCRIPTOR_BYTES;

/// One descriptor's place in its set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BindingLayout {
    /// Descriptor set.
    pub set: u32,
    /// Binding.
    pub binding: u32,
    /// `buffer`, `image`, `sampler` or `texel_buffer`.
    pub kind: String,
    /// Byte offset of element 0 in the set.
    pub offset: u32,
    /// Byte stride between array elements.
    #[serde(default)]
    pub stride: u32,
}

/// One final user SGPR.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserSlot {
    /// What it holds.
    pub item: Item,
    /// PAL user-data entry it is loaded from (driver-set items).
    #[serde(default)]
    pub entry: Option<u32>,
}

impl UserSlot {
    /// The PAL mapping value (COMPUTE_USER_DATA_i).
    pub fn pal(&self) -> Option<UserData> {
        if let Some(v) = vertex_item_value(&self.item) {
            return self.entry.is_none().then_some(UserData::Special(v));
        }
        match (&self.item, self.entry) {
            (Item::GlobalTable, None) => Some(UserData::GlobalTable),
            (Item::SpillTable, None) => Some(UserData::SpillTable),
            (_, Some(n)) => Some(UserData::Entry(n)),
            _ => None,
        }
    }
}

/// The PAL value of a vertex-stage item the launch sets (no user-data entry).
pub fn vertex_item_value(item: &Item) -> Option<u32> {
    use crate::amdgpu::abi_graphics::{
        USER_DATA_BASE_INSTANCE, USER_DATA_BASE_VERTEX, USER_DATA_DRAW_INDEX,
        USER_DATA_VERTEX_BUFFER_TABLE,
    };
    Some(match item {
        Item::VertexBufferTable => USER_DATA_VERTEX_BUFFER_TABLE,
        Item::BaseVertex => USER_DATA_BASE_VERTEX,
        Item::BaseInstance => USER_DATA_BASE_INSTANCE,
        Item::DrawIndex => USER_DATA_DRAW_INDEX,
        _ => return None,
    })
}

/// The final user-data layout of the compute stage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserDataLayout {
    /// User SGPR i holds `sgprs[i]`.
    pub sgprs: Vec<UserSlot>,
    /// Dword i of the descriptor table holds `table[i]`.
    #[serde(default)]
    pub table: Vec<Item>,
}

/// The final user-data layouts of a graphics pipeline's two stages (docs/link.md
/// "Graphics user data"): each as the compute layout, with the vertex stage's PAL items
/// (`vertex_buffer_table`, `base_vertex`, `base_instance`, `draw_index`) besides. A stage
/// without one keeps the placement it was compiled with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageUserData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vertex: Option<UserDataLayout>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fragment: Option<UserDataLayout>,
}

impl UserDataLayout {
    /// The module doc's invariants of one layout; errors name `at` (its JSON path).
    fn validate(&self, at: &str, vertex: bool) -> Result<()> {
        if self.sgprs.len() > 16 {
            return Err(Error::state(
                format!("{at}.sgprs"),
                format!("{} user SGPRs; a stage has 16", self.sgprs.len()),
            ));
        }
        for (i, s) in self.sgprs.iter().enumerate() {
            let p = || format!("{at}.sgprs[{i}]");
            if s.item == Item::GlobalTable && i != 0 {
                return Err(Error::state(p(), "the global table must be user SGPR 0"));
            }
            if let (Some(_), false) = (vertex_item_value(&s.item), vertex) {
                return Err(Error::state(
                    p(),
                    format!("{} is a vertex-stage item", s.item.text()),
                ));
            }
            if vertex_item_value(&s.item).is_some() && s.entry.is_some() {
                return Err(Error::state(
                    p(),
                    format!(
                        "{} is set by the launch, not from an `entry`",
                        s.item.text()
                    ),
                ));
            }
            if s.pal().is_none() {
                return Err(Error::state(
                    p(),
                    format!(
                        "{} needs an `entry` (the PAL user-data entry)",
                        s.item.text()
                    ),
                ));
            }
            if matches!(s.entry, Some(n) if n > 127) {
                return Err(Error::state(p(), "user-data entries are 0..=127"));
            }
        }
        if !self.table.is_empty() && !self.sgprs.iter().any(|s| s.item == Item::DescriptorTable) {
            return Err(Error::state(
                format!("{at}.table"),
                "a descriptor table is listed but no user SGPR points to it",
            ));
        }
        if let Some(v) = self.table.iter().find(|t| vertex_item_value(t).is_some()) {
            return Err(Error::state(
                format!("{at}.table"),
                format!(
                    "{} is set per draw by the launch, not read from a table",
                    v.text()
                ),
            ));
        }
        if self.table.contains(&Item::DescriptorTable) {
            return Err(Error::state(
                format!("{at}.table"),
                "the descriptor table cannot contain itself",
            ));
        }
        Ok(())
    }
}

/// The complete (or completed) pipeline state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipelineState {
    /// Descriptor placement.
    #[serde(default)]
    pub descriptor_layout: Vec<BindingLayout>,
    /// Final user-data layout (compute).
    #[serde(default)]
    pub user_data: Option<UserDataLayout>,
    /// Specialization constants by SpecId.
    #[serde(default)]
    pub spec_constants: BTreeMap<u32, u32>,
    /// Relocatable items by name.
    #[serde(default)]
    pub relocatable: BTreeMap<String, u32>,
    /// Both-alternatives choices by name.
    #[serde(default)]
    pub choices: BTreeMap<String, bool>,
    /// The graphics state a vertex + fragment link needs (docs/link.md "Graphics parts").
    #[serde(default)]
    pub graphics: Option<GraphicsLinkState>,
    /// The final user-data layouts of the graphics stages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage_user_data: Option<StageUserData>,
}

/// One vertex-buffer binding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexBindingState {
    pub binding: u32,
    pub stride: u32,
    #[serde(default)]
    pub per_instance: bool,
    /// Per-instance bindings: instances per element (VK_EXT_vertex_attribute_divisor;
    /// 0 = every instance reads the first element). Default 1.
    #[serde(default = "divisor_one", skip_serializing_if = "is_one")]
    pub divisor: u32,
}

fn divisor_one() -> u32 {
    1
}

fn is_one(x: &u32) -> bool {
    *x == 1
}

/// One vertex attribute: an element of `format` (a VkFormat name without `VK_FORMAT_`,
/// `amdgpu::vertex_format`) at `offset` of `binding`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexAttributeState {
    pub location: u32,
    pub binding: u32,
    pub offset: u32,
    pub format: VertexFormat,
}

/// The export format of one colour output location (`SPI_SHADER_COL_FORMAT` names:
/// `32_R`, `32_GR`, `32_AR`, `32_ABGR`, `FP16_ABGR`, `UNORM16_ABGR`, `SNORM16_ABGR`,
/// `UINT16_ABGR`, `SINT16_ABGR`) and the channels its attachment uses (bit k: R, G, B, A
/// — the write mask, plus alpha when blending may read it; default all four, 0: the
/// location is not exported).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColorState {
    pub location: u32,
    pub format: String,
    #[serde(default = "all_channels", skip_serializing_if = "is_all_channels")]
    pub channels: u32,
    /// The attachment's write mask (bit k: R, G, B, A; default all four): the pipeline's
    /// CB_TARGET_MASK.
    #[serde(default = "all_channels", skip_serializing_if = "is_all_channels")]
    pub write_mask: u32,
}

fn all_channels() -> u32 {
    crate::amdgpu::abi_graphics::ALL_CHANNELS
}

fn is_all_channels(x: &u32) -> bool {
    *x == all_channels()
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}

fn is_false(x: &bool) -> bool {
    !*x
}

/// The alpha test (GL-style, an extension beyond Vulkan; docs/link.md): fragments whose
/// location-0 alpha fails `alpha <func> reference` are killed. `func`: `never`, `less`,
/// `equal`, `less_or_equal`, `greater`, `not_equal`, `greater_or_equal`, `always`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlphaTestState {
    pub func: String,
    /// A finite number, compared as an f32.
    pub reference: serde_json::Number,
}

/// The graphics pipeline state of a link.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GraphicsLinkState {
    #[serde(default)]
    pub vertex_bindings: Vec<VertexBindingState>,
    #[serde(default)]
    pub vertex_attributes: Vec<VertexAttributeState>,
    #[serde(default)]
    pub color_formats: Vec<ColorState>,
    /// Dual-source blending on colour location 0 (the fragment output with `Index` 1 is
    /// its second source).
    #[serde(default, skip_serializing_if = "is_false")]
    pub dual_source: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha_test: Option<AlphaTestState>,
    /// Rasterization samples (1, 2, 4 or 8; 0 or absent: not given). A fragment shader
    /// compiled alone that reads sample locations needs it (`gcnc.item.sample_locations_*`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub samples: u32,
    /// Alpha to coverage (location 0's alpha decides the covered samples).
    #[serde(default, skip_serializing_if = "is_false")]
    pub alpha_to_coverage: bool,
    /// Vulkan's sample shading on a multisampled draw (`GraphicsState::sample_shading`):
    /// the fragment stage runs per sample and `gcnc.choice.per_sample` is 1.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sample_shading: bool,
    /// GL-style forced per-sample interpolation (`GraphicsState::
    /// force_sample_interpolation`, the PS prolog).
    #[serde(default, skip_serializing_if = "is_false")]
    pub force_sample_interpolation: bool,
}

impl GraphicsLinkState {
    /// The compiler's form of the state, checked: unique bindings, locations and colour
    /// outputs, known formats, attribute elements ending by byte 4096.
    pub fn to_state(&self) -> Result<crate::amdgpu::abi_graphics::GraphicsState> {
        use crate::amdgpu::abi_graphics::{GraphicsState, VertexAttribute, VertexBinding};
        let mut st = GraphicsState::default();
        for (i, b) in self.vertex_bindings.iter().enumerate() {
            if b.divisor != 1 && !b.per_instance {
                return Err(Error::state(
                    format!("graphics.vertex_bindings[{i}]"),
                    format!(
                        "binding {} has divisor {} but advances per vertex (a divisor needs \"per_instance\": true)",
                        b.binding, b.divisor
                    ),
                ));
            }
            let vb = VertexBinding {
                stride: b.stride,
                per_instance: b.per_instance,
                divisor: b.divisor,
            };
            if st.bindings.insert(b.binding, vb).is_some() {
                return Err(Error::state(
                    format!("graphics.vertex_bindings[{i}]"),
                    format!("binding {} given twice", b.binding),
                ));
            }
        }
        for (i, a) in self.vertex_attributes.iter().enumerate() {
            let p = || format!("graphics.vertex_attributes[{i}]");
            if a.offset + a.format.bytes() > 4096 {
                return Err(Error::state(
                    p(),
                    format!(
                        "{} at offset {} cannot feed an input: the element must end by byte 4096",
                        a.format.name(),
                        a.offset
                    ),
                ));
            }
            let va = VertexAttribute {
                binding: a.binding,
                offset: a.offset,
                format: a.format,
            };
            if st.attributes.insert(a.location, va).is_some() {
                return Err(Error::state(
                    p(),
                    format!("location {} given twice", a.location),
                ));
            }
        }
        for (i, c) in self.color_formats.iter().enumerate() {
            let p = || format!("graphics.color_formats[{i}]");
            let f = crate::parts::ps_epilog::format_from_name(&c.format).ok_or_else(|| {
                Error::state(p(), format!("unknown export format `{}`", c.format))
            })?;
            if c.location >= 8 || st.color.insert(c.location, f).is_some() {
                return Err(Error::state(
                    p(),
                    format!("colour location {} out of range or given twice", c.location),
                ));
            }
            if c.channels > all_channels() {
                return Err(Error::state(
                    format!("{}.channels", p()),
                    format!("{:#x} has bits beyond R, G, B, A (0xf)", c.channels),
                ));
            }
            if c.channels != all_channels() {
                st.color_channels.insert(c.location, c.channels);
            }
            if c.write_mask > all_channels() {
                return Err(Error::state(
                    format!("{}.write_mask", p()),
                    format!("{:#x} has bits beyond R, G, B, A (0xf)", c.write_mask),
                ));
            }
            if c.write_mask != all_channels() {
                st.write_masks.insert(c.location, c.write_mask);
            }
        }
        st.dual_source = self.dual_source;
        st.alpha_to_coverage = self.alpha_to_coverage;
        if !matches!(self.samples, 0 | 1 | 2 | 4 | 8) {
            return Err(Error::state(
                "graphics.samples",
                format!("{} samples (1, 2, 4 or 8)", self.samples),
            ));
        }
        st.samples = self.samples;
        st.sample_shading = self.sample_shading;
        st.force_sample_interpolation = self.force_sample_interpolation;
        if let Some(t) = &self.alpha_test {
            use crate::amdgpu::abi_graphics::{AlphaTest, CompareFunc};
            let func = CompareFunc::from_name(&t.func).ok_or_else(|| {
                Error::state(
                    "graphics.alpha_test.func",
                    format!("`{}` is not a comparison (never, less, equal, less_or_equal, greater, not_equal, greater_or_equal, always)", t.func),
                )
            })?;
            let reference = t
                .reference
                .as_f64()
                .map(|x| x as f32)
                .filter(|x| x.is_finite())
                .ok_or_else(|| {
                    Error::state(
                        "graphics.alpha_test.reference",
                        format!("{} is not a finite f32", t.reference),
                    )
                })?;
            st.alpha_test = Some(AlphaTest {
                func,
                reference: reference.to_bits(),
            });
        }
        Ok(st)
    }

    /// The link form of a compiler state (`gcnc draw --unlinked`, tests).
    pub fn from_state(st: &crate::amdgpu::abi_graphics::GraphicsState) -> GraphicsLinkState {
        GraphicsLinkState {
            vertex_bindings: st
                .bindings
                .iter()
                .map(|(&binding, b)| VertexBindingState {
                    binding,
                    stride: b.stride,
                    per_instance: b.per_instance,
                    divisor: b.divisor,
                })
                .collect(),
            vertex_attributes: st
                .attributes
                .iter()
                .map(|(&location, a)| VertexAttributeState {
                    location,
                    binding: a.binding,
                    offset: a.offset,
                    format: a.format,
                })
                .collect(),
            color_formats: st
                .color
                .iter()
                .map(|(&location, &f)| ColorState {
                    location,
                    format: crate::parts::ps_epilog::format_name(f).into(),
                    channels: st.channels(location),
                    write_mask: st.write_mask(location),
                })
                .collect(),
            dual_source: st.dual_source,
            alpha_to_coverage: st.alpha_to_coverage,
            samples: st.samples,
            alpha_test: st.alpha_test.map(|t| AlphaTestState {
                func: t.func.name().into(),
                reference: serde_json::Number::from_f64(f32::from_bits(t.reference) as f64)
                    .expect("the reference is finite"),
            }),
            sample_shading: st.sample_shading,
            force_sample_interpolation: st.force_sample_interpolation,
        }
    }
}

impl PipelineState {
    /// Parses and validates the JSON form.
    pub fn from_json(text: &str) -> Result<PipelineState> {
        let s: PipelineState = serde_json::from_str(text).map_err(|e| Error::StateJson {
            line: e.line(),
            column: e.column(),
            reason: e.to_string(),
        })?;
        s.validate()?;
        Ok(s)
    }

    /// The JSON form (keys in a fixed order, so equal states give equal text).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("state serialises")
    }

    /// Checks the invariants in the module doc.
    pub fn validate(&self) -> Result<()> {
        self.validated().map(drop)
    }

    /// [`PipelineState::validate`], returning the checked graphics state (the compiler's
    /// form, built once per link).
    pub(crate) fn validated(&self) -> Result<Option<crate::amdgpu::abi_graphics::GraphicsState>> {
        let mut seen = BTreeSet::new();
        for (i, b) in self.descriptor_layout.iter().enumerate() {
            let p = || format!("descriptor_layout[{i}]");
            DescKind::from_name(&b.kind).ok_or_else(|| {
                Error::state(
                    p(),
                    format!(
                        "kind `{}` is not buffer, image, sampler or texel_buffer",
                        b.kind
                    ),
                )
            })?;
            // The values land in relocated literals that address descriptor memory with
            // dword loads: the same rule as the backend's PipelineLayout (docs/abi.md).
            for (what, v) in [("offset", b.offset), ("stride", b.stride)] {
                if v % 4 != 0 || v >= MAX_DESCRIPTOR_BYTES {
                    return Err(Error::state(
                        format!("{}.{what}", p()),
                        format!(
                            "{v} is out of range: a multiple of 4 below {MAX_DESCRIPTOR_BYTES} is required"
                        ),
                    ));
                }
            }
            if !seen.insert((b.set, b.binding, b.kind.as_str())) {
                return Err(Error::state(
                    p(),
                    format!("set {} binding {} {} given twice", b.set, b.binding, b.kind),
                ));
            }
        }
        let graphics = self.graphics.as_ref().map(|g| g.to_state()).transpose()?;
        if let Some(u) = &self.user_data {
            u.validate("user_data", false)?;
        }
        if let Some(g) = &self.stage_user_data {
            for (name, u) in [("vertex", &g.vertex), ("fragment", &g.fragment)] {
                if let Some(u) = u {
                    u.validate(&format!("stage_user_data.{name}"), name == "vertex")?;
                }
            }
        }
        Ok(graphics)
    }

    /// The value of a pre-link relocation symbol, if the state defines it.
    pub fn resolve(&self, sym: &PrelinkSymbol) -> Option<u32> {
        let binding = |set: u32, binding: u32, kind: DescKind| {
            self.descriptor_layout
                .iter()
                .find(|b| b.set == set && b.binding == binding && b.kind == kind.name())
        };
        match sym {
            PrelinkSymbol::DescOffset {
                set,
                binding: b,
                kind,
            } => binding(*set, *b, *kind).map(|b| b.offset),
            PrelinkSymbol::DescStride {
                set,
                binding: b,
                kind,
            } => binding(*set, *b, *kind).map(|b| b.stride),
            PrelinkSymbol::SpecConst(id) => self.spec_constants.get(id).copied(),
            PrelinkSymbol::Item(n) => self.relocatable.get(n).copied(),
            PrelinkSymbol::Choice(n) => self.choices.get(n).map(|&b| b as u32),
            // code, never a state value
            PrelinkSymbol::Next => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_and_resolution() {
        let text = r#"{
          "descriptor_layout": [{"set": 0, "binding": 1, "kind": "buffer", "offset": 32, "stride": 16}],
          "user_data": {"sgprs": [{"item": "global_table"}, {"item": "descriptor_table", "entry": 0}],
                        "table": [{"descriptor_set": 1}]},
          "spec_constants": {"3": 7},
          "choices": {"per_sample": true}
        }"#;
        let s = PipelineState::from_json(text).unwrap();
        assert_eq!(PipelineState::from_json(&s.to_json()).unwrap(), s);
        let off = PrelinkSymbol::DescOffset {
            set: 0,
            binding: 1,
            kind: DescKind::Buffer,
        };
        assert_eq!(s.resolve(&off), Some(32));
        assert_eq!(s.resolve(&PrelinkSymbol::SpecConst(3)), Some(7));
        assert_eq!(
            s.resolve(&PrelinkSymbol::Choice("per_sample".into())),
            Some(1)
        );
        assert_eq!(s.resolve(&PrelinkSymbol::SpecConst(4)), None);
    }

    #[test]
    fn bad_states_are_typed_errors() {
        let e = PipelineState::from_json("{\"spec_constants\": {\"1\": }").unwrap_err();
        assert!(matches!(e, Error::StateJson { line: 1, .. }), "{e}");
        let e = PipelineState::from_json(
            r#"{"user_data": {"sgprs": [{"item": {"descriptor_set": 0}}]}}"#,
        )
        .unwrap_err();
        assert!(
            matches!(e, Error::State { ref path, .. } if path == "user_data.sgprs[0]"),
            "{e}"
        );
        let e = PipelineState::from_json(
            r#"{"user_data": {"sgprs": [{"item": {"push_constant": 0}, "entry": 0}, {"item": "global_table"}]}}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("user SGPR 0"), "{e}");
    }
}
