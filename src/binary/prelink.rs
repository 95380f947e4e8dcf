//! Pre-link metadata of an unlinked shader (issue 7): what the compile assumed about state
//! it did not have, so the link stage can build the parts that reconcile it.
//!
//! It lives in the NT_AMDGPU_METADATA msgpack tree under the top-level key
//! [`KEY_PRELINK`] (`gcnc.prelink`), beside `amdpal.*`, and the
//! link stage removes it ([`super::merge::take_prelink`]) before PAL sees the pipeline.
//! PAL reads only the keys it knows, but a linked ELF never carries the section.
//!
//! Shape (all keys fixstr, values smallest uints):
//! ```text
//! gcnc.prelink:
//!   .version: 1
//!   .stage: ".cs"
//!   .user_sgprs: [ {.kind: "descriptor_set", .index: 0}, ... ]   # index = user SGPR
//!   .missing_state: ["descriptor_layout", "spec_constants", ...]
//!   .part_bytes: N        # only with constant data: the part's bytes from its entry
//!   .data_offset: N       # ... and where the data starts, from the entry
//!   <other keys>: kept verbatim in `extra` for the link stage's own use
//! ```
//! Relocation symbols of unlinked code are named by [`PrelinkSymbol`] (`gcnc.desc.*`,
//! `gcnc.spec.*`, `gcnc.item.*`, `gcnc.choice.*`).
//!
//! What a user SGPR holds is written here twice, for two readers: [`UserSgpr`], what the
//! compile assumed (any SGPR the backend placed), and [`Item`], what the link state can
//! place in a final SGPR or descriptor-table dword (the link state's JSON and the CS
//! prolog's key use it; it lives here, below both, so the parts do not depend on the link
//! stage).
//!
//! Invariant: `from_value(&p.to_value()) == p`.
//!
//! Layering: this module reads msgpack values and knows the stage type of `registers`;
//! `metadata` embeds it (`PalMetadata::prelink`), never the other way round.

use super::error::{Error, Result};
use super::msgpack::{into_map, opt_str, opt_u32, Key, Value};
use super::registers::HwStage;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Top-level metadata key of the pre-link tree.
pub const KEY_PRELINK: &str = "gcnc.prelink";

/// Key (in `extra`) of the main part's length in bytes from its entry symbol when it is
/// longer than the symbol: code, its padding, and the constant data after them that the
/// code reads PC-relative (`amdgpu::emit`). The link stage keeps those bytes with the part
/// so that every PC-relative distance inside it stays what it was.
pub const KEY_PART_BYTES: &str = ".part_bytes";

/// Key (in `extra`) of where that constant data starts, in bytes from the entry symbol.
pub const KEY_DATA_OFFSET: &str = ".data_offset";

/// Version of the pre-link schema.
pub const PRELINK_VERSION: u32 = 1;

/// What one user SGPR was assumed to hold when the shader was compiled unlinked.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UserSgpr {
    /// Low half of the global internal table.
    GlobalTable,
    /// Low half of the pointer to descriptor set N.
    DescriptorSet(u32),
    /// High half of the pointer to descriptor set N (64-bit pointers in an SGPR pair).
    DescriptorSetHi(u32),
    /// Push-constant dword N, inline.
    PushConstant(u32),
    /// Low half of the pointer to the push-constant block.
    PushConstantPointer,
    /// High half of the pointer to the push-constant block.
    PushConstantPointerHi,
    /// Low half of the spill table.
    SpillTable,
    /// Pointer to the dispatch dimensions (lo, then hi in the next SGPR).
    Workgroup,
    /// Nothing: alignment padding the main part never reads (e.g. after the global table).
    Unused,
    /// Anything else, by name and index.
    Other(String, u32),
}

impl UserSgpr {
    fn kind_index(&self) -> (&str, u32) {
        match self {
            UserSgpr::GlobalTable => ("global_table", 0),
            UserSgpr::DescriptorSet(n) => ("descriptor_set", *n),
            UserSgpr::DescriptorSetHi(n) => ("descriptor_set_hi", *n),
            UserSgpr::PushConstant(n) => ("push_constant", *n),
            UserSgpr::PushConstantPointer => ("push_constant_pointer", 0),
            UserSgpr::PushConstantPointerHi => ("push_constant_pointer_hi", 0),
            UserSgpr::SpillTable => ("spill_table", 0),
            UserSgpr::Workgroup => ("workgroup", 0),
            UserSgpr::Unused => ("unused", 0),
            UserSgpr::Other(s, n) => (s.as_str(), *n),
        }
    }

    fn from_kind_index(kind: String, index: u32) -> UserSgpr {
        match kind.as_str() {
            "global_table" if index == 0 => UserSgpr::GlobalTable,
            "descriptor_set" => UserSgpr::DescriptorSet(index),
            "descriptor_set_hi" => UserSgpr::DescriptorSetHi(index),
            "push_constant" => UserSgpr::PushConstant(index),
            "push_constant_pointer" if index == 0 => UserSgpr::PushConstantPointer,
            "push_constant_pointer_hi" if index == 0 => UserSgpr::PushConstantPointerHi,
            "spill_table" if index == 0 => UserSgpr::SpillTable,
            "workgroup" if index == 0 => UserSgpr::Workgroup,
            "unused" if index == 0 => UserSgpr::Unused,
            _ => UserSgpr::Other(kind, index),
        }
    }
}

/// The `gcnc.prelink` section.
#[derive(Clone, Debug, PartialEq)]
pub struct PreLinkMetadata {
    /// Hardware stage of the unlinked shader.
    pub stage: HwStage,
    /// Assumed user-SGPR placement, index = user SGPR.
    pub user_sgprs: Vec<UserSgpr>,
    /// Names of the pieces of pipeline state the compile did not have.
    pub missing_state: Vec<String>,
    /// Other keys, kept verbatim.
    pub extra: BTreeMap<Key, Value>,
}

impl PreLinkMetadata {
    /// An empty section for `stage`.
    pub fn new(stage: HwStage) -> PreLinkMetadata {
        PreLinkMetadata {
            stage,
            user_sgprs: Vec::new(),
            missing_state: Vec::new(),
            extra: BTreeMap::new(),
        }
    }

    /// Records that the main part spans `bytes` from its entry and that its constant data
    /// starts at `data_offset` from it ([`KEY_PART_BYTES`], [`KEY_DATA_OFFSET`]).
    pub fn set_constant_data(&mut self, data_offset: u64, bytes: u64) {
        self.extra
            .insert(Key::str(KEY_PART_BYTES), Value::from(bytes));
        self.extra
            .insert(Key::str(KEY_DATA_OFFSET), Value::from(data_offset));
    }

    /// (data offset, part bytes) from the entry when constant data follows the main part's
    /// code; `Err` when only one key is there or one holds something else than a uint.
    pub fn constant_data(&self) -> Result<Option<(u64, u64)>> {
        let get = |k: &str| -> Result<Option<u64>> {
            match self.extra.get(&Key::str(k)) {
                None => Ok(None),
                Some(v) => v.as_uint().map(Some).ok_or_else(|| {
                    Error::metadata(format!("{KEY_PRELINK}{k}"), "not an unsigned integer")
                }),
            }
        };
        match (get(KEY_DATA_OFFSET)?, get(KEY_PART_BYTES)?) {
            (None, None) => Ok(None),
            (Some(d), Some(n)) => Ok(Some((d, n))),
            _ => Err(Error::metadata(
                KEY_PRELINK,
                format!("{KEY_DATA_OFFSET} and {KEY_PART_BYTES} go together"),
            )),
        }
    }

    /// The tree.
    pub fn to_value(&self) -> Value {
        let mut m = self.extra.clone();
        m.insert(Key::str(".version"), Value::from(PRELINK_VERSION));
        m.insert(Key::str(".stage"), Value::Str(self.stage.key()));
        let sgprs = self
            .user_sgprs
            .iter()
            .map(|u| {
                let (kind, index) = u.kind_index();
                Value::Map(BTreeMap::from([
                    (Key::str(".kind"), Value::str(kind)),
                    (Key::str(".index"), Value::from(index)),
                ]))
            })
            .collect();
        m.insert(Key::str(".user_sgprs"), Value::Array(sgprs));
        m.insert(
            Key::str(".missing_state"),
            Value::Array(self.missing_state.iter().map(|s| Value::str(s)).collect()),
        );
        Value::Map(m)
    }

    /// Reads the section from its tree.
    pub fn from_value(v: &Value) -> Result<PreLinkMetadata> {
        PreLinkMetadata::from_owned_value(v.clone())
    }

    /// [`PreLinkMetadata::from_value`] of a tree the caller gives up (moved, not copied).
    pub fn from_owned_value(v: Value) -> Result<PreLinkMetadata> {
        let path = KEY_PRELINK;
        let mut m = into_map(v, path)?;
        let version = opt_u32(&mut m, ".version", path)?;
        if version != Some(PRELINK_VERSION) {
            return Err(Error::metadata(
                format!("{path}.version"),
                format!("{version:?}, expected {PRELINK_VERSION}"),
            ));
        }
        let stage = opt_str(&mut m, ".stage", path)?
            .and_then(|s| HwStage::from_key(&s))
            .ok_or_else(|| Error::metadata(format!("{path}.stage"), "missing or unknown"))?;
        let mut user_sgprs = Vec::new();
        if let Some(a) = m.remove(&Key::str(".user_sgprs")) {
            let ap = format!("{path}.user_sgprs");
            let Value::Array(a) = a else {
                return Err(Error::metadata(&ap, "not an array"));
            };
            for (i, e) in a.into_iter().enumerate() {
                let ep = format!("{ap}[{i}]");
                let mut em = into_map(e, &ep)?;
                let kind = opt_str(&mut em, ".kind", &ep)?
                    .ok_or_else(|| Error::metadata(&ep, "missing .kind"))?;
                let index = opt_u32(&mut em, ".index", &ep)?.unwrap_or(0);
                user_sgprs.push(UserSgpr::from_kind_index(kind, index));
            }
        }
        let mut missing_state = Vec::new();
        if let Some(a) = m.remove(&Key::str(".missing_state")) {
            let ap = format!("{path}.missing_state");
            for s in a
                .as_array()
                .ok_or_else(|| Error::metadata(&ap, "not an array"))?
            {
                missing_state.push(
                    s.as_str()
                        .ok_or_else(|| Error::metadata(&ap, "element is not a string"))?
                        .to_string(),
                );
            }
        }
        Ok(PreLinkMetadata {
            stage,
            user_sgprs,
            missing_state,
            extra: m,
        })
    }
}

/// Kind of descriptor a relocated descriptor offset or stride refers to. The same binding
/// can hold more than one kind (a combined image+sampler has a resource part and a sampler
/// part), so the kind is part of the symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DescKind {
    /// Buffer descriptor (V#).
    Buffer,
    /// Image resource descriptor (T#), also the resource half of a combined image+sampler.
    Image,
    /// Sampler descriptor (S#), also the sampler half of a combined image+sampler.
    Sampler,
    /// Texel-buffer descriptor.
    TexelBuffer,
}

impl DescKind {
    /// Every kind.
    pub const ALL: [DescKind; 4] = [
        DescKind::Buffer,
        DescKind::Image,
        DescKind::Sampler,
        DescKind::TexelBuffer,
    ];

    /// Name used in symbols and the state JSON.
    pub fn name(self) -> &'static str {
        match self {
            DescKind::Buffer => "buffer",
            DescKind::Image => "image",
            DescKind::Sampler => "sampler",
            DescKind::TexelBuffer => "texel_buffer",
        }
    }

    /// From [`DescKind::name`].
    pub fn from_name(s: &str) -> Option<DescKind> {
        DescKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// The symbol of a relocation an unlinked shader leaves for the link stage (issue 7). Each
/// resolves to a 32-bit value the link stage computes from the pipeline state, written into
/// an instruction literal by an `R_AMDGPU_ABS32_LO` / `ABS32` relocation.
///
/// Names (all start with `gcnc.`, so they never clash with PAL's `_amdgpu_*` symbols):
/// ```text
/// gcnc.desc.<set>.<binding>.<kind>.offset   byte offset of the descriptor in its set
/// gcnc.desc.<set>.<binding>.<kind>.stride   byte stride between array elements
/// gcnc.spec.<id>                            specialization constant <id> (32-bit bits)
/// gcnc.item.<name>                          a relocatable pipeline-state item
/// gcnc.choice.<name>                        1 or 0: which alternative of a both-ways choice
/// ```
/// Invariant: `PrelinkSymbol::parse(&s.name()) == Some(s)`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PrelinkSymbol {
    /// Byte offset of a descriptor within its set.
    DescOffset {
        /// Descriptor set.
        set: u32,
        /// Binding.
        binding: u32,
        /// Kind.
        kind: DescKind,
    },
    /// Array stride of a binding, in bytes.
    DescStride {
        /// Descriptor set.
        set: u32,
        /// Binding.
        binding: u32,
        /// Kind.
        kind: DescKind,
    },
    /// A specialization constant by SPIR-V SpecId.
    SpecConst(u32),
    /// A relocatable item by name.
    Item(String),
    /// The condition of a both-alternatives choice, by name.
    Choice(String),
    /// The part laid out after this one (`gcnc.next`): the `s_branch` that ends an unlinked
    /// graphics main part in front of its epilog (`R_AMDGPU_REL16`); the link stage renames
    /// it to the epilog's symbol.
    Next,
}

fn ident_ok(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

impl PrelinkSymbol {
    /// The symbol name.
    pub fn name(&self) -> String {
        match self {
            PrelinkSymbol::DescOffset { set, binding, kind } => {
                format!("gcnc.desc.{set}.{binding}.{}.offset", kind.name())
            }
            PrelinkSymbol::DescStride { set, binding, kind } => {
                format!("gcnc.desc.{set}.{binding}.{}.stride", kind.name())
            }
            PrelinkSymbol::SpecConst(id) => format!("gcnc.spec.{id}"),
            PrelinkSymbol::Item(n) => format!("gcnc.item.{n}"),
            PrelinkSymbol::Choice(n) => format!("gcnc.choice.{n}"),
            PrelinkSymbol::Next => "gcnc.next".into(),
        }
    }

    /// Parses a symbol name; `None` for names that are not pre-link symbols.
    pub fn parse(name: &str) -> Option<PrelinkSymbol> {
        let rest = name.strip_prefix("gcnc.")?;
        if rest == "next" {
            return Some(PrelinkSymbol::Next);
        }
        if let Some(d) = rest.strip_prefix("desc.") {
            let parts: Vec<&str> = d.split('.').collect();
            let [set, binding, kind, what] = parts.as_slice() else {
                return None;
            };
            let (set, binding) = (set.parse().ok()?, binding.parse().ok()?);
            let kind = DescKind::from_name(kind)?;
            return match *what {
                "offset" => Some(PrelinkSymbol::DescOffset { set, binding, kind }),
                "stride" => Some(PrelinkSymbol::DescStride { set, binding, kind }),
                _ => None,
            };
        }
        if let Some(id) = rest.strip_prefix("spec.") {
            return id.parse().ok().map(PrelinkSymbol::SpecConst);
        }
        if let Some(n) = rest.strip_prefix("item.") {
            return ident_ok(n).then(|| PrelinkSymbol::Item(n.to_string()));
        }
        if let Some(n) = rest.strip_prefix("choice.") {
            return ident_ok(n).then(|| PrelinkSymbol::Choice(n.to_string()));
        }
        None
    }
}

/// What one user SGPR (or one dword of the descriptor table) holds.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    /// Low half of the global internal table (PAL: must be user SGPR 0).
    GlobalTable,
    /// Low half of the pointer to descriptor set N.
    DescriptorSet(u32),
    /// High half of the pointer to descriptor set N.
    DescriptorSetHi(u32),
    /// Push-constant dword N.
    PushConstant(u32),
    /// Low half of the pointer to the push-constant block.
    PushConstantPointer,
    /// High half of the pointer to the push-constant block.
    PushConstantPointerHi,
    /// Low half of the spill table.
    SpillTable,
    /// Low half of the pointer to the descriptor table (`UserDataLayout::table`).
    DescriptorTable,
    /// Nothing the main part reads (an assumed padding SGPR; the prolog leaves it alone).
    Unused,
    /// Vertex stage: low half of the vertex-buffer table (PAL `VertexBufferTable`; high
    /// half = the PC's).
    VertexBufferTable,
    /// Vertex stage: the draw's vertexOffset / firstVertex (PAL `BaseVertex`).
    BaseVertex,
    /// Vertex stage: the draw's firstInstance (PAL `BaseInstance`).
    BaseInstance,
    /// Vertex stage: the draw's index in a multi-draw (PAL `DrawIndex`).
    DrawIndex,
}

impl Item {
    /// The item a main part's assumed user SGPR names, if the layout can express it.
    pub fn from_assumed(u: &UserSgpr) -> Option<Item> {
        Some(match u {
            UserSgpr::GlobalTable => Item::GlobalTable,
            UserSgpr::DescriptorSet(n) => Item::DescriptorSet(*n),
            UserSgpr::DescriptorSetHi(n) => Item::DescriptorSetHi(*n),
            UserSgpr::PushConstant(n) => Item::PushConstant(*n),
            UserSgpr::PushConstantPointer => Item::PushConstantPointer,
            UserSgpr::PushConstantPointerHi => Item::PushConstantPointerHi,
            UserSgpr::SpillTable => Item::SpillTable,
            UserSgpr::Unused => Item::Unused,
            UserSgpr::Workgroup | UserSgpr::Other(..) => return None,
        })
    }

    /// Stable text, used in part keys and metadata.
    pub fn text(&self) -> String {
        match self {
            Item::GlobalTable => "global_table".into(),
            Item::DescriptorSet(n) => format!("descriptor_set:{n}"),
            Item::DescriptorSetHi(n) => format!("descriptor_set_hi:{n}"),
            Item::PushConstant(n) => format!("push_constant:{n}"),
            Item::PushConstantPointer => "push_constant_pointer".into(),
            Item::PushConstantPointerHi => "push_constant_pointer_hi".into(),
            Item::SpillTable => "spill_table".into(),
            Item::DescriptorTable => "descriptor_table".into(),
            Item::Unused => "unused".into(),
            Item::VertexBufferTable => "vertex_buffer_table".into(),
            Item::BaseVertex => "base_vertex".into(),
            Item::BaseInstance => "base_instance".into(),
            Item::DrawIndex => "draw_index".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_names_round_trip() {
        let syms = [
            PrelinkSymbol::DescOffset {
                set: 1,
                binding: 7,
                kind: DescKind::Sampler,
            },
            PrelinkSymbol::DescStride {
                set: 0,
                binding: 2,
                kind: DescKind::TexelBuffer,
            },
            PrelinkSymbol::SpecConst(42),
            PrelinkSymbol::Item("shadow_desc_hi".into()),
            PrelinkSymbol::Choice("per_sample".into()),
        ];
        for s in syms {
            assert_eq!(
                PrelinkSymbol::parse(&s.name()),
                Some(s.clone()),
                "{}",
                s.name()
            );
        }
        assert_eq!(
            PrelinkSymbol::DescOffset {
                set: 1,
                binding: 7,
                kind: DescKind::Buffer
            }
            .name(),
            "gcnc.desc.1.7.buffer.offset"
        );
        for bad in [
            "gcnc.desc.1.x.buffer.offset",
            "gcnc.spec.",
            "gcnc.item.",
            "_amdgpu_cs_main",
        ] {
            assert_eq!(PrelinkSymbol::parse(bad), None, "{bad}");
        }
    }
}
