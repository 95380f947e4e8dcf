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
//! Buffer device addresses: a [`Resource::Address`] buffer is created with
//! `SHADER_DEVICE_ADDRESS` usage and its 64-bit address is written, before the dispatch, into
//! the push constants or into another resource at a byte offset the caller names.

use crate::device::{vkc, Error, Gpu, Info, Pick};
use crate::reflect::{self, DescriptorKind, Stage};
use ash::vk;
use std::sync::{Mutex, OnceLock};

/// Where the device address of a [`Resource::Address`] buffer is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressTarget {
    /// Into the push constants at this byte offset.
    Push(u32),
    /// Into resource number `index` (position in the resource list) at byte `offset`.
    Resource { index: usize, offset: u32 },
}

/// A buffer given to the shader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resource {
    /// A descriptor: storage or uniform buffer at (set, binding), with its initial bytes.
    Buffer {
        set: u32,
        binding: u32,
        kind: DescriptorKind,
        data: Vec<u8>,
    },
    /// A buffer reached only through its device address.
    Address {
        data: Vec<u8>,
        target: AddressTarget,
    },
}

impl Resource {
    pub fn data(&self) -> &[u8] {
        match self {
            Resource::Buffer { data, .. } | Resource::Address { data, .. } => data,
        }
    }
}

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
        if !matches!(
            b.kind,
            DescriptorKind::StorageBuffer | DescriptorKind::UniformBuffer
        ) || b.count != Some(1)
        {
            return Err(Error::Usage(format!(
                "binding (set {}, binding {}) is {:?} x{:?}; only single storage/uniform buffers are supported",
                b.set, b.binding, b.kind, b.count
            )));
        }
        let idx = resources
            .iter()
            .position(|r| matches!(r, Resource::Buffer { set, binding, .. } if *set == b.set && *binding == b.binding))
            .ok_or_else(|| Error::Usage(format!("no resource for (set {}, binding {})", b.set, b.binding)))?;
        if let Resource::Buffer { kind, data, .. } = &resources[idx] {
            if *kind != b.kind {
                return Err(Error::Usage(format!(
                    "(set {}, binding {}) is {:?} in the shader but {:?} in the resources",
                    b.set, b.binding, b.kind, kind
                )));
            }
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
        bound.push((b.set, b.binding, b.kind, idx));
    }
    for (i, r) in resources.iter().enumerate() {
        if r.data().is_empty() {
            return Err(Error::Usage(format!("resource {i} is empty")));
        }
        if let Resource::Buffer { set, binding, .. } = r {
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
}

struct Run<'g> {
    g: &'g Gpu,
    buffers: Vec<(vk::Buffer, vk::DeviceMemory, u64)>,
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
        bound: &[(u32, u32, DescriptorKind, usize)],
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
            for r in resources {
                let size = r.data().len().div_ceil(4) as u64 * 4;
                let mut usage =
                    vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::UNIFORM_BUFFER;
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
            let mut datas: Vec<Vec<u8>> = resources.iter().map(|r| r.data().to_vec()).collect();
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
                            .descriptor_count(1)
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
                let n_sb = bound
                    .iter()
                    .filter(|b| b.2 == DescriptorKind::StorageBuffer)
                    .count() as u32;
                let n_ub = bound.len() as u32 - n_sb;
                let mut sizes = Vec::new();
                if n_sb > 0 {
                    sizes.push(vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::STORAGE_BUFFER,
                        descriptor_count: n_sb,
                    });
                }
                if n_ub > 0 {
                    sizes.push(vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::UNIFORM_BUFFER,
                        descriptor_count: n_ub,
                    });
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
                let infos: Vec<[vk::DescriptorBufferInfo; 1]> = bound
                    .iter()
                    .map(|b| {
                        let (buf, _, size) = self.buffers[b.3];
                        [vk::DescriptorBufferInfo {
                            buffer: buf,
                            offset: 0,
                            range: size,
                        }]
                    })
                    .collect();
                let writes: Vec<vk::WriteDescriptorSet> = bound
                    .iter()
                    .zip(&infos)
                    .map(|(b, info)| {
                        vk::WriteDescriptorSet::default()
                            .dst_set(sets[b.0 as usize])
                            .dst_binding(b.1)
                            .descriptor_type(desc_type(b.2))
                            .buffer_info(info)
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
            let barrier = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::COMPUTE_SHADER,
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
    match k {
        DescriptorKind::UniformBuffer => vk::DescriptorType::UNIFORM_BUFFER,
        _ => vk::DescriptorType::STORAGE_BUFFER,
    }
}
