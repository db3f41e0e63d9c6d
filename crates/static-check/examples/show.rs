//! Prints the static analysis of a FEN for both colours (a development aid).
fn main() {
    let Some(fen) = std::env::args().nth(1) else { return eprintln!("usage: show FEN") };
    let pos: movegen::Position = match fen.parse() {
        Ok(pos) => pos,
        Err(e) => return eprintln!("{e}"),
    };
    for color in movegen::Color::ALL {
        println!("{}", static_check::analyze(&pos, color));
    }
}
