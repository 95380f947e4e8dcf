//! The compute ABI: how descriptor sets, push constants and builtins reach the shader
//! (docs/abi.md is the prose version of this file).
//!
//! User data entries (32-bit values the driver writes with `CmdSetUserData`) hold 64-bit
//! pointers, low dword first:
//! - entries 0–1: the push-constant block;
//! - entries 2+2s, 3+2s: descriptor set `s`'s descriptor memory (set 0..=6).
//!
//! Only what the shader uses is mapped, in the order above, into consecutive even-aligned
//! user SGPR pairs from s0; the PAL metadata's user-data mapping says which SGPR holds
//! which entry. A pointer to the dispatch's workgroup count (PAL's `Workgroup` user data)
//! follows when `gl_NumWorkGroups` is read. At most 16 user SGPRs.
//!
//! Descriptor memory: each binding's descriptors sit at a byte offset in its set, from the
//! [`PipelineLayout`]. A set the layout does not give is packed from the shader's declared
//! bindings ([`PipelineLayout::complete`]: ascending binding numbers, binding `b` at
//! `16·b` or after the previous binding's `count × size` bytes if those reach further). Descriptor sizes per [`DescriptorKind`]: a
//! buffer V# or texel-buffer view 16 bytes, an image T# 32, a sampler S# 16, a combined
//! image+sampler 48 (T# then S#); arrays are the kind's size apart unless the layout gives
//! a stride. Every offset and stride is a multiple of 4 below 1 MiB.

use crate::amdgpu::Error;
use crate::ir::{Dim, Mode, Module, TypeKind};
use std::collections::BTreeMap;

/// What one binding holds. The kind fixes the size of one descriptor (an array element):
/// a buffer V# or buffer-view (texel buffer) descriptor is 16 bytes, an image T# 32, a
/// sampler S# 16, and a combined image+sampler element 48 (the T# at 0, the S# at
/// [`COMBINED_SAMPLER_OFFSET`] unless the layout says otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DescriptorKind {
    /// Uniform or storage buffer (V#).
    Buffer,
    /// Uniform or storage texel buffer (a V# with a format).
    TexelBuffer,
    /// Storage image (T#).
    StorageImage,
    /// Sampled image without a sampler (T#).
    SampledImage,
    /// Sampler (S#).
    Sampler,
    /// Combined image+sampler (T#, then S#).
    CombinedImageSampler,
}

/// Size of an image descriptor (T#).
pub const IMAGE_DESCRIPTOR_BYTES: u32 = 32;
/// Size of a sampler descriptor (S#).
pub const SAMPLER_DESCRIPTOR_BYTES: u32 = 16;
/// Default byte offset of the S# inside a combined image+sampler element.
pub const COMBINED_SAMPLER_OFFSET: u32 = IMAGE_DESCRIPTOR_BYTES;

impl DescriptorKind {
    /// Bytes of one descriptor (one array element) of this kind.
    pub const fn bytes(self) -> u32 {
        match self {
            DescriptorKind::Buffer | DescriptorKind::TexelBuffer => DESCRIPTOR_BYTES,
            DescriptorKind::StorageImage | DescriptorKind::SampledImage => IMAGE_DESCRIPTOR_BYTES,
            DescriptorKind::Sampler => SAMPLER_DESCRIPTOR_BYTES,
            DescriptorKind::CombinedImageSampler => {
                COMBINED_SAMPLER_OFFSET + SAMPLER_DESCRIPTOR_BYTES
            }
        }
    }

    /// The name used in JSON and messages.
    pub const fn name(self) -> &'static str {
        match self {
            DescriptorKind::Buffer => "buffer",
            DescriptorKind::TexelBuffer => "texel_buffer",
            DescriptorKind::StorageImage => "storage_image",
            DescriptorKind::SampledImage => "sampled_image",
            DescriptorKind::Sampler => "sampler",
            DescriptorKind::CombinedImageSampler => "combined_image_sampler",
        }
    }
}

/// A binding as the layout gives it: where element 0 is, and optionally the array stride
/// and (combined image+samplers) where the S# sits in an element. Unset values take the
/// kind's defaults when the binding is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BindingSlot {
    /// Byte offset of element 0 in the set's descriptor memory.
    pub offset: u32,
    /// Bytes between array elements (default: the kind's size).
    pub stride: Option<u32>,
    /// Byte offset of the S# inside a combined image+sampler element (default
    /// [`COMBINED_SAMPLER_OFFSET`]).
    pub sampler_offset: Option<u32>,
}

/// A binding resolved for one use: every value known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub offset: u32,
    pub stride: u32,
    /// For a combined image+sampler, where its S# is in an element (0 otherwise).
    pub sampler_offset: u32,
}

/// A binding a shader declares (whether or not it uses it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Declared {
    pub set: u32,
    pub binding: u32,
    pub kind: DescriptorKind,
    /// Array length (1 for a single descriptor); `None` for a runtime-sized array.
    pub count: Option<u32>,
}

/// Where each set/binding lives: the `PipelineLayout`-like input of the compiler.
///
/// A set the layout does not mention is laid out by [`PipelineLayout::complete`] from the
/// shader's declared bindings ("packed"); a set it mentions must list every binding used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PipelineLayout {
    /// set → binding → its place in the set.
    pub bindings: BTreeMap<u32, BTreeMap<u32, BindingSlot>>,
}

/// Highest descriptor set number the ABI has user data entries for.
pub const MAX_SETS: u32 = 7;
/// Size of one buffer descriptor (V#).
pub const DESCRIPTOR_BYTES: u32 = 16;
/// Descriptor offsets and strides are multiples of 4 below this (1 MiB per set).
pub const MAX_SET_BYTES: u32 = 1 << 20;
/// User data entry of the push-constant pointer.
pub const PUSH_CONSTANT_ENTRY: u32 = 0;

/// First user data entry of descriptor set `set`.
pub fn set_entry(set: u32) -> u32 {
    2 + 2 * set
}

/// The descriptor bindings `m` declares, sorted by set and binding: every variable with a
/// descriptor set and binding, whether or not the code still uses it (so a layout
/// computed from them matches one computed from the SPIR-V's declarations).
pub fn declared_bindings(m: &Module) -> Result<Vec<Declared>, Error> {
    let mut out = Vec::new();
    for (_, v) in m.vars.iter() {
        let Some((set, binding)) = v.binding else {
            continue;
        };
        let (mut ty, mut count) = (v.ty, Some(1u32));
        if v.mode == Mode::Uniform {
            if let TypeKind::Array { elem, len, .. } = m.types.kind(ty) {
                (ty, count) = (*elem, *len);
            }
        }
        let kind = match (v.mode, m.types.kind(ty)) {
            (Mode::Ubo | Mode::Ssbo, _) => {
                // arrays of blocks: the variable's type is the array
                if let TypeKind::Array { len, .. } = m.types.kind(v.ty) {
                    count = *len;
                }
                DescriptorKind::Buffer
            }
            (Mode::Uniform, TypeKind::Image(it)) if it.dim == Dim::Buffer => {
                DescriptorKind::TexelBuffer
            }
            (Mode::Uniform, TypeKind::Image(it)) if it.sampled => DescriptorKind::SampledImage,
            (Mode::Uniform, TypeKind::Image(_)) => DescriptorKind::StorageImage,
            (Mode::Uniform, TypeKind::Sampler) => DescriptorKind::Sampler,
            (Mode::Uniform, TypeKind::SampledImage(im)) => match m.types.kind(*im) {
                TypeKind::Image(it) if it.dim == Dim::Buffer => DescriptorKind::TexelBuffer,
                _ => DescriptorKind::CombinedImageSampler,
            },
            (mode, _) => {
                return Err(Error::Layout(format!(
                    "set {set} binding {binding}: a {mode:?} variable is not a descriptor"
                )))
            }
        };
        out.push(Declared {
            set,
            binding,
            kind,
            count,
        });
    }
    out.sort();
    out.dedup();
    Ok(out)
}

impl PipelineLayout {
    /// Where `set`/`binding` is for a use as `kind`. A set the layout does not mention
    /// falls back to binding `b` at `16·b` (IR written without declared variables); call
    /// [`complete`](Self::complete) first to lay such sets out properly.
    pub fn slot(&self, set: u32, binding: u32, kind: DescriptorKind) -> Result<Slot, Error> {
        if set >= MAX_SETS {
            return Err(Error::Layout(format!(
                "descriptor set {set} is beyond the ABI's {MAX_SETS} sets"
            )));
        }
        let b = match self.bindings.get(&set) {
            None => BindingSlot {
                offset: binding * DESCRIPTOR_BYTES,
                ..BindingSlot::default()
            },
            Some(m) => *m.get(&binding).ok_or_else(|| {
                Error::Layout(format!("set {set} binding {binding} is not in the layout"))
            })?,
        };
        let sampler_offset = match kind {
            DescriptorKind::CombinedImageSampler => {
                b.sampler_offset.unwrap_or(COMBINED_SAMPLER_OFFSET)
            }
            _ => 0,
        };
        Ok(Slot {
            offset: b.offset,
            stride: b.stride.unwrap_or(kind.bytes()),
            sampler_offset,
        })
    }

    /// Byte offset of buffer `set`/`binding` in the set's descriptor memory.
    pub fn binding_offset(&self, set: u32, binding: u32) -> Result<u32, Error> {
        Ok(self.slot(set, binding, DescriptorKind::Buffer)?.offset)
    }

    /// This layout with every set it does not mention laid out from `declared`: the
    /// set's bindings in ascending order, binding `b` at `16·b` or, when the previous
    /// binding's `count · size` bytes reach further, at the next multiple of 16 after
    /// them. A runtime-sized array must then be the set's last binding (otherwise its
    /// successors have no place: give the set a layout). For single buffers this is
    /// binding `b` at `16·b`, however sparse the numbers.
    pub fn complete(&self, declared: &[Declared]) -> Result<PipelineLayout, Error> {
        let mut out = self.clone();
        let mut next: BTreeMap<u32, (u32, Option<u32>)> = BTreeMap::new();
        let mut sorted = declared.to_vec();
        sorted.sort();
        for d in sorted {
            if self.bindings.contains_key(&d.set) {
                continue;
            }
            if d.set >= MAX_SETS {
                return Err(Error::Layout(format!(
                    "descriptor set {} is beyond the ABI's {MAX_SETS} sets",
                    d.set
                )));
            }
            let set = out.bindings.entry(d.set).or_default();
            if set.contains_key(&d.binding) {
                // the same binding declared twice (aliases): the first kind places it
                continue;
            }
            let (end, runtime) = next.get(&d.set).copied().unwrap_or((0, None));
            // binding b never starts before 16·b: a set of single buffers keeps the
            // slot-per-binding placement however sparse its numbers are
            let at = end.max(d.binding.saturating_mul(DESCRIPTOR_BYTES));
            if let Some(prev) = runtime {
                return Err(Error::Layout(format!(
                    "set {} binding {prev} is a runtime-sized array, so binding {} after it has no default place: give set {} a layout",
                    d.set, d.binding, d.set
                )));
            }
            set.insert(
                d.binding,
                BindingSlot {
                    offset: at,
                    stride: None,
                    sampler_offset: None,
                },
            );
            let end = match d.count {
                Some(n) => at as u64 + n as u64 * d.kind.bytes() as u64,
                None => at as u64,
            };
            let end = end.next_multiple_of(16);
            if end > MAX_SET_BYTES as u64 {
                return Err(Error::Layout(format!(
                    "set {}: the declared descriptors need {end} bytes, above the ABI's {MAX_SET_BYTES}",
                    d.set
                )));
            }
            let runtime = d.count.is_none().then_some(d.binding);
            next.insert(d.set, (end as u32, runtime));
        }
        Ok(out)
    }

    /// Parses the JSON form: `{"sets": {"0": {"0": 0, "1": {"offset": 16, "stride": 32}}}}`
    /// (set → binding → byte offset, or an object with `offset` and optional `stride` and
    /// `sampler_offset`). Values are multiples of 4 below 1 MiB. Errors say which key is
    /// wrong.
    pub fn from_json(text: &str) -> Result<PipelineLayout, Error> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| Error::Layout(format!("JSON: {e}")))?;
        let sets = v
            .get("sets")
            .and_then(|s| s.as_object())
            .ok_or_else(|| Error::Layout("expected an object with a \"sets\" object".into()))?;
        let mut out = PipelineLayout::default();
        for (sk, sv) in sets {
            let set: u32 = sk
                .parse()
                .map_err(|_| Error::Layout(format!("set key `{sk}` is not a number")))?;
            let obj = sv
                .as_object()
                .ok_or_else(|| Error::Layout(format!("set {set}: expected an object")))?;
            let mut m = BTreeMap::new();
            for (bk, bv) in obj {
                let b: u32 = bk.parse().map_err(|_| {
                    Error::Layout(format!("set {set}: binding key `{bk}` is not a number"))
                })?;
                let value = |what: &str, v: &serde_json::Value| -> Result<u32, Error> {
                    v.as_u64()
                        .filter(|o| *o < MAX_SET_BYTES as u64 && o % 4 == 0)
                        .map(|o| o as u32)
                        .ok_or_else(|| {
                            Error::Layout(format!(
                                "set {set} binding {b}: {what} must be a multiple of 4 below 1 MiB"
                            ))
                        })
                };
                let slot = match bv {
                    serde_json::Value::Object(o) => {
                        let mut s = BindingSlot::default();
                        let mut has_offset = false;
                        for (k, v) in o {
                            match k.as_str() {
                                "offset" => {
                                    s.offset = value("offset", v)?;
                                    has_offset = true;
                                }
                                "stride" => s.stride = Some(value("stride", v)?),
                                "sampler_offset" => {
                                    s.sampler_offset = Some(value("sampler_offset", v)?)
                                }
                                _ => {
                                    return Err(Error::Layout(format!(
                                        "set {set} binding {b}: unknown key `{k}` (offset, stride, sampler_offset)"
                                    )))
                                }
                            }
                        }
                        if !has_offset {
                            return Err(Error::Layout(format!(
                                "set {set} binding {b}: `offset` is missing"
                            )));
                        }
                        s
                    }
                    v => BindingSlot {
                        offset: value("offset", v)?,
                        ..BindingSlot::default()
                    },
                };
                m.insert(b, slot);
            }
            out.bindings.insert(set, m);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::DescriptorKind::*;
    use super::*;

    fn d(set: u32, binding: u32, kind: DescriptorKind, count: Option<u32>) -> Declared {
        Declared {
            set,
            binding,
            kind,
            count,
        }
    }

    #[test]
    fn single_buffers_from_zero_are_sixteen_bytes_apart() {
        let l = PipelineLayout::default()
            .complete(&[
                d(0, 0, Buffer, Some(1)),
                d(0, 1, Buffer, Some(1)),
                d(0, 2, Buffer, Some(1)),
            ])
            .unwrap();
        for b in 0..3 {
            assert_eq!(l.binding_offset(0, b).unwrap(), 16 * b);
        }
    }

    #[test]
    fn packed_sets_follow_each_kinds_size_and_count() {
        let l = PipelineLayout::default()
            .complete(&[
                d(1, 5, Sampler, Some(1)),
                d(1, 0, StorageImage, Some(1)),
                d(1, 2, CombinedImageSampler, Some(3)),
                d(1, 1, Buffer, Some(2)),
                d(1, 9, SampledImage, None),
            ])
            .unwrap();
        let at = |b, k| l.slot(1, b, k).unwrap();
        assert_eq!(
            at(0, StorageImage),
            Slot {
                offset: 0,
                stride: 32,
                sampler_offset: 0
            }
        );
        assert_eq!(
            at(1, Buffer),
            Slot {
                offset: 32,
                stride: 16,
                sampler_offset: 0
            }
        );
        // 3 × 48 bytes from 64; the S# 32 bytes into each element
        assert_eq!(
            at(2, CombinedImageSampler),
            Slot {
                offset: 64,
                stride: 48,
                sampler_offset: 32
            }
        );
        assert_eq!(at(5, Sampler).offset, 64 + 144);
        // the runtime array last, from the next 16-byte boundary
        assert_eq!(at(9, SampledImage).offset, 64 + 144 + 16);
    }

    #[test]
    fn sparse_bindings_never_start_before_sixteen_bytes_per_number() {
        let l = PipelineLayout::default()
            .complete(&[
                d(1, 2, Buffer, Some(1)),
                d(1, 5, Buffer, Some(1)),
                d(1, 6, StorageImage, Some(1)),
                d(1, 7, Buffer, Some(1)),
            ])
            .unwrap();
        let at = |b, k| l.slot(1, b, k).unwrap().offset;
        assert_eq!(at(2, Buffer), 32);
        assert_eq!(at(5, Buffer), 80);
        assert_eq!(at(6, StorageImage), 96);
        // the 32-byte T# pushes binding 7 past 16·7
        assert_eq!(at(7, Buffer), 128);
    }

    #[test]
    fn a_runtime_array_before_another_binding_needs_a_layout() {
        let e = PipelineLayout::default()
            .complete(&[d(0, 0, Buffer, None), d(0, 1, Buffer, Some(1))])
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("set 0 binding 0 is a runtime-sized array"),
            "{e}"
        );
    }

    #[test]
    fn a_given_set_is_kept_and_others_are_packed() {
        let l = PipelineLayout::from_json(
            r#"{"sets": {"0": {"3": 64, "4": {"offset": 128, "stride": 64, "sampler_offset": 48}}}}"#,
        )
        .unwrap()
        .complete(&[d(0, 3, Buffer, Some(1)), d(0, 4, CombinedImageSampler, Some(2)), d(2, 1, Buffer, Some(1))])
        .unwrap();
        assert_eq!(l.binding_offset(0, 3).unwrap(), 64);
        assert_eq!(
            l.slot(0, 4, CombinedImageSampler).unwrap(),
            Slot {
                offset: 128,
                stride: 64,
                sampler_offset: 48
            }
        );
        assert_eq!(l.binding_offset(2, 1).unwrap(), 16);
        assert!(
            l.binding_offset(0, 0).is_err(),
            "a given set must list what is used"
        );
    }

    #[test]
    fn json_errors_name_the_binding_and_key() {
        for (text, want) in [
            (
                r#"{"sets": {"0": {"1": 6}}}"#,
                "set 0 binding 1: offset must be a multiple of 4",
            ),
            (
                r#"{"sets": {"0": {"1": {"stride": 16}}}}"#,
                "set 0 binding 1: `offset` is missing",
            ),
            (
                r#"{"sets": {"0": {"1": {"offset": 0, "size": 4}}}}"#,
                "unknown key `size`",
            ),
            (
                r#"{"sets": {"2": {"0": {"offset": 0, "stride": 2097152}}}}"#,
                "set 2 binding 0: stride",
            ),
        ] {
            let e = PipelineLayout::from_json(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn declared_bindings_come_from_the_shaders_variables() {
        // texture2D texs[4] (binding 0), sampler (1), samplerBuffer (2), push constants
        let words = crate::front::spirv::words_from_bytes(include_bytes!(
            "../../tests/shaders/frag/separate_sampler.spv"
        ))
        .unwrap();
        let m = crate::front::spirv::translate(&words, &Default::default()).unwrap();
        assert_eq!(
            declared_bindings(&m).unwrap(),
            vec![
                d(0, 0, SampledImage, Some(4)),
                d(0, 1, Sampler, Some(1)),
                d(0, 2, TexelBuffer, Some(1))
            ]
        );
    }
}
