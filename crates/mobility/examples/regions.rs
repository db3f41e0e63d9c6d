//! Prints every piece's region (a development aid).
fn main() {
    let Some(fen) = std::env::args().nth(1) else { return eprintln!("usage: regions FEN") };
    let pos: movegen::Position = fen.parse().expect("FEN");
    let m = mobility::Mobility::compute(&pos).expect("applicable");
    for (square, piece, region) in m.pieces() {
        println!("{square} {piece} cleared={}\n{region}", m.can_be_cleared(square));
    }
}
