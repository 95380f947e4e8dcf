//! Vertex + fragment pipelines compiled by RADV on its null device, in the same worker
//! processes as compute ([`crate::radv`]): compile time of `vkCreateGraphicsPipelines` and
//! each stage's pipeline-executable statistics.
//!
//! Design: the pipeline state is the default gcnc compiles a pair with (`gcnc compile
//! A.vert.spv B.frag.spv`, src/compile_graphics.rs, docs/draw.md), derived from the two
//! modules' reflected interfaces by [`default_state`] on the worker side:
//! - vertex input: binding 0, per vertex, every vertex-shader input location in location
//!   order, tightly packed (4-byte aligned), in the 32-bit (or the input's own wider) format of
//!   the input's numeric class and width; the stride is the packed size;
//! - one colour attachment per fragment output location, 32 bits per channel of the
//!   output's numeric class (`R32`, `R32G32`, `R32G32B32A32` for three or four channels,
//!   the export formats gcnc defaults to), no blending, all channels written; a location
//!   without an output gets an `UNDEFINED` attachment;
//! - triangle list, one static viewport and scissor, fill, no culling, one sample, no
//!   depth attachment (dynamic rendering), descriptors of both stages in one layout
//!   visible to both, push constants the larger block.
//!
//! Like compute, every creation gets fresh modules (both stages' bound words raised by the
//! worker's counter) and the workers run with RADV's caches off; the wave size is the
//! worker's (`RADV_PERFTEST=gewave32,pswave32` on a wave32 worker); the executables'
//! subgroup sizes are reported so a caller can check them.

use crate::device::{vkc, Error, Gpu};
use crate::radv::{self, Compiled, Worker};
use crate::reflect::{self, EntryPoint, Location, ScalarKind, Stage};
use crate::wire::{Reader, Writer};
use ash::vk;
use std::time::Instant;

/// A vertex and a fragment shader: SPIR-V bytes and entry point names.
#[derive(Debug, Clone, Copy)]
pub struct Pair<'a> {
    pub vs: &'a [u8],
    pub vs_entry: &'a str,
    pub fs: &'a [u8],
    pub fs_entry: &'a str,
}

impl Pair<'_> {
    fn write(&self, w: &mut Writer) {
        w.bytes(self.vs)
            .str(self.vs_entry)
            .bytes(self.fs)
            .str(self.fs_entry);
    }
}

/// The name of `spirv`'s entry point of `stage`.
pub fn entry_of(spirv: &[u8], stage: Stage) -> Result<String, Error> {
    let m = reflect::reflect_bytes(spirv)?;
    m.entry_points
        .iter()
        .find(|e| e.stage == stage)
        .map(|e| e.name.clone())
        .ok_or_else(|| Error::Usage(format!("the module has no {stage:?} entry point")))
}

/// One executable of a graphics pipeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Executable {
    /// The Vulkan stages it runs (`VkShaderStageFlags`).
    pub stages: vk::ShaderStageFlags,
    /// RADV's name for it ("Vertex Shader", "Fragment Shader", ...).
    pub name: String,
    /// Statistics, representations, subgroup size (`compile_ns` empty).
    pub compiled: Compiled,
}

/// What compiling one pipeline produced.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphicsCompiled {
    /// Wall time of each `vkCreateGraphicsPipelines` (fresh modules each), nanoseconds.
    pub compile_ns: Vec<u64>,
    pub executables: Vec<Executable>,
}

impl GraphicsCompiled {
    /// The executable that runs `stage` (`VERTEX` or `FRAGMENT`).
    pub fn stage(&self, stage: vk::ShaderStageFlags) -> Option<&Compiled> {
        self.executables
            .iter()
            .find(|e| e.stages.contains(stage))
            .map(|e| &e.compiled)
    }
}

impl Worker {
    /// Compiles the pair `repeats` times (timed, fresh modules each) plus once with
    /// statistics and internal representations captured.
    pub fn compile_graphics(
        &mut self,
        pair: &Pair,
        repeats: u32,
    ) -> Result<GraphicsCompiled, Error> {
        let mut w = Writer::default();
        w.u8(radv::TAG_GFX_COMPILE);
        pair.write(&mut w);
        w.u32(repeats);
        let reply = self.request(&w.buf)?;
        let mut r = Reader::new(&reply);
        match r.u8().map_err(radv::proto)? {
            radv::TAG_GFX_COMPILE => {
                let n = r.count(8).map_err(radv::proto)?;
                let compile_ns = (0..n)
                    .map(|_| r.u64())
                    .collect::<Result<_, _>>()
                    .map_err(radv::proto)?;
                let n = r.count(9).map_err(radv::proto)?;
                let mut executables = Vec::with_capacity(n);
                for _ in 0..n {
                    let stages = vk::ShaderStageFlags::from_raw(r.u32().map_err(radv::proto)?);
                    let name = r.str().map_err(radv::proto)?;
                    let compiled = radv::read_capture(&mut r, Vec::new())?;
                    executables.push(Executable {
                        stages,
                        name,
                        compiled,
                    });
                }
                r.end().map_err(radv::proto)?;
                Ok(GraphicsCompiled {
                    compile_ns,
                    executables,
                })
            }
            radv::TAG_ERR => Err(Error::Usage(r.str().map_err(radv::proto)?)),
            t => Err(Error::Worker(format!("unexpected reply tag {t}"))),
        }
    }

    /// Times `n` pipeline creations (fresh modules each) and nothing else.
    pub fn time_graphics(&mut self, pair: &Pair, n: u32) -> Result<Vec<u64>, Error> {
        let mut w = Writer::default();
        w.u8(radv::TAG_GFX_TIME);
        pair.write(&mut w);
        w.u32(n);
        self.u64_reply(radv::TAG_GFX_TIME, &w.buf)
    }
}

/// The default pipeline state of a pair (module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefaultState {
    /// (location, format, byte offset) in binding 0.
    pub attributes: Vec<(u32, vk::Format, u32)>,
    /// Binding 0's stride.
    pub stride: u32,
    /// Colour attachment `i` for fragment output location `i` (`UNDEFINED`: none).
    pub colors: Vec<vk::Format>,
}

/// The state of the module doc for a vertex entry point `vs` and a fragment one `fs`.
pub fn default_state(vs: &EntryPoint, fs: &EntryPoint) -> Result<DefaultState, Error> {
    let mut attributes = Vec::new();
    let mut offset = 0u32;
    for l in vs.locations.iter().filter(|l| !l.output) {
        let format = vertex_format(l).ok_or_else(|| {
            Error::Usage(format!(
                "vertex input location {}: no format for {} × {:?}{}",
                l.location, l.components, l.kind, l.bits
            ))
        })?;
        attributes.push((l.location, format, offset));
        offset += (l.components * l.bits / 8).next_multiple_of(4);
    }
    let outputs: Vec<&Location> = fs.locations.iter().filter(|l| l.output).collect();
    let count = outputs.iter().map(|l| l.location + 1).max().unwrap_or(0);
    if count > 8 {
        return Err(Error::Usage(format!(
            "fragment output location {} is beyond the 8 colour attachments",
            count - 1
        )));
    }
    let mut colors = vec![vk::Format::UNDEFINED; count as usize];
    for l in outputs {
        colors[l.location as usize] = color_format(l);
    }
    Ok(DefaultState {
        attributes,
        stride: offset,
        colors,
    })
}

/// The vertex format of an input: its class and width, its components.
fn vertex_format(l: &Location) -> Option<vk::Format> {
    use vk::Format as F;
    use ScalarKind::*;
    Some(match (l.bits, l.kind, l.components) {
        (32, Float, 1) => F::R32_SFLOAT,
        (32, Float, 2) => F::R32G32_SFLOAT,
        (32, Float, 3) => F::R32G32B32_SFLOAT,
        (32, Float, 4) => F::R32G32B32A32_SFLOAT,
        (32, Sint, 1) => F::R32_SINT,
        (32, Sint, 2) => F::R32G32_SINT,
        (32, Sint, 3) => F::R32G32B32_SINT,
        (32, Sint, 4) => F::R32G32B32A32_SINT,
        (32, Uint, 1) => F::R32_UINT,
        (32, Uint, 2) => F::R32G32_UINT,
        (32, Uint, 3) => F::R32G32B32_UINT,
        (32, Uint, 4) => F::R32G32B32A32_UINT,
        (16, Float, 1) => F::R16_SFLOAT,
        (16, Float, 2) => F::R16G16_SFLOAT,
        (16, Float, 3) => F::R16G16B16_SFLOAT,
        (16, Float, 4) => F::R16G16B16A16_SFLOAT,
        (64, Float, 1) => F::R64_SFLOAT,
        (64, Float, 2) => F::R64G64_SFLOAT,
        (64, Float, 3) => F::R64G64B64_SFLOAT,
        (64, Float, 4) => F::R64G64B64A64_SFLOAT,
        _ => return None,
    })
}

/// The colour attachment of an output: 32 bits per channel of its class, three channels
/// widened to four.
fn color_format(l: &Location) -> vk::Format {
    use vk::Format as F;
    use ScalarKind::*;
    match (l.kind, l.components) {
        (Float, 1) => F::R32_SFLOAT,
        (Float, 2) => F::R32G32_SFLOAT,
        (Float, _) => F::R32G32B32A32_SFLOAT,
        (Sint, 1) => F::R32_SINT,
        (Sint, 2) => F::R32G32_SINT,
        (Sint, _) => F::R32G32B32A32_SINT,
        (Uint, 1) => F::R32_UINT,
        (Uint, 2) => F::R32G32_UINT,
        (Uint, _) => F::R32G32B32A32_UINT,
    }
}

// ---------------------------------------------------------------------------------------
// Worker side.

/// Answers a graphics request frame ([`radv::TAG_GFX_COMPILE`] or [`radv::TAG_GFX_TIME`]).
pub(crate) fn serve(gpu: &Gpu, frame: &[u8], counter: &mut u32) -> Result<Vec<u8>, Error> {
    let mut r = Reader::new(frame);
    let tag = r.u8().map_err(radv::proto)?;
    let vs = r.bytes().map_err(radv::proto)?;
    let vs_entry = r.str().map_err(radv::proto)?;
    let fs = r.bytes().map_err(radv::proto)?;
    let fs_entry = r.str().map_err(radv::proto)?;
    let n = r.u32().map_err(radv::proto)?;
    r.end().map_err(radv::proto)?;
    let mut p = GraphicsPipelines::new(gpu, [(vs, &vs_entry), (fs, &fs_entry)])?;
    let mut w = Writer::default();
    let mut times = Vec::new();
    for _ in 0..n {
        *counter += 1;
        times.push(p.create(*counter, false)?.0);
    }
    w.u8(tag).u32(times.len() as u32);
    for t in times {
        w.u64(t);
    }
    if tag == radv::TAG_GFX_COMPILE {
        *counter += 1;
        let (_, pipeline) = p.create(*counter, true)?;
        let execs = radv::executables(gpu, pipeline)?;
        w.u32(execs.len() as u32);
        for (i, (stages, name)) in execs.iter().enumerate() {
            w.u32(*stages).str(name);
            radv::write_capture(&mut w, &radv::capture(gpu, pipeline, i as u32)?);
        }
    }
    Ok(w.buf)
}

/// The layout and state of one pair, and the pipelines kept for capture.
struct GraphicsPipelines<'g> {
    gpu: &'g Gpu,
    words: [Vec<u32>; 2],
    entries: [std::ffi::CString; 2],
    state: DefaultState,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    layout: vk::PipelineLayout,
    pipelines: Vec<vk::Pipeline>,
}

impl<'g> GraphicsPipelines<'g> {
    fn new(gpu: &'g Gpu, stages: [(&[u8], &str); 2]) -> Result<Self, Error> {
        let mut eps = Vec::new();
        let mut words = Vec::new();
        let mut entries = Vec::new();
        for ((spirv, entry), stage) in stages.into_iter().zip([Stage::Vertex, Stage::Fragment]) {
            let module = reflect::reflect_bytes(spirv)?;
            let ep = module.entry(entry)?.clone();
            if ep.stage != stage {
                return Err(Error::Usage(format!(
                    "entry point {entry:?} is {:?}, not {stage:?}",
                    ep.stage
                )));
            }
            gpu.check_module(&module)?;
            eps.push(ep);
            words.push(reflect::words_of(spirv)?);
            entries.push(
                std::ffi::CString::new(entry)
                    .map_err(|_| Error::Usage("entry name contains NUL".into()))?,
            );
        }
        let state = default_state(&eps[0], &eps[1])?;
        let mut bindings: Vec<reflect::Binding> = Vec::new();
        for b in eps.iter().flat_map(|e| &e.bindings) {
            match bindings
                .iter()
                .find(|x| (x.set, x.binding) == (b.set, b.binding))
            {
                Some(x) if x.kind != b.kind => {
                    return Err(Error::Usage(format!(
                        "set {} binding {} is {:?} in one stage and {:?} in the other",
                        b.set, b.binding, x.kind, b.kind
                    )))
                }
                Some(_) => {}
                None => bindings.push(b.clone()),
            }
        }
        let push = eps
            .iter()
            .filter_map(|e| e.push_constant_size)
            .max()
            .unwrap_or(0);
        let [vs_words, fs_words]: [Vec<u32>; 2] = words.try_into().expect("two stages");
        let [vs_entry, fs_entry]: [std::ffi::CString; 2] = entries.try_into().expect("two stages");
        let mut p = GraphicsPipelines {
            gpu,
            words: [vs_words, fs_words],
            entries: [vs_entry, fs_entry],
            state,
            set_layouts: Vec::new(),
            layout: vk::PipelineLayout::null(),
            pipelines: Vec::new(),
        };
        let both = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
        let d = &gpu.device;
        let nsets = bindings.iter().map(|b| b.set + 1).max().unwrap_or(0);
        // SAFETY: valid create infos on a live device; handles are destroyed in Drop.
        unsafe {
            for s in 0..nsets {
                let lb: Vec<vk::DescriptorSetLayoutBinding> = bindings
                    .iter()
                    .filter(|b| b.set == s)
                    .map(|b| {
                        vk::DescriptorSetLayoutBinding::default()
                            .binding(b.binding)
                            .descriptor_type(radv::vk_descriptor_type(b.kind))
                            .descriptor_count(b.count.unwrap_or(1).max(1))
                            .stage_flags(both)
                    })
                    .collect();
                let ci = vk::DescriptorSetLayoutCreateInfo::default().bindings(&lb);
                p.set_layouts.push(vkc(
                    "vkCreateDescriptorSetLayout",
                    d.create_descriptor_set_layout(&ci, None),
                )?);
            }
            let ranges = [vk::PushConstantRange {
                stage_flags: both,
                offset: 0,
                size: push,
            }];
            let mut lci = vk::PipelineLayoutCreateInfo::default().set_layouts(&p.set_layouts);
            if push > 0 {
                lci = lci.push_constant_ranges(&ranges);
            }
            p.layout = vkc(
                "vkCreatePipelineLayout",
                d.create_pipeline_layout(&lci, None),
            )?;
        }
        Ok(p)
    }

    /// Creates the pipeline from fresh modules whose bound words are raised by `salt`.
    fn create(&mut self, salt: u32, capture: bool) -> Result<(u64, vk::Pipeline), Error> {
        let d = &self.gpu.device;
        // SAFETY: as in `new`; the modules are destroyed right after the creation, the
        // pipeline too unless captured.
        unsafe {
            let mut modules = [vk::ShaderModule::null(); 2];
            for (m, words) in modules.iter_mut().zip(&self.words) {
                let mut w = words.clone();
                w[3] = w[3].saturating_add(salt);
                let ci = vk::ShaderModuleCreateInfo::default().code(&w);
                *m = vkc("vkCreateShaderModule", d.create_shader_module(&ci, None))?;
            }
            let st = &self.state;
            let stages = [
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::VERTEX)
                    .module(modules[0])
                    .name(&self.entries[0]),
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::FRAGMENT)
                    .module(modules[1])
                    .name(&self.entries[1]),
            ];
            let vbind = [vk::VertexInputBindingDescription {
                binding: 0,
                stride: st.stride,
                input_rate: vk::VertexInputRate::VERTEX,
            }];
            let attrs: Vec<vk::VertexInputAttributeDescription> = st
                .attributes
                .iter()
                .map(
                    |&(location, format, offset)| vk::VertexInputAttributeDescription {
                        location,
                        binding: 0,
                        format,
                        offset,
                    },
                )
                .collect();
            let mut vi = vk::PipelineVertexInputStateCreateInfo::default();
            if !attrs.is_empty() {
                vi = vi
                    .vertex_binding_descriptions(&vbind)
                    .vertex_attribute_descriptions(&attrs);
            }
            let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
                .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
            let viewports = [vk::Viewport {
                x: 0.0,
                y: 0.0,
                width: 64.0,
                height: 64.0,
                min_depth: 0.0,
                max_depth: 1.0,
            }];
            let scissors = [vk::Rect2D {
                offset: vk::Offset2D { x: 0, y: 0 },
                extent: vk::Extent2D {
                    width: 64,
                    height: 64,
                },
            }];
            let vp = vk::PipelineViewportStateCreateInfo::default()
                .viewports(&viewports)
                .scissors(&scissors);
            let rs = vk::PipelineRasterizationStateCreateInfo::default()
                .polygon_mode(vk::PolygonMode::FILL)
                .cull_mode(vk::CullModeFlags::NONE)
                .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
                .line_width(1.0);
            let ms = vk::PipelineMultisampleStateCreateInfo::default()
                .rasterization_samples(vk::SampleCountFlags::TYPE_1);
            let ds = vk::PipelineDepthStencilStateCreateInfo::default();
            let blends: Vec<vk::PipelineColorBlendAttachmentState> = st
                .colors
                .iter()
                .map(|f| {
                    let mask = if *f == vk::Format::UNDEFINED {
                        vk::ColorComponentFlags::empty()
                    } else {
                        vk::ColorComponentFlags::RGBA
                    };
                    vk::PipelineColorBlendAttachmentState::default().color_write_mask(mask)
                })
                .collect();
            let cb = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blends);
            let mut rendering =
                vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&st.colors);
            let flags = if capture {
                vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
                    | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR
            } else {
                vk::PipelineCreateFlags::empty()
            };
            let ci = [vk::GraphicsPipelineCreateInfo::default()
                .flags(flags)
                .stages(&stages)
                .vertex_input_state(&vi)
                .input_assembly_state(&ia)
                .viewport_state(&vp)
                .rasterization_state(&rs)
                .multisample_state(&ms)
                .depth_stencil_state(&ds)
                .color_blend_state(&cb)
                .layout(self.layout)
                .push_next(&mut rendering)];
            let t = Instant::now();
            let r = d.create_graphics_pipelines(vk::PipelineCache::null(), &ci, None);
            let ns = t.elapsed().as_nanos() as u64;
            for m in modules {
                d.destroy_shader_module(m, None);
            }
            let pipeline = r.map_err(|(_, e)| Error::Vk {
                call: "vkCreateGraphicsPipelines",
                result: e.as_raw(),
            })?[0];
            if capture {
                self.pipelines.push(pipeline);
            } else {
                d.destroy_pipeline(pipeline, None);
            }
            Ok((ns, pipeline))
        }
    }
}

impl Drop for GraphicsPipelines<'_> {
    fn drop(&mut self) {
        let d = &self.gpu.device;
        // SAFETY: all handles were created by this struct on `d`.
        unsafe {
            for p in &self.pipelines {
                d.destroy_pipeline(*p, None);
            }
            d.destroy_pipeline_layout(self.layout, None);
            for l in &self.set_layouts {
                d.destroy_descriptor_set_layout(*l, None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(output: bool, location: u32, components: u32, kind: ScalarKind) -> Location {
        Location {
            output,
            location,
            components,
            kind,
            bits: 32,
        }
    }

    fn ep(stage: Stage, locations: Vec<Location>) -> EntryPoint {
        EntryPoint {
            name: "main".into(),
            stage,
            local_size: None,
            bindings: Vec::new(),
            push_constant_size: None,
            locations,
        }
    }

    #[test]
    fn default_state_packs_inputs_and_gives_each_output_a_32_bit_attachment() {
        use ScalarKind::*;
        let vs = ep(
            Stage::Vertex,
            vec![
                loc(false, 0, 3, Float),
                loc(false, 1, 2, Uint),
                loc(false, 3, 1, Sint),
                loc(true, 0, 4, Float),
            ],
        );
        let fs = ep(
            Stage::Fragment,
            vec![
                loc(false, 0, 4, Float),
                loc(true, 0, 3, Float),
                loc(true, 2, 1, Uint),
            ],
        );
        let st = default_state(&vs, &fs).unwrap();
        assert_eq!(
            st.attributes,
            [
                (0, vk::Format::R32G32B32_SFLOAT, 0),
                (1, vk::Format::R32G32_UINT, 12),
                (3, vk::Format::R32_SINT, 20),
            ]
        );
        assert_eq!(st.stride, 24);
        assert_eq!(
            st.colors,
            [
                vk::Format::R32G32B32A32_SFLOAT,
                vk::Format::UNDEFINED,
                vk::Format::R32_UINT
            ]
        );
    }
}
