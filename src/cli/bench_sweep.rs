//! `throng bench sweep`: palette throughput over a grid of joint, instance and thread counts,
//! measured in rounds (every point once per round, so a machine's drift spreads over all
//! points alike) and reported as the worst, median and best round; optionally alternated with
//! an external command (`--versus`, e.g. ozz-animation's side-by-side harness) whose
//! joints-per-second figure is compared per character, round by round.

use std::process::Command;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use serde::Serialize;
use throng::crowd::bench::{BenchSetup, Measurement, measure_crowd};
use throng::scene::independent_time;

use super::bench_model::{ModelArgs, model_and_clip, parse_joints};
use super::bench_report::{Method, Report, report};
use super::output::{print_json, say, warn_line, write_file};
use super::plot::{Chart, Series, svg};
use super::{CliError, parse_instances, parse_seconds, parse_threads};

#[derive(Debug, Args)]
pub(super) struct SweepArgs {
    #[command(flatten)]
    source: ModelArgs,
    /// Joint counts of generated models to sweep (replaces MODEL; e.g. 8,9,10,...,128).
    #[arg(long, value_delimiter = ',', value_parser = parse_joints)]
    joints: Vec<usize>,
    /// Thread counts to measure (default: 1 up to the number of cores).
    #[arg(long, value_delimiter = ',', value_parser = parse_threads)]
    threads: Vec<usize>,
    /// Instance counts to measure.
    #[arg(long, value_delimiter = ',', value_parser = parse_instances, default_values_t = [1_000, 10_000, 100_000])]
    instances: Vec<usize>,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds)]
    seconds: f64,
    /// Rounds: every point is measured once per round; worst, median and best are reported.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=50))]
    repeat: u32,
    /// A shell command run once per round, after the round's points, whose output holds a
    /// figure `X M joints/s` (ozz-animation's side-by-side harness prints one); each point is
    /// compared with it per character, round by round.
    #[arg(long, value_name = "CMD")]
    versus: Option<String>,
    /// Joints per character of the `--versus` command's figure, when its output has no
    /// `J=N` (ozz's robot skeleton has 58 nodes where throng evaluates 43 skin joints).
    #[arg(long, value_name = "N", value_parser = parse_joints)]
    versus_joints: Option<usize>,
    /// Which time the figures divide by: `wall` (elapsed) or `cpu` (processor time of the
    /// process; on a machine shared with other work, time given to other programs does not
    /// count; a `--versus` command's figure is scaled by its own processor share).
    #[arg(long, value_enum, default_value_t = Clock::Wall)]
    clock: Clock,
    /// Write the plot to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// Print the measurements as a JSON array (one palette report per point, the median
    /// round's, with the worst and best beside it).
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
enum Clock {
    /// Elapsed time.
    Wall,
    /// Processor time of the process.
    Cpu,
}

impl Clock {
    /// A run's joints per second by this clock (wall clock where processor time is missing).
    fn joints_per_s(self, m: &Measurement) -> f64 {
        match self {
            Clock::Wall => m.joints_per_s(),
            Clock::Cpu => m.joints_per_cpu_s().unwrap_or_else(|| m.joints_per_s()),
        }
    }
}

/// A point's median report with the spread of its rounds.
#[derive(Serialize)]
struct PointReport {
    #[serde(flatten)]
    median: Report,
    rounds: usize,
    /// The clock of the figures below and of the ranking (the median report's own figures
    /// are wall-clock).
    clock: Clock,
    /// Worst, median and best round by `clock`.
    joints_per_s_min: f64,
    joints_per_s_by_clock: f64,
    joints_per_s_max: f64,
    /// Microseconds per character (one instance's palette), median round.
    us_per_character: f64,
    /// The `--versus` command's microseconds per character over this point's, per round:
    /// worst, median and best round.
    #[serde(skip_serializing_if = "Option::is_none")]
    versus_ratio: Option<[f64; 3]>,
}

/// One round of the `--versus` command: its figure and joints per character.
#[derive(Clone, Copy, Debug, PartialEq)]
struct VersusRun {
    joints_per_s: f64,
    joints: usize,
    /// Its processor seconds over its elapsed seconds, whole run (`None`: not measured).
    cpu_share: Option<f64>,
}

impl VersusRun {
    /// Joints per second by `clock`: with `cpu`, the printed figure over the command's share
    /// of a processor (it times its loop by the wall clock).
    fn joints_per_s(self, clock: Clock) -> f64 {
        match (clock, self.cpu_share) {
            (Clock::Cpu, Some(share)) if share > 0.0 => self.joints_per_s / share.min(1.0),
            _ => self.joints_per_s,
        }
    }

    fn us_per_character(self, clock: Clock) -> f64 {
        self.joints as f64 / self.joints_per_s(clock) * 1e6
    }
}

pub(super) fn sweep(args: &SweepArgs) -> Result<(), CliError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if args.threads.is_empty() {
        (1..=cores).collect()
    } else {
        args.threads.clone()
    };
    let joints: Vec<Option<usize>> = if args.joints.is_empty() {
        vec![None]
    } else {
        args.joints.iter().map(|&j| Some(j)).collect()
    };
    let mut points = Vec::new();
    for &j in &joints {
        let (model, clip) = model_and_clip(&args.source, j)?;
        for &instances in &args.instances {
            for &t in &threads {
                let mut setup = BenchSetup::new(
                    model.clone(),
                    clip,
                    instances,
                    t,
                    Duration::from_secs_f64(args.seconds),
                    independent_time,
                );
                setup.stores = args.source.stores.kind();
                points.push(setup);
            }
        }
    }
    let mut runs: Vec<Vec<Measurement>> = points.iter().map(|_| Vec::new()).collect();
    let mut versus = Vec::new();
    for round in 0..args.repeat {
        for (setup, runs) in points.iter().zip(&mut runs) {
            runs.push(measure_crowd(setup)?);
        }
        if let Some(cmd) = &args.versus {
            let run = run_versus(cmd, args.versus_joints)?;
            if !args.json {
                warn_line(format_args!(
                    "round {}: versus {:.1} M joints/s ({:?} clock), {:.3} us per character",
                    round + 1,
                    run.joints_per_s(args.clock) / 1e6,
                    args.clock,
                    run.us_per_character(args.clock)
                ));
            }
            versus.push(run);
        }
    }
    let reports: Vec<PointReport> = points
        .iter()
        .zip(&runs)
        .map(|(setup, runs)| point_report(setup, runs, &versus, args.clock))
        .collect();
    if !args.json {
        print_table(&reports, &versus, args.clock)?;
    }
    if let Some(path) = &args.svg {
        write_file(path, &plot(&reports, cores, args.repeat, args.seconds))?;
    }
    if args.json {
        return print_json(&reports);
    }
    Ok(())
}

fn point_report(
    setup: &BenchSetup,
    runs: &[Measurement],
    versus: &[VersusRun],
    clock: Clock,
) -> PointReport {
    let mut sorted: Vec<&Measurement> = runs.iter().collect();
    sorted.sort_by(|a, b| clock.joints_per_s(a).total_cmp(&clock.joints_per_s(b)));
    let median = sorted[sorted.len() / 2];
    let us = |m: &Measurement| m.joints as f64 / clock.joints_per_s(m) * 1e6;
    let versus_ratio = (!versus.is_empty()).then(|| {
        let mut ratios: Vec<f64> = runs
            .iter()
            .zip(versus)
            .map(|(m, v)| v.us_per_character(clock) / us(m))
            .collect();
        ratios.sort_by(f64::total_cmp);
        [
            ratios[0],
            ratios[ratios.len() / 2],
            ratios[ratios.len() - 1],
        ]
    });
    PointReport {
        median: report(&setup.model, setup.clip, Method::Crowd, median),
        rounds: runs.len(),
        clock,
        joints_per_s_min: clock.joints_per_s(sorted[0]),
        joints_per_s_by_clock: clock.joints_per_s(median),
        joints_per_s_max: clock.joints_per_s(sorted[sorted.len() - 1]),
        us_per_character: us(median),
        versus_ratio,
    }
}

fn print_table(
    reports: &[PointReport],
    versus: &[VersusRun],
    clock: Clock,
) -> Result<(), CliError> {
    let isa = throng::anim::vector_isa();
    say!(
        "figures by the {clock:?} clock; {} kernels, {} instances per batch",
        isa.name(),
        isa.lanes()
    )?;
    say!(
        "{:>6} {:>8} {:>10} {:>24} {:>12} {:>10} {:>22}",
        "joints",
        "threads",
        "instances",
        "M joints/s min/med/max",
        "per thread",
        "us/char",
        "versus x min/med/max"
    )?;
    for p in reports {
        let r = &p.median;
        let ratio = p.versus_ratio.map_or(String::new(), |[lo, mid, hi]| {
            format!("{lo:.2} / {mid:.2} / {hi:.2}")
        });
        say!(
            "{:>6} {:>8} {:>10} {:>24} {:>12.1} {:>10.3} {:>22}",
            r.joints,
            r.threads,
            r.instances,
            format!(
                "{:.1} / {:.1} / {:.1}",
                p.joints_per_s_min / 1e6,
                p.joints_per_s_by_clock / 1e6,
                p.joints_per_s_max / 1e6
            ),
            p.joints_per_s_by_clock / r.threads as f64 / 1e6,
            p.us_per_character,
            ratio
        )?;
    }
    if !versus.is_empty() {
        let mut us: Vec<f64> = versus.iter().map(|v| v.us_per_character(clock)).collect();
        us.sort_by(f64::total_cmp);
        say!(
            "versus: {} joints per character, {:.3} / {:.3} / {:.3} us per character (best / median / worst); \
             ratio = its us per character over throng's, same round",
            versus[0].joints,
            us[0],
            us[us.len() / 2],
            us[us.len() - 1]
        )?;
    }
    Ok(())
}

/// Runs `cmd` with `sh -c` and reads its figure, and its share of a processor.
fn run_versus(cmd: &str, joints: Option<usize>) -> Result<VersusRun, CliError> {
    let (cpu_before, start) = (children_cpu_seconds(), Instant::now());
    let output = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .output()
        .map_err(|source| CliError::Io {
            context: format!("running --versus '{cmd}'"),
            source,
        })?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(CliError::Argument(format!(
            "--versus '{cmd}' failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu_share = cpu_before
        .zip(children_cpu_seconds())
        .map(|(a, b)| (b - a) / elapsed);
    let run = parse_versus(&text, joints).map(|r| VersusRun { cpu_share, ..r });
    run.ok_or_else(|| {
        CliError::Argument(format!(
            "--versus '{cmd}': no 'X M joints/s' figure (and 'J=N' or --versus-joints) in its output"
        ))
    })
}

/// The first `X M joints/s` figure of `text` and the joints per character (`J=N` in the text,
/// else `joints`).
fn parse_versus(text: &str, joints: Option<usize>) -> Option<VersusRun> {
    let at = text.find(" M joints/s")?;
    let number = text[..at].rsplit(|c: char| c.is_whitespace()).next()?;
    let millions: f64 = number
        .parse()
        .ok()
        .filter(|x: &f64| *x > 0.0 && x.is_finite())?;
    let from_text = text.find("J=").and_then(|at| {
        let digits: String = text[at + 2..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok().filter(|&j: &usize| j > 0)
    });
    Some(VersusRun {
        joints_per_s: millions * 1e6,
        joints: joints.or(from_text)?,
        cpu_share: None,
    })
}

/// Processor seconds of every child this process has waited for (user and system).
fn children_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        // SAFETY: an all-zero rusage is a valid value for the call to fill.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `u` is a valid rusage for the call to fill.
        let ok = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) } == 0;
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        ok.then(|| secs(u.ru_utime) + secs(u.ru_stime))
    }
    #[cfg(not(unix))]
    None
}

/// Joints/s against threads, against instances and, for a joint sweep, against joints.
fn plot(reports: &[PointReport], cores: usize, repeat: u32, seconds: f64) -> String {
    let key = |p: &PointReport| (p.median.joints, p.median.instances, p.median.threads);
    let keys: Vec<(usize, usize, usize)> = reports.iter().map(key).collect();
    let distinct = |f: &dyn Fn(&(usize, usize, usize)) -> usize| {
        let mut v: Vec<usize> = keys.iter().map(f).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let (joints, instances, threads) = (distinct(&|k| k.0), distinct(&|k| k.1), distinct(&|k| k.2));
    let series =
        |label: String, keep: &dyn Fn(&Report) -> bool, x: &dyn Fn(&Report) -> f64| -> Series {
            Series {
                label,
                points: reports
                    .iter()
                    .filter(|p| keep(&p.median))
                    .map(|p| (x(&p.median), p.median.joints_per_s / 1e6))
                    .collect(),
            }
        };
    let mut charts = Vec::new();
    if joints.len() > 1 {
        charts.push(Chart {
            title: "joints/s against joints per character".into(),
            x_label: "joints".into(),
            y_label: "M joints/s".into(),
            x_log: false,
            series: instances
                .iter()
                .flat_map(|&n| threads.iter().map(move |&t| (n, t)))
                .map(|(n, t)| {
                    series(
                        format!("{n} instances, {t} threads"),
                        &|r| r.instances == n && r.threads == t,
                        &|r| r.joints as f64,
                    )
                })
                .collect(),
        });
    }
    let first = joints.first().copied().unwrap_or(0);
    if threads.len() > 1 {
        charts.push(Chart {
            title: "joints/s against threads".into(),
            x_label: "threads".into(),
            y_label: "M joints/s".into(),
            x_log: false,
            series: instances
                .iter()
                .map(|&n| {
                    series(
                        format!("{n} instances"),
                        &|r| r.instances == n && r.joints == first,
                        &|r| r.threads as f64,
                    )
                })
                .collect(),
        });
    }
    if instances.len() > 1 {
        charts.push(Chart {
            title: "joints/s against instances".into(),
            x_label: "instances (log scale)".into(),
            y_label: "M joints/s".into(),
            x_log: true,
            series: threads
                .iter()
                .map(|&t| {
                    series(
                        format!("{t} threads"),
                        &|r| r.threads == t && r.joints == first,
                        &|r| r.instances as f64,
                    )
                })
                .collect(),
        });
    }
    let names: Vec<String> = {
        let mut v: Vec<String> = reports
            .iter()
            .map(|p| format!("{} clip {}", p.median.model, p.median.clip))
            .collect();
        v.dedup();
        v
    };
    let models = if names.len() > 3 {
        format!("{} .. {}", names[0], names[names.len() - 1])
    } else {
        names.join(", ")
    };
    let caption = format!(
        "throng bench sweep: {models}, {cores}-core machine, instances at independent times, median of {repeat} rounds of {seconds} s"
    );
    svg(&charts, &caption)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ozz_side_output() {
        let text = "ozz J=58 N=10000: 30.86 ns/joint, 32.4 M joints/s/core (palette 3x4)\n";
        let run = parse_versus(text, None).expect("figure");
        assert_eq!(run.joints, 58);
        assert!((run.joints_per_s - 32.4e6).abs() < 1.0);
        assert_eq!(parse_versus(text, Some(43)).map(|r| r.joints), Some(43));
        assert_eq!(parse_versus("12 M joints/s", None), None);
        assert_eq!(parse_versus("x M joints/s J=3", None), None);
    }
}
