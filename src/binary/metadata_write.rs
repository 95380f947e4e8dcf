//! [`PalMetadata`] written straight to MessagePack, without building a [`Value`] tree (the
//! link stage writes every pipeline's metadata this way).
//!
//! The bytes are exactly those of `msgpack::encode(&md.to_value())`: every map's entries go
//! out in the order of `BTreeMap<Key, _>` (unsigned keys first, then strings byte-wise), the
//! modelled fields merged with the `extra` keys in that order (a modelled field wins over an
//! `extra` entry of the same name, as in `to_value`), each value in its smallest encoding.
//! The fixed keys of each level are listed below in that order; the hardware and API stages
//! are visited in the order of their key strings, not of their enums.
//! The tests below check the equality on compute metadata of every generation and on trees
//! with foreign keys at every level; the link tests' pipelines check it on every link.

use super::error::Result;
use super::metadata::{
    ApiShader, ApiStage, HardwareStage, HwStage, PalMetadata, KEY_PIPELINES, KEY_PRELINK,
    KEY_VERSION,
};
use super::msgpack::{encode_into, encode_key, Key, Value};
use std::collections::BTreeMap;

/// Hardware stages in the order of their metadata keys (`.cs` < `.es` < ... < `.vs`).
pub(crate) const HW_BY_KEY: [HwStage; 7] = [
    HwStage::Cs,
    HwStage::Es,
    HwStage::Gs,
    HwStage::Hs,
    HwStage::Ls,
    HwStage::Ps,
    HwStage::Vs,
];

/// API stages in the order of their metadata keys.
const API_BY_KEY: [ApiStage; 8] = [
    ApiStage::Compute,
    ApiStage::Domain,
    ApiStage::Geometry,
    ApiStage::Hull,
    ApiStage::Mesh,
    ApiStage::Pixel,
    ApiStage::Task,
    ApiStage::Vertex,
];

/// Writes one value of a modelled field.
type FieldWriter<'a> = &'a dyn Fn(&mut Vec<u8>) -> Result<()>;

// Writing into a Vec cannot fail, and PAL metadata's containers and strings are far below
// MessagePack's 32-bit lengths (a foreign `extra` value goes through `encode_into`, which
// checks), so these helpers drop rmp's `Result`.

fn uint(out: &mut Vec<u8>, v: u64) -> Result<()> {
    let _ = rmp::encode::write_uint(out, v);
    Ok(())
}

fn text(out: &mut Vec<u8>, s: &str) -> Result<()> {
    let _ = rmp::encode::write_str(out, s);
    Ok(())
}

fn map_len(out: &mut Vec<u8>, n: usize) {
    let _ = rmp::encode::write_map_len(out, n as u32);
}

fn array_len(out: &mut Vec<u8>, n: usize) {
    let _ = rmp::encode::write_array_len(out, n as u32);
}

fn pair(out: &mut Vec<u8>, h: [u64; 2]) -> Result<()> {
    array_len(out, 2);
    uint(out, h[0])?;
    uint(out, h[1])
}

/// A map of the modelled `fields` (string keys in ascending order, absent ones `None`)
/// merged with `extra` in key order.
fn map(
    out: &mut Vec<u8>,
    fields: &[(&str, Option<FieldWriter>)],
    extra: &BTreeMap<Key, Value>,
) -> Result<()> {
    debug_assert!(fields.windows(2).all(|w| w[0].0 < w[1].0));
    let present = fields.iter().filter_map(|&(n, w)| w.map(|w| (n, w)));
    let shadowed = |k: &Key| matches!(k, Key::Str(s) if present.clone().any(|f| f.0 == s));
    map_len(
        out,
        present.clone().count() + extra.keys().filter(|k| !shadowed(k)).count(),
    );
    let mut known = present.clone().peekable();
    for (k, v) in extra {
        if shadowed(k) {
            continue;
        }
        // unsigned keys sort before every string key
        if let Key::Str(s) = k {
            while let Some((name, w)) = known.next_if(|f| f.0 < s.as_str()) {
                text(out, name)?;
                w(out)?;
            }
        }
        encode_key(out, k)?;
        encode_into(out, v)?;
    }
    for (name, w) in known {
        text(out, name)?;
        w(out)?;
    }
    Ok(())
}

fn hardware_stage(out: &mut Vec<u8>, hw: &HardwareStage) -> Result<()> {
    let entry = |o: &mut Vec<u8>| text(o, &hw.entry_point);
    let lds = |o: &mut Vec<u8>| uint(o, hw.lds_size as u64);
    let scratch = |o: &mut Vec<u8>| uint(o, hw.scratch_memory_size as u64);
    let sgprs = |o: &mut Vec<u8>| uint(o, hw.sgpr_count as u64);
    let dims = |o: &mut Vec<u8>| {
        array_len(o, 3);
        for x in hw.threadgroup_dimensions.unwrap_or_default() {
            uint(o, x as u64)?;
        }
        Ok(())
    };
    let vgprs = |o: &mut Vec<u8>| uint(o, hw.vgpr_count as u64);
    let wave = |o: &mut Vec<u8>| uint(o, hw.wavefront_size.map_or(0, |w| w.lanes() as u64));
    map(
        out,
        &[
            (".entry_point", Some(&entry)),
            (".lds_size", Some(&lds)),
            (".scratch_memory_size", Some(&scratch)),
            (".sgpr_count", Some(&sgprs)),
            (
                ".threadgroup_dimensions",
                hw.threadgroup_dimensions.map(|_| &dims as FieldWriter),
            ),
            (".vgpr_count", Some(&vgprs)),
            (
                ".wavefront_size",
                hw.wavefront_size.map(|_| &wave as FieldWriter),
            ),
        ],
        &hw.extra,
    )
}

fn api_shader(out: &mut Vec<u8>, s: &ApiShader) -> Result<()> {
    let hash = |o: &mut Vec<u8>| pair(o, s.api_shader_hash);
    let mapping = |o: &mut Vec<u8>| {
        array_len(o, s.hardware_mapping.len());
        for h in &s.hardware_mapping {
            text(o, h.key_str())?;
        }
        Ok(())
    };
    map(
        out,
        &[
            (".api_shader_hash", Some(&hash)),
            (".hardware_mapping", Some(&mapping)),
        ],
        &s.extra,
    )
}

/// Appends `md`'s MessagePack form to `out`: the bytes of `msgpack::encode(&md.to_value())`.
pub fn write_metadata(out: &mut Vec<u8>, md: &PalMetadata) -> Result<()> {
    let p = &md.pipeline;
    let name = |o: &mut Vec<u8>| text(o, p.name.as_deref().unwrap_or_default());
    let ty = |o: &mut Vec<u8>| text(o, &p.pipeline_type);
    let api = |o: &mut Vec<u8>| text(o, &p.api);
    let hash = |o: &mut Vec<u8>| pair(o, p.internal_pipeline_hash);
    let shaders = |o: &mut Vec<u8>| {
        map_len(o, p.shaders.len());
        for stage in API_BY_KEY {
            if let Some(s) = p.shaders.get(&stage) {
                text(o, stage.key())?;
                api_shader(o, s)?;
            }
        }
        Ok(())
    };
    let stages = |o: &mut Vec<u8>| {
        map_len(o, p.hardware_stages.len());
        for stage in HW_BY_KEY {
            if let Some(hw) = p.hardware_stages.get(&stage) {
                text(o, stage.key_str())?;
                hardware_stage(o, hw)?;
            }
        }
        Ok(())
    };
    let regs = |o: &mut Vec<u8>| {
        map_len(o, p.registers.len());
        for (&r, &v) in &p.registers {
            uint(o, r as u64)?;
            uint(o, v as u64)?;
        }
        Ok(())
    };
    let limit = |o: &mut Vec<u8>| uint(o, p.user_data_limit as u64);
    let spill = |o: &mut Vec<u8>| uint(o, p.spill_threshold as u64);
    let pipeline = |o: &mut Vec<u8>| {
        array_len(o, 1);
        map(
            o,
            &[
                (".api", Some(&api)),
                (".hardware_stages", Some(&stages)),
                (".internal_pipeline_hash", Some(&hash)),
                (".name", p.name.as_ref().map(|_| &name as FieldWriter)),
                (".registers", Some(&regs)),
                (".shaders", Some(&shaders)),
                (".spill_threshold", Some(&spill)),
                (".type", Some(&ty)),
                (".user_data_limit", Some(&limit)),
            ],
            &p.extra,
        )
    };
    let version = |o: &mut Vec<u8>| {
        let (major, minor) = md.version.unwrap_or_default();
        array_len(o, 2);
        uint(o, major as u64)?;
        uint(o, minor as u64)
    };
    let prelink = |o: &mut Vec<u8>| match &md.prelink {
        Some(pl) => encode_into(o, &pl.to_value()),
        None => Ok(()),
    };
    map(
        out,
        &[
            (KEY_PIPELINES, Some(&pipeline)),
            (KEY_VERSION, md.version.map(|_| &version as FieldWriter)),
            (
                KEY_PRELINK,
                md.prelink.as_ref().map(|_| &prelink as FieldWriter),
            ),
        ],
        &md.extra,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::compute::ComputeShaderInfo;
    use crate::binary::msgpack::encode;
    use crate::binary::prelink::PreLinkMetadata;
    use crate::binary::UserData;
    use crate::isa::{Gen, Target, Wave};

    fn written(md: &PalMetadata) -> Vec<u8> {
        let mut out = Vec::new();
        write_metadata(&mut out, md).unwrap();
        out
    }

    fn compute(gen: Gen) -> PalMetadata {
        let mut info = ComputeShaderInfo::new(Target::new(gen));
        info.vgprs = 40;
        info.sgprs = 30;
        info.user_data = vec![UserData::GlobalTable, UserData::Entry(3)];
        info.workgroup_size = [64, 2, 1];
        info.to_metadata().unwrap()
    }

    #[test]
    fn the_bytes_of_the_value_tree() {
        for gen in Gen::ALL {
            let md = compute(gen);
            assert_eq!(written(&md), encode(&md.to_value()).unwrap(), "{gen}");
        }
    }

    /// Foreign keys at every level, before, between and after the modelled ones (unsigned
    /// keys first), one shadowing a modelled field, optional fields on and off, several
    /// hardware and API stages whose key order differs from their enum order.
    #[test]
    fn foreign_keys_go_where_the_tree_puts_them() {
        let foreign = |names: &[&str]| -> BTreeMap<Key, Value> {
            let mut m: BTreeMap<Key, Value> =
                names.iter().map(|n| (Key::str(n), Value::str(n))).collect();
            m.insert(Key::UInt(7), Value::Bool(true));
            m
        };
        let mut md = compute(Gen::Gfx10);
        md.extra = foreign(&["a", "amdpal.q", "zz"]);
        let p = &mut md.pipeline;
        p.extra = foreign(&[".a", ".hz", ".type", ".u", ".zz"]);
        p.name = Some("pipe".into());
        let cs = p.hardware_stages[&HwStage::Cs].clone();
        let mut ps = cs.clone();
        ps.extra = foreign(&[".b", ".f", ".t", ".w", ".x"]);
        ps.wavefront_size = None;
        ps.threadgroup_dimensions = None;
        p.hardware_stages.insert(HwStage::Ps, ps.clone());
        p.hardware_stages.insert(HwStage::Vs, ps);
        p.hardware_stages.insert(HwStage::Gs, cs);
        let sh = p.shaders[&ApiStage::Compute].clone();
        let mut vx = sh.clone();
        vx.extra = foreign(&[".a", ".b", ".i"]);
        vx.hardware_mapping = vec![HwStage::Vs, HwStage::Gs];
        p.shaders.insert(ApiStage::Vertex, vx);
        p.shaders.insert(ApiStage::Pixel, sh);
        assert_eq!(written(&md), encode(&md.to_value()).unwrap());
        md.version = None;
        md.pipeline.name = None;
        let mut pl = PreLinkMetadata::new(HwStage::Cs);
        pl.missing_state = vec!["user_data".into()];
        md.prelink = Some(pl);
        assert_eq!(written(&md), encode(&md.to_value()).unwrap());
        md.pipeline
            .hardware_stages
            .get_mut(&HwStage::Cs)
            .unwrap()
            .wavefront_size = Some(Wave::W64);
        assert_eq!(written(&md), encode(&md.to_value()).unwrap());
    }
}
