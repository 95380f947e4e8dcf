//! The draw description: one graphics draw as a JSON file (docs/draw.md), read by
//! `gcnc draw` (the emulator) and `vkref draw` (lavapipe) alike, so both run the same
//! state. It mirrors Vulkan's create-info with VkFormat / VkBlendFactor names without
//! their prefixes.
//!
//! Design: `serde` reads the file into `Desc` (unknown keys are errors, so a typo is not
//! silently ignored); `Desc::load` then resolves relative paths against the file's
//! directory and reads the buffer files, giving a `Draw` with every byte in memory. The
//! enums here are the supported subset: anything else is a parse error naming the key.
//! Invariant: a `Draw` has been checked (`Draw::check`): attachment formats are known,
//! vertex buffers cover the draw, the viewport is not empty, counts are in range.

use crate::pipeline::ImageView;
use gcnc::amdgpu::abi::{Declared, DescriptorKind, PipelineLayout};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Why a description is unusable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescError(pub String);

impl std::fmt::Display for DescError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "draw description: {}", self.0)
    }
}

impl std::error::Error for DescError {}

fn err<T>(s: impl Into<String>) -> Result<T, DescError> {
    Err(DescError(s.into()))
}

#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ShaderRef {
    pub spv: String,
    #[serde(default = "main_entry")]
    pub entry: String,
}

fn main_entry() -> String {
    "main".into()
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Rate {
    Vertex,
    Instance,
}

#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct VertexBufferDesc {
    pub binding: u32,
    pub stride: u32,
    #[serde(default = "vertex_rate")]
    pub rate: Rate,
    /// Instance-rate bindings: instances per element (VK_EXT_vertex_attribute_divisor;
    /// 0 = every instance reads element `first_instance`). Default 1.
    #[serde(default)]
    pub divisor: Option<u32>,
    /// Raw bytes from a file (relative to the description).
    #[serde(default)]
    pub file: Option<String>,
    /// Or the contents inline as 32-bit floats.
    #[serde(default)]
    pub f32: Option<Vec<f32>>,
}

fn vertex_rate() -> Rate {
    Rate::Vertex
}

/// Vertex attribute formats: the compiler's table (`gcnc::amdgpu::vertex_format`), every
/// format Vulkan requires for vertex buffers, by VkFormat name without `VK_FORMAT_`.
pub use gcnc::amdgpu::vertex_format::VertexFormat;

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AttributeDesc {
    pub location: u32,
    pub binding: u32,
    pub format: VertexFormat,
    #[serde(default)]
    pub offset: u32,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Topology {
    TriangleList,
    TriangleStrip,
    PointList,
    LineList,
    LineStrip,
}

impl Topology {
    /// Vertices of one primitive: 1 (points), 2 (lines) or 3 (triangles).
    pub fn vertices(self) -> usize {
        match self {
            Topology::PointList => 1,
            Topology::LineList | Topology::LineStrip => 2,
            Topology::TriangleList | Topology::TriangleStrip => 3,
        }
    }
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum IndexType {
    Uint16,
    Uint32,
}

#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct IndexBufferDesc {
    #[serde(rename = "type")]
    pub ty: IndexType,
    /// Raw little-endian indices from a file (relative to the description).
    #[serde(default)]
    pub file: Option<String>,
    /// Or the indices inline.
    #[serde(default)]
    pub indices: Option<Vec<u32>>,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(deny_unknown_fields)]
pub struct DrawCounts {
    #[serde(default)]
    pub vertex_count: u32,
    /// Indexed draws: indices read from `first_index`, `vertex_offset` added to each.
    #[serde(default)]
    pub index_count: u32,
    #[serde(default)]
    pub first_index: u32,
    #[serde(default)]
    pub vertex_offset: i32,
    #[serde(default = "one")]
    pub instance_count: u32,
    #[serde(default)]
    pub first_vertex: u32,
    #[serde(default)]
    pub first_instance: u32,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Viewport {
    #[serde(default)]
    pub x: f32,
    #[serde(default)]
    pub y: f32,
    pub width: f32,
    pub height: f32,
    #[serde(default)]
    pub min_depth: f32,
    #[serde(default = "one_f")]
    pub max_depth: f32,
}

fn one_f() -> f32 {
    1.0
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CullMode {
    None,
    Front,
    Back,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FrontFace {
    CounterClockwise,
    Clockwise,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PolygonMode {
    Fill,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Rasterization {
    #[serde(default = "cull_none")]
    pub cull_mode: CullMode,
    #[serde(default = "ccw")]
    pub front_face: FrontFace,
    #[serde(default = "fill")]
    pub polygon_mode: PolygonMode,
}

fn cull_none() -> CullMode {
    CullMode::None
}
fn ccw() -> FrontFace {
    FrontFace::CounterClockwise
}
fn fill() -> PolygonMode {
    PolygonMode::Fill
}

impl Default for Rasterization {
    fn default() -> Self {
        Rasterization {
            cull_mode: CullMode::None,
            front_face: FrontFace::CounterClockwise,
            polygon_mode: PolygonMode::Fill,
        }
    }
}

/// Colour attachment formats: the compiler's table (`gcnc::amdgpu::attachment_format`),
/// every format Vulkan requires as a colour attachment plus 16-bit UNORM/SNORM.
pub use gcnc::amdgpu::attachment_format::AttachmentFormat as ColorFormat;

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum BlendFactor {
    ZERO,
    ONE,
    SRC_COLOR,
    ONE_MINUS_SRC_COLOR,
    DST_COLOR,
    ONE_MINUS_DST_COLOR,
    SRC_ALPHA,
    ONE_MINUS_SRC_ALPHA,
    DST_ALPHA,
    ONE_MINUS_DST_ALPHA,
    SRC1_COLOR,
    ONE_MINUS_SRC1_COLOR,
    SRC1_ALPHA,
    ONE_MINUS_SRC1_ALPHA,
}

impl BlendFactor {
    /// Reads the second source (dual-source blending).
    pub fn src1(self) -> bool {
        matches!(
            self,
            BlendFactor::SRC1_COLOR
                | BlendFactor::ONE_MINUS_SRC1_COLOR
                | BlendFactor::SRC1_ALPHA
                | BlendFactor::ONE_MINUS_SRC1_ALPHA
        )
    }
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum BlendOp {
    ADD,
    SUBTRACT,
    REVERSE_SUBTRACT,
    MIN,
    MAX,
}

/// One blend equation for colour and alpha alike.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Blend {
    pub src: BlendFactor,
    pub dst: BlendFactor,
    pub op: BlendOp,
}

#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ColorAttachment {
    pub format: ColorFormat,
    #[serde(default)]
    pub clear: [f64; 4],
    #[serde(default)]
    pub blend: Option<Blend>,
    #[serde(default = "all_channels")]
    pub write_mask: u32,
    /// Array layers (a layered attachment): a primitive draws into the layer its
    /// provoking vertex's gl_Layer selects. Every attachment of a description has the
    /// same count (VkRenderingInfo::layerCount is one for the whole render).
    #[serde(default = "one")]
    pub layers: u32,
}

fn all_channels() -> u32 {
    0xf
}

impl ColorAttachment {
    /// Blends with two sources (a blend factor reads the second source).
    pub fn dual_source(&self) -> bool {
        self.blend.is_some_and(|b| b.src.src1() || b.dst.src1())
    }

    /// The channels of the fragment output the attachment uses (bit k: R, G, B, A): those
    /// of its write mask the format has, and alpha when it blends (a factor may read the
    /// source alpha, which a format without alpha still takes from the shader).
    pub fn channels(&self) -> u32 {
        self.format
            .used_channels(self.blend.is_some(), self.write_mask)
    }
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum DepthFormat {
    D32_SFLOAT,
}

/// The depth test's comparison (`a.passes(new, stored)`), named as VkCompareOp in snake
/// case: the compiler's comparison functions, which the alpha test shares.
pub use gcnc::amdgpu::abi_graphics::CompareFunc as Compare;

#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DepthAttachment {
    pub format: DepthFormat,
    #[serde(default = "one_f")]
    pub clear: f32,
    #[serde(default = "yes")]
    pub test: bool,
    #[serde(default = "yes")]
    pub write: bool,
    #[serde(default = "less")]
    pub compare: Compare,
    /// Array layers, as a colour attachment's `layers`.
    #[serde(default = "one")]
    pub layers: u32,
}

fn yes() -> bool {
    true
}
fn less() -> Compare {
    Compare::Less
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Framebuffer {
    pub width: u32,
    pub height: u32,
}

/// Descriptor kinds a draw binds.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DescriptorType {
    UniformBuffer,
    StorageBuffer,
    /// An image (`image`) with its sampler (`sampler`).
    CombinedImageSampler,
    /// An image (`image`) without a sampler.
    SampledImage,
    /// A sampler alone (`sampler`, no data).
    Sampler,
    /// A storage image (`image`).
    StorageImage,
    /// An input attachment (`image`), read by `subpassLoad` at the fragment's pixel. The
    /// emulator binds the image as given; lavapipe's draws (dynamic rendering, no render
    /// pass) cannot run it.
    InputAttachment,
}

impl DescriptorType {
    /// The compiler's descriptor kind (its size and place in the set, docs/abi.md).
    pub fn kind(self) -> DescriptorKind {
        match self {
            DescriptorType::UniformBuffer | DescriptorType::StorageBuffer => DescriptorKind::Buffer,
            DescriptorType::CombinedImageSampler => DescriptorKind::CombinedImageSampler,
            DescriptorType::SampledImage => DescriptorKind::SampledImage,
            DescriptorType::Sampler => DescriptorKind::Sampler,
            DescriptorType::StorageImage | DescriptorType::InputAttachment => {
                DescriptorKind::StorageImage
            }
        }
    }
}

/// One descriptor (`descriptors`) at (set, binding): a buffer, its bytes from a file,
/// inline 32-bit floats or hex; an image, `image` written as `gcnc run --bind image:`
/// writes it (`bindspec`: `2d:rgba8:16x16:5`) with its texels (every level, the
/// emulator's linear layout) from a file, floats or hex; a sampler, `sampler` as
/// `bindspec` writes it (`linear/repeat/miplinear`).
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DescriptorDesc {
    pub set: u32,
    pub binding: u32,
    #[serde(rename = "type")]
    pub ty: DescriptorType,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub f32: Option<Vec<f32>>,
    #[serde(default)]
    pub hex: Option<String>,
    /// Images: dimension, format, size and levels (`bindspec::image_view`).
    #[serde(default)]
    pub image: Option<String>,
    /// Samplers and combined image samplers (`bindspec::sampler`).
    #[serde(default)]
    pub sampler: Option<String>,
}

/// A specialization constant's value as written: `true`/`false` (bool constants), an
/// integer (int/uint constants), a number with a fraction or exponent (float
/// constants). Both runners use its 32-bit pattern ([`SpecLiteral::bits`]).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(untagged)]
pub enum SpecLiteral {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl SpecLiteral {
    /// The 32-bit pattern: 1/0, the integer's two's complement, the f32's bits.
    pub fn bits(self) -> Result<u32, DescError> {
        match self {
            SpecLiteral::Bool(b) => Ok(b as u32),
            SpecLiteral::Int(i) if (i32::MIN as i64..=u32::MAX as i64).contains(&i) => Ok(i as u32),
            SpecLiteral::Int(i) => err(format!("spec constant value {i} does not fit 32 bits")),
            SpecLiteral::Float(f) => Ok((f as f32).to_bits()),
        }
    }
}

/// `spec_constants`: per stage, SpecId → value.
#[derive(Deserialize, Debug, Clone, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct SpecConstants {
    #[serde(default)]
    pub vertex: BTreeMap<u32, SpecLiteral>,
    #[serde(default)]
    pub fragment: BTreeMap<u32, SpecLiteral>,
}

/// Bytes from hex digits (`0a000000 ff...`; an optional `0x`, whitespace and `_` are
/// ignored); the error says which part is not hex.
pub fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<char> = s
        .trim_start_matches("0x")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    if digits.len() % 2 != 0 {
        return Err(format!("odd number of hex digits in `{s}`"));
    }
    digits
        .chunks(2)
        .map(|p| {
            let t: String = p.iter().collect();
            u8::from_str_radix(&t, 16).map_err(|_| format!("`{t}` is not hex"))
        })
        .collect()
}

/// The file as written.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Desc {
    pub vertex: ShaderRef,
    pub fragment: ShaderRef,
    #[serde(default)]
    pub vertex_buffers: Vec<VertexBufferDesc>,
    #[serde(default)]
    pub attributes: Vec<AttributeDesc>,
    #[serde(default)]
    pub index_buffer: Option<IndexBufferDesc>,
    /// Strips: the all-ones index starts a new strip.
    #[serde(default)]
    pub primitive_restart: bool,
    #[serde(default = "list")]
    pub topology: Topology,
    #[serde(default)]
    pub draw: DrawCounts,
    /// A multi-draw instead of `draw`: vkCmdDrawIndirect / vkCmdDrawIndexedIndirect with
    /// one command per element (drawCount = the length), draw i seeing DrawIndex
    /// (gl_DrawID) i; empty: the single draw `draw`.
    #[serde(default)]
    pub draws: Vec<DrawCounts>,
    /// The one viewport (scissor = viewport); or, instead, `viewports`.
    #[serde(default)]
    pub viewport: Option<Viewport>,
    /// Several viewports (multiViewport), each its own scissor: a primitive takes the one
    /// its provoking vertex's gl_ViewportIndex selects (0 when the vertex stage writes
    /// none).
    #[serde(default)]
    pub viewports: Vec<Viewport>,
    #[serde(default)]
    pub framebuffer: Option<Framebuffer>,
    #[serde(default)]
    pub rasterization: Rasterization,
    /// Rasterization samples: 1, 2, 4 or 8 (Vulkan's standard sample locations).
    #[serde(default = "one")]
    pub samples: u32,
    /// VkPipelineMultisampleStateCreateInfo::minSampleShading; sample shading is
    /// enabled when it is positive (and then every sample is shaded: `pixel.rs`).
    #[serde(default)]
    pub min_sample_shading: f32,
    /// VkPipelineMultisampleStateCreateInfo::alphaToCoverageEnable: colour attachment
    /// 0's alpha decides how many samples a fragment covers (`pixel.rs`).
    #[serde(default)]
    pub alpha_to_coverage: bool,
    #[serde(default)]
    pub color_attachments: Vec<ColorAttachment>,
    #[serde(default)]
    pub depth_attachment: Option<DepthAttachment>,
    /// Buffers by (set, binding), for both stages.
    #[serde(default)]
    pub descriptors: Vec<DescriptorDesc>,
    /// Push-constant bytes as hex, for both stages.
    #[serde(default)]
    pub push_constants: Option<String>,
    #[serde(default)]
    pub spec_constants: SpecConstants,
    /// The driver's user-data layouts for a pipeline linked from unlinked stages
    /// (`gcnc draw --unlinked` links with them; docs/draw.md): `{"vertex": L,
    /// "fragment": L}`, each `gcnc link`'s user-data layout. A whole-pipeline compile and
    /// lavapipe ignore it.
    #[serde(default)]
    pub link_user_data: Option<gcnc::link::state::StageUserData>,
}

/// Viewports a description may give (Vulkan's guaranteed maxViewports).
pub const MAX_VIEWPORTS: usize = 16;
/// Array layers of an attachment (Vulkan's guaranteed maxFramebufferLayers is 256).
pub const MAX_LAYERS: u32 = 256;

/// Push-constant bytes a draw may give (Vulkan's guaranteed minimum).
pub const MAX_PUSH_BYTES: usize = 128;
/// Descriptor sets 0..MAX_SETS (the compute ABI's user-data pairs, docs/abi.md).
pub const MAX_SETS: u32 = 7;
/// Bindings 0..MAX_BINDINGS per set.
pub const MAX_BINDINGS: u32 = 32;
/// Bytes of one descriptor's buffer.
pub const MAX_DESCRIPTOR_BYTES: usize = 1 << 20;

fn list() -> Topology {
    Topology::TriangleList
}

/// A vertex buffer with its bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct VertexBuffer {
    pub binding: u32,
    pub stride: u32,
    pub rate: Rate,
    /// Instances per element (1 unless the description gives a divisor).
    pub divisor: u32,
    pub data: Vec<u8>,
}

/// A descriptor with its bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Descriptor {
    pub set: u32,
    pub binding: u32,
    pub ty: DescriptorType,
    /// The buffer's or the image's bytes (empty for a sampler).
    pub data: Vec<u8>,
    /// Images: the view (with its S# for a combined image sampler).
    pub image: Option<ImageView>,
    /// Samplers: the S#.
    pub sampler: Option<[u32; 4]>,
}

/// A loaded, checked description.
#[derive(Debug, Clone, PartialEq)]
pub struct Draw {
    pub desc: Desc,
    /// The index buffer's indices (an indexed draw) and its raw bytes.
    pub indices: Option<(IndexType, Vec<u8>)>,
    /// Paths of the SPIR-V files, resolved.
    pub vertex_spv: PathBuf,
    pub fragment_spv: PathBuf,
    pub vertex_buffers: Vec<VertexBuffer>,
    pub descriptors: Vec<Descriptor>,
    /// Push-constant bytes (empty: none).
    pub push: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// This draw's index in its multi-draw (PAL's DrawIndex user data, gl_DrawID): 0
    /// for a single draw, i for the `Draw::each_draw` element of `desc.draws[i]`.
    pub draw_index: u32,
}

/// Draws of one multi-draw at most (the indirect buffer's command count).
pub const MAX_DRAWS: usize = 64;

impl Desc {
    pub fn parse(text: &str) -> Result<Desc, DescError> {
        serde_json::from_str(text).map_err(|e| DescError(format!("{e}")))
    }

    /// Reads the file at `path` and everything it names.
    pub fn load(path: &Path) -> Result<Draw, DescError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| DescError(format!("{}: {e}", path.display())))?;
        let desc = Desc::parse(&text)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        desc.resolve(dir)
    }

    /// Resolves relative paths against `dir`, reads the buffers and checks the result.
    pub fn resolve(self, dir: &Path) -> Result<Draw, DescError> {
        let mut vbs = Vec::new();
        for vb in &self.vertex_buffers {
            let data = match (&vb.file, &vb.f32) {
                (Some(f), None) => {
                    let p = dir.join(f);
                    std::fs::read(&p).map_err(|e| DescError(format!("{}: {e}", p.display())))?
                }
                (None, Some(v)) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
                _ => {
                    return err(format!(
                        "vertex buffer {}: give exactly one of \"file\" and \"f32\"",
                        vb.binding
                    ))
                }
            };
            if vb.divisor.is_some() && vb.rate != Rate::Instance {
                return err(format!(
                    "vertex buffer {}: a divisor needs \"rate\": \"instance\"",
                    vb.binding
                ));
            }
            vbs.push(VertexBuffer {
                binding: vb.binding,
                stride: vb.stride,
                rate: vb.rate,
                divisor: vb.divisor.unwrap_or(1),
                data,
            });
        }
        let mut descriptors = Vec::new();
        for dd in &self.descriptors {
            let what = format!("descriptor (set {}, binding {})", dd.set, dd.binding);
            let bad = |e: String| DescError(format!("{what}: {e}"));
            let (image, sampler) = match (dd.ty, &dd.image, &dd.sampler) {
                (DescriptorType::UniformBuffer | DescriptorType::StorageBuffer, None, None) => {
                    (None, None)
                }
                (DescriptorType::CombinedImageSampler, Some(i), Some(s)) => {
                    let mut v = crate::bindspec::image_view(i).map_err(bad)?;
                    v.sampler = Some(crate::bindspec::sampler(s).map_err(bad)?);
                    (Some(v), None)
                }
                (
                    DescriptorType::SampledImage
                    | DescriptorType::StorageImage
                    | DescriptorType::InputAttachment,
                    Some(i),
                    None,
                ) => (Some(crate::bindspec::image_view(i).map_err(bad)?), None),
                (DescriptorType::Sampler, None, Some(s)) => {
                    (None, Some(crate::bindspec::sampler(s).map_err(bad)?))
                }
                (ty, ..) => {
                    return err(format!(
                        "{what}: a {ty:?} takes {}",
                        match ty {
                            DescriptorType::CombinedImageSampler => "\"image\" and \"sampler\"",
                            DescriptorType::SampledImage
                            | DescriptorType::StorageImage
                            | DescriptorType::InputAttachment => "\"image\" (no \"sampler\")",
                            DescriptorType::Sampler => "\"sampler\" (no \"image\")",
                            _ => "neither \"image\" nor \"sampler\"",
                        }
                    ))
                }
            };
            let data = match (&dd.file, &dd.f32, &dd.hex) {
                (None, None, None) if dd.ty == DescriptorType::Sampler => Vec::new(),
                (Some(f), None, None) => {
                    let p = dir.join(f);
                    std::fs::read(&p).map_err(|e| DescError(format!("{}: {e}", p.display())))?
                }
                (None, Some(v), None) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
                (None, None, Some(h)) => {
                    parse_hex(h).map_err(|e| DescError(format!("{what}: {e}")))?
                }
                _ => {
                    return err(format!(
                        "{what}: give exactly one of \"file\", \"f32\" and \"hex\""
                    ))
                }
            };
            descriptors.push(Descriptor {
                set: dd.set,
                binding: dd.binding,
                ty: dd.ty,
                data,
                image,
                sampler,
            });
        }
        let push = match &self.push_constants {
            Some(h) => parse_hex(h).map_err(|e| DescError(format!("push_constants: {e}")))?,
            None => Vec::new(),
        };
        let indices = match &self.index_buffer {
            None => None,
            Some(ib) => {
                let bytes = match (&ib.file, &ib.indices) {
                    (Some(f), None) => {
                        let p = dir.join(f);
                        std::fs::read(&p).map_err(|e| DescError(format!("{}: {e}", p.display())))?
                    }
                    (None, Some(v)) => match ib.ty {
                        IndexType::Uint16 => {
                            if let Some(big) = v.iter().find(|&&i| i > 0xffff) {
                                return err(format!("index {big} does not fit uint16"));
                            }
                            v.iter().flat_map(|&i| (i as u16).to_le_bytes()).collect()
                        }
                        IndexType::Uint32 => v.iter().flat_map(|i| i.to_le_bytes()).collect(),
                    },
                    _ => return err("index_buffer: give exactly one of \"file\" and \"indices\""),
                };
                Some((ib.ty, bytes))
            }
        };
        let vps = match (self.viewport, self.viewports.is_empty()) {
            (Some(v), true) => vec![v],
            (None, false) => self.viewports.clone(),
            (Some(_), false) => return err("give either \"viewport\" or \"viewports\", not both"),
            (None, true) => return err("no \"viewport\" (or \"viewports\")"),
        };
        let (width, height) = match self.framebuffer {
            Some(f) => (f.width, f.height),
            None => vps.iter().fold((0, 0), |(w, h), vp| {
                (
                    w.max((vp.x + vp.width).ceil() as u32),
                    h.max((vp.y + vp.height).ceil() as u32),
                )
            }),
        };
        let d = Draw {
            vertex_spv: dir.join(&self.vertex.spv),
            fragment_spv: dir.join(&self.fragment.spv),
            desc: self,
            indices,
            vertex_buffers: vbs,
            descriptors,
            push,
            width,
            height,
            draw_index: 0,
        };
        if !d.desc.draws.is_empty() && d.desc.draw != DrawCounts::default() {
            return err("give either \"draw\" or \"draws\" (a multi-draw), not both");
        }
        if d.desc.draws.len() > MAX_DRAWS {
            return err(format!("more than {MAX_DRAWS} draws"));
        }
        if let Some(l) = &d.desc.link_user_data {
            let state = gcnc::link::PipelineState {
                stage_user_data: Some(l.clone()),
                ..Default::default()
            };
            state
                .validate()
                .map_err(|e| DescError(format!("link_user_data: {e}")))?;
            super::launch::link_user_data(&d).map_err(|e| DescError(e.to_string()))?;
        }
        for one in d.each_draw() {
            one.check().map_err(|e| match d.desc.draws.is_empty() {
                true => e,
                false => DescError(format!("draws[{}]: {}", one.draw_index, e.0)),
            })?;
        }
        Ok(d)
    }
}

impl Draw {
    /// The viewports, by index: `viewports`, or the one `viewport`.
    pub fn viewports(&self) -> Vec<Viewport> {
        match self.desc.viewport {
            Some(v) => vec![v],
            None => self.desc.viewports.clone(),
        }
    }

    /// The attachments' array layers (all equal: `check`); 1 without attachments.
    pub fn layers(&self) -> u32 {
        let d = &self.desc;
        d.color_attachments
            .first()
            .map(|a| a.layers)
            .or(d.depth_attachment.map(|a| a.layers))
            .unwrap_or(1)
    }

    /// The draws to run in order, each with its `desc.draw` and `draw_index`: this one
    /// alone, or one per element of a multi-draw's `draws`.
    pub fn each_draw(&self) -> Vec<Draw> {
        if self.desc.draws.is_empty() {
            return vec![self.clone()];
        }
        (0..self.desc.draws.len())
            .map(|i| {
                let mut one = self.clone();
                one.desc.draw = self.desc.draws[i];
                one.draw_index = i as u32;
                one
            })
            .collect()
    }

    /// The compiler's pipeline state the description implies (docs/abi.md, "Graphics";
    /// `gcnc draw`, `gcnc link --state`): its vertex bindings and attributes (any format
    /// of `gcnc::amdgpu::vertex_format`; the whole-pipeline compile fetches 32-bit float
    /// formats only) and per colour attachment the export format its format and blending
    /// take (`AttachmentFormat::export_format`).
    pub fn graphics_state(&self) -> gcnc::amdgpu::abi_graphics::GraphicsState {
        use gcnc::amdgpu::abi_graphics::{GraphicsState, VertexAttribute, VertexBinding};
        let mut st = GraphicsState::default();
        for vb in &self.vertex_buffers {
            let b = VertexBinding {
                stride: vb.stride,
                per_instance: vb.rate == Rate::Instance,
                divisor: vb.divisor,
            };
            st.bindings.insert(vb.binding, b);
        }
        for a in &self.desc.attributes {
            let va = VertexAttribute {
                binding: a.binding,
                offset: a.offset,
                format: a.format,
            };
            st.attributes.insert(a.location, va);
        }
        for (i, c) in self.desc.color_attachments.iter().enumerate() {
            let blend = c.blend.is_some();
            // alpha to coverage reads location 0's alpha, as blending may
            let channels = c.channels() | (self.desc.alpha_to_coverage && i == 0) as u32 * 8;
            let f = c.format.export_format_for(blend, channels);
            st.color
                .insert(i as u32, f.unwrap_or(c.format.export_format(blend)));
            if channels != gcnc::amdgpu::abi_graphics::ALL_CHANNELS {
                st.color_channels.insert(i as u32, channels);
            }
            if c.write_mask != gcnc::amdgpu::abi_graphics::ALL_CHANNELS {
                st.write_masks.insert(i as u32, c.write_mask);
            }
        }
        st.dual_source = self
            .desc
            .color_attachments
            .first()
            .is_some_and(ColorAttachment::dual_source);
        st.samples = self.desc.samples;
        st.alpha_to_coverage = self.desc.alpha_to_coverage;
        st.sample_shading = self.desc.samples > 1 && self.desc.min_sample_shading > 0.0;
        st
    }

    /// The vertices of one instance without `base_vertex`, `None` for a restart:
    /// `0..vertex_count` for a plain draw, the index buffer's values for an indexed one.
    pub fn vertex_indices(&self) -> Vec<Option<u32>> {
        let dc = self.desc.draw;
        match &self.indices {
            None => (0..dc.vertex_count).map(Some).collect(),
            Some((ty, bytes)) => {
                let (size, restart) = match ty {
                    IndexType::Uint16 => (2, 0xffff),
                    IndexType::Uint32 => (4, u32::MAX),
                };
                (dc.first_index..dc.first_index + dc.index_count)
                    .map(|i| {
                        let at = i as usize * size;
                        let mut b = [0u8; 4];
                        b[..size].copy_from_slice(&bytes[at..at + size]);
                        let v = u32::from_le_bytes(b);
                        (!(self.desc.primitive_restart && v == restart)).then_some(v)
                    })
                    .collect()
            }
        }
    }

    /// What the shader adds to a vertex index: `first_vertex`, or `vertex_offset` for an
    /// indexed draw (the BaseVertex user SGPR).
    pub fn base_vertex(&self) -> i32 {
        match self.indices {
            None => self.desc.draw.first_vertex as i32,
            Some(_) => self.desc.draw.vertex_offset,
        }
    }

    /// The buffer of `binding`.
    pub fn buffer(&self, binding: u32) -> Option<&VertexBuffer> {
        self.vertex_buffers.iter().find(|b| b.binding == binding)
    }

    /// The specialization constants of the vertex (`fragment` false) or fragment stage as
    /// (SpecId, 32-bit pattern).
    pub fn spec(&self, fragment: bool) -> Result<Vec<(u32, u32)>, DescError> {
        let sc = &self.desc.spec_constants;
        let m = if fragment { &sc.fragment } else { &sc.vertex };
        m.iter().map(|(id, v)| Ok((*id, v.bits()?))).collect()
    }

    /// The sets the descriptors use, ascending, each with one past its largest binding.
    pub fn sets(&self) -> BTreeMap<u32, u32> {
        let mut m = BTreeMap::new();
        for d in &self.descriptors {
            let e = m.entry(d.set).or_insert(0);
            *e = (*e).max(d.binding + 1);
        }
        m
    }

    /// The pipeline layout of the descriptors: each set packed from its bindings as the
    /// compiler packs a set it is not given (docs/abi.md), from the description's
    /// descriptors — the same for both stages, whichever of them declares a binding.
    pub fn layout(&self) -> Result<PipelineLayout, DescError> {
        let declared: Vec<Declared> = self
            .descriptors
            .iter()
            .map(|x| Declared {
                set: x.set,
                binding: x.binding,
                kind: x.ty.kind(),
                count: Some(1),
            })
            .collect();
        PipelineLayout::default()
            .complete(&declared)
            .map_err(|e| DescError(format!("descriptors: {e}")))
    }

    fn check(&self) -> Result<(), DescError> {
        let d = &self.desc;
        self.spec(false)?;
        self.spec(true)?;
        if self.push.len() > MAX_PUSH_BYTES || self.push.len() % 4 != 0 {
            return err(format!(
                "push_constants: {} bytes (a multiple of 4, at most {MAX_PUSH_BYTES})",
                self.push.len()
            ));
        }
        for (i, x) in self.descriptors.iter().enumerate() {
            let what = format!("descriptor (set {}, binding {})", x.set, x.binding);
            if x.set >= MAX_SETS || x.binding >= MAX_BINDINGS {
                return err(format!(
                    "{what}: sets 0..{MAX_SETS}, bindings 0..{MAX_BINDINGS}"
                ));
            }
            if let Some(v) = &x.image {
                if x.data.len() as u64 != v.bytes() || x.data.len() > MAX_DESCRIPTOR_BYTES {
                    return err(format!(
                        "{what}: {} bytes of texels, the image has {} (every level; at most {MAX_DESCRIPTOR_BYTES})",
                        x.data.len(),
                        v.bytes()
                    ));
                }
            } else if x.ty == DescriptorType::Sampler {
                if !x.data.is_empty() {
                    return err(format!("{what}: a sampler has no data"));
                }
            } else if x.data.is_empty()
                || x.data.len() % 4 != 0
                || x.data.len() > MAX_DESCRIPTOR_BYTES
            {
                return err(format!(
                    "{what}: {} bytes (a multiple of 4, 4..={MAX_DESCRIPTOR_BYTES})",
                    x.data.len()
                ));
            }
            if self.descriptors[..i]
                .iter()
                .any(|o| (o.set, o.binding) == (x.set, x.binding))
            {
                return err(format!("{what} given twice"));
            }
        }
        self.layout()?;
        if self.width == 0 || self.height == 0 || self.width > 4096 || self.height > 4096 {
            return err(format!(
                "framebuffer {}x{} (1..=4096 each)",
                self.width, self.height
            ));
        }
        let vps = self.viewports();
        if vps.len() > MAX_VIEWPORTS {
            return err(format!("more than {MAX_VIEWPORTS} viewports"));
        }
        for (i, vp) in vps.iter().enumerate() {
            if !(vp.width > 0.0 && vp.height > 0.0) {
                return err(format!("viewport {i}: width and height must be positive"));
            }
            if !(vp.x >= 0.0 && vp.y >= 0.0) {
                return err(format!(
                    "viewport {i}: x and y must not be negative (its scissor is the viewport)"
                ));
            }
        }
        let layers = self.layers();
        if !(1..=MAX_LAYERS).contains(&layers) {
            return err(format!("layers = {layers} (1..={MAX_LAYERS})"));
        }
        let counts = d
            .color_attachments
            .iter()
            .map(|a| a.layers)
            .chain(d.depth_attachment.iter().map(|a| a.layers));
        if counts.into_iter().any(|n| n != layers) {
            return err("attachments with different `layers` (the render has one layer count)");
        }
        if !matches!(d.samples, 1 | 2 | 4 | 8) {
            return err(format!("samples = {} (1, 2, 4 or 8)", d.samples));
        }
        if !(0.0..=1.0).contains(&d.min_sample_shading) {
            return err(format!(
                "min_sample_shading = {} (0.0..=1.0)",
                d.min_sample_shading
            ));
        }
        if d.color_attachments.len() > 8 {
            return err("more than 8 colour attachments");
        }
        for (i, a) in d.color_attachments.iter().enumerate() {
            if a.blend.is_some() && !a.format.blendable() {
                return err(format!(
                    "colour attachment {i}: {} cannot blend (an integer format)",
                    a.format.name()
                ));
            }
            if a.write_mask > 0xf {
                return err(format!(
                    "colour attachment {i}: write_mask {:#x} has bits beyond R, G, B, A",
                    a.write_mask
                ));
            }
            // maxFragmentDualSrcAttachments is 1 (lavapipe, RADV)
            if a.dual_source() && (i != 0 || d.color_attachments.len() != 1) {
                return err(format!(
                    "colour attachment {i}: a SRC1 blend factor needs attachment 0 alone (dual-source blending)"
                ));
            }
        }
        let dc = d.draw;
        if dc.vertex_count as u64 * dc.instance_count as u64 > 1 << 20 {
            return err("more than 2^20 vertices");
        }
        for (i, vb) in self.vertex_buffers.iter().enumerate() {
            if self.vertex_buffers[..i]
                .iter()
                .any(|o| o.binding == vb.binding)
            {
                return err(format!("vertex buffer binding {} given twice", vb.binding));
            }
            if vb.stride == 0 || vb.stride > 2048 {
                return err(format!("vertex buffer {}: stride 1..=2048", vb.binding));
            }
        }
        // one past the largest vertex the draw fetches
        let offset = self.base_vertex() as i64;
        let mut max_vertex = 0u64;
        for v in self.vertex_indices().into_iter().flatten() {
            let v = v as i64 + offset;
            if v < 0 {
                return err(format!("vertex {v} (index + base vertex) is negative"));
            }
            max_vertex = max_vertex.max(v as u64 + 1);
        }
        for a in &d.attributes {
            let Some(vb) = self.buffer(a.binding) else {
                return err(format!(
                    "attribute {} reads binding {}, which has no vertex buffer",
                    a.location, a.binding
                ));
            };
            let last = match vb.rate {
                Rate::Vertex => max_vertex,
                Rate::Instance => {
                    let n = dc.instance_count as u64;
                    let elements = match vb.divisor {
                        0 => n.min(1),
                        d => n.div_ceil(d as u64),
                    };
                    dc.first_instance as u64 + elements
                }
            };
            if last > 0 {
                let end = (last - 1) * vb.stride as u64 + a.offset as u64 + a.format.bytes() as u64;
                if end > vb.data.len() as u64 {
                    return err(format!(
                        "attribute {} reads {end} bytes of binding {}, which has {}",
                        a.location,
                        a.binding,
                        vb.data.len()
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(extra: &str) -> String {
        format!(
            r#"{{"vertex": {{"spv": "a.spv"}}, "fragment": {{"spv": "b.spv"}},
                "viewport": {{"width": 8, "height": 8}}{extra}}}"#
        )
    }

    #[test]
    fn an_instance_divisor_sizes_the_binding_and_needs_instance_rate() {
        let with = |rate: &str, divisor: u32, elements: usize| {
            let data = vec!["0.5"; elements].join(", ");
            base(&format!(
                r#", "vertex_buffers": [{{"binding": 0, "stride": 4, "rate": "{rate}", "divisor": {divisor}, "f32": [{data}]}}],
                    "attributes": [{{"location": 0, "binding": 0, "format": "R32_SFLOAT"}}],
                    "draw": {{"vertex_count": 3, "instance_count": 7, "first_instance": 2}}"#
            ))
        };
        let load = |j: String| Desc::parse(&j).and_then(|d| d.resolve(Path::new(".")));
        // instances 2..9 read elements 2 + i / 3 for i in 0..7: 2, 3, 4
        let d = load(with("instance", 3, 5)).unwrap();
        assert_eq!(d.vertex_buffers[0].divisor, 3);
        assert_eq!(d.graphics_state().bindings[&0].divisor, 3);
        assert!(load(with("instance", 3, 4))
            .unwrap_err()
            .0
            .contains("reads 20 bytes"));
        // divisor 0: element 2 only
        assert!(load(with("instance", 0, 3)).is_ok());
        let e = load(with("vertex", 2, 30)).unwrap_err();
        assert!(e.0.contains("divisor needs"), "{e}");
    }

    #[test]
    fn viewports_and_layers_are_checked_and_size_the_framebuffer() {
        let load = |j: &str| Desc::parse(j).and_then(|d| d.resolve(Path::new(".")));
        let shaders = r#""vertex": {"spv": "a.spv"}, "fragment": {"spv": "b.spv"}"#;
        let vps = r#""viewports": [{"width": 8, "height": 4}, {"x": 8, "y": 2, "width": 4, "height": 10}]"#;
        let d = load(&format!("{{{shaders}, {vps}}}")).unwrap();
        assert_eq!((d.width, d.height, d.viewports().len()), (12, 12, 2));
        assert_eq!(d.layers(), 1);
        let both = format!("{{{shaders}, {vps}, \"viewport\": {{\"width\": 8, \"height\": 8}}}}");
        assert!(load(&both).unwrap_err().0.contains("not both"));
        assert!(load(&format!("{{{shaders}}}"))
            .unwrap_err()
            .0
            .contains("no \"viewport\""));
        let layered = |c: u32, z: u32| {
            base(&format!(
                r#", "color_attachments": [{{"format": "R8G8B8A8_UNORM", "layers": {c}}}],
                    "depth_attachment": {{"format": "D32_SFLOAT", "layers": {z}}}"#
            ))
        };
        assert_eq!(load(&layered(3, 3)).unwrap().layers(), 3);
        assert!(load(&layered(3, 2))
            .unwrap_err()
            .0
            .contains("different `layers`"));
        assert!(load(&layered(0, 0)).unwrap_err().0.contains("layers = 0"));
        let seventeen = vec![r#"{"width": 1, "height": 1}"#; 17].join(", ");
        let e = load(&format!("{{{shaders}, \"viewports\": [{seventeen}]}}")).unwrap_err();
        assert!(e.0.contains("more than 16 viewports"), "{e}");
    }

    #[test]
    fn spec_constants_are_32_bit_patterns_by_how_they_are_written() {
        let d = Desc::parse(&base(
            r#", "spec_constants": {"vertex": {"0": true, "1": -7}, "fragment": {"2": 0.5, "3": 4000000000}}"#,
        ))
        .unwrap()
        .resolve(Path::new("."))
        .unwrap();
        assert_eq!(d.spec(false).unwrap(), vec![(0, 1), (1, (-7i32) as u32)]);
        assert_eq!(
            d.spec(true).unwrap(),
            vec![(2, 0.5f32.to_bits()), (3, 4_000_000_000)]
        );
        let big = Desc::parse(&base(
            r#", "spec_constants": {"vertex": {"0": 8589934592}}"#,
        ))
        .unwrap()
        .resolve(Path::new("."));
        assert!(big.unwrap_err().0.contains("does not fit 32 bits"));
    }

    #[test]
    fn descriptors_and_push_constants_are_checked() {
        let ok = Desc::parse(&base(
            r#", "push_constants": "0000803f 02000000",
                "descriptors": [{"set": 1, "binding": 3, "type": "uniform_buffer", "hex": "01020304"},
                                {"set": 1, "binding": 0, "type": "storage_buffer", "f32": [1.0]}]"#,
        ))
        .unwrap()
        .resolve(Path::new("."))
        .unwrap();
        assert_eq!(ok.push, vec![0, 0, 0x80, 0x3f, 2, 0, 0, 0]);
        assert_eq!(ok.sets(), BTreeMap::from([(1, 4)]));
        for (bad, why) in [
            (r#", "push_constants": "0102""#, "a multiple of 4"),
            (r#", "push_constants": "zz""#, "not hex"),
            (
                r#", "descriptors": [{"set": 7, "binding": 0, "type": "uniform_buffer", "hex": "00000000"}]"#,
                "sets 0..7",
            ),
            (
                r#", "descriptors": [{"set": 0, "binding": 0, "type": "uniform_buffer", "hex": "00000000"},
                                     {"set": 0, "binding": 0, "type": "uniform_buffer", "hex": "00000000"}]"#,
                "given twice",
            ),
            (
                r#", "descriptors": [{"set": 0, "binding": 0, "type": "uniform_buffer"}]"#,
                "exactly one of",
            ),
        ] {
            let e = Desc::parse(&base(bad)).unwrap().resolve(Path::new("."));
            let e = e.unwrap_err().0;
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn image_descriptors_are_parsed_sized_and_laid_out() {
        let d = Desc::parse(&base(
            r#", "descriptors": [
                {"set": 0, "binding": 0, "type": "uniform_buffer", "hex": "00000000"},
                {"set": 0, "binding": 1, "type": "combined_image_sampler",
                 "image": "2d:rgba8:4x2:2", "sampler": "linear/repeat/miplinear",
                 "hex": "00000000000000000000000000000000000000000000000000000000000000000000000000000000"},
                {"set": 0, "binding": 2, "type": "sampler", "sampler": "nearest"},
                {"set": 0, "binding": 3, "type": "storage_image", "image": "1d:r32f:2", "f32": [1.0, 2.0]}]"#,
        ))
        .unwrap()
        .resolve(Path::new("."))
        .unwrap();
        let v = d.descriptors[1].image.clone().unwrap();
        assert_eq!((v.size, v.levels, v.bytes()), ([4, 2, 1], 2, 40));
        assert!(v.sampler.is_some());
        assert!(d.descriptors[2].sampler.is_some() && d.descriptors[2].data.is_empty());
        // packed as the compiler packs a set: 16, then 16 + 48, then 64 + 16
        let l = d.layout().unwrap();
        let at = |b, k| l.slot(0, b, k).unwrap().offset;
        assert_eq!(
            [
                at(1, DescriptorKind::CombinedImageSampler),
                at(2, DescriptorKind::Sampler),
                at(3, DescriptorKind::StorageImage)
            ],
            [16, 64, 80]
        );
        for (bad, why) in [
            (
                r#"{"set": 0, "binding": 0, "type": "combined_image_sampler", "image": "2d:rgba8:2x2", "hex": "00"}"#,
                "takes \"image\" and \"sampler\"",
            ),
            (
                r#"{"set": 0, "binding": 0, "type": "sampled_image", "image": "2d:rgba8:2x2", "hex": "00000000"}"#,
                "the image has 16",
            ),
            (
                r#"{"set": 0, "binding": 0, "type": "sampled_image", "image": "2d:rgbx:2x2", "hex": "00"}"#,
                "unknown or unsupported format `rgbx`",
            ),
            (
                r#"{"set": 0, "binding": 0, "type": "sampler", "sampler": "cubic"}"#,
                "sampler filter `cubic`",
            ),
            (
                r#"{"set": 0, "binding": 0, "type": "sampler", "sampler": "nearest", "hex": "00000000"}"#,
                "a sampler has no data",
            ),
            (
                r#"{"set": 0, "binding": 0, "type": "uniform_buffer", "image": "2d:rgba8:2x2", "hex": "00000000"}"#,
                "neither",
            ),
        ] {
            let e = Desc::parse(&base(&format!(r#", "descriptors": [{bad}]"#)))
                .unwrap()
                .resolve(Path::new("."));
            let e = e.unwrap_err().0;
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
