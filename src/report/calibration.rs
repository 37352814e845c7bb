//! Calibration: the strength estimate against the percentile the hand finished at.

use super::*;

/// The strength estimate's calibration: for each pick and bin of the estimate with enough
/// estimates, the mean estimate beside the mean finished percentile, and the largest gap.
pub(super) fn calibration_section(page: &mut Page, cal: &DataFrame, strategy: Option<&str>) -> Result<(), Error> {
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
    let _ = writeln!(
        md,
        "How well does the strength estimate predict? After every pick, each seat's estimate of its finished hand's percentile (bins of a tenth) against the percentile the hand reached, every seat drafting with {module} and nobody folding; bins with at least 200 estimates. Among the bins holding at least 1% of a pick's estimates the largest gap between the mean estimate and the mean finished percentile is {worst_common:.3} ({later:.3} from pick 2 on); over every bin shown, {worst:.3}. A gap of a few hundredths means the bots' fold and raise thresholds mean what they say.\n"
    );
    bins_table(md, "mean finished", &rows, [&pick, &lo, &hi, &n, &est], &fin);
    page.headline(
        Question::Skill,
        format!(
            "The strength estimate predicts the finished hand's percentile to within {:.1} percentile points in the common bins ({:.1} from pick 2 on): the bots' thresholds mean what they say when this is a few points.",
            100.0 * worst_common,
            100.0 * later
        ),
    );
    Ok(())
}

/// The chance of beating the field's calibration: at the full table, for each pick and bin
/// with enough estimates, the mean estimate beside the share of the pot those hands took,
/// and the largest gap over every field size.
pub(super) fn field_calibration_section(page: &mut Page, cal: &DataFrame) -> Result<(), Error> {
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
    let gap = |i: usize| est[i] - won.mean[i];
    let worst = rows.iter().copied().max_by(|&a, &b| gap(a).abs().total_cmp(&gap(b).abs()));
    let Some(worst) = worst else {
        let _ = writeln!(md, "The chance of beating the field has no bin with 200 estimates: play more rounds.\n");
        return Ok(());
    };
    let _ = writeln!(
        md,
        "How well does the chance of beating the field predict? At each check, each seat's chance of beating the k seats after it (every k, as if the rest had folded) against the share of the pot its finished hand took from them; bins with at least 200 estimates. The largest gap is {:+.3} (estimate {:.3}, won {} [{}, {}] over {:.0} estimates, after pick {:.0} against {}): a positive gap means the estimate is too hopeful. A threshold module with `field = \"calibrated\"` reads its chance through this correction, measured under the same rules. The table shows the full field ({}).\n",
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
    bins_table(md, "won", &shown, [&pick, &lo, &hi, &n, &est], &won);
    page.headline(
        Question::Skill,
        format!(
            "The chance of beating the field is off by up to {:.1} points (after pick {:.0}, {}): {}.",
            100.0 * gap(worst).abs(),
            pick[worst],
            rivals(opponents[worst]),
            if gap(worst) > 0.0 { "too hopeful there" } else { "too fearful there" }
        ),
    );
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
