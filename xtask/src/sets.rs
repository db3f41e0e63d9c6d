//! The test sets of `testdata/` and their loaders, shared by `cargo xtask
//! regress`, `compare` and `corpus`.
//!
//! Two formats:
//! * labelled: `LABEL FEN` (the dev and hard sets), or the paper's TSV
//!   `id <TAB> LABEL <TAB> FEN <TAB> note`; LABEL is `WB`, `W-`, `-B` or `--`
//!   (first character: White can mate, second: Black can). Each position
//!   gives two queries, one per colour.
//! * unlabelled: `FEN [anything]` (the corpus: `FEN game-id`); one query per
//!   position, the intended winner being the side *not* to move.
//! * timeouts: the unlabelled format, where every position is known to be
//!   unwinnable for the side not to move (real games lost on time where the
//!   opponent could not mate): one query per position, labelled `false`.
//!
//! The FEN has 4 or 6 fields; blank lines and `#` lines are skipped.

use std::path::{Path, PathBuf};

use movegen::Color;

/// How a set's lines are read and judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `LABEL FEN` lines (or the paper's TSV): two labelled queries each.
    Labelled,
    /// `FEN [anything]` lines: one unlabelled query each, for the side not
    /// to move.
    Unlabelled,
    /// `FEN [anything]` lines, each unwinnable for the side not to move:
    /// one query each, labelled `false`.
    Unwinnable,
}

/// The named sets: name, file under `testdata/`, kind.
pub const NAMED: [(&str, &str, Kind); 5] = [
    ("paper", "paper-positions.tsv", Kind::Labelled),
    ("dev", "dev-positions.txt", Kind::Labelled),
    ("hard", "hard-positions.txt", Kind::Labelled),
    ("corpus", "lichess-30k-positions.txt", Kind::Unlabelled),
    ("timeouts", "timeouts-20k.txt", Kind::Unwinnable),
];

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// Where it comes from (`paper 1a`, `dev line 12`...).
    pub source: String,
    /// The FEN (4 or 6 fields, as written).
    pub fen: String,
    /// Whether White can still mate.
    pub white: bool,
    /// Whether Black can still mate.
    pub black: bool,
}

/// One query: a position and an intended winner, with the label if known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// Where it comes from (set and line or id).
    pub source: String,
    /// The FEN.
    pub fen: String,
    /// The intended winner.
    pub winner: Color,
    /// Whether the label says the winner can mate (`None`: unlabelled).
    pub label: Option<bool>,
}

/// A loaded set: its name and its queries.
#[derive(Clone, Debug)]
pub struct Set {
    /// `paper`, `dev`, `hard`, `corpus`, or the file name.
    pub name: String,
    /// Whether the queries carry labels.
    pub labelled: bool,
    /// Number of positions read (before `limit`: after it).
    pub positions: usize,
    /// The queries: two per labelled position, one per unlabelled one.
    pub queries: Vec<Query>,
}

fn is_label(text: &str) -> bool {
    matches!(text.as_bytes(), [b'W' | b'-', b'B' | b'-'])
}

fn is_comment(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with('#')
}

/// The FEN at the start of `tokens`: the 4 mandatory fields and the two
/// move counters if they are there. Returns the FEN and the rest.
fn split_fen<'a>(tokens: &[&'a str]) -> Option<(String, Vec<&'a str>)> {
    if tokens.len() < 4 || !tokens[0].contains('/') {
        return None;
    }
    let mut n = 4;
    while n < 6 && tokens.get(n).is_some_and(|t| t.parse::<u32>().is_ok()) {
        n += 1;
    }
    Some((tokens[..n].join(" "), tokens[n..].to_vec()))
}

/// Whether `text` is in the labelled format (judged by its first data line).
pub fn looks_labelled(text: &str) -> bool {
    text.lines().find(|l| !is_comment(l)).is_some_and(|line| {
        let fields: Vec<&str> = line.split('\t').collect();
        (fields.len() >= 3 && is_label(fields[1].trim())) || line.split_whitespace().next().is_some_and(is_label)
    })
}

/// Parses a labelled set; `name` prefixes the sources. Lines are
/// `LABEL FEN` or `id <TAB> LABEL <TAB> FEN [<TAB> note]`; anything else
/// (other than blank and `#` lines) is an error naming the line.
pub fn parse_labelled(name: &str, text: &str) -> Result<Vec<Labelled>, String> {
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if is_comment(line) {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
        let (source, label, rest) = if fields.len() >= 3 && is_label(fields[1]) {
            (format!("{name} {}", fields[0]), fields[1], fields[2])
        } else {
            let line = line.trim();
            let (label, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            (format!("{name} line {}", number + 1), label, rest)
        };
        let tokens: Vec<&str> = rest.split_whitespace().collect();
        let fen = match split_fen(&tokens) {
            Some((fen, _)) if is_label(label) => fen,
            _ => return Err(format!("{name} line {}: not `LABEL FEN`: {line}", number + 1)),
        };
        let bytes = label.as_bytes();
        positions.push(Labelled { source, fen, white: bytes[0] == b'W', black: bytes[1] == b'B' });
    }
    Ok(positions)
}

/// Parses an unlabelled set: `FEN [anything]` per line, the anything (a
/// game id...) kept in the source. The winner is the side not to move.
pub fn parse_unlabelled(name: &str, text: &str) -> Result<Vec<Query>, String> {
    let mut queries = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if is_comment(line) {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("{name} line {}: not `FEN [anything]`: {line}", number + 1);
        let (fen, rest) = split_fen(&tokens).ok_or_else(bad)?;
        let winner = match tokens[1] {
            "w" => Color::Black,
            "b" => Color::White,
            _ => return Err(bad()),
        };
        let mut source = format!("{name} line {}", number + 1);
        if !rest.is_empty() {
            source = format!("{source} {}", rest.join(" "));
        }
        queries.push(Query { source, fen, winner, label: None });
    }
    Ok(queries)
}

/// The two queries of each labelled position (White first).
pub fn queries_of(positions: &[Labelled]) -> Vec<Query> {
    let mut queries = Vec::with_capacity(2 * positions.len());
    for p in positions {
        for (winner, can_win) in [(Color::White, p.white), (Color::Black, p.black)] {
            queries.push(Query { source: p.source.clone(), fen: p.fen.clone(), winner, label: Some(can_win) });
        }
    }
    queries
}

/// Where a set is: a name of [`NAMED`] under `root/testdata`, or a path.
/// Returns the set's name, its path and its kind if known (`None`: judge
/// by the content).
pub fn locate(root: &Path, set: &str) -> (String, PathBuf, Option<Kind>) {
    match NAMED.iter().find(|(name, _, _)| *name == set) {
        Some(&(name, file, kind)) => (name.to_string(), root.join("testdata").join(file), Some(kind)),
        None => {
            let path = PathBuf::from(set);
            let name = path.file_name().map_or(set.to_string(), |n| n.to_string_lossy().into_owned());
            (name, path, None)
        }
    }
}

/// Parses the text of a set; `limit` keeps the first positions.
pub fn parse(name: &str, text: &str, kind: Option<Kind>, limit: usize) -> Result<Set, String> {
    let kind = kind.unwrap_or_else(|| if looks_labelled(text) { Kind::Labelled } else { Kind::Unlabelled });
    let (positions, queries) = match kind {
        Kind::Labelled => {
            let mut positions = parse_labelled(name, text)?;
            positions.truncate(limit);
            (positions.len(), queries_of(&positions))
        }
        Kind::Unlabelled | Kind::Unwinnable => {
            let mut queries = parse_unlabelled(name, text)?;
            queries.truncate(limit);
            if kind == Kind::Unwinnable {
                queries.iter_mut().for_each(|q| q.label = Some(false));
            }
            (queries.len(), queries)
        }
    };
    Ok(Set { name: name.to_string(), labelled: kind != Kind::Unlabelled, positions, queries })
}

/// Loads a set by name (see [`NAMED`]) or path; `limit` keeps the first
/// positions.
pub fn load(root: &Path, set: &str, limit: usize) -> Result<Set, String> {
    let (name, path, labelled) = locate(root, set);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&name, &text, labelled, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAPER: &str = "# comment\n\
        # Columns: id <TAB> label <TAB> FEN <TAB> source\n\
        1\t--\t8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54\tLichess tLUsotyi\n\
        1c\t-B\t8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/7B/8 b - -\tnote with spaces\n";

    const DEV: &str = "# Development set\n\
        \n\
        WB 8/8/1p6/1B2k3/5pK1/8/8/8 b - -\n\
        W- 8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 1 38\n";

    #[test]
    fn paper_tsv() {
        let positions = parse_labelled("paper", PAPER).unwrap();
        assert_eq!(positions.len(), 2);
        assert_eq!(positions[0].source, "paper 1");
        assert_eq!(positions[0].fen, "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54");
        assert!(!positions[0].white && !positions[0].black);
        assert_eq!(positions[1].source, "paper 1c");
        assert_eq!(positions[1].fen, "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/7B/8 b - -");
        assert!(!positions[1].white && positions[1].black);
    }

    #[test]
    fn label_fen_lines() {
        let positions = parse_labelled("dev", DEV).unwrap();
        assert_eq!(positions.len(), 2);
        assert_eq!(positions[0].source, "dev line 3");
        assert!(positions[0].white && positions[0].black);
        assert_eq!(positions[1].fen, "8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 1 38");
        assert!(positions[1].white && !positions[1].black);
        let queries = queries_of(&positions);
        let expected = [(Color::White, true), (Color::Black, true), (Color::White, true), (Color::Black, false)];
        assert_eq!(queries.iter().map(|q| (q.winner, q.label.unwrap())).collect::<Vec<_>>(), expected);
    }

    #[test]
    fn bad_labelled_lines_are_errors() {
        assert!(parse_labelled("x", "XB 8/8/8/8/8/8/8/K6k w - -\n").unwrap_err().contains("x line 1"));
        assert!(parse_labelled("x", "WB 8/8/8 w\n").is_err());
        assert!(parse_labelled("x", "WB\n").is_err());
    }

    #[test]
    fn unlabelled_lines() {
        let text = "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2 QzZqHm8A\n\
            # skipped\n\
            8/8/8/1R4B1/4k1p1/2P5/5PKP/8 b - -\n\
            8/8/8/8/8/8/8/K6k w - - 3 some words\n";
        let queries = parse_unlabelled("corpus", text).unwrap();
        assert_eq!(queries.len(), 3);
        assert_eq!(queries[0].fen, "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(queries[0].source, "corpus line 1 QzZqHm8A");
        assert_eq!(queries[0].winner, Color::Black);
        assert_eq!(queries[1].fen, "8/8/8/1R4B1/4k1p1/2P5/5PKP/8 b - -");
        assert_eq!(queries[1].source, "corpus line 3");
        assert_eq!(queries[1].winner, Color::White);
        assert_eq!(queries[2].fen, "8/8/8/8/8/8/8/K6k w - - 3");
        assert_eq!(queries[2].source, "corpus line 4 some words");
        assert!(queries.iter().all(|q| q.label.is_none()));
        assert!(parse_unlabelled("corpus", "WB 8/8/8/8/8/8/8/K6k w - -\n").is_err());
    }

    #[test]
    fn format_detection_and_limit() {
        assert!(looks_labelled(PAPER));
        assert!(looks_labelled(DEV));
        assert!(!looks_labelled("8/8/8/8/8/8/8/K6k w - - 0 1 id\n"));
        let set = parse("dev", DEV, None, 1).unwrap();
        assert!(set.labelled);
        assert_eq!((set.positions, set.queries.len()), (1, 2));
        let set = parse("c", "8/8/8/8/8/8/8/K6k w - -\n8/8/8/8/8/8/8/K6k b - -\n", None, 5).unwrap();
        assert!(!set.labelled);
        assert_eq!((set.positions, set.queries.len()), (2, 2));
    }

    #[test]
    fn named_sets_load() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        for (name, expected) in [("paper", 20), ("dev", 1801), ("hard", 806), ("corpus", 30_000), ("timeouts", 20_000)]
        {
            let set = load(root, name, usize::MAX).unwrap();
            assert_eq!(set.positions, expected, "{name}");
        }
        // The timeouts: one query per position, for the side not to move,
        // labelled unwinnable.
        let set = load(root, "timeouts", 3).unwrap();
        assert!(set.labelled && set.queries.len() == 3);
        assert!(set.queries.iter().all(|q| q.label == Some(false)));
        assert_eq!(set.queries[0].winner, Color::White, "{}", set.queries[0].fen);
        let (name, _, labelled) = locate(root, "some/dir/file.txt");
        assert_eq!((name.as_str(), labelled), ("file.txt", None));
    }
}
