//! A test of the module structure: the direct children of `crowd` import each other in one
//! direction only (no two depend on each other, even through a third). It reads the `use`
//! declarations of the sources: `use super::…` at the top of a child (a path from `crowd`) and
//! `use crate::crowd::…` anywhere; a name `crowd` re-exports counts as the child it comes from.
//! Paths written out inline in code, without `use`, are not seen.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Child module → the children it imports.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// The source of one child: its files' text, and for each whether `super::` in it names
/// `crowd` (the child's own file, or the `mod.rs` of a child folder).
type Sources = Vec<(String, bool)>;

/// Complete `use` declarations of `text`: the path after `use` (without `;`), and whether the
/// declaration starts at the beginning of a line (belongs to the file's own module, not to a
/// nested `mod tests`).
fn use_declarations(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut current: Option<(String, bool)> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if current.is_none() {
            let rest = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
                .iter()
                .find_map(|p| trimmed.strip_prefix(p));
            if let Some(rest) = rest {
                current = Some((String::new(), !line.starts_with(char::is_whitespace)));
                current.as_mut().expect("just set").0.push_str(rest);
            }
        } else if let Some((path, _)) = current.as_mut() {
            path.push(' ');
            path.push_str(trimmed);
        }
        if let Some((path, top)) = current.take_if(|(path, _)| path.ends_with(';')) {
            out.push((normalize(path.trim_end_matches(';')), top));
        }
    }
    out
}

/// `path` with single spaces, and none around `::`, braces and commas (`a as b` keeps its).
fn normalize(path: &str) -> String {
    let mut path = path.split_whitespace().collect::<Vec<_>>().join(" ");
    for (spaced, tight) in [(":: ", "::"), (" ::", "::"), ("{ ", "{"), (" }", "}")] {
        path = path.replace(spaced, tight);
    }
    path.replace(", ", ",")
        .replace(" ,", ",")
        .replace(",}", "}")
}

/// The items of a use tree's first level: `a::b` → [`a::b`], `{a::b,c}` → [`a::b`, `c`].
fn first_level(tree: &str) -> Vec<&str> {
    let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) else {
        return vec![tree];
    };
    let (mut depth, mut start, mut items) = (0, 0, Vec::new());
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items.into_iter().filter(|s| !s.is_empty()).collect()
}

/// The names `mod_rs` re-exports from each child (`pub use ring::{PaletteRing, Slot};`).
fn reexports(mod_rs: &str, children: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for (path, _) in use_declarations(mod_rs) {
        let Some((child, tree)) = path.split_once("::") else {
            continue;
        };
        if !children.contains(child) {
            continue;
        }
        for item in first_level(tree) {
            let name = item.rsplit_once(" as ").map_or(item, |(_, alias)| alias);
            let name = name.rsplit("::").next().unwrap_or(name);
            names.insert(name.to_string(), child.to_string());
        }
    }
    names
}

/// Who imports whom among the children.
fn import_graph(mod_rs: &str, children: &BTreeMap<String, Sources>) -> Graph {
    let names: BTreeSet<String> = children.keys().cloned().collect();
    let exported = reexports(mod_rs, &names);
    let mut graph = Graph::new();
    for (child, sources) in children {
        let edges = graph.entry(child.clone()).or_default();
        for (text, super_is_crowd) in sources {
            for (path, top) in use_declarations(text) {
                let tree = match path.strip_prefix("super::") {
                    Some(tree) if *super_is_crowd && top => tree,
                    _ => match path.strip_prefix("crate::crowd::") {
                        Some(tree) => tree,
                        None => continue,
                    },
                };
                for item in first_level(tree) {
                    let first = item.split("::").next().unwrap_or(item);
                    let first = first.split(" as ").next().unwrap_or(first);
                    let target = if names.contains(first) {
                        first
                    } else if let Some(from) = exported.get(first) {
                        from.as_str()
                    } else {
                        panic!("{child}: cannot tell which child `{item}` comes from");
                    };
                    if target != child {
                        edges.insert(target.to_string());
                    }
                }
            }
        }
    }
    graph
}

/// A cycle of `graph`, as the path that closes it (`a → b → a`), if there is one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit<'a>(
        node: &'a str,
        graph: &'a Graph,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut cycle: Vec<String> = path[at..].iter().map(|n| n.to_string()).collect();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

/// The children of the module folder `dir`: `name.rs` files and `name/` folders (whose
/// `mod.rs` names `crowd` as `super`; their other files reach it only as `crate::crowd`).
fn read_children(dir: &Path) -> BTreeMap<String, Sources> {
    fn read_folder(dir: &Path, sources: &mut Sources) {
        for entry in std::fs::read_dir(dir).expect("readable folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                read_folder(&path, sources);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("readable source");
                sources.push((text, false));
            }
        }
    }
    let mut children = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("readable folder").flatten() {
        let path = entry.path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("UTF-8 name");
        let mut sources = Sources::new();
        if path.is_dir() {
            let own = std::fs::read_to_string(path.join("mod.rs")).expect("a mod.rs");
            sources.push((own, true));
            for entry in std::fs::read_dir(&path).expect("readable folder").flatten() {
                let sub = entry.path();
                if sub.is_dir() {
                    read_folder(&sub, &mut sources);
                } else if sub.file_name().is_some_and(|n| n != "mod.rs") {
                    let text = std::fs::read_to_string(&sub).expect("readable source");
                    sources.push((text, false));
                }
            }
        } else if path.extension().is_some_and(|e| e == "rs") && name != "mod" {
            sources.push((std::fs::read_to_string(&path).expect("readable"), true));
        } else {
            continue;
        }
        children.insert(name.to_string(), sources);
    }
    children
}

#[test]
fn crowd_children_import_each_other_one_way() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/crowd");
    let mod_rs = std::fs::read_to_string(dir.join("mod.rs")).expect("crowd/mod.rs");
    let graph = import_graph(&mod_rs, &read_children(&dir));
    // The reader sees what is there: the ring lives in a region, the crowd writes into a ring.
    assert!(graph["ring"].contains("region"), "{graph:?}");
    assert!(graph["system"].contains("ring"), "{graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "the children of crowd import each other in a circle: {}",
            cycle.join(" → ")
        );
    }
}

#[test]
fn a_cycle_through_a_reexport_or_a_test_module_is_found() {
    let mod_rs = "mod region;\nmod ring;\npub use ring::{PaletteRing, RingError as Error};\n";
    let child = |text: &str| vec![(text.to_string(), true)];
    let mut children = BTreeMap::from([
        (
            "ring".to_string(),
            child("use super::region::{\n    MappedRegion,\n};\n"),
        ),
        (
            "region".to_string(),
            child("use std::ptr;\nuse super::Error;\n"),
        ),
    ]);
    let graph = import_graph(mod_rs, &children);
    assert_eq!(
        find_cycle(&graph).expect("a cycle"),
        ["region", "ring", "region"]
    );
    // `super` inside a nested module is the child itself; `crate::crowd` is still crowd.
    children.insert(
        "region".to_string(),
        child("mod tests {\n    use super::*;\n    use crate::crowd::{ring::PaletteRing};\n}\n"),
    );
    let graph = import_graph(mod_rs, &children);
    assert!(graph["region"].contains("ring"), "{graph:?}");
    assert!(find_cycle(&graph).is_some());
    children.insert("region".to_string(), child("use super::ring;\n"));
    children.insert("ring".to_string(), child("use std::fmt;\n"));
    assert_eq!(find_cycle(&import_graph(mod_rs, &children)), None);
}
