//! The walkable area of a Vadere `.scenario` (JSON): `scenario.topography`.
//!
//! The outline is `attributes.bounds` (x, y, width, height). When `attributes.bounded` is true
//! Vadere walls the scene in with an obstacle band `boundingBoxWidth` wide inside the bounds, so
//! the walkable outline is the bounds shrunk by that width on every side (as PedPy's
//! `load_walkable_area_from_vadere_scenario` does with its default margin 0). A missing
//! `bounded` / `boundingBoxWidth` takes Vadere's defaults (`AttributesTopography`: true, 0.5).
//! Each obstacle is a hole: POLYGON (its `points`), RECTANGLE (x, y, width, height) or CIRCLE
//! (`center`, `radius`, as a 16-gon). Obstacles touching the outline are kept as they are (a
//! renderer does not need PedPy's strict polygon validity). Other shapes are refused.

use serde_json::Value;

use super::{Area, Geometry, Ring};

/// Corners of a circle obstacle's polygon.
const CIRCLE_POINTS: usize = 16;

/// A number at `key` of `object`, named `what` in messages.
fn number(object: &Value, key: &str, what: &str) -> Result<f64, String> {
    let value = object
        .get(key)
        .ok_or_else(|| format!("{what} has no '{key}'"))?;
    // Within the floor's reach, so that sums of them (a rectangle's far corner, a circle's
    // points) stay finite.
    value
        .as_f64()
        .filter(|v| v.is_finite() && v.abs() <= super::fields::MAX_METRES)
        .ok_or_else(|| {
            format!(
                "{what}.{key} is not a number within {:e} m",
                super::fields::MAX_METRES
            )
        })
}

/// A rectangle's ring, refusing empty or negative sizes.
fn rectangle(x: f64, y: f64, width: f64, height: f64, what: &str) -> Result<Ring, String> {
    if !(width > 0.0 && height > 0.0) {
        return Err(format!(
            "{what} has width {width} and height {height}: not a rectangle"
        ));
    }
    Ok(Ring(vec![
        [x, y],
        [x + width, y],
        [x + width, y + height],
        [x, y + height],
    ]))
}

/// One obstacle's shape as a ring.
fn shape(shape: &Value, what: &str) -> Result<Ring, String> {
    let kind = shape
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{what} has no shape type"))?;
    match kind {
        "RECTANGLE" => rectangle(
            number(shape, "x", what)?,
            number(shape, "y", what)?,
            number(shape, "width", what)?,
            number(shape, "height", what)?,
            what,
        ),
        "POLYGON" => {
            let points = shape
                .get("points")
                .and_then(Value::as_array)
                .ok_or_else(|| format!("{what} has no points"))?;
            let mut ring = Vec::new();
            for (n, p) in points.iter().enumerate() {
                let point = format!("{what} point {n}");
                ring.push([number(p, "x", &point)?, number(p, "y", &point)?]);
            }
            if ring.len() > 1 && ring.first() == ring.last() {
                ring.pop();
            }
            if ring.len() < 3 {
                return Err(format!("{what} is a polygon of {} points", ring.len()));
            }
            Ok(Ring(ring))
        }
        "CIRCLE" => {
            let center = shape
                .get("center")
                .ok_or_else(|| format!("{what} has no center"))?;
            let (cx, cy) = (number(center, "x", what)?, number(center, "y", what)?);
            let r = number(shape, "radius", what)?;
            if r <= 0.0 {
                return Err(format!("{what} has radius {r}"));
            }
            let step = std::f64::consts::TAU / CIRCLE_POINTS as f64;
            Ok(Ring(
                (0..CIRCLE_POINTS)
                    .map(|i| {
                        [
                            cx + r * (i as f64 * step).cos(),
                            cy + r * (i as f64 * step).sin(),
                        ]
                    })
                    .collect(),
            ))
        }
        // Quoted and escaped: the type is the file's text, and the message is one line.
        other => Err(format!(
            "{what} is a {:?}; only POLYGON, RECTANGLE and CIRCLE are read",
            super::fields::quote(other)
        )),
    }
}

/// The walkable area of a scenario's JSON text.
pub fn parse_scenario(json: &str) -> Result<Geometry, String> {
    let root: Value = serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    let topography = root
        .get("scenario")
        .and_then(|s| s.get("topography"))
        .ok_or("no scenario.topography")?;
    let attributes = topography
        .get("attributes")
        .ok_or("no topography.attributes")?;
    let bounds = attributes
        .get("bounds")
        .ok_or("no topography.attributes.bounds")?;
    let bounded = attributes
        .get("bounded")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let band = match attributes.get("boundingBoxWidth") {
        None | Some(Value::Null) => 0.5,
        Some(_) => number(attributes, "boundingBoxWidth", "attributes")?,
    };
    let inset = if bounded { band } else { 0.0 };
    let outline = rectangle(
        number(bounds, "x", "bounds")? + inset,
        number(bounds, "y", "bounds")? + inset,
        number(bounds, "width", "bounds")? - 2.0 * inset,
        number(bounds, "height", "bounds")? - 2.0 * inset,
        "the bounds less the bounding box",
    )?;
    let mut holes = Vec::new();
    let obstacles = match topography.get("obstacles") {
        None | Some(Value::Null) => &[][..],
        Some(v) => v
            .as_array()
            .ok_or("topography.obstacles is not a list")?
            .as_slice(),
    };
    for (n, obstacle) in obstacles.iter().enumerate() {
        let what = match obstacle.get("id").and_then(Value::as_i64) {
            Some(id) => format!("obstacle {id}"),
            None => format!("obstacle #{n}"),
        };
        let s = obstacle
            .get("shape")
            .ok_or_else(|| format!("{what} has no shape"))?;
        holes.push(shape(s, &what)?);
    }
    Ok(Geometry {
        areas: vec![Area { outline, holes }],
    })
}

#[cfg(test)]
mod tests {
    use super::parse_scenario;

    #[test]
    fn bounds_shrunk_and_obstacles_as_holes() {
        let json = r#"{"scenario":{"topography":{"attributes":{"bounds":{"x":0,"y":0,"width":8,"height":10},"boundingBoxWidth":0.5,"bounded":true},
            "obstacles":[{"id":5,"shape":{"type":"RECTANGLE","x":2,"y":2,"width":1,"height":0.5}},
                         {"id":6,"shape":{"type":"CIRCLE","center":{"x":4,"y":4},"radius":1}},
                         {"id":7,"shape":{"type":"POLYGON","points":[{"x":5,"y":5},{"x":6,"y":5},{"x":6,"y":6}]}}]}}}"#;
        let g = parse_scenario(json).unwrap();
        let a = &g.areas[0];
        assert_eq!(
            a.outline.0,
            [[0.5, 0.5], [7.5, 0.5], [7.5, 9.5], [0.5, 9.5]]
        );
        assert_eq!(
            a.holes[0].0,
            [[2.0, 2.0], [3.0, 2.0], [3.0, 2.5], [2.0, 2.5]]
        );
        assert_eq!(a.holes[1].0.len(), 16);
        assert!((a.holes[1].0[4][1] - 5.0).abs() < 1e-12);
        assert_eq!(a.holes[2].0.len(), 3);
        let unbounded = r#"{"scenario":{"topography":{"attributes":{"bounds":{"x":1,"y":1,"width":2,"height":2},"bounded":false}}}}"#;
        assert_eq!(
            parse_scenario(unbounded).unwrap().areas[0].outline.0[0],
            [1.0, 1.0]
        );
        for bad in [
            "{",
            "{}",
            r#"{"scenario":{"topography":{"attributes":{"bounds":{"x":0,"y":0,"width":1,"height":1}}}}}"#,
            r#"{"scenario":{"topography":{"attributes":{"bounds":{"x":0,"y":0,"width":9,"height":9}},"obstacles":[{"shape":{"type":"ELLIPSE"}}]}}}"#,
        ] {
            assert!(parse_scenario(bad).is_err(), "{bad}");
        }
    }
}
