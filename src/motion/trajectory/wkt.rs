//! A small WKT reader for walkable areas: POLYGON, MULTIPOLYGON and GEOMETRYCOLLECTIONs of them,
//! holes kept. Z/M coordinates are accepted and dropped; an EWKT `SRID=n;` prefix is skipped.

use super::{Area, Geometry, Ring};

/// Collections nested deeper than this are refused (the parser recurses once per level).
const MAX_DEPTH: usize = 32;

/// Parses WKT text into walkable areas; the error says where and what (one line).
pub fn parse_wkt(text: &str) -> Result<Geometry, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
    };
    p.skip_space();
    if p.rest().len() >= 5 && p.rest()[..5].eq_ignore_ascii_case(b"SRID=") {
        match p.rest().iter().position(|&b| b == b';') {
            Some(semicolon) => p.pos += semicolon + 1,
            None => return Err(p.fail("';' after SRID=")),
        }
    }
    let mut areas = Vec::new();
    p.geometry(0, &mut areas)?;
    p.skip_space();
    if p.pos < p.s.len() {
        return Err(p.fail("the end of the text"));
    }
    if areas.is_empty() {
        return Err("the WKT has no polygon".to_owned());
    }
    Ok(Geometry { areas })
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &[u8] {
        &self.s[self.pos..]
    }

    fn skip_space(&mut self) {
        while self
            .s
            .get(self.pos)
            .is_some_and(|b| b.is_ascii_whitespace())
        {
            self.pos += 1;
        }
    }

    /// "bad WKT at character N: expected WHAT".
    fn fail(&self, expected: &str) -> String {
        let found = match self.s.get(self.pos) {
            Some(&b) if b.is_ascii_graphic() => format!(", found '{}'", b as char),
            Some(_) => String::new(),
            None => ", found the end".to_owned(),
        };
        format!(
            "bad WKT at character {}: expected {expected}{found}",
            self.pos + 1
        )
    }

    /// Consumes `byte` (after spaces) if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        if self.s.get(self.pos) == Some(&byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        if self.eat(byte) {
            Ok(())
        } else {
            Err(self.fail(&format!("'{}'", byte as char)))
        }
    }

    /// The next word of letters, upper-cased ("" if none).
    fn word(&mut self) -> String {
        self.skip_space();
        let start = self.pos;
        while self.s.get(self.pos).is_some_and(u8::is_ascii_alphabetic) {
            self.pos += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.pos]).to_ascii_uppercase()
    }

    /// Consumes the word `EMPTY` if it is next.
    fn eat_empty(&mut self) -> bool {
        let save = self.pos;
        if self.word() == "EMPTY" {
            return true;
        }
        self.pos = save;
        false
    }

    fn number(&mut self) -> Result<f64, String> {
        self.skip_space();
        let start = self.pos;
        while self
            .s
            .get(self.pos)
            .is_some_and(|b| b.is_ascii_digit() || b"+-.eE".contains(b))
        {
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            Ok(_) => {
                self.pos = start;
                Err(self.fail("a finite number"))
            }
            Err(_) => {
                self.pos = start;
                Err(self.fail("a number"))
            }
        }
    }

    fn geometry(&mut self, depth: usize, out: &mut Vec<Area>) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(self.fail(&format!("collections nested at most {MAX_DEPTH} deep")));
        }
        let start = self.pos;
        let kind = self.word();
        // A dimension tag (POLYGON Z, POLYGON ZM) changes nothing: extra ordinates are dropped.
        let save = self.pos;
        if !matches!(self.word().as_str(), "Z" | "M" | "ZM") {
            self.pos = save;
        }
        if self.eat_empty() {
            return Ok(());
        }
        match kind.as_str() {
            "POLYGON" => {
                if let Some(area) = self.polygon()? {
                    out.push(area);
                }
            }
            "MULTIPOLYGON" => {
                self.expect(b'(')?;
                loop {
                    if let Some(area) = self.polygon()? {
                        out.push(area);
                    }
                    if !self.eat(b',') {
                        break;
                    }
                }
                self.expect(b')')?;
            }
            "GEOMETRYCOLLECTION" => {
                self.expect(b'(')?;
                loop {
                    self.geometry(depth + 1, out)?;
                    if !self.eat(b',') {
                        break;
                    }
                }
                self.expect(b')')?;
            }
            "" => return Err(self.fail("POLYGON, MULTIPOLYGON or GEOMETRYCOLLECTION")),
            other => {
                self.pos = start;
                self.skip_space();
                return Err(format!(
                    "bad WKT at character {}: {other} is not a polygon (only POLYGON, MULTIPOLYGON and GEOMETRYCOLLECTION are read)",
                    self.pos + 1
                ));
            }
        }
        Ok(())
    }

    /// `((x y, ...), (x y, ...))` or `EMPTY`.
    fn polygon(&mut self) -> Result<Option<Area>, String> {
        if self.eat_empty() {
            return Ok(None);
        }
        self.expect(b'(')?;
        let outline = self.ring()?;
        let mut holes = Vec::new();
        while self.eat(b',') {
            holes.push(self.ring()?);
        }
        self.expect(b')')?;
        Ok(Some(Area { outline, holes }))
    }

    /// `(x y, x y, ...)`: the closing point dropped, at least 3 points left.
    fn ring(&mut self) -> Result<Ring, String> {
        self.skip_space();
        let start = self.pos;
        self.expect(b'(')?;
        let mut points = Vec::new();
        loop {
            let x = self.number()?;
            let y = self.number()?;
            // Z and M ordinates, if any.
            for _ in 0..2 {
                self.skip_space();
                if self
                    .s
                    .get(self.pos)
                    .is_some_and(|b| b.is_ascii_digit() || b"+-.".contains(b))
                {
                    self.number()?;
                }
            }
            points.push([x, y]);
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b')')?;
        if points.len() > 1 && points.first() == points.last() {
            points.pop();
        }
        if points.len() < 3 {
            return Err(format!(
                "bad WKT at character {}: a ring needs 3 distinct points, this one has {}",
                start + 1,
                points.len()
            ));
        }
        Ok(Ring(points))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_wkt;

    #[test]
    fn polygons_holes_collections() {
        let g = parse_wkt("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 3 2, 3 3, 2 2))").unwrap();
        assert_eq!(g.areas.len(), 1);
        assert_eq!(
            g.areas[0].outline.0,
            [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
        );
        assert_eq!(g.areas[0].holes[0].0.len(), 3);
        let g =
            parse_wkt("SRID=4326;multipolygon Z(((0 0 1, 1 0 1, 1 1 1)), ((5 5, 6 5, 6 6, 5 5)))")
                .unwrap();
        assert_eq!(g.areas.len(), 2);
        let g = parse_wkt(
            "GEOMETRYCOLLECTION (POLYGON EMPTY, GEOMETRYCOLLECTION (POLYGON ((0 0,1 0,1 1))))",
        )
        .unwrap();
        assert_eq!(g.areas.len(), 1);
        assert_eq!(
            parse_wkt("POLYGON ((-1.5e1 2, 3 4, 5 6))").unwrap().areas[0]
                .outline
                .0[0],
            [-15.0, 2.0]
        );
    }

    #[test]
    fn bad_wkt() {
        for (text, wanted) in [
            ("", "expected POLYGON"),
            ("POLYGON ((0 0, 1 0))", "3 distinct points"),
            ("POLYGON ((0 0, 1 0, 1 1)", "expected ')'"),
            ("LINESTRING (0 0, 1 1)", "LINESTRING is not a polygon"),
            ("POLYGON ((0 0, 1 x, 1 1))", "expected a number"),
            ("POLYGON ((0 0, 1 1e999, 1 1))", "finite"),
            ("POLYGON ((0 0, 1 0, 1 1)) junk", "the end of the text"),
            ("GEOMETRYCOLLECTION EMPTY", "no polygon"),
        ] {
            let e = parse_wkt(text).unwrap_err();
            assert!(e.contains(wanted), "{text}: {e}");
        }
        let deep = "GEOMETRYCOLLECTION (".repeat(100);
        assert!(parse_wkt(&deep).unwrap_err().contains("nested"));
    }
}
