//! `draftsim hand`: rank one hand and say which cards acted as wild.

use anyhow::Result;
use clap::Args;
use draftsim::InputError;
use draftsim::cards::{CardSet, DeckPreset, cards_to_string};
use draftsim::eval::{Evaluator, WildRules};

use super::args::{Offered, deck_names, wild_names};

/// Arguments of `draftsim hand`.
#[derive(Args, Debug)]
pub struct HandArgs {
    /// 5 to 7 cards, e.g. As Kd Th 9c 2s (with last-pick, the last card is the last pick).
    #[arg(required = true, num_args = 1.., allow_hyphen_values = false)]
    cards: Vec<String>,
    /// Deck preset: standard-52, no-deuces-48, short-36, piquet-32.
    #[arg(long, default_value = "standard-52", value_parser = Offered(deck_names), hide_possible_values = true)]
    deck: String,
    /// A wild rule (repeatable): deuces, deuces-with-face, last-pick, rank-R, rank-R-with-face.
    #[arg(long = "wild", value_parser = Offered(wild_names), hide_possible_values = true)]
    wild: Vec<String>,
    /// Print one JSON object instead of text: `category`, the five `cards`, the `wild` cards
    /// with what each stands for, and `value`, a number that orders hands (higher beats
    /// lower, equal ties) for comparing two hands in a script.
    #[arg(long)]
    json: bool,
}

/// Ranks the hand and prints it.
pub fn run(args: HandArgs) -> Result<()> {
    let preset = args.deck.parse::<DeckPreset>()?;
    let deck = preset.deck();
    let cards = CardSet::parse_list(&args.cards.join(" "))?;
    if !(5..=7).contains(&cards.len()) {
        return Err(
            InputError::new(format!("a hand has 5 to 7 cards, got {}: list 5, 6 or 7 cards", cards.len())).into()
        );
    }
    if let Some(card) = cards.iter().find(|c| !deck.cards.contains(**c)) {
        return Err(InputError::new(format!(
            "card '{card}' is not in the {} deck: pick another deck with --deck",
            deck.name
        ))
        .into());
    }
    let wild_rules = WildRules::parse_names(args.wild.iter().map(String::as_str))?;
    // A wild rule the deck leaves nothing to is warned of as in a rules file.
    let rules = draftsim::games::seven_card_draft::rules::Rules {
        deck: preset,
        wild: wild_rules.clone(),
        ..Default::default()
    };
    if let Ok(variant) = rules.compile() {
        for w in variant.warnings().iter().filter(|w| w.starts_with("wild")) {
            super::args::warn(w);
        }
    }
    let hand: CardSet = cards.iter().copied().collect();
    let wilds = wild_rules.wild_cards(hand, cards.last().copied());
    let best = Evaluator::new(&deck).best_hand(hand.minus(wilds), &wilds.iter().collect::<Vec<_>>());
    let wild_uses: Vec<(String, String)> = best
        .cards
        .iter()
        .zip(&best.wild_for)
        .filter_map(|(card, wild)| wild.map(|w| (w.to_string(), card.to_string())))
        .collect();
    if args.json {
        let obj = serde_json::json!({
            "category": best.value.category().name(),
            "cards": best.cards.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "wild": wild_uses.iter().map(|(w, a)| serde_json::json!({"card": w, "as": a})).collect::<Vec<_>>(),
            "value": best.value.0,
        });
        say!("{obj}");
    } else {
        say!("category: {}", best.value.category());
        say!("cards:    {}", cards_to_string(best.cards.iter().copied()));
        if wild_uses.is_empty() {
            say!("wild:     none");
        } else {
            let uses: Vec<String> = wild_uses.iter().map(|(w, a)| format!("{w} as {a}")).collect();
            say!("wild:     {}", uses.join(", "));
        }
    }
    Ok(())
}
