//! Runs a SPIR-V compute shader on Mesa's lavapipe and returns what it wrote.
//!
//! Design: one [`Gpu`] per process (instance creation is slow), created on first use and
//! kept behind a mutex; each [`run_compute`] builds everything else (buffers, descriptor
//! sets, pipeline) fresh, dispatches once, waits, reads every buffer back and destroys what it
//! created. The descriptor layout comes from reflecting the shader; the caller's resources
//! must match it binding for binding (a mismatch is an [`Error::Usage`]).
//!
//! Selecting lavapipe: if neither `VK_ICD_FILENAMES` nor `VK_DRIVER_FILES` is set, the
//! loader is pointed at lavapipe's ICD file before it is loaded (so no other driver is
//! probed); in every case the CPU-type physical device is chosen.
//!
//! Images, samplers and texel buffers ([`Resource::Image`], [`Resource::Sampler`],
//! [`Resource::TexelBuffer`]): each image is created with optimal tiling, uploaded from a
//! host-visible staging buffer (its data in `images`' layout, level by level) and moved to
//! the GENERAL layout before the dispatch; afterwards it is copied back into the same
//! staging buffer, so its returned bytes are the image in the same layout. Texel buffers are
//! ordinary buffers with a buffer view of the given format. An array binding takes one
//! image (or sampler) per element.
//!
//! Arrays of storage or uniform buffers ([`Resource::Buffers`]): one buffer holds every
//! element, each at the next multiple of [`BUFFER_ARRAY_ALIGN`] bytes
//! ([`Resource::buffer_ranges`]), and descriptor element `k` covers exactly element `k`'s
//! bytes. The returned bytes are that whole buffer, padding included.
//!
//! Buffer device addresses: a [`Resource::Address`] buffer is created with
//! `SHADER_DEVICE_ADDRESS` usage and its 64-bit address is written, before the dispatch, into
//! the push constants or into another resource at a byte offset the caller names.

use crate::device::{vkc, Error, Gpu, Info, Pick};
use crate::images::{self, Image, Sampler, TexelFormat, ViewType};
use crate::reflect::{self, DescriptorKind, Stage};
use ash::vk;
use std::borrow::Cow;
use std::sync::{Mutex, OnceLock};

/// Where the device address of a [`Resource::Address`] buffer is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressTarget {
    /// Into the push constants at this byte offset.
    Push(u32),
    /// Into resource number `index` (position in the resource list) at byte `offset`.
    Resource { index: usize, offset: u32 },
}

/// A resource given to the shader.
#[derive(Debug, Clone, PartialEq)]
pub enum Resource {
    /// A descriptor: storage or uniform buffer at (set, binding), with its initial bytes.
    Buffer {
        set: u32,
        binding: u32,
        kind: DescriptorKind,
        data: Vec<u8>,
    },
    /// An array of storage or uniform buffers at (set, binding), one descriptor per
    /// element, each with its own initial bytes and length.
    Buffers {
        set: u32,
        binding: u32,
        kind: DescriptorKind,
        elements: Vec<Vec<u8>>,
    },
    /// A buffer reached only through its device address.
    Address {
        data: Vec<u8>,
        target: AddressTarget,
    },
    /// Storage images, sampled images or combined image samplers at (set, binding), one
    /// per array element; `samplers` holds one per image for combined image samplers and
    /// is empty otherwise. Its data is the images' data one after another.
    Image {
        set: u32,
        binding: u32,
        kind: DescriptorKind,
        images: Vec<Image>,
        samplers: Vec<Sampler>,
    },
    /// Samplers at (set, binding), one per array element (no data).
    Sampler {
        set: u32,
        binding: u32,
        samplers: Vec<Sampler>,
    },
    /// A uniform or storage texel buffer of `format`.
    TexelBuffer {
        set: u32,
        binding: u32,
        kind: DescriptorKind,
        format: TexelFormat,
        data: Vec<u8>,
    },
}

impl Resource {
    /// The resource's bytes (images: every image of the binding in turn).
    pub fn data(&self) -> Cow<'_, [u8]> {
        match self {
            Resource::Buffer { data, .. }
            | Resource::Address { data, .. }
            | Resource::TexelBuffer { data, .. } => Cow::Borrowed(data),
            Resource::Image { images, .. } => {
                Cow::Owned(images.iter().flat_map(|i| i.data.iter().copied()).collect())
            }
            Resource::Buffers { elements, .. } => {
                let ranges = self.buffer_ranges();
                let end = ranges.last().map_or(0, |&(o, n)| o + n) as usize;
                let mut out = vec![0u8; end];
                for (e, &(o, _)) in elements.iter().zip(&ranges) {
                    out[o as usize..o as usize + e.len()].copy_from_slice(e);
                }
                Cow::Owned(out)
            }
            Resource::Sampler { .. } => Cow::Borrowed(&[]),
        }
    }

    /// (byte offset in [`Resource::data`], length) of each descriptor's range: the one
    /// buffer of a plain resource, each element of [`Resource::Buffers`] (elements start at
    /// multiples of [`BUFFER_ARRAY_ALIGN`]); none for images and samplers.
    pub fn buffer_ranges(&self) -> Vec<(u32, u32)> {
        match self {
            Resource::Buffers { elements, .. } => {
                let mut at = 0u32;
                elements
                    .iter()
                    .map(|e| {
                        let r = (at, e.len() as u32);
                        at = (at + e.len() as u32).next_multiple_of(BUFFER_ARRAY_ALIGN);
                        r
                    })
                    .collect()
            }
            Resource::Image { .. } | Resource::Sampler { .. } => Vec::new(),
            _ => vec![(0, self.data().len() as u32)],
        }
    }

    /// (set, binding) of a descriptor resource.
    pub fn binding(&self) -> Option<(u32, u32)> {
        match self {
            Resource::Buffer { set, binding, .. }
            | Resource::Buffers { set, binding, .. }
            | Resource::Image { set, binding, .. }
            | Resource::Sampler { set, binding, .. }
            | Resource::TexelBuffer { set, binding, .. } => Some((*set, *binding)),
            Resource::Address { .. } => None,
        }
    }

    /// The descriptor kind and the number of descriptors (array elements).
    fn kind_count(&self) -> Option<(DescriptorKind, u32)> {
        match self {
            Resource::Buffer { kind, .. } | Resource::TexelBuffer { kind, .. } => Some((*kind, 1)),
            Resource::Buffers { kind, elements, .. } => Some((*kind, elements.len() as u32)),
            Resource::Image { kind, images, .. } => Some((*kind, images.len() as u32)),
            Resource::Sampler { samplers, .. } => {
                Some((DescriptorKind::Sampler, samplers.len() as u32))
            }
            Resource::Address { .. } => None,
        }
    }
}

/// Alignment of the elements of a [`Resource::Buffers`] array in its one buffer: a multiple
/// of every device's minimum storage and uniform buffer offset alignment (at most 256).
pub const BUFFER_ARRAY_ALIGN: u32 = 256;

/// A specialization-constant value (booleans are `U32(0 | 1)`, as `VkBool32`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecValue {
    U32(u32),
    U64(u64),
}

static GPU: OnceLock<Result<Mutex<Gpu>, Error>> = OnceLock::new();

pub(crate) fn gpu() -> Result<&'static Mutex<Gpu>, Error> {
    GPU.get_or_init(|| {
        const LVP: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
        if std::env::var_os("VK_ICD_FILENAMES").is_none()
            && std::env::var_os("VK_DRIVER_FILES").is_none()
            && std::path::Path::new(LVP).exists()
        {
            std::env::set_var("VK_ICD_FILENAMES", LVP);
        }
        Gpu::new(Pick::Cpu, &[]).map(Mutex::new)
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// Properties of the lavapipe device (subgroup size, driver version, ...).
pub fn info() -> Result<Info, Error> {
    let g = gpu()?.lock().unwrap_or_else(|p| p.into_inner());
    Ok(g.info.clone())
}

/// Dispatches `groups` workgroups of `entry` and returns the contents of every resource
/// afterwards, in the order given.
pub fn run_compute(
    spirv: &[u8],
    entry: &str,
    groups: [u32; 3],
    resources: &[Resource],
    push: &[u8],
    spec: &[(u32, SpecValue)],
) -> Result<Vec<Vec<u8>>, Error> {
    let module = reflect::reflect_bytes(spirv)?;
    let ep = module.entry(entry)?;
    if ep.stage != Stage::Compute {
        return Err(Error::Usage(format!(
            "entry point {entry:?} is {:?}, not compute",
            ep.stage
        )));
    }
    // Match the shader's bindings with the caller's resources.
    let mut bound = Vec::new();
    for b in &ep.bindings {
        let idx = resources
            .iter()
            .position(|r| r.binding() == Some((b.set, b.binding)))
            .ok_or_else(|| {
                Error::Usage(format!(
                    "no resource for (set {}, binding {})",
                    b.set, b.binding
                ))
            })?;
        let r = &resources[idx];
        let (kind, count) = r.kind_count().unwrap_or((b.kind, 0));
        if kind != b.kind {
            return Err(Error::Usage(format!(
                "(set {}, binding {}) is {:?} in the shader but {:?} in the resources",
                b.set, b.binding, b.kind, kind
            )));
        }
        // a runtime-sized array (count None) takes as many descriptors as the resource has
        if b.count.map_or(count == 0, |c| c != count) {
            return Err(Error::Usage(format!(
                "(set {}, binding {}) has {:?} descriptors in the shader, {count} in the resources",
                b.set, b.binding, b.count
            )));
        }
        match r {
            Resource::Buffers { elements, .. } => {
                if let Some(e) = elements
                    .iter()
                    .position(|e| (e.len() as u64) < b.block_size.unwrap_or(0).max(1))
                {
                    return Err(Error::Usage(format!(
                        "(set {}, binding {}) element {e} needs at least {} bytes, got {}",
                        b.set,
                        b.binding,
                        b.block_size.unwrap_or(0).max(1),
                        elements[e].len()
                    )));
                }
            }
            Resource::Buffer { data, .. } => {
                if (data.len() as u64) < b.block_size.unwrap_or(0) {
                    return Err(Error::Usage(format!(
                        "(set {}, binding {}) needs at least {} bytes, got {}",
                        b.set,
                        b.binding,
                        b.block_size.unwrap_or(0),
                        data.len()
                    )));
                }
            }
            Resource::Image {
                images, samplers, ..
            } => {
                let want = if kind == DescriptorKind::CombinedImageSampler {
                    images.len()
                } else {
                    0
                };
                if samplers.len() != want {
                    return Err(Error::Usage(format!(
                        "(set {}, binding {}): {} samplers for {} {kind:?} images",
                        b.set,
                        b.binding,
                        samplers.len(),
                        images.len()
                    )));
                }
                for (k, i) in images.iter().enumerate() {
                    if i.data.len() != i.bytes() || i.levels == 0 {
                        return Err(Error::Usage(format!(
                            "(set {}, binding {}) image {k}: {} bytes of data, the image has {}",
                            b.set,
                            b.binding,
                            i.data.len(),
                            i.bytes()
                        )));
                    }
                }
            }
            _ => {}
        }
        bound.push((b.set, b.binding, b.kind, idx, count));
    }
    for (i, r) in resources.iter().enumerate() {
        if r.data().is_empty() && !matches!(r, Resource::Sampler { .. }) {
            return Err(Error::Usage(format!("resource {i} is empty")));
        }
        if let Some((set, binding)) = r.binding() {
            if !bound.iter().any(|b| b.3 == i) {
                return Err(Error::Usage(format!(
                    "resource {i} (set {set}, binding {binding}) is not used by the shader"
                )));
            }
        }
    }
    let push_size = ep.push_constant_size.unwrap_or(0);
    if (push.len() as u32) < push_size {
        return Err(Error::Usage(format!(
            "the shader's push constants are {push_size} bytes, got {}",
            push.len()
        )));
    }
    let spec_entries: Vec<(u32, Vec<u8>)> = spec
        .iter()
        .map(|(id, v)| match v {
            SpecValue::U32(x) => (*id, x.to_le_bytes().to_vec()),
            SpecValue::U64(x) => (*id, x.to_le_bytes().to_vec()),
        })
        .collect();

    let g = gpu()?.lock().unwrap_or_else(|p| p.into_inner());
    g.check_module(&module)?;
    if push.len() as u32 > g.info.max_push_constants {
        return Err(Error::Usage(format!(
            "{} bytes of push constants exceed the device limit",
            push.len()
        )));
    }
    let mut run = Run {
        g: &g,
        buffers: Vec::new(),
        images: Vec::new(),
        objects: Objects::default(),
    };
    run.go(spirv, entry, groups, resources, &bound, push, &spec_entries)
}

#[derive(Default)]
struct Objects {
    shader: vk::ShaderModule,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pool: vk::DescriptorPool,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    cmd_pool: vk::CommandPool,
    fence: vk::Fence,
    /// The fill of multisampled images (`draw_samples`).
    ms_fill: crate::draw_samples::Readback,
}

/// The Vulkan objects behind one resource beside its host-visible buffer: images (with
/// memory and view), samplers, a texel buffer's view.
#[derive(Default)]
struct ResObjects {
    images: Vec<(vk::Image, vk::DeviceMemory, vk::ImageView)>,
    samplers: Vec<vk::Sampler>,
    buffer_view: vk::BufferView,
}

struct Run<'g> {
    g: &'g Gpu,
    buffers: Vec<(vk::Buffer, vk::DeviceMemory, u64)>,
    /// Per resource (same index as `buffers`).
    images: Vec<ResObjects>,
    objects: Objects,
}

impl Drop for Run<'_> {
    fn drop(&mut self) {
        let d = &self.g.device;
        let o = &self.objects;
        // SAFETY: every handle was created by this run on this device (or is null, which
        // destroy accepts); the queue is idle (we waited on the fence or failed before submit).
        unsafe {
            let _ = d.queue_wait_idle(self.g.queue);
            d.destroy_fence(o.fence, None);
            d.destroy_command_pool(o.cmd_pool, None);
            d.destroy_pipeline(o.pipeline, None);
            d.destroy_pipeline_layout(o.layout, None);
            d.destroy_descriptor_pool(o.pool, None);
            for l in &o.set_layouts {
                d.destroy_descriptor_set_layout(*l, None);
            }
            d.destroy_shader_module(o.shader, None);
            o.ms_fill.destroy(d);
            for r in &self.images {
                for (i, m, v) in &r.images {
                    d.destroy_image_view(*v, None);
                    d.destroy_image(*i, None);
                    d.free_memory(*m, None);
                }
                for s in &r.samplers {
                    d.destroy_sampler(*s, None);
                }
                d.destroy_buffer_view(r.buffer_view, None);
            }
            for (b, m, _) in &self.buffers {
                d.destroy_buffer(*b, None);
                d.free_memory(*m, None);
            }
        }
    }
}

impl Run<'_> {
    #[allow(clippy::too_many_arguments)]
    fn go(
        &mut self,
        spirv: &[u8],
        entry: &str,
        groups: [u32; 3],
        resources: &[Resource],
        bound: &[(u32, u32, DescriptorKind, usize, u32)],
        push: &[u8],
        spec: &[(u32, Vec<u8>)],
    ) -> Result<Vec<Vec<u8>>, Error> {
        let g = self.g;
        let d = &g.device;
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        // SAFETY: all calls use handles created here on `d`, with valid create infos; mapped
        // ranges are written/read within the allocation size.
        unsafe {
            // Buffers.
            let mut addresses = Vec::new();
            let staged: Vec<Vec<u8>> = resources.iter().map(staging).collect::<Result<_, _>>()?;
            for (r, data) in resources.iter().zip(&staged) {
                let size = data.len().max(4).div_ceil(4) as u64 * 4;
                let mut usage = vk::BufferUsageFlags::STORAGE_BUFFER
                    | vk::BufferUsageFlags::UNIFORM_BUFFER
                    | vk::BufferUsageFlags::TRANSFER_SRC
                    | vk::BufferUsageFlags::TRANSFER_DST
                    | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
                    | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER;
                let is_addr = matches!(r, Resource::Address { .. });
                if is_addr {
                    usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
                }
                let bci = vk::BufferCreateInfo::default().size(size).usage(usage);
                let buf = vkc("vkCreateBuffer", d.create_buffer(&bci, None))?;
                let req = d.get_buffer_memory_requirements(buf);
                let Some(mt) = g.memory_type(req.memory_type_bits, host) else {
                    d.destroy_buffer(buf, None);
                    return Err(Error::NoDevice("no host-visible coherent memory".into()));
                };
                let mut flags = vk::MemoryAllocateFlagsInfo::default()
                    .flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
                let mut mai = vk::MemoryAllocateInfo::default()
                    .allocation_size(req.size)
                    .memory_type_index(mt);
                if is_addr {
                    mai = mai.push_next(&mut flags);
                }
                let mem = match d.allocate_memory(&mai, None) {
                    Ok(m) => m,
                    Err(e) => {
                        d.destroy_buffer(buf, None);
                        return vkc("vkAllocateMemory", Err(e));
                    }
                };
                self.buffers.push((buf, mem, size));
                vkc("vkBindBufferMemory", d.bind_buffer_memory(buf, mem, 0))?;
                if is_addr {
                    let info = vk::BufferDeviceAddressInfo::default().buffer(buf);
                    addresses.push(d.get_buffer_device_address(&info));
                } else {
                    addresses.push(0);
                }
            }
            // Initial contents, with device addresses patched in.
            let mut push = push.to_vec();
            let mut datas = staged;
            for r in resources {
                let objs = self.create_objects(r)?;
                self.images.push(objs);
            }
            for (i, r) in resources.iter().enumerate() {
                if let Resource::Address { target, .. } = r {
                    let (dst, off) = match *target {
                        AddressTarget::Push(o) => (&mut push, o as usize),
                        AddressTarget::Resource { index, offset } => {
                            let Some(d) = datas.get_mut(index) else {
                                return Err(Error::Usage(format!(
                                    "address target resource {index} does not exist"
                                )));
                            };
                            (d, offset as usize)
                        }
                    };
                    let Some(slot) = dst.get_mut(off..off + 8) else {
                        return Err(Error::Usage(format!(
                            "address of resource {i} written past the end of its target"
                        )));
                    };
                    slot.copy_from_slice(&addresses[i].to_le_bytes());
                }
            }
            for ((_, mem, size), data) in self.buffers.iter().zip(&datas) {
                let p = vkc(
                    "vkMapMemory",
                    d.map_memory(*mem, 0, *size, vk::MemoryMapFlags::empty()),
                )? as *mut u8;
                std::ptr::write_bytes(p, 0, *size as usize);
                std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len());
                d.unmap_memory(*mem);
            }

            // Descriptor set layouts: one per set index up to the highest used (gaps empty).
            let nsets = bound.iter().map(|b| b.0 + 1).max().unwrap_or(0);
            for s in 0..nsets {
                let lb: Vec<vk::DescriptorSetLayoutBinding> = bound
                    .iter()
                    .filter(|b| b.0 == s)
                    .map(|b| {
                        vk::DescriptorSetLayoutBinding::default()
                            .binding(b.1)
                            .descriptor_type(desc_type(b.2))
                            .descriptor_count(b.4)
                            .stage_flags(vk::ShaderStageFlags::COMPUTE)
                    })
                    .collect();
                let ci = vk::DescriptorSetLayoutCreateInfo::default().bindings(&lb);
                self.objects.set_layouts.push(vkc(
                    "vkCreateDescriptorSetLayout",
                    d.create_descriptor_set_layout(&ci, None),
                )?);
            }
            let mut sets = Vec::new();
            if nsets > 0 {
                let mut sizes: Vec<vk::DescriptorPoolSize> = Vec::new();
                for b in bound {
                    let ty = desc_type(b.2);
                    match sizes.iter_mut().find(|p| p.ty == ty) {
                        Some(p) => p.descriptor_count += b.4,
                        None => sizes.push(vk::DescriptorPoolSize {
                            ty,
                            descriptor_count: b.4,
                        }),
                    }
                }
                let pci = vk::DescriptorPoolCreateInfo::default()
                    .max_sets(nsets)
                    .pool_sizes(&sizes);
                self.objects.pool = vkc(
                    "vkCreateDescriptorPool",
                    d.create_descriptor_pool(&pci, None),
                )?;
                let ai = vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(self.objects.pool)
                    .set_layouts(&self.objects.set_layouts);
                sets = vkc("vkAllocateDescriptorSets", d.allocate_descriptor_sets(&ai))?;
                let infos: Vec<Vec<vk::DescriptorBufferInfo>> = bound
                    .iter()
                    .map(|b| {
                        let (buf, _, size) = self.buffers[b.3];
                        match &resources[b.3] {
                            r @ Resource::Buffers { .. } => r
                                .buffer_ranges()
                                .into_iter()
                                .map(|(offset, range)| vk::DescriptorBufferInfo {
                                    buffer: buf,
                                    offset: offset as u64,
                                    range: range as u64,
                                })
                                .collect(),
                            _ => vec![vk::DescriptorBufferInfo {
                                buffer: buf,
                                offset: 0,
                                range: size,
                            }],
                        }
                    })
                    .collect();
                let image_infos: Vec<Vec<vk::DescriptorImageInfo>> = bound
                    .iter()
                    .map(|b| {
                        let o = &self.images[b.3];
                        (0..b.4 as usize)
                            .map(|k| vk::DescriptorImageInfo {
                                sampler: o.samplers.get(k).copied().unwrap_or_default(),
                                image_view: o.images.get(k).map(|i| i.2).unwrap_or_default(),
                                image_layout: vk::ImageLayout::GENERAL,
                            })
                            .collect()
                    })
                    .collect();
                let views: Vec<[vk::BufferView; 1]> = bound
                    .iter()
                    .map(|b| [self.images[b.3].buffer_view])
                    .collect();
                let writes: Vec<vk::WriteDescriptorSet> = bound
                    .iter()
                    .enumerate()
                    .map(|(i, b)| {
                        let w = vk::WriteDescriptorSet::default()
                            .dst_set(sets[b.0 as usize])
                            .dst_binding(b.1)
                            .descriptor_type(desc_type(b.2));
                        match b.2 {
                            DescriptorKind::StorageBuffer | DescriptorKind::UniformBuffer => {
                                w.buffer_info(&infos[i])
                            }
                            DescriptorKind::UniformTexelBuffer
                            | DescriptorKind::StorageTexelBuffer => w.texel_buffer_view(&views[i]),
                            _ => w.image_info(&image_infos[i]),
                        }
                    })
                    .collect();
                d.update_descriptor_sets(&writes, &[]);
            }

            let push_len = push.len().div_ceil(4) as u32 * 4;
            push.resize(push_len as usize, 0);
            let ranges = [vk::PushConstantRange {
                stage_flags: vk::ShaderStageFlags::COMPUTE,
                offset: 0,
                size: push_len,
            }];
            let mut lci =
                vk::PipelineLayoutCreateInfo::default().set_layouts(&self.objects.set_layouts);
            if push_len > 0 {
                lci = lci.push_constant_ranges(&ranges);
            }
            self.objects.layout = vkc(
                "vkCreatePipelineLayout",
                d.create_pipeline_layout(&lci, None),
            )?;

            let words = reflect::words_of(spirv)?;
            let smci = vk::ShaderModuleCreateInfo::default().code(&words);
            self.objects.shader = vkc("vkCreateShaderModule", d.create_shader_module(&smci, None))?;

            let mut spec_data = Vec::new();
            let mut map = Vec::new();
            for (id, bytes) in spec {
                map.push(vk::SpecializationMapEntry {
                    constant_id: *id,
                    offset: spec_data.len() as u32,
                    size: bytes.len(),
                });
                spec_data.extend_from_slice(bytes);
            }
            let spec_info = vk::SpecializationInfo::default()
                .map_entries(&map)
                .data(&spec_data);
            let name = std::ffi::CString::new(entry)
                .map_err(|_| Error::Usage("entry name contains NUL".into()))?;
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(self.objects.shader)
                .name(&name)
                .specialization_info(&spec_info);
            let cpci = [vk::ComputePipelineCreateInfo::default()
                .stage(stage)
                .layout(self.objects.layout)];
            self.objects.pipeline = d
                .create_compute_pipelines(vk::PipelineCache::null(), &cpci, None)
                .map_err(|(_, e)| Error::Vk {
                    call: "vkCreateComputePipelines",
                    result: e.as_raw(),
                })?[0];

            let cpi = vk::CommandPoolCreateInfo::default().queue_family_index(g.queue_family);
            self.objects.cmd_pool = vkc("vkCreateCommandPool", d.create_command_pool(&cpi, None))?;
            let cbi = vk::CommandBufferAllocateInfo::default()
                .command_pool(self.objects.cmd_pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1);
            let cb = vkc("vkAllocateCommandBuffers", d.allocate_command_buffers(&cbi))?[0];
            let bi = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            vkc("vkBeginCommandBuffer", d.begin_command_buffer(cb, &bi))?;
            self.record_image_copies(cb, resources, true);
            self.record_ms_fills(cb, resources)?;
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, self.objects.pipeline);
            if !sets.is_empty() {
                d.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::COMPUTE,
                    self.objects.layout,
                    0,
                    &sets,
                    &[],
                );
            }
            if push_len > 0 {
                d.cmd_push_constants(
                    cb,
                    self.objects.layout,
                    vk::ShaderStageFlags::COMPUTE,
                    0,
                    &push,
                );
            }
            d.cmd_dispatch(cb, groups[0], groups[1], groups[2]);
            self.record_image_copies(cb, resources, false);
            let barrier = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            );
            vkc("vkEndCommandBuffer", d.end_command_buffer(cb))?;
            self.objects.fence = vkc(
                "vkCreateFence",
                d.create_fence(&vk::FenceCreateInfo::default(), None),
            )?;
            let cbs = [cb];
            let submit = [vk::SubmitInfo::default().command_buffers(&cbs)];
            vkc(
                "vkQueueSubmit",
                d.queue_submit(g.queue, &submit, self.objects.fence),
            )?;
            vkc(
                "vkWaitForFences",
                d.wait_for_fences(&[self.objects.fence], true, 120_000_000_000),
            )?;

            let mut out = Vec::new();
            for ((_, mem, size), r) in self.buffers.iter().zip(resources) {
                if multisampled(r) {
                    // not read back: Vulkan copies no multisampled image into a buffer
                    out.push(Vec::new());
                    continue;
                }
                let p = vkc(
                    "vkMapMemory",
                    d.map_memory(*mem, 0, *size, vk::MemoryMapFlags::empty()),
                )? as *const u8;
                out.push(std::slice::from_raw_parts(p, r.data().len()).to_vec());
                d.unmap_memory(*mem);
            }
            Ok(out)
        }
    }
}

fn desc_type(k: DescriptorKind) -> vk::DescriptorType {
    use vk::DescriptorType as T;
    match k {
        DescriptorKind::UniformBuffer => T::UNIFORM_BUFFER,
        DescriptorKind::StorageImage => T::STORAGE_IMAGE,
        DescriptorKind::SampledImage => T::SAMPLED_IMAGE,
        DescriptorKind::Sampler => T::SAMPLER,
        DescriptorKind::CombinedImageSampler => T::COMBINED_IMAGE_SAMPLER,
        DescriptorKind::UniformTexelBuffer => T::UNIFORM_TEXEL_BUFFER,
        DescriptorKind::StorageTexelBuffer => T::STORAGE_TEXEL_BUFFER,
        _ => T::STORAGE_BUFFER,
    }
}

pub(crate) fn aspect(f: TexelFormat) -> vk::ImageAspectFlags {
    if f.is_depth() {
        vk::ImageAspectFlags::DEPTH
    } else {
        vk::ImageAspectFlags::COLOR
    }
}

pub(crate) fn sampler_info(s: &Sampler, int: bool) -> vk::SamplerCreateInfo<'static> {
    use images::{vk_compare, Address, Border, Filter};
    let filter = |f: Filter| match f {
        Filter::Nearest => vk::Filter::NEAREST,
        Filter::Linear => vk::Filter::LINEAR,
    };
    let addr = |a: Address| match a {
        Address::Repeat => vk::SamplerAddressMode::REPEAT,
        Address::MirroredRepeat => vk::SamplerAddressMode::MIRRORED_REPEAT,
        Address::ClampToEdge => vk::SamplerAddressMode::CLAMP_TO_EDGE,
        Address::ClampToBorder => vk::SamplerAddressMode::CLAMP_TO_BORDER,
        Address::MirrorClampToEdge => vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE,
    };
    let border = match (s.border, int) {
        (Border::TransparentBlack, false) => vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
        (Border::TransparentBlack, true) => vk::BorderColor::INT_TRANSPARENT_BLACK,
        (Border::OpaqueBlack, false) => vk::BorderColor::FLOAT_OPAQUE_BLACK,
        (Border::OpaqueBlack, true) => vk::BorderColor::INT_OPAQUE_BLACK,
        (Border::OpaqueWhite, false) => vk::BorderColor::FLOAT_OPAQUE_WHITE,
        (Border::OpaqueWhite, true) => vk::BorderColor::INT_OPAQUE_WHITE,
    };
    vk::SamplerCreateInfo::default()
        .mag_filter(filter(s.mag))
        .min_filter(filter(s.min))
        .mipmap_mode(match s.mip {
            Filter::Nearest => vk::SamplerMipmapMode::NEAREST,
            Filter::Linear => vk::SamplerMipmapMode::LINEAR,
        })
        .address_mode_u(addr(s.address[0]))
        .address_mode_v(addr(s.address[1]))
        .address_mode_w(addr(s.address[2]))
        .border_color(border)
        .compare_enable(s.compare.is_some())
        .compare_op(s.compare.map_or(vk::CompareOp::NEVER, vk_compare))
        .unnormalized_coordinates(s.unnormalized)
        .min_lod(s.min_lod)
        .max_lod(s.max_lod)
}

impl Run<'_> {
    /// Images, views, samplers and buffer views of one resource.
    ///
    /// # Safety
    /// Called inside `go`'s unsafe block on this run's device; every handle is recorded in
    /// the result before the next call can fail, so `Drop` destroys it.
    unsafe fn create_objects(&mut self, r: &Resource) -> Result<ResObjects, Error> {
        let d = &self.g.device;
        let mut o = ResObjects::default();
        match r {
            Resource::Image {
                kind,
                images,
                samplers,
                ..
            } => {
                for img in images {
                    create_image(
                        self.g,
                        img,
                        *kind == DescriptorKind::StorageImage,
                        &mut o.images,
                    )?;
                }
                for (s, img) in samplers.iter().zip(images) {
                    let sci = sampler_info(s, img.format.is_int());
                    o.samplers
                        .push(vkc("vkCreateSampler", d.create_sampler(&sci, None))?);
                }
            }
            Resource::Sampler { samplers, .. } => {
                for s in samplers {
                    let sci = sampler_info(s, false);
                    o.samplers
                        .push(vkc("vkCreateSampler", d.create_sampler(&sci, None))?);
                }
            }
            Resource::TexelBuffer { format, .. } => {
                let (buf, _, size) = self.buffers[self.images.len()];
                let bvci = vk::BufferViewCreateInfo::default()
                    .buffer(buf)
                    .format(format.vk())
                    .offset(0)
                    .range(size / format.bytes() as u64 * format.bytes() as u64);
                o.buffer_view = vkc("vkCreateBufferView", d.create_buffer_view(&bvci, None))?;
            }
            _ => {}
        }
        Ok(o)
    }

    /// Records, for every image: before the dispatch (`upload`) the copy from its staging
    /// buffer and the move to GENERAL; after it the copy back into the staging buffer.
    ///
    /// # Safety
    /// `cb` is recording; the images and buffers were created by this run.
    unsafe fn record_image_copies(
        &self,
        cb: vk::CommandBuffer,
        resources: &[Resource],
        upload: bool,
    ) {
        let d = &self.g.device;
        for (k, r) in resources.iter().enumerate() {
            let Resource::Image { images, .. } = r else {
                continue;
            };
            if multisampled(r) {
                continue;
            }
            let buf = self.buffers[k].0;
            let mut base = 0usize;
            for (img, objs) in images.iter().zip(&self.images[k].images) {
                record_image_copy(d, cb, buf, base, img, objs.0, upload);
                base += img.bytes();
            }
        }
    }

    /// Records, for every multisampled image, the move to GENERAL and its fill from its
    /// staging buffer ([`staging`]), then a barrier making the writes visible to the
    /// dispatch.
    ///
    /// # Safety
    /// `cb` is recording; the images and buffers were created by this run.
    unsafe fn record_ms_fills(
        &mut self,
        cb: vk::CommandBuffer,
        resources: &[Resource],
    ) -> Result<(), Error> {
        let d = &self.g.device;
        let count: usize = resources
            .iter()
            .filter(|r| multisampled(r))
            .map(|r| match r {
                Resource::Image { images, .. } => images.len(),
                _ => 0,
            })
            .sum();
        if count == 0 {
            return Ok(());
        }
        self.objects.ms_fill.new_fill(d, count as u32)?;
        for (k, r) in resources.iter().enumerate() {
            let Resource::Image { images, .. } = r else {
                continue;
            };
            if !multisampled(r) {
                continue;
            }
            let mut base = 0u64;
            for (img, objs) in images.iter().zip(&self.images[k].images) {
                let to_general = [vk::ImageMemoryBarrier::default()
                    .dst_access_mask(vk::AccessFlags::SHADER_WRITE)
                    .old_layout(vk::ImageLayout::UNDEFINED)
                    .new_layout(vk::ImageLayout::GENERAL)
                    .image(objs.0)
                    .subresource_range(vk::ImageSubresourceRange {
                        aspect_mask: aspect(img.format),
                        base_mip_level: 0,
                        level_count: 1,
                        base_array_layer: 0,
                        layer_count: img.layers(),
                    })];
                d.cmd_pipeline_barrier(
                    cb,
                    vk::PipelineStageFlags::TOP_OF_PIPE,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::DependencyFlags::empty(),
                    &[],
                    &[],
                    &to_general,
                );
                let range = (img.data.len() / img.format.bytes() as usize * 16) as u64;
                let src = vk::DescriptorBufferInfo::default()
                    .buffer(self.buffers[k].0)
                    .offset(base)
                    .range(range);
                self.objects.ms_fill.record_fill(
                    d,
                    cb,
                    objs.2,
                    crate::draw_samples::Class::of_texel(img.format),
                    src,
                    (img.size[0], img.size[1], img.layers(), img.samples),
                )?;
                base += range;
            }
        }
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)];
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::DependencyFlags::empty(),
            &barrier,
            &[],
            &[],
        );
        Ok(())
    }
}

/// True for an image resource of multisampled images (all of its images are, or
/// [`staging`] refuses it).
fn multisampled(r: &Resource) -> bool {
    matches!(r, Resource::Image { images, .. } if images.iter().any(|i| i.samples > 1))
}

/// The bytes of a resource's host-visible buffer before the dispatch: its data, or for
/// multisampled images the values their fill stores (`draw_samples::fill_values`).
fn staging(r: &Resource) -> Result<Vec<u8>, Error> {
    match r {
        Resource::Image { images, .. } if multisampled(r) => {
            let mut out = Vec::new();
            for img in images {
                if img.samples < 2 || img.levels != 1 {
                    return Err(Error::Usage(
                        "a binding of multisampled images holds only multisampled images of one level"
                            .into(),
                    ));
                }
                out.extend(crate::draw_samples::fill_values(img)?);
            }
            Ok(out)
        }
        r => Ok(r.data().to_vec()),
    }
}

/// Creates `img` (optimal tiling, every level and layer, sampled or `storage`) with its
/// memory and a view of all of it, pushed onto `out` as soon as each handle exists (so the
/// caller's `Drop` destroys them whatever fails next); its contents are undefined until a
/// [`record_image_copy`] upload.
///
/// # Safety
/// `g`'s device is valid; `out` is destroyed by the caller.
pub(crate) unsafe fn create_image(
    g: &Gpu,
    img: &Image,
    storage: bool,
    out: &mut Vec<(vk::Image, vk::DeviceMemory, vk::ImageView)>,
) -> Result<(), Error> {
    let d = &g.device;
    let (ty, view_ty) = match img.view {
        ViewType::D1 => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D),
        ViewType::D1Array => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D_ARRAY),
        ViewType::D2 => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D),
        ViewType::D2Array => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D_ARRAY),
        ViewType::Cube => (vk::ImageType::TYPE_2D, vk::ImageViewType::CUBE),
        ViewType::CubeArray => (vk::ImageType::TYPE_2D, vk::ImageViewType::CUBE_ARRAY),
        ViewType::D3 => (vk::ImageType::TYPE_3D, vk::ImageViewType::TYPE_3D),
    };
    let usage = if img.samples > 1 {
        // filled by a compute pass (`Run::record_ms_fills`), never copied
        vk::ImageUsageFlags::STORAGE | vk::ImageUsageFlags::SAMPLED
    } else {
        vk::ImageUsageFlags::TRANSFER_SRC
            | vk::ImageUsageFlags::TRANSFER_DST
            | if storage {
                vk::ImageUsageFlags::STORAGE
            } else {
                vk::ImageUsageFlags::SAMPLED
            }
    };
    let cube = matches!(img.view, ViewType::Cube | ViewType::CubeArray);
    let depth = if img.view == ViewType::D3 {
        img.size[2]
    } else {
        1
    };
    let ici = vk::ImageCreateInfo::default()
        .flags(if cube {
            vk::ImageCreateFlags::CUBE_COMPATIBLE
        } else {
            vk::ImageCreateFlags::empty()
        })
        .image_type(ty)
        .format(img.format.vk())
        .extent(vk::Extent3D {
            width: img.size[0],
            height: img.size[1],
            depth,
        })
        .mip_levels(img.levels)
        .array_layers(img.layers())
        .samples(vk::SampleCountFlags::from_raw(img.samples))
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
        .initial_layout(vk::ImageLayout::UNDEFINED);
    let image = vkc("vkCreateImage", d.create_image(&ici, None))?;
    let req = d.get_image_memory_requirements(image);
    let Some(mt) = g.memory_type(req.memory_type_bits, vk::MemoryPropertyFlags::empty()) else {
        d.destroy_image(image, None);
        return Err(Error::NoDevice("no memory type for an image".into()));
    };
    let mai = vk::MemoryAllocateInfo::default()
        .allocation_size(req.size)
        .memory_type_index(mt);
    let mem = match d.allocate_memory(&mai, None) {
        Ok(m) => m,
        Err(e) => {
            d.destroy_image(image, None);
            return vkc("vkAllocateMemory", Err(e));
        }
    };
    out.push((image, mem, vk::ImageView::null()));
    vkc("vkBindImageMemory", d.bind_image_memory(image, mem, 0))?;
    let vci = vk::ImageViewCreateInfo::default()
        .image(image)
        .view_type(view_ty)
        .format(img.format.vk())
        .subresource_range(vk::ImageSubresourceRange {
            aspect_mask: aspect(img.format),
            base_mip_level: 0,
            level_count: img.levels,
            base_array_layer: 0,
            layer_count: img.layers(),
        });
    let view = vkc("vkCreateImageView", d.create_image_view(&vci, None))?;
    if let Some(last) = out.last_mut() {
        last.2 = view;
    }
    Ok(())
}

/// Records for image `image` (created from `img`), its data at byte `base` of `buf`: with
/// `upload` the move to TRANSFER_DST, the copy of every level from `buf` and the move to
/// GENERAL; otherwise the move to TRANSFER_SRC and the copy back into `buf`.
///
/// # Safety
/// `cb` is recording on `d`; `buf` holds `base + img.bytes()` bytes.
pub(crate) unsafe fn record_image_copy(
    d: &ash::Device,
    cb: vk::CommandBuffer,
    buf: vk::Buffer,
    base: usize,
    img: &Image,
    image: vk::Image,
    upload: bool,
) {
    let range = vk::ImageSubresourceRange {
        aspect_mask: aspect(img.format),
        base_mip_level: 0,
        level_count: img.levels,
        base_array_layer: 0,
        layer_count: img.layers(),
    };
    let regions: Vec<vk::BufferImageCopy> = (0..img.levels)
        .map(|l| {
            let [w, h, dd] = img.extent(l);
            let three = img.view == ViewType::D3;
            vk::BufferImageCopy {
                buffer_offset: (base + img.level_offset(l)) as u64,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspect(img.format),
                    mip_level: l,
                    base_array_layer: 0,
                    layer_count: img.layers(),
                },
                image_offset: vk::Offset3D::default(),
                image_extent: vk::Extent3D {
                    width: w,
                    height: h,
                    depth: if three { dd } else { 1 },
                },
            }
        })
        .collect();
    let barrier = |from, to, src, dst| {
        [vk::ImageMemoryBarrier::default()
            .old_layout(from)
            .new_layout(to)
            .src_access_mask(src)
            .dst_access_mask(dst)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image)
            .subresource_range(range)]
    };
    let all = vk::PipelineStageFlags::ALL_COMMANDS;
    let rw = vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE;
    if upload {
        let b = barrier(
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::AccessFlags::HOST_WRITE,
            vk::AccessFlags::TRANSFER_WRITE,
        );
        d.cmd_pipeline_barrier(cb, all, all, vk::DependencyFlags::empty(), &[], &[], &b);
        d.cmd_copy_buffer_to_image(
            cb,
            buf,
            image,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            &regions,
        );
        let b = barrier(
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::GENERAL,
            vk::AccessFlags::TRANSFER_WRITE,
            rw,
        );
        d.cmd_pipeline_barrier(cb, all, all, vk::DependencyFlags::empty(), &[], &[], &b);
    } else {
        let b = barrier(
            vk::ImageLayout::GENERAL,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            rw,
            vk::AccessFlags::TRANSFER_READ,
        );
        d.cmd_pipeline_barrier(cb, all, all, vk::DependencyFlags::empty(), &[], &[], &b);
        d.cmd_copy_image_to_buffer(
            cb,
            image,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            buf,
            &regions,
        );
    }
}
