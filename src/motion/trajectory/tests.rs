//! Tests across the readers: hand-made files of every format, the shared third-party files
//! against PedPy's numbers, and malformed input that must fail with one line and never panic.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rusqlite::Connection;

use super::*;

/// A file in the system's temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> Self {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("traj-test-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempFile(dir.join(name))
    }

    fn with_text(name: &str, text: &str) -> Self {
        let f = Self::new(name);
        std::fs::write(&f.0, text).unwrap();
        f
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

fn opts() -> ReadOptions {
    ReadOptions::default()
}

/// The flags a PeTrack file without a header needs: 16 fps, centimetres.
fn fps_16_cm() -> ReadOptions {
    ReadOptions {
        data_fps: Some(16.0),
        units: Some(Units::Centimetres),
        ..opts()
    }
}

/// A sample, to compare with in one line.
fn sample(time: f64, position: [f64; 2], height: Option<f32>) -> Sample {
    Sample {
        time,
        position,
        height,
    }
}

/// (format, frame rate, pedestrians, samples) of a file read.
type Summary = (Format, Option<f64>, usize, usize);

fn summary(t: &Trajectories) -> Summary {
    (t.format, t.frame_rate, t.tracks.len(), t.sample_count())
}

fn close(a: [f64; 2], b: [f64; 2]) -> bool {
    (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9
}

fn track(t: &Trajectories, id: u64) -> &Track {
    t.tracks.iter().find(|t| t.id == id).unwrap()
}

// ---------------------------------------------------------------- hand-made files, each format

#[test]
fn petrack_text() {
    let text = "# PeTrack project: x.pet\n# framerate: 25 fps\n# z: can be 3d position or height of person (alternating or not)\n# id frame x/cm y/cm z/cm\n\
                2 10 100 200 170\n1 10 -50 0 181.5\n2 11 110 200 170\n";
    let t = read_bytes("p.txt", text.as_bytes(), &opts()).unwrap();
    assert_eq!(summary(&t), (Format::PeTrack, Some(25.0), 2, 3));
    assert_eq!((t.start(), t.end()), (0.4, 0.44));
    assert_eq!(
        t.tracks[0].samples[0],
        sample(0.4, [-0.5, 0.0], Some(1.815))
    );
    assert_eq!(t.tracks[1].samples[1].position, [1.1, 2.0]);
    assert_eq!(t.bounds(), ([-0.5, 0.0], [1.1, 2.0]));
    // A headerless Jülich file needs both flags, and then reads z as the height.
    let bare = "1 16 100 0 180\n1 32 150 0 180\n";
    let e = read_bytes("b.txt", bare.as_bytes(), &opts()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "b.txt: the file states no frame rate and no unit: give --data-fps and --units"
    );
    let t = read_bytes("b.txt", bare.as_bytes(), &fps_16_cm()).unwrap();
    assert_eq!(t.tracks[0].samples[1], sample(2.0, [1.5, 0.0], Some(1.8)));
}

#[test]
fn eth_ucy_text() {
    let text = "780.0\t1.0\t8.46\t3.59\n790.0\t1.0\t9.57\t3.79\n800.0\t1.0\t10.67\t3.99\n800.0\t2.0\t13.64\t5.8\n";
    let t = read_bytes("biwi.txt", text.as_bytes(), &opts()).unwrap();
    assert_eq!(summary(&t), (Format::EthUcy, Some(25.0), 2, 4));
    assert_eq!((t.start(), t.end()), (31.2, 32.0));
    assert_eq!(t.tracks[1].samples[0].position, [13.64, 5.8]);
    let o = ReadOptions {
        data_fps: Some(10.0),
        ..opts()
    };
    assert_eq!(
        read_bytes("biwi.txt", text.as_bytes(), &o).unwrap().start(),
        78.0
    );
}

#[test]
fn vadere_with_scenario() {
    let scenario = TempFile::with_text(
        "s.scenario",
        r#"{"scenario":{"topography":{"attributes":{"bounds":{"x":0,"y":0,"width":10,"height":6},"boundingBoxWidth":0.5,"bounded":true},
           "obstacles":[{"id":3,"shape":{"type":"RECTANGLE","x":4,"y":2,"width":1,"height":2}}]}}}"#,
    );
    let traj = "#IDXCOL=2,DATACOL=6,SEP=' '\npedestrianId simTime endTime-PID1 startX-PID1 startY-PID1 endX-PID1 endY-PID1 targetId-PID2\n\
                1 0.4 1.0 1.0 1.0 1.5 1.0 8\n1 1.0 1.7 1.5 1.0 2.25 1.0 8\n";
    let o = ReadOptions {
        scenario: Some(scenario.0.clone()),
        ..opts()
    };
    let t = read_bytes("v.traj", traj.as_bytes(), &o).unwrap();
    assert_eq!(summary(&t), (Format::Vadere, None, 1, 3));
    let times: Vec<f64> = t.tracks[0].samples.iter().map(|s| s.time).collect();
    assert_eq!(times, [0.4, 1.0, 1.7]);
    let g = t.geometry.as_ref().unwrap();
    assert_eq!(
        g.areas[0].outline.0,
        [[0.5, 0.5], [9.5, 0.5], [9.5, 5.5], [0.5, 5.5]]
    );
    assert_eq!(
        g.areas[0].holes[0].0,
        [[4.0, 2.0], [5.0, 2.0], [5.0, 4.0], [4.0, 4.0]]
    );
    assert_eq!(t.bounds(), ([0.5, 0.5], [9.5, 5.5]));
    // Without a scenario option, read_bytes has no directory to look in.
    assert!(
        read_bytes("v.traj", traj.as_bytes(), &opts())
            .unwrap()
            .geometry
            .is_none()
    );
}

#[test]
fn pathfinder_csv() {
    let text = "\"t\",\"id\",\"name\",\"active\",\"x\",\"y\",\"z\",\"v\"\n\"s\",\"\",\"\",\"\",\"cm\",\"cm\",\"cm\",\"m/s\"\n\
                0.000000,0,\"00001\",0,100.0,50.0,2.0,0.0\n0.000000,1,\"00002\",0,0.0,0.0,2.0,0.0\n1.000000,0,\"00001\",1,150.0,50.0,2.0,0.5\n1.775000,0,\"00001\",0,190.0,50.0,2.0,0.4\n";
    let t = read_bytes("pf.csv", text.as_bytes(), &opts()).unwrap();
    assert_eq!(summary(&t), (Format::Pathfinder, None, 2, 4));
    assert_eq!(t.tracks[0].samples[2], sample(1.775, [1.9, 0.5], None));
}

#[test]
fn generic_csv() {
    let text = "id,time,x,y,height\n7,0.0,1000,2000,1750\n7,0.5,1100,2000,1750\n";
    let o = ReadOptions {
        units: Some(Units::Millimetres),
        ..opts()
    };
    let t = read_bytes("g.csv", text.as_bytes(), &o).unwrap();
    assert_eq!((t.format, t.frame_rate), (Format::Csv, None));
    assert_eq!(t.tracks[0].samples[1], sample(0.5, [1.1, 2.0], Some(1.75)));
    let text = "3;12;1,5\n";
    let o = ReadOptions {
        format: Some(Format::Csv),
        columns: Some(
            "id=0,frame=1,x=2,y=2"
                .parse()
                .unwrap_or_else(|_| "id=0,frame=1,x=2,y=3".parse().unwrap()),
        ),
        units: Some(Units::Metres),
        data_fps: Some(4.0),
        ..opts()
    };
    assert!(
        read_bytes("s.csv", text.as_bytes(), &o).is_err(),
        "3 fields cannot hold y=3"
    );
    let o = ReadOptions {
        columns: Some("id=0,frame=1,x=2,y=3".parse().unwrap()),
        ..o
    };
    let t = read_bytes("s.csv", b"3;12;1.5;2\n", &o).unwrap();
    assert_eq!(
        (t.frame_rate, t.start(), t.tracks[0].samples[0].position),
        (Some(4.0), 3.0, [1.5, 2.0])
    );
}

#[test]
fn geometry_override() {
    let wkt = TempFile::with_text(
        "g.wkt",
        "MULTIPOLYGON (((0 0, 20 0, 20 20, 0 20, 0 0), (5 5, 6 5, 6 6, 5 6, 5 5)))\n",
    );
    let o = ReadOptions {
        geometry: Some(wkt.0.clone()),
        data_fps: Some(1.0),
        units: Some(Units::Metres),
        ..opts()
    };
    let t = read_bytes("p.txt", b"1 0 1 1 1.8\n", &o).unwrap();
    let g = t.geometry.unwrap();
    assert_eq!((g.areas.len(), g.areas[0].holes.len()), (1, 1));
    assert_eq!(
        g.areas[0].holes[0].0,
        [[5.0, 5.0], [6.0, 5.0], [6.0, 6.0], [5.0, 6.0]]
    );
}

/// A JuPedSim database of schema `version` (1, 2 or 3), `rows` of (frame, id, x, y).
fn jupedsim_db(
    version: u32,
    fps: Option<&str>,
    rows: &[(i64, i64, f64, f64)],
    wkt: &str,
) -> TempFile {
    let f = TempFile::new("j.sqlite");
    let c = Connection::open(&f.0).unwrap();
    let orientation = if version < 3 {
        ", ori_x REAL NOT NULL, ori_y REAL NOT NULL"
    } else {
        ""
    };
    c.execute_batch(&format!(
        "CREATE TABLE trajectory_data (frame INTEGER NOT NULL, id INTEGER NOT NULL, pos_x REAL NOT NULL, pos_y REAL NOT NULL{orientation});
         CREATE TABLE metadata(key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL);
         CREATE INDEX frame_id_idx ON trajectory_data(frame, id);"
    ))
    .unwrap();
    c.execute(
        "INSERT INTO metadata VALUES ('version', ?1)",
        [version.to_string()],
    )
    .unwrap();
    if let Some(fps) = fps {
        c.execute("INSERT INTO metadata VALUES ('fps', ?1)", [fps])
            .unwrap();
    }
    let insert = if version < 3 {
        "INSERT INTO trajectory_data VALUES (?1, ?2, ?3, ?4, 0, 0)"
    } else {
        "INSERT INTO trajectory_data VALUES (?1, ?2, ?3, ?4)"
    };
    for &(frame, id, x, y) in rows {
        c.execute(insert, rusqlite::params![frame, id, x, y])
            .unwrap();
    }
    if version == 1 {
        c.execute_batch("CREATE TABLE geometry(wkt TEXT NOT NULL)")
            .unwrap();
        c.execute("INSERT INTO geometry VALUES (?1)", [wkt])
            .unwrap();
    } else {
        c.execute_batch("CREATE TABLE geometry(hash INTEGER NOT NULL, wkt TEXT NOT NULL); CREATE TABLE frame_data(frame INTEGER NOT NULL, geometry_hash INTEGER NOT NULL);").unwrap();
        c.execute("INSERT INTO geometry VALUES (42, ?1)", [wkt])
            .unwrap();
        c.execute(
            "INSERT INTO geometry VALUES (43, 'POLYGON ((0 0, 1 0, 1 1))')",
            [],
        )
        .unwrap();
        c.execute_batch(
            "INSERT INTO frame_data VALUES (0, 42); INSERT INTO frame_data VALUES (1, 43);",
        )
        .unwrap();
    }
    f
}

const ROOM: &str = "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (4 4, 6 4, 6 6, 4 6, 4 4))";

#[test]
fn jupedsim_versions() {
    let rows = [
        (1, 2, 1.0, 1.0),
        (0, 2, 0.5, 1.0),
        (0, 1, 3.0, 4.0),
        (2, 2, 1.5, 1.0),
    ];
    for version in [1, 2, 3] {
        let db = jupedsim_db(version, Some("8.0"), &rows, ROOM);
        let t = read(&db.0, &opts()).unwrap();
        assert_eq!(summary(&t), (Format::JuPedSim, Some(8.0), 2, 4));
        let times: Vec<f64> = track(&t, 2).samples.iter().map(|s| s.time).collect();
        assert_eq!(times, [0.0, 0.125, 0.25], "v{version}");
        assert_eq!(track(&t, 1).samples[0].position, [3.0, 4.0]);
        let g = t.geometry.unwrap();
        assert_eq!(
            (g.areas[0].outline.0.len(), g.areas[0].holes.len()),
            (4, 1),
            "v{version}: the first frame's geometry"
        );
        let file = JuPedSimFile::open(&db.0, "j", 1.0).unwrap();
        assert_eq!(file.version(), i64::from(version));
        let mut order = Vec::new();
        file.for_each_row(|r| {
            order.push((r.time, r.id));
            Ok(())
        })
        .unwrap();
        assert_eq!(order, [(0.0, 1), (0.0, 2), (0.125, 2), (0.25, 2)]);
    }
}

// ---------------------------------------------------------------- the shared files vs PedPy

/// The shared third-party files: `../shared/assets/trajectories/` beside the crate, or this
/// workplace's copy.
fn shared(name: &str) -> Option<PathBuf> {
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/assets/trajectories");
    let dirs = [beside, PathBuf::from("/work/shared/assets/trajectories")];
    let found = dirs.iter().map(|d| d.join(name)).find(|p| p.is_file());
    if found.is_none() {
        eprintln!("SKIPPED: shared trajectory file {name} not found");
    }
    found
}

/// The shared file `name` read with `options`, its summary and (start, end) checked; `None`
/// (the test skipped) where the file is not here.
fn read_shared(
    name: &str,
    options: &ReadOptions,
    want: Summary,
    span: (f64, f64),
) -> Option<Trajectories> {
    let t = read(&shared(name)?, options).unwrap();
    assert_eq!(summary(&t), want, "{name}");
    assert_eq!((t.start(), t.end()), span, "{name}");
    Some(t)
}

/// (id, samples, first position, last position) of a pedestrian.
type Ped = (u64, usize, [f64; 2], [f64; 2]);

fn check_peds(t: &Trajectories, peds: &[Ped]) {
    for &(id, n, first, last) in peds {
        let s = &track(t, id).samples;
        assert_eq!(s.len(), n, "pedestrian {id}");
        assert!(
            close(s[0].position, first),
            "pedestrian {id} first {:?}",
            s[0].position
        );
        assert!(
            close(s[s.len() - 1].position, last),
            "pedestrian {id} last {:?}",
            s[s.len() - 1].position
        );
    }
}

// Expected values below are PedPy 1.5.1's, computed by the scratch crate's
// reference/pedpy_reference.py in a venv with `pip install pedpy`: pedestrian count, first and
// last frame over the frame rate, and first and last positions of three pedestrians.

#[test]
fn shared_petrack_matches_pedpy() {
    // PedPy: load_trajectory(default_frame_rate=16, default_unit=CENTIMETER).
    let Some(t) = read_shared(
        "uo-180-180-120.txt",
        &fps_16_cm(),
        (Format::PeTrack, Some(16.0), 170, 54981),
        (60.0 / 16.0, 1371.0 / 16.0),
    ) else {
        return;
    };
    check_peds(
        &t,
        &[
            (1, 112, [0.615897, 7.71045], [0.803815, -5.9321]),
            (86, 377, [0.928396, 7.90764], [0.939783, -6.06528]),
            (170, 418, [2.09794, 7.90001], [1.53928, -6.02462]),
        ],
    );
    // Not in PedPy (it drops z): the first row's z, 181.554 cm.
    assert_eq!(track(&t, 1).samples[0].height, Some(1.81554));
    let e = read(&t.file, &opts()).unwrap_err().to_string();
    assert!(e.ends_with("give --data-fps and --units"), "{e}");
}

#[test]
fn shared_jupedsim_matches_pedpy() {
    let Some(t) = read_shared(
        "jupedsim-trajectories.sqlite",
        &opts(),
        (Format::JuPedSim, Some(25.0), 30, 8083),
        (0.0, 19.6),
    ) else {
        return;
    };
    check_peds(
        &t,
        &[
            (
                1,
                199,
                [-2.3353491979316416, 8.286936793625486],
                [-0.04700058045029478, 1.9853301224698503],
            ),
            (
                16,
                129,
                [1.3615380349916855, 7.933873660374718],
                [0.8641451892086027, 2.0037568946757554],
            ),
            (
                30,
                304,
                [4.579355252812819, 7.731233200703919],
                [0.8313831933442566, 1.9942454102383416],
            ),
        ],
    );
    // PedPy's walkable area is the same T-shaped polygon (11 corners, no holes).
    let g = t.geometry.as_ref().unwrap();
    assert_eq!(
        (
            g.areas.len(),
            g.areas[0].outline.0.len(),
            g.areas[0].holes.len()
        ),
        (1, 11, 0)
    );
    assert_eq!(t.bounds(), ([-10.0, 0.0], [10.0, 10.0]));
}

/// The position of `track` at `time`, linear between samples.
fn at(track: &Track, time: f64) -> [f64; 2] {
    let s = &track.samples;
    let k = s.iter().position(|x| x.time >= time).unwrap();
    if k == 0 || s[k].time == time {
        return s[k].position;
    }
    let (a, b) = (&s[k - 1], &s[k]);
    let u = (time - a.time) / (b.time - a.time);
    [
        a.position[0] + u * (b.position[0] - a.position[0]),
        a.position[1] + u * (b.position[1] - a.position[1]),
    ]
}

#[test]
fn shared_vadere_matches_pedpy() {
    // The scenario beside it is found on its own. 493 foot steps of 20 pedestrians: each
    // step's end plus each pedestrian's first start.
    let Some(t) = read_shared(
        "vadere-bottleneck-postvis.traj",
        &opts(),
        (Format::Vadere, None, 20, 493 + 20),
        (0.4, 25.265977852225603),
    ) else {
        return;
    };
    // PedPy (frame_rate=10) resamples the step starts at 0.1 s: its first sample is the first
    // step's start; its last, at frame 117 / 62 / 144, is linear between our samples.
    for (id, first, last_time, last) in [
        (
            1,
            [2.556629741868144, 7.096775246629484],
            11.7,
            [5.548192062928877, 1.3631342857345596],
        ),
        (
            11,
            [2.256571265092003, 5.30579029842332],
            6.2,
            [5.373133042459475, 1.7736706511477482],
        ),
        (
            20,
            [4.564515259361686, 7.505863901535077],
            14.4,
            [6.334206959662537, 2.210067583643791],
        ),
    ] {
        let tr = track(&t, id);
        assert_eq!((tr.samples[0].time, tr.samples[0].position), (0.4, first));
        assert!(
            close(at(tr, last_time), last),
            "pedestrian {id}: {:?}",
            at(tr, last_time)
        );
    }
    // PedPy's walkable area: bounds 8 x 10 less the 0.5 m bounding box, two obstacles as holes.
    let g = t.geometry.as_ref().unwrap();
    assert_eq!(
        g.areas[0].outline.0,
        [[0.5, 0.5], [7.5, 0.5], [7.5, 9.5], [0.5, 9.5]]
    );
    assert_eq!(g.areas[0].holes.len(), 2);
    assert_eq!(g.areas[0].holes[0].0[0], [0.5, 3.5]);
}

#[test]
fn shared_pathfinder_matches_pedpy() {
    // PedPy rounds times to frames at 1 fps (last frame 139); the file's last time is 138.775.
    let Some(t) = read_shared(
        "pathfinder.csv",
        &opts(),
        (Format::Pathfinder, None, 150, 12120),
        (0.0, 138.775),
    ) else {
        return;
    };
    check_peds(
        &t,
        &[
            (0, 121, [-10.114044, -2.057823], [13.665299, -0.227371]),
            (75, 66, [-8.628059, 3.947713], [13.665299, -0.210954]),
            (149, 118, [-11.1047, 3.089779], [13.665299, -0.269878]),
        ],
    );
    assert_eq!(track(&t, 0).samples.last().unwrap().time, 120.0);
}

#[test]
#[allow(clippy::approx_constant)] // -3.14 is a position in the file, not pi
fn shared_eth_matches_pedpy() {
    // PedPy has no ETH/UCY loader: its TrajectoryData was built from the file with pandas, at
    // OpenTraj's 25 fps (10 frames a step x 2.5 annotations a second).
    let Some(t) = read_shared(
        "eth-biwi_eth_10fps.txt",
        &opts(),
        (Format::EthUcy, Some(25.0), 360, 5492),
        (780.0 / 25.0, 12380.0 / 25.0),
    ) else {
        return;
    };
    assert_eq!((t.tracks[0].id, t.tracks[359].id), (1, 367));
    check_peds(
        &t,
        &[
            (1, 5, [8.46, 3.59], [12.81, 4.61]),
            (186, 17, [-3.14, 7.07], [12.3, 4.95]),
            (367, 12, [12.63, 7.26], [11.2, 8.44]),
        ],
    );
}

#[test]
fn shared_files_stream_like_they_read() {
    let Some(path) = shared("uo-180-180-120.txt") else {
        return;
    };
    let file = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
    let rows = PeTrackRows::open("uo", file, &fps_16_cm()).unwrap();
    assert!(rows.has_height());
    let rows: Vec<Row> = rows.map(Result::unwrap).collect();
    assert_eq!(rows.len(), 54981);
    assert_eq!((rows[0].id, rows[0].time), (1, 3.75));
}

// ---------------------------------------------------------------- malformed input

/// Asserts `result` failed with one line that names `file` and contains `wanted`.
fn fails(result: Result<Trajectories, TrajectoryError>, file: &str, wanted: &str) {
    let e = match result {
        Ok(_) => panic!("{file}: read, expected an error with '{wanted}'"),
        Err(e) => e.to_string(),
    };
    assert!(!e.contains('\n') && !e.contains('\r'), "{e}");
    assert!(e.starts_with(&format!("{file}: ")), "{e}");
    assert!(e.contains(wanted), "{file}: '{e}' lacks '{wanted}'");
}

#[test]
fn malformed_text() {
    let petrack = ReadOptions {
        format: Some(Format::PeTrack),
        ..fps_16_cm()
    };
    let eth = ReadOptions {
        format: Some(Format::EthUcy),
        ..opts()
    };
    let csv = ReadOptions {
        format: Some(Format::Csv),
        units: Some(Units::Metres),
        ..opts()
    };
    let cases: Vec<(&str, Vec<u8>, ReadOptions, &str)> = vec![
        ("empty.txt", b"".to_vec(), opts(), "empty file"),
        ("blank.txt", b"\n\n  \n".to_vec(), petrack.clone(), "no pedestrians"),
        ("comments.txt", b"# framerate: 16\n# x/cm\n".to_vec(), opts(), "no pedestrians"),
        ("bare.txt", b"1 0 1 2 180\n".to_vec(), opts(), "give --data-fps and --units"),
        ("nounit.txt", b"# framerate: 16 fps\n1 0 1 2\n".to_vec(), opts(), "give --units"),
        ("nofps.txt", b"# id frame x/cm y/cm\n1 0 1 2\n".to_vec(), opts(), "give --data-fps"),
        ("word.txt", b"1 0 abc 2 180\n".to_vec(), petrack.clone(), "line 1: x 'abc' is not a number"),
        ("columns.txt", b"1 0 1 2 180\n1 1 1 2\n".to_vec(), petrack.clone(), "line 2: 4 fields, expected 5 like line 1"),
        ("short.txt", b"1 0 1\n".to_vec(), petrack.clone(), "3 fields, expected at least 4"),
        ("nan.txt", b"1 0 nan 2 180\n".to_vec(), petrack.clone(), "x is NaN"),
        ("inf.txt", b"1 0 1 -inf 180\n".to_vec(), petrack.clone(), "y is infinite"),
        ("bigid.txt", b"9007199254740993 0 1 2 180\n".to_vec(), petrack.clone(), "over 2^53"),
        ("negframe.txt", b"1 -5 1 2 180\n".to_vec(), petrack.clone(), "frame '-5' is negative"),
        ("bigframe.txt", b"1 1e300 1 2 180\n".to_vec(), petrack.clone(), "frame '1e300' is over"),
        ("back.txt", b"12 41 1 2 180\n12 40 1 2 180\n".to_vec(), petrack.clone(), "line 2: pedestrian 12: frame 40 after frame 41"),
        ("dup.txt", b"12 41 1 2 180\n12 41 1 2 180\n".to_vec(), petrack.clone(), "pedestrian 12: frame 41 twice"),
        ("utf8.txt", b"1 0 1 2 180\n1 1 \xff 2 180\n".to_vec(), petrack.clone(), "line 2: byte 5 is not UTF-8"),
        ("tall.txt", b"1 0 1 2 5000\n".to_vec(), petrack.clone(), "not a person's height"),
        ("twofps.txt", b"# framerate: 16\n# fps: 25\n1 0 1 2\n".to_vec(), ReadOptions { units: Some(Units::Metres), ..opts() }, "line 2: the header gives two frame rates"),
        ("badfps.txt", b"1 0 1 2 180\n".to_vec(), ReadOptions { data_fps: Some(-3.0), ..petrack.clone() }, "frame rate -3"),
        ("huge.txt", (0..100).map(|i| format!("1 {i} 1 2 180\n")).collect::<String>().into_bytes(), ReadOptions { max_memory: Some(1000), ..petrack.clone() }, "over the budget of 0.0 MB (--max-memory)"),
        ("big.txt", b"1 0 1 2 180\n".repeat(10), ReadOptions { max_file_size: 50, ..petrack.clone() }, "over the limit of 50 bytes"),
        ("six.txt", b"1 2 3 4 5 6\n".to_vec(), opts(), "give --format"),
        ("eth5.txt", b"780 1 1 2 3\n".to_vec(), eth.clone(), "5 fields, expected 4 (frame id x y) or 8"),
        ("ethone.txt", b"780 1 1 2\n780 2 1 2\n".to_vec(), eth.clone(), "same frame"),
        ("ethfrac.txt", b"780.5 1 1 2\n".to_vec(), eth.clone(), "frame '780.5' is not a whole number"),
        ("v1.traj", b"pedestrianId endTime startX startY\n1 2 3 4\n".to_vec(), opts(), "line 1: the header has no simTime column"),
        ("v2.traj", b"pedestrianId simTime startX startY\n1 0.4 1 2 3\n".to_vec(), opts(), "line 2: 5 fields, expected 4"),
        ("v3.traj", b"pedestrianId simTime endTime startX startY endX endY\n1 0.4 1.0 0 0 1 1\n1 0.8 1.2 1 1 2 2\n".to_vec(), opts(), "pedestrian 1: time 0.8 s after 1 s"),
        ("v4.traj", b"#IDXCOL=2\n".to_vec(), opts(), "no header row"),
        ("p1.csv", b"\"t\",\"id\",\"name\",\"active\",\"X\",\"y\"\n".to_vec(), ReadOptions { format: Some(Format::Pathfinder), ..opts() }, "line 1: the header has no 'x' column"),
        ("p2.csv", b"\"t\",\"id\",\"x\",\"y\"\n\"s\",\"\",\"furlong\",\"furlong\"\n0,1,2,3\n".to_vec(), opts(), "line 2: x is in 'furlong'"),
        ("p3.csv", b"\"t\",\"id\",\"x\",\"y\"\n\"s\",\"\",\"m\",\"m\"\n0,1,\"2,3\n".to_vec(), opts(), "line 3: field 3 opens a quote"),
        ("p4.csv", b"\"t\",\"id\",\"x\",\"y\"\n\"s\",\"\",\"m\",\"cm\"\n".to_vec(), opts(), "x is in 'm' but y in 'cm'"),
        ("c1.csv", b"id,time,x,y\n1,0,1,2\n".to_vec(), opts(), "give --units"),
        ("c2.csv", b"id,frame,x,y\n1,0,1,2\n".to_vec(), csv.clone(), "give --data-fps"),
        ("c3.csv", b"a,b,c\n1,0,1\n".to_vec(), csv.clone(), "give --columns"),
        ("c4.csv", b"1,0,1\n".to_vec(), ReadOptions { columns: Some("id=0,time=1,x=2,y=3".parse().unwrap()), ..csv.clone() }, "column 3 is beyond the 3 fields"),
        ("c5.csv", b"id,time,x,y\n1,0,1,2\n1,1,1\n".to_vec(), csv.clone(), "line 3: 3 fields, expected 4"),
        ("c6.csv", b"ped,t,x,y\n1,0,1,2\n".to_vec(), ReadOptions { columns: Some("id=id,time=t,x=x,y=y".parse().unwrap()), ..csv.clone() }, "the header has no column 'id'"),
        ("sql.sqlite", b"SQLite format 3\0rest of it".to_vec(), opts(), "read, not read_bytes"),
    ];
    assert!(cases.len() >= 40);
    for (name, bytes, options, wanted) in cases {
        fails(read_bytes(name, &bytes, &options), name, wanted);
    }
}

#[test]
fn malformed_side_files() {
    let traj = b"pedestrianId simTime startX startY\n1 0.4 1 2\n";
    let scenario = TempFile::with_text("bad.scenario", "{\"scenario\": {\"topography\": ");
    let name = scenario.0.display().to_string();
    let o = ReadOptions {
        scenario: Some(scenario.0.clone()),
        ..opts()
    };
    fails(read_bytes("v.traj", traj, &o), &name, "not JSON");
    let wkt = TempFile::with_text("bad.wkt", "POLYGON ((0 0, 1 0))");
    let name = wkt.0.display().to_string();
    let o = ReadOptions {
        geometry: Some(wkt.0.clone()),
        ..opts()
    };
    fails(
        read_bytes("v.traj", traj, &o),
        &name,
        "bad WKT at character 10: a ring needs 3 distinct points",
    );
    let o = ReadOptions {
        scenario: Some(PathBuf::from("/nonexistent/x.scenario")),
        ..opts()
    };
    fails(
        read_bytes("v.traj", traj, &o),
        "/nonexistent/x.scenario",
        "cannot read",
    );
    fails(
        read(Path::new("/nonexistent/t.txt"), &opts()),
        "/nonexistent/t.txt",
        "cannot read",
    );
}

#[test]
fn malformed_sqlite() {
    let not_db = TempFile::with_text("nodb.sqlite", "hello, I am text");
    let f = |t: &TempFile| (read(&t.0, &opts()), t.0.display().to_string());
    // By content this is a one-line CSV; forced to JuPedSim it is no database.
    let (r, name) = f(&not_db);
    fails(r, &name, "give --columns");
    let (r, name) = (
        read(
            &not_db.0,
            &ReadOptions {
                format: Some(Format::JuPedSim),
                ..opts()
            },
        ),
        name,
    );
    fails(r, &name, "not an SQLite database");

    let garbage = TempFile::new("garbage.sqlite");
    let mut bytes = b"SQLite format 3\0".to_vec();
    bytes.extend(std::iter::repeat_n(0xA5u8, 4096));
    std::fs::write(&garbage.0, bytes).unwrap();
    let (r, name) = f(&garbage);
    fails(r, &name, "");

    let rows = [(0, 1, 0.0, 0.0), (1, 1, 1.0, 0.0)];
    // Each breaks a good database one way: (SQL, what the error says).
    let breaks = [
        (
            "DROP TABLE trajectory_data",
            "table trajectory_data: missing",
        ),
        ("DROP TABLE metadata", "table metadata: missing"),
        (
            "DELETE FROM metadata WHERE key = 'fps'",
            "table metadata: no 'fps' entry",
        ),
        (
            "UPDATE metadata SET value = '9' WHERE key = 'version'",
            "unknown schema version '9'",
        ),
        (
            "DELETE FROM metadata WHERE key = 'version'",
            "no 'version' entry",
        ),
        (
            "UPDATE metadata SET value = 'fast' WHERE key = 'fps'",
            "fps 'fast' is not a number",
        ),
        (
            "UPDATE metadata SET value = '0' WHERE key = 'fps'",
            "frame rate 0",
        ),
        (
            "ALTER TABLE trajectory_data DROP COLUMN pos_y",
            "table trajectory_data: no column pos_y",
        ),
        (
            "ALTER TABLE trajectory_data RENAME TO t2; CREATE VIEW trajectory_data AS SELECT * FROM t2",
            "trajectory_data is a view, not a table",
        ),
        (
            "UPDATE trajectory_data SET id = 9007199254740993",
            "row 1 of trajectory_data: id 9007199254740993 is over 2^53",
        ),
        (
            "UPDATE trajectory_data SET pos_x = 'left' WHERE frame = 1",
            "row 2 of trajectory_data: pos_x is text",
        ),
        (
            "UPDATE trajectory_data SET frame = -1 WHERE frame = 1",
            "frame -1 is negative",
        ),
        (
            "UPDATE trajectory_data SET frame = 0",
            "row 2 of trajectory_data: pedestrian 1: frame 0 twice",
        ),
        ("DELETE FROM trajectory_data", "no pedestrians"),
        (
            "UPDATE geometry SET wkt = 'POLYGON ((0 0, 1 0' WHERE hash = 42",
            "table geometry: bad WKT",
        ),
        (
            "DELETE FROM geometry WHERE hash = 42",
            "no geometry with hash 42",
        ),
    ];
    for (sql, wanted) in breaks {
        let db = jupedsim_db(2, Some("25.0"), &rows, ROOM);
        Connection::open(&db.0).unwrap().execute_batch(sql).unwrap();
        let (r, name) = f(&db);
        fails(r, &name, wanted);
    }
}

// ---------------------------------------------------------------- no panics on mutated input

#[test]
fn mutated_inputs_never_panic() {
    let seeds: [(&str, &str); 5] = [
        (
            "p.txt",
            "# framerate: 16 fps\n# id frame x/cm y/cm z/cm\n1 60 61.5 771.0 181.5\n1 61 61.2 760.5 181.5\n2 60 1 2 170\n",
        ),
        ("e.txt", "780.0\t1.0\t8.46\t3.59\n790.0\t1.0\t9.57\t3.79\n"),
        (
            "v.traj",
            "#IDXCOL=2,DATACOL=6,SEP=' '\npedestrianId simTime endTime-PID1 startX-PID1 startY-PID1 endX-PID1 endY-PID1 targetId-PID2\n1 0.4 1.0 2.5 7.0 2.4 6.3 8\n",
        ),
        (
            "f.csv",
            "\"t\",\"id\",\"name\",\"active\",\"x\",\"y\"\n\"s\",\"\",\"\",\"\",\"m\",\"m\"\n0.0,0,\"1\",0,-10.1,-2.0\n1.0,0,\"1\",1,-9.9,-2.0\n",
        ),
        ("g.csv", "id,time,x,y\n1,0,1,2\n1,0.5,1.5,2\n"),
    ];
    let o = ReadOptions {
        units: Some(Units::Metres),
        max_memory: Some(1 << 20),
        ..opts()
    };
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"0123456789 \t\n,.-+e#\"naifINFx;:/";
    for (name, seed) in seeds {
        for _ in 0..400 {
            let mut bytes = seed.as_bytes().to_vec();
            for _ in 0..(1 + next() % 4) {
                let at = (next() as usize) % (bytes.len() + 1);
                match next() % 3 {
                    0 if at < bytes.len() => {
                        bytes[at] = alphabet[(next() as usize) % alphabet.len()]
                    }
                    1 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, alphabet[(next() as usize) % alphabet.len()]),
                }
            }
            if let Err(e) = read_bytes(name, &bytes, &o) {
                let text = e.to_string();
                assert!(!text.contains('\n') && text.starts_with(name), "{text}");
            }
        }
    }
}
