//! The page a report is assembled on: each study's text filed under the question it
//! answers, a headline per finding for the summary, and the charts kept under the cap.

use std::fmt::Write;

/// The questions a report answers, in the order its sections appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Question {
    /// Scores, win rates, pairings and ratings of the strategies.
    WhoWins,
    /// Seats: does where one sits decide the result.
    Fair,
    /// The health card: does the variant finish, how long, limits met.
    Healthy,
    /// Skill: search ladders, calibration, training and exploitability.
    Skill,
    /// Rules: versus, sweeps, sensitivity and tuning.
    Rules,
    /// Strategy settings: sweeps that vary only presets' parameters.
    Settings,
    /// Cards and hands: what is taken, when, what wins, which hands come up.
    Cards,
}

impl Question {
    /// Every question, in page order.
    pub(super) const ALL: [Question; 7] = [
        Question::WhoWins,
        Question::Fair,
        Question::Healthy,
        Question::Skill,
        Question::Rules,
        Question::Settings,
        Question::Cards,
    ];

    /// The section's heading.
    pub(super) fn title(self) -> &'static str {
        match self {
            Question::WhoWins => "Who wins?",
            Question::Fair => "Is it fair?",
            Question::Healthy => "Is it healthy?",
            Question::Skill => "Does skill matter, and how strong are the players?",
            Question::Rules => "What do the rules change?",
            Question::Settings => "What do the strategies' settings change?",
            Question::Cards => "Which cards?",
        }
    }
}

/// The most charts a report draws unless asked for all of them.
pub(super) const MAX_CHARTS: usize = 12;

/// Brackets a chart's image link and sentence in a section's text, so the page can keep or
/// leave out the chart whole: start, file, title, then the end mark after the sentence.
const CHART_START: char = '\u{E000}';
const CHART_TITLE: char = '\u{E001}';
const CHART_END: char = '\u{E002}';
/// Marks a chart that shows no difference beyond noise, before its file.
const CHART_QUIET: char = '\u{E003}';

/// A chart's link and sentence, marked for the page (see [`Page::assemble`]).
pub(super) fn chart_text(file: &str, title: &str, sentence: &str) -> String {
    let alt = title.replace('[', "(").replace(']', ")");
    format!("{CHART_START}{file}{CHART_TITLE}{alt}\n![{alt}]({file})\n\n{sentence}\n{CHART_END}\n")
}

/// As [`chart_text`], for a chart that shows no difference beyond noise: its sentence says
/// so, and it is kept only after every other chart, so the budget goes to findings.
pub(super) fn quiet_chart_text(file: &str, title: &str, sentence: &str) -> String {
    chart_text(file, title, sentence).replacen(CHART_START, &format!("{CHART_START}{CHART_QUIET}"), 1)
}

/// One study's text under one question.
struct Part {
    question: Question,
    /// The study it came from (its subsection heading).
    heading: String,
    text: String,
}

/// The report being written: parts by question, headlines for the summary, and how each
/// folder was made.
#[derive(Default)]
pub(super) struct Page {
    /// The heading of the folder now being read, and its name.
    folder: String,
    name: String,
    parts: Vec<Part>,
    /// (question, folder name, text).
    headlines: Vec<(Question, String, String)>,
    /// (heading, text) per folder: settings, notes and rules.
    provenance: Vec<(String, String)>,
    /// Notes that bear on every figure of a folder, at the top of the summary.
    cautions: Vec<String>,
    /// (folder name, game, rules in force as TOML) per folder that records one rule set.
    rules: Vec<(String, String, String)>,
}

/// Each folder's rules in words, where the folders of its game do not all hold the same
/// rules: the keys set away from the game's defaults (`wild = ["deuces"]`), or "default
/// rules". A game not known here (a folder of another version) is left unnamed.
fn rules_tags(rules: &[(String, String, String)]) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    for (name, game, text) in rules {
        if rules.iter().filter(|r| r.1 == *game).all(|r| r.2 == *text) {
            continue;
        }
        let Some(defaults) = crate::games::find(game).ok().and_then(|g| (g.build)(None, None, None).ok()) else {
            continue;
        };
        let keys = crate::games::presets::differing_keys(&defaults.0.rules_toml(), text);
        let words = match keys.is_empty() {
            true => "default rules".to_string(),
            false => keys.iter().map(|(k, _, v)| format!("`{k} = {v}`")).collect::<Vec<_>>().join(", "),
        };
        tags.push((name.clone(), words));
    }
    tags
}

impl Page {
    /// The game and the rules in force (TOML) of the folder now being read: named beside
    /// its summary lines where folders of one game hold different rules.
    pub(super) fn rules(&mut self, game: &str, rules: &str) {
        self.rules.push((self.name.clone(), game.to_string(), rules.to_string()));
    }

    /// Starts the parts of a folder under this heading, with its settings text.
    pub(super) fn begin(&mut self, name: &str, heading: String, settings: String) {
        self.provenance.push((heading.clone(), settings));
        self.folder = heading;
        self.name = name.to_string();
    }

    /// The text of this folder's part under `question`, created on first use.
    pub(super) fn at(&mut self, question: Question) -> &mut String {
        let i = match self.parts.iter().position(|p| p.question == question && p.heading == self.folder) {
            Some(i) => i,
            None => {
                self.parts.push(Part { question, heading: self.folder.clone(), text: String::new() });
                self.parts.len() - 1
            }
        };
        &mut self.parts[i].text
    }

    /// A note at the top of the summary, for what every figure of this folder must be read
    /// with (a shard's share of a run), Markdown.
    pub(super) fn caution(&mut self, text: impl Into<String>) {
        self.cautions.push(text.into());
    }

    /// A headline for the summary: a figure with its interval and one sentence, Markdown.
    pub(super) fn headline(&mut self, question: Question, text: impl Into<String>) {
        self.headlines.push((question, self.name.clone(), text.into()));
    }

    /// A part that heads its question's section, ahead of every folder's (a table gathered
    /// from several folders), under its own heading.
    pub(super) fn front(&mut self, question: Question, heading: String, text: String) {
        self.parts.insert(0, Part { question, heading, text });
    }

    /// A headline of no one folder, first among its question's.
    pub(super) fn front_headline(&mut self, question: Question, text: impl Into<String>) {
        self.headlines.insert(0, (question, String::new(), text.into()));
    }

    /// Leaves out every headline of these folders (by name).
    pub(super) fn drop_headlines(&mut self, names: &[String]) {
        self.headlines.retain(|(_, name, _)| !names.contains(name));
    }

    /// Leaves out every chart of the parts under these headings (link and sentence);
    /// returns their files.
    pub(super) fn drop_charts(&mut self, headings: &[String]) -> Vec<String> {
        let mut files = Vec::new();
        for part in self.parts.iter_mut().filter(|p| headings.contains(&p.heading)) {
            let mut kept = String::new();
            let mut rest = part.text.as_str();
            while let Some(start) = rest.find(CHART_START) {
                kept.push_str(&rest[..start]);
                let chart = &rest[start + CHART_START.len_utf8()..];
                let end = chart.find(CHART_END).map_or(chart.len(), |e| e + CHART_END.len_utf8());
                if let Some(title) = chart.find(CHART_TITLE) {
                    files.push(chart[..title].trim_start_matches(CHART_QUIET).to_string());
                }
                // The chart's text ends with its end mark and a newline.
                rest = chart[end..].strip_prefix('\n').unwrap_or(&chart[end..]);
            }
            kept.push_str(rest);
            part.text = kept;
        }
        // A part that was its charts alone says nothing now.
        self.parts.retain(|p| !(headings.contains(&p.heading) && p.text.trim().is_empty()));
        files
    }

    /// The whole page: the title, the summary, the contents, the notes as findings, a
    /// section per question answered (each study a subsection), and how the figures were
    /// made. Charts past [`MAX_CHARTS`] (unless `all_charts`) are left out, the first chart
    /// of every study kept before any second one; a chart whose file (read by `content`)
    /// is the same as one drawn above is named, not drawn again. Returns the Markdown and
    /// the files of the charts left out.
    pub(super) fn assemble(
        mut self,
        regenerate: Option<&str>,
        notes: Option<&str>,
        all_charts: bool,
        content: &dyn Fn(&str) -> Option<Vec<u8>>,
    ) -> (String, Vec<String>) {
        self.parts.sort_by_key(|p| p.question);
        // How each folder was made, in the order the body first shows it (a folder with no
        // part last), so the last section reads in the order of those above it.
        let first_shown = |heading: &str| self.parts.iter().position(|p| p.heading == heading).unwrap_or(usize::MAX);
        let mut provenance = std::mem::take(&mut self.provenance);
        provenance.sort_by_key(|(heading, _)| first_shown(heading));
        self.provenance = provenance;
        let (kept, left_out) = self.keep_charts(all_charts, content);
        let (title, findings) = split_notes(notes);
        let mut md = String::new();
        let _ = writeln!(md, "# {title}\n");
        if let Some(cmd) = regenerate {
            let _ = writeln!(md, "Regenerate with:\n\n```sh\n{cmd}\n```\n");
        }
        let _ = writeln!(md, "## Summary\n");
        for caution in &self.cautions {
            let _ = writeln!(md, "**Note:** {caution}\n");
        }
        if self.headlines.is_empty() {
            let _ = writeln!(md, "No headline figures: the sections below hold the tables.");
        }
        self.headlines.sort_by_key(|h| h.0);
        // Name the folder where several could have said it, and its rules where folders
        // of its game hold others.
        let folders = self.provenance.len();
        let tags = rules_tags(&self.rules);
        for (question, name, text) in &self.headlines {
            let from = match tags.iter().find(|(n, _)| n == name) {
                _ if folders < 2 || name.is_empty() => String::new(),
                Some((_, rules)) => format!(" (`{name}`: {rules})"),
                None => format!(" (`{name}`)"),
            };
            let _ = writeln!(md, "- **{}** {}{from}", question.title(), text.trim_end());
        }
        md.push('\n');
        let answered: Vec<Question> =
            Question::ALL.into_iter().filter(|q| self.parts.iter().any(|p| p.question == *q)).collect();
        let mut contents: Vec<&str> = Vec::new();
        if findings.is_some() {
            contents.push("Findings");
        }
        contents.extend(answered.iter().map(|q| q.title()));
        contents.push(MADE);
        let _ = writeln!(md, "## Contents\n");
        for c in &contents {
            let _ = writeln!(md, "- [{c}](#{})", slug(c));
        }
        md.push('\n');
        if let Some(text) = findings {
            let _ = writeln!(md, "## Findings\n\n{}\n", text.trim());
        }
        for q in answered {
            let _ = writeln!(md, "## {}\n", q.title());
            for (part, text) in self.parts.iter().zip(&kept).filter(|(p, _)| p.question == q) {
                let _ = writeln!(md, "### {}\n\n{}", part.heading, text.trim_end());
                md.push('\n');
            }
        }
        let _ = writeln!(md, "## {MADE}\n");
        for (heading, text) in &self.provenance {
            let _ = writeln!(md, "### {heading}\n\n{}", text.trim_end());
            md.push('\n');
        }
        // A notes heading named as a section ("Who wins?") takes the plain anchor, being
        // first: the contents link the section's own, as the page numbers it.
        let ids = heading_ids(&md);
        let own = |c: &str| {
            let mut at = ids.iter().filter(|(level, text, _)| *level == 2 && text == c);
            // Findings opens the notes; every other section follows them.
            if c == "Findings" { at.next() } else { at.next_back() }
        };
        for c in &contents {
            if let Some((_, _, id)) = own(c).filter(|(_, _, id)| *id != slug(c)) {
                md = md.replacen(&format!("- [{c}](#{})\n", slug(c)), &format!("- [{c}](#{id})\n"), 1);
            }
        }
        (md.trim_end().to_string() + "\n", left_out)
    }

    /// Each part's text with its charts kept or left out (a line naming those left out),
    /// and the files of those left out.
    fn keep_charts(&self, all: bool, content: &dyn Fn(&str) -> Option<Vec<u8>>) -> (Vec<String>, Vec<String>) {
        // Every chart by (its index in its part, its part's place among its question's
        // parts, the part), kept in that order: the first chart of each question's first
        // study, then of each question's second study, ..., then every second chart.
        // A quiet chart (no difference beyond noise) comes after every other.
        let quiet: Vec<Vec<bool>> = (self.parts.iter())
            .map(|p| p.text.split(CHART_START).skip(1).map(|c| c.starts_with(CHART_QUIET)).collect())
            .collect();
        let place: Vec<usize> = (0..self.parts.len())
            .map(|p| self.parts[..p].iter().filter(|o| o.question == self.parts[p].question).count())
            .collect();
        let mut order: Vec<(bool, usize, usize, usize)> = quiet
            .iter()
            .enumerate()
            .flat_map(|(p, q)| q.iter().enumerate().map(move |(k, &quiet)| (quiet, k, p)))
            .map(|(quiet, k, p)| (quiet, k, place[p], p))
            .collect();
        order.sort();
        let keep: Vec<(usize, usize)> =
            order.iter().take(if all { usize::MAX } else { MAX_CHARTS }).map(|&(_, k, _, p)| (p, k)).collect();
        let mut files = Vec::new();
        // The charts drawn so far: their content and where they stand.
        let mut drawn: Vec<(Vec<u8>, &str)> = Vec::new();
        let texts = self
            .parts
            .iter()
            .enumerate()
            .map(|(p, part)| {
                let mut text = String::new();
                let mut left_out: Vec<String> = Vec::new();
                let mut rest = part.text.as_str();
                let mut k = 0;
                while let Some(start) = rest.find(CHART_START) {
                    text.push_str(&rest[..start]);
                    let after = &rest[start + CHART_START.len_utf8()..];
                    let end = after.find(CHART_END).unwrap_or(after.len());
                    let chart = &after[..end];
                    let (head, body) = chart.split_once('\n').unwrap_or((chart, ""));
                    let (file, title) = head.split_once(CHART_TITLE).unwrap_or((head, ""));
                    let file = file.trim_start_matches(CHART_QUIET);
                    let bytes = keep.contains(&(p, k)).then(|| content(file)).flatten();
                    if let Some((_, above)) = bytes.as_ref().and_then(|b| drawn.iter().find(|(d, _)| d == b)) {
                        // Two studies on the same deals can draw the same figure.
                        let _ = writeln!(text, "*{title}: the same chart as under {above}, above.*\n");
                        files.push(file.to_string());
                    } else if keep.contains(&(p, k)) {
                        if let Some(b) = bytes {
                            drawn.push((b, part.heading.as_str()));
                        }
                        text.push_str(body);
                        text.push('\n');
                    } else {
                        // A quiet chart left out keeps its sentence, which says there is no
                        // difference: a section of such charts still says what it found.
                        if head.starts_with(CHART_QUIET) {
                            let sentence = body.split_once(")\n").map_or("", |(_, s)| s).trim();
                            if !sentence.is_empty() {
                                let _ = writeln!(text, "{title}: {sentence}\n");
                            }
                        }
                        left_out.push(title.to_string());
                        files.push(file.to_string());
                    }
                    k += 1;
                    rest = after.get(end + CHART_END.len_utf8()..).unwrap_or("").trim_start_matches('\n');
                }
                text.push_str(rest);
                // A chart left out leaves no run of blank lines behind.
                while text.contains("\n\n\n") {
                    text = text.replace("\n\n\n", "\n\n");
                }
                if !left_out.is_empty() {
                    let _ = writeln!(
                        text,
                        "\n*{} more chart{} here ({}); `draftsim report --all-charts` draws {}.*\n",
                        left_out.len(),
                        if left_out.len() == 1 { "" } else { "s" },
                        left_out.join("; "),
                        if left_out.len() == 1 { "it" } else { "them" }
                    );
                }
                text
            })
            .collect();
        (texts, files)
    }
}

/// The last section's heading.
const MADE: &str = "How these figures were made";

/// A heading's anchor as GitHub and the HTML page make it: lower case, spaces as hyphens,
/// other punctuation dropped.
pub(super) fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Each heading of levels 2 to 4 outside code blocks: its level, its text and its anchor,
/// a slug seen before taking "-1", "-2", ... as GitHub's and the HTML page's do.
pub(super) fn heading_ids(md: &str) -> Vec<(usize, String, String)> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut fenced = false;
    let mut out = Vec::new();
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let level = line.chars().take_while(|&c| c == '#').count();
        let Some(text) = line[level..].strip_prefix(' ').filter(|_| !fenced && (2..=4).contains(&level)) else {
            continue;
        };
        let text = text.trim().to_string();
        let base = slug(&text);
        let count = seen.entry(base.clone()).or_insert(0);
        let id = if *count == 0 { base } else { format!("{base}-{count}") };
        *count += 1;
        out.push((level, text, id));
    }
    out
}

/// The notes' title (their leading `# ` line, else the report's own) and the rest, each
/// heading one level down so it sits under "Findings" (a leading "Findings" heading dropped).
fn split_notes(notes: Option<&str>) -> (String, Option<String>) {
    const TITLE: &str = "draftsim balance report";
    let Some(notes) = notes.map(str::trim).filter(|n| !n.is_empty()) else { return (TITLE.to_string(), None) };
    let (title, body) = match notes.strip_prefix("# ") {
        Some(rest) => {
            let (line, body) = rest.split_once('\n').unwrap_or((rest, ""));
            (line.trim().to_string(), body)
        }
        None => (TITLE.to_string(), notes),
    };
    let body = body.trim_start();
    let body = match body.strip_prefix("## Findings") {
        Some(rest) if rest.starts_with('\n') || rest.is_empty() => rest,
        _ => body,
    };
    let mut out = String::new();
    let mut fenced = false;
    for line in body.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            out.push('#');
        }
        out.push_str(line);
        out.push('\n');
    }
    (title, Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No chart file to read: none is the same as another.
    const NONE: fn(&str) -> Option<Vec<u8>> = |_| None;

    fn page_with_charts(charts: &[(Question, &str, usize)]) -> Page {
        let mut page = Page::default();
        for (q, folder, n) in charts {
            page.begin(folder, folder.to_string(), String::new());
            let md = page.at(*q);
            for k in 0..*n {
                md.push_str(&chart_text(&format!("{folder}-{k}.svg"), &format!("Chart {k} of {folder}"), "Why."));
            }
        }
        page
    }

    #[test]
    fn every_study_keeps_its_first_chart_before_any_keeps_a_second() {
        let page =
            page_with_charts(&[(Question::Rules, "a", 10), (Question::WhoWins, "b", 3), (Question::Cards, "c", 5)]);
        let (md, files) = page.assemble(None, None, false, &NONE);
        assert_eq!(files.len(), 6);
        assert_eq!(md.matches("![").count(), MAX_CHARTS);
        // Round by round in page order (b's question first): the twelfth is a's fifth.
        for first in ["a-0.svg", "b-0.svg", "c-0.svg", "a-3.svg", "c-3.svg", "a-4.svg"] {
            assert!(md.contains(&format!("]({first})")), "{first} left out");
        }
        assert!(!md.contains("](c-4.svg)") && !md.contains("](a-5.svg)"), "{md}");
        assert!(md.contains("5 more charts here") && md.contains("1 more chart here"), "{md}");
        // Each chart its own paragraphs: a blank line between a sentence and the next image.
        assert!(md.contains("Why.\n\n![") && !md.contains("Why.\n!["), "{md}");
        let all = page_with_charts(&[(Question::Rules, "a", 10), (Question::WhoWins, "b", 3)]);
        assert_eq!(all.assemble(None, None, true, &NONE).0.matches("![").count(), 13);
    }

    /// A chart that shows nothing beyond noise gives its place to any other, a study's
    /// first chart or not.
    #[test]
    fn quiet_charts_are_kept_last() {
        let mut page = page_with_charts(&[(Question::Rules, "a", 10), (Question::WhoWins, "b", 2)]);
        page.begin("c", "c".into(), String::new());
        page.at(Question::Fair).push_str(&quiet_chart_text("quiet.svg", "Seats alike", "No seat differs."));
        let (md, files) = page.assemble(None, None, false, &NONE);
        assert!(files.contains(&"quiet.svg".to_string()) && !md.contains("](quiet.svg)"), "{md}");
        // Its sentence stays, so the section still says what it found.
        assert!(md.contains("Seats alike: No seat differs.\n"), "{md}");
        assert_eq!(md.matches("![").count(), MAX_CHARTS);
        let mut page = page_with_charts(&[(Question::WhoWins, "b", 2)]);
        page.begin("c", "c".into(), String::new());
        page.at(Question::Fair).push_str(&quiet_chart_text("quiet.svg", "Seats alike", "No seat differs."));
        let (md, files) = page.assemble(None, None, false, &NONE);
        assert!(files.is_empty() && md.contains("![Seats alike](quiet.svg)") && !md.contains('\u{E003}'), "{md}");
    }

    #[test]
    fn how_the_figures_were_made_follows_the_body() {
        // Given sweep-like `a` first, whose only part comes after `b`'s and `c`'s; `d` has none.
        let mut page =
            page_with_charts(&[(Question::Rules, "a", 0), (Question::WhoWins, "b", 0), (Question::Fair, "c", 0)]);
        page.begin("d", "d".into(), String::new());
        let (md, _) = page.assemble(None, None, false, &NONE);
        let made = &md[md.find(&format!("## {MADE}")).expect(&md)..];
        let order: Vec<&str> = made.lines().filter_map(|l| l.strip_prefix("### ")).collect();
        assert_eq!(order, ["b", "c", "a", "d"], "{md}");
    }

    #[test]
    fn a_chart_the_same_as_one_above_is_named_not_drawn() {
        let page = page_with_charts(&[(Question::WhoWins, "a", 2), (Question::Cards, "b", 2)]);
        // b's first chart draws what a's second did; b's second is its own.
        let content = |f: &str| Some(if f == "b-0.svg" { b"a-1.svg".to_vec() } else { f.as_bytes().to_vec() });
        let (md, files) = page.assemble(None, None, false, &content);
        assert_eq!(files, ["b-0.svg"]);
        assert!(!md.contains("](b-0.svg)") && md.contains("](b-1.svg)") && md.contains("](a-1.svg)"), "{md}");
        assert!(md.contains("*Chart 0 of b: the same chart as under a, above.*"), "{md}");
    }

    #[test]
    fn every_question_gets_a_chart_before_any_gets_a_second_studys() {
        let five = |q| [(q, "1", 1), (q, "2", 1), (q, "3", 1), (q, "4", 1), (q, "5", 1)];
        let mut charts = Vec::new();
        for q in [Question::WhoWins, Question::Fair, Question::Rules] {
            charts.extend(five(q).map(|(q, f, n)| (q, f, n)));
        }
        let named: Vec<(Question, String, usize)> =
            charts.iter().enumerate().map(|(i, (q, f, n))| (*q, format!("{f}-{i}"), *n)).collect();
        let mut page = Page::default();
        for (q, folder, n) in &named {
            page.begin(folder, folder.clone(), String::new());
            for k in 0..*n {
                page.at(*q).push_str(&chart_text(&format!("{folder}-{k}.svg"), "A chart", "Why."));
            }
        }
        let (md, _) = page.assemble(None, None, false, &NONE);
        // Four studies of each of the three questions: the fifth of each is left out.
        for question in ["Who wins?", "Is it fair?", "What do the rules change?"] {
            let section = md.split("\n## ").find(|s| s.starts_with(question)).unwrap();
            assert_eq!(section.matches("![").count(), 4, "{question}: {section}");
        }
    }

    #[test]
    fn sections_follow_the_questions_not_the_folders_and_the_summary_comes_first() {
        let mut page = page_with_charts(&[(Question::Rules, "sweep", 1), (Question::WhoWins, "run", 1)]);
        page.headline(Question::Rules, "B lengthens games.");
        page.headline(Question::WhoWins, "greedy wins most.");
        let md = page
            .assemble(Some("sh x.sh"), Some("# My study\n\n## Findings\n\nIt works.\n\n## What moved\n"), false, &NONE)
            .0;
        let at = |s: &str| md.find(s).unwrap_or_else(|| panic!("{s} missing from {md}"));
        assert!(md.starts_with("# My study\n"));
        assert!(at("## Summary") < at("## Contents") && at("## Contents") < at("## Findings"));
        assert!(at("**Who wins?** greedy") < at("**What do the rules change?** B"));
        assert!(at("## Who wins?") < at("## What do the rules change?"));
        assert!(!md.contains("- [Is it fair?](#is-it-fair)") && md.contains("- [Who wins?](#who-wins)"));
        assert!(md.contains("### What moved") && !md.contains("\n## What moved"));
        assert_eq!(md.matches("Findings").count(), 2, "contents and heading only: {md}");
    }

    #[test]
    fn slugs_match_github() {
        assert_eq!(slug("What do the rules change?"), "what-do-the-rules-change");
        assert_eq!(slug("How these figures were made"), "how-these-figures-were-made");
    }
}
