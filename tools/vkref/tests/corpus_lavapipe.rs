//! Every corpus case runs on lavapipe and must match its Rust expectation: this proves the
//! expectations and the harness together. Subgroup cases are also checked against the
//! expectation for a wrong subgroup size, which must NOT match (the expectations really
//! depend on the size they are given).

use vkref::corpus::{self, compare, Env};

#[test]
fn corpus_has_at_least_40_cases_with_unique_names() {
    let cases = corpus::cases();
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let mut names: Vec<_> = cases.iter().map(|c| c.name).collect();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "duplicate case names");
}

#[test]
fn every_case_matches_its_expectation_on_lavapipe() {
    let Some(info) = vkref::oracle::lavapipe() else {
        return;
    };
    println!(
        "device: {} ({}), subgroup size {}",
        info.device_name, info.driver_info, info.subgroup_size
    );
    let mut failures = Vec::new();
    let cases = corpus::cases();
    let mut lacking = 0;
    for case in &cases {
        let r = corpus::run_on_lavapipe(case);
        match (corpus::lavapipe_lacks(case.name), r) {
            (None, Ok(())) => {}
            (None, Err(e)) => failures.push(format!("{}: {e}", case.name)),
            (Some(f), Err(e)) if e.contains(&format!("needs the device feature {f};")) => {
                lacking += 1
            }
            (Some(f), r) => failures.push(format!(
                "{}: listed in LAVAPIPE_LACKS as lacking {f}, but lavapipe gave {r:?}",
                case.name
            )),
        }
    }
    println!(
        "{} of {} corpus cases match on lavapipe; {lacking} need a feature it lacks (LAVAPIPE_LACKS)",
        cases.len() - failures.len() - lacking,
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn subgroup_expectations_depend_on_the_subgroup_size() {
    let Some(info) = vkref::oracle::lavapipe() else {
        return;
    };
    let wrong = Env {
        subgroup_size: info.subgroup_size * 2,
    };
    for case in corpus::cases()
        .iter()
        .filter(|c| c.name.starts_with("subgroup_") && corpus::lavapipe_lacks(c.name).is_none())
    {
        let inputs = (case.inputs)();
        let out = vkref::lavapipe::run_compute(
            case.spirv,
            case.entry,
            inputs.groups,
            &inputs.resources,
            &inputs.push,
            &inputs.spec,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let mismatched = (case.expect)(&inputs, &wrong)
            .iter()
            .any(|e| compare(&out[e.resource], e).is_err());
        assert!(
            mismatched,
            "{}: lavapipe's output also matches the expectation for subgroup size {}",
            case.name, wrong.subgroup_size
        );
    }
}

#[test]
fn a_wrong_result_is_reported() {
    let Some(_) = vkref::oracle::lavapipe() else {
        return;
    };
    let case = corpus::cases()
        .into_iter()
        .find(|c| c.name == "arith_i32")
        .expect("case");
    let inputs = (case.inputs)();
    let out = vkref::lavapipe::run_compute(
        case.spirv,
        case.entry,
        inputs.groups,
        &inputs.resources,
        &inputs.push,
        &inputs.spec,
    )
    .expect("runs");
    let mut e = (case.expect)(&inputs, &Env { subgroup_size: 8 }).remove(0);
    assert!(compare(&out[e.resource], &e).is_ok());
    e.bytes[17] ^= 1;
    let err = compare(&out[e.resource], &e).unwrap_err();
    assert!(err.contains("[16]"), "{err}");
}
