//! Replays the trajectory fuzz corpora (`fuzz/corpus/trajectory_text`,
//! `fuzz/corpus/trajectory_geometry`) on stable Rust, so CI runs every input the fuzzer kept
//! without cargo-fuzz or nightly. The selectors and the checks are the targets' own
//! (`fuzz/structured/trajectory_input.rs`): tracks or a one-line error, never a panic; tracks
//! sorted, strictly increasing in time and finite; geometry of finite polygons.

#[path = "common/fuzz_corpus.rs"]
mod fuzz_corpus;
#[path = "../fuzz/structured/trajectory_input.rs"]
mod trajectory_input;

/// The hand-written seeds (the only files named `*.seed`) are valid files of their format.
fn is_seed(name: &str) -> bool {
    name.ends_with(".seed")
}

#[test]
fn the_text_corpus_replays_without_panics() {
    fuzz_corpus::replay_corpus(
        "trajectory_text",
        200 * 1024,
        |_, bytes| trajectory_input::replay_text(bytes),
        is_seed,
    );
}

#[test]
fn the_geometry_corpus_replays_without_panics() {
    fuzz_corpus::replay_corpus(
        "trajectory_geometry",
        200 * 1024,
        |_, bytes| trajectory_input::replay_geometry(bytes),
        is_seed,
    );
}

/// Each seed is the format its name says: a seed that fell back to another reader (or to
/// detection picking another format) would leave its format unfuzzed.
#[test]
fn text_seeds_cover_every_format() {
    use throng::motion::trajectory::{Format, read_bytes};
    let mut seen = Vec::new();
    for (name, bytes) in fuzz_corpus::corpus("trajectory_text") {
        if !is_seed(&name) {
            continue;
        }
        let input = trajectory_input::text_input(&bytes).expect("a seed holds its selectors");
        let read = read_bytes(input.name, input.bytes, &input.options)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let file = name.rsplit('/').next().unwrap_or(&name);
        let wanted = match file.split(['-', '.']).next() {
            Some("petrack") => Format::PeTrack,
            Some("vadere") => Format::Vadere,
            Some("pathfinder") => Format::Pathfinder,
            Some("eth") => Format::EthUcy,
            Some("csv") => Format::Csv,
            Some("auto") => {
                assert_eq!(input.options.format, None, "{name}: detected");
                match file.split(['-', '.']).nth(1) {
                    Some("petrack") => Format::PeTrack,
                    Some("vadere") => Format::Vadere,
                    Some("pathfinder") => Format::Pathfinder,
                    Some("eth") => Format::EthUcy,
                    _ => Format::Csv,
                }
            }
            _ => panic!("{name}: name a seed after its format"),
        };
        assert_eq!(read.format, wanted, "{name}");
        seen.push(wanted);
    }
    for format in Format::ALL.into_iter().filter(|f| *f != Format::JuPedSim) {
        assert!(seen.contains(&format), "no seed of {format}");
    }
}
