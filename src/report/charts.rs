//! SVG charts (plotters): bars with interval whiskers, points with whiskers, grouped bars,
//! lines with interval bands, a heatmap and a labelled scatter. A legend sits in a panel
//! beside the plot, never on the data, and colours come from one [`Palette`] per report.
//! Text is sized to read at 11 px or more at the page's width (plotters writes a font's
//! size divided by 1.24), x labels too long for their place stand upright, and a scatter
//! labels only the points whose label has room.

use std::cell::RefCell;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::Error;

/// The plot's size; a legend panel widens the image beside it.
const PLOT: (u32, u32) = (860, 460);
/// Font sizes as plotters takes them (the SVG says 1/1.24 of each): tick and legend labels,
/// axis descriptions, titles, and labels written on the data.
const TICK_FONT: u32 = 15;
const DESC_FONT: u32 = 17;
const TITLE_FONT: u32 = 23;
const DATA_FONT: u32 = 14;
/// A generous width of one character of tick text in pixels, to tell whether labels fit.
const CHAR_PX: f64 = 8.0;
/// The longest x label written whole; longer ones are cut with an ellipsis.
const LABEL_CHARS: usize = 32;
/// Left and right margins and the y label area: the x labels share what is left.
const MARGIN: u32 = 12;
const Y_LABEL_AREA: u32 = 84;
/// The most y ticks a chart of labelled x positions asks for.
const Y_TICKS: usize = 11;
/// Colours handed out in order (Tableau 10), cycled past the tenth name.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];
/// A chart colour.
pub type Colour = RGBColor;
/// The colour of bars and lines that stand for no strategy (seats, a lone line): a slate
/// no strategy is given.
pub const NEUTRAL: RGBColor = RGBColor(72, 88, 112);

/// The colour of the `i`th of `n` ordered settings (the values of a swept key, the
/// histograms of a table): steps along a dark-blue-to-green ramp (viridis without its pale
/// end), apart from the strategies' colours.
pub fn sequence(i: usize, n: usize) -> RGBColor {
    const RAMP: [(f64, f64, f64); 4] =
        [(68.0, 1.0, 84.0), (59.0, 82.0, 139.0), (33.0, 145.0, 140.0), (94.0, 201.0, 98.0)];
    let t = if n > 1 { i as f64 / (n - 1) as f64 } else { 0.0 } * (RAMP.len() - 1) as f64;
    let k = (t.floor() as usize).min(RAMP.len() - 2);
    let f = t - k as f64;
    let mix = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    let ((r0, g0, b0), (r1, g1, b1)) = (RAMP[k], RAMP[k + 1]);
    RGBColor(mix(r0, r1), mix(g0, g1), mix(b0, b1))
}

/// Colours keyed by strategy name for a whole report: the first name asked for gets the first
/// colour, and a name keeps its colour in every chart.
#[derive(Debug, Default)]
pub struct Palette {
    names: RefCell<Vec<String>>,
}

impl Palette {
    /// The colour of `name`, handing out the next free one the first time.
    pub fn colour(&self, name: &str) -> RGBColor {
        let mut names = self.names.borrow_mut();
        let index = names.iter().position(|n| n == name).unwrap_or_else(|| {
            names.push(name.to_string());
            names.len() - 1
        });
        PALETTE[index % PALETTE.len()]
    }
}

/// A chart's title, axis descriptions and x positions' labels.
pub struct Axes<'a> {
    /// The title, a sentence.
    pub title: &'a str,
    /// What the x axis shows (empty: nothing written).
    pub x: &'a str,
    /// What the y axis shows.
    pub y: &'a str,
    /// One label per x position.
    pub labels: &'a [String],
    /// Numeric x positions, one per value, for lines on an x axis to scale (empty: the
    /// labels' positions, evenly spaced).
    pub scale: &'a [f64],
    /// Whether to draw a dashed reference line at zero (the y axis then spans it).
    pub zero_line: bool,
    /// The longest x label drawn whole; longer ones are cut with an ellipsis.
    pub label_chars: usize,
    /// Lines drawn as staircases (a best so far: each value holds until the next), the
    /// last value held on to this x; markers only at the values themselves.
    pub step_to: Option<f64>,
    /// Values the y axis spans besides the data's (lines and points): a chart of one of
    /// several facets given the others' values shares their scale, so they compare by eye.
    pub shared: &'a [f64],
}

impl<'a> Axes<'a> {
    /// Axes over evenly spaced labelled positions, without a reference line.
    pub fn new(title: &'a str, x: &'a str, y: &'a str, labels: &'a [String]) -> Axes<'a> {
        Axes { title, x, y, labels, scale: &[], zero_line: false, label_chars: LABEL_CHARS, step_to: None, shared: &[] }
    }
}

/// One line or group of bars: its legend name (empty: no legend entry), colour, one value
/// per x position (NaN: no point) and, for lines, an optional 95% interval band.
pub struct Series {
    /// The legend name.
    pub name: String,
    /// Its colour.
    pub colour: RGBColor,
    /// One value per x position.
    pub values: Vec<f64>,
    /// The interval's lower and upper ends per x position.
    pub band: Option<(Vec<f64>, Vec<f64>)>,
}

fn chart_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Table { name: path.display().to_string(), message: format!("drawing the chart: {e}") }
}

/// The y range for these values: from zero where bars start there; a flat or nearly flat
/// set spans at least 2% of its size (1 around zero), so float noise is not drawn as a
/// slope on an axis of ticks like 0.99999 to 1.0; padded by 8% each side.
fn axis_range(values: impl Iterator<Item = f64>, from_zero: bool) -> (f64, f64) {
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
    let size = lo.abs().max(hi.abs());
    let least = if size > 0.0 { size * 0.02 } else { 1.0 };
    if hi - lo < least {
        let centre = (lo + hi) / 2.0;
        (lo, hi) = (centre - least / 2.0, centre + least / 2.0);
        if from_zero && lo < 0.0 && centre >= 0.0 {
            (lo, hi) = (0.0, least);
        }
    }
    let (first, last) = (lo, hi);
    let pad = (hi - lo) * 0.08;
    let (lo, hi) = (lo - if from_zero && lo == 0.0 { 0.0 } else { pad }, hi + pad);
    ticks_past(lo, hi, (first, last), from_zero)
}

/// The axis widened, where needed, so that the highest and the lowest point can be read
/// off a label rather than guessed beyond the last one (`span`, the data's ends): a
/// labelled tick at or past each end, and for bars below zero a tick under zero, to read
/// their depth by. Widening may widen the ticks' step, so both are checked again, each
/// time with a wider margin (a tick a hair inside the axis may not be drawn).
fn ticks_past(mut lo: f64, mut hi: f64, (first, last): (f64, f64), from_zero: bool) -> (f64, f64) {
    use plotters::coord::ranged1d::{BoldPoints, Ranged};
    use plotters::coord::types::RangedCoordf64;
    for attempt in 0..8 {
        let ticks = RangedCoordf64::from(lo..hi).key_points(BoldPoints(Y_TICKS));
        let (Some(&bottom), Some(&top)) = (ticks.first(), ticks.last()) else { break };
        let step = ticks.windows(2).map(|w| w[1] - w[0]).next().unwrap_or(hi - lo);
        let slack = step * 1e-6;
        let margin = step * (0.02 + 0.25 * attempt as f64);
        let short_top = top < last - slack;
        let short_bottom = if from_zero { first < 0.0 && bottom > -slack } else { bottom > first + slack };
        if !short_top && !short_bottom {
            break;
        }
        if short_top {
            hi = hi.max(((last - slack) / step).ceil() * step + margin);
        }
        if short_bottom {
            let under = if from_zero { first.min(-step) } else { first + slack };
            lo = lo.min((under / step).floor() * step - margin);
        }
    }
    (lo, hi)
}

/// Tick labels with as many decimals as the axis's span needs, and no "-0".
fn tick_formatter(lo: f64, hi: f64) -> impl Fn(&f64) -> String {
    let step = (hi - lo) / 10.0;
    let decimals = if step > 0.0 { (-step.log10()).ceil().clamp(0.0, 8.0) as usize } else { 2 };
    move |v: &f64| {
        let text = format!("{v:.decimals$}");
        if text.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') { text.replace('-', "") } else { text }
    }
}

/// The width of the y label area: the widest tick label and the axis description beside it.
fn y_label_area(ticks: &impl Fn(&f64) -> String, y0: f64, y1: f64) -> u32 {
    let widest = [y0, y1, (y0 + y1) / 2.0].iter().map(|v| ticks(v).chars().count()).max().unwrap_or(0);
    (widest as u32 * CHAR_PX as u32 + 40).max(Y_LABEL_AREA)
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

/// How a legend entry is marked: a line with a point, a filled square or a point alone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Line,
    Square,
    Dot,
}

/// Whether x labels this long must stand upright to fit `width` pixels between them.
fn upright(labels: &[String], width: f64) -> bool {
    let chars = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    chars * CHAR_PX + 8.0 > width
}

/// A label cut to `chars` characters.
fn cut(label: &str, chars: usize) -> String {
    if label.chars().count() > chars {
        label.chars().take(chars - 1).chain(['…']).collect()
    } else {
        label.to_string()
    }
}

/// The height upright labels need below the axis.
fn upright_area(labels: &[String], most: usize) -> u32 {
    let chars = labels.iter().map(|l| cut(l, most).chars().count()).max().unwrap_or(0);
    chars as u32 * CHAR_PX as u32 + 16
}

/// Writes x labels upright (reading upwards, ending just under the axis) at the x
/// positions `0..labels.len()`, below the value `y0`.
fn draw_upright_labels(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    chart: &Chart<'_, '_>,
    (labels, most): (&[String], usize),
    y0: f64,
) -> Result<(), String> {
    let style = TextStyle::from(("sans-serif", TICK_FONT).into_font().transform(FontTransform::Rotate270))
        .pos(Pos::new(HPos::Right, VPos::Center));
    for (i, label) in labels.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(i as f64, y0));
        area.draw(&Text::new(cut(label, most), (x, y + 10), style.clone())).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A legend's entries: (name, colour); unnamed series have none.
fn legend_entries(series: &[Series]) -> Vec<(String, RGBColor)> {
    series.iter().filter(|s| !s.name.is_empty()).map(|s| (s.name.clone(), s.colour)).collect()
}

/// The longest legend name shown in full; longer ones are cut with an ellipsis.
const LEGEND_CHARS: usize = 48;
/// Height of one legend row, and where the first sits.
const LEGEND_ROW: i32 = 24;
const LEGEND_TOP: i32 = 56;

/// Width of the legend panel for these names (none without entries).
fn legend_width(entries: &[(String, RGBColor)]) -> u32 {
    if entries.is_empty() {
        return 0;
    }
    let chars = entries.iter().map(|(n, _)| n.chars().count().min(LEGEND_CHARS)).max().unwrap_or(0);
    (chars as u32 * 8 + 48).clamp(120, 440)
}

/// Draws the legend in its panel: a mark and the name per row.
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    entries: &[(String, RGBColor)],
    mark: Mark,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<_>| e.to_string();
    for (row, (name, colour)) in entries.iter().enumerate() {
        let y = LEGEND_TOP + row as i32 * LEGEND_ROW;
        match mark {
            Mark::Line => {
                area.draw(&PathElement::new(vec![(6, y), (26, y)], colour.stroke_width(2))).map_err(e)?;
                area.draw(&Circle::new((16, y), 4, colour.filled())).map_err(e)?;
            }
            Mark::Square => area.draw(&Rectangle::new([(10, y - 6), (22, y + 6)], colour.filled())).map_err(e)?,
            Mark::Dot => area.draw(&Circle::new((16, y), 5, colour.filled())).map_err(e)?,
        }
        let shown: String = if name.chars().count() > LEGEND_CHARS {
            name.chars().take(LEGEND_CHARS - 1).chain(['…']).collect()
        } else {
            name.clone()
        };
        area.draw(&Text::new(shown, (34, y - 8), ("sans-serif", TICK_FONT).into_font())).map_err(e)?;
    }
    Ok(())
}

/// The kinds of chart drawn on labelled x positions: their axes differ.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Bars from zero.
    Bars,
    /// Points with whiskers on an axis that spans the data (no zero).
    Points,
    /// Lines between points.
    Lines,
    /// Lines between points at numeric x positions, on an axis to scale.
    Scaled,
}

/// Draws a titled chart with labelled x positions, the y range of `values` and the legend
/// `entries` beside it; `body` draws the series.
fn draw(
    path: &Path,
    axes: &Axes<'_>,
    values: impl Iterator<Item = f64>,
    kind: Kind,
    (entries, mark): (&[(String, RGBColor)], Mark),
    body: impl FnOnce(&mut Chart<'_, '_>, f64) -> Result<(), String>,
) -> Result<(), Error> {
    let err = |e: &dyn std::fmt::Display| chart_error(path, e);
    let side = legend_width(entries);
    let n = axes.labels.len();
    let (y0, y1) = axis_range(values, kind == Kind::Bars);
    let x_max = if kind == Kind::Scaled {
        axes.scale.iter().chain(&axes.step_to).copied().fold(0.0, f64::max).max(1.0) * 1.04
    } else {
        0.0
    };
    let ticks = tick_formatter(y0, y1);
    let y_area = y_label_area(&ticks, y0, y1);
    let slot = (PLOT.0 - 2 * MARGIN - y_area) as f64 / n.max(1) as f64;
    let stand = upright(axes.labels, slot);
    let desc = if axes.x.is_empty() { 0 } else { 26 };
    let label_area = if stand { upright_area(axes.labels, axes.label_chars) + desc } else { 34 + desc };
    let height = (PLOT.1 + label_area).max((LEGEND_TOP + LEGEND_ROW * entries.len() as i32 + 10) as u32);
    let root = SVGBackend::new(path, (PLOT.0 + side, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (plot, legend) = root.split_horizontally(PLOT.0);
    let x_range = match kind {
        Kind::Lines => -0.3f64..(n as f64 - 0.7).max(0.3),
        Kind::Scaled => 0.0..x_max,
        Kind::Bars | Kind::Points => -0.5f64..(n as f64 - 0.5),
    };
    let mut chart = ChartBuilder::on(&plot)
        .caption(axes.title, ("sans-serif", TITLE_FONT))
        .margin(MARGIN)
        .x_label_area_size(label_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(x_range, y0..y1)
        .map_err(|e| err(&e))?;
    let mut mesh = chart.configure_mesh();
    if !matches!(kind, Kind::Lines | Kind::Scaled) {
        mesh.disable_x_mesh();
    }
    let x_ticks = tick_formatter(0.0, x_max);
    let x_labels = |x: &f64| match kind {
        Kind::Scaled => x_ticks(x),
        _ if stand => String::new(),
        _ => label_at(axes.labels, *x),
    };
    // Light grids: faint major lines only, so the data stands out.
    mesh.light_line_style(TRANSPARENT).bold_line_style(BLACK.mix(0.08));
    mesh.x_labels(if kind == Kind::Scaled { 8 } else { n.max(1) })
        .y_labels(Y_TICKS)
        .x_label_formatter(&x_labels)
        .y_label_formatter(&ticks)
        .x_label_style(("sans-serif", TICK_FONT))
        .y_label_style(("sans-serif", TICK_FONT))
        .axis_desc_style(("sans-serif", DESC_FONT))
        .y_desc(axes.y);
    if !axes.x.is_empty() {
        mesh.x_desc(axes.x);
    }
    mesh.draw().map_err(|e| err(&e))?;
    if stand {
        draw_upright_labels(&plot, &chart, (axes.labels, axes.label_chars), y0).map_err(|e| err(&e))?;
    }
    if axes.zero_line && y0 < 0.0 && y1 > 0.0 {
        // A reference, not data: dashed and unnamed.
        let (x_lo, x_hi) = (chart.x_range().start, chart.x_range().end);
        let zero = DashedLineSeries::new([(x_lo, 0.0), (x_hi, 0.0)], 8, 6, BLACK.mix(0.55).stroke_width(1));
        chart.draw_series(zero).map_err(|e| err(&e))?;
    }
    body(&mut chart, y0).map_err(|e| err(&e))?;
    draw_legend(&legend, entries, mark).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// One bar (from zero) or point (on an axis spanning the data, for ratings) per label,
/// coloured `colours[i]`, with a 95% interval whisker.
pub fn bars_with_whiskers(
    path: &Path,
    axes: &Axes<'_>,
    (values, lo, hi): (&[f64], &[f64], &[f64]),
    colours: &[RGBColor],
    from_zero: bool,
) -> Result<(), Error> {
    let all = values.iter().chain(lo).chain(hi).copied();
    let kind = if from_zero { Kind::Bars } else { Kind::Points };
    draw(path, axes, all, kind, (&[], Mark::Square), |chart, y0| {
        let colour = |i: usize| colours.get(i).copied().unwrap_or(NEUTRAL);
        if from_zero {
            chart
                .draw_series(values.iter().enumerate().filter(|(_, v)| v.is_finite()).map(|(i, &v)| {
                    let x = i as f64;
                    Rectangle::new([(x - 0.3, 0.0f64.max(y0)), (x + 0.3, v)], colour(i).mix(0.8).filled())
                }))
                .map_err(|e| e.to_string())?;
        }
        // Whiskers: a vertical line with caps from the interval's lower end to its upper.
        let shown = (0..values.len()).filter(|&i| lo[i].is_finite() && hi[i].is_finite());
        let whiskers = shown.flat_map(|i| {
            let x = i as f64;
            [
                vec![(x, lo[i]), (x, hi[i])],
                vec![(x - 0.06, lo[i]), (x + 0.06, lo[i])],
                vec![(x - 0.06, hi[i]), (x + 0.06, hi[i])],
            ]
        });
        chart.draw_series(whiskers.map(|w| PathElement::new(w, BLACK.stroke_width(2)))).map_err(|e| e.to_string())?;
        if !from_zero {
            chart
                .draw_series(
                    (0..values.len())
                        .filter(|&i| values[i].is_finite())
                        .map(|i| Circle::new((i as f64, values[i]), 4, colour(i).filled())),
                )
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    })
}

/// Groups of bars: one group per label, one bar per series.
pub fn grouped_bars(path: &Path, axes: &Axes<'_>, series: &[Series]) -> Result<(), Error> {
    let all = series.iter().flat_map(|s| s.values.iter().copied());
    let entries = legend_entries(series);
    draw(path, axes, all, Kind::Bars, (&entries, Mark::Square), |chart, y0| {
        let width = 0.8 / series.len().max(1) as f64;
        for (k, s) in series.iter().enumerate() {
            let colour = s.colour;
            chart
                .draw_series(s.values.iter().enumerate().filter(|(_, v)| v.is_finite()).map(move |(i, &v)| {
                    let x = i as f64 - 0.4 + k as f64 * width;
                    Rectangle::new([(x, 0.0f64.max(y0)), (x + width * 0.9, v)], colour.filled())
                }))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    })
}

/// Lines over labelled x positions (or, with `axes.scale`, numeric ones to scale), one per
/// series, each with its shaded 95% interval band where it has one.
pub fn lines(path: &Path, axes: &Axes<'_>, series: &[Series]) -> Result<(), Error> {
    let band_values = series.iter().filter_map(|s| s.band.as_ref()).flat_map(|(lo, hi)| lo.iter().chain(hi).copied());
    let zero = axes.zero_line.then_some(0.0);
    let all = series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .chain(band_values)
        .chain(zero)
        .chain(axes.shared.iter().copied());
    let entries = legend_entries(series);
    let kind = if axes.scale.is_empty() { Kind::Lines } else { Kind::Scaled };
    // A staircase through the points, held on to `step_to`.
    let stairs = |points: Vec<(f64, f64)>| -> Vec<(f64, f64)> {
        let Some(end) = axes.step_to else { return points };
        let mut out = Vec::with_capacity(points.len() * 2 + 1);
        for (i, &(x, y)) in points.iter().enumerate() {
            if i > 0 {
                out.push((x, points[i - 1].1));
            }
            out.push((x, y));
        }
        if let Some(&(_, y)) = points.last().filter(|p| p.0 < end) {
            out.push((end, y));
        }
        out
    };
    let x = |i: usize| if axes.scale.is_empty() { i as f64 } else { axes.scale.get(i).copied().unwrap_or(f64::NAN) };
    draw(path, axes, all, kind, (&entries, Mark::Line), |chart, _| {
        let points = |values: &[f64]| -> Vec<(f64, f64)> {
            values
                .iter()
                .enumerate()
                .filter(|(i, v)| v.is_finite() && x(*i).is_finite())
                .map(|(i, &v)| (x(i), v))
                .collect()
        };
        for s in series {
            if let Some((lo, hi)) = &s.band {
                let lower = stairs(points(lo));
                let outline: Vec<(f64, f64)> = stairs(points(hi)).into_iter().chain(lower.into_iter().rev()).collect();
                if outline.len() >= 2 {
                    chart
                        .draw_series(std::iter::once(Polygon::new(outline, s.colour.mix(0.18).filled())))
                        .map_err(|e| e.to_string())?;
                }
            }
        }
        for s in series {
            let line = points(&s.values);
            chart
                .draw_series(LineSeries::new(stairs(line.clone()), s.colour.stroke_width(2)))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(line.into_iter().map(|p| Circle::new(p, 4, s.colour.filled())))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    })
}

/// Points with 95% interval whiskers over categories, one colour per series, side by side
/// at each category and never joined: the x positions have no order between them.
pub fn points(path: &Path, axes: &Axes<'_>, series: &[Series]) -> Result<(), Error> {
    let band_values = series.iter().filter_map(|s| s.band.as_ref()).flat_map(|(lo, hi)| lo.iter().chain(hi).copied());
    let all =
        series.iter().flat_map(|s| s.values.iter().copied()).chain(band_values).chain(axes.shared.iter().copied());
    let entries = legend_entries(series);
    draw(path, axes, all, Kind::Points, (&entries, Mark::Dot), |chart, _| {
        let m = series.len().max(1) as f64;
        for (k, s) in series.iter().enumerate() {
            let dx = (k as f64 - (m - 1.0) / 2.0) * (0.5 / m);
            if let Some((lo, hi)) = &s.band {
                let shown = (0..s.values.len()).filter(|&i| lo[i].is_finite() && hi[i].is_finite());
                let whiskers = shown.map(|i| {
                    PathElement::new(vec![(i as f64 + dx, lo[i]), (i as f64 + dx, hi[i])], s.colour.stroke_width(2))
                });
                chart.draw_series(whiskers).map_err(|e| e.to_string())?;
            }
            let dots = (0..s.values.len())
                .filter(|&i| s.values[i].is_finite())
                .map(|i| Circle::new((i as f64 + dx, s.values[i]), 5, s.colour.filled()));
            chart.draw_series(dots).map_err(|e| e.to_string())?;
        }
        Ok(())
    })
}

/// A heatmap of a square matrix (row against column), each cell's value written in it:
/// above `even` blue, below red, white at it, fully coloured `span` away; NaN cells are
/// grey. A `signed` value is written with its sign (a difference), else as it is (a share).
pub fn heatmap(
    path: &Path,
    title: &str,
    labels: &[String],
    values: &[Vec<f64>],
    (even, span, signed): (f64, f64, bool),
) -> Result<(), Error> {
    let err = |e: &dyn std::fmt::Display| chart_error(path, e);
    let n = labels.len();
    let cell = 90;
    let stand = upright(labels, cell as f64);
    let x_area = if stand { upright_area(labels, LABEL_CHARS) + 30 } else { 60 };
    let y_area =
        labels.iter().map(|l| cut(l, LABEL_CHARS).chars().count()).max().unwrap_or(0) as u32 * CHAR_PX as u32 + 40;
    let side = cell * n as u32 + y_area + 2 * MARGIN;
    let root = SVGBackend::new(path, (side.max(420), cell * n as u32 + x_area + 60)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", TITLE_FONT - 2))
        .margin(MARGIN)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, -0.5f64..n as f64 - 0.5)
        .map_err(|e| err(&e))?;
    // Cell (row i, column j) is centred on (j, n - 1 - i); labels sit at whole numbers.
    let reversed: Vec<String> = labels.iter().rev().cloned().collect();
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(n)
        .y_labels(n)
        .x_label_formatter(&|x| if stand { String::new() } else { label_at(labels, *x) })
        .y_label_formatter(&|y| cut(&label_at(&reversed, *y), LABEL_CHARS))
        .x_desc("opponent (column)")
        .y_desc("strategy (row)")
        .x_label_style(("sans-serif", TICK_FONT))
        .y_label_style(("sans-serif", TICK_FONT))
        .axis_desc_style(("sans-serif", DESC_FONT))
        .draw()
        .map_err(|e| err(&e))?;
    if stand {
        draw_upright_labels(&root, &chart, (labels, LABEL_CHARS), -0.5).map_err(|e| err(&e))?;
    }
    let colour = |v: f64| -> RGBColor {
        if !v.is_finite() {
            return RGBColor(220, 220, 220);
        }
        let t = if span > 0.0 { ((v - even) / span).clamp(-1.0, 1.0) } else { 0.0 };
        let fade = |c: u8| (255.0 - (255.0 - c as f64) * t.abs()) as u8;
        if t >= 0.0 { RGBColor(fade(33), fade(102), fade(172)) } else { RGBColor(fade(178), fade(24), fade(43)) }
    };
    for (i, row) in values.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let (x, y) = (j as f64, (n - 1 - i) as f64);
            let cell = Rectangle::new([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)], colour(v).filled());
            chart.draw_series(std::iter::once(cell)).map_err(|e| err(&e))?;
            if v.is_finite() {
                let style =
                    TextStyle::from(("sans-serif", TICK_FONT).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
                let shown = if signed { crate::output::signed(v, 3) } else { format!("{v:.3}") };
                let text = Text::new(shown, (x, y), style);
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
    /// The points' colour.
    pub colour: RGBColor,
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
    let root = SVGBackend::new(path, (PLOT.0, PLOT.1 + 120)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (x, xlo, xhi) = points.x;
    let (y, ylo, yhi) = points.y;
    let (x0, x1) = axis_range(x.iter().chain(xlo).chain(xhi).copied(), false);
    let (y0, y1) = axis_range(y.iter().chain(ylo).chain(yhi).copied(), false);
    let (x_ticks, y_ticks) = (tick_formatter(x0, x1), tick_formatter(y0, y1));
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", TITLE_FONT))
        .margin(MARGIN)
        .x_label_area_size(60)
        .y_label_area_size(y_label_area(&y_ticks, y0, y1))
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.08))
        .x_label_formatter(&x_ticks)
        .y_label_formatter(&y_ticks)
        .x_label_style(("sans-serif", TICK_FONT))
        .y_label_style(("sans-serif", TICK_FONT))
        .axis_desc_style(("sans-serif", DESC_FONT))
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|e| err(&e))?;
    let shown = |i: &usize| x[*i].is_finite() && y[*i].is_finite();
    // Dark enough to read against the points' colour; a bar shorter than a point hides behind it.
    let bar = BLACK.mix(0.45).stroke_width(2);
    let clamp = |v: f64, lo: f64, hi: f64| if v.is_finite() { v.clamp(lo, hi) } else { lo };
    for i in (0..x.len()).filter(shown) {
        let (a, b) = (clamp(xlo[i], x0, x1), clamp(xhi[i], x0, x1));
        let (c, d) = (clamp(ylo[i], y0, y1), clamp(yhi[i], y0, y1));
        let lines = [vec![(a, y[i]), (b, y[i])], vec![(x[i], c), (x[i], d)]];
        chart.draw_series(lines.into_iter().map(|l| PathElement::new(l, bar))).map_err(|e| err(&e))?;
    }
    chart
        .draw_series((0..x.len()).filter(shown).map(|i| Circle::new((x[i], y[i]), 3, points.colour.filled())))
        .map_err(|e| err(&e))?;
    // Labels where they have room: the points farthest from the middle first (a cluster's
    // labels would cover each other), each to the right, left, above or below its point or
    // at a corner, clear of every label placed and every point; the rest stay unlabelled.
    let shown: Vec<usize> = (0..x.len()).filter(shown).collect();
    let pixel: Vec<(i32, i32)> = shown.iter().map(|&i| chart.backend_coord(&(x[i], y[i]))).collect();
    let (cx, cy) = (
        pixel.iter().map(|p| p.0 as f64).sum::<f64>() / pixel.len().max(1) as f64,
        pixel.iter().map(|p| p.1 as f64).sum::<f64>() / pixel.len().max(1) as f64,
    );
    let mut order: Vec<usize> = (0..shown.len()).collect();
    let far = |k: usize| (pixel[k].0 as f64 - cx).hypot(pixel[k].1 as f64 - cy);
    order.sort_by(|&a, &b| far(b).total_cmp(&far(a)));
    let (left, top) = chart.backend_coord(&(x0, y1));
    let (right, bottom) = chart.backend_coord(&(x1, y0));
    let char_px = DATA_FONT as f64 / 1.24 * 0.62;
    let high = (DATA_FONT as f64 / 1.24 * 1.25) as i32;
    let overlaps = |a: (i32, i32, i32, i32), b: (i32, i32, i32, i32)| a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
    let dots: Vec<(i32, i32, i32, i32)> = pixel.iter().map(|&(px, py)| (px - 4, py - 4, px + 4, py + 4)).collect();
    let mut placed: Vec<(i32, i32, i32, i32)> = Vec::new();
    let style = TextStyle::from(("sans-serif", DATA_FONT).into_font()).pos(Pos::new(HPos::Left, VPos::Top));
    for k in order {
        let label = &points.labels[shown[k]];
        let w = (label.chars().count() as f64 * char_px).ceil() as i32 + 2;
        let (px, py) = pixel[k];
        let spots = [
            (px + 6, py - high / 2),
            (px - 6 - w, py - high / 2),
            (px - w / 2, py - 6 - high),
            (px - w / 2, py + 6),
            (px + 4, py - 4 - high),
            (px - 4 - w, py - 4 - high),
            (px + 4, py + 4),
            (px - 4 - w, py + 4),
        ];
        let free = spots.into_iter().map(|(lx, ly)| (lx, ly, lx + w, ly + high)).find(|&b| {
            b.0 >= left
                && b.2 <= right
                && b.1 >= top
                && b.3 <= bottom
                && !placed.iter().any(|&p| overlaps(p, b))
                && !dots.iter().any(|&d| overlaps(d, b))
        });
        if let Some(b) = free {
            root.draw(&Text::new(label.clone(), (b.0, b.1), style.clone())).map_err(|e| err(&e))?;
            placed.push(b);
        }
    }
    root.present().map_err(|e| err(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::{BoldPoints, Ranged};
    use plotters::coord::types::RangedCoordf64;

    fn ticks(lo: f64, hi: f64) -> Vec<f64> {
        RangedCoordf64::from(lo..hi).key_points(BoldPoints(Y_TICKS))
    }

    #[test]
    fn bars_below_zero_reach_past_a_tick_under_zero() {
        for values in [[-0.01, 2.0], [-0.3, 9.5], [-1e-4, 0.02], [-0.2, 0.2], [-3.0, -1.0]] {
            let (lo, hi) = axis_range(values.into_iter(), true);
            let under = ticks(lo, hi).into_iter().filter(|&t| t < 0.0).fold(f64::NAN, f64::max);
            assert!(under.is_finite(), "{values:?}: no tick under zero on {lo}..{hi}");
            assert!(lo <= values[0], "{values:?}: the lowest bar is inside {lo}..{hi}");
            // Lowered by at most a step or so: the chart is not squashed.
            assert!(lo >= values[0].min(under) - (hi - lo) * 0.2, "{values:?}: {lo}..{hi}");
        }
        // Bars all above zero start at zero.
        assert_eq!(axis_range([0.5, 2.0].into_iter(), true).0, 0.0);
    }

    /// Over many spans of every scale, a bar chart's and a points chart's axis alike: a
    /// labelled tick at or past the highest point, and at or under the lowest (a bar chart:
    /// a tick under zero where a bar is).
    #[test]
    fn every_span_reaches_a_labelled_tick_at_both_ends() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..4000 {
            let scale = 10f64.powf(next() * 8.0 - 4.0);
            let (a, b) = ((next() - 0.3) * scale, (next() - 0.3) * scale);
            let values = [a.min(b), a.max(b)];
            for from_zero in [false, true] {
                let (lo, hi) = axis_range(values.into_iter(), from_zero);
                let t = ticks(lo, hi);
                let (bottom, top) = (t[0], t[t.len() - 1]);
                let last = if from_zero { values[1].max(0.0) } else { values[1] };
                assert!(top >= last - 1e-9 * scale, "{values:?} ({from_zero}): top tick {top} on {lo}..{hi}");
                if from_zero {
                    assert!(values[0] >= 0.0 || bottom < 0.0, "{values:?}: no tick under zero on {lo}..{hi}");
                } else {
                    assert!(bottom <= values[0] + 1e-9 * scale, "{values:?}: bottom tick {bottom} on {lo}..{hi}");
                }
            }
        }
    }

    /// The highest and the lowest point sit at or inside a labelled tick, never past the
    /// last one (a point at 42 above a top label of 41.8).
    #[test]
    fn the_data_lies_within_labelled_ticks() {
        let spans =
            [[38.1, 42.0], [0.51, 0.587], [-3.3, 7.94], [100.0, 100.4], [0.0, 1.0], [-0.02, -0.013], [12.5, 99.9]];
        for values in spans {
            for from_zero in [false, true] {
                let (lo, hi) = axis_range(values.into_iter(), from_zero);
                let t = ticks(lo, hi);
                let (bottom, top) = (t[0], t[t.len() - 1]);
                assert!(
                    top >= values[1] - 1e-9,
                    "{values:?} ({from_zero}): top tick {top} below {} on {lo}..{hi}",
                    values[1]
                );
                if !from_zero {
                    assert!(
                        bottom <= values[0] + 1e-9,
                        "{values:?}: bottom tick {bottom} above {} on {lo}..{hi}",
                        values[0]
                    );
                }
                // Widened by at most a step or so: the chart is not squashed.
                let step = t[1] - t[0];
                let (first, last) =
                    if from_zero { (values[0].min(0.0), values[1].max(0.0)) } else { (values[0], values[1]) };
                assert!(hi - lo <= (last - first).max(last.abs() * 0.02) * 1.2 + 2.1 * step, "{values:?}: {lo}..{hi}");
            }
        }
    }
}
