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
//!
//! The same pass runs the other way for the compute runner (`lavapipe.rs`): Vulkan copies
//! no buffer into a multisampled image either, so a multisampled image a shader reads is
//! filled by tests/shaders/vkref/ms_fill_{f,u,i}.comp, which `imageStore`s the raw bits of
//! each sample's value from a storage buffer into the image viewed as a storage image
//! without a format (shaderStorageImageMultisample, shaderStorageImageWriteWithoutFormat);
//! [`fill_values`] makes those values from the image's bytes.

use crate::device::{vkc, Error};
use crate::images::{Image, TexelFormat};
use crate::reflect;
use ash::vk;
use gcnc::amdgpu::attachment_format::Num;
use gcnc_emu::draw::desc::ColorFormat;
use gcnc_emu::draw::output::{encode, encode_int};

const READ_F: &[u8] = include_bytes!("../../../tests/shaders/vkref/ms_read_f.spv");
const READ_U: &[u8] = include_bytes!("../../../tests/shaders/vkref/ms_read_u.spv");
const READ_I: &[u8] = include_bytes!("../../../tests/shaders/vkref/ms_read_i.spv");
const FILL_F: &[u8] = include_bytes!("../../../tests/shaders/vkref/ms_fill_f.spv");
const FILL_U: &[u8] = include_bytes!("../../../tests/shaders/vkref/ms_fill_u.spv");
const FILL_I: &[u8] = include_bytes!("../../../tests/shaders/vkref/ms_fill_i.spv");
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

    /// The class of a compute-runner image format.
    pub fn of_texel(f: TexelFormat) -> Class {
        match f {
            TexelFormat::R32Sint | TexelFormat::R64Sint => Class::Sint,
            f if f.is_int() => Class::Uint,
            _ => Class::Float,
        }
    }

    fn spirv(self, fill: bool) -> &'static [u8] {
        match (self, fill) {
            (Class::Float, false) => READ_F,
            (Class::Uint, false) => READ_U,
            (Class::Sint, false) => READ_I,
            (Class::Float, true) => FILL_F,
            (Class::Uint, true) => FILL_U,
            (Class::Sint, true) => FILL_I,
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
    /// Fills multisampled storage images instead of reading sampled ones.
    fill: bool,
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
        self.setup(d, count, false)
    }

    /// Creates the layout and a descriptor pool for `count` fills ([`Readback::record_fill`]).
    ///
    /// # Safety
    /// `d` is a live device.
    pub unsafe fn new_fill(&mut self, d: &ash::Device, count: u32) -> Result<(), Error> {
        self.setup(d, count, true)
    }

    unsafe fn setup(&mut self, d: &ash::Device, count: u32, fill: bool) -> Result<(), Error> {
        self.fill = fill;
        let image_ty = if fill {
            vk::DescriptorType::STORAGE_IMAGE
        } else {
            self.sampler = vkc(
                "vkCreateSampler",
                d.create_sampler(&vk::SamplerCreateInfo::default(), None),
            )?;
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER
        };
        let bindings = [
            vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(image_ty)
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
            .size(16)];
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
                ty: image_ty,
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
        let words = reflect::words_of(c.spirv(self.fill))?;
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
        let bi = vk::DescriptorBufferInfo::default()
            .buffer(out)
            .range(vk::WHOLE_SIZE);
        self.record_pass(d, cb, view, class, bi, [w, h, samples, 1])
    }

    /// Records the fill of `view` (a multisampled storage image in the GENERAL layout;
    /// `layers` array layers) from `src` (16 bytes per sample, [`fill_values`]).
    ///
    /// # Safety
    /// Every handle is live on `d`; `cb` is recording; `src` holds the values.
    pub unsafe fn record_fill(
        &mut self,
        d: &ash::Device,
        cb: vk::CommandBuffer,
        view: vk::ImageView,
        class: Class,
        src: vk::DescriptorBufferInfo,
        (w, h, layers, samples): (u32, u32, u32, u32),
    ) -> Result<(), Error> {
        self.record_pass(d, cb, view, class, src, [w, h, samples, layers])
    }

    /// One dispatch over `w · h · samples · layers` invocations (`dims`, the push
    /// constants), the image at binding 0 and the buffer at binding 1.
    unsafe fn record_pass(
        &mut self,
        d: &ash::Device,
        cb: vk::CommandBuffer,
        view: vk::ImageView,
        class: Class,
        bi: vk::DescriptorBufferInfo,
        dims: [u32; 4],
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
        let bi = [bi];
        let image_ty = if self.fill {
            vk::DescriptorType::STORAGE_IMAGE
        } else {
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER
        };
        let writes = [
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(0)
                .descriptor_type(image_ty)
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
        let pc: Vec<u8> = dims.iter().flat_map(|v| v.to_le_bytes()).collect();
        d.cmd_push_constants(cb, self.layout, vk::ShaderStageFlags::COMPUTE, 0, &pc);
        d.cmd_dispatch(cb, dims.iter().product::<u32>().div_ceil(GROUP), 1, 1);
        Ok(())
    }
}

/// The values [`Readback::record_fill`] stores for the samples of `img` (a multisampled
/// image), 16 bytes each, in its sample order: the raw bits of the vec4 / uvec4 / ivec4
/// each sample reads as (`TexelFormat::decode`; the view's format converts them back to
/// the same bytes: normalized k / (2^n − 1) rounds to k, f16 and f32 are exact).
pub fn fill_values(img: &Image) -> Result<Vec<u8>, Error> {
    let class = Class::of_texel(img.format);
    let n = img.format.bytes() as usize;
    let mut out = Vec::with_capacity(img.data.len() / n * 16);
    for t in img.data.chunks_exact(n) {
        let v = img.format.decode(t).ok_or_else(|| {
            Error::Usage(format!(
                "a multisampled {:?} image cannot be filled",
                img.format
            ))
        })?;
        for c in v {
            let bits = match class {
                Class::Float => (c as f32).to_bits(),
                Class::Uint => c as u32,
                Class::Sint => c as i32 as u32,
            };
            out.extend(bits.to_le_bytes());
        }
    }
    Ok(out)
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
