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
//! [`PipelineLayout`] (default: binding `b` at `16 * b`); each buffer descriptor is a
//! 16-byte V# (base address, stride, num_records, dst_sel/format dword), arrays of
//! descriptors are 16 bytes apart.

use crate::amdgpu::Error;
use std::collections::BTreeMap;

/// Where each set/binding lives: the `PipelineLayout`-like input of the compiler.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PipelineLayout {
    /// set → binding → byte offset of the binding's first descriptor in the set.
    pub bindings: BTreeMap<u32, BTreeMap<u32, u32>>,
}

/// Highest descriptor set number the ABI has user data entries for.
pub const MAX_SETS: u32 = 7;
/// Size of one buffer descriptor (V#).
pub const DESCRIPTOR_BYTES: u32 = 16;
/// User data entry of the push-constant pointer.
pub const PUSH_CONSTANT_ENTRY: u32 = 0;

/// First user data entry of descriptor set `set`.
pub fn set_entry(set: u32) -> u32 {
    2 + 2 * set
}

impl PipelineLayout {
    /// Byte offset of `set`/`binding` in the set's descriptor memory.
    pub fn binding_offset(&self, set: u32, binding: u32) -> Result<u32, Error> {
        if set >= MAX_SETS {
            return Err(Error::Layout(format!(
                "descriptor set {set} is beyond the ABI's {MAX_SETS} sets"
            )));
        }
        match self.bindings.get(&set) {
            None => Ok(binding * DESCRIPTOR_BYTES),
            Some(m) => m.get(&binding).copied().ok_or_else(|| {
                Error::Layout(format!("set {set} binding {binding} is not in the layout"))
            }),
        }
    }

    /// Parses the JSON form: `{"sets": {"0": {"0": 0, "1": 16}, "1": {"0": 0}}}` (set →
    /// binding → byte offset). Errors say which key is wrong.
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
                let off = bv
                    .as_u64()
                    .filter(|o| *o < (1 << 20) && o % 4 == 0)
                    .ok_or_else(|| {
                        Error::Layout(format!(
                            "set {set} binding {b}: offset must be a multiple of 4 below 1 MiB"
                        ))
                    })?;
                m.insert(b, off as u32);
            }
            out.bindings.insert(set, m);
        }
        Ok(out)
    }
}
