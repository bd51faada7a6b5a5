use super::*;
use crate::motion::trajectory::budget::Budget;
use crate::motion::trajectory::rows::RowSink;
use crate::motion::trajectory::{Row, Sample, Track};

fn row(id: u64, time: f64, x: f64) -> Row {
    Row {
        id,
        time,
        position: [x, 0.0],
        height: None,
    }
}

/// Every record of every chunk, by key.
fn contents(store: &TrackStore) -> Vec<(i64, Vec<StoredSample>)> {
    let mut out = Vec::new();
    for key in store.keys(..) {
        let mut records = Vec::new();
        store.load(key, &mut records).expect("load");
        out.push((key, records));
    }
    out
}

fn store_of(rows: &[Row], budget: Option<u64>) -> TrackStore {
    let mut b = match budget {
        Some(limit) => StoreBuilder::new(Budget::new(limit)),
        None => StoreBuilder::in_memory(),
    };
    b.set_frame_rate(None);
    for &r in rows {
        b.push(r).expect("row");
    }
    let file = StoreFile {
        file: "t.csv".into(),
        format: Format::Csv,
        frame_rate: None,
        geometry: None,
    };
    TrackStore::new(file, b.finish().expect("finish"))
}

#[test]
fn chunks_hold_their_samples_and_both_ends_of_a_gap() {
    // Pedestrian 5 every second from 0 to 3 s, then a gap to 9.5 s; pedestrian 2 at 1 and 2.5.
    let rows = [
        row(5, 0.0, 0.0),
        row(5, 1.0, 1.0),
        row(2, 1.0, 10.0),
        row(5, 2.0, 2.0),
        row(2, 2.5, 11.0),
        row(5, 3.0, 3.0),
        row(5, 9.5, 9.0),
    ];
    let store = store_of(&rows, None);
    let s = store.summaries();
    assert_eq!(s.iter().map(|s| s.id).collect::<Vec<_>>(), [5, 2]);
    assert_eq!((s[0].start, s[0].end, s[0].samples), (0.0, 9.5, 5));
    assert_eq!((s[1].start, s[1].end, s[1].samples), (1.0, 2.5, 2));
    assert_eq!(store.sample_count(), 7);
    assert_eq!((store.start(), store.end()), (0.0, 9.5));
    assert_eq!(store.bounds(), ([0.0, 0.0], [11.0, 0.0]));
    let got: Vec<(i64, Vec<(u32, f64)>)> = contents(&store)
        .into_iter()
        .map(|(k, r)| (k, r.iter().map(|r| (r.ped, r.time)).collect()))
        .collect();
    assert_eq!(
        got,
        [
            // 0 to 2 s: 5's 0 and 1, 2's 1, then 5's 2 s and 2's 2.5 s copied back.
            (0, vec![(0, 0.0), (0, 1.0), (1, 1.0), (0, 2.0), (1, 2.5)]),
            // 2 to 4 s: 5's 1 s copied forward, its 2 s, 2's 1 s copied, its 2.5 s, 5's 3 s,
            // and the far side of 5's gap, 9.5 s.
            (
                1,
                vec![(0, 1.0), (0, 2.0), (1, 1.0), (1, 2.5), (0, 3.0), (0, 9.5)]
            ),
            // 8 to 10 s: the near side of the gap, then 9.5 s; chunks 2 and 3 hold nothing.
            (4, vec![(0, 3.0), (0, 9.5)]),
        ]
    );
    assert_eq!(store.spilled_bytes(), 0);
}

#[test]
fn a_spilled_store_reads_back_what_memory_held() {
    // 300 pedestrians for 20 s at 10 Hz: 60,000 samples, far over a 64 KiB budget's hold.
    let mut rows = Vec::new();
    for f in 0..200 {
        for id in 0..300u64 {
            rows.push(row(id, f64::from(f) * 0.1, id as f64 + f64::from(f)));
        }
    }
    let held = store_of(&rows, None);
    let spilled = store_of(&rows, Some(64 << 10));
    assert!(spilled.spilled_bytes() > 0);
    assert_eq!(spilled.spilled_bytes() % 32, 0);
    assert_eq!(contents(&held), contents(&spilled));
    assert_eq!(held.summaries(), spilled.summaries());
}

#[test]
fn order_and_index_are_refused_with_the_readers_messages() {
    let mut b = StoreBuilder::in_memory();
    b.set_frame_rate(Some(16.0));
    b.push(row(7, 2.0, 0.0)).expect("first");
    assert_eq!(
        b.push(row(7, 1.0, 0.0)).unwrap_err(),
        "pedestrian 7: frame 16 after frame 32"
    );
    assert_eq!(
        b.push(row(7, 2.0, 0.0)).unwrap_err(),
        "pedestrian 7: frame 32 twice"
    );
    let mut b = StoreBuilder::new(Budget::new(1000));
    let e = (0..100)
        .find_map(|id| b.push(row(id, 0.0, 0.0)).err())
        .expect("refused");
    assert!(
        e.contains("to index") && e.ends_with("(--max-memory)"),
        "{e}"
    );
    assert_eq!(
        StoreBuilder::in_memory().finish().unwrap_err(),
        crate::motion::trajectory::rows::NO_ROWS
    );
}

#[test]
fn heights_are_the_mean_of_the_plausible() {
    let track = Track {
        id: 1,
        samples: [1.70, 1.80, 9.0, 1.75]
            .iter()
            .enumerate()
            .map(|(k, &h)| Sample {
                time: k as f64,
                position: [0.0, 0.0],
                height: Some(h),
            })
            .collect(),
    };
    let t = Trajectories {
        file: "h.txt".into(),
        format: Format::PeTrack,
        frame_rate: Some(25.0),
        tracks: vec![track],
        geometry: None,
    };
    let store = TrackStore::from_trajectories(&t);
    let h = store.summaries()[0].height.expect("height");
    assert!((h - 1.75).abs() < 1e-6, "{h}");
}

#[test]
fn one_pedestrians_store_holds_its_records_of_the_whole_and_keeps_its_budget() {
    // Three pedestrians interleaved, one with a gap of several chunks and heights given; a
    // budget small enough that the whole spills.
    let mut rows = Vec::new();
    for k in 0..400 {
        let t = k as f64 * 0.05;
        if !(5.0..11.0).contains(&t) {
            rows.push(Row {
                height: Some(1.6 + 0.001 * (k % 7) as f32),
                ..row(9, t, t)
            });
        }
        rows.push(row(4, t + 0.01, -t));
        if k % 3 == 0 {
            rows.push(row(6, t + 0.02, 2.0 * t));
        }
    }
    let whole = store_of(&rows, Some(4096));
    assert!(whole.spilled_bytes() > 0, "the whole spills");
    for (p, summary) in whole.summaries().iter().enumerate() {
        let one = whole.one(p).expect("read").expect("present");
        assert_eq!(one.summaries(), [*summary], "pedestrian {}", summary.id);
        assert!(
            one.spilled_bytes() > 0,
            "pedestrian {} spills too",
            summary.id
        );
        let theirs: Vec<(i64, Vec<StoredSample>)> = contents(&whole)
            .into_iter()
            .map(|(key, records)| {
                let own = records
                    .into_iter()
                    .filter(|r| r.ped as usize == p)
                    .map(|r| StoredSample { ped: 0, ..r })
                    .collect::<Vec<_>>();
                (key, own)
            })
            .filter(|(_, own)| !own.is_empty())
            .collect();
        assert_eq!(contents(&one), theirs, "pedestrian {}", summary.id);
    }
    assert!(whole.one(3).expect("read").is_none());
}
