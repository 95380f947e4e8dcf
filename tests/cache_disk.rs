//! The shader cache: keys are stable and sensitive to every input; entries survive a new
//! process (disk); corrupt, truncated or foreign entries are detected, counted and ignored;
//! concurrent writers — threads and processes — never tear an entry.

use gcnc::cache::{CacheKey, EntryKind, ShaderCache};
use gcnc::isa::{Gen, Target};
use gcnc::link::state::Item;
use gcnc::parts::{CsPrologKey, PartKey};
use std::path::PathBuf;
use std::process::Command;

fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cache_tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn key(n: u32) -> CacheKey {
    CacheKey::shader(&[0x0723_0203, n], "main", &[("descriptor_layout", b"{}")])
}

#[test]
fn keys_are_stable_and_depend_on_every_input() {
    let spv = [0x0723_0203u32, 0x10000, 7];
    let a = CacheKey::shader(&spv, "main", &[("a", b"1"), ("b", b"2")]);
    assert_eq!(
        a,
        CacheKey::shader(&spv, "main", &[("b", b"2"), ("a", b"1")]),
        "order-free"
    );
    assert_ne!(
        a,
        CacheKey::shader(&spv, "main2", &[("a", b"1"), ("b", b"2")])
    );
    assert_ne!(
        a,
        CacheKey::shader(&spv[..2], "main", &[("a", b"1"), ("b", b"2")])
    );
    assert_ne!(
        a,
        CacheKey::shader(&spv, "main", &[("a", b"1"), ("b", b"3")])
    );
    assert_ne!(a, CacheKey::shader(&spv, "main", &[("a", b"12")]));
    assert_ne!(
        a,
        CacheKey::shader(&spv, "main", &[("a", b"1"), ("b", b"2"), ("c", b"")])
    );
}

#[test]
fn entries_survive_a_new_cache_on_the_same_directory() {
    let d = dir("survive");
    let c = ShaderCache::with_dir(&d).unwrap();
    assert!(c.get(EntryKind::Unlinked, key(1)).is_none());
    c.put(EntryKind::Unlinked, key(1), b"unlinked elf".to_vec())
        .unwrap();
    assert_eq!(
        &**c.get(EntryKind::Unlinked, key(1)).unwrap(),
        b"unlinked elf"
    );
    let c2 = ShaderCache::with_dir(&d).unwrap();
    assert_eq!(
        &**c2.get(EntryKind::Unlinked, key(1)).unwrap(),
        b"unlinked elf"
    );
    assert!(
        c2.get(EntryKind::Part, key(1)).is_none(),
        "kinds are separate"
    );
    let s = c2.stats();
    assert_eq!((s.disk_hits, s.misses, s.corrupt), (1, 1, 0));
    // In memory only: nothing on disk.
    let m = ShaderCache::in_memory();
    m.put(EntryKind::Unlinked, key(2), vec![1]).unwrap();
    assert!(m.entry_path(EntryKind::Unlinked, key(2)).is_none());
    assert_eq!(m.stats().disk_writes, 0);
}

#[test]
fn corrupt_and_truncated_entries_are_ignored_and_counted() {
    let d = dir("corrupt");
    let payload: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
    let c = ShaderCache::with_dir(&d).unwrap();
    c.put(EntryKind::Unlinked, key(3), payload.clone()).unwrap();
    let path = c.entry_path(EntryKind::Unlinked, key(3)).unwrap();
    let good = std::fs::read(&path).unwrap();
    let mut damaged: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("header only, cut", good[..40].to_vec()),
        ("truncated payload", good[..good.len() - 1].to_vec()),
        ("extra byte", [good.clone(), vec![0]].concat()),
    ];
    for (what, at) in [
        ("payload byte", good.len() - 10),
        ("magic", 0),
        ("version", 9),
        ("kind", 12),
        ("key", 20),
        ("length", 33),
        ("payload checksum", 45),
        ("header checksum", 60),
    ] {
        let mut b = good.clone();
        b[at] ^= 0x40;
        damaged.push((what, b));
    }
    // Another key's valid entry under this key's name.
    c.put(EntryKind::Unlinked, key(4), payload.clone()).unwrap();
    let foreign = std::fs::read(c.entry_path(EntryKind::Unlinked, key(4)).unwrap()).unwrap();
    damaged.push(("foreign entry", foreign));
    for (i, (what, bytes)) in damaged.iter().enumerate() {
        std::fs::write(&path, bytes).unwrap();
        let fresh = ShaderCache::with_dir(&d).unwrap();
        assert!(fresh.get(EntryKind::Unlinked, key(3)).is_none(), "{what}");
        assert_eq!(fresh.stats().corrupt, 1, "{what} (case {i})");
        assert_eq!(fresh.stats().misses, 1, "{what}");
    }
    // A put repairs it.
    let fresh = ShaderCache::with_dir(&d).unwrap();
    let got = fresh
        .get_or_insert_with(EntryKind::Unlinked, key(3), || Ok::<_, ()>(payload.clone()))
        .unwrap();
    assert_eq!(*got, payload);
    assert_eq!(
        &**ShaderCache::with_dir(&d)
            .unwrap()
            .get(EntryKind::Unlinked, key(3))
            .unwrap(),
        &payload
    );
}

fn prolog_key(n: u32) -> PartKey {
    PartKey::CsProlog(CsPrologKey {
        target: Target::new(Gen::Gfx10),
        inputs: vec![Item::PushConstant(n + 1), Item::PushConstant(n)],
        table: vec![],
        outputs: vec![Item::PushConstant(n), Item::PushConstant(n + 1)],
        system_sgprs: 1,
        next: "gcnc.main.cs".into(),
    })
}

#[test]
fn parts_go_through_the_disk_cache() {
    let d = dir("parts");
    let k = prolog_key(0);
    let built = ShaderCache::with_dir(&d).unwrap().part(&k).unwrap();
    assert_eq!(built, k.build().unwrap());
    let again = ShaderCache::with_dir(&d).unwrap();
    assert_eq!(again.part(&k).unwrap(), built);
    assert_eq!(again.stats().disk_hits, 1);
    // A corrupted part file is rebuilt, not used.
    let path = again
        .entry_path(EntryKind::Part, CacheKey::part(&k))
        .unwrap();
    let mut b = std::fs::read(&path).unwrap();
    let n = b.len();
    b[n - 5] ^= 1;
    std::fs::write(&path, b).unwrap();
    let third = ShaderCache::with_dir(&d).unwrap();
    assert_eq!(third.part(&k).unwrap(), built);
    assert_eq!(third.stats().corrupt, 1);
    assert_ne!(CacheKey::part(&k), CacheKey::part(&prolog_key(1)));
}

fn payload(writer: u32, round: u32) -> Vec<u8> {
    // Large enough that a torn write would be visible; distinct per writer and round.
    let mut v = vec![(writer * 31 + round) as u8; 200_000];
    v[..8].copy_from_slice(&(writer as u64 * 1000 + round as u64).to_le_bytes());
    v
}

fn is_whole(v: &[u8]) -> bool {
    let id = u64::from_le_bytes(v[..8].try_into().unwrap());
    let (w, r) = ((id / 1000) as u32, (id % 1000) as u32);
    v == payload(w, r).as_slice()
}

#[test]
fn concurrent_thread_writers_never_tear() {
    let d = dir("threads");
    std::thread::scope(|s| {
        for w in 0..4u32 {
            let d = d.clone();
            s.spawn(move || {
                let c = ShaderCache::with_dir(&d).unwrap();
                for r in 0..20 {
                    c.put(EntryKind::Unlinked, key(99), payload(w, r)).unwrap();
                }
            });
        }
        for _ in 0..2 {
            let d = d.clone();
            s.spawn(move || {
                for _ in 0..60 {
                    let c = ShaderCache::with_dir(&d).unwrap();
                    if let Some(v) = c.get(EntryKind::Unlinked, key(99)) {
                        assert!(is_whole(&v), "torn read");
                    }
                    assert_eq!(c.stats().corrupt, 0);
                }
            });
        }
    });
    let c = ShaderCache::with_dir(&d).unwrap();
    assert!(is_whole(&c.get(EntryKind::Unlinked, key(99)).unwrap()));
    let leftovers: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(".tmp."))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Runs as a child process of `concurrent_process_writers_never_tear` (and does nothing
/// when run normally).
#[test]
fn child_writer() {
    let (Ok(d), Ok(w)) = (
        std::env::var("GCNC_CACHE_CHILD_DIR"),
        std::env::var("GCNC_CACHE_CHILD_ID"),
    ) else {
        return;
    };
    let w: u32 = w.parse().unwrap();
    let c = ShaderCache::with_dir(&d).unwrap();
    for r in 0..15 {
        c.put(EntryKind::Unlinked, key(77), payload(w, r)).unwrap();
    }
}

#[test]
fn concurrent_process_writers_never_tear() {
    let d = dir("processes");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..4)
        .map(|w| {
            Command::new(&exe)
                .args(["--exact", "child_writer", "--test-threads=1"])
                .env("GCNC_CACHE_CHILD_DIR", &d)
                .env("GCNC_CACHE_CHILD_ID", w.to_string())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut seen = 0;
    for _ in 0..40 {
        let c = ShaderCache::with_dir(&d).unwrap();
        if let Some(v) = c.get(EntryKind::Unlinked, key(77)) {
            assert!(is_whole(&v), "torn read across processes");
            seen += 1;
        }
        assert_eq!(c.stats().corrupt, 0);
    }
    for mut ch in children {
        assert!(ch.wait().unwrap().success());
    }
    let c = ShaderCache::with_dir(&d).unwrap();
    assert!(is_whole(&c.get(EntryKind::Unlinked, key(77)).unwrap()));
    eprintln!("reader saw a whole entry {seen} of 40 times while 4 processes wrote");
}
