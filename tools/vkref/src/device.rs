//! One Vulkan instance and device, created once and reused, with every optional feature the
//! device offers turned on; the shader-facing features are checked per module against the
//! capabilities it declares, so a shader that needs something missing gets a clear
//! [`Error::MissingFeature`] instead of a driver crash.
//!
//! Design: [`Gpu::new`] picks a physical device with a [`Pick`] rule (the CPU device for
//! lavapipe, the first device for RADV's null device, whose process environment already
//! selected it), queries the Vulkan 1.0–1.3 feature structs and the subgroup properties,
//! and creates the device with the queried structs passed back unchanged (= all supported
//! features enabled). Extensions requested by the caller must be present or creation fails;
//! VK_EXT_vertex_attribute_divisor (the draw's instance divisors) is enabled with its
//! features whenever the device offers it, and VK_EXT_robustness2 with
//! robustImageAccess2 alone (out-of-bounds image reads fixed by the spec).
//! Invariant: `Gpu` owns its handles and destroys them in `Drop`, device before instance.

use crate::reflect;
use ash::vk;
use rspirv::spirv::Capability;
use std::ffi::{CStr, CString};
use std::fmt;

/// Errors of the Vulkan layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// libvulkan.so.1 could not be loaded.
    Loader(String),
    /// No physical device matched.
    NoDevice(String),
    /// A Vulkan call failed.
    Vk { call: &'static str, result: i32 },
    /// The shader declares a capability the device does not support.
    MissingFeature {
        capability: String,
        feature: &'static str,
    },
    /// Bad SPIR-V.
    Reflect(reflect::Error),
    /// Bad arguments from the caller (bindings that do not match the shader, ...).
    Usage(String),
    /// A RADV worker process died (RADV's GFX9 LLVM backend crashes on some shaders).
    Crashed {
        config: String,
        status: String,
        stderr: String,
    },
    /// A worker could not be started or spoke nonsense.
    Worker(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Loader(s) => write!(f, "cannot load the Vulkan loader: {s}"),
            Error::NoDevice(s) => write!(f, "no suitable Vulkan device: {s}"),
            Error::Vk { call, result } => write!(f, "{call} failed: {:?}", vk::Result::from_raw(*result)),
            Error::MissingFeature { capability, feature } => write!(
                f,
                "the shader declares capability {capability}, which needs the device feature {feature}; the device does not offer it"
            ),
            Error::Reflect(e) => write!(f, "{e}"),
            Error::Usage(s) => write!(f, "{s}"),
            Error::Crashed { config, status, stderr } => {
                write!(f, "RADV worker ({config}) died with {status}; its stderr ends with:\n{stderr}")
            }
            Error::Worker(s) => write!(f, "RADV worker: {s}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<reflect::Error> for Error {
    fn from(e: reflect::Error) -> Self {
        Error::Reflect(e)
    }
}

/// Wraps a `vk::Result` error with the name of the call.
pub(crate) fn vkc<T>(call: &'static str, r: Result<T, vk::Result>) -> Result<T, Error> {
    r.map_err(|e| Error::Vk {
        call,
        result: e.as_raw(),
    })
}

/// How to choose the physical device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// A CPU device (lavapipe).
    Cpu,
    /// The first device enumerated.
    First,
}

/// Feature structs as queried (with `p_next` cleared so they can be stored).
#[derive(Clone, Copy, Default)]
pub struct Features {
    pub core: vk::PhysicalDeviceFeatures,
    pub v11: vk::PhysicalDeviceVulkan11Features<'static>,
    pub v12: vk::PhysicalDeviceVulkan12Features<'static>,
    pub v13: vk::PhysicalDeviceVulkan13Features<'static>,
    /// VK_EXT_vertex_attribute_divisor is enabled with vertexAttributeInstanceRateDivisor
    /// and vertexAttributeInstanceRateZeroDivisor as these say.
    pub divisor: bool,
    pub zero_divisor: bool,
    /// VK_EXT_shader_image_atomic_int64 is enabled with shaderImageInt64Atomics as this says
    /// (64-bit integer images: Int64ImageEXT).
    pub image_int64: bool,
    /// VK_EXT_robustness2 is enabled with robustImageAccess2 alone as this says: a read
    /// outside an image returns zero for the format's components and (0, 0, 1) for the
    /// ones it lacks, which is what AMD hardware returns (docs/images.md).
    pub robust_image2: bool,
}

/// What a device offers that shaders care about, besides features.
#[derive(Debug, Clone)]
pub struct Info {
    pub device_name: String,
    pub driver_name: String,
    pub driver_info: String,
    pub api_version: u32,
    pub subgroup_size: u32,
    pub subgroup_ops: vk::SubgroupFeatureFlags,
    pub subgroup_stages: vk::ShaderStageFlags,
    pub max_push_constants: u32,
}

/// An instance, a device and its compute queue.
pub struct Gpu {
    pub entry: ash::Entry,
    pub instance: ash::Instance,
    pub phys: vk::PhysicalDevice,
    pub device: ash::Device,
    pub queue: vk::Queue,
    pub queue_family: u32,
    pub memory: vk::PhysicalDeviceMemoryProperties,
    pub features: Features,
    pub info: Info,
}

fn cstr(chars: &[std::ffi::c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|c| **c != 0)
        .map(|c| *c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Gpu {
    /// Creates the instance and device. `extensions` are device extensions to enable.
    pub fn new(pick: Pick, extensions: &[&CStr]) -> Result<Gpu, Error> {
        // SAFETY: loading the system Vulkan loader; its symbols are resolved by ash.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| Error::Loader(e.to_string()))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        let name = CString::new("gcnc-vkref").expect("no NUL");
        let app = app.application_name(&name);
        let ici = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: valid create info; the instance is destroyed in Drop (or below on error).
        let instance = vkc("vkCreateInstance", unsafe {
            entry.create_instance(&ici, None)
        })?;
        match Self::with_instance(entry.clone(), instance.clone(), pick, extensions) {
            Ok(g) => Ok(g),
            Err(e) => {
                // SAFETY: nothing created from the instance survives the failed call.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    fn with_instance(
        entry: ash::Entry,
        instance: ash::Instance,
        pick: Pick,
        extensions: &[&CStr],
    ) -> Result<Gpu, Error> {
        // SAFETY: instance is valid for all calls below.
        unsafe {
            let phys_all = vkc(
                "vkEnumeratePhysicalDevices",
                instance.enumerate_physical_devices(),
            )?;
            let mut seen = Vec::new();
            let mut chosen = None;
            for pd in phys_all {
                let p = instance.get_physical_device_properties(pd);
                seen.push(format!("{} ({:?})", cstr(&p.device_name), p.device_type));
                let ok = match pick {
                    Pick::Cpu => p.device_type == vk::PhysicalDeviceType::CPU,
                    Pick::First => true,
                };
                if ok && chosen.is_none() {
                    chosen = Some(pd);
                }
            }
            let phys = chosen
                .ok_or_else(|| Error::NoDevice(format!("wanted {pick:?}, found {seen:?}")))?;

            let mut driver = vk::PhysicalDeviceDriverProperties::default();
            let mut sub = vk::PhysicalDeviceSubgroupProperties::default();
            let mut props2 = vk::PhysicalDeviceProperties2::default()
                .push_next(&mut driver)
                .push_next(&mut sub);
            instance.get_physical_device_properties2(phys, &mut props2);
            let p = props2.properties;
            let info = Info {
                device_name: cstr(&p.device_name),
                driver_name: cstr(&driver.driver_name),
                driver_info: cstr(&driver.driver_info),
                api_version: p.api_version,
                subgroup_size: sub.subgroup_size,
                subgroup_ops: sub.supported_operations,
                subgroup_stages: sub.supported_stages,
                max_push_constants: p.limits.max_push_constants_size,
            };

            let mut f = Features::default();
            {
                let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
                let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
                let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
                let mut f2 = vk::PhysicalDeviceFeatures2::default()
                    .push_next(&mut v11)
                    .push_next(&mut v12)
                    .push_next(&mut v13);
                instance.get_physical_device_features2(phys, &mut f2);
                f.core = f2.features;
                v11.p_next = std::ptr::null_mut();
                v12.p_next = std::ptr::null_mut();
                v13.p_next = std::ptr::null_mut();
                f.v11 = std::mem::transmute::<
                    vk::PhysicalDeviceVulkan11Features<'_>,
                    vk::PhysicalDeviceVulkan11Features<'static>,
                >(v11);
                f.v12 = std::mem::transmute::<
                    vk::PhysicalDeviceVulkan12Features<'_>,
                    vk::PhysicalDeviceVulkan12Features<'static>,
                >(v12);
                f.v13 = std::mem::transmute::<
                    vk::PhysicalDeviceVulkan13Features<'_>,
                    vk::PhysicalDeviceVulkan13Features<'static>,
                >(v13);
            }

            let families = instance.get_physical_device_queue_family_properties(phys);
            let queue_family = families
                .iter()
                .position(|q| q.queue_flags.contains(vk::QueueFlags::COMPUTE))
                .ok_or_else(|| Error::NoDevice("no compute queue".into()))?
                as u32;

            let avail = vkc(
                "vkEnumerateDeviceExtensionProperties",
                instance.enumerate_device_extension_properties(phys),
            )?;
            for want in extensions {
                if !avail
                    .iter()
                    .any(|e| cstr(&e.extension_name).as_bytes() == want.to_bytes())
                {
                    return Err(Error::NoDevice(format!(
                        "device extension {want:?} missing on {}",
                        info.device_name
                    )));
                }
            }
            let mut ext_ptrs: Vec<*const std::ffi::c_char> =
                extensions.iter().map(|e| e.as_ptr()).collect();
            let divisor_ext = ash::ext::vertex_attribute_divisor::NAME;
            let mut divisor = vk::PhysicalDeviceVertexAttributeDivisorFeaturesEXT::default();
            if avail
                .iter()
                .any(|e| cstr(&e.extension_name).as_bytes() == divisor_ext.to_bytes())
            {
                let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut divisor);
                instance.get_physical_device_features2(phys, &mut f2);
                divisor.p_next = std::ptr::null_mut();
                f.divisor = divisor.vertex_attribute_instance_rate_divisor != 0;
                f.zero_divisor = divisor.vertex_attribute_instance_rate_zero_divisor != 0;
                if !extensions.contains(&divisor_ext) {
                    ext_ptrs.push(divisor_ext.as_ptr());
                }
            }

            let int64_ext = ash::ext::shader_image_atomic_int64::NAME;
            let mut int64 = vk::PhysicalDeviceShaderImageAtomicInt64FeaturesEXT::default();
            if avail
                .iter()
                .any(|e| cstr(&e.extension_name).as_bytes() == int64_ext.to_bytes())
            {
                let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut int64);
                instance.get_physical_device_features2(phys, &mut f2);
                int64.p_next = std::ptr::null_mut();
                // sparse residency is not something these runners create
                int64.sparse_image_int64_atomics = vk::FALSE;
                f.image_int64 = int64.shader_image_int64_atomics != 0;
                if f.image_int64 && !extensions.contains(&int64_ext) {
                    ext_ptrs.push(int64_ext.as_ptr());
                }
            }

            // robustImageAccess2 only: robustBufferAccess2 would change buffer results
            let robust2_ext = ash::ext::robustness2::NAME;
            let mut robust2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
            if avail
                .iter()
                .any(|e| cstr(&e.extension_name).as_bytes() == robust2_ext.to_bytes())
            {
                let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut robust2);
                instance.get_physical_device_features2(phys, &mut f2);
                robust2.p_next = std::ptr::null_mut();
                robust2.robust_buffer_access2 = vk::FALSE;
                robust2.null_descriptor = vk::FALSE;
                f.robust_image2 = robust2.robust_image_access2 != 0;
                if f.robust_image2 && !extensions.contains(&robust2_ext) {
                    ext_ptrs.push(robust2_ext.as_ptr());
                }
            }

            let prio = [1.0f32];
            let qci = [vk::DeviceQueueCreateInfo::default()
                .queue_family_index(queue_family)
                .queue_priorities(&prio)];
            let mut v11 = f.v11;
            let mut v12 = f.v12;
            let mut v13 = f.v13;
            let mut pexec = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
                .pipeline_executable_info(true);
            let mut f2 = vk::PhysicalDeviceFeatures2::default()
                .features(f.core)
                .push_next(&mut v11)
                .push_next(&mut v12)
                .push_next(&mut v13);
            if extensions.contains(&ash::khr::pipeline_executable_properties::NAME) {
                f2 = f2.push_next(&mut pexec);
            }
            if ext_ptrs.contains(&divisor_ext.as_ptr()) {
                f2 = f2.push_next(&mut divisor);
            }
            if ext_ptrs.contains(&int64_ext.as_ptr()) {
                f2 = f2.push_next(&mut int64);
            }
            if ext_ptrs.contains(&robust2_ext.as_ptr()) {
                f2 = f2.push_next(&mut robust2);
            }
            let dci = vk::DeviceCreateInfo::default()
                .queue_create_infos(&qci)
                .enabled_extension_names(&ext_ptrs)
                .push_next(&mut f2);
            let device = vkc("vkCreateDevice", instance.create_device(phys, &dci, None))?;
            let queue = device.get_device_queue(queue_family, 0);
            let memory = instance.get_physical_device_memory_properties(phys);
            Ok(Gpu {
                entry,
                instance,
                phys,
                device,
                queue,
                queue_family,
                memory,
                features: f,
                info,
            })
        }
    }

    /// Index of a memory type allowed by `bits` with all of `flags`.
    pub fn memory_type(&self, bits: u32, flags: vk::MemoryPropertyFlags) -> Option<u32> {
        (0..self.memory.memory_type_count).find(|&i| {
            bits & (1 << i) != 0
                && self.memory.memory_types[i as usize]
                    .property_flags
                    .contains(flags)
        })
    }

    /// Checks that the device offers what the module's capabilities need.
    pub fn check_module(&self, m: &reflect::Module) -> Result<(), Error> {
        for &cap in &m.capabilities {
            if let Some((feature, ok)) = feature_for(cap, &self.features, &self.info) {
                if !ok {
                    return Err(Error::MissingFeature {
                        capability: format!("{cap:?}"),
                        feature,
                    });
                }
            }
        }
        Ok(())
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: handles are owned by this struct; the device is idle when dropped.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// What [`feature_for`] names for `Float16ImageAMD`, which no Vulkan device offers.
pub const F16_IMAGES: &str =
    "f16 sampled types (Float16ImageAMD, which no Vulkan extension enables)";

/// The device feature a capability needs and whether `f` offers it; `None` for capabilities
/// that need nothing optional here.
pub fn feature_for(cap: Capability, f: &Features, info: &Info) -> Option<(&'static str, bool)> {
    use vk::SubgroupFeatureFlags as S;
    let sub = |flag: S, name: &'static str| {
        Some((
            name,
            info.subgroup_ops.contains(flag)
                && info.subgroup_stages.contains(vk::ShaderStageFlags::COMPUTE),
        ))
    };
    let b = |v: vk::Bool32| v == vk::TRUE;
    match cap {
        Capability::Int64 => Some(("shaderInt64", b(f.core.shader_int64))),
        Capability::Int16 => Some(("shaderInt16", b(f.core.shader_int16))),
        Capability::Float64 => Some(("shaderFloat64", b(f.core.shader_float64))),
        Capability::Float16 => Some(("shaderFloat16", b(f.v12.shader_float16))),
        Capability::Int8 => Some(("shaderInt8", b(f.v12.shader_int8))),
        Capability::StorageBuffer16BitAccess => Some((
            "storageBuffer16BitAccess",
            b(f.v11.storage_buffer16_bit_access),
        )),
        Capability::UniformAndStorageBuffer16BitAccess => Some((
            "uniformAndStorageBuffer16BitAccess",
            b(f.v11.uniform_and_storage_buffer16_bit_access),
        )),
        Capability::StoragePushConstant16 => {
            Some(("storagePushConstant16", b(f.v11.storage_push_constant16)))
        }
        Capability::StorageBuffer8BitAccess => Some((
            "storageBuffer8BitAccess",
            b(f.v12.storage_buffer8_bit_access),
        )),
        Capability::UniformAndStorageBuffer8BitAccess => Some((
            "uniformAndStorageBuffer8BitAccess",
            b(f.v12.uniform_and_storage_buffer8_bit_access),
        )),
        Capability::StoragePushConstant8 => {
            Some(("storagePushConstant8", b(f.v12.storage_push_constant8)))
        }
        Capability::PhysicalStorageBufferAddresses => {
            Some(("bufferDeviceAddress", b(f.v12.buffer_device_address)))
        }
        Capability::VulkanMemoryModel => Some(("vulkanMemoryModel", b(f.v12.vulkan_memory_model))),
        Capability::VulkanMemoryModelDeviceScope => Some((
            "vulkanMemoryModelDeviceScope",
            b(f.v12.vulkan_memory_model_device_scope),
        )),
        Capability::Int64ImageEXT => Some(("shaderImageInt64Atomics", f.image_int64)),
        // gl_Layer / gl_ViewportIndex written before rasterization (Vulkan 1.2 features)
        Capability::ShaderLayer => Some(("shaderOutputLayer", b(f.v12.shader_output_layer))),
        Capability::ShaderViewportIndex => Some((
            "shaderOutputViewportIndex",
            b(f.v12.shader_output_viewport_index),
        )),
        Capability::ShaderViewportIndexLayerEXT => Some((
            "shaderOutputLayer and shaderOutputViewportIndex",
            b(f.v12.shader_output_layer) && b(f.v12.shader_output_viewport_index),
        )),
        Capability::MultiViewport => Some(("multiViewport", b(f.core.multi_viewport))),
        // f16 sampled types (SPV_AMD_gpu_shader_half_float_fetch, GLSL's
        // GL_AMD_gpu_shader_half_float_fetch): no Vulkan extension or feature enables them
        Capability::Float16ImageAMD => Some((F16_IMAGES, false)),
        Capability::SparseResidency => Some((
            "shaderResourceResidency",
            b(f.core.shader_resource_residency),
        )),
        Capability::Int64Atomics => Some((
            "shaderBufferInt64Atomics",
            b(f.v12.shader_buffer_int64_atomics),
        )),
        Capability::RuntimeDescriptorArray => {
            Some(("runtimeDescriptorArray", b(f.v12.runtime_descriptor_array)))
        }
        Capability::UniformBufferArrayNonUniformIndexing => Some((
            "shaderUniformBufferArrayNonUniformIndexing",
            b(f.v12.shader_uniform_buffer_array_non_uniform_indexing),
        )),
        Capability::StorageBufferArrayNonUniformIndexing => Some((
            "shaderStorageBufferArrayNonUniformIndexing",
            b(f.v12.shader_storage_buffer_array_non_uniform_indexing),
        )),
        Capability::SampledImageArrayNonUniformIndexing => Some((
            "shaderSampledImageArrayNonUniformIndexing",
            b(f.v12.shader_sampled_image_array_non_uniform_indexing),
        )),
        Capability::StorageImageArrayNonUniformIndexing => Some((
            "shaderStorageImageArrayNonUniformIndexing",
            b(f.v12.shader_storage_image_array_non_uniform_indexing),
        )),
        Capability::StorageImageWriteWithoutFormat => Some((
            "shaderStorageImageWriteWithoutFormat",
            b(f.core.shader_storage_image_write_without_format),
        )),
        Capability::StorageImageReadWithoutFormat => Some((
            "shaderStorageImageReadWithoutFormat",
            b(f.core.shader_storage_image_read_without_format),
        )),
        Capability::DemoteToHelperInvocation => Some((
            "shaderDemoteToHelperInvocation",
            b(f.v13.shader_demote_to_helper_invocation),
        )),
        Capability::GroupNonUniform => sub(S::BASIC, "subgroup basic operations"),
        Capability::GroupNonUniformVote => sub(S::VOTE, "subgroup vote operations"),
        Capability::GroupNonUniformArithmetic => {
            sub(S::ARITHMETIC, "subgroup arithmetic operations")
        }
        Capability::GroupNonUniformBallot => sub(S::BALLOT, "subgroup ballot operations"),
        Capability::GroupNonUniformShuffle => sub(S::SHUFFLE, "subgroup shuffle operations"),
        Capability::GroupNonUniformShuffleRelative => {
            sub(S::SHUFFLE_RELATIVE, "subgroup relative shuffle operations")
        }
        Capability::GroupNonUniformClustered => sub(S::CLUSTERED, "subgroup clustered operations"),
        Capability::GroupNonUniformQuad => sub(S::QUAD, "subgroup quad operations"),
        _ => None,
    }
}
