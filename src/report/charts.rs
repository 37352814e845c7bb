//! SVG charts (plotters): bars with interval whiskers, grouped bars, and lines.

use std::path::Path;

use plotters::prelude::*;

use crate::error::Error;

const SIZE: (u32, u32) = (860, 460);
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn chart_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Table { name: path.display().to_string(), message: format!("drawing the chart: {e}") }
}

fn y_range(values: impl Iterator<Item = f64>, from_zero: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return (0.0, 1.0);
    }
    if from_zero {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    let pad = ((hi - lo) * 0.08).max(1e-6);
    (lo - if from_zero && lo == 0.0 { 0.0 } else { pad }, hi + pad)
}

/// The chart type every function here draws on: x is a label index, y a value.
type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// The label at x when x is (close to) a label's index.
fn label_at(labels: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 0.01 && i >= 0.0 { labels.get(i as usize).cloned().unwrap_or_default() } else { String::new() }
}

/// The three kinds of chart: their axes and legends differ.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bars,
    GroupedBars,
    Lines,
}

/// Draws a titled chart with labelled x positions and the y range of `values`; `body`
/// draws the series.
fn draw(
    path: &Path,
    title: &str,
    y_label: &str,
    labels: &[String],
    values: impl Iterator<Item = f64>,
    kind: Kind,
    body: impl FnOnce(&mut Chart<'_, '_>, f64) -> Result<(), String>,
) -> Result<(), Error> {
    let bars = kind != Kind::Lines;
    let legend = kind != Kind::Bars;
    let err = |e: &dyn std::fmt::Display| chart_error(path, e);
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (y0, y1) = y_range(values, bars);
    let n = labels.len();
    let x_range = if bars { -0.5f64..(n as f64 - 0.5) } else { -0.3f64..(n as f64 - 0.7).max(0.3) };
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(if bars { 60 } else { 40 })
        .y_label_area_size(60)
        .build_cartesian_2d(x_range, y0..y1)
        .map_err(|e| err(&e))?;
    let mut mesh = chart.configure_mesh();
    if bars {
        mesh.disable_x_mesh();
    }
    // Light grids: faint major lines only, so the data stands out.
    mesh.light_line_style(TRANSPARENT).bold_line_style(BLACK.mix(0.08));
    mesh.x_labels(n.max(1))
        .x_label_formatter(&|x| label_at(labels, *x))
        .x_label_style(("sans-serif", 11))
        .y_desc(y_label)
        .draw()
        .map_err(|e| err(&e))?;
    body(&mut chart, y0).map_err(|e| err(&e))?;
    if legend {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}

/// One bar per label with a 95% interval whisker.
pub fn bars_with_whiskers(
    path: &Path,
    title: &str,
    y_label: &str,
    labels: &[String],
    values: &[f64],
    lo: &[f64],
    hi: &[f64],
) -> Result<(), Error> {
    let all = values.iter().chain(lo).chain(hi).copied();
    draw(path, title, y_label, labels, all, Kind::Bars, |chart, y0| {
        chart
            .draw_series(values.iter().enumerate().map(|(i, &v)| {
                let x = i as f64;
                Rectangle::new([(x - 0.3, 0.0f64.max(y0)), (x + 0.3, v)], PALETTE[i % PALETTE.len()].mix(0.8).filled())
            }))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(
                (0..values.len())
                    .map(|i| ErrorBar::new_vertical(i as f64, lo[i], values[i], hi[i], BLACK.stroke_width(2), 14)),
            )
            .map_err(|e| e.to_string())?;
        Ok(())
    })
}

/// Groups of bars: one group per label, one bar per series.
pub fn grouped_bars(
    path: &Path,
    title: &str,
    y_label: &str,
    labels: &[String],
    series: &[(String, Vec<f64>)],
) -> Result<(), Error> {
    let all = series.iter().flat_map(|s| s.1.iter().copied());
    draw(path, title, y_label, labels, all, Kind::GroupedBars, |chart, y0| {
        let width = 0.8 / series.len().max(1) as f64;
        for (k, (name, values)) in series.iter().enumerate() {
            let color = PALETTE[k % PALETTE.len()];
            chart
                .draw_series(values.iter().enumerate().map(move |(i, &v)| {
                    let x = i as f64 - 0.4 + k as f64 * width;
                    Rectangle::new([(x, 0.0f64.max(y0)), (x + width * 0.9, v)], color.filled())
                }))
                .map_err(|e| e.to_string())?
                .label(name.as_str())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
        }
        Ok(())
    })
}

/// Lines over labelled x positions, one per series.
pub fn lines(
    path: &Path,
    title: &str,
    y_label: &str,
    labels: &[String],
    series: &[(String, Vec<f64>)],
) -> Result<(), Error> {
    lines_with_bands(path, title, y_label, labels, series, &[])
}

/// Lines with a shaded 95% interval band around each series that has one (`bands[k]` is
/// the (lo, hi) of series k).
pub fn lines_with_bands(
    path: &Path,
    title: &str,
    y_label: &str,
    labels: &[String],
    series: &[(String, Vec<f64>)],
    bands: &[Option<(Vec<f64>, Vec<f64>)>],
) -> Result<(), Error> {
    let band_values = bands.iter().flatten().flat_map(|(lo, hi)| lo.iter().chain(hi).copied());
    let all = series.iter().flat_map(|s| s.1.iter().copied()).chain(band_values);
    draw(path, title, y_label, labels, all, Kind::Lines, |chart, _| {
        for (k, (lo, hi)) in bands.iter().enumerate().filter_map(|(k, b)| b.as_ref().map(|b| (k, b))) {
            let color = PALETTE[k % PALETTE.len()];
            let upper = hi.iter().enumerate().filter(|(_, v)| v.is_finite()).map(|(i, &v)| (i as f64, v));
            let lower: Vec<(f64, f64)> =
                lo.iter().enumerate().filter(|(_, v)| v.is_finite()).map(|(i, &v)| (i as f64, v)).collect();
            let outline: Vec<(f64, f64)> = upper.chain(lower.into_iter().rev()).collect();
            chart
                .draw_series(std::iter::once(Polygon::new(outline, color.mix(0.18).filled())))
                .map_err(|e| e.to_string())?;
        }
        for (k, (name, values)) in series.iter().enumerate() {
            let color = PALETTE[k % PALETTE.len()];
            let points: Vec<(f64, f64)> =
                values.iter().enumerate().filter(|(_, v)| v.is_finite()).map(|(i, &v)| (i as f64, v)).collect();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], color.stroke_width(2)));
            chart
                .draw_series(points.into_iter().map(|p| Circle::new(p, 4, color.filled())))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    })
}

/// A heatmap of a square matrix of shares (row against column): blue above one half, red
/// below, white at one half, with each cell's value written in it; NaN cells are grey.
pub fn heatmap(path: &Path, title: &str, labels: &[String], values: &[Vec<f64>]) -> Result<(), Error> {
    let err = |e: &dyn std::fmt::Display| chart_error(path, e);
    let n = labels.len();
    let side = (90 * n as u32 + 220).max(420);
    let root = SVGBackend::new(path, (side, side)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(90)
        .y_label_area_size(130)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, -0.5f64..n as f64 - 0.5)
        .map_err(|e| err(&e))?;
    // Cell (row i, column j) is centred on (j, n - 1 - i); labels sit at whole numbers.
    let reversed: Vec<String> = labels.iter().rev().cloned().collect();
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(n)
        .y_labels(n)
        .x_label_formatter(&|x| label_at(labels, *x))
        .y_label_formatter(&|y| label_at(&reversed, *y))
        .x_desc("opponent (column)")
        .y_desc("strategy (row)")
        .x_label_style(("sans-serif", 11))
        .y_label_style(("sans-serif", 11))
        .draw()
        .map_err(|e| err(&e))?;
    let colour = |v: f64| -> RGBColor {
        if !v.is_finite() {
            return RGBColor(220, 220, 220);
        }
        let t = ((v - 0.5) * 2.0).clamp(-1.0, 1.0);
        let fade = |c: u8| (255.0 - (255.0 - c as f64) * t.abs()) as u8;
        if t >= 0.0 { RGBColor(fade(33), fade(102), fade(172)) } else { RGBColor(fade(178), fade(24), fade(43)) }
    };
    for (i, row) in values.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let (x, y) = (j as f64, (n - 1 - i) as f64);
            let cell = Rectangle::new([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)], colour(v).filled());
            chart.draw_series(std::iter::once(cell)).map_err(|e| err(&e))?;
            if v.is_finite() {
                let text = Text::new(format!("{v:.3}"), (x - 0.18, y + 0.05), ("sans-serif", 13));
                chart.draw_series(std::iter::once(text)).map_err(|e| err(&e))?;
            }
        }
    }
    root.present().map_err(|e| err(&e))
}

/// One labelled point per item at (x, y), with 95% interval bars in both directions.
pub struct Scatter<'a> {
    /// The point labels.
    pub labels: &'a [String],
    /// x values with their intervals (mean, lo, hi per point).
    pub x: (&'a [f64], &'a [f64], &'a [f64]),
    /// y values with their intervals.
    pub y: (&'a [f64], &'a [f64], &'a [f64]),
}

/// A labelled scatter with interval bars on both axes.
pub fn scatter_with_intervals(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    points: &Scatter<'_>,
) -> Result<(), Error> {
    let err = |e: &dyn std::fmt::Display| chart_error(path, e);
    let root = SVGBackend::new(path, (SIZE.0, SIZE.1 + 120)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (x, xlo, xhi) = points.x;
    let (y, ylo, yhi) = points.y;
    let (x0, x1) = y_range(x.iter().chain(xlo).chain(xhi).copied(), false);
    let (y0, y1) = y_range(y.iter().chain(ylo).chain(yhi).copied(), false);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.08))
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|e| err(&e))?;
    let shown = |i: &usize| x[*i].is_finite() && y[*i].is_finite();
    let bar = PALETTE[0].mix(0.35).stroke_width(1);
    let clamp = |v: f64, lo: f64, hi: f64| if v.is_finite() { v.clamp(lo, hi) } else { lo };
    for i in (0..x.len()).filter(shown) {
        let (a, b) = (clamp(xlo[i], x0, x1), clamp(xhi[i], x0, x1));
        let (c, d) = (clamp(ylo[i], y0, y1), clamp(yhi[i], y0, y1));
        let lines = [vec![(a, y[i]), (b, y[i])], vec![(x[i], c), (x[i], d)]];
        chart.draw_series(lines.into_iter().map(|l| PathElement::new(l, bar))).map_err(|e| err(&e))?;
    }
    chart
        .draw_series((0..x.len()).filter(shown).map(|i| Circle::new((x[i], y[i]), 3, PALETTE[0].filled())))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(
            (0..x.len())
                .filter(shown)
                .map(|i| Text::new(points.labels[i].clone(), (x[i], y[i]), ("sans-serif", 11).into_font())),
        )
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}
