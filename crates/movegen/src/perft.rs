//! Perft: counting the leaves of the legal move tree, the standard test of
//! a move generator.

use crate::{Move, MoveList, Position};

impl Position {
    /// The number of leaf nodes of the legal move tree of `depth` plies,
    /// counting the last ply in bulk (the number of legal moves of each
    /// node at depth `depth - 1`, without playing them).
    ///
    /// ```
    /// use movegen::Position;
    /// assert_eq!(Position::start().perft(3), 8_902);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        if self.is_chess960() { self.perft_variant::<true>(depth) } else { self.perft_variant::<false>(depth) }
    }

    /// [`Position::perft`] with the variant decided once, at the root.
    fn perft_variant<const CHESS960: bool>(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => u64::from(self.count_legal_moves()),
            _ => {
                let mut nodes = 0;
                self.for_each_piece_moves(|piece_moves| {
                    self.expand_piece_moves_variant::<CHESS960>(piece_moves, |m| {
                        nodes += self.play_variant::<CHESS960>(m).perft_variant::<CHESS960>(depth - 1);
                    });
                    false
                });
                nodes
            }
        }
    }

    /// Like [`Position::perft`], but generating the ordered move list at
    /// every node and playing every move, including at the last ply (the
    /// work a search does per node).
    pub fn perft_full(&self, depth: u32) -> u64 {
        if self.is_chess960() {
            self.perft_full_variant::<true>(depth)
        } else {
            self.perft_full_variant::<false>(depth)
        }
    }

    /// [`Position::perft_full`] with the variant decided once, at the root.
    fn perft_full_variant<const CHESS960: bool>(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        self.generate_legal_moves(&mut list);
        if depth == 1 {
            for &m in &list {
                // Play the move so the leaf work is really done.
                core::hint::black_box(self.play_variant::<CHESS960>(m));
            }
            return list.len() as u64;
        }
        list.iter().map(|&m| self.play_variant::<CHESS960>(m).perft_full_variant::<CHESS960>(depth - 1)).sum()
    }

    /// Perft split by the first move: each legal move (in generator order)
    /// with the perft of `depth - 1` after it.
    ///
    /// ```
    /// use movegen::Position;
    /// let divide = Position::start().divide(2);
    /// assert_eq!(divide.len(), 20);
    /// assert!(divide.iter().all(|&(_, nodes)| nodes == 20));
    /// ```
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let depth = depth.max(1);
        self.legal_moves().iter().map(|&m| (m, self.play(m).perft(depth - 1))).collect()
    }
}
