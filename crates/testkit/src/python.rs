//! Python virtual environments for the comparisons with python-chess: made
//! once per directory and requirement, reused by later runs.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The release of python-chess every comparison pins.
pub const PYTHON_CHESS: &str = "chess==1.11.2";

/// A virtual environment under `root` (its interpreter returned), set up by
/// `setup` (given the interpreter) unless a run before set it up with the
/// same `key`: `root` holds a `ready` file with the key once `setup` has
/// succeeded, and anything else there is removed and made again.
pub fn venv(root: &Path, key: &str, setup: impl FnOnce(&Path) -> Result<(), String>) -> Result<PathBuf, String> {
    let python = root.join("venv/bin/python");
    let ready = root.join("ready");
    if std::fs::read_to_string(&ready).is_ok_and(|made| made == key) {
        return Ok(python);
    }
    let _ = std::fs::remove_dir_all(root);
    std::fs::create_dir_all(root).map_err(|e| format!("{}: {e}", root.display()))?;
    run(Command::new("python3").args(["-m", "venv"]).arg(root.join("venv")))?;
    setup(&python)?;
    std::fs::write(&ready, key).map_err(|e| format!("{}: {e}", ready.display()))?;
    Ok(python)
}

/// A virtual environment under `root` with `requirement` installed by pip
/// ([`venv`] with the requirement as its key).
pub fn venv_with(root: &Path, requirement: &str) -> Result<PathBuf, String> {
    venv(root, requirement, |python| {
        run(Command::new(python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", requirement]))
    })
}

/// Runs `command` to its end: an error with the command and the last lines
/// of its standard error when it fails or cannot start.
pub fn run(command: &mut Command) -> Result<(), String> {
    match command.output() {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(format!(
            "{command:?}: {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr).lines().rev().take(5).collect::<Vec<_>>().join("\n")
        )),
        Err(e) => Err(format!("{command:?}: {e}")),
    }
}
