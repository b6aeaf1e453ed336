//! The few best placements a search weighed, kept while it runs so the player can show and
//! explain its choice.

use super::Choice;

/// Placements kept: the choice and the runners-up the overlay draws.
pub const RANKED: usize = 4;

/// The best [`RANKED`] placements offered, one entry per (x, arrangement), best first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ranking {
    entries: Vec<Choice>,
}

impl Ranking {
    /// Forgets the last search's placements.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Keeps `choice` if it is among the best so far (a placement offered twice keeps its
    /// better score).
    #[inline]
    pub fn offer(&mut self, choice: Choice) {
        if let Some(same) = self
            .entries
            .iter_mut()
            .find(|c| c.x == choice.x && c.arrangement == choice.arrangement)
        {
            if choice.score > same.score {
                *same = choice;
                self.sort();
            }
            return;
        }
        if self.entries.len() == RANKED {
            match self.entries.last() {
                Some(worst) if choice.score > worst.score => {
                    self.entries.pop();
                }
                _ => return,
            }
        }
        self.entries.push(choice);
        self.sort();
    }

    fn sort(&mut self) {
        // Stable: among equal scores the first offered stays first, as the searches choose.
        self.entries.sort_by(|a, b| b.score.total_cmp(&a.score));
    }

    /// Best first.
    pub fn as_slice(&self) -> &[Choice] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(x: u8, arrangement: u8, score: f64) -> Choice {
        Choice {
            x,
            arrangement,
            y: 12,
            score,
        }
    }

    #[test]
    fn keeps_the_best_few_once_each() {
        let mut ranking = Ranking::default();
        for (i, score) in [3.0, 1.0, 5.0, 2.0, 4.0, 0.5].into_iter().enumerate() {
            ranking.offer(choice(i as u8, 0, score));
        }
        let scores: Vec<f64> = ranking.as_slice().iter().map(|c| c.score).collect();
        assert_eq!(scores, [5.0, 4.0, 3.0, 2.0]);
        // The same placement again: its better score counts, no duplicate.
        ranking.offer(choice(3, 0, 6.0));
        ranking.offer(choice(2, 0, 0.0));
        let kept: Vec<(u8, f64)> = ranking.as_slice().iter().map(|c| (c.x, c.score)).collect();
        assert_eq!(kept, [(3, 6.0), (2, 5.0), (4, 4.0), (0, 3.0)]);
        ranking.clear();
        assert!(ranking.as_slice().is_empty());
    }

    #[test]
    fn ties_keep_the_first_offered_first() {
        let mut ranking = Ranking::default();
        ranking.offer(choice(1, 0, 2.0));
        ranking.offer(choice(2, 0, 2.0));
        assert_eq!(ranking.as_slice()[0].x, 1);
    }
}
