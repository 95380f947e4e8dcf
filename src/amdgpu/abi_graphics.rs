//! The graphics ABI: the pipeline state a vertex or fragment shader is compiled against
//! ([`GraphicsState`]) and the facts instruction selection records for the metadata
//! ([`GraphicsAbi`]). docs/abi.md ("Graphics") is the prose version, written for whoever
//! launches the waves (the emulator's draw mode, a driver).
//!
//! Invariants:
//! - user data: descriptor sets and push constants are the compute entries
//!   (`amdgpu::abi`); the vertex stage adds PAL's `VertexBufferTable`, `BaseVertex`,
//!   `BaseInstance` and `DrawIndex` special values, one SGPR each, in that order after the
//!   pairs;
//! - fragment attributes are numbered densely in location order
//!   ([`GraphicsAbi::ps_attributes`]); vertex parameters likewise
//!   ([`GraphicsAbi::vs_params`]), so `SPI_PS_INPUT_CNTL_n.OFFSET` of the pipeline is the
//!   vertex parameter of the location the fragment attribute `n` reads;
//! - the default state (no [`GraphicsState`] entries) is what the issue calls the default
//!   pipeline: one vertex binding 0 holding every attribute the vertex shader reads,
//!   tightly packed in location order, 32 bits per component; one colour attachment per
//!   fragment output with the 32-bit-per-channel export format of its width;
//! - multisampling: [`GraphicsState::samples`] is the pipeline's rasterization sample
//!   count (0: not given, as for an unlinked stage). The sample locations are Vulkan's
//!   standard ones ([`standard_sample_positions`]), which the pixel shader computes from
//!   its sample id as constants of that count (gl_SamplePosition, interpolateAtSample);
//!   PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE is set when the shader needs sample-rate shading
//!   (`binary/graphics.rs`).

use std::collections::BTreeMap;

/// Vulkan's standard sample locations ("Standard sample locations" table of the Vulkan
/// specification; RADV programs the same ones) for 1, 2, 4 and 8 samples: per sample,
/// (x, y) in 1/16 pixel from the pixel's top-left corner, sample 0 first. `None` for any
/// other count.
pub fn standard_sample_positions(samples: u32) -> Option<&'static [[u8; 2]]> {
    const S1: [[u8; 2]; 1] = [[8, 8]];
    const S2: [[u8; 2]; 2] = [[12, 12], [4, 4]];
    const S4: [[u8; 2]; 4] = [[6, 2], [14, 6], [2, 10], [10, 14]];
    const S8: [[u8; 2]; 8] = [
        [9, 5],
        [7, 11],
        [13, 9],
        [5, 3],
        [3, 13],
        [1, 7],
        [11, 15],
        [15, 1],
    ];
    Some(match samples {
        1 => &S1,
        2 => &S2,
        4 => &S4,
        8 => &S8,
        _ => return None,
    })
}

/// The standard locations of `samples` samples as two words, x then y: sample k's
/// coordinate in 1/16 pixel in bits 4k..4k+3 (what the pixel shader reads with
/// `v_bfe_u32`, docs/abi.md "Multisampling"); `None` without standard locations.
pub fn packed_sample_locations(samples: u32) -> Option<[u32; 2]> {
    let table = standard_sample_positions(samples)?;
    let word = |c: usize| -> u32 {
        table
            .iter()
            .enumerate()
            .map(|(k, p)| (p[c] as u32) << (4 * k))
            .sum()
    };
    Some([word(0), word(1)])
}

/// The relocatable items (`gcnc.item.*`) of [`packed_sample_locations`]'s two words,
/// which a fragment shader compiled without the sample count loads with `s_mov_b32`
/// and the link resolves from the state's sample count.
pub const ITEM_SAMPLE_LOCATIONS: [&str; 2] = ["sample_locations_x", "sample_locations_y"];

/// PAL's `VertexBufferTable` user-data value: the low half of the table's address, the
/// high half being the code's (`s_getpc_b64`).
pub const USER_DATA_VERTEX_BUFFER_TABLE: u32 = 0x1000_000f;
/// PAL's `BaseVertex` user-data value (pal-abi.md §2.6).
pub const USER_DATA_BASE_VERTEX: u32 = 0x1000_0003;
/// PAL's `BaseInstance` user-data value.
pub const USER_DATA_BASE_INSTANCE: u32 = 0x1000_0004;
/// PAL's `DrawIndex` user-data value (pal-abi.md §2.6: the draw's index in a multi-draw,
/// gl_DrawID; the first graphics stage only).
pub const USER_DATA_DRAW_INDEX: u32 = 0x1000_0005;
/// Bytes of one vertex-buffer descriptor (a V#) in the table; binding `b` is at `16 * b`.
pub const VERTEX_BUFFER_DESCRIPTOR_BYTES: u32 = 16;
/// PAL's `GlobalTable` user-data value (the global internal table's low half).
pub const USER_DATA_GLOBAL_TABLE: u32 = 0x1000_0000;
/// GFX11: byte offset of the attribute ring's V# in the global table: entry 11 of
/// 16-byte descriptors, LLPC's `SiDrvTableOffChipParamCache`, which LGC's
/// `ShaderSystemValues::getAttribRingBufDesc` loads on GFX11 (entry 0 is the graphics
/// scratch ring, `SiDrvTableScratchGfxSrdOffs`). docs/abi.md "The GFX11 attribute ring".
pub const ATTR_RING_GIT_OFFSET: u32 = 11 * 16;
/// GFX11: the attribute ring's element (one attribute of one vertex, a vec4): the ring's
/// V# swizzles with 16-byte elements (SWIZZLE_ENABLE 3) and 32-element index stride
/// (INDEX_STRIDE 2), Mesa's `ac_build_attr_ring_descriptor`; a store's instruction offset
/// is `ATTR_RING_ELEMENT_BYTES` × the parameter (`ac_nir_store_parameters_to_attr_ring`).
pub const ATTR_RING_ELEMENT_BYTES: u32 = 16;
/// GFX11: the NGG system SGPR holding the subgroup's place in the attribute ring
/// (merged ES/GS layout: s2 GS_TG_INFO, s3 merged wave info, s4 the off-chip offset,
/// s5 `gs_attr_offset`; Mesa `radv_shader_args.c`, radeonsi `si_shader.c`), given to every
/// wave of the subgroup.
pub const NGG_ATTR_OFFSET_SGPR: u16 = 5;
/// GFX11: the subgroup's ring offset is bits 14:0 of [`NGG_ATTR_OFFSET_SGPR`] in 512-byte
/// units (Mesa `ac_nir_lower_intrinsics_to_args`, `load_ring_attr_offset_amd`): the
/// store's soffset is `(s5 & ATTR_RING_OFFSET_MASK) << ATTR_RING_OFFSET_SHIFT`.
pub const ATTR_RING_OFFSET_MASK: u32 = 0x7fff;
/// See [`ATTR_RING_OFFSET_MASK`].
pub const ATTR_RING_OFFSET_SHIFT: u32 = 9;

/// GFX11: the STRIDE the vertex stage ORs into dword 1 (bits 29:16) of the ring's V#
/// (the driver's has 0): 16 bytes per parameter, at least one ("the hardware always
/// assumes at least 1 per-vertex param", RADV `radv_nir_lower_abi.c`); it must agree with
/// SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT + 1, which the hardware reads the ring by.
pub fn attr_ring_stride(params: usize) -> u32 {
    ATTR_RING_ELEMENT_BYTES * params.max(1) as u32
}

/// NGG with the primitive id kept (`GraphicsAbi::vs_primitive_id`): the LDS the
/// prologue's hand-off uses, 4 bytes per vertex of a one-wave subgroup (the provoking
/// vertex's slot holds its primitive's id).
pub fn ngg_primitive_id_lds_bytes(wave: crate::isa::Wave) -> u32 {
    4 * wave.lanes()
}

/// Whether the vertex stage runs as an NGG primitive shader (`.hardware_stages.gs`) on
/// `gen`: GFX10.3 and GFX11 (which has no hardware VS); GFX9 has a hardware VS only.
pub fn vertex_is_ngg(gen: crate::isa::Gen) -> bool {
    gen != crate::isa::Gen::Gfx9
}

/// A colour export format (`SPI_SHADER_COL_FORMAT` field values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ColorFormat {
    /// One 32-bit channel (red).
    R32,
    /// Two 32-bit channels (red, green).
    Gr32,
    /// Two 32-bit channels (red, alpha).
    Ar32,
    /// Four 32-bit channels.
    Abgr32,
    /// Four channels converted to f16 and exported two per VGPR (compressed on GFX9/10).
    Fp16Abgr,
    /// Four channels converted to 16-bit unsigned normalized (clamped to [0, 1]), two per
    /// VGPR like `Fp16Abgr`.
    Unorm16Abgr,
    /// Four channels converted to 16-bit signed normalized (clamped to [-1, 1]), two per
    /// VGPR like `Fp16Abgr`.
    Snorm16Abgr,
    /// Four channels converted to 16-bit unsigned integers (clamped), two per VGPR.
    Uint16Abgr,
    /// Four channels converted to 16-bit signed integers (clamped), two per VGPR.
    Sint16Abgr,
}

impl ColorFormat {
    /// Every export format.
    pub const ALL: [ColorFormat; 9] = [
        ColorFormat::R32,
        ColorFormat::Gr32,
        ColorFormat::Ar32,
        ColorFormat::Abgr32,
        ColorFormat::Fp16Abgr,
        ColorFormat::Unorm16Abgr,
        ColorFormat::Snorm16Abgr,
        ColorFormat::Uint16Abgr,
        ColorFormat::Sint16Abgr,
    ];

    /// The 4-bit `SPI_SHADER_COL_FORMAT` value.
    pub fn code(self) -> u32 {
        match self {
            ColorFormat::R32 => 1,
            ColorFormat::Gr32 => 2,
            ColorFormat::Ar32 => 3,
            ColorFormat::Fp16Abgr => 4,
            ColorFormat::Unorm16Abgr => 5,
            ColorFormat::Snorm16Abgr => 6,
            ColorFormat::Uint16Abgr => 7,
            ColorFormat::Sint16Abgr => 8,
            ColorFormat::Abgr32 => 9,
        }
    }
    /// The 16-bit formats: the instruction packing two channels into one VGPR.
    pub fn pack_op(self) -> Option<crate::isa::Opcode> {
        use crate::isa::Opcode;
        Some(match self {
            ColorFormat::Fp16Abgr => Opcode::VCvtPkrtzF16F32,
            ColorFormat::Unorm16Abgr => Opcode::VCvtPknormU16F32,
            ColorFormat::Snorm16Abgr => Opcode::VCvtPknormI16F32,
            ColorFormat::Uint16Abgr => Opcode::VCvtPkU16U32,
            ColorFormat::Sint16Abgr => Opcode::VCvtPkI16I32,
            _ => return None,
        })
    }
    /// The export slot of alpha in a 32_AR export: w on GFX9, the second slot on GFX10+
    /// (red is always x).
    pub fn ar32_alpha_slot(gen: crate::isa::Gen) -> usize {
        if gen.is_gfx10_plus() {
            1
        } else {
            3
        }
    }
    /// The channels the format writes (`CB_SHADER_MASK` nibble).
    pub fn channel_mask(self) -> u32 {
        match self {
            ColorFormat::R32 => 0x1,
            ColorFormat::Gr32 => 0x3,
            ColorFormat::Ar32 => 0x9,
            ColorFormat::Abgr32
            | ColorFormat::Fp16Abgr
            | ColorFormat::Unorm16Abgr
            | ColorFormat::Snorm16Abgr
            | ColorFormat::Uint16Abgr
            | ColorFormat::Sint16Abgr => 0xf,
        }
    }
    /// The default format of an output with `comps` 32-bit components.
    pub fn for_components(comps: u32) -> ColorFormat {
        match comps {
            1 => ColorFormat::R32,
            2 => ColorFormat::Gr32,
            _ => ColorFormat::Abgr32,
        }
    }
}

/// What a fragment shader exports to MRTZ, the depth/stencil export: the channels are
/// (depth, stencil, sample mask, MRT0 alpha) in (R, G, B, A). gcnc writes no stencil.
/// The alpha is MRT0's, for alpha-to-coverage on GFX11 (`mrtz_alpha`: docs/abi.md
/// "Sample mask and alpha to coverage").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MrtzExport {
    pub depth: bool,
    pub sample_mask: bool,
    pub alpha: bool,
}

impl MrtzExport {
    /// SPI_SHADER_Z_FORMAT (`None`: ZERO, no MRTZ export), as Mesa's
    /// `ac_get_spi_shader_z_format` chooses it: with the alpha, 32_ABGR beside the sample
    /// mask and 32_AR otherwise; with the sample mask, 32_ABGR beside the depth and
    /// UINT16_ABGR alone (its 16 bits are enough); the depth alone 32_R.
    pub fn format(self) -> Option<ColorFormat> {
        Some(match (self.depth, self.sample_mask, self.alpha) {
            (_, true, true) => ColorFormat::Abgr32,
            (_, false, true) => ColorFormat::Ar32,
            (true, true, false) => ColorFormat::Abgr32,
            (false, true, false) => ColorFormat::Uint16Abgr,
            (true, false, false) => ColorFormat::R32,
            (false, false, false) => return None,
        })
    }
}

/// One vertex attribute of the pipeline state: where a vertex-shader input location reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexAttribute {
    pub binding: u32,
    /// Byte offset in the binding's element (below 4096).
    pub offset: u32,
    /// The attribute's format (`amdgpu::vertex_format`).
    pub format: crate::amdgpu::vertex_format::VertexFormat,
}

/// One vertex-buffer binding of the pipeline state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexBinding {
    pub stride: u32,
    /// Indexed by the instance (`InstanceIndex`) instead of the vertex.
    pub per_instance: bool,
    /// Per-instance bindings (VK_EXT_vertex_attribute_divisor): element
    /// `InstanceID / divisor + BaseInstance` is read; 0 = element `BaseInstance` for every
    /// instance. 1 for per-vertex bindings.
    pub divisor: u32,
}

/// A comparison function (VkCompareOp's; GL's `glAlphaFunc` for the alpha test, as
/// radeonsi's PS epilog key has it; the draw description's depth test): `a <op> b` on
/// floats, ordered — NaN fails all but `NotEqual` and `Always`. Its serde form is
/// [`CompareFunc::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompareFunc {
    Never,
    Less,
    Equal,
    LessOrEqual,
    Greater,
    NotEqual,
    GreaterOrEqual,
    Always,
}

impl CompareFunc {
    /// Every function, in GL's (and VkCompareOp's) order.
    pub const ALL: [CompareFunc; 8] = [
        CompareFunc::Never,
        CompareFunc::Less,
        CompareFunc::Equal,
        CompareFunc::LessOrEqual,
        CompareFunc::Greater,
        CompareFunc::NotEqual,
        CompareFunc::GreaterOrEqual,
        CompareFunc::Always,
    ];

    /// The name (VkCompareOp's without `VK_COMPARE_OP_`, in snake case).
    pub fn name(self) -> &'static str {
        match self {
            CompareFunc::Never => "never",
            CompareFunc::Less => "less",
            CompareFunc::Equal => "equal",
            CompareFunc::LessOrEqual => "less_or_equal",
            CompareFunc::Greater => "greater",
            CompareFunc::NotEqual => "not_equal",
            CompareFunc::GreaterOrEqual => "greater_or_equal",
            CompareFunc::Always => "always",
        }
    }

    /// The function of a name ([`CompareFunc::name`]'s inverse).
    pub fn from_name(s: &str) -> Option<CompareFunc> {
        CompareFunc::ALL.into_iter().find(|f| f.name() == s)
    }

    /// Whether `a <op> b` holds (the alpha test: `a` the alpha, `b` the reference; the
    /// depth test: `a` the new depth, `b` the stored one).
    pub fn passes(self, a: f32, b: f32) -> bool {
        match self {
            CompareFunc::Never => false,
            CompareFunc::Less => a < b,
            CompareFunc::Equal => a == b,
            CompareFunc::LessOrEqual => a <= b,
            CompareFunc::Greater => a > b,
            CompareFunc::NotEqual => a != b,
            CompareFunc::GreaterOrEqual => a >= b,
            CompareFunc::Always => true,
        }
    }
}

/// The alpha test of the pipeline state: location 0's alpha against `reference` (f32
/// bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AlphaTest {
    pub func: CompareFunc,
    pub reference: u32,
}

/// Channel bits of a colour output (bit k: R, G, B, A).
pub const ALL_CHANNELS: u32 = 0xf;

/// The pipeline state a graphics stage is compiled against; empty maps mean the default
/// state (module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphicsState {
    /// Colour export format per fragment output location.
    pub color: BTreeMap<u32, ColorFormat>,
    /// The channels each colour output location's attachment uses (bit k: R, G, B, A): its
    /// write mask, plus alpha when blending may read the source alpha. Absent: all four.
    /// The colour-export epilog exports no other channel, and no location whose mask
    /// is 0 (its SPI_SHADER_COL_FORMAT field is ZERO).
    pub color_channels: BTreeMap<u32, u32>,
    /// Each colour attachment's write mask (VkPipelineColorBlendAttachmentState::
    /// colorWriteMask, bit k: R, G, B, A) by location. Absent: all four. The pipeline's
    /// CB_TARGET_MASK: the colour blender keeps the attachment's value in a channel its
    /// mask leaves out.
    pub write_masks: BTreeMap<u32, u32>,
    /// Dual-source blending on location 0: the fragment output with `Index` 1 is exported
    /// as the second source (MRT1 with location 0's format; GFX11: the
    /// `dual_src_blend0/1` targets, `parts::ps_epilog`).
    pub dual_source: bool,
    /// GL-style alpha test (an extension beyond Vulkan, docs/link.md): the epilog kills
    /// the fragments whose location-0 alpha fails it.
    pub alpha_test: Option<AlphaTest>,
    /// Vertex attributes per vertex-shader input location.
    pub attributes: BTreeMap<u32, VertexAttribute>,
    /// Vertex-buffer bindings.
    pub bindings: BTreeMap<u32, VertexBinding>,
    /// Rasterization samples (1, 2, 4, 8); 0 when the state does not say.
    pub samples: u32,
    /// Alpha to coverage (VkPipelineMultisampleStateCreateInfo::alphaToCoverageEnable):
    /// location 0's alpha decides how many samples the fragment covers (DB_ALPHA_TO_MASK;
    /// on GFX11 also exported with MRTZ when there is one: `MrtzExport::alpha`).
    pub alpha_to_coverage: bool,
    /// Vulkan's sample shading (`sampleShadingEnable` with `minSampleShading` > 0 on a
    /// multisampled draw): the fragment shader runs once per sample
    /// (PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE) and gl_SampleMaskIn holds the invocation's own
    /// sample (the `gcnc.choice.per_sample` literal). Inputs keep the location their
    /// decoration names (the clarified rule; lavapipe's behaviour): see
    /// `force_sample_interpolation`.
    pub sample_shading: bool,
    /// GL-style forced per-sample interpolation (radeonsi's PS prolog key, the rule of
    /// ARB_sample_shading and Vulkan 1.0; an extension beyond today's Vulkan): centre and
    /// centroid inputs are interpolated at the invocation's sample (`parts::ps_prolog`),
    /// and the shader runs once per sample.
    pub force_sample_interpolation: bool,
}

impl GraphicsState {
    /// The write mask of colour location `location` ([`GraphicsState::write_masks`]).
    pub fn write_mask(&self, location: u32) -> u32 {
        self.write_masks
            .get(&location)
            .copied()
            .unwrap_or(ALL_CHANNELS)
    }

    /// The channels colour output `location` uses ([`GraphicsState::color_channels`]).
    pub fn channels(&self, location: u32) -> u32 {
        self.color_channels
            .get(&location)
            .copied()
            .unwrap_or(ALL_CHANNELS)
    }
}

/// What the fragment or vertex stage needs from the hardware and gives it, recorded by
/// instruction selection for the registers of the pipeline metadata.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphicsAbi {
    /// The hardware stage the program runs as (`None`: compute). It fixes where the
    /// hardware puts the scratch wave offset (`amdgpu::scratch::insert_setup`): after the
    /// user SGPRs (hardware VS), after PRIM_MASK (PS), s5 (NGG).
    pub hw_stage: Option<crate::binary::HwStage>,
    /// SPI_PS_INPUT_ENA (= SPI_PS_INPUT_ADDR): the PS VGPR inputs, §3.6 bit order.
    pub ps_input_ena: u32,
    /// PS: the shader runs once per sample (PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE): selection
    /// sets it for a sample-rate shader (`isel::graphics::sample_rate_shading`), the link
    /// also for the state's sample shading or forced per-sample interpolation.
    pub ps_sample_rate: bool,
    /// PS: the centre barycentrics (PERSP/LINEAR_CENTER) are read as the pixel centre
    /// itself — interpolateAtOffset/AtSample extrapolate from them — so a PS prolog may
    /// not replace them with the sample's (forced per-sample interpolation is refused).
    pub ps_exact_center: bool,
    /// Fragment input locations, in attribute order, with whether each is flat.
    pub ps_attributes: Vec<(u32, bool)>,
    /// Fragment input locations read per vertex (`pervertexEXT`): flat, in passthrough
    /// mode with the API's vertex order (SPI_PS_INPUT_CNTL OFFSET bit 5, ROTATE_PC_PTR).
    pub ps_per_vertex: Vec<u32>,
    /// Colour exports: (MRT = location, format).
    pub colors: Vec<(u32, ColorFormat)>,
    /// MRTZ also carries MRT0's alpha (GFX11 alpha to coverage beside a depth or sample
    /// mask export: `MrtzExport::alpha`).
    pub mrtz_alpha: bool,
    /// DB_ALPHA_TO_MASK.ALPHA_TO_MASK_ENABLE (the state's alpha to coverage).
    pub alpha_to_coverage: bool,
    /// CB_TARGET_MASK: 4 bits per MRT, the attachment's write mask (the state's
    /// [`GraphicsState::write_masks`] of each attachment).
    pub cb_target_mask: u32,
    /// The fragment shader exports depth (`mrtz`, SPI_SHADER_Z_FORMAT 32_R).
    pub writes_depth: bool,
    /// The fragment shader exports gl_SampleMask (in MRTZ's blue channel,
    /// DB_SHADER_CONTROL.MASK_EXPORT_ENABLE).
    pub writes_sample_mask: bool,
    /// The fragment shader may discard (DB_SHADER_CONTROL.KILL_ENABLE).
    pub can_discard: bool,
    /// Early fragment tests requested (DB_SHADER_CONTROL.DEPTH_BEFORE_SHADER).
    pub early_fragment_tests: bool,
    /// The fragment shader stores to memory (DB_SHADER_CONTROL.EXEC_ON_HIER_FAIL).
    pub writes_memory: bool,
    /// VS: VGPR_COMP_CNT (which of v1..v3 the hardware loads); NGG: ES_VGPR_COMP_CNT
    /// (which of v6..v8).
    pub vgpr_comp_cnt: u32,
    /// VS: output locations, in parameter-export order (with `isel::graphics::
    /// SLOT_PRIMITIVE_ID` for the primitive id the epilog adds, last).
    pub vs_params: Vec<u32>,
    /// VS: the main part keeps the primitive id for its epilog (`LinkTime::
    /// vs_primitive_id`): GFX9 VGPR_COMP_CNT ≥ 2 (v2); NGG GS_VGPR_COMP_CNT 2 (v2 of the
    /// primitive lanes) and [`ngg_primitive_id_lds_bytes`] of LDS.
    pub vs_primitive_id: bool,
    /// VS: position exports (pos0, pos1 when the point size or the shading rate is
    /// written, then the distances).
    pub pos_exports: u32,
    /// VS: writes gl_PointSize (pos1.x, PA_CL_VS_OUT_CNTL.USE_VTX_POINT_SIZE).
    pub writes_point_size: bool,
    /// VS: writes gl_PrimitiveShadingRateEXT (pos1.y in the hardware's encoding,
    /// PA_CL_VS_OUT_CNTL.USE_VTX_VRS_RATE; GFX10.3+).
    pub writes_shading_rate: bool,
    /// VS: writes gl_Layer (pos1.z bits 15:0, PA_CL_VS_OUT_CNTL.USE_VTX_RENDER_TARGET_INDX).
    pub writes_layer: bool,
    /// VS: writes gl_ViewportIndex (pos1.z bits 31:16, PA_CL_VS_OUT_CNTL.
    /// USE_VTX_VIEWPORT_INDX).
    pub writes_viewport: bool,
    /// VS: clip distances exported (the first components of the distance exports).
    pub clip_distances: u32,
    /// VS: cull distances exported (after the clip distances).
    pub cull_distances: u32,
    /// VS: the vertex-buffer layout the fetches assumed, per binding (the default state's
    /// binding 0 when the state gave none).
    pub vertex_bindings: BTreeMap<u32, VertexBinding>,
    /// VS: the attributes fetched, per location.
    pub vertex_attributes: BTreeMap<u32, VertexAttribute>,
    /// Every graphics stage (a main part, `isel/graphics/parts.rs`): the values the main part hands
    /// its epilog, in the order its final `s_branch` lists them after the symbol, as
    /// (output slot, dwords) runs (docs/link.md "Graphics parts").
    pub epilog_values: Vec<(u32, u8)>,
    /// Unlinked VS: input location → (first VGPR, VGPRs) the vertex-fetch prolog fills.
    pub prolog_inputs: BTreeMap<u32, (u16, u8)>,
}
