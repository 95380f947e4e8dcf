//! `include/gcnc.h` is what cbindgen makes of `src/lib.rs` today: the committed header
//! never drifts from the library a C driver links. `GCNC_BLESS=1` rewrites it.

use std::path::Path;

#[test]
fn the_committed_header_is_what_cbindgen_generates_from_the_source() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("capi/cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut generated);
    let generated = String::from_utf8(generated).expect("the header is UTF-8");
    let path = crate_dir.join("include/gcnc.h");
    if std::env::var_os("GCNC_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/gcnc.h");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "capi/include/gcnc.h is stale: run `GCNC_BLESS=1 cargo test -p gcnc-capi --test header` and commit it"
    );
}
