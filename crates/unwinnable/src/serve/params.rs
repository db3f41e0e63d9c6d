//! The query parameters of the API, read strictly: an unknown or repeated
//! parameter, or a value out of range, is a 400 that names it (a typo must
//! not be silently ignored, as a misspelt `winnr=black` would be).

use std::time::Duration;

use movegen::{Color, Square};
use search::Config;

use super::error::ApiError;
use pipeline::Winners;
use pipeline::options::Mode;

/// The parameters of a request, as given.
#[derive(Debug, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// The parameters of a query string (`None`: no query string), each
    /// name at most once, every name among `known`.
    pub fn parse(query: Option<&str>, known: &[&str]) -> Result<Params, ApiError> {
        let pairs: Vec<(String, String)> = match query {
            None => Vec::new(),
            Some(query) => serde_urlencoded::from_str(query)
                .map_err(|e| ApiError::parameter(format!("the query string cannot be read: {e}")))?,
        };
        for (index, (name, _)) in pairs.iter().enumerate() {
            if !known.contains(&name.as_str()) {
                let hint = crate::cli::closest(name, known.iter().copied())
                    .map_or(String::new(), |meant| format!("; did you mean {meant:?}?"));
                return Err(ApiError::parameter(format!(
                    "unknown parameter {:?} (this route takes {}){hint}",
                    pipeline::shorten_to(name, 24),
                    known.join(", ")
                )));
            }
            if pairs[..index].iter().any(|(other, _)| other == name) {
                return Err(ApiError::parameter(format!("the parameter {name:?} is given twice")));
            }
        }
        Ok(Params { pairs })
    }

    /// The value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The value of `name`, required.
    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name).ok_or_else(|| ApiError::parameter(format!("the parameter {name:?} is required")))
    }

    /// A yes/no flag: `true`, `1`, `yes`, `false`, `0`, `no` (absent: no).
    pub fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.get(name) {
            None => Ok(false),
            Some("true" | "1" | "yes" | "") => Ok(true),
            Some("false" | "0" | "no") => Ok(false),
            Some(other) => Err(ApiError::parameter(format!(
                "{name}={:?}: expected true or false",
                pipeline::shorten_to(other, 24)
            ))),
        }
    }

    /// `winner`: `white`, `black`, `w`, `b` or `both`.
    pub fn winners(&self) -> Result<Option<Winners>, ApiError> {
        self.get("winner")
            .map(|text| {
                Winners::from_name(text).ok_or_else(|| {
                    ApiError::parameter(format!(
                        "winner={:?}: expected white, black or both",
                        pipeline::shorten_to(text, 24)
                    ))
                })
            })
            .transpose()
    }

    /// A colour parameter (`white` or `black`).
    pub fn color(&self, name: &str) -> Result<Option<Color>, ApiError> {
        self.get(name)
            .map(|text| {
                Color::from_name(text).ok_or_else(|| {
                    ApiError::parameter(format!("{name}={:?}: expected white or black", pipeline::shorten_to(text, 24)))
                })
            })
            .transpose()
    }

    /// A number from 1 to `max`.
    fn number(&self, name: &str, max: u64) -> Result<Option<u64>, ApiError> {
        self.get(name)
            .map(|text| match text.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(ApiError::parameter(format!(
                    "{name}={:?}: expected a whole number from 1 to {max} (the server's limit)",
                    pipeline::shorten_to(text, 24)
                ))),
            })
            .transpose()
    }

    /// A comma-separated list of squares (`e4,e5`), possibly empty.
    pub fn squares(&self, name: &str) -> Result<Vec<Square>, ApiError> {
        let Some(text) = self.get(name) else { return Ok(Vec::new()) };
        text.split(',')
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<Square>().map_err(|_| {
                    ApiError::parameter(format!(
                        "{name}: {:?} is not a square (expected e.g. e4)",
                        pipeline::shorten_to(s, 24)
                    ))
                })
            })
            .collect()
    }

    /// The search configuration: `mode`, `nodes` and `deadline_ms` within
    /// the server's `limits`.
    pub fn config(&self, limits: &Limits) -> Result<Config, ApiError> {
        let mode = match self.get("mode") {
            None => Mode::Full,
            Some(text) => {
                Mode::ALL.into_iter().find(|mode| mode.name().eq_ignore_ascii_case(text)).ok_or_else(|| {
                    ApiError::parameter(format!(
                        "mode={:?}: expected full, quick or shortest",
                        pipeline::shorten_to(text, 24)
                    ))
                })?
            }
        };
        let mut config = Config { mode, ..Config::default() };
        config.limits.memory_mb = limits.memory_mb;
        config.limits.nodes = self.number("nodes", limits.max_nodes)?.unwrap_or(limits.max_nodes);
        let deadline_ms = self.number("deadline_ms", limits.deadline_ms)?.unwrap_or(limits.deadline_ms);
        config.limits.deadline = Some(Duration::from_millis(deadline_ms));
        Ok(config)
    }
}

/// The server's limits on every request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most nodes of one analysis.
    pub max_nodes: u64,
    /// The longest analysis, in milliseconds.
    pub deadline_ms: u64,
    /// Each analyzer's memory, in MiB.
    pub memory_mb: usize,
    /// The most queries of a batch.
    pub max_batch: usize,
    /// The most games of an adjudication.
    pub max_games: u64,
    /// The largest `POST /api/analyze` body, in bytes.
    pub max_batch_bytes: usize,
    /// The largest `POST /api/adjudicate` body, in bytes (compressed, if it
    /// is).
    pub max_pgn_bytes: usize,
    /// The most bytes of PGN text after decompression.
    pub max_pgn_text: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        max_nodes: 1000,
        deadline_ms: 500,
        memory_mb: 8,
        max_batch: 10,
        max_games: 10,
        max_batch_bytes: 1 << 20,
        max_pgn_bytes: 1 << 20,
        max_pgn_text: 1 << 20,
    };

    #[test]
    fn strict_parameters() {
        let known = ["fen", "winner", "mode", "nodes", "deadline_ms"];
        let params = Params::parse(Some("fen=8%2F8+w&winner=Black&nodes=10"), &known).unwrap();
        assert_eq!(params.get("fen"), Some("8/8 w"));
        assert_eq!(params.winners().unwrap(), Some(Winners::Black));
        let config = params.config(&LIMITS).unwrap();
        assert_eq!((config.limits.nodes, config.limits.deadline), (10, Some(Duration::from_millis(500))));
        assert_eq!(config.limits.memory_mb, 8);
        for (query, expected) in [
            (
                "winnr=black",
                "unknown parameter \"winnr\" (this route takes fen, winner, mode, nodes, deadline_ms); did you mean \"winner\"?",
            ),
            ("fen=a&fen=b", "the parameter \"fen\" is given twice"),
            ("nodes=1001", "nodes=\"1001\": expected a whole number from 1 to 1000 (the server's limit)"),
            ("nodes=0", "nodes=\"0\": expected a whole number from 1 to 1000 (the server's limit)"),
            ("deadline_ms=-5", "deadline_ms=\"-5\": expected a whole number from 1 to 500 (the server's limit)"),
            ("mode=fast", "mode=\"fast\": expected full, quick or shortest"),
            ("winner=red", "winner=\"red\": expected white, black or both"),
        ] {
            let result = Params::parse(Some(query), &known).and_then(|p| p.config(&LIMITS).and(p.winners()));
            assert_eq!(result.unwrap_err().detail(), expected, "{query}");
        }
    }
}
