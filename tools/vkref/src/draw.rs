//! Runs one graphics draw on lavapipe from a draw description (`gcnc_emu::draw::Draw`, the
//! same JSON `gcnc draw` reads) and returns the attachments: the oracle the emulator's
//! draws are compared with.
//!
//! Design: like [`crate::lavapipe::run_compute`], everything but the device is created
//! fresh per draw and destroyed in `Drop`. Dynamic rendering (Vulkan 1.3) with one
//! colour image per attachment (optimal tiling, cleared by the load op) and an optional
//! D32_SFLOAT depth image; vertex buffers in host-visible memory; static viewport and
//! scissor (= the viewport), an index buffer for indexed draws; one descriptor set layout
//! per set the description binds (visible to both stages: uniform/storage buffers in
//! host-visible memory; images created and uploaded as the compute runner does —
//! `lavapipe::create_image` / `record_image_copy`, in the GENERAL layout — from the
//! emulator's view of them, `vk_image`; samplers from their S# through
//! `images::Sampler::from_emu`), one push-constant range for both stages, each stage's
//! specialization constants as 32-bit values; after the draw every attachment is
//! copied into a host-visible buffer and returned as tightly packed rows in its format.
//! Multisampled draws (`samples` > 1, with sample shading when `min_sample_shading` > 0)
//! render into multisampled images that `draw_samples` reads sample by sample (one
//! plane per sample, the emulator's layout); `resolved` is their average computed as the
//! emulator computes it (`gcnc_emu::draw::output::resolve`).

use crate::device::{vkc, Error, Gpu};
use crate::images::{vk_compare, Image, Sampler, TexelFormat, ViewType};
use crate::reflect;
use ash::vk;
use gcnc_emu::draw::desc::{
    BlendFactor, BlendOp, ColorFormat, CullMode, DescriptorType, Draw, FrontFace, IndexType, Rate,
    Topology, VertexFormat,
};
use gcnc_emu::pipeline::ImageView;

/// The attachments after the draw: every sample, one plane per sample (sample 0 first),
/// and of a layered attachment every layer's planes, layer 0 first (the emulator's layout,
/// `gcnc_emu::draw::Images`).
#[derive(Debug, Clone, PartialEq)]
pub struct Attachments {
    pub color: Vec<Vec<u8>>,
    /// Each colour attachment resolved to one sample (= `color` for one sample).
    pub resolved: Vec<Vec<u8>>,
    pub depth: Option<Vec<u8>>,
}

fn color_format(f: ColorFormat) -> vk::Format {
    vk::Format::from_raw(f.vk())
}

fn vertex_format(f: VertexFormat) -> vk::Format {
    vk::Format::from_raw(f.vk())
}

fn factor(f: BlendFactor) -> vk::BlendFactor {
    match f {
        BlendFactor::ZERO => vk::BlendFactor::ZERO,
        BlendFactor::ONE => vk::BlendFactor::ONE,
        BlendFactor::SRC_COLOR => vk::BlendFactor::SRC_COLOR,
        BlendFactor::ONE_MINUS_SRC_COLOR => vk::BlendFactor::ONE_MINUS_SRC_COLOR,
        BlendFactor::DST_COLOR => vk::BlendFactor::DST_COLOR,
        BlendFactor::ONE_MINUS_DST_COLOR => vk::BlendFactor::ONE_MINUS_DST_COLOR,
        BlendFactor::SRC_ALPHA => vk::BlendFactor::SRC_ALPHA,
        BlendFactor::ONE_MINUS_SRC_ALPHA => vk::BlendFactor::ONE_MINUS_SRC_ALPHA,
        BlendFactor::DST_ALPHA => vk::BlendFactor::DST_ALPHA,
        BlendFactor::ONE_MINUS_DST_ALPHA => vk::BlendFactor::ONE_MINUS_DST_ALPHA,
        BlendFactor::SRC1_COLOR => vk::BlendFactor::SRC1_COLOR,
        BlendFactor::ONE_MINUS_SRC1_COLOR => vk::BlendFactor::ONE_MINUS_SRC1_COLOR,
        BlendFactor::SRC1_ALPHA => vk::BlendFactor::SRC1_ALPHA,
        BlendFactor::ONE_MINUS_SRC1_ALPHA => vk::BlendFactor::ONE_MINUS_SRC1_ALPHA,
    }
}

fn blend_op(o: BlendOp) -> vk::BlendOp {
    match o {
        BlendOp::ADD => vk::BlendOp::ADD,
        BlendOp::SUBTRACT => vk::BlendOp::SUBTRACT,
        BlendOp::REVERSE_SUBTRACT => vk::BlendOp::REVERSE_SUBTRACT,
        BlendOp::MIN => vk::BlendOp::MIN,
        BlendOp::MAX => vk::BlendOp::MAX,
    }
}

#[derive(Default)]
struct Objects {
    buffers: Vec<(vk::Buffer, vk::DeviceMemory)>,
    images: Vec<(vk::Image, vk::DeviceMemory, vk::ImageView)>,
    samplers: Vec<vk::Sampler>,
    shaders: Vec<vk::ShaderModule>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pool: vk::DescriptorPool,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    cmd_pool: vk::CommandPool,
    fence: vk::Fence,
    /// The per-sample readback of a multisampled draw.
    samples: crate::draw_samples::Readback,
}

struct Run<'g> {
    g: &'g Gpu,
    o: Objects,
}

impl Drop for Run<'_> {
    fn drop(&mut self) {
        let d = &self.g.device;
        let o = &self.o;
        // SAFETY: every handle was created by this run on this device (or is null, which
        // destroy accepts); the queue is idle after the wait.
        unsafe {
            let _ = d.queue_wait_idle(self.g.queue);
            d.destroy_fence(o.fence, None);
            d.destroy_command_pool(o.cmd_pool, None);
            o.samples.destroy(d);
            d.destroy_pipeline(o.pipeline, None);
            d.destroy_pipeline_layout(o.layout, None);
            d.destroy_descriptor_pool(o.pool, None);
            for l in &o.set_layouts {
                d.destroy_descriptor_set_layout(*l, None);
            }
            for s in &o.samplers {
                d.destroy_sampler(*s, None);
            }
            for s in &o.shaders {
                d.destroy_shader_module(*s, None);
            }
            for (i, m, v) in &o.images {
                d.destroy_image_view(*v, None);
                d.destroy_image(*i, None);
                d.free_memory(*m, None);
            }
            for (b, m) in &o.buffers {
                d.destroy_buffer(*b, None);
                d.free_memory(*m, None);
            }
        }
    }
}

impl Run<'_> {
    /// A host-visible buffer holding `data` (zero-filled to `size`).
    unsafe fn buffer(
        &mut self,
        size: u64,
        usage: vk::BufferUsageFlags,
        data: &[u8],
    ) -> Result<usize, Error> {
        let d = &self.g.device;
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let size = size.max(4);
        let buf = vkc(
            "vkCreateBuffer",
            d.create_buffer(
                &vk::BufferCreateInfo::default().size(size).usage(usage),
                None,
            ),
        )?;
        let req = d.get_buffer_memory_requirements(buf);
        let Some(mt) = self.g.memory_type(req.memory_type_bits, host) else {
            d.destroy_buffer(buf, None);
            return Err(Error::NoDevice("no host-visible coherent memory".into()));
        };
        let mem = match d.allocate_memory(
            &vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(mt),
            None,
        ) {
            Ok(m) => m,
            Err(e) => {
                d.destroy_buffer(buf, None);
                return vkc("vkAllocateMemory", Err(e));
            }
        };
        self.o.buffers.push((buf, mem));
        vkc("vkBindBufferMemory", d.bind_buffer_memory(buf, mem, 0))?;
        let p = vkc(
            "vkMapMemory",
            d.map_memory(mem, 0, size, vk::MemoryMapFlags::empty()),
        )? as *mut u8;
        std::ptr::write_bytes(p, 0, size as usize);
        std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len().min(size as usize));
        d.unmap_memory(mem);
        Ok(self.o.buffers.len() - 1)
    }

    unsafe fn read(&self, i: usize, len: usize) -> Result<Vec<u8>, Error> {
        let d = &self.g.device;
        let mem = self.o.buffers[i].1;
        let p = vkc(
            "vkMapMemory",
            d.map_memory(mem, 0, len as u64, vk::MemoryMapFlags::empty()),
        )? as *const u8;
        let v = std::slice::from_raw_parts(p, len).to_vec();
        d.unmap_memory(mem);
        Ok(v)
    }

    unsafe fn image(
        &mut self,
        format: vk::Format,
        usage: vk::ImageUsageFlags,
        aspect: vk::ImageAspectFlags,
        w: u32,
        h: u32,
        samples: u32,
        layers: u32,
    ) -> Result<usize, Error> {
        let d = &self.g.device;
        let ci = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D {
                width: w,
                height: h,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(layers)
            .samples(vk::SampleCountFlags::from_raw(samples))
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage | vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::SAMPLED)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let img = vkc("vkCreateImage", d.create_image(&ci, None))?;
        let req = d.get_image_memory_requirements(img);
        let Some(mt) = self
            .g
            .memory_type(req.memory_type_bits, vk::MemoryPropertyFlags::empty())
        else {
            d.destroy_image(img, None);
            return Err(Error::NoDevice("no memory type for an image".into()));
        };
        let mem = match d.allocate_memory(
            &vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(mt),
            None,
        ) {
            Ok(m) => m,
            Err(e) => {
                d.destroy_image(img, None);
                return vkc("vkAllocateMemory", Err(e));
            }
        };
        if let Err(e) = d.bind_image_memory(img, mem, 0) {
            d.destroy_image(img, None);
            d.free_memory(mem, None);
            return vkc("vkBindImageMemory", Err(e));
        }
        let vci = vk::ImageViewCreateInfo::default()
            .image(img)
            .view_type(match layers {
                1 => vk::ImageViewType::TYPE_2D,
                _ => vk::ImageViewType::TYPE_2D_ARRAY,
            })
            .format(format)
            .subresource_range(range(aspect));
        let view = match d.create_image_view(&vci, None) {
            Ok(v) => v,
            Err(e) => {
                d.destroy_image(img, None);
                d.free_memory(mem, None);
                return vkc("vkCreateImageView", Err(e));
            }
        };
        self.o.images.push((img, mem, view));
        Ok(self.o.images.len() - 1)
    }
}

fn range(aspect: vk::ImageAspectFlags) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: aspect,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        // every layer of a layered attachment
        layer_count: vk::REMAINING_ARRAY_LAYERS,
    }
}

/// Runs the draw on lavapipe.
pub fn run_draw(dr: &Draw) -> Result<Attachments, Error> {
    let read = |p: &std::path::Path| {
        std::fs::read(p).map_err(|e| Error::Usage(format!("{}: {e}", p.display())))
    };
    let vs = read(&dr.vertex_spv)?;
    let fs = read(&dr.fragment_spv)?;
    let g = crate::lavapipe::gpu()?
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    for spv in [&vs, &fs] {
        g.check_module(&reflect::reflect_bytes(spv)?)?;
    }
    check_samples(&g, dr)?;
    let mut run = Run {
        g: &g,
        o: Objects::default(),
    };
    // SAFETY: all calls use handles created here on the device with valid create infos;
    // mapped ranges stay within their allocations.
    unsafe { go(&mut run, dr, &vs, &fs) }
}

/// Refuses a sample count the device cannot render with: the framebuffer's colour and
/// depth sample counts and the sampled-image ones the per-sample readback needs.
fn check_samples(g: &crate::device::Gpu, dr: &Draw) -> Result<(), Error> {
    let n = dr.desc.samples;
    if n == 1 {
        return Ok(());
    }
    // SAFETY: `phys` is the device's physical device on its live instance.
    let l = unsafe { g.instance.get_physical_device_properties(g.phys) }.limits;
    let flag = vk::SampleCountFlags::from_raw(n);
    for (what, counts) in [
        (
            "framebufferColorSampleCounts",
            l.framebuffer_color_sample_counts,
        ),
        (
            "framebufferDepthSampleCounts",
            l.framebuffer_depth_sample_counts,
        ),
        (
            "sampledImageColorSampleCounts",
            l.sampled_image_color_sample_counts,
        ),
        (
            "sampledImageDepthSampleCounts",
            l.sampled_image_depth_sample_counts,
        ),
        (
            "sampledImageIntegerSampleCounts",
            l.sampled_image_integer_sample_counts,
        ),
    ] {
        if !counts.contains(flag) {
            return Err(Error::Usage(format!(
                "{n} samples: the device's {what} is {:#x}",
                counts.as_raw()
            )));
        }
    }
    Ok(())
}

unsafe fn go(r: &mut Run, dr: &Draw, vs: &[u8], fs: &[u8]) -> Result<Attachments, Error> {
    let g = r.g;
    let d = &g.device;
    let desc = &dr.desc;
    let (w, h) = (dr.width, dr.height);
    let samples = desc.samples;
    let ms = samples > 1;
    let layers = dr.layers();
    if layers > 1 && ms {
        return Err(Error::Usage(
            "layered multisampled attachments (the per-sample readback reads one layer)".into(),
        ));
    }
    // attachments
    let mut colors = Vec::new();
    for a in &desc.color_attachments {
        colors.push(r.image(
            color_format(a.format),
            vk::ImageUsageFlags::COLOR_ATTACHMENT,
            vk::ImageAspectFlags::COLOR,
            w,
            h,
            samples,
            layers,
        )?);
    }
    let depth = match desc.depth_attachment {
        Some(_) => Some(r.image(
            vk::Format::D32_SFLOAT,
            vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT,
            vk::ImageAspectFlags::DEPTH,
            w,
            h,
            samples,
            layers,
        )?),
        None => None,
    };
    let mut vbs = Vec::new();
    for vb in &dr.vertex_buffers {
        vbs.push((
            vb.binding,
            r.buffer(
                vb.data.len() as u64,
                vk::BufferUsageFlags::VERTEX_BUFFER,
                &vb.data,
            )?,
        ));
    }
    let index = match &dr.indices {
        Some((ty, bytes)) => Some((
            *ty,
            r.buffer(
                bytes.len() as u64,
                vk::BufferUsageFlags::INDEX_BUFFER,
                bytes,
            )?,
        )),
        None => None,
    };
    // a multi-draw: one indirect command per draw (VkDrawIndirectCommand, or
    // VkDrawIndexedIndirectCommand for an indexed draw), drawn with drawCount > 1
    let indirect = match desc.draws.is_empty() {
        true => None,
        false => {
            let f = r.g.features.core;
            if f.multi_draw_indirect == 0 || f.draw_indirect_first_instance == 0 {
                return Err(Error::NoDevice(
                    "a multi-draw needs multiDrawIndirect and drawIndirectFirstInstance".into(),
                ));
            }
            let mut cmds = Vec::new();
            for c in &desc.draws {
                let words: Vec<u32> = match index {
                    Some(_) => vec![
                        c.index_count,
                        c.instance_count,
                        c.first_index,
                        c.vertex_offset as u32,
                        c.first_instance,
                    ],
                    None => vec![
                        c.vertex_count,
                        c.instance_count,
                        c.first_vertex,
                        c.first_instance,
                    ],
                };
                cmds.extend(words.iter().flat_map(|w| w.to_le_bytes()));
            }
            let stride = (cmds.len() / desc.draws.len()) as u32;
            let buf = r.buffer(
                cmds.len() as u64,
                vk::BufferUsageFlags::INDIRECT_BUFFER,
                &cmds,
            )?;
            Some((buf, stride))
        }
    };
    // multisampled: 16 bytes per sample of each pixel (`draw_samples`)
    let texel = |bytes: usize| if ms { 16 * samples as usize } else { bytes };
    let mut readbacks = Vec::new();
    for a in &desc.color_attachments {
        let n = (w * h * layers) as usize * texel(a.format.bytes());
        readbacks.push((
            r.buffer(
                n as u64,
                vk::BufferUsageFlags::TRANSFER_DST | vk::BufferUsageFlags::STORAGE_BUFFER,
                &[],
            )?,
            n,
        ));
    }
    let depth_rb = match depth {
        Some(_) => {
            let n = (w * h * layers) as usize * texel(4);
            Some((
                r.buffer(
                    n as u64,
                    vk::BufferUsageFlags::TRANSFER_DST | vk::BufferUsageFlags::STORAGE_BUFFER,
                    &[],
                )?,
                n,
            ))
        }
        None => None,
    };

    // pipeline
    for spv in [vs, fs] {
        let words = reflect::words_of(spv)?;
        let m = vkc(
            "vkCreateShaderModule",
            d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None),
        )?;
        r.o.shaders.push(m);
    }
    // descriptor sets 0..=max (empty layouts for the sets in between), push constants
    let both = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
    let sets = dr.sets();
    let set_count = sets.keys().last().map_or(0, |s| s + 1);
    let desc_type = |t: DescriptorType| match t {
        DescriptorType::UniformBuffer => vk::DescriptorType::UNIFORM_BUFFER,
        DescriptorType::StorageBuffer => vk::DescriptorType::STORAGE_BUFFER,
        DescriptorType::CombinedImageSampler => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        DescriptorType::SampledImage => vk::DescriptorType::SAMPLED_IMAGE,
        DescriptorType::Sampler => vk::DescriptorType::SAMPLER,
        DescriptorType::StorageImage => vk::DescriptorType::STORAGE_IMAGE,
        DescriptorType::InputAttachment => vk::DescriptorType::INPUT_ATTACHMENT,
    };
    if let Some(x) = dr
        .descriptors
        .iter()
        .find(|x| x.ty == DescriptorType::InputAttachment)
    {
        return Err(Error::Usage(format!(
            "descriptor (set {}, binding {}): input attachments need a render pass, and these draws use dynamic rendering",
            x.set, x.binding
        )));
    }
    for s in 0..set_count {
        let bindings: Vec<vk::DescriptorSetLayoutBinding> = dr
            .descriptors
            .iter()
            .filter(|x| x.set == s)
            .map(|x| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(x.binding)
                    .descriptor_type(desc_type(x.ty))
                    .descriptor_count(1)
                    .stage_flags(both)
            })
            .collect();
        let l = vkc(
            "vkCreateDescriptorSetLayout",
            d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            ),
        )?;
        r.o.set_layouts.push(l);
    }
    // per descriptor: its buffer (buffers; images: the staging buffer of their texels),
    // its image (with the Vulkan description) and its sampler
    let mut desc_objs: Vec<DescObjects> = Vec::new();
    for x in &dr.descriptors {
        let what = || format!("descriptor (set {}, binding {})", x.set, x.binding);
        let mut o = DescObjects::default();
        if let Some(v) = &x.image {
            let img = vk_image(v, x.data.clone()).ok_or_else(|| {
                Error::Usage(format!("{}: an image lavapipe cannot create", what()))
            })?;
            o.buffer = Some(r.buffer(
                x.data.len() as u64,
                vk::BufferUsageFlags::TRANSFER_SRC,
                &x.data,
            )?);
            crate::lavapipe::create_image(
                g,
                &img,
                x.ty == DescriptorType::StorageImage,
                &mut r.o.images,
            )?;
            o.image = Some((r.o.images.len() - 1, img));
        } else if x.ty != DescriptorType::Sampler {
            let usage = match x.ty {
                DescriptorType::UniformBuffer => vk::BufferUsageFlags::UNIFORM_BUFFER,
                _ => vk::BufferUsageFlags::STORAGE_BUFFER,
            };
            o.buffer = Some(r.buffer(x.data.len() as u64, usage, &x.data)?);
        }
        if let Some(words) = x.sampler.or(x.image.as_ref().and_then(|v| v.sampler)) {
            let s = gcnc_emu::sampler::SamplerDesc::decode(words)
                .ok()
                .as_ref()
                .and_then(Sampler::from_emu)
                .ok_or_else(|| {
                    Error::Usage(format!("{}: a sampler Vulkan has no equal of", what()))
                })?;
            let int = o.image.as_ref().is_some_and(|(_, i)| i.format.is_int());
            let info = crate::lavapipe::sampler_info(&s, int);
            r.o.samplers
                .push(vkc("vkCreateSampler", d.create_sampler(&info, None))?);
            o.sampler = Some(r.o.samplers.len() - 1);
        }
        desc_objs.push(o);
    }
    let mut desc_sets = Vec::new();
    if set_count > 0 {
        let sizes: Vec<vk::DescriptorPoolSize> = dr
            .descriptors
            .iter()
            .map(|x| vk::DescriptorPoolSize {
                ty: desc_type(x.ty),
                descriptor_count: 1,
            })
            .collect();
        r.o.pool = vkc(
            "vkCreateDescriptorPool",
            d.create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(set_count)
                    .pool_sizes(&sizes),
                None,
            ),
        )?;
        desc_sets = vkc(
            "vkAllocateDescriptorSets",
            d.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(r.o.pool)
                    .set_layouts(&r.o.set_layouts),
            ),
        )?;
        let buffer_infos: Vec<[vk::DescriptorBufferInfo; 1]> = desc_objs
            .iter()
            .map(|o| {
                [vk::DescriptorBufferInfo {
                    buffer: o.buffer.map_or(vk::Buffer::null(), |i| r.o.buffers[i].0),
                    offset: 0,
                    range: vk::WHOLE_SIZE,
                }]
            })
            .collect();
        let image_infos: Vec<[vk::DescriptorImageInfo; 1]> = desc_objs
            .iter()
            .map(|o| {
                [vk::DescriptorImageInfo {
                    sampler: o.sampler.map_or(vk::Sampler::null(), |i| r.o.samplers[i]),
                    image_view: o
                        .image
                        .as_ref()
                        .map_or(vk::ImageView::null(), |(i, _)| r.o.images[*i].2),
                    image_layout: vk::ImageLayout::GENERAL,
                }]
            })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = dr
            .descriptors
            .iter()
            .enumerate()
            .map(|(k, x)| {
                let w = vk::WriteDescriptorSet::default()
                    .dst_set(desc_sets[x.set as usize])
                    .dst_binding(x.binding)
                    .descriptor_type(desc_type(x.ty));
                match x.ty {
                    DescriptorType::UniformBuffer | DescriptorType::StorageBuffer => {
                        w.buffer_info(&buffer_infos[k])
                    }
                    _ => w.image_info(&image_infos[k]),
                }
            })
            .collect();
        d.update_descriptor_sets(&writes, &[]);
    }
    let push_ranges = [vk::PushConstantRange {
        stage_flags: both,
        offset: 0,
        size: dr.push.len() as u32,
    }];
    let mut lci = vk::PipelineLayoutCreateInfo::default().set_layouts(&r.o.set_layouts);
    if !dr.push.is_empty() {
        lci = lci.push_constant_ranges(&push_ranges);
    }
    r.o.layout = vkc(
        "vkCreatePipelineLayout",
        d.create_pipeline_layout(&lci, None),
    )?;
    // specialization constants: 4 bytes each, per stage
    let spec =
        [false, true].map(|fragment| dr.spec(fragment).map_err(|e| Error::Usage(e.to_string())));
    let [vs_spec, fs_spec] = spec;
    let spec = [vs_spec?, fs_spec?];
    let spec_data: Vec<Vec<u8>> = spec
        .iter()
        .map(|s| s.iter().flat_map(|(_, v)| v.to_le_bytes()).collect())
        .collect();
    let spec_maps: Vec<Vec<vk::SpecializationMapEntry>> = spec
        .iter()
        .map(|s| {
            s.iter()
                .enumerate()
                .map(|(k, (id, _))| vk::SpecializationMapEntry {
                    constant_id: *id,
                    offset: 4 * k as u32,
                    size: 4,
                })
                .collect()
        })
        .collect();
    let spec_infos: Vec<vk::SpecializationInfo> = (0..2)
        .map(|k| {
            vk::SpecializationInfo::default()
                .map_entries(&spec_maps[k])
                .data(&spec_data[k])
        })
        .collect();
    let names = [
        std::ffi::CString::new(desc.vertex.entry.as_str())
            .map_err(|_| Error::Usage("entry name contains NUL".into()))?,
        std::ffi::CString::new(desc.fragment.entry.as_str())
            .map_err(|_| Error::Usage("entry name contains NUL".into()))?,
    ];
    let stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(r.o.shaders[0])
            .name(&names[0])
            .specialization_info(&spec_infos[0]),
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::FRAGMENT)
            .module(r.o.shaders[1])
            .name(&names[1])
            .specialization_info(&spec_infos[1]),
    ];
    let bindings: Vec<vk::VertexInputBindingDescription> = dr
        .vertex_buffers
        .iter()
        .map(|b| vk::VertexInputBindingDescription {
            binding: b.binding,
            stride: b.stride,
            input_rate: match b.rate {
                Rate::Vertex => vk::VertexInputRate::VERTEX,
                Rate::Instance => vk::VertexInputRate::INSTANCE,
            },
        })
        .collect();
    let attrs: Vec<vk::VertexInputAttributeDescription> = desc
        .attributes
        .iter()
        .map(|a| vk::VertexInputAttributeDescription {
            location: a.location,
            binding: a.binding,
            format: vertex_format(a.format),
            offset: a.offset,
        })
        .collect();
    let divisors: Vec<vk::VertexInputBindingDivisorDescriptionEXT> = dr
        .vertex_buffers
        .iter()
        .filter(|b| b.divisor != 1)
        .map(|b| vk::VertexInputBindingDivisorDescriptionEXT {
            binding: b.binding,
            divisor: b.divisor,
        })
        .collect();
    for b in &divisors {
        let (ok, what) = if b.divisor == 0 {
            (
                g.features.zero_divisor,
                "vertexAttributeInstanceRateZeroDivisor",
            )
        } else {
            (g.features.divisor, "vertexAttributeInstanceRateDivisor")
        };
        if !ok {
            return Err(Error::NoDevice(format!(
                "vertex buffer {} has divisor {}, which needs {what}",
                b.binding, b.divisor
            )));
        }
    }
    if desc.color_attachments.iter().any(|a| a.dual_source()) && g.features.core.dual_src_blend == 0
    {
        return Err(Error::NoDevice(
            "a SRC1 blend factor needs dualSrcBlend, which the device lacks".into(),
        ));
    }
    let mut divisor_info = vk::PipelineVertexInputDivisorStateCreateInfoEXT::default()
        .vertex_binding_divisors(&divisors);
    let mut vi = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&bindings)
        .vertex_attribute_descriptions(&attrs);
    if !divisors.is_empty() {
        vi = vi.push_next(&mut divisor_info);
    }
    let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(match desc.topology {
            Topology::TriangleList => vk::PrimitiveTopology::TRIANGLE_LIST,
            Topology::TriangleStrip => vk::PrimitiveTopology::TRIANGLE_STRIP,
            Topology::PointList => vk::PrimitiveTopology::POINT_LIST,
            Topology::LineList => vk::PrimitiveTopology::LINE_LIST,
            Topology::LineStrip => vk::PrimitiveTopology::LINE_STRIP,
        })
        .primitive_restart_enable(desc.primitive_restart);
    // each viewport with its scissor (= the viewport); several need multiViewport
    let vps = dr.viewports();
    if vps.len() > 1 && g.features.core.multi_viewport == 0 {
        return Err(Error::NoDevice(format!(
            "{} viewports need multiViewport",
            vps.len()
        )));
    }
    let viewports: Vec<vk::Viewport> = vps
        .iter()
        .map(|v| vk::Viewport {
            x: v.x,
            y: v.y,
            width: v.width,
            height: v.height,
            min_depth: v.min_depth,
            max_depth: v.max_depth,
        })
        .collect();
    let scissors: Vec<vk::Rect2D> = vps
        .iter()
        .map(|v| vk::Rect2D {
            offset: vk::Offset2D {
                x: v.x as i32,
                y: v.y as i32,
            },
            extent: vk::Extent2D {
                width: v.width as u32,
                height: v.height as u32,
            },
        })
        .collect();
    let vp = vk::PipelineViewportStateCreateInfo::default()
        .viewports(&viewports)
        .scissors(&scissors);
    let ras = desc.rasterization;
    let rs = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(match ras.cull_mode {
            CullMode::None => vk::CullModeFlags::NONE,
            CullMode::Front => vk::CullModeFlags::FRONT,
            CullMode::Back => vk::CullModeFlags::BACK,
        })
        .front_face(match ras.front_face {
            FrontFace::CounterClockwise => vk::FrontFace::COUNTER_CLOCKWISE,
            FrontFace::Clockwise => vk::FrontFace::CLOCKWISE,
        })
        .line_width(1.0);
    let ms_state = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::from_raw(samples))
        .sample_shading_enable(desc.min_sample_shading > 0.0)
        .min_sample_shading(desc.min_sample_shading)
        .alpha_to_coverage_enable(desc.alpha_to_coverage);
    let ds = match desc.depth_attachment {
        Some(a) => vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(a.test)
            .depth_write_enable(a.write)
            .depth_compare_op(vk_compare(a.compare)),
        None => vk::PipelineDepthStencilStateCreateInfo::default(),
    };
    let blends: Vec<vk::PipelineColorBlendAttachmentState> = desc
        .color_attachments
        .iter()
        .map(|a| {
            let s = vk::PipelineColorBlendAttachmentState::default()
                .color_write_mask(vk::ColorComponentFlags::from_raw(a.write_mask & 0xf));
            match a.blend {
                None => s,
                Some(b) => s
                    .blend_enable(true)
                    .src_color_blend_factor(factor(b.src))
                    .dst_color_blend_factor(factor(b.dst))
                    .color_blend_op(blend_op(b.op))
                    .src_alpha_blend_factor(factor(b.src))
                    .dst_alpha_blend_factor(factor(b.dst))
                    .alpha_blend_op(blend_op(b.op)),
            }
        })
        .collect();
    let cb_state = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blends);
    let formats: Vec<vk::Format> = desc
        .color_attachments
        .iter()
        .map(|a| color_format(a.format))
        .collect();
    let mut rendering = vk::PipelineRenderingCreateInfo::default()
        .color_attachment_formats(&formats)
        .depth_attachment_format(if depth.is_some() {
            vk::Format::D32_SFLOAT
        } else {
            vk::Format::UNDEFINED
        });
    let gpci = [vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vi)
        .input_assembly_state(&ia)
        .viewport_state(&vp)
        .rasterization_state(&rs)
        .multisample_state(&ms_state)
        .depth_stencil_state(&ds)
        .color_blend_state(&cb_state)
        .layout(r.o.layout)
        .push_next(&mut rendering)];
    r.o.pipeline = d
        .create_graphics_pipelines(vk::PipelineCache::null(), &gpci, None)
        .map_err(|(_, e)| Error::Vk {
            call: "vkCreateGraphicsPipelines",
            result: e.as_raw(),
        })?[0];

    // commands
    r.o.cmd_pool = vkc(
        "vkCreateCommandPool",
        d.create_command_pool(
            &vk::CommandPoolCreateInfo::default().queue_family_index(g.queue_family),
            None,
        ),
    )?;
    let cb = vkc(
        "vkAllocateCommandBuffers",
        d.allocate_command_buffers(
            &vk::CommandBufferAllocateInfo::default()
                .command_pool(r.o.cmd_pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1),
        ),
    )?[0];
    vkc(
        "vkBeginCommandBuffer",
        d.begin_command_buffer(
            cb,
            &vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
        ),
    )?;
    let barrier = |img: vk::Image,
                   aspect: vk::ImageAspectFlags,
                   from: vk::ImageLayout,
                   to: vk::ImageLayout| {
        vk::ImageMemoryBarrier::default()
            .image(img)
            .old_layout(from)
            .new_layout(to)
            .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
            .dst_access_mask(vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .subresource_range(range(aspect))
    };
    for o in &desc_objs {
        if let (Some((i, img)), Some(b)) = (&o.image, o.buffer) {
            crate::lavapipe::record_image_copy(
                d,
                cb,
                r.o.buffers[b].0,
                0,
                img,
                r.o.images[*i].0,
                true,
            );
        }
    }
    let mut to_attach: Vec<vk::ImageMemoryBarrier> = colors
        .iter()
        .map(|&i| {
            barrier(
                r.o.images[i].0,
                vk::ImageAspectFlags::COLOR,
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            )
        })
        .collect();
    if let Some(i) = depth {
        to_attach.push(barrier(
            r.o.images[i].0,
            vk::ImageAspectFlags::DEPTH,
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL,
        ));
    }
    d.cmd_pipeline_barrier(
        cb,
        vk::PipelineStageFlags::TOP_OF_PIPE,
        vk::PipelineStageFlags::ALL_COMMANDS,
        vk::DependencyFlags::empty(),
        &[],
        &[],
        &to_attach,
    );
    let color_infos: Vec<vk::RenderingAttachmentInfo> = desc
        .color_attachments
        .iter()
        .zip(&colors)
        .map(|(a, &i)| {
            vk::RenderingAttachmentInfo::default()
                .image_view(r.o.images[i].2)
                .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)
                .clear_value(vk::ClearValue {
                    color: match a.format.num() {
                        gcnc::amdgpu::attachment_format::Num::Uint => vk::ClearColorValue {
                            uint32: a.clear.map(|x| x as u32),
                        },
                        gcnc::amdgpu::attachment_format::Num::Sint => vk::ClearColorValue {
                            int32: a.clear.map(|x| x as i32),
                        },
                        _ => vk::ClearColorValue {
                            float32: a.clear.map(|x| x as f32),
                        },
                    },
                })
        })
        .collect();
    let depth_info = depth.map(|i| {
        vk::RenderingAttachmentInfo::default()
            .image_view(r.o.images[i].2)
            .image_layout(vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(vk::ClearValue {
                depth_stencil: vk::ClearDepthStencilValue {
                    depth: desc.depth_attachment.map(|a| a.clear).unwrap_or(1.0),
                    stencil: 0,
                },
            })
    });
    let mut ri = vk::RenderingInfo::default()
        .render_area(vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: w,
                height: h,
            },
        })
        .layer_count(layers)
        .color_attachments(&color_infos);
    if let Some(di) = depth_info.as_ref() {
        ri = ri.depth_attachment(di);
    }
    d.cmd_begin_rendering(cb, &ri);
    d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, r.o.pipeline);
    if !desc_sets.is_empty() {
        d.cmd_bind_descriptor_sets(
            cb,
            vk::PipelineBindPoint::GRAPHICS,
            r.o.layout,
            0,
            &desc_sets,
            &[],
        );
    }
    if !dr.push.is_empty() {
        d.cmd_push_constants(cb, r.o.layout, both, 0, &dr.push);
    }
    for (binding, i) in &vbs {
        d.cmd_bind_vertex_buffers(cb, *binding, &[r.o.buffers[*i].0], &[0]);
    }
    let dc = desc.draw;
    let n = desc.draws.len() as u32;
    match (index, indirect) {
        (Some((ty, i)), ind) => {
            let t = match ty {
                IndexType::Uint16 => vk::IndexType::UINT16,
                IndexType::Uint32 => vk::IndexType::UINT32,
            };
            d.cmd_bind_index_buffer(cb, r.o.buffers[i].0, 0, t);
            if let Some((b, stride)) = ind {
                d.cmd_draw_indexed_indirect(cb, r.o.buffers[b].0, 0, n, stride);
            } else {
                d.cmd_draw_indexed(
                    cb,
                    dc.index_count,
                    dc.instance_count,
                    dc.first_index,
                    dc.vertex_offset,
                    dc.first_instance,
                );
            }
        }
        (None, Some((b, stride))) => d.cmd_draw_indirect(cb, r.o.buffers[b].0, 0, n, stride),
        (None, None) => d.cmd_draw(
            cb,
            dc.vertex_count,
            dc.instance_count,
            dc.first_vertex,
            dc.first_instance,
        ),
    }
    d.cmd_end_rendering(cb);
    if ms {
        record_sample_reads(r, cb, dr, &colors, depth, &readbacks, depth_rb)?;
    } else {
        let mut to_src: Vec<vk::ImageMemoryBarrier> = colors
            .iter()
            .map(|&i| {
                barrier(
                    r.o.images[i].0,
                    vk::ImageAspectFlags::COLOR,
                    vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                )
            })
            .collect();
        if let Some(i) = depth {
            to_src.push(barrier(
                r.o.images[i].0,
                vk::ImageAspectFlags::DEPTH,
                vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            ));
        }
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &to_src,
        );
        let copy = |aspect| {
            [vk::BufferImageCopy {
                buffer_offset: 0,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspect,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: layers,
                },
                image_offset: vk::Offset3D { x: 0, y: 0, z: 0 },
                image_extent: vk::Extent3D {
                    width: w,
                    height: h,
                    depth: 1,
                },
            }]
        };
        for (&i, (b, _)) in colors.iter().zip(&readbacks) {
            d.cmd_copy_image_to_buffer(
                cb,
                r.o.images[i].0,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                r.o.buffers[*b].0,
                &copy(vk::ImageAspectFlags::COLOR),
            );
        }
        if let (Some(i), Some((b, _))) = (depth, depth_rb) {
            d.cmd_copy_image_to_buffer(
                cb,
                r.o.images[i].0,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                r.o.buffers[b].0,
                &copy(vk::ImageAspectFlags::DEPTH),
            );
        }
    }
    let host = [vk::MemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::TRANSFER_WRITE | vk::AccessFlags::SHADER_WRITE)
        .dst_access_mask(vk::AccessFlags::HOST_READ)];
    d.cmd_pipeline_barrier(
        cb,
        vk::PipelineStageFlags::TRANSFER | vk::PipelineStageFlags::COMPUTE_SHADER,
        vk::PipelineStageFlags::HOST,
        vk::DependencyFlags::empty(),
        &host,
        &[],
        &[],
    );
    vkc("vkEndCommandBuffer", d.end_command_buffer(cb))?;
    r.o.fence = vkc(
        "vkCreateFence",
        d.create_fence(&vk::FenceCreateInfo::default(), None),
    )?;
    let cbs = [cb];
    vkc(
        "vkQueueSubmit",
        d.queue_submit(
            g.queue,
            &[vk::SubmitInfo::default().command_buffers(&cbs)],
            r.o.fence,
        ),
    )?;
    vkc(
        "vkWaitForFences",
        d.wait_for_fences(&[r.o.fence], true, 120_000_000_000),
    )?;
    let mut color = Vec::new();
    for ((b, n), a) in readbacks.iter().zip(&desc.color_attachments) {
        let bytes = r.read(*b, *n)?;
        color.push(if ms {
            crate::draw_samples::color_bytes(a.format, &bytes)
        } else {
            bytes
        });
    }
    let depth = match depth_rb {
        Some((b, n)) => {
            let bytes = r.read(b, n)?;
            Some(if ms {
                crate::draw_samples::depth_bytes(&bytes)
            } else {
                bytes
            })
        }
        None => None,
    };
    let plane = (w * h) as usize;
    let resolved = color
        .iter()
        .zip(&desc.color_attachments)
        .map(|(c, a)| match layers {
            1 => gcnc_emu::draw::output::resolve(a.format, c, plane, samples as usize),
            // one sample per pixel (checked above): each layer is its own image
            _ => c.clone(),
        })
        .collect();
    Ok(Attachments {
        color,
        resolved,
        depth,
    })
}

/// Records the per-sample reads of a multisampled draw's attachments (`draw_samples`):
/// every attachment to GENERAL for the compute shader, then one read each into its
/// readback buffer.
#[allow(clippy::too_many_arguments)]
unsafe fn record_sample_reads(
    r: &mut Run,
    cb: vk::CommandBuffer,
    dr: &Draw,
    colors: &[usize],
    depth: Option<usize>,
    readbacks: &[(usize, usize)],
    depth_rb: Option<(usize, usize)>,
) -> Result<(), Error> {
    use crate::draw_samples::Class;
    let d = &r.g.device;
    let mut reads: Vec<(usize, vk::ImageAspectFlags, Class, usize)> = colors
        .iter()
        .zip(&dr.desc.color_attachments)
        .zip(readbacks)
        .map(|((&i, a), &(b, _))| (i, vk::ImageAspectFlags::COLOR, Class::of(a.format), b))
        .collect();
    if let (Some(i), Some((b, _))) = (depth, depth_rb) {
        reads.push((i, vk::ImageAspectFlags::DEPTH, Class::Float, b));
    }
    let barriers: Vec<vk::ImageMemoryBarrier> = reads
        .iter()
        .map(|&(i, aspect, _, _)| {
            vk::ImageMemoryBarrier::default()
                .image(r.o.images[i].0)
                .old_layout(if aspect == vk::ImageAspectFlags::DEPTH {
                    vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL
                } else {
                    vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL
                })
                .new_layout(vk::ImageLayout::GENERAL)
                .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
                .dst_access_mask(vk::AccessFlags::SHADER_READ)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .subresource_range(range(aspect))
        })
        .collect();
    d.cmd_pipeline_barrier(
        cb,
        vk::PipelineStageFlags::ALL_COMMANDS,
        vk::PipelineStageFlags::COMPUTE_SHADER,
        vk::DependencyFlags::empty(),
        &[],
        &[],
        &barriers,
    );
    r.o.samples.new(d, reads.len() as u32)?;
    for &(i, _, class, b) in &reads {
        r.o.samples.record(
            d,
            cb,
            r.o.images[i].2,
            class,
            r.o.buffers[b].0,
            (dr.width, dr.height, dr.desc.samples),
        )?;
    }
    Ok(())
}

/// The Vulkan objects of one descriptor: indices into the run's buffers (a buffer's, or an
/// image's staging buffer), images (with the image's description) and samplers.
#[derive(Default)]
struct DescObjects {
    buffer: Option<usize>,
    image: Option<(usize, Image)>,
    sampler: Option<usize>,
}

/// The Vulkan image of an emulator image view (`bindspec`'s), with its texels (None: a
/// type or format without a Vulkan equal here, MSAA).
fn vk_image(v: &ImageView, data: Vec<u8>) -> Option<Image> {
    use gcnc_emu::image::*;
    let view = match v.ty {
        TYPE_1D => ViewType::D1,
        TYPE_2D => ViewType::D2,
        TYPE_3D => ViewType::D3,
        TYPE_CUBE if v.size[2] == 6 => ViewType::Cube,
        TYPE_CUBE => ViewType::CubeArray,
        TYPE_1D_ARRAY => ViewType::D1Array,
        TYPE_2D_ARRAY => ViewType::D2Array,
        _ => return None,
    };
    Some(Image {
        format: TexelFormat::of_amd(v.fmt)?,
        view,
        size: v.size,
        levels: v.levels,
        samples: 1,
        data,
    })
}
