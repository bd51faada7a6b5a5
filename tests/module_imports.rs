//! No two source files import each other.
//!
//! When `a.rs` uses something from `b.rs` and `b.rs` uses something from `a.rs`, neither can be
//! read, tested or moved without the other: the pair is one module split across two files.
//! Shared items belong to whichever of the two owns them, or in a third file both import.
//!
//! The check reads the source, not the compiler's view: the module tree is followed from the
//! crate roots through `mod name;` declarations, and every `use` tree and every path starting
//! with `crate::`, `super::` or `self::` is resolved to the file of the deepest module it
//! names (an item re-exported by a `mod.rs` counts as that `mod.rs`'s). Comments, strings and
//! `pub(in path)` visibilities are not references. A parent module and its direct child may
//! refer to each other freely: `mod x; pub use x::Y;` in one and `use super::Z` in the other
//! is the module tree itself.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// Pairs tolerated while they are being fixed elsewhere, as `(a, b)` with `a < b`, named as
/// the failure names them. None are known: the only pairs this test found when it was written
/// were the five fixed with it. A pair listed here that no longer exists fails the test, so
/// the list cannot go stale.
const KNOWN: &[(&str, &str)] = &[
    // being fixed
];

/// The crate roots: the library and the `throng` program.
const ROOTS: &[&str] = &["src/lib.rs", "src/main.rs"];

#[test]
fn no_two_files_import_each_other() -> Result<(), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tree = Tree::read(ROOTS, |p| fs::read_to_string(dir.join(p)).ok())?;

    // Files the tree does not reach (a `#[path]` module, a new crate root) would escape the
    // check unseen.
    let mut on_disk = Vec::new();
    rust_files(dir, Path::new("src"), &mut on_disk)?;
    let unreached: Vec<String> = on_disk
        .iter()
        .filter(|f| !tree.files.contains_key(*f))
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        unreached.is_empty(),
        "not reached from {ROOTS:?} through `mod` declarations, so not checked: {unreached:?}"
    );

    let found = tree.circles();
    let known: BTreeSet<(String, String)> = KNOWN
        .iter()
        .map(|&(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|c| !known.contains(&c.files))
        .map(Circle::to_string)
        .collect();
    assert!(
        new.is_empty(),
        "files that import each other (move what they share to the file that owns it, or to a \
         new file both import):\n{}",
        new.join("\n")
    );
    let fixed: Vec<_> = known
        .iter()
        .filter(|k| !found.iter().any(|c| &c.files == *k))
        .collect();
    assert!(
        fixed.is_empty(),
        "no longer import each other; remove them from KNOWN: {fixed:?}"
    );
    Ok(())
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
    /// For each file, the files it refers to, each with the first reference as evidence.
    edges: BTreeMap<PathBuf, BTreeMap<PathBuf, Evidence>>,
}

/// Where one file first refers to another: the line and the path as written.
#[derive(Clone, Debug)]
struct Evidence {
    line: usize,
    path: String,
}

/// Two files that refer to each other, named in order, with one reference each way.
#[derive(Debug)]
struct Circle {
    files: (String, String),
    there: Evidence,
    back: Evidence,
}

impl std::fmt::Display for Circle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (a, b) = &self.files;
        write!(
            f,
            "  {a} <-> {b}\n    {a}:{} {}\n    {b}:{} {}",
            self.there.line, self.there.path, self.back.line, self.back.path
        )
    }
}

impl Tree {
    /// Follows `mod name;` from each root. `read` gives a file's text by its path relative to
    /// the package, `None` when there is no such file.
    fn read(
        roots: &[&'static str],
        read: impl Fn(&Path) -> Option<String>,
    ) -> Result<Self, String> {
        let mut files = BTreeMap::new();
        let mut parsed = Vec::new();
        let mut queue: Vec<(PathBuf, Module)> = roots
            .iter()
            .map(|&root| (PathBuf::from(root), (root, Vec::new())))
            .collect();
        while let Some((file, module)) = queue.pop() {
            let text = read(&file).ok_or_else(|| format!("{}: cannot be read", file.display()))?;
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
        let mut tree = Tree {
            files,
            modules,
            edges: BTreeMap::new(),
        };
        for (file, (root, path), source) in parsed {
            let mut edges = BTreeMap::new();
            for r in &source.references {
                let mut from = path.clone();
                from.extend(r.scope.iter().cloned());
                if let Some(target) = tree.resolve(root, &from, &r.path)
                    && target != file
                {
                    edges.entry(target).or_insert_with(|| Evidence {
                        line: r.line,
                        path: r.path.join("::"),
                    });
                }
            }
            tree.edges.insert(file, edges);
        }
        Ok(tree)
    }

    /// The file holding what `path` names when written in module `from` of crate `root`:
    /// the deepest file module the path goes through. `None` for paths that are not anchored
    /// at `crate`, `super` or `self` (external crates, or names brought in by a `use`, which
    /// is itself a reference).
    fn resolve(&self, root: &'static str, from: &[String], path: &[String]) -> Option<PathBuf> {
        let (first, rest) = path.split_first()?;
        let mut at: Vec<String> = match first.as_str() {
            "crate" | "$crate" => Vec::new(),
            "self" => from.to_vec(),
            "super" => from.split_last()?.1.to_vec(),
            _ => return None,
        };
        for segment in rest {
            match segment.as_str() {
                "super" => {
                    at.pop()?;
                }
                "self" => {}
                name => {
                    at.push(name.to_string());
                    if !self.modules.contains_key(&(root, at.clone())) {
                        // An item (or an inline module) of the module reached so far.
                        at.pop();
                        break;
                    }
                }
            }
        }
        // `at` may end inside an inline module (`mod tests { .. }`): its file is the
        // nearest enclosing file module.
        (0..=at.len())
            .rev()
            .find_map(|n| self.modules.get(&(root, at[..n].to_vec())))
            .cloned()
    }

    /// Every pair of files that refer to each other, other than a parent and its child.
    fn circles(&self) -> Vec<Circle> {
        let mut found = Vec::new();
        for (a, targets) in &self.edges {
            for (b, there) in targets {
                let back = self.edges.get(b).and_then(|t| t.get(a));
                if let Some(back) = back
                    && a < b
                    && !self.parent_and_child(a, b)
                {
                    found.push(Circle {
                        files: (a.display().to_string(), b.display().to_string()),
                        there: there.clone(),
                        back: back.clone(),
                    });
                }
            }
        }
        found
    }

    /// Whether one of the files is the module directly containing the other.
    fn parent_and_child(&self, a: &Path, b: &Path) -> bool {
        let (Some((ra, pa)), Some((rb, pb))) = (self.files.get(a), self.files.get(b)) else {
            return false;
        };
        let directly_under =
            |p: &[String], c: &[String]| c.len() == p.len() + 1 && c.starts_with(p);
        ra == rb && (directly_under(pa, pb) || directly_under(pb, pa))
    }
}

/// What one file declares and refers to.
#[derive(Debug, Default)]
struct Source {
    /// `mod name;` declarations, each as the inline modules around it and then its name.
    children: Vec<Vec<String>>,
    /// Paths that may name another module.
    references: Vec<Reference>,
}

/// A path as written, with the inline modules it is written in (relative to its file).
#[derive(Debug)]
struct Reference {
    scope: Vec<String>,
    path: Vec<String>,
    line: usize,
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
                    let line = tokens[k].line;
                    k += 1;
                    let mut paths = Vec::new();
                    use_tree(&tokens, &mut k, Vec::new(), &mut paths);
                    for path in paths {
                        source.references.push(Reference {
                            scope: names(&scope),
                            path,
                            line,
                        });
                    }
                    // The tree's braces are not blocks: skip to the end of the item.
                    while k < tokens.len() && tokens[k].kind != Kind::Punct(';') {
                        k += 1;
                    }
                }
                (Kind::Ident(first), _)
                    if matches!(first.as_str(), "crate" | "$crate" | "super" | "self")
                        && is(k + 1, Kind::PathSep)
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
/// every path it names to `out`, each prefixed with `prefix`. A trailing `self` (`a::{self}`)
/// names `a`.
fn use_tree(tokens: &[Token], k: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
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
    if tokens
        .get(*k)
        .is_some_and(|t| t.kind == Kind::Ident("as".into()))
    {
        *k += 2;
    }
    if !path.is_empty() {
        out.push(path);
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

/// Paths of one source text as written, each after the inline modules it is in
/// (`tests/super::x`).
fn paths(text: &str) -> Vec<String> {
    Source::parse(text)
        .references
        .iter()
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
}

#[test]
fn inline_modules_scope_their_paths_and_declarations() {
    let text = "mod a; mod b { mod c; fn f() { super::x::Y; } } const Z: u8 = self::w::V;";
    let source = Source::parse(text);
    assert_eq!(source.children, [vec!["a"], vec!["b", "c"]]);
    assert_eq!(paths(text), ["b/super::x::Y", "self::w::V"]);
}

/// A small tree with one circle between siblings, one between cousins, and parent and child
/// referring to each other (which is allowed).
#[test]
fn circles_are_found_between_files_not_between_parent_and_child() {
    let files: HashMap<&str, &str> = HashMap::from([
        ("src/lib.rs", "mod a; mod b; use a::T;"),
        (
            "src/a/mod.rs",
            "mod x; mod y; pub use self::x::T; use crate::b::p;",
        ),
        ("src/a/x.rs", "use super::y::U; fn f() { super::S; }"),
        (
            "src/a/y.rs",
            "use crate::a::x; mod tests { use super::super::x; }",
        ),
        ("src/b.rs", "pub mod p;"),
        ("src/b/p.rs", "fn f() { crate::a::S; }"),
    ]);
    let tree = Tree::read(&["src/lib.rs"], |p| {
        files.get(p.to_str()?).map(|t| t.to_string())
    })
    .expect("a complete tree");
    let found: Vec<_> = tree.circles().into_iter().map(|c| c.files).collect();
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        found,
        [
            pair("src/a/mod.rs", "src/b/p.rs"),
            pair("src/a/x.rs", "src/a/y.rs")
        ]
    );
}
