//! Running the `unwinnable` binary in the tests: its arguments, its
//! standard input written from a thread (the child may fill its output
//! pipe before it has read all of its input), its output collected.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};
use std::thread::{self, JoinHandle};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_unwinnable");

/// Starts the binary with `args`, writing `stdin` to it from a thread.
pub fn spawn(args: &[&str], stdin: &[u8]) -> (Child, JoinHandle<()>) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the binary");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    (child, writer)
}

/// Runs the binary with `args` and `stdin` to its end.
#[allow(dead_code)]
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let (child, writer) = spawn(args, stdin);
    let output = child.wait_with_output().expect("wait for the binary");
    writer.join().expect("stdin writer");
    output
}
