//! How the trajectory fuzz targets read their input, and what they require of a result.
//!
//! `trajectory_text`: byte 0 picks the format (PeTrack, Vadere, Pathfinder, ETH/UCY, generic
//! CSV with fixed columns, or detection from the content), byte 1 picks whether a frame rate and
//! a unit are given (and which, and the name the input is read under), the rest is the file.
//! The options matter as much as the bytes: most readers refuse a file that states no rate or
//! unit, so without them the fuzzer would rarely get past the header.
//!
//! `trajectory_geometry`: byte 0 picks WKT or a Vadere scenario (JSON), the rest is the text.
//!
//! Shared by the fuzz targets (`fuzz/fuzz_targets/trajectory_*.rs`) and the corpus replay in
//! `cargo test` (`tests/trajectory_fuzz_corpus.rs`), so a corpus file means the same input and
//! meets the same checks in both.

use throng::motion::trajectory::{
    Columns, Format, Geometry, ReadOptions, Trajectories, TrajectoryError, Units,
};

/// Byte 0 of a `trajectory_text` input, modulo this, picks an entry of [`FORMATS`].
const FORMATS: [Option<Format>; 6] = [
    Some(Format::PeTrack),
    Some(Format::Vadere),
    Some(Format::Pathfinder),
    Some(Format::EthUcy),
    Some(Format::Csv),
    None,
];

/// The columns given with [`Format::Csv`]: a frame column (so the rate option matters) and a
/// height. Detection (selector 5) gives none, so that path reads a header's names instead.
const CSV_COLUMNS: &str = "id=0,frame=1,x=2,y=3,height=4";

/// Frame rates byte 1 may give: common ones, the ETH/UCY numbering rate and a fractional one.
const FPS: [f64; 4] = [25.0, 16.0, 2.5, 0.4];

/// Units byte 1 may give (the fourth choice repeats metres).
const UNITS: [Units; 4] = [
    Units::Metres,
    Units::Centimetres,
    Units::Millimetres,
    Units::Metres,
];

/// Names byte 1 may give: the extension breaks ties when the format is detected.
const NAMES: [&str; 4] = ["fuzz.txt", "fuzz.traj", "fuzz.csv", "fuzz"];

/// A `trajectory_text` input taken apart: the name to read under, the options, the file.
pub struct TextInput<'a> {
    pub name: &'static str,
    pub options: ReadOptions,
    pub bytes: &'a [u8],
}

/// Splits `data` into selectors and file; `None` for inputs shorter than the two selectors.
///
/// Byte 1: bit 0 gives a frame rate, bit 1 a unit; bits 2-3 pick the rate, 4-5 the unit,
/// 6-7 the name.
pub fn text_input(data: &[u8]) -> Option<TextInput<'_>> {
    let (&format, rest) = data.split_first()?;
    let (&given, bytes) = rest.split_first()?;
    let format = FORMATS[usize::from(format) % FORMATS.len()];
    let pick = |shift: u32| usize::from(given >> shift) & 3;
    let columns = (format == Some(Format::Csv))
        .then(|| CSV_COLUMNS.parse::<Columns>().expect("a valid column spec"));
    let options = ReadOptions {
        format,
        data_fps: (given & 1 != 0).then_some(FPS[pick(2)]),
        units: (given & 2 != 0).then_some(UNITS[pick(4)]),
        columns,
        ..ReadOptions::default()
    };
    Some(TextInput {
        name: NAMES[pick(6)],
        options,
        bytes,
    })
}

/// Reads a `trajectory_text` input as the target does and checks the outcome; returns whether
/// it loaded (`false` also for inputs too short to hold the selectors).
pub fn replay_text(data: &[u8]) -> bool {
    let Some(input) = text_input(data) else {
        return false;
    };
    match throng::motion::trajectory::read_bytes(input.name, input.bytes, &input.options) {
        Ok(trajectories) => {
            check_trajectories(&trajectories, &input.options);
            true
        }
        Err(e) => {
            check_error(&e);
            false
        }
    }
}

/// Parses a `trajectory_geometry` input as the target does and checks the outcome; returns
/// whether it parsed. Bytes that are not UTF-8 are replaced rather than refused, so that every
/// input reaches a parser (the readers themselves take `&str`).
pub fn replay_geometry(data: &[u8]) -> bool {
    let Some((&which, bytes)) = data.split_first() else {
        return false;
    };
    let text = String::from_utf8_lossy(bytes);
    let (what, parsed) = if which % 2 == 0 {
        ("WKT", throng::motion::trajectory::parse_wkt(&text))
    } else {
        (
            "scenario",
            throng::motion::trajectory::parse_scenario(&text),
        )
    };
    match parsed {
        Ok(geometry) => {
            check_geometry(&geometry);
            true
        }
        Err(e) => {
            // These messages go into a `TrajectoryError` or straight to a caller: one line.
            assert!(!e.contains(['\n', '\r']), "{what}: two-line error: {e:?}");
            false
        }
    }
}

/// A reader's error is one line with no control character at all (its documented promise).
pub fn check_error(e: &TrajectoryError) {
    let line = e.to_string();
    assert!(
        !line.chars().any(char::is_control),
        "error with a control character: {line:?}"
    );
}

/// What every read file must be: the format asked for, a usable rate, tracks sorted by id with
/// samples strictly increasing in time and every number finite, and summaries that agree with
/// the samples. Walks every track and sample, as playback would.
pub fn check_trajectories(t: &Trajectories, options: &ReadOptions) {
    match options.format {
        Some(format) => assert_eq!(t.format, format, "the format asked for"),
        None => assert_ne!(t.format, Format::JuPedSim, "read_bytes reads no SQLite"),
    }
    if let Some(fps) = t.frame_rate {
        assert!(fps.is_finite() && fps > 0.0, "frame rate {fps}");
    }
    assert!(!t.tracks.is_empty(), "a file read has pedestrians");
    let (mut first, mut last) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut count = 0;
    let mut previous_id = None;
    for track in &t.tracks {
        assert!(track.id <= 1 << 53, "id {} over 2^53", track.id);
        assert!(
            previous_id.is_none_or(|p| p < track.id),
            "tracks sorted by id, each id once: {previous_id:?} then {}",
            track.id
        );
        previous_id = Some(track.id);
        assert!(
            !track.samples.is_empty(),
            "pedestrian {} has no samples",
            track.id
        );
        let mut previous_time = f64::NEG_INFINITY;
        for s in &track.samples {
            assert!(
                s.time.is_finite(),
                "pedestrian {}: time {}",
                track.id,
                s.time
            );
            assert!(
                s.time > previous_time,
                "pedestrian {}: time {} after {previous_time}",
                track.id,
                s.time
            );
            previous_time = s.time;
            assert!(
                s.position.iter().all(|v| v.is_finite()),
                "pedestrian {}: position {:?}",
                track.id,
                s.position
            );
            if let Some(h) = s.height {
                assert!(h.is_finite(), "pedestrian {}: height {h}", track.id);
            }
            first = first.min(s.time);
            last = last.max(s.time);
            count += 1;
        }
    }
    assert_eq!(t.start(), first, "start() is the earliest sample");
    assert_eq!(t.end(), last, "end() is the latest sample");
    assert_eq!(
        t.sample_count(),
        count,
        "sample_count() counts every sample"
    );
    if let Some(geometry) = &t.geometry {
        check_geometry(geometry);
    }
    let (lo, hi) = t.bounds();
    assert!(
        lo.iter().chain(&hi).all(|v| v.is_finite()) && lo[0] <= hi[0] && lo[1] <= hi[1],
        "bounds {lo:?} {hi:?}"
    );
    let inside = |p: [f64; 2]| (0..2).all(|i| lo[i] <= p[i] && p[i] <= hi[i]);
    for track in &t.tracks {
        for s in &track.samples {
            assert!(inside(s.position), "{:?} outside the bounds", s.position);
        }
    }
    check_store(t);
}

/// The store a playback streams the same tracks from: a summary per track that agrees with
/// it, every sample in the chunk of its time, each pedestrian's samples in a chunk strictly
/// increasing, and nothing else in a chunk but the neighbours across a gap.
fn check_store(t: &Trajectories) {
    use throng::motion::trajectory::{TrackStore, chunk_of};
    let store = TrackStore::from_trajectories(t);
    let summaries = store.summaries();
    assert_eq!(summaries.len(), t.tracks.len(), "a summary per track");
    assert_eq!(store.sample_count(), t.sample_count() as u64);
    assert_eq!((store.start(), store.end()), (t.start(), t.end()));
    for (track, s) in t.tracks.iter().zip(summaries) {
        assert_eq!(s.id, track.id, "summaries in the tracks' order");
        assert_eq!(s.samples, track.samples.len() as u64, "pedestrian {}", s.id);
        let first = track.samples.first().map(|s| s.time);
        let last = track.samples.last().map(|s| s.time);
        assert_eq!(
            (Some(s.start), Some(s.end)),
            (first, last),
            "pedestrian {}",
            s.id
        );
    }
    let mut own = vec![0u64; summaries.len()];
    let mut copies = vec![0u64; summaries.len()];
    let mut records = Vec::new();
    for key in store.keys(..) {
        store
            .load(key, &mut records)
            .expect("an in-memory chunk loads");
        let mut last = vec![f64::NEG_INFINITY; summaries.len()];
        for r in &records {
            let p = r.ped as usize;
            assert!(p < summaries.len(), "record of pedestrian {p}");
            assert!(
                r.time > last[p],
                "chunk {key}: pedestrian {p} goes back in time"
            );
            last[p] = r.time;
            if chunk_of(r.time) == key {
                own[p] += 1;
            } else {
                // A copy: a neighbour, across a gap, of a sample in this chunk.
                copies[p] += 1;
            }
        }
    }
    for (p, s) in summaries.iter().enumerate() {
        assert_eq!(
            own[p], s.samples,
            "pedestrian {}: every sample in its chunk once",
            s.id
        );
        // Each gap between two samples adds one copy on either side.
        assert!(
            copies[p] <= 2 * (s.samples - 1),
            "pedestrian {}: {} copies",
            s.id,
            copies[p]
        );
    }
}

/// Walkable areas: at least one, every ring a polygon (3 points or more) of finite points.
pub fn check_geometry(g: &Geometry) {
    assert!(!g.areas.is_empty(), "a geometry parsed has an area");
    for area in &g.areas {
        for ring in std::iter::once(&area.outline).chain(&area.holes) {
            assert!(ring.0.len() >= 3, "a ring of {} points", ring.0.len());
            for p in &ring.0 {
                assert!(p.iter().all(|v| v.is_finite()), "point {p:?}");
            }
        }
    }
    let points = g.points().count();
    assert!(points >= 3, "{points} points");
}
