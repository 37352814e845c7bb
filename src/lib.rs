//! # draftsim
//!
//! A Monte Carlo strategy simulator for draft- and draw-based card-game variants.
//!
//! The library is laid out by concern:
//! - [`cards`]: ranks, suits, cards, card sets as 64-bit bitsets, deck presets;
//! - [`eval`]: poker hand evaluation, a fast path without wild cards and an exact path
//!   with them, plus wild-card rules as data;
//! - [`games`]: one folder per game, each with its rules, engine, seat view and bots;
//! - [`sim`]: the generic harness (seeding, chunks, paired deals, seat rotation, shards);
//! - [`stats`]: confidence intervals;
//! - [`output`]: tables written to CSV and Parquet.
//!
//! An engine is a pure function of (rules, seed, bots): the deal's random stream is
//! separate from the bots', so changing a bot never changes the cards.

pub mod cards;
pub mod error;
pub mod eval;

pub use error::{Error, InputError, Result};
pub mod games;
pub mod output;
pub mod report;
pub mod search;
pub mod sim;
pub mod stats;
pub mod study;
