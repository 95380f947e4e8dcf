//! Merging PAL metadata trees for the link stage (issue 7), on the generic [`Value`] form.
//!
//! [`merge_metadata`] folds a part's tree (prolog, epilog, or another shader of the same
//! pipeline) into the main tree:
//! - `amdpal.version`: majors must agree (a missing version means 2, as in LLVM); the main
//!   tree's version is kept.
//! - `.registers`, field-aware:
//!   * any stage's PGM_RSRC1: VGPRS (5:0) and SGPRS (9:6) take the maximum, every other bit
//!     is ORed (as llc ORs callee needs into the entry's RSRC1);
//!   * COMPUTE_PGM_RSRC2: USER_SGPR, TIDIG_COMP_CNT and LDS_SIZE take the maximum, the rest
//!     is ORed; graphics PGM_RSRC2: USER_SGPR takes the maximum, the rest is ORed;
//!   * COMPUTE_PGM_RSRC3: SHARED_VGPR_COUNT and INST_PREF_SIZE take the maximum;
//!   * COMPUTE_NUM_THREAD_X/Y/Z and COMPUTE_DISPATCH_INITIATOR must be equal (they describe
//!     the dispatch, not a resource need);
//!   * USER_DATA_i registers keep the main tree's values: the user-data map is not a union,
//!     the link stage rewrites it with [`rewrite_user_data`];
//!   * any other register is ORed.
//! - `.hardware_stages`: `.sgpr_count`, `.vgpr_count`, `.scratch_memory_size`, `.lds_size`
//!   take the maximum; `.wavefront_size` and `.threadgroup_dimensions` must be equal; other
//!   keys keep the main tree's value; stages only the part has are copied.
//! - Everything else keeps the main tree's value, and keys only the part has are copied.
//! - `gcnc.prelink` never survives a merge: it is dropped from the result.
//!
//! These match what PAL does when it links compute shader libraries (`LinkWithLibraries`:
//! counts and sizes maxed, enable bits ORed, wave sizes must agree).
//!
//! Conflicts are `Error::Metadata` with the path of the conflicting value; on error the
//! main tree may be partly merged, so the caller merges into a copy it can discard.
//!
//! [`merge_pal`] and [`rewrite_user_data_pal`] apply the same rules to the typed
//! [`PalMetadata`] (what the link stage merges). A typed tree has every key its `to_value`
//! writes, so on trees the backend wrote (which have them all) both forms give the same
//! bytes; a foreign tree missing some of them comes out with their defaults.

use super::error::{Error, Result};
use super::metadata::{
    HardwareStage, HwStage, PalMetadata, KEY_PIPELINES, KEY_PRELINK, KEY_VERSION,
};
use super::msgpack::{join_path, Key, Value};
use super::prelink::PreLinkMetadata;
use super::registers::{self, UserData};
use crate::isa::Wave;
use std::collections::BTreeMap;

/// How one register is combined.
enum RegRule {
    /// Bit fields (shift, width) that take the maximum; all other bits are ORed.
    MaxFields(&'static [(u32, u32)]),
    /// Must be equal.
    Equal,
    /// The main tree's value wins.
    KeepBase,
}

const RSRC1_MAX: &[(u32, u32)] = &[(0, 6), (6, 4)];
const CS_RSRC2_MAX: &[(u32, u32)] = &[(1, 5), (11, 2), (15, 9)];
const GFX_RSRC2_MAX: &[(u32, u32)] = &[(1, 5)];
const CS_RSRC3_MAX: &[(u32, u32)] = &[(0, 4), (4, 6)];

fn rule(reg: u32) -> RegRule {
    use registers::*;
    match reg {
        COMPUTE_NUM_THREAD_X
        | COMPUTE_NUM_THREAD_Y
        | COMPUTE_NUM_THREAD_Z
        | COMPUTE_DISPATCH_INITIATOR => return RegRule::Equal,
        COMPUTE_PGM_RSRC2 => return RegRule::MaxFields(CS_RSRC2_MAX),
        COMPUTE_PGM_RSRC3 => return RegRule::MaxFields(CS_RSRC3_MAX),
        _ => {}
    }
    for s in HwStage::ALL {
        if reg == s.rsrc1() {
            return RegRule::MaxFields(RSRC1_MAX);
        }
        if reg == s.rsrc2() {
            return RegRule::MaxFields(GFX_RSRC2_MAX);
        }
        let base = s.user_data_base();
        if (base..base + s.user_data_count()).contains(&reg) {
            return RegRule::KeepBase;
        }
    }
    RegRule::MaxFields(&[])
}

/// Combines two values of register `reg` by the rules above.
pub fn merge_register(reg: u32, base: u32, part: u32) -> Result<u32> {
    Ok(match rule(reg) {
        RegRule::Equal => {
            if base != part {
                return Err(Error::metadata(
                    format!("registers.{reg:#x}"),
                    format!("main has {base:#x}, part has {part:#x}; they must be equal"),
                ));
            }
            base
        }
        RegRule::KeepBase => base,
        RegRule::MaxFields(fields) => {
            let mut out = base | part;
            for &(shift, width) in fields {
                let mask = ((1u64 << width) - 1) as u32;
                let m = (base >> shift & mask).max(part >> shift & mask);
                out = (out & !(mask << shift)) | m << shift;
            }
            out
        }
    })
}

fn pipeline_mut(tree: &mut Value) -> Result<&mut BTreeMap<Key, Value>> {
    tree.get_mut(KEY_PIPELINES)
        .and_then(|p| match p {
            Value::Array(a) if a.len() == 1 => a[0].as_map_mut(),
            _ => None,
        })
        .ok_or_else(|| Error::metadata(KEY_PIPELINES, "missing, or not one pipeline map"))
}

fn pipeline(tree: &Value) -> Result<&BTreeMap<Key, Value>> {
    tree.get(KEY_PIPELINES)
        .and_then(|p| match p.as_array() {
            Some([m]) => m.as_map(),
            _ => None,
        })
        .ok_or_else(|| Error::metadata(KEY_PIPELINES, "missing, or not one pipeline map"))
}

/// Removes and returns the pre-link section of an unlinked shader's tree.
pub fn take_prelink(tree: &mut Value) -> Result<Option<PreLinkMetadata>> {
    let map = tree
        .as_map_mut()
        .ok_or_else(|| Error::metadata("", "metadata is not a map"))?;
    match map.remove(&Key::str(KEY_PRELINK)) {
        Some(v) => Ok(Some(PreLinkMetadata::from_owned_value(v)?)),
        None => Ok(None),
    }
}

fn uint_of(v: &Value, path: &str) -> Result<u64> {
    v.as_uint()
        .ok_or_else(|| Error::metadata(path, format!("expected a uint, found a {}", v.kind())))
}

fn merge_registers(base: &mut Value, part: &Value, path: &str) -> Result<()> {
    let (Some(bm), Some(pm)) = (base.as_map_mut(), part.as_map()) else {
        return Err(Error::metadata(path, "expected maps"));
    };
    for (k, pv) in pm {
        let kp = join_path(path, k);
        let Key::UInt(reg) = k else {
            return Err(Error::metadata(kp, "register key is a string"));
        };
        let reg = u32::try_from(*reg).map_err(|_| Error::metadata(&kp, "key over 32 bits"))?;
        let p = uint_of(pv, &kp)?;
        match bm.get_mut(k) {
            None => {
                bm.insert(k.clone(), pv.clone());
            }
            Some(bv) => {
                let b = uint_of(bv, &kp)?;
                let (b, p) = (
                    u32::try_from(b).map_err(|_| Error::metadata(&kp, "value over 32 bits"))?,
                    u32::try_from(p).map_err(|_| Error::metadata(&kp, "value over 32 bits"))?,
                );
                let merged = merge_register(reg, b, p).map_err(|e| match e {
                    Error::Metadata { reason, .. } => Error::metadata(&kp, reason),
                    other => other,
                })?;
                *bv = Value::from(merged);
            }
        }
    }
    Ok(())
}

fn merge_stage(base: &mut Value, part: &Value, path: &str) -> Result<()> {
    let (Some(bm), Some(pm)) = (base.as_map_mut(), part.as_map()) else {
        return Err(Error::metadata(path, "expected maps"));
    };
    for (k, pv) in pm {
        let kp = join_path(path, k);
        let Some(bv) = bm.get_mut(k) else {
            bm.insert(k.clone(), pv.clone());
            continue;
        };
        match k {
            Key::Str(s)
                if matches!(
                    s.as_str(),
                    ".sgpr_count" | ".vgpr_count" | ".scratch_memory_size" | ".lds_size"
                ) =>
            {
                let m = uint_of(bv, &kp)?.max(uint_of(pv, &kp)?);
                *bv = Value::UInt(m);
            }
            Key::Str(s)
                if matches!(s.as_str(), ".wavefront_size" | ".threadgroup_dimensions")
                    && bv != pv =>
            {
                return Err(Error::metadata(
                    kp,
                    format!("main has {bv:?}, part has {pv:?}; they must be equal"),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Folds `part` into `base` (see the module doc for the rules).
pub fn merge_metadata(base: &mut Value, part: &Value) -> Result<()> {
    // A tree without a version is LLVM's default, 2.x.
    let major = |t: &Value| -> Result<u64> {
        match t.get(KEY_VERSION) {
            None => Ok(2),
            Some(v) => v
                .as_array()
                .and_then(|a| a.first())
                .and_then(|v| v.as_uint())
                .ok_or_else(|| Error::metadata(KEY_VERSION, "malformed")),
        }
    };
    let (bmaj, pmaj) = (major(base)?, major(part)?);
    if bmaj != pmaj {
        return Err(Error::metadata(
            KEY_VERSION,
            format!("main is version {bmaj}.x, part is {pmaj}.x"),
        ));
    }
    let part_pipe = pipeline(part)?;
    let base_pipe = pipeline_mut(base)?;
    let ppath = format!("{KEY_PIPELINES}[0]");
    for (k, pv) in part_pipe {
        let kp = join_path(&ppath, k);
        let Some(bv) = base_pipe.get_mut(k) else {
            base_pipe.insert(k.clone(), pv.clone());
            continue;
        };
        match k {
            Key::Str(s) if s == ".registers" => merge_registers(bv, pv, &kp)?,
            Key::Str(s) if s == ".hardware_stages" => {
                let (Some(bm), Some(pm)) = (bv.as_map_mut(), pv.as_map()) else {
                    return Err(Error::metadata(kp, "expected maps"));
                };
                for (sk, sv) in pm {
                    match bm.get_mut(sk) {
                        Some(b) => merge_stage(b, sv, &join_path(&kp, sk))?,
                        None => {
                            bm.insert(sk.clone(), sv.clone());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // Top-level keys only the part has (other than its pre-link section).
    let part_top = part
        .as_map()
        .ok_or_else(|| Error::metadata("", "metadata is not a map"))?;
    let base_top = base
        .as_map_mut()
        .ok_or_else(|| Error::metadata("", "metadata is not a map"))?;
    for (k, v) in part_top {
        if *k != Key::str(KEY_PRELINK) && !base_top.contains_key(k) {
            base_top.insert(k.clone(), v.clone());
        }
    }
    base_top.remove(&Key::str(KEY_PRELINK));
    Ok(())
}

/// Replaces a stage's user-data mapping: removes every USER_DATA_i register of the stage,
/// writes `map` (index = user SGPR), sets the stage's RSRC2.USER_SGPR to `map.len()`, and
/// recomputes `.user_data_limit` from the entries used.
pub fn rewrite_user_data(tree: &mut Value, stage: HwStage, map: &[UserData]) -> Result<()> {
    let ppath = format!("{KEY_PIPELINES}[0]");
    check_user_data_len(stage, map)?;
    let new_regs: Vec<(u32, u32)> = if stage == HwStage::Cs {
        registers::user_data_registers(map)?
    } else {
        map.iter()
            .enumerate()
            .map(|(i, u)| (stage.user_data_base() + i as u32, u.encode()))
            .collect()
    };
    let pipe = pipeline_mut(tree)?;
    let regs = pipe
        .entry(Key::str(".registers"))
        .or_insert_with(Value::map)
        .as_map_mut()
        .ok_or_else(|| Error::metadata(format!("{ppath}.registers"), "not a map"))?;
    let base = stage.user_data_base();
    for i in 0..stage.user_data_count() {
        regs.remove(&Key::from(base + i));
    }
    for (r, v) in new_regs {
        regs.insert(Key::from(r), Value::from(v));
    }
    let rsrc2_key = Key::from(stage.rsrc2());
    let rsrc2 = match regs.get(&rsrc2_key) {
        Some(v) => uint_of(v, &format!("{ppath}.registers.{rsrc2_key}"))? as u32,
        None => 0,
    };
    let rsrc2 = (rsrc2 & !(0x1f << 1)) | (map.len() as u32) << 1;
    regs.insert(rsrc2_key, Value::from(rsrc2));
    // The limit covers every stage's entries, so recompute it over all user-data registers.
    let mut limit = 0u32;
    for s in HwStage::ALL {
        let b = s.user_data_base();
        for i in 0..s.user_data_count() {
            if let Some(Value::UInt(v)) = regs.get(&Key::from(b + i)) {
                if let Some(UserData::Entry(n)) = UserData::decode(*v as u32) {
                    limit = limit.max(n + 1);
                }
            }
        }
    }
    pipe.insert(Key::str(".user_data_limit"), Value::from(limit));
    Ok(())
}

// ------------------------------------------------------------ the typed model
// The same rules on `PalMetadata`, which the link stage merges (no `Value` tree per link).
// A typed tree always has the keys `to_value` writes (`.type`, `.registers`, every stage's
// counts, ...), so "keys only the part has" are its `extra` keys and its optional fields.

/// The major version of a typed tree (none means LLVM's default, 2.x).
fn major_of(md: &PalMetadata) -> u32 {
    md.version.map_or(2, |v| v.0)
}

/// [`merge_metadata`] on the typed model: the same rules, the same errors.
pub fn merge_pal(base: &mut PalMetadata, part: &PalMetadata) -> Result<()> {
    let (bmaj, pmaj) = (major_of(base), major_of(part));
    if bmaj != pmaj {
        return Err(Error::metadata(
            KEY_VERSION,
            format!("main is version {bmaj}.x, part is {pmaj}.x"),
        ));
    }
    let (bp, pp) = (&mut base.pipeline, &part.pipeline);
    if bp.name.is_none() {
        bp.name.clone_from(&pp.name);
    }
    // in the tree's key order (`.hardware_stages` < `.registers`), so the first conflict
    // reported is the same
    for (stage, ps) in &pp.hardware_stages {
        match bp.hardware_stages.get_mut(stage) {
            Some(bs) => merge_hardware_stage(bs, ps, *stage)?,
            None => {
                bp.hardware_stages.insert(*stage, ps.clone());
            }
        }
    }
    for (&reg, &p) in &pp.registers {
        match bp.registers.get_mut(&reg) {
            None => {
                bp.registers.insert(reg, p);
            }
            Some(b) => {
                *b = merge_register(reg, *b, p).map_err(|e| match e {
                    Error::Metadata { reason, .. } => {
                        Error::metadata(format!("{KEY_PIPELINES}[0].registers.{reg:#x}"), reason)
                    }
                    other => other,
                })?;
            }
        }
    }
    copy_missing(&mut bp.extra, &pp.extra);
    if base.version.is_none() {
        base.version = part.version;
    }
    copy_missing(&mut base.extra, &part.extra);
    base.prelink = None;
    Ok(())
}

/// The entries of `part` whose keys `base` lacks, copied into it.
fn copy_missing(base: &mut BTreeMap<Key, Value>, part: &BTreeMap<Key, Value>) {
    for (k, v) in part {
        if !base.contains_key(k) {
            base.insert(k.clone(), v.clone());
        }
    }
}

fn merge_hardware_stage(b: &mut HardwareStage, p: &HardwareStage, stage: HwStage) -> Result<()> {
    b.sgpr_count = b.sgpr_count.max(p.sgpr_count);
    b.vgpr_count = b.vgpr_count.max(p.vgpr_count);
    b.scratch_memory_size = b.scratch_memory_size.max(p.scratch_memory_size);
    b.lds_size = b.lds_size.max(p.lds_size);
    let path = |key: &str| format!("{KEY_PIPELINES}[0].hardware_stages{}{key}", stage.key_str());
    // `.threadgroup_dimensions` before `.wavefront_size`, the tree's key order
    merge_equal(
        &mut b.threadgroup_dimensions,
        p.threadgroup_dimensions,
        || path(".threadgroup_dimensions"),
        |d| Value::Array(d.iter().map(|&x| Value::from(x)).collect()),
    )?;
    merge_equal(
        &mut b.wavefront_size,
        p.wavefront_size,
        || path(".wavefront_size"),
        |w: Wave| Value::from(w.lanes()),
    )?;
    copy_missing(&mut b.extra, &p.extra);
    Ok(())
}

/// A field main and part must agree on: taken from the part when main has none, an error
/// at `path` (formatted only then) when both have it and differ.
fn merge_equal<T: Copy + PartialEq>(
    b: &mut Option<T>,
    p: Option<T>,
    path: impl Fn() -> String,
    show: impl Fn(T) -> Value,
) -> Result<()> {
    match (*b, p) {
        (None, v) => *b = v,
        (Some(x), Some(y)) if x != y => {
            return Err(Error::metadata(
                path(),
                format!(
                    "main has {:?}, part has {:?}; they must be equal",
                    show(x),
                    show(y)
                ),
            ))
        }
        _ => {}
    }
    Ok(())
}

/// A user-data map must fit the stage's user SGPRs.
fn check_user_data_len(stage: HwStage, map: &[UserData]) -> Result<()> {
    if map.len() > stage.user_data_count() as usize {
        return Err(Error::invalid(
            "user-data map",
            format!(
                "{} user SGPRs, the {} stage has {}",
                map.len(),
                stage.short(),
                stage.user_data_count()
            ),
        ));
    }
    Ok(())
}

/// [`rewrite_user_data`] on the typed model.
pub fn rewrite_user_data_pal(md: &mut PalMetadata, stage: HwStage, map: &[UserData]) -> Result<()> {
    check_user_data_len(stage, map)?;
    let regs = &mut md.pipeline.registers;
    let base = stage.user_data_base();
    for i in 0..stage.user_data_count() {
        regs.remove(&(base + i));
    }
    if stage == HwStage::Cs {
        regs.extend(registers::user_data_registers(map)?);
    } else {
        regs.extend(
            map.iter()
                .enumerate()
                .map(|(i, u)| (base + i as u32, u.encode())),
        );
    }
    let rsrc2 = regs.get(&stage.rsrc2()).copied().unwrap_or(0);
    regs.insert(
        stage.rsrc2(),
        (rsrc2 & !(0x1f << 1)) | (map.len() as u32) << 1,
    );
    // The limit covers every stage's entries, so recompute it over all user-data registers.
    let mut limit = 0u32;
    for s in HwStage::ALL {
        let b = s.user_data_base();
        for (_, &v) in regs.range(b..b + s.user_data_count()) {
            if let Some(UserData::Entry(n)) = UserData::decode(v) {
                limit = limit.max(n + 1);
            }
        }
    }
    md.pipeline.user_data_limit = limit;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_rules() {
        use registers::*;
        // RSRC1: VGPRS max(2,5)=5, SGPRS max(1,0)=1, IEEE from the part ORed in.
        let a = 0x002f_0042;
        let b = 0x00af_0005;
        assert_eq!(
            merge_register(COMPUTE_PGM_RSRC1, a, b).unwrap(),
            0x00af_0045
        );
        // RSRC2: USER_SGPR max(6, 2)=6, LDS max(2 granules, 1 granule)=2, TGID_X ORed.
        let a = 6 << 1 | 2 << 15;
        let b = 2 << 1 | 1 << 15 | 1 << 7;
        assert_eq!(
            merge_register(COMPUTE_PGM_RSRC2, a, b).unwrap(),
            6 << 1 | 2 << 15 | 1 << 7
        );
        assert!(merge_register(COMPUTE_NUM_THREAD_X, 64, 32).is_err());
        assert_eq!(merge_register(COMPUTE_USER_DATA_0 + 3, 7, 9).unwrap(), 7);
    }

    /// The typed merge and user-data rewrite give the tree the generic ones give, for
    /// trees the backend writes (every modelled key present), and the same conflicts.
    #[test]
    fn typed_merge_is_the_tree_merge() {
        use crate::binary::compute::ComputeShaderInfo;
        use crate::isa::{Gen, Target};
        for gen in Gen::ALL {
            let mut a = ComputeShaderInfo::new(Target::new(gen));
            a.vgprs = 20;
            a.sgprs = 12;
            a.user_data = vec![
                UserData::GlobalTable,
                UserData::Entry(0),
                UserData::Entry(1),
            ];
            a.tgid_en = [true, true, false];
            let mut b = a.clone();
            b.vgprs = 33;
            b.sgprs = 7;
            b.lds_bytes = 512;
            let (mut ta, tb) = (a.to_metadata().unwrap(), b.to_metadata().unwrap());
            ta.version = None;
            let mut tree = ta.to_value();
            merge_metadata(&mut tree, &tb.to_value()).unwrap();
            let map = [UserData::GlobalTable, UserData::Entry(5)];
            rewrite_user_data(&mut tree, HwStage::Cs, &map).unwrap();
            merge_pal(&mut ta, &tb).unwrap();
            rewrite_user_data_pal(&mut ta, HwStage::Cs, &map).unwrap();
            assert_eq!(ta.to_value(), tree, "{gen}");

            b.workgroup_size = [32, 1, 1];
            let mut tree = a.to_metadata().unwrap().to_value();
            let tree_err = merge_metadata(&mut tree, &b.to_metadata().unwrap().to_value());
            let mut typed = a.to_metadata().unwrap();
            let typed_err = merge_pal(&mut typed, &b.to_metadata().unwrap());
            assert_eq!(
                typed_err.unwrap_err().to_string(),
                tree_err.unwrap_err().to_string()
            );
        }
    }
}
