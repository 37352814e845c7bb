//! Calibration: the strength estimate against the percentile the hand finished at.

use super::*;

/// The strength estimate's calibration: for each pick and bin of the estimate with enough
/// estimates, the mean estimate beside the mean finished percentile, and the largest gap.
pub(super) fn calibration_section(
    page: &mut Page,
    cal: &DataFrame,
    strategy: Option<&str>,
    (out, prefix): (&OutputDir, &str),
) -> Result<(), Error> {
    let md = page.at(Question::Skill);
    let module = strategy.map_or("the same module".to_string(), |s| format!("`{s}`'s module"));
    let pick = floats(cal, "after_pick")?;
    let n = floats(cal, "estimates")?;
    let (lo, hi) = (floats(cal, "bin_low")?, floats(cal, "bin_high")?);
    let est = floats(cal, "mean_estimate")?;
    let fin = with_interval(cal, "mean_finished")?;
    let rows: Vec<usize> = (0..pick.len()).filter(|&i| n[i] >= 200.0).collect();
    let gap = |i: usize| (est[i] - fin.mean[i]).abs();
    let worst = rows.iter().map(|&i| gap(i)).fold(0.0, f64::max);
    // The bins that hold most estimates say how far a typical decision is off.
    let per_pick = |p: f64| (0..pick.len()).filter(|&i| pick[i] == p).map(|i| n[i]).sum::<f64>();
    let common: Vec<usize> = rows.iter().copied().filter(|&i| n[i] >= 0.01 * per_pick(pick[i])).collect();
    let worst_common = common.iter().map(|&i| gap(i)).fold(0.0, f64::max);
    let later = common.iter().filter(|&&i| pick[i] > 1.0).map(|&i| gap(i)).fold(0.0, f64::max);
    // No bin with enough estimates says nothing of the estimate: no figure, and no claim.
    let Some(&widest) = common.iter().max_by(|&&a, &&b| gap(a).total_cmp(&gap(b))) else {
        let _ = writeln!(
            md,
            "How well does the strength estimate predict? No bin of the estimate holds 200 estimates, so nothing is measured here: play more rounds.\n"
        );
        page.headline(
            Question::Skill,
            "The strength estimate's calibration is not measured: no bin holds 200 estimates; play more rounds.",
        );
        return Ok(());
    };
    let _ = writeln!(
        md,
        "How well does the strength estimate predict? After every pick, each seat's estimate of its finished hand's percentile (bins of a tenth) against the percentile the hand reached, every seat drafting with {module} and nobody folding; bins with at least 200 estimates. Among the bins holding at least 1% of a pick's estimates the largest gap between the mean estimate and the mean finished percentile is {worst_common:.3} in size ({later:.3} from pick 2 on); over every bin shown, {worst:.3}. A gap of a few hundredths means the bots' fold and raise thresholds mean what they say.\n"
    );
    if let Some(&w) = common.iter().max_by(|&&a, &&b| gap(a).total_cmp(&gap(b))) {
        let file = format!("{prefix}calibration.svg");
        let title = format!(
            "Own-hand estimate: the widest common gap is {:+.3}, after pick {:.0} at estimates {:.1}–{:.1}",
            fin.mean[w] - est[w],
            pick[w],
            lo[w],
            hi[w]
        );
        let words = [
            title.as_str(),
            "finished percentile minus the estimate (0: the estimate is right)",
            "Each line is a pick; where it sits above 0 the hands finished better than their seats expected, below 0 worse. Lines that hug 0 mean a threshold on the estimate means what it says at that pick.",
        ];
        gap_chart(md, (out, &file), words, &common, [&pick, &lo, &est], &fin)?;
    }
    bins_table(md, "mean finished", &rows, [&pick, &lo, &hi, &n, &est], &fin);
    // The widest gap's interval, from the finished percentile's (the estimate is exact).
    let (a, b) = magnitude_interval(est[widest] - fin.hi[widest], est[widest] - fin.lo[widest]);
    page.headline(
        Question::Skill,
        format!(
            "The strength estimate predicts the finished hand's percentile to within {:.1} [{:.1}, {:.1}] percentile points in the common bins (the widest gap, after pick {:.0}; {:.1} from pick 2 on): the bots' thresholds mean what they say when this is a few points.",
            100.0 * worst_common,
            100.0 * a,
            100.0 * b,
            pick[widest],
            100.0 * later
        ),
    );
    Ok(())
}

/// The chance of beating the field's calibration: at the full table, for each pick and bin
/// with enough estimates, the mean estimate beside the share of the pot those hands took,
/// and the largest gap over every field size.
pub(super) fn field_calibration_section(
    page: &mut Page,
    cal: &DataFrame,
    (out, prefix): (&OutputDir, &str),
) -> Result<(), Error> {
    let md = page.at(Question::Skill);
    let pick = floats(cal, "after_pick")?;
    let opponents = floats(cal, "opponents")?;
    let n = floats(cal, "estimates")?;
    let (lo, hi) = (floats(cal, "bin_low")?, floats(cal, "bin_high")?);
    let est = floats(cal, "mean_estimate")?;
    let won = with_interval(cal, "won")?;
    let full = opponents.iter().copied().fold(0.0, f64::max);
    let rivals = |k: f64| format!("{k:.0} {}", crate::output::noun(k as i64, "opponent", "opponents"));
    let rows: Vec<usize> = (0..pick.len()).filter(|&i| n[i] >= 200.0).collect();
    // Won minus estimated, as the chart draws it.
    let gap = |i: usize| won.mean[i] - est[i];
    let worst = rows.iter().copied().max_by(|&a, &b| gap(a).abs().total_cmp(&gap(b).abs()));
    let Some(worst) = worst else {
        let _ = writeln!(md, "The chance of beating the field has no bin with 200 estimates: play more rounds.\n");
        return Ok(());
    };
    let _ = writeln!(
        md,
        "How well does the chance of beating the field predict? At each check, each seat's chance of beating the k seats after it (every k, as if the rest had folded) against the share of the pot its finished hand took from them; bins with at least 200 estimates. The largest gap is {:+.3} (estimate {:.3}, won {} [{}, {}] over {:.0} estimates, after pick {:.0} against {}; won minus estimated): a negative gap means the estimate is too hopeful. A threshold module with `field = \"calibrated\"` reads its chance through this correction, measured under the same rules. The table shows the full field ({}).\n",
        gap(worst),
        est[worst],
        fmt4(won.mean[worst]),
        fmt4(won.lo[worst]),
        fmt4(won.hi[worst]),
        n[worst],
        pick[worst],
        rivals(opponents[worst]),
        rivals(full)
    );
    let shown: Vec<usize> = rows.iter().copied().filter(|&i| opponents[i] == full).collect();
    if let Some(&w) = shown.iter().max_by(|&&a, &&b| gap(a).abs().total_cmp(&gap(b).abs())) {
        let file = format!("{prefix}field_calibration.svg");
        let title = format!(
            "Beating {}: estimates {:.1}–{:.1} after pick {:.0} won {:.3}",
            rivals(full),
            lo[w],
            hi[w],
            pick[w],
            won.mean[w]
        );
        let words = [
            title.as_str(),
            "share of the pot won minus the estimate (0: the estimate is right)",
            "Each line is a pick, at the full table; below 0 the hands took less of the pot than their seats counted on, so betting that reads the estimate there stays in too often.",
        ];
        gap_chart(md, (out, &file), words, &shown, [&pick, &lo, &est], &won)?;
    }
    bins_table(md, "won", &shown, [&pick, &lo, &hi, &n, &est], &won);
    page.headline(
        Question::Skill,
        format!(
            "The chance of beating the field is off by up to {:.1} points [{:.1}, {:.1}] (after pick {:.0}, {}{}): {}.",
            100.0 * gap(worst).abs(),
            100.0 * magnitude_interval(won.lo[worst] - est[worst], won.hi[worst] - est[worst]).0,
            100.0 * magnitude_interval(won.lo[worst] - est[worst], won.hi[worst] - est[worst]).1,
            pick[worst],
            rivals(opponents[worst]),
            // The table and chart show the full field only: a bin of fewer is not there.
            if opponents[worst] == full { String::new() } else { format!("; the table shows {} only", rivals(full)) },
            if gap(worst) < 0.0 { "too hopeful there" } else { "too fearful there" }
        ),
    );
    Ok(())
}

/// The interval of a gap's size from the interval of the gap (`lo`, `hi` in either order):
/// from 0 where the gap's interval holds 0.
fn magnitude_interval(lo: f64, hi: f64) -> (f64, f64) {
    let top = lo.abs().max(hi.abs());
    if lo * hi <= 0.0 { (0.0, top) } else { (lo.abs().min(hi.abs()), top) }
}

/// What the `rows` of a calibration got minus what they estimated, by tenth of the estimate
/// (x) with one line and its 95% band per pick, drawn into `file` and shown on the page with
/// its title, y axis and sentence (`words`).
fn gap_chart(
    md: &mut String,
    (out, file): (&OutputDir, &str),
    [title, y, sentence]: [&str; 3],
    rows: &[usize],
    [pick, lo, est]: [&[f64]; 3],
    got: &WithInterval,
) -> Result<(), Error> {
    let labels: Vec<String> = (0..10).map(|b| format!("{:.1}–{:.1}", b as f64 / 10.0, (b + 1) as f64 / 10.0)).collect();
    let mut picks: Vec<f64> = rows.iter().map(|&i| pick[i]).collect();
    picks.sort_by(f64::total_cmp);
    picks.dedup();
    let series: Vec<charts::Series> = picks
        .iter()
        .enumerate()
        .map(|(k, &p)| {
            let mut at = [[f64::NAN; 10]; 3];
            for &i in rows.iter().filter(|&&i| pick[i] == p) {
                let b = ((lo[i] * 10.0).round() as usize).min(9);
                at[0][b] = got.mean[i] - est[i];
                at[1][b] = got.lo[i] - est[i];
                at[2][b] = got.hi[i] - est[i];
            }
            charts::Series {
                name: format!("after pick {p:.0}"),
                colour: charts::sequence(k, picks.len()),
                values: at[0].to_vec(),
                band: Some((at[1].to_vec(), at[2].to_vec())),
            }
        })
        .collect();
    let axes = charts::Axes { zero_line: true, ..charts::Axes::new(title, "the estimate, by tenth", y, &labels) };
    charts::lines(&out.path().join(file), &axes, &series)?;
    image(md, file, title, sentence);
    Ok(())
}

/// A calibration's rows as a Markdown table: pick, bin, estimates, mean estimate, and
/// `outcome` with its interval.
fn bins_table(md: &mut String, outcome: &str, rows: &[usize], [pick, lo, hi, n, est]: [&[f64]; 5], got: &WithInterval) {
    let _ = writeln!(
        md,
        "| after pick | estimate bin | estimates | mean estimate | {outcome} | 95% interval |\n|---:|---|---:|---:|---:|---|"
    );
    for &i in rows {
        let _ = writeln!(
            md,
            "| {:.0} | {:.1} – {:.1} | {:.0} | {} | {} | {} – {} |",
            pick[i],
            lo[i],
            hi[i],
            n[i],
            fmt4(est[i]),
            fmt4(got.mean[i]),
            fmt4(got.lo[i]),
            fmt4(got.hi[i])
        );
    }
    md.push('\n');
}
