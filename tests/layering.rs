//! The layering of `src/`, checked in one place:
//!
//! - **No import circle among the children of any folder.** For every folder of `src/` (and
//!   `src/` itself), its children are its files and its subfolders; when a file of child `a`
//!   refers to a file of child `b`, `a` depends on `b`. No chain of such dependencies may lead
//!   back to where it started, whatever its length: children that depend on each other, even
//!   through a third, are one room split in several, none of which can be read, tested or
//!   moved alone. The folder's own `mod.rs` counts as one more child (`mod.rs`): a child that
//!   leans on what `mod.rs` defines while `mod.rs` uses that child is a circle too, so what
//!   the children share lives in a file of its own and `mod.rs` only declares, re-exports
//!   and wires them.
//! - **The layer rules.** `anim`, `asset` and `crowd` know nothing of Vulkan (and `anim` and
//!   `asset` nothing of threads, `anim` nothing of files), `scene` is math only, and the
//!   device floor of the renderer (`gpu/device`) knows nothing of crowds, scenes or passes:
//!   each listed as the paths and crates its code may not name ([`RULES`]). Test code may
//!   name anything.
//!
//! The check reads the source, not the compiler's view: the module tree is followed from the
//! crate roots through `mod name;` declarations (a file pasted into a module with
//! `include!("name.rs")` is read as part of it), and every `use` tree and every path starting
//! with `crate::`, `super::`, `self::` or a child module's name is resolved to the file that
//! defines what it names, following re-exports (`pub use`) to the file they come from.
//! Comments, strings and `pub(in path)` visibilities are not references.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// The crate roots: the library and the `throng` program.
const ROOTS: &[&str] = &["src/lib.rs", "src/main.rs"];

/// The crates that talk to Vulkan or a window.
const VULKAN: &[&str] = &[
    "ash",
    "ash_window",
    "gpu_allocator",
    "raw_window_handle",
    "renderdoc",
    "winit",
];

/// What the code of a folder may not name: modules of this crate (as `crate::...` paths) and
/// external crates.
struct Rule {
    folder: &'static str,
    why: &'static str,
    modules: &'static [&'static str],
    crates: &'static [&'static [&'static str]],
}

/// The layer rules (docs/architecture.md, "Module map").
const RULES: &[Rule] = &[
    Rule {
        folder: "src/anim",
        why: "the animation core knows nothing of files, Vulkan or threads",
        modules: &["asset", "crowd", "gpu", "scene"],
        crates: &[VULKAN, &["rayon", "std::fs"]],
    },
    Rule {
        folder: "src/asset",
        why: "the loaders know nothing of Vulkan or threads",
        modules: &["crowd", "gpu", "scene"],
        crates: &[VULKAN, &["rayon"]],
    },
    Rule {
        folder: "src/crowd",
        why: "the crowd knows nothing of Vulkan (memory and waits come through its traits)",
        modules: &["asset", "gpu", "scene"],
        crates: &[VULKAN],
    },
    Rule {
        folder: "src/scene",
        why: "placing a crowd is math only, and what moves it (motion) builds on it",
        modules: &["gpu", "motion"],
        crates: &[VULKAN],
    },
    Rule {
        folder: "src/motion",
        why: "how a crowd moves (rules, files, hosts) knows nothing of Vulkan (the renderer \
              reads it)",
        modules: &["gpu"],
        crates: &[VULKAN],
    },
    Rule {
        folder: "src/gpu/device",
        why: "the device floor knows nothing of crowds or scenes",
        modules: &["crowd", "scene"],
        crates: &[],
    },
];

/// A floor of the renderer: the folder, and the only parts of the renderer (`gpu::...`) its
/// code may use, itself included. The renderer's root (`gpu/mod.rs`) only declares and
/// re-exports; a name reached through a re-export counts where it is defined.
struct Floor {
    folder: &'static str,
    why: &'static str,
    may_use: &'static [&'static str],
}

/// The renderer's floors, bottom up (`src/gpu/mod.rs`, docs/architecture.md): each uses only
/// those below it.
const FLOORS: &[Floor] = &[
    Floor {
        folder: "src/gpu/device",
        why: "the device floor stands on nothing of the renderer",
        may_use: &["gpu::device"],
    },
    Floor {
        folder: "src/gpu/graph",
        why: "the graph is generic: it knows the device, no frame or pass",
        may_use: &["gpu::graph", "gpu::device"],
    },
    Floor {
        folder: "src/gpu/frame",
        why: "the frame floor is what every pass stands on and knows no feature",
        may_use: &["gpu::frame", "gpu::graph", "gpu::device"],
    },
    Floor {
        folder: "src/gpu/features",
        why: "a feature stands on the frame, the graph and the device, never on the renderer \
              that composes it",
        may_use: &["gpu::features", "gpu::frame", "gpu::graph", "gpu::device"],
    },
    Floor {
        folder: "src/gpu/renderer",
        why: "the renderer is the top floor",
        may_use: &["gpu"],
    },
];

#[test]
fn every_floor_uses_only_the_floors_below() -> Result<(), String> {
    let tree = source_tree()?;
    let broken = tree.broken_floors(FLOORS);
    assert!(
        broken.is_empty(),
        "code that names a floor of the renderer above its own:\n{}",
        broken.join("\n")
    );
    // Every folder of the renderer is a floor: a new one is placed on purpose.
    let gpu = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gpu");
    for entry in fs::read_dir(&gpu).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let folder = format!("src/gpu/{name}");
        assert!(
            name == "mod.rs" || FLOORS.iter().any(|f| f.folder == folder),
            "{folder} is not one of the renderer's floors"
        );
    }
    Ok(())
}

/// The only files that record a pipeline barrier: the device floor's one-off uploads, and
/// the two executors of a graph's plan (a frame's, and work recorded once outside a frame).
/// Every other barrier is derived by the graph from what passes declare.
const BARRIER_RECORDERS: &[&str] = &[
    "src/gpu/device/",
    "src/gpu/frame/recording/frame.rs",
    "src/gpu/graph/one_off.rs",
];

#[test]
fn only_the_graphs_executors_record_barriers() -> Result<(), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(dir, Path::new("src"), &mut files)?;
    let mut found = Vec::new();
    for file in files {
        let shown = file.display().to_string();
        if BARRIER_RECORDERS.iter().any(|r| shown.starts_with(r)) {
            continue;
        }
        let text = fs::read_to_string(dir.join(&file)).map_err(|e| format!("{shown}: {e}"))?;
        for (k, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("cmd_pipeline_barrier") {
                found.push(format!("  {shown}:{}", k + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "barriers recorded by hand (declare the uses to a graph instead):\n{}",
        found.join("\n")
    );
    Ok(())
}

#[test]
fn no_folder_has_an_import_circle() -> Result<(), String> {
    let tree = source_tree()?;
    let circles = tree.circles();
    assert!(
        circles.is_empty(),
        "import circles among the children of a folder (move what they share to the child \
         that owns it, or to a new child the others import):\n{}",
        circles.join("\n")
    );
    Ok(())
}

#[test]
fn every_layer_keeps_its_rules() -> Result<(), String> {
    let tree = source_tree()?;
    let broken = tree.broken_rules(RULES);
    assert!(
        broken.is_empty(),
        "code that names what its layer may not:\n{}",
        broken.join("\n")
    );
    Ok(())
}

/// The library's and the program's module trees, with every file under `src/` reached.
fn source_tree() -> Result<Tree, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tree = Tree::read(ROOTS, |p| fs::read_to_string(dir.join(p)).ok())?;
    // Files the tree does not reach (a `#[path]` module, a new crate root) would escape the
    // check unseen.
    let mut on_disk = Vec::new();
    rust_files(dir, Path::new("src"), &mut on_disk)?;
    let unreached: Vec<String> = on_disk
        .iter()
        .filter(|f| !tree.files.contains_key(*f) && !tree.included.contains(*f))
        .map(|f| f.display().to_string())
        .collect();
    if unreached.is_empty() {
        Ok(tree)
    } else {
        Err(format!(
            "not reached from {ROOTS:?} through `mod` declarations or `include!`, so not \
             checked: {unreached:?}"
        ))
    }
}

/// Every `.rs` file under `dir/at`, as paths relative to `dir`.
fn rust_files(dir: &Path, at: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir.join(at)).map_err(|e| format!("{}: {e}", at.display()))?;
    for entry in entries {
        let name = entry
            .map_err(|e| format!("{}: {e}", at.display()))?
            .file_name();
        let path = at.join(name);
        if dir.join(&path).is_dir() {
            rust_files(dir, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// A module: its crate root and its path from that root (empty for the root itself).
type Module = (&'static str, Vec<String>);

/// The module tree of every crate root, and what each file refers to.
struct Tree {
    /// File (relative to the package) to the module it is.
    files: BTreeMap<PathBuf, Module>,
    /// The reverse, for resolving paths.
    modules: HashMap<Module, PathBuf>,
    /// Per module, the names it re-exports (`pub use a::B as C;`: `C`) and the paths they
    /// stand for, as written in that module.
    reexports: HashMap<Module, Vec<(String, Vec<String>)>>,
    /// For each file, the files it refers to, each with the first reference as evidence.
    edges: BTreeMap<PathBuf, BTreeMap<PathBuf, Evidence>>,
    /// For each file, what its code outside tests names: crate paths resolved to files, and
    /// external paths as written.
    names: BTreeMap<PathBuf, Vec<Named>>,
    /// Files a module's file pastes in with `include!("name.rs")` (read as part of it).
    included: BTreeSet<PathBuf>,
}

/// Where one file first refers to another: the line and the path as written.
#[derive(Clone, Debug)]
struct Evidence {
    line: usize,
    path: String,
}

/// One path a file's code outside tests names.
#[derive(Clone, Debug)]
struct Named {
    /// The module it resolves to in this crate (`crate::` paths only), else `None`.
    module: Option<Vec<String>>,
    /// As written.
    path: Vec<String>,
    line: usize,
}

impl Tree {
    /// Follows `mod name;` from each root. `read` gives a file's text by its path relative to
    /// the package, `None` when there is no such file.
    fn read(
        roots: &[&'static str],
        read: impl Fn(&Path) -> Option<String>,
    ) -> Result<Self, String> {
        let mut files = BTreeMap::new();
        let mut included = BTreeSet::new();
        let mut parsed = Vec::new();
        let mut queue: Vec<(PathBuf, Module)> = roots
            .iter()
            .map(|&root| (PathBuf::from(root), (root, Vec::new())))
            .collect();
        while let Some((file, module)) = queue.pop() {
            let mut text =
                read(&file).ok_or_else(|| format!("{}: cannot be read", file.display()))?;
            // A file pasted in with `include!` (next to the includer) is read as its text.
            let pasted: Vec<PathBuf> = text
                .split("include!(\"")
                .skip(1)
                .filter_map(|rest| rest.split_once('"'))
                .map(|(name, _)| file.parent().unwrap_or(Path::new("")).join(name))
                .collect();
            for path in pasted {
                if let Some(more) = read(&path) {
                    text.push('\n');
                    text.push_str(&more);
                    included.insert(path);
                }
            }
            let source = Source::parse(&text);
            // A file's children live in its own folder: `a/mod.rs` (or a root) declares
            // `a/x.rs`, `a.rs` declares `a/x.rs`.
            let stem = file.file_stem().unwrap_or_default();
            let folder = match file.parent() {
                Some(p) if stem == "mod" || roots.iter().any(|r| file == Path::new(r)) => {
                    p.to_path_buf()
                }
                Some(p) => p.join(stem),
                None => PathBuf::new(),
            };
            for child in &source.children {
                let at = child.iter().fold(folder.clone(), |d, s| d.join(s));
                let name = at.file_name().unwrap_or_default().to_os_string();
                let flat = at.with_file_name(format!("{}.rs", name.to_string_lossy()));
                let nested = at.join("mod.rs");
                let path = [flat, nested]
                    .into_iter()
                    .find(|p| read(p).is_some())
                    .ok_or_else(|| {
                        format!("{}: no file for `mod {}`", file.display(), child.join("::"))
                    })?;
                let mut inner = module.1.clone();
                inner.extend(child.iter().cloned());
                queue.push((path, (module.0, inner)));
            }
            files.insert(file.clone(), module.clone());
            parsed.push((file, module, source));
        }
        let modules = files.iter().map(|(f, m)| (m.clone(), f.clone())).collect();
        let reexports = parsed
            .iter()
            .map(|(_, module, source)| (module.clone(), source.reexports.clone()))
            .collect();
        let mut tree = Tree {
            files,
            modules,
            reexports,
            edges: BTreeMap::new(),
            names: BTreeMap::new(),
            included,
        };
        for (file, (root, path), source) in parsed {
            let test_file = file.file_stem().is_some_and(|s| s == "tests");
            let mut edges = BTreeMap::new();
            let mut names = Vec::new();
            for r in &source.references {
                let mut from = path.clone();
                from.extend(r.scope.iter().cloned());
                let target = tree.resolve(root, &from, &r.path, 0);
                // Test code may reach anywhere (a test of the animation core loads the
                // built-in character): it is neither a dependency nor bound by the rules.
                if test_file || r.in_tests {
                    continue;
                }
                match &target {
                    Some((target_file, target_module)) if *target_file != file => {
                        edges
                            .entry(target_file.clone())
                            .or_insert_with(|| Evidence {
                                line: r.line,
                                path: r.path.join("::"),
                            });
                        names.push(Named {
                            module: Some(target_module.clone()),
                            path: r.path.clone(),
                            line: r.line,
                        });
                    }
                    Some(_) => {}
                    None => names.push(Named {
                        module: None,
                        path: r.path.clone(),
                        line: r.line,
                    }),
                }
            }
            tree.edges.insert(file.clone(), edges);
            tree.names.insert(file, names);
        }
        Ok(tree)
    }

    /// The file and module holding what `path` names when written in module `from` of crate
    /// `root`: the deepest file module the path goes through, or, for a name that module
    /// re-exports, where the re-export comes from. `None` for paths that name no module of
    /// this crate (external crates, or names a `use` brought in, which is itself a reference).
    fn resolve(
        &self,
        root: &'static str,
        from: &[String],
        path: &[String],
        depth: usize,
    ) -> Option<(PathBuf, Vec<String>)> {
        let (first, rest) = path.split_first()?;
        let mut at: Vec<String> = match first.as_str() {
            "crate" | "$crate" => Vec::new(),
            "self" => from.to_vec(),
            "super" => from.split_last()?.1.to_vec(),
            // `child::x` names a child module of `from` (2018 paths).
            name => {
                let mut child = from.to_vec();
                child.push(name.to_string());
                if !self.modules.contains_key(&(root, child.clone())) {
                    return None;
                }
                return self.resolve(root, from, &[&["self".to_string()], path].concat(), depth);
            }
        };
        for (k, segment) in rest.iter().enumerate() {
            match segment.as_str() {
                "super" => {
                    at.pop()?;
                }
                "self" => {}
                name => {
                    at.push(name.to_string());
                    if self.modules.contains_key(&(root, at.clone())) {
                        continue;
                    }
                    at.pop();
                    // An item of the module reached so far: its own, or one it re-exports.
                    if depth < 8
                        && let Some((_, source)) = self
                            .reexports
                            .get(&(root, at.clone()))
                            .and_then(|r| r.iter().find(|(n, _)| n == name))
                    {
                        let mut onward = source.clone();
                        onward.extend(rest[k + 1..].iter().cloned());
                        if let Some(found) = self.resolve(root, &at, &onward, depth + 1) {
                            return Some(found);
                        }
                    }
                    break;
                }
            }
        }
        // `at` may end inside an inline module (`mod tests { .. }`): its file is the
        // nearest enclosing file module.
        (0..=at.len()).rev().find_map(|n| {
            self.modules
                .get(&(root, at[..n].to_vec()))
                .map(|f| (f.clone(), at[..n].to_vec()))
        })
    }

    /// Each folder's children that depend on each other in a circle, one line per circle
    /// with the references that close it.
    fn circles(&self) -> Vec<String> {
        // Folders: every parent of a file under src/, and src/ itself.
        let folders: BTreeSet<PathBuf> = self
            .files
            .keys()
            .flat_map(|f| f.ancestors().skip(1).map(Path::to_path_buf))
            .filter(|d| d.starts_with("src"))
            .collect();
        let mut found = Vec::new();
        for folder in &folders {
            // child -> child it depends on -> evidence (file, line, path).
            let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
            for (a, targets) in &self.edges {
                let Some(ca) = child_of(folder, a) else {
                    continue;
                };
                graph.entry(ca.clone()).or_default();
                for (b, e) in targets {
                    if let Some(cb) = child_of(folder, b)
                        && cb != ca
                    {
                        graph
                            .entry(ca.clone())
                            .or_default()
                            .entry(cb)
                            .or_insert_with(|| format!("{}:{} {}", a.display(), e.line, e.path));
                    }
                }
            }
            for cycle in cycles(&graph) {
                let steps: Vec<String> = cycle
                    .windows(2)
                    .map(|w| format!("    {} -> {}: {}", w[0], w[1], graph[&w[0]][&w[1]]))
                    .collect();
                found.push(format!(
                    "  in {}: {}\n{}",
                    folder.display(),
                    cycle.join(" -> "),
                    steps.join("\n")
                ));
            }
        }
        found
    }

    /// Every name a file's code outside tests may not use under `rules`, one line each.
    fn broken_rules(&self, rules: &[Rule]) -> Vec<String> {
        let mut broken = Vec::new();
        for (file, names) in &self.names {
            for rule in rules.iter().filter(|r| file.starts_with(r.folder)) {
                for n in names {
                    let written = n.path.join("::");
                    let module = n.module.as_ref().map(|m| m.join("::"));
                    let bad_module = module.as_ref().is_some_and(|m| {
                        rule.modules
                            .iter()
                            .any(|f| m == f || m.starts_with(&format!("{f}::")))
                    });
                    let bad_crate = n.module.is_none()
                        && rule
                            .crates
                            .iter()
                            .flat_map(|c| c.iter())
                            .any(|c| written == *c || written.starts_with(&format!("{c}::")));
                    if bad_module || bad_crate {
                        broken.push(format!(
                            "  {}:{} names {written}: {}",
                            file.display(),
                            n.line,
                            rule.why
                        ));
                    }
                }
            }
        }
        broken
    }
}

impl Tree {
    /// Where code under a floor names a part of the renderer that floor may not use.
    fn broken_floors(&self, floors: &[Floor]) -> Vec<String> {
        let mut broken = Vec::new();
        for (file, names) in &self.names {
            for floor in floors.iter().filter(|f| file.starts_with(f.folder)) {
                for n in names {
                    let Some(module) = n.module.as_ref().map(|m| m.join("::")) else {
                        continue;
                    };
                    let renderer = module == "gpu" || module.starts_with("gpu::");
                    let allowed = floor
                        .may_use
                        .iter()
                        .any(|f| module == *f || module.starts_with(&format!("{f}::")));
                    if renderer && !allowed {
                        broken.push(format!(
                            "  {}:{} names {}: {}",
                            file.display(),
                            n.line,
                            n.path.join("::"),
                            floor.why
                        ));
                    }
                }
            }
        }
        broken
    }
}

/// Which child of `folder` `file` belongs to: `x` for `folder/x.rs` and for anything under
/// `folder/x/`, `mod.rs` for the folder's own `mod.rs` (what it defines is one more room its
/// children may lean on, so a circle through it counts); `None` for a crate root in it and for
/// files outside it.
fn child_of(folder: &Path, file: &Path) -> Option<String> {
    let rest = file.strip_prefix(folder).ok()?;
    let mut parts = rest.components();
    let first = parts.next()?.as_os_str().to_string_lossy().into_owned();
    let nested = parts.next().is_some();
    if nested {
        return Some(first);
    }
    let stem = first.strip_suffix(".rs")?;
    match stem {
        "mod" => Some(first),
        "lib" | "main" => None,
        _ => Some(stem.to_string()),
    }
}

/// The circles of a dependency graph: for each strongly connected group of two or more
/// nodes, one closed walk through it (first node repeated at the end).
fn cycles(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    let nodes: Vec<&String> = graph.keys().collect();
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for next in graph.get(&n).into_iter().flat_map(|t| t.keys()) {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for &n in &nodes {
        if done.contains(n) || !reached[n].contains(n) {
            continue;
        }
        // Its group: the nodes it reaches that reach it back.
        let group: BTreeSet<String> = reached[n]
            .iter()
            .filter(|m| reached.get(m).is_some_and(|r| r.contains(n)))
            .cloned()
            .collect();
        done.extend(group.iter().cloned());
        // A shortest walk from n back to n inside the group (breadth first).
        let mut previous: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([n.clone()]);
        let mut closing = None;
        while let Some(at) = queue.pop_front() {
            for next in graph[&at].keys().filter(|m| group.contains(*m)) {
                if next == n {
                    closing = Some(at.clone());
                    break;
                }
                if !previous.contains_key(next) {
                    previous.insert(next.clone(), at.clone());
                    queue.push_back(next.clone());
                }
            }
            if closing.is_some() {
                break;
            }
        }
        let mut walk = vec![n.clone()];
        let mut at = closing.unwrap_or_else(|| n.clone());
        while &at != n {
            walk.push(at.clone());
            at = previous[&at].clone();
        }
        walk.push(n.clone());
        let last = walk.len() - 1;
        walk[1..last].reverse();
        out.push(walk);
    }
    out
}

/// What one file declares and refers to.
#[derive(Debug, Default)]
struct Source {
    /// `mod name;` declarations, each as the inline modules around it and then its name.
    children: Vec<Vec<String>>,
    /// Paths that may name another module or an external crate.
    references: Vec<Reference>,
    /// Names the file's own module re-exports (`pub use`), with the paths they stand for.
    reexports: Vec<(String, Vec<String>)>,
}

/// A path as written, with the inline modules it is written in (relative to its file).
#[derive(Debug)]
struct Reference {
    scope: Vec<String>,
    path: Vec<String>,
    line: usize,
    /// Written inside an inline `mod tests`.
    in_tests: bool,
}

impl Source {
    fn parse(text: &str) -> Self {
        let tokens = lex(text);
        let ident = |k: usize| match tokens.get(k).map(|t| &t.kind) {
            Some(Kind::Ident(s)) => Some(s.as_str()),
            _ => None,
        };
        let is = |k: usize, kind: Kind| tokens.get(k).is_some_and(|t| t.kind == kind);
        let mut source = Source::default();
        // Inline modules around the current token, each with the brace depth inside it.
        let mut scope: Vec<(String, usize)> = Vec::new();
        let names = |scope: &[(String, usize)]| -> Vec<String> {
            scope.iter().map(|(n, _)| n.clone()).collect()
        };
        let in_tests = |scope: &[(String, usize)]| scope.iter().any(|(n, _)| n == "tests");
        let mut depth = 0;
        let mut k = 0;
        while k < tokens.len() {
            match (&tokens[k].kind, ident(k + 1)) {
                (Kind::Punct('{'), _) => depth += 1,
                (Kind::Punct('}'), _) => {
                    depth -= 1;
                    scope.retain(|&(_, d)| d <= depth);
                }
                (Kind::Ident(kw), Some(name)) if kw == "mod" => {
                    if is(k + 2, Kind::Punct('{')) {
                        scope.push((name.to_string(), depth + 1));
                    } else {
                        let mut child = names(&scope);
                        child.push(name.to_string());
                        source.children.push(child);
                    }
                    k += 2;
                    continue;
                }
                // `pub(crate)`, `pub(super)`, `pub(in crate::a)`: who may see, not a use.
                (Kind::Ident(kw), _) if kw == "pub" && is(k + 1, Kind::Punct('(')) => {
                    while k < tokens.len() && tokens[k].kind != Kind::Punct(')') {
                        k += 1;
                    }
                }
                (Kind::Ident(kw), _) if kw == "use" => {
                    let public = k > 0
                        && (tokens[k - 1].kind == Kind::Ident("pub".into())
                            || tokens[k - 1].kind == Kind::Punct(')'));
                    let line = tokens[k].line;
                    k += 1;
                    let mut paths = Vec::new();
                    use_tree(&tokens, &mut k, Vec::new(), &mut paths);
                    for (path, alias) in paths {
                        if public && scope.is_empty() {
                            let name =
                                alias.unwrap_or_else(|| path.last().cloned().unwrap_or_default());
                            source.reexports.push((name, path.clone()));
                        }
                        source.references.push(Reference {
                            scope: names(&scope),
                            path,
                            line,
                            in_tests: in_tests(&scope),
                        });
                    }
                    // The tree's braces are not blocks: skip to the end of the item.
                    while k < tokens.len() && tokens[k].kind != Kind::Punct(';') {
                        k += 1;
                    }
                }
                (Kind::Ident(first), _)
                    if is(k + 1, Kind::PathSep)
                        && (k == 0 || tokens[k - 1].kind != Kind::PathSep) =>
                {
                    let line = tokens[k].line;
                    let mut path = vec![first.clone()];
                    while is(k + 1, Kind::PathSep)
                        && let Some(next) = ident(k + 2)
                    {
                        path.push(next.to_string());
                        k += 2;
                    }
                    source.references.push(Reference {
                        scope: names(&scope),
                        path,
                        line,
                        in_tests: in_tests(&scope),
                    });
                }
                _ => {}
            }
            k += 1;
        }
        source
    }
}

/// Reads one use tree at `tokens[*k]` (`a::b`, `a::*`, `a::{b, c::d}`, `a as b`), appending
/// every path it names to `out`, each prefixed with `prefix` and with its `as` name if it has
/// one. A trailing `self` (`a::{self}`) names `a`.
fn use_tree(
    tokens: &[Token],
    k: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix;
    loop {
        match tokens.get(*k).map(|t| &t.kind) {
            Some(Kind::Ident(s)) => {
                if s != "self" || path.is_empty() {
                    path.push(s.clone());
                }
                *k += 1;
            }
            Some(Kind::Punct('*')) => {
                *k += 1;
                break;
            }
            Some(Kind::Punct('{')) => {
                *k += 1;
                while let Some(t) = tokens.get(*k) {
                    match t.kind {
                        Kind::Punct('}') => {
                            *k += 1;
                            return;
                        }
                        Kind::Punct(',') => *k += 1,
                        _ => {
                            let before = *k;
                            use_tree(tokens, k, path.clone(), out);
                            // Anything else unexpected: step over it rather than loop.
                            if *k == before {
                                *k += 1;
                            }
                        }
                    }
                }
                return;
            }
            _ => break,
        }
        if tokens.get(*k).is_some_and(|t| t.kind == Kind::PathSep) {
            *k += 1;
        } else {
            break;
        }
    }
    let mut alias = None;
    if tokens
        .get(*k)
        .is_some_and(|t| t.kind == Kind::Ident("as".into()))
    {
        if let Some(Kind::Ident(name)) = tokens.get(*k + 1).map(|t| &t.kind) {
            alias = Some(name.clone());
        }
        *k += 2;
    }
    if !path.is_empty() {
        out.push((path, alias));
    }
}

/// A token of Rust source, as far as paths are concerned.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// An identifier or keyword (`$crate` included).
    Ident(String),
    /// `::`.
    PathSep,
    /// Any other punctuation, one character at a time.
    Punct(char),
}

#[derive(Debug)]
struct Token {
    kind: Kind,
    line: usize,
}

/// Splits `text` into tokens, dropping comments, string and character literals, lifetimes
/// and numbers: none of them can refer to a module.
fn lex(text: &str) -> Vec<Token> {
    let s: Vec<char> = text.chars().collect();
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    let ident_char = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    // Skips from `i` to just past `end`, counting lines; a backslash escapes the next char
    // when `escapes` is set.
    let skip_to = |i: &mut usize, line: &mut usize, end: &str, escapes: bool| {
        let end: Vec<char> = end.chars().collect();
        while *i < s.len() && !s[*i..].starts_with(&end) {
            if escapes && s[*i] == '\\' {
                *i += 1;
            }
            if s.get(*i) == Some(&'\n') {
                *line += 1;
            }
            *i += 1;
        }
        *i += end.len();
    };
    while i < s.len() {
        let c = s[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if at(i + 1) == '/' => {
                while i < s.len() && s[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                // Block comments nest.
                let mut nesting = 0;
                while i < s.len() {
                    if s[i] == '/' && at(i + 1) == '*' {
                        nesting += 1;
                        i += 2;
                    } else if s[i] == '*' && at(i + 1) == '/' {
                        nesting -= 1;
                        i += 2;
                        if nesting == 0 {
                            break;
                        }
                    } else {
                        line += usize::from(s[i] == '\n');
                        i += 1;
                    }
                }
            }
            '"' => {
                i += 1;
                skip_to(&mut i, &mut line, "\"", true);
            }
            '\'' => {
                if at(i + 1) == '\\' {
                    // An escaped character: its closing quote comes after the escape.
                    i += 3;
                    skip_to(&mut i, &mut line, "'", false);
                } else if at(i + 2) == '\'' {
                    i += 3;
                } else {
                    // A lifetime or a label; its name reads as an identifier, harmlessly.
                    i += 1;
                }
            }
            ':' if at(i + 1) == ':' => {
                out.push(Token {
                    kind: Kind::PathSep,
                    line,
                });
                i += 2;
            }
            c if c.is_ascii_digit() => {
                while ident_char(at(i)) || (at(i) == '.' && at(i + 1).is_ascii_digit()) {
                    i += 1;
                }
            }
            c if ident_char(c) || (c == '$' && ident_char(at(i + 1))) => {
                let start = i;
                i += 1;
                while ident_char(at(i)) {
                    i += 1;
                }
                let word: String = s[start..i].iter().collect();
                match (word.as_str(), at(i)) {
                    // Raw strings: `r"..."`, `br#"..."#`; `r#name` is a raw identifier.
                    ("r" | "br" | "cr", '"' | '#') => {
                        let hashes = s[i..].iter().take_while(|&&h| h == '#').count();
                        if at(i + hashes) == '"' {
                            i += hashes + 1;
                            let end = format!("\"{}", "#".repeat(hashes));
                            skip_to(&mut i, &mut line, &end, false);
                        } else {
                            i += hashes;
                        }
                    }
                    // `b"..."`, `c"..."` and `b'x'`: the quote is lexed next as a literal.
                    ("b" | "c", '"') | ("b", '\'') => {}
                    _ => out.push(Token {
                        kind: Kind::Ident(word),
                        line,
                    }),
                }
            }
            c if c.is_whitespace() => i += 1,
            c => {
                out.push(Token {
                    kind: Kind::Punct(c),
                    line,
                });
                i += 1;
            }
        }
    }
    out
}

/// Paths of one source text as written that may name a module, each after the inline modules
/// it is in (`tests/super::x`).
fn paths(text: &str) -> Vec<String> {
    Source::parse(text)
        .references
        .iter()
        .filter(|r| matches!(r.path[0].as_str(), "crate" | "super" | "self"))
        .map(|r| {
            let scope: String = r.scope.iter().map(|m| format!("{m}/")).collect();
            format!("{scope}{}", r.path.join("::"))
        })
        .collect()
}

#[test]
fn comments_strings_and_visibility_are_not_references() {
    let text = r##"
        // use super::a::B;
        /* crate::a::b /* nested */ super::c::d */
        let s = "super::e::f";
        let r = r#"crate::g::h"#;
        let q = '"'; let e = '\''; let b = b'"';
        fn f<'a>(x: &'a str) {}
        pub(in crate::i) fn g() {}
        let t = x::super::j::k;
        use super::kept::Item;
    "##;
    assert_eq!(paths(text), ["super::kept::Item"]);
}

#[test]
fn use_trees_are_read_path_by_path() {
    let text = "use super::{a::X, b::{self, c}, d as e, f::*}; use crate::g::{h::{i}};";
    assert_eq!(
        paths(text),
        [
            "super::a::X",
            "super::b",
            "super::b::c",
            "super::d",
            "super::f",
            "crate::g::h::i"
        ]
    );
    let reexports =
        Source::parse("pub use a::{B, c::D as E}; use f::G; mod t { pub use h::I; }").reexports;
    let names: Vec<&str> = reexports.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["B", "E"],
        "only the file's own public uses re-export"
    );
}

#[test]
fn inline_modules_scope_their_paths_and_declarations() {
    let text = "mod a; mod b { mod c; fn f() { super::x::Y; } } const Z: u8 = self::w::V;";
    let source = Source::parse(text);
    assert_eq!(source.children, [vec!["a"], vec!["b", "c"]]);
    assert_eq!(paths(text), ["b/super::x::Y", "self::w::V"]);
}

fn tree_of(files: &[(&str, &str)]) -> Tree {
    let files: HashMap<&str, &str> = files.iter().copied().collect();
    Tree::read(&["src/lib.rs"], |p| {
        files.get(p.to_str()?).map(|t| t.to_string())
    })
    .expect("a complete tree")
}

/// Circles of any length among a folder's children are found, through re-exports too, and
/// through the folder's `mod.rs`: what it defines is a room of its own.
#[test]
fn circles_of_any_length_are_found_among_a_folders_children() {
    let tree = tree_of(&[
        ("src/lib.rs", "mod a; mod b; use a::T;"),
        (
            "src/a/mod.rs",
            "mod x; mod y; mod z; pub use self::x::T; pub use x::W as V;",
        ),
        // x -> y -> z -> x: a circle of three, the last step through the re-export of W.
        ("src/a/x.rs", "use super::y::U;"),
        (
            "src/a/y.rs",
            "use crate::a::z; mod tests { use super::super::x; }",
        ),
        ("src/a/z.rs", "fn g() { super::V; }"),
        ("src/b.rs", "pub mod p;"),
        ("src/b/p.rs", "fn f() { crate::a::T; }"),
    ]);
    let found = tree.circles();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("  in src/a: x -> y -> z -> x"),
        "{}",
        found[0]
    );
    assert!(found[0].contains("src/a/z.rs:1 super::V"), "{}", found[0]);
    // A child leaning on what mod.rs defines, while mod.rs uses the child: a circle.
    let tree = tree_of(&[
        ("src/lib.rs", "mod a;"),
        ("src/a/mod.rs", "mod x; pub struct S; fn f() { x::run(); }"),
        ("src/a/x.rs", "fn run() { super::S; }"),
    ]);
    let found = tree.circles();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("  in src/a: mod.rs -> x -> mod.rs"),
        "{}",
        found[0]
    );
    // One way only: no circle.
    let tree = tree_of(&[
        ("src/lib.rs", "mod a;"),
        ("src/a/mod.rs", "mod x; mod y; pub use y::U;"),
        ("src/a/x.rs", "use super::U;"),
        ("src/a/y.rs", "pub struct U;"),
    ]);
    assert_eq!(tree.circles(), Vec::<String>::new());
}

/// A subfolder is one child of its parent folder: a circle between a file and a subfolder
/// counts, one between two files of the subfolder is found in the subfolder.
#[test]
fn a_subfolder_is_one_child() {
    let tree = tree_of(&[
        ("src/lib.rs", "mod a; mod b;"),
        ("src/a/mod.rs", "mod inner;"),
        ("src/a/inner.rs", "use crate::b::X;"),
        ("src/b.rs", "fn f() { crate::a::inner::Y; }"),
    ]);
    let found = tree.circles();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("  in src: a -> b -> a"),
        "{}",
        found[0]
    );
}

#[test]
fn floors_see_upward_names_through_re_exports_but_not_in_tests() {
    let tree = tree_of(&[
        ("src/lib.rs", "mod gpu;"),
        (
            "src/gpu/mod.rs",
            "mod frame; mod features; mod device; pub use features::Thing;",
        ),
        ("src/gpu/device.rs", ""),
        ("src/gpu/features.rs", "pub struct Thing;"),
        (
            "src/gpu/frame/mod.rs",
            "use crate::gpu::device::X; use crate::gpu::Thing; \
             mod tests { use crate::gpu::features::Other; }",
        ),
    ]);
    let floors = [Floor {
        folder: "src/gpu/frame",
        why: "below",
        may_use: &["gpu::frame", "gpu::device"],
    }];
    let broken = tree.broken_floors(&floors);
    assert_eq!(broken.len(), 1, "{broken:#?}");
    assert!(broken[0].contains("crate::gpu::Thing"), "{}", broken[0]);
}

#[test]
fn layer_rules_see_modules_and_crates_but_not_tests() {
    let tree = tree_of(&[
        ("src/lib.rs", "mod anim; mod gpu; mod text;"),
        (
            "src/anim/mod.rs",
            "use crate::gpu::Thing; use ash::vk; use crate::text::x; \
             mod tests { use crate::gpu::Other; }",
        ),
        ("src/gpu.rs", ""),
        ("src/text.rs", ""),
    ]);
    let broken = tree.broken_rules(&RULES[..1]);
    assert_eq!(broken.len(), 2, "{broken:#?}");
    assert!(broken[0].contains("crate::gpu::Thing"), "{}", broken[0]);
    assert!(broken[1].contains("ash::vk"), "{}", broken[1]);
}
