//! `cargo xtask tidy`: the repository's hygiene checks, run in CI.
//!
//! * **No measurement notes in the sources' comments.** Measurements rot in
//!   comments (they contradict each other after a few tunings); they belong
//!   in `docs/tuning.md`, and the code keeps one line of why with a link.
//!   A note is a comment line with a before/after figure (`12.1 M -> 11.9 M`),
//!   the word "measured", or a count of nodes, positions or instructions in
//!   K, M or G.
//! * **Every source file in ARCHITECTURE.md's code map**: each `.rs` file
//!   under `crates/NAME/src` is named (its path under `src/`, or its file
//!   name) in ARCHITECTURE.md's section "Code map: `crates/NAME`".
//! * **No broken intra-doc links**: `cargo doc --workspace
//!   --document-private-items` with `-D rustdoc::broken_intra_doc_links`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether `line` (of a Rust source) is a comment carrying a measurement.
pub fn is_measurement_note(line: &str) -> bool {
    let Some(comment) = line.trim_start().strip_prefix("//") else { return false };
    let lower = comment.to_lowercase();
    if lower.contains("measured") {
        return true;
    }
    let words: Vec<&str> = comment.split_whitespace().collect();
    let is_number = |w: &str| {
        let w = w.trim_matches(|c: char| matches!(c, '(' | ')' | ',' | ';' | ':'));
        !w.is_empty()
            && w.chars().next().is_some_and(|c| c.is_ascii_digit())
            && w.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '%' | 'x' | 'K' | 'M' | 'G'))
    };
    let is_unit = |w: &str| matches!(w, "K" | "M" | "G" | "ms" | "s" | "µs" | "us" | "ns" | "%" | "x");
    for (i, &word) in words.iter().enumerate() {
        if word == "->" || word == "→" {
            // A number (maybe with a unit word) before the arrow and a
            // number after it.
            let before =
                i >= 1 && (is_number(words[i - 1]) || (i >= 2 && is_unit(words[i - 1]) && is_number(words[i - 2])));
            let after = words.get(i + 1).is_some_and(|w| is_number(w));
            if before && after {
                return true;
            }
        }
        let counted = words.get(i + 2).is_some_and(|w| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric());
            matches!(w, "nodes" | "positions" | "instructions")
        });
        if is_number(word) && words.get(i + 1).is_some_and(|&w| matches!(w, "K" | "M" | "G")) && counted {
            return true;
        }
    }
    false
}

/// The `.rs` files under `dir`, recursively, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The crates under `root/crates` that have a `src` directory.
fn crates(root: &Path) -> Vec<(String, PathBuf)> {
    let mut crates: Vec<(String, PathBuf)> = std::fs::read_dir(root.join("crates"))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.join("src").is_dir())
                .map(|p| (p.file_name().unwrap_or_default().to_string_lossy().into_owned(), p.join("src")))
                .collect()
        })
        .unwrap_or_default();
    crates.sort();
    crates
}

/// The measurement notes in the sources: `path:line: text` each.
pub fn measurement_notes(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for (_, src) in crates(root) {
        for file in rust_files(&src) {
            let Ok(text) = std::fs::read_to_string(&file) else { continue };
            for (number, line) in text.lines().enumerate() {
                if is_measurement_note(line) {
                    let path = file.strip_prefix(root).unwrap_or(&file).display();
                    found.push(format!("{path}:{}: {}", number + 1, line.trim()));
                }
            }
        }
    }
    found
}

/// The text of ARCHITECTURE.md's section "Code map: `crates/NAME`" (up to
/// the next `## ` heading), if there is one.
pub fn code_map_section<'a>(architecture: &'a str, name: &str) -> Option<&'a str> {
    let heading = format!("## Code map: `crates/{name}`");
    let start = architecture.find(&heading)? + heading.len();
    let rest = &architecture[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    Some(&rest[..end])
}

/// The source files the code map does not name: `crates/NAME/src/PATH`
/// each.
pub fn unmapped_files(root: &Path, architecture: &str) -> Vec<String> {
    let mut missing = Vec::new();
    for (name, src) in crates(root) {
        let section = code_map_section(architecture, &name);
        for file in rust_files(&src) {
            let relative = file.strip_prefix(&src).unwrap_or(&file).to_string_lossy().replace('\\', "/");
            let base = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
            let named = section.is_some_and(|s| {
                [format!("`{relative}`"), format!("`src/{relative}`"), format!("`{base}`")]
                    .iter()
                    .any(|n| s.contains(n))
            });
            if !named {
                missing.push(format!("crates/{name}/src/{relative}"));
            }
        }
    }
    missing
}

/// Runs the checks; `Err` naming every failure.
pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let skip_doc = match args {
        [] => false,
        [flag] if flag == "--no-doc" => true,
        _ => return Err(format!("tidy: unknown arguments {args:?} (only --no-doc)")),
    };
    let mut failures = Vec::new();
    let notes = measurement_notes(root);
    if notes.is_empty() {
        println!("tidy: no measurement notes in crates/*/src comments");
    } else {
        failures.push(format!(
            "{} measurement note(s) in source comments (move them to docs/tuning.md, keep one line of why):\n  {}",
            notes.len(),
            notes.join("\n  ")
        ));
    }
    let architecture =
        std::fs::read_to_string(root.join("ARCHITECTURE.md")).map_err(|e| format!("ARCHITECTURE.md: {e}"))?;
    let unmapped = unmapped_files(root, &architecture);
    if unmapped.is_empty() {
        println!("tidy: every source file is in ARCHITECTURE.md's code map");
    } else {
        failures.push(format!("source files missing from ARCHITECTURE.md's code map:\n  {}", unmapped.join("\n  ")));
    }
    if !skip_doc {
        println!("tidy: cargo doc --workspace --no-deps --document-private-items (broken intra-doc links are errors)");
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(root)
            .args(["doc", "--workspace", "--no-deps", "--document-private-items", "--quiet"])
            .env("RUSTDOCFLAGS", "-D rustdoc::broken_intra_doc_links")
            .status()
            .map_err(|e| format!("cargo doc: {e}"))?;
        if !status.success() {
            failures.push("cargo doc found broken intra-doc links (see above)".into());
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("\n\n")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measurement_notes_are_recognised() {
        for note in [
            "    // corpus 12.1 M -> 11.9 M nodes",
            "/// Measured with the command (one thread)",
            "//! (dev 204.5 -> 198.9 M, hard 73.8 -> 74.3 M)",
            "    // 0.80 s -> 0.75 s",
            "    /// counted 5.1 M nodes without",
            "// 3.1 G instructions, 85% of them",
        ] {
            assert!(is_measurement_note(note), "{note}");
        }
        for line in [
            "    // Shows the counts (at most every 100 ms).",
            "/// `1234` as `1.2 ms`, and so on.",
            "let x = a -> b; // not a comment with numbers",
            "    // the bound doubles -> the depth grows",
            "    // depth 1, 3, 5, ...",
            "let s = \"12 M -> 3 M\";",
        ] {
            assert!(!is_measurement_note(line), "{line}");
        }
    }

    #[test]
    fn the_code_map_is_read_by_section() {
        let architecture = "# A\n## Code map: `crates/a`\n| `lib.rs` | x |\n| `phase/b.rs` | y |\n## Code map: `crates/c`\n| `d.rs` |\n";
        let a = code_map_section(architecture, "a").unwrap();
        assert!(a.contains("`phase/b.rs`") && !a.contains("d.rs"));
        assert!(code_map_section(architecture, "e").is_none());
    }

    /// The repository itself is tidy (the doc build runs in CI through
    /// `cargo xtask tidy`).
    #[test]
    fn the_repository_is_tidy() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        assert_eq!(measurement_notes(root), Vec::<String>::new());
        let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        assert_eq!(unmapped_files(root, &architecture), Vec::<String>::new());
    }
}
