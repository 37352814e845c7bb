//! Card analytics: each card's pick and win figures, ranked and charted.

use super::*;

/// Fewest units in hand (and takes) for a card to be charted and ranked.
pub(super) const CARD_MIN_UNITS: f64 = 30.0;

/// Ranks 1..n of `values` (1 = first in the order `better` gives).
pub(super) fn ranks(values: &[f64], better: impl Fn(f64, f64) -> std::cmp::Ordering) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| better(values[a], values[b]));
    let mut out = vec![0.0; values.len()];
    for (r, &i) in order.iter().enumerate() {
        out[i] = (r + 1) as f64;
    }
    out
}

pub(super) fn cards_section(
    page: &mut Page,
    cards: &DataFrame,
    out: &OutputDir,
    prefix: &str,
    unit: &str,
    palette: &charts::Palette,
) -> Result<(), Error> {
    let strategy = texts(cards, "strategy")?;
    let level = texts(cards, "level")?;
    let card = texts(cards, "card")?;
    let in_hand = floats(cards, "in_hand")?;
    let taken = floats(cards, "taken")?;
    let ata = with_interval(cards, "ata")?;
    let gih = with_interval(cards, "win_share_in_hand")?;
    let diff = with_interval(cards, "in_hand_minus_passed")?;
    let units = if unit.ends_with("ch") { format!("{unit}es") } else { format!("{unit}s") };
    let interval = |v: &WithInterval, i: usize| format!("{} ({} to {})", fmt4(v.mean[i]), fmt4(v.lo[i]), fmt4(v.hi[i]));
    let md = page.at(Question::Cards);
    let mut correlations: Vec<String> = Vec::new();
    let mut most_over: Option<String> = None;
    let _ = writeln!(
        md,
        "What each strategy takes, when, and whether taking it wins. ATA is the average pick at which the strategy took a card; the win share in hand is over the {units} it ended holding the card, against the {units} it saw the card and passed it. A card taken earlier than its win share ranks is over-drafted by that strategy; one taken later is under-drafted.\n"
    );
    for (k, s) in distinct(&strategy).iter().enumerate() {
        let rows: Vec<usize> = (0..strategy.len())
            .filter(|&i| {
                &strategy[i] == s
                    && level[i] == "card"
                    && in_hand[i] >= CARD_MIN_UNITS
                    && taken[i] >= CARD_MIN_UNITS
                    && gih.mean[i].is_finite()
            })
            .collect();
        // Chart and rankings need a few cards with data; the pooled tables do not.
        if rows.len() >= 3 {
            let pick = |v: &[f64]| rows.iter().map(|&i| v[i]).collect::<Vec<f64>>();
            let labels: Vec<String> = rows.iter().map(|&i| card[i].clone()).collect();
            let (x, xlo, xhi) = (pick(&ata.mean), pick(&ata.lo), pick(&ata.hi));
            let (y, ylo, yhi) = (pick(&gih.mean), pick(&gih.lo), pick(&gih.hi));
            let file = format!("{prefix}cards-{}.svg", k + 1);
            let title = format!("Average pick against win share in hand, {}", short_name(s));
            let colour = palette.colour(&short_name(s));
            charts::scatter_with_intervals(
                &out.path().join(&file),
                &title,
                "average pick taken (ATA; later to the right)",
                &format!("win share per {unit} with the card in hand"),
                &charts::Scatter { labels: &labels, x: (&x, &xlo, &xhi), y: (&y, &ylo, &yhi), colour },
            )?;
            let pick_rank = ranks(&x, |a, b| a.total_cmp(&b));
            let win_rank = ranks(&y, |a, b| b.total_cmp(&a));
            // Pearson's of ranks: Spearman's (undefined, NaN, where every rank ties).
            let rho = crate::stats::correlation(&pick_rank, &win_rank).unwrap_or(f64::NAN);
            correlations.push(format!("{} {rho:.2}", short_name(s)));
            image(
                md,
                &file,
                &title,
                &format!(
                    "`{s}`: one point per card with at least {CARD_MIN_UNITS:.0} {units} in hand, with 95% intervals on both axes as grey bars (most pick intervals are narrower than a point, which hides them). Rank correlation of pick order with win order: {rho:.2} (1 would mean it takes cards exactly in the order they win). Points low and left are taken early but win little (over-drafted); high and right, taken late but win often (under-drafted)."
                ),
            );
            let n = rows.len();
            let mut by_gap: Vec<usize> = (0..n).collect();
            // Over-drafted first: picked much earlier (a better pick rank) than its win rank.
            by_gap.sort_by(|&a, &b| (win_rank[b] - pick_rank[b]).total_cmp(&(win_rank[a] - pick_rank[a])));
            let over: Vec<usize> = by_gap.iter().copied().filter(|&j| win_rank[j] > pick_rank[j]).take(10).collect();
            let under: Vec<usize> =
                by_gap.iter().rev().copied().filter(|&j| win_rank[j] < pick_rank[j]).take(10).collect();
            if most_over.is_none()
                && let Some(&j) = over.first()
            {
                most_over = Some(format!(
                    " The most over-drafted card of `{}` is {}: taken at pick {} on average but ranked {} of {n} by win share in hand, {} [{}, {}].",
                    short_name(s),
                    card[rows[j]],
                    fmt4(ata.mean[rows[j]]),
                    win_rank[j],
                    fmt4(gih.mean[rows[j]]),
                    fmt4(gih.lo[rows[j]]),
                    fmt4(gih.hi[rows[j]])
                ));
            }
            for (title, list) in [
                ("over-drafted (taken before cards that win more)", over),
                ("under-drafted (taken after cards that win less)", under),
            ] {
                if list.is_empty() {
                    continue;
                }
                let _ = writeln!(
                    md,
                    "Most {title} by `{s}`, ranks among {n} cards:\n\n| card | ATA (95% interval) | pick rank | win share in hand (95% interval) | win rank | in hand minus passed (95% interval) |\n|---|---|---:|---|---:|---|"
                );
                for j in list {
                    let i = rows[j];
                    let _ = writeln!(
                        md,
                        "| {} | {} | {} | {} | {} | {} |",
                        card[i],
                        interval(&ata, i),
                        pick_rank[j],
                        interval(&gih, i),
                        win_rank[j],
                        interval(&diff, i)
                    );
                }
                md.push('\n');
            }
        }
        for pooled in distinct(&level).iter().filter(|l| *l != "card") {
            let groups: Vec<usize> =
                (0..strategy.len()).filter(|&i| &strategy[i] == s && &level[i] == pooled && taken[i] > 0.0).collect();
            if groups.is_empty() {
                continue;
            }
            let _ = writeln!(
                md,
                "`{s}` by {pooled}:\n\n| {pooled} | taken | ATA (95% interval) | win share in hand (95% interval) | in hand minus passed (95% interval) |\n|---|---:|---|---|---|"
            );
            for i in groups {
                let _ = writeln!(
                    md,
                    "| {} | {:.0} | {} | {} | {} |",
                    card[i],
                    taken[i],
                    interval(&ata, i),
                    interval(&gih, i),
                    interval(&diff, i)
                );
            }
            md.push('\n');
        }
    }
    if !correlations.is_empty() {
        page.headline(
            Question::Cards,
            format!(
                "Rank correlation of pick order with win order (1: cards taken exactly in the order they win): {}.{}",
                correlations.join(", "),
                most_over.unwrap_or_default()
            ),
        );
    }
    Ok(())
}
