//! The typed PAL metadata model and its msgpack form (pal-abi.md §2).
//!
//! We emit **PAL metadata version 2.6** (register style, `.registers` with COMPUTE_PGM_RSRC1/2/3,
//! NUM_THREAD_X/Y/Z, DISPATCH_INITIATOR and COMPUTE_USER_DATA_i): it is what llc-19 emits by
//! default for all three targets, older PAL accepts only major version 2, and current PAL
//! accepts 2 and 3 alike (`DeserializeCodeObjectMetadata`: "Metadata version 3 is backwards
//! compatible"). docs/pal-elf.md explains the choice.
//!
//! Layers:
//! - [`super::compute::ComputeShaderInfo`] (its own file): the facts the backend knows about
//!   a compiled compute shader, packed into this model.
//! - [`PalMetadata`]: the typed tree (pipeline, API shaders, hardware stages, registers,
//!   optional pre-link section). `to_value` / `from_value` convert to and from the generic
//!   [`Value`] tree; unknown keys are kept in `extra` maps so foreign metadata survives a
//!   typed round trip.
//! - [`PalMetadata::to_msgpack`] / [`PalMetadata::from_msgpack`]: bytes of the
//!   NT_AMDGPU_METADATA note.
//!
//! Module layering: `metadata` uses `prelink` (the embedded pre-link tree), `registers`
//! (`HwStage`, re-exported here) and `msgpack` (typed field readers); none of them uses it.
//!
//! Invariant: `from_value(&m.to_value()) == m` for every model `to_value` accepts, and maps
//! serialise in key order, so equal models give equal bytes.

use super::error::{Error, Result};
use super::msgpack::{self, into_map, join_path, opt_str, opt_u32, to_u32, Key, Value};
use super::prelink::PreLinkMetadata;
pub use super::registers::HwStage;
use super::registers::{self, FloatMode, UserData};
use crate::isa::Wave;
use std::collections::BTreeMap;

/// The PAL metadata version we emit.
pub const PAL_METADATA_VERSION: (u32, u32) = (2, 6);

/// Top-level key of the version array.
pub const KEY_VERSION: &str = "amdpal.version";
/// Top-level key of the pipeline array.
pub const KEY_PIPELINES: &str = "amdpal.pipelines";
/// Top-level key of our pre-link section (removed by the link stage).
pub use super::prelink::KEY_PRELINK;

/// An API shader stage (`.shaders` keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ApiStage {
    /// `.compute`
    Compute,
    /// `.vertex`
    Vertex,
    /// `.hull`
    Hull,
    /// `.domain`
    Domain,
    /// `.geometry`
    Geometry,
    /// `.pixel`
    Pixel,
    /// `.task`
    Task,
    /// `.mesh`
    Mesh,
}

impl ApiStage {
    const ALL: [ApiStage; 8] = [
        ApiStage::Compute,
        ApiStage::Vertex,
        ApiStage::Hull,
        ApiStage::Domain,
        ApiStage::Geometry,
        ApiStage::Pixel,
        ApiStage::Task,
        ApiStage::Mesh,
    ];

    /// Metadata key.
    pub fn key(self) -> &'static str {
        match self {
            ApiStage::Compute => ".compute",
            ApiStage::Vertex => ".vertex",
            ApiStage::Hull => ".hull",
            ApiStage::Domain => ".domain",
            ApiStage::Geometry => ".geometry",
            ApiStage::Pixel => ".pixel",
            ApiStage::Task => ".task",
            ApiStage::Mesh => ".mesh",
        }
    }

    /// From a metadata key.
    pub fn from_key(key: &str) -> Option<ApiStage> {
        ApiStage::ALL.into_iter().find(|s| s.key() == key)
    }
}

/// One `.shaders` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiShader {
    /// `.api_shader_hash`: a 128-bit hash of the API shader.
    pub api_shader_hash: [u64; 2],
    /// `.hardware_mapping`: the hardware stages it runs in.
    pub hardware_mapping: Vec<HwStage>,
    /// Keys we do not model.
    pub extra: BTreeMap<Key, Value>,
}

/// One `.hardware_stages` entry (2.6 keys).
#[derive(Clone, Debug, PartialEq)]
pub struct HardwareStage {
    /// `.entry_point`: the ELF symbol of the stage entry.
    pub entry_point: String,
    /// `.scratch_memory_size`: scratch bytes per lane (16-byte multiple).
    pub scratch_memory_size: u32,
    /// `.lds_size`: LDS bytes per workgroup.
    pub lds_size: u32,
    /// `.sgpr_count` (advisory; includes VCC, and XNACK_MASK on xnack targets).
    pub sgpr_count: u32,
    /// `.vgpr_count` (advisory).
    pub vgpr_count: u32,
    /// `.wavefront_size`.
    pub wavefront_size: Option<Wave>,
    /// `.threadgroup_dimensions` (compute).
    pub threadgroup_dimensions: Option<[u32; 3]>,
    /// Keys we do not model.
    pub extra: BTreeMap<Key, Value>,
}

/// The one pipeline of `amdpal.pipelines`.
#[derive(Clone, Debug, PartialEq)]
pub struct PipelineMetadata {
    /// `.name`.
    pub name: Option<String>,
    /// `.type`: `Cs`, `VsPs`, `Ngg`, ...
    pub pipeline_type: String,
    /// `.api`: `Vulkan`.
    pub api: String,
    /// `.internal_pipeline_hash`: [stable, unique].
    pub internal_pipeline_hash: [u64; 2],
    /// `.shaders`.
    pub shaders: BTreeMap<ApiStage, ApiShader>,
    /// `.hardware_stages`.
    pub hardware_stages: BTreeMap<HwStage, HardwareStage>,
    /// `.registers`: register number -> value.
    pub registers: BTreeMap<u32, u32>,
    /// `.user_data_limit`: number of user-data entries the pipeline reads.
    pub user_data_limit: u32,
    /// `.spill_threshold`: first user-data entry spilled to memory (0xFFFF = none).
    pub spill_threshold: u32,
    /// Keys we do not model.
    pub extra: BTreeMap<Key, Value>,
}

impl PipelineMetadata {
    /// The user-SGPR mapping of a stage, decoded from its USER_DATA_i registers, in SGPR
    /// order and up to the last mapped register.
    pub fn user_data_map(&self, stage: HwStage) -> Result<Vec<UserData>> {
        let base = stage.user_data_base();
        let mut out = Vec::new();
        for i in 0..stage.user_data_count() {
            if let Some(&v) = self.registers.get(&(base + i)) {
                let ud = UserData::decode(v).ok_or_else(|| {
                    Error::metadata(
                        format!("registers.{:#x}", base + i),
                        format!("{v:#x} is not a user-data mapping value"),
                    )
                })?;
                out.resize(i as usize, UserData::Unused);
                out.push(ud);
            }
        }
        Ok(out)
    }

    /// The FLOAT_MODE byte of a stage's RSRC1, if that register is present.
    pub fn float_mode(&self, stage: HwStage) -> Option<FloatMode> {
        self.registers
            .get(&stage.rsrc1())
            .map(|v| FloatMode((v >> 12) as u8))
    }

    /// A stage's wave size: its `.wavefront_size`, else (llc writes none) wave32 when
    /// COMPUTE_DISPATCH_INITIATOR has CS_W32_EN, else wave64. Not checked against the
    /// generation.
    pub fn wave(&self, stage: HwStage) -> Wave {
        let w32 = self
            .registers
            .get(&registers::COMPUTE_DISPATCH_INITIATOR)
            .is_some_and(|v| v & registers::DISPATCH_INITIATOR_CS_W32_EN != 0);
        match self
            .hardware_stages
            .get(&stage)
            .and_then(|s| s.wavefront_size)
        {
            Some(w) => w,
            None if w32 => Wave::W32,
            None => Wave::W64,
        }
    }
}

/// The whole NT_AMDGPU_METADATA payload.
#[derive(Clone, Debug, PartialEq)]
pub struct PalMetadata {
    /// `amdpal.version`. PAL requires it; llc omits it when the frontend gave no metadata,
    /// and then means 2.6.
    pub version: Option<(u32, u32)>,
    /// `amdpal.pipelines[0]`.
    pub pipeline: PipelineMetadata,
    /// `gcnc.prelink`: present only in unlinked shaders.
    pub prelink: Option<PreLinkMetadata>,
    /// Other top-level keys.
    pub extra: BTreeMap<Key, Value>,
}

fn hash_value(h: [u64; 2]) -> Value {
    Value::Array(vec![Value::UInt(h[0]), Value::UInt(h[1])])
}

fn put(map: &mut BTreeMap<Key, Value>, key: &str, value: impl Into<Value>) {
    map.insert(Key::str(key), value.into());
}

impl HardwareStage {
    fn to_value(&self) -> Value {
        let mut m = self.extra.clone();
        put(&mut m, ".entry_point", self.entry_point.as_str());
        put(&mut m, ".scratch_memory_size", self.scratch_memory_size);
        put(&mut m, ".lds_size", self.lds_size);
        put(&mut m, ".sgpr_count", self.sgpr_count);
        put(&mut m, ".vgpr_count", self.vgpr_count);
        if let Some(w) = self.wavefront_size {
            put(&mut m, ".wavefront_size", w.lanes());
        }
        if let Some(d) = self.threadgroup_dimensions {
            m.insert(
                Key::str(".threadgroup_dimensions"),
                Value::Array(d.iter().map(|&x| Value::from(x)).collect()),
            );
        }
        Value::Map(m)
    }
}

impl PalMetadata {
    /// The generic tree.
    pub fn to_value(&self) -> Value {
        let p = &self.pipeline;
        let mut pm = p.extra.clone();
        if let Some(name) = &p.name {
            put(&mut pm, ".name", name.as_str());
        }
        put(&mut pm, ".type", p.pipeline_type.as_str());
        put(&mut pm, ".api", p.api.as_str());
        pm.insert(
            Key::str(".internal_pipeline_hash"),
            hash_value(p.internal_pipeline_hash),
        );
        let mut shaders = BTreeMap::new();
        for (stage, s) in &p.shaders {
            let mut sm = s.extra.clone();
            sm.insert(Key::str(".api_shader_hash"), hash_value(s.api_shader_hash));
            sm.insert(
                Key::str(".hardware_mapping"),
                Value::Array(
                    s.hardware_mapping
                        .iter()
                        .map(|h| Value::Str(h.key()))
                        .collect(),
                ),
            );
            shaders.insert(Key::str(stage.key()), Value::Map(sm));
        }
        pm.insert(Key::str(".shaders"), Value::Map(shaders));
        let stages = p
            .hardware_stages
            .iter()
            .map(|(s, hw)| (Key::Str(s.key()), hw.to_value()))
            .collect();
        pm.insert(Key::str(".hardware_stages"), Value::Map(stages));
        let regs = p
            .registers
            .iter()
            .map(|(&r, &v)| (Key::from(r), Value::from(v)))
            .collect();
        pm.insert(Key::str(".registers"), Value::Map(regs));
        put(&mut pm, ".user_data_limit", p.user_data_limit);
        put(&mut pm, ".spill_threshold", p.spill_threshold);

        let mut top = self.extra.clone();
        if let Some((major, minor)) = self.version {
            top.insert(
                Key::str(KEY_VERSION),
                Value::Array(vec![major.into(), minor.into()]),
            );
        }
        top.insert(Key::str(KEY_PIPELINES), Value::Array(vec![Value::Map(pm)]));
        if let Some(pl) = &self.prelink {
            top.insert(Key::str(KEY_PRELINK), pl.to_value());
        }
        Value::Map(top)
    }

    /// The NT_AMDGPU_METADATA payload bytes (`msgpack::encode(&self.to_value())`, written
    /// without building the tree: [`super::metadata_write`]).
    pub fn to_msgpack(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        super::metadata_write::write_metadata(&mut out, self)?;
        Ok(out)
    }

    /// Parses NT_AMDGPU_METADATA payload bytes.
    pub fn from_msgpack(bytes: &[u8]) -> Result<PalMetadata> {
        PalMetadata::from_owned_value(msgpack::decode(bytes)?)
    }

    /// Reads the typed model from a tree (e.g. one llc wrote, or one the linker merged).
    pub fn from_value(v: &Value) -> Result<PalMetadata> {
        PalMetadata::from_owned_value(v.clone())
    }

    /// [`PalMetadata::from_value`] of a tree the caller gives up: its parts move into the
    /// model (the unknown keys kept as `extra`) instead of being copied level by level.
    pub fn from_owned_value(v: Value) -> Result<PalMetadata> {
        let mut top = into_map(v, "")?;
        let version = match top.remove(&Key::str(KEY_VERSION)) {
            Some(v) => {
                let a = pair_u64(&v, KEY_VERSION)?;
                let version = (to_u32(a[0], KEY_VERSION)?, to_u32(a[1], KEY_VERSION)?);
                if version.0 != 2 && version.0 != 3 {
                    return Err(Error::metadata(
                        KEY_VERSION,
                        format!("unsupported major version {}", version.0),
                    ));
                }
                Some(version)
            }
            None => None,
        };
        let pipes = top
            .remove(&Key::str(KEY_PIPELINES))
            .ok_or_else(|| Error::metadata(KEY_PIPELINES, "missing"))?;
        let Value::Array(pipes) = pipes else {
            return Err(Error::metadata(KEY_PIPELINES, "not an array"));
        };
        if pipes.len() != 1 {
            return Err(Error::metadata(
                KEY_PIPELINES,
                format!("{} pipelines, PAL expects exactly one", pipes.len()),
            ));
        }
        let path = format!("{KEY_PIPELINES}[0]");
        let pipe = pipes
            .into_iter()
            .next()
            .expect("one pipeline, checked above");
        let mut pm = into_map(pipe, &path)?;
        let name = opt_str(&mut pm, ".name", &path)?;
        let pipeline_type = opt_str(&mut pm, ".type", &path)?.unwrap_or_default();
        let api = opt_str(&mut pm, ".api", &path)?.unwrap_or_default();
        let internal_pipeline_hash = match pm.remove(&Key::str(".internal_pipeline_hash")) {
            Some(v) => pair_u64(&v, &format!("{path}.internal_pipeline_hash"))?,
            None => [0, 0],
        };
        let mut shaders = BTreeMap::new();
        if let Some(v) = pm.remove(&Key::str(".shaders")) {
            let sp = format!("{path}.shaders");
            for (k, sv) in into_map(v, &sp)? {
                let kp = join_path(&sp, &k);
                let stage = match &k {
                    Key::Str(s) => ApiStage::from_key(s),
                    Key::UInt(_) => None,
                }
                .ok_or_else(|| Error::metadata(&kp, "unknown API stage"))?;
                let mut sm = into_map(sv, &kp)?;
                let api_shader_hash = match sm.remove(&Key::str(".api_shader_hash")) {
                    Some(v) => pair_u64(&v, &format!("{kp}.api_shader_hash"))?,
                    None => [0, 0],
                };
                let mut hardware_mapping = Vec::new();
                if let Some(v) = sm.remove(&Key::str(".hardware_mapping")) {
                    let hp = format!("{kp}.hardware_mapping");
                    for h in v
                        .as_array()
                        .ok_or_else(|| Error::metadata(&hp, "not an array"))?
                    {
                        let hs = h
                            .as_str()
                            .and_then(HwStage::from_key)
                            .ok_or_else(|| Error::metadata(&hp, "not a hardware stage name"))?;
                        hardware_mapping.push(hs);
                    }
                }
                shaders.insert(
                    stage,
                    ApiShader {
                        api_shader_hash,
                        hardware_mapping,
                        extra: sm,
                    },
                );
            }
        }
        let mut hardware_stages = BTreeMap::new();
        if let Some(v) = pm.remove(&Key::str(".hardware_stages")) {
            let hp = format!("{path}.hardware_stages");
            for (k, sv) in into_map(v, &hp)? {
                let kp = join_path(&hp, &k);
                let stage = match &k {
                    Key::Str(s) => HwStage::from_key(s),
                    Key::UInt(_) => None,
                }
                .ok_or_else(|| Error::metadata(&kp, "unknown hardware stage"))?;
                hardware_stages.insert(stage, HardwareStage::from_value(sv, &kp)?);
            }
        }
        let mut regs = BTreeMap::new();
        if let Some(v) = pm.remove(&Key::str(".registers")) {
            let rp = format!("{path}.registers");
            for (k, rv) in into_map(v, &rp)? {
                let kp = join_path(&rp, &k);
                let reg = match k {
                    Key::UInt(r) => to_u32(r, &kp)?,
                    Key::Str(_) => return Err(Error::metadata(&kp, "register key is a string")),
                };
                let val = rv
                    .as_uint()
                    .ok_or_else(|| Error::metadata(&kp, format!("value is a {}", rv.kind())))?;
                regs.insert(reg, to_u32(val, &kp)?);
            }
        }
        let user_data_limit = opt_u32(&mut pm, ".user_data_limit", &path)?.unwrap_or(0);
        let spill_threshold = opt_u32(&mut pm, ".spill_threshold", &path)?.unwrap_or(0xffff);
        let prelink = match top.remove(&Key::str(KEY_PRELINK)) {
            Some(v) => Some(PreLinkMetadata::from_owned_value(v)?),
            None => None,
        };
        Ok(PalMetadata {
            version,
            pipeline: PipelineMetadata {
                name,
                pipeline_type,
                api,
                internal_pipeline_hash,
                shaders,
                hardware_stages,
                registers: regs,
                user_data_limit,
                spill_threshold,
                extra: pm,
            },
            prelink,
            extra: top,
        })
    }
}

impl HardwareStage {
    fn from_value(v: Value, path: &str) -> Result<HardwareStage> {
        let mut m = into_map(v, path)?;
        let entry_point = opt_str(&mut m, ".entry_point", path)?.unwrap_or_default();
        let scratch_memory_size = opt_u32(&mut m, ".scratch_memory_size", path)?.unwrap_or(0);
        let lds_size = opt_u32(&mut m, ".lds_size", path)?.unwrap_or(0);
        let sgpr_count = opt_u32(&mut m, ".sgpr_count", path)?.unwrap_or(0);
        let vgpr_count = opt_u32(&mut m, ".vgpr_count", path)?.unwrap_or(0);
        let wavefront_size = match opt_u32(&mut m, ".wavefront_size", path)? {
            Some(w) => Some(Wave::from_lanes(w as u64).ok_or_else(|| {
                Error::metadata(format!("{path}.wavefront_size"), format!("{w} lanes"))
            })?),
            None => None,
        };
        let threadgroup_dimensions = match m.remove(&Key::str(".threadgroup_dimensions")) {
            Some(v) => {
                let p = format!("{path}.threadgroup_dimensions");
                let a = v
                    .as_array()
                    .filter(|a| a.len() == 3)
                    .ok_or_else(|| Error::metadata(&p, "not an array of 3"))?;
                let mut d = [0u32; 3];
                for (i, x) in a.iter().enumerate() {
                    let x = x
                        .as_uint()
                        .ok_or_else(|| Error::metadata(&p, "element is not a uint"))?;
                    d[i] = to_u32(x, &p)?;
                }
                Some(d)
            }
            None => None,
        };
        Ok(HardwareStage {
            entry_point,
            scratch_memory_size,
            lds_size,
            sgpr_count,
            vgpr_count,
            wavefront_size,
            threadgroup_dimensions,
            extra: m,
        })
    }
}

fn pair_u64(v: &Value, path: &str) -> Result<[u64; 2]> {
    match v.as_array() {
        Some([Value::UInt(a), Value::UInt(b)]) => Ok([*a, *b]),
        _ => Err(Error::metadata(path, "expected an array of two uints")),
    }
}
