//! Every sample of a multisampled attachment read back from lavapipe, for `vkref draw`
//! (`draw.rs`) with `samples` > 1.
//!
//! Design: Vulkan copies no multisampled image to a buffer, and a resolve keeps only an
//! average, so after the draw each attachment is read by a small compute shader
//! (tests/shaders/vkref/ms_read_{f,u,i}.comp) that `texelFetch`es every sample of every
//! pixel into a storage buffer as the raw bits of the fetched vec4 / uvec4 / ivec4,
//! sample planes first. The values are turned back into the attachment's bytes with the
//! emulator's own conversion (`gcnc_emu::draw::output::encode` / `encode_int`), which is
//! exact for every format here: a fetched UNORM/SNORM value is k / (2^n − 1) (or
//! k / (2^(n−1) − 1)) as an f32 and rounds back to k, f16 widens to f32 exactly, sRGB
//! decodes and re-encodes to the same 8-bit code, integers are their value. Depth (D32)
//! is read through the float shader's `.r`.
//!
//! Invariant: the result has the emulator's layout (`gcnc_emu::draw::Images`): one plane
//! of width × height pixels per sample, sample 0 first, so tests compare samples one by
//! one.

use crate::device::{vkc, Error};
use crate::reflect;
use ash::vk;
use gcnc::amdgpu::attachment_format::Num;
use gcnc_emu::draw::desc::ColorFormat;
use gcnc_emu::draw::output::{encode, encode_int};

const READ_F: &[u8] = include_bytes!("../../../tests/shaders/vkref/ms_read_f.spv");
const READ_U: &[u8] = include_bytes!("../../../tests/shaders/vkref/ms_read_u.spv");
const READ_I: &[u8] = include_bytes!("../../../tests/shaders/vkref/ms_read_i.spv");
/// Invocations per workgroup of the read shaders.
const GROUP: u32 = 64;

/// What a read shader's texels are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Float,
    Uint,
    Sint,
}

impl Class {
    pub fn of(f: ColorFormat) -> Class {
        match f.num() {
            Num::Uint => Class::Uint,
            Num::Sint => Class::Sint,
            _ => Class::Float,
        }
    }

    fn spirv(self) -> &'static [u8] {
        match self {
            Class::Float => READ_F,
            Class::Uint => READ_U,
            Class::Sint => READ_I,
        }
    }
}

/// The Vulkan objects of the readback; `destroy` frees them.
#[derive(Default)]
pub struct Readback {
    sampler: vk::Sampler,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pool: vk::DescriptorPool,
    shaders: Vec<vk::ShaderModule>,
    pipelines: Vec<(Class, vk::Pipeline)>,
}

impl Readback {
    /// # Safety
    /// The handles were created on `d` (or are null) and no submitted work uses them.
    pub unsafe fn destroy(&self, d: &ash::Device) {
        for (_, p) in &self.pipelines {
            d.destroy_pipeline(*p, None);
        }
        for s in &self.shaders {
            d.destroy_shader_module(*s, None);
        }
        d.destroy_descriptor_pool(self.pool, None);
        d.destroy_pipeline_layout(self.layout, None);
        d.destroy_descriptor_set_layout(self.set_layout, None);
        d.destroy_sampler(self.sampler, None);
    }

    /// Creates the layout, a descriptor pool for `count` reads and the sampler.
    ///
    /// # Safety
    /// `d` is a live device.
    pub unsafe fn new(&mut self, d: &ash::Device, count: u32) -> Result<(), Error> {
        self.sampler = vkc(
            "vkCreateSampler",
            d.create_sampler(&vk::SamplerCreateInfo::default(), None),
        )?;
        let bindings = [
            vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE),
            vk::DescriptorSetLayoutBinding::default()
                .binding(1)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE),
        ];
        self.set_layout = vkc(
            "vkCreateDescriptorSetLayout",
            d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            ),
        )?;
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .size(12)];
        let layouts = [self.set_layout];
        self.layout = vkc(
            "vkCreatePipelineLayout",
            d.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&layouts)
                    .push_constant_ranges(&ranges),
                None,
            ),
        )?;
        let sizes = [
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                descriptor_count: count,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER,
                descriptor_count: count,
            },
        ];
        self.pool = vkc(
            "vkCreateDescriptorPool",
            d.create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(count)
                    .pool_sizes(&sizes),
                None,
            ),
        )?;
        Ok(())
    }

    unsafe fn pipeline(&mut self, d: &ash::Device, c: Class) -> Result<vk::Pipeline, Error> {
        if let Some((_, p)) = self.pipelines.iter().find(|(k, _)| *k == c) {
            return Ok(*p);
        }
        let words = reflect::words_of(c.spirv())?;
        let m = vkc(
            "vkCreateShaderModule",
            d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None),
        )?;
        self.shaders.push(m);
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(m)
            .name(c"main");
        let ci = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(self.layout)];
        let p = d
            .create_compute_pipelines(vk::PipelineCache::null(), &ci, None)
            .map_err(|(_, e)| Error::Vk {
                call: "vkCreateComputePipelines",
                result: e.as_raw(),
            })?[0];
        self.pipelines.push((c, p));
        Ok(p)
    }

    /// Records the read of `view` (an image in the GENERAL layout, every earlier write
    /// made visible to compute shaders) into `out` (16 bytes per sample of each pixel).
    ///
    /// # Safety
    /// Every handle is live on `d`; `cb` is recording; `out` holds w·h·samples·16 bytes.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn record(
        &mut self,
        d: &ash::Device,
        cb: vk::CommandBuffer,
        view: vk::ImageView,
        class: Class,
        out: vk::Buffer,
        (w, h, samples): (u32, u32, u32),
    ) -> Result<(), Error> {
        let p = self.pipeline(d, class)?;
        let layouts = [self.set_layout];
        let set = vkc(
            "vkAllocateDescriptorSets",
            d.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(self.pool)
                    .set_layouts(&layouts),
            ),
        )?[0];
        let ii = [vk::DescriptorImageInfo::default()
            .sampler(self.sampler)
            .image_view(view)
            .image_layout(vk::ImageLayout::GENERAL)];
        let bi = [vk::DescriptorBufferInfo::default()
            .buffer(out)
            .range(vk::WHOLE_SIZE)];
        let writes = [
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .image_info(&ii),
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(1)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&bi),
        ];
        d.update_descriptor_sets(&writes, &[]);
        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, p);
        d.cmd_bind_descriptor_sets(
            cb,
            vk::PipelineBindPoint::COMPUTE,
            self.layout,
            0,
            &[set],
            &[],
        );
        let pc: Vec<u8> = [w, h, samples]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        d.cmd_push_constants(cb, self.layout, vk::ShaderStageFlags::COMPUTE, 0, &pc);
        d.cmd_dispatch(cb, (w * h * samples).div_ceil(GROUP), 1, 1);
        Ok(())
    }
}

/// The attachment bytes of read-back texels (16 bytes each): colour in format `f`.
pub fn color_bytes(f: ColorFormat, texels: &[u8]) -> Vec<u8> {
    let class = Class::of(f);
    texels
        .chunks_exact(16)
        .flat_map(|t| {
            let v: [u32; 4] = std::array::from_fn(|k| {
                u32::from_le_bytes(t[4 * k..4 * k + 4].try_into().expect("4 bytes"))
            });
            match class {
                Class::Float => encode(f, v.map(f32::from_bits)),
                Class::Uint => encode_int(f, v.map(|x| x as i64)),
                Class::Sint => encode_int(f, v.map(|x| x as i32 as i64)),
            }
        })
        .collect()
}

/// The D32 bytes of read-back depth texels (the first channel of each).
pub fn depth_bytes(texels: &[u8]) -> Vec<u8> {
    texels
        .chunks_exact(16)
        .flat_map(|t| t[..4].to_vec())
        .collect()
}
