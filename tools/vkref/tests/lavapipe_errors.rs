//! How the lavapipe runner rejects what it cannot run: a capability the device lacks, and
//! resources that do not match the shader's interface. Each is a typed error, before any
//! Vulkan object is made.

use vkref::corpus::{self, sb, ub};
use vkref::lavapipe::{run_compute, Resource};
use vkref::Error;

fn spirv(name: &str) -> &'static [u8] {
    corpus::cases()
        .into_iter()
        .find(|c| c.name == name)
        .expect("case")
        .spirv
}

#[test]
fn a_capability_the_device_lacks_is_a_missing_feature() {
    if vkref::oracle::lavapipe().is_none() {
        return;
    }
    let spv = include_bytes!("data/clustered.spv");
    match run_compute(spv, "main", [1, 1, 1], &[sb(0, vec![0; 256])], &[], &[]) {
        Err(Error::MissingFeature {
            capability,
            feature,
        }) => {
            assert_eq!(capability, "GroupNonUniformClustered");
            assert!(feature.contains("clustered"), "{feature}");
        }
        other => panic!("expected MissingFeature, got {other:?}"),
    }
}

#[test]
fn resources_must_match_the_interface() {
    if vkref::oracle::lavapipe().is_none() {
        return;
    }
    let spv = spirv("push_constants");
    let ok = [sb(0, vec![0; 256 * 16]), sb(1, vec![0; 256 * 4])];
    let push = vec![0u8; 36];
    assert!(run_compute(spv, "main", [4, 1, 1], &ok, &push, &[]).is_ok());
    let usage = |r: Result<Vec<Vec<u8>>, Error>, what: &str| match r {
        Err(Error::Usage(m)) => assert!(m.contains(what), "{m} (wanted {what:?})"),
        other => panic!("expected a usage error about {what:?}, got {other:?}"),
    };
    usage(
        run_compute(spv, "main", [4, 1, 1], &ok[..1], &push, &[]),
        "no resource for (set 0, binding 1)",
    );
    usage(
        run_compute(spv, "main", [4, 1, 1], &ok, &push[..8], &[]),
        "push constants are 36 bytes",
    );
    let wrong_kind = [sb(0, vec![0; 256 * 16]), ub(1, vec![0; 256 * 4])];
    usage(
        run_compute(spv, "main", [4, 1, 1], &wrong_kind, &push, &[]),
        "StorageBuffer in the shader",
    );
    let extra = [ok[0].clone(), ok[1].clone(), sb(3, vec![0; 4])];
    usage(
        run_compute(spv, "main", [4, 1, 1], &extra, &push, &[]),
        "not used by the shader",
    );
    let empty = [ok[0].clone(), sb(1, vec![])];
    usage(
        run_compute(spv, "main", [4, 1, 1], &empty, &push, &[]),
        "is empty",
    );
    let bad_addr = [
        ok[0].clone(),
        ok[1].clone(),
        Resource::Address {
            data: vec![0; 8],
            target: vkref::lavapipe::AddressTarget::Push(32),
        },
    ];
    usage(
        run_compute(spv, "main", [4, 1, 1], &bad_addr, &push, &[]),
        "past the end",
    );
    assert!(matches!(
        run_compute(spv, "other", [1, 1, 1], &ok, &push, &[]),
        Err(Error::Reflect(_))
    ));
    assert!(matches!(
        run_compute(&spv[..12], "main", [1, 1, 1], &ok, &push, &[]),
        Err(Error::Reflect(_))
    ));
}
