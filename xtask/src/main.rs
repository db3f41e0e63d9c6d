//! `cargo xtask`: project automation. Run `cargo xtask help` for the tasks.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

fn gen_magics(check: bool) -> Result<(), String> {
    let path = workspace_root().join(xtask::magics::GENERATED_PATH);
    let text = xtask::magics::generate();
    if check {
        let current = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if current != text {
            return Err(format!("{} is stale: run `cargo xtask gen-magics`", path.display()));
        }
        println!("{} is up to date", path.display());
    } else {
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen-magics") => gen_magics(args.iter().any(|a| a == "--check")),
        _ => Err("usage: cargo xtask gen-magics [--check]".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
