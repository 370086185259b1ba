//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/`) through the same harness
//! the cargo-fuzz targets run, so every normal test run (stable, no libFuzzer) checks
//! that no input the fuzzer kept panics or prints a message over several lines.

#[path = "../../fuzz/harness.rs"]
mod harness;

#[test]
fn fuzz_corpus_replays_without_panics() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    let mut total = 0;
    for target in harness::TARGETS {
        let dir = root.join(target);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let mut count = 0;
        for entry in entries {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| harness::run(target, &data));
            assert!(outcome.is_ok(), "{target}: {} panics", path.display());
            count += 1;
        }
        assert!(count > 0, "{target}: empty corpus");
        total += count;
    }
    assert!(total >= harness::TARGETS.len());
}
