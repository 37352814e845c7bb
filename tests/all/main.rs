//! The integration tests, one binary: each file is a module, so polars is linked once.

mod common;
mod conformance;

mod bots;
mod cli;
mod eval;
mod examples;
mod faults;
mod golden;
mod harness;
mod ladder;
mod live_draft;
mod newcomer;
mod optimise;
mod outside;
mod report;
mod search_live_draft;
mod search_seven_card_draft;
mod search_seven_poker;
mod search_sevens;
mod search_winston;
mod search_worlds;
mod sensitivity;
mod seven_card_draft;
mod seven_poker;
mod seven_poker_bots;
mod sevens;
mod shards;
mod soak;
mod solver;
mod study;
mod versus;
mod winston;
