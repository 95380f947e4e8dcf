#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// The Vulkan memory model (VulkanMemoryModel capability): explicit control barriers with
// workgroup scope and acquire-release semantics on shared memory, and scoped atomic
// add/load/store on a shared counter.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint s[128];
shared uint count;
void main() {
    uint l = gl_LocalInvocationIndex;
    uint g = gl_GlobalInvocationID.x;
    if (l == 0u) {
        atomicStore(count, 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    }
    s[l] = d[g] * 3u;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    uint v = s[127u - l];
    atomicAdd(count, (v & 1u) + 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    o[g] = v + (atomicLoad(count, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed) << 20);
}
