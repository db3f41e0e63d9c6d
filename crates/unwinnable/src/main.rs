//! `unwinnable`: can a player still checkmate? See `unwinnable --help`.

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    unwinnable::main()
}
