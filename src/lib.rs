//! # draftsim
//!
//! A Monte Carlo strategy simulator for draft- and draw-based card-game variants.
//!
//! The library is laid out by concern, one line a module:
//! - [`cards`]: ranks, suits, cards, card sets as 64-bit bitsets, deck presets;
//! - [`eval`]: poker hand evaluation (with and without wild cards) and wild rules as data;
//! - [`games`]: one folder a game (rules, forward model, views, bots, measures), the
//!   [`GameDef`](games::contest::GameDef) every game implements and the registry;
//! - [`search`]: the forward-model trait, the driver every unit is played through, and
//!   the search bot (information-set MCTS);
//! - [`solver`]: counterfactual regret minimisation, best responses and exploitability;
//! - [`sim`]: the generic harness (seeding, seatings, chunks, stopping, shards, tallies,
//!   health and seat figures, card analytics);
//! - [`stats`]: confidence intervals and tests;
//! - [`study`]: compare, sweep, ladder, sensitivity, tune and exploit;
//! - [`outside`]: seats decided outside the process: external bots over JSON lines and
//!   the human seat of `draftsim play`;
//! - [`output`]: tables written to CSV and Parquet, staged so nothing is half-written;
//! - [`report`]: Markdown, HTML and SVG reports over output folders;
//! - [`error`]: the library's typed errors.
//!
//! An engine is a pure function of (rules, seeds, bots): the deal's random stream is
//! separate from the bots', so changing a bot never changes the cards.

pub mod cards;
pub mod error;
pub mod eval;

pub use error::{Error, Fault, InputError, Result};
pub mod games;
pub mod output;
pub mod outside;
pub mod report;
pub mod search;
pub mod sim;
pub mod solver;
pub mod stats;
pub mod study;
