//! Every analysis command's subcommand, built from its declaration in the library.
//!
//! [`lastbite::api::command_info`] gives a command's request schema, generated from the
//! request type: each field once, with its type, default, help, closed set of values and
//! how a command line takes it (`x-positional`, `x-required`, `x-required-unless`,
//! `x-requires`, `x-conflicts`, `x-aliases`, `x-path`, `x-instead`, and `x-text` for a
//! flag the text output sets). A field becomes a flag
//! `--field-name` (or a positional argument), and the report's capabilities give the output
//! flags: `--json` and `-o FILE` everywhere, `--latex` where the report has tables, `--csv`
//! where it has that form, `--svg`/`--png`/`--tikz` where it can draw, `--shard` where the
//! command is a sweep. Nothing here names a field of one command, so a command added to the
//! library's table reaches the command line whole, and a flag cannot drift from its field.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, ArgAction, ArgMatches, Command};
use lastbite::api::{self, CommandInfo, Control, Render, ReportVisitor};
use serde_json::Value;

use crate::out::{self, call};
use crate::progress::Bar;

/// The [`CommandInfo`] of command `name`, built once a process (its schema is generated
/// from the request type: the one command a command line names needs it twice, to build
/// its flags and to read them).
pub fn info(name: &str) -> Option<&'static CommandInfo> {
    use std::sync::OnceLock;
    static CACHE: OnceLock<Vec<OnceLock<CommandInfo>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| api::COMMANDS.iter().map(|_| OnceLock::new()).collect());
    let i = api::COMMANDS.iter().position(|c| *c == name)?;
    Some(cache[i].get_or_init(|| api::command_info(name).expect("a command of the table")))
}

/// The command-line path of an API command: `dinner-solve` is `dinner solve`,
/// `reproduce` is `reproduce`.
pub fn cli_path(name: &str) -> (&str, Option<&str>) {
    match name.split_once('-') {
        Some((family, command)) => (family, Some(command)),
        None => (name, None),
    }
}

/// How a field's values are read from the command line.
#[derive(Debug, Clone)]
enum Shape {
    /// A switch: present is `true`.
    Flag,
    /// A whole number of this many bits (128 at most), checked while parsing.
    Int(u32),
    /// Text, passed on as a JSON string for the library to read.
    Text,
    /// One of a closed set of values (with their aliases and help).
    Choice(Vec<(String, Vec<String>, Option<String>)>),
}

/// A field as the command line takes it.
#[derive(Debug, Clone)]
struct Field {
    name: String,
    shape: Shape,
    /// Comma-separated values, as a JSON array.
    list: bool,
    /// A positional argument (`words`: every remaining word, joined by spaces).
    positional: Option<bool>,
    /// The field that takes a file's contents when the path is `-` (stdin).
    instead: Option<String>,
    path: Option<String>,
    prop: Value,
}

fn resolve<'a>(schema: &'a Value, defs: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => &defs[r.rsplit('/').next().unwrap_or(r)],
        None => schema,
    }
}

/// The types a schema allows, `null` left out.
fn types(schema: &Value) -> Vec<&str> {
    match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|t| *t != "null")
    .collect()
}

fn bits(format: Option<&str>) -> u32 {
    match format {
        Some("uint8") => 8,
        Some("uint16") => 16,
        Some("uint32") => 32,
        Some("uint128") => 128,
        _ => 64,
    }
}

/// The shape of a (resolved) schema, and whether it is a list.
fn shape(schema: &Value, defs: &Value) -> (Shape, bool) {
    let schema = resolve(schema, defs);
    // An optional value: the branch that is not null.
    if let Some(branches) = schema["anyOf"].as_array() {
        let real: Vec<&Value> = branches
            .iter()
            .filter(|b| b["type"].as_str() != Some("null"))
            .collect();
        if real.len() == 1 {
            return shape(real[0], defs);
        }
        // Several forms (a number or text, text or rows): the text form, read by the library.
        return (Shape::Text, false);
    }
    if let Some(variants) = schema["oneOf"].as_array() {
        let choices: Option<Vec<_>> = variants
            .iter()
            .map(|v| {
                let value = v["const"].as_str()?.to_string();
                let aliases = v["x-aliases"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                let help = v["description"].as_str().map(String::from);
                Some((value, aliases, help))
            })
            .collect();
        if let Some(choices) = choices {
            return (Shape::Choice(choices), false);
        }
        return (Shape::Text, false);
    }
    if let Some(values) = schema["enum"].as_array() {
        let choices = values
            .iter()
            .filter_map(|v| v.as_str().map(|s| (s.to_string(), Vec::new(), None)))
            .collect();
        return (Shape::Choice(choices), false);
    }
    match types(schema).first().copied() {
        Some("boolean") => (Shape::Flag, false),
        Some("integer") => (Shape::Int(bits(schema["format"].as_str())), false),
        Some("array") => (shape(&schema["items"], defs).0, true),
        _ => (Shape::Text, false),
    }
}

/// The fields of a request schema the command line takes, in declaration order.
fn fields(request: &Value) -> Vec<Field> {
    let defs = &request["$defs"];
    let props = request["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let taken_instead: Vec<String> = props
        .values()
        .filter_map(|p| p["x-instead"].as_str().map(String::from))
        .collect();
    props
        .iter()
        .filter_map(|(name, prop)| {
            let positional = match &prop["x-positional"] {
                Value::Bool(true) => Some(false),
                Value::String(s) if s == "words" => Some(true),
                _ => None,
            };
            // A file's contents come with `-` for its path; whether to draw, from the
            // picture flags.
            if name == "picture" || (taken_instead.contains(name) && positional.is_none()) {
                return None;
            }
            let (shape, list) = shape(prop, defs);
            Some(Field {
                name: name.clone(),
                shape,
                list,
                positional,
                instead: prop["x-instead"].as_str().map(String::from),
                path: prop["x-path"].as_str().map(String::from),
                prop: prop.clone(),
            })
        })
        .collect()
}

/// A default as the command line writes it.
fn default_text(v: &Value) -> Option<String> {
    match v {
        Value::Null | Value::Bool(false) => None,
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s.clone()),
        Value::Array(a) => Some(
            a.iter()
                .filter_map(default_text)
                .collect::<Vec<_>>()
                .join(","),
        ),
        other => Some(other.to_string()),
    }
}

/// The help of a field or command: its first paragraph, and all of it for `--help`.
fn help(description: &str) -> (String, String) {
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let paragraphs: Vec<String> = description.split("\n\n").map(flat).collect();
    (paragraphs[0].clone(), paragraphs.join("\n\n"))
}

/// A request's help without the command's own name in front (`` `dinner solve`: ``).
fn about(description: &str) -> String {
    let d = description.trim();
    match d.strip_prefix('`').and_then(|r| r.split_once("`: ")) {
        Some((_, rest)) => {
            let mut chars = rest.chars();
            match chars.next() {
                Some(c) => c.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        }
        None => d.to_string(),
    }
}

fn strings(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Array(a) => a
            .iter()
            .filter_map(|x| x.as_str().map(String::from))
            .collect(),
        _ => Vec::new(),
    }
}

/// The flag id of a field (its name; clap ids are the request's field names).
fn long(name: &str) -> String {
    name.replace('_', "-")
}

fn int_parser(bits: u32) -> impl Fn(&str) -> Result<String, String> + Clone + Send + Sync {
    move |s: &str| {
        let t = s.trim();
        let ok = t
            .parse::<u128>()
            .ok()
            .filter(|&n| bits == 128 || n < (1u128 << bits));
        match ok {
            Some(n) => Ok(n.to_string()),
            None => Err(format!(
                "expected a whole number from 0 to {}",
                if bits == 128 {
                    u128::MAX
                } else {
                    (1u128 << bits) - 1
                }
            )),
        }
    }
}

fn field_arg(f: &Field) -> Arg {
    let id = f.name.clone();
    let mut arg = Arg::new(id.clone());
    let description = f.prop["description"].as_str().unwrap_or("");
    let (short_help, long_help) = help(description);
    let default = default_text(&f.prop["default"]).filter(|_| !matches!(f.shape, Shape::Flag));
    let with_default = |h: String| match &default {
        Some(d) => format!("{h} [default: {d}]"),
        None => h,
    };
    arg = arg
        .help(with_default(short_help))
        .long_help(with_default(long_help));
    if f.positional.is_none() {
        arg = arg.long(long(&f.name));
        for alias in strings(&f.prop["x-aliases"]) {
            arg = arg.visible_alias(long(&alias));
        }
    }
    arg = match &f.shape {
        Shape::Flag => arg.action(ArgAction::SetTrue),
        Shape::Int(bits) => arg
            .value_parser(clap::builder::ValueParser::new(int_parser(*bits)))
            .value_name("N"),
        Shape::Text => arg
            .allow_hyphen_values(f.positional.is_none())
            .value_name(id.to_uppercase()),
        Shape::Choice(choices) => {
            let values: Vec<PossibleValue> = choices
                .iter()
                .map(|(v, aliases, h)| {
                    let mut p = PossibleValue::new(v.clone()).aliases(aliases.clone());
                    if let Some(h) = h {
                        p = p.help(h.split_whitespace().collect::<Vec<_>>().join(" "));
                    }
                    p
                })
                .collect();
            arg.value_parser(PossibleValuesParser::new(values))
                .ignore_case(true)
                .value_name(id.to_uppercase())
        }
    };
    if let Some(kind) = &f.path {
        arg = arg.value_name(if kind == "directory" { "DIR" } else { "FILE" });
    }
    if f.list {
        arg = arg.value_delimiter(',').action(ArgAction::Append);
        if matches!(f.shape, Shape::Text) {
            arg = arg.allow_negative_numbers(true);
        }
    }
    if f.positional == Some(true) {
        arg = arg
            .num_args(1..)
            .allow_negative_numbers(true)
            .value_name(id.to_uppercase());
    }
    if f.prop["x-required"] == Value::Bool(true) {
        arg = arg.required(true);
    }
    if let Some(other) = f.prop["x-required-unless"].as_str() {
        arg = arg.required_unless_present(other.to_string());
    }
    if let [other, value] = strings(&f.prop["x-required-if"]).as_slice() {
        arg = arg.required_if_eq(other.clone(), value.clone());
    }
    // A mode (`field=value`) is the library's to check; another field, clap's too.
    for other in strings(&f.prop["x-requires"]) {
        if !other.contains('=') {
            arg = arg.requires(other);
        }
    }
    let conflicts = strings(&f.prop["x-conflicts"]);
    if !conflicts.is_empty() {
        arg = arg.conflicts_with_all(conflicts);
    }
    arg
}

/// The flags every command's output takes, by what its report can be. Every export
/// (`--latex`, `--csv`, `--svg`, `--png`, `--tikz`) takes an optional FILE: none or `-`
/// prints it on stdout in place of the text report; `--standalone` is the one modifier.
fn output_args(info: &CommandInfo) -> Vec<Arg> {
    let file = |id: &'static str, help: &'static str| {
        Arg::new(id)
            .long(id)
            .value_name("FILE")
            .value_parser(clap::value_parser!(PathBuf))
            .help(help)
    };
    // An export's FILE is optional: alone (or `-`) it is stdout.
    let export = |id: &'static str, long: &'static str, help: &'static str| {
        file(id, help)
            .long(long)
            .num_args(0..=1)
            .default_missing_value("-")
    };
    let mut args = vec![
        Arg::new("json")
            .long("json")
            .action(ArgAction::SetTrue)
            .help("Print one JSON document on stdout."),
        Arg::new("estimate")
            .long("estimate")
            .action(ArgAction::SetTrue)
            .help("Print the cost model's estimate of the work (seconds of one core) and whether --max-seconds admits it, without running."),
        Arg::new("output")
            .short('o')
            .long("output")
            .value_name("FILE")
            .value_parser(clap::value_parser!(PathBuf))
            .help("Write the report (text, JSON, or the export printed on stdout) to FILE instead of stdout."),
    ];
    let mut documents = Vec::new();
    if info.tables {
        args.push(export(
            "latex",
            "latex",
            "Write the report's tables as LaTeX (booktabs table floats, for \\input) to FILE (none or `-`: stdout).",
        ));
        documents.push("latex");
    }
    if info.csv {
        args.push(export(
            "csv_table",
            "csv",
            "Write the table as CSV to FILE (none or `-`: stdout).",
        ));
    }
    if info.picture {
        args.push(export(
            "svg",
            "svg",
            "Write the picture as SVG to FILE (none or `-`: stdout).",
        ));
        args.push(export("png", "png", "Write the picture as PNG to FILE."));
        args.push(export(
            "tikz",
            "tikz",
            "Write the picture as a TikZ picture (for \\input; needs \\usepackage{tikz}) to FILE (none or `-`: stdout).",
        ));
        args.push(
            file(
                "tikz_standalone",
                "The older spelling of --tikz FILE --standalone.",
            )
            .long("tikz-standalone"),
        );
        documents.push("tikz");
    }
    if !documents.is_empty() {
        args.push(
            Arg::new("standalone")
                .long("standalone")
                .action(ArgAction::SetTrue)
                .requires("documents")
                .help(if documents.len() == 2 {
                    "With --latex or --tikz: a whole document that pdflatex compiles on its own."
                } else if info.tables {
                    "With --latex: a whole document that pdflatex compiles on its own."
                } else {
                    "With --tikz: a whole document that pdflatex compiles on its own."
                }),
        );
    }
    if info.sweep {
        args.push(
            Arg::new("shard")
                .long("shard")
                .value_name("I/N")
                .help("Run only shard I of N (from 1) and print its shard document; `lastbite merge` combines the N documents into the report."),
        );
        args.push(
            file(
                "shard_out",
                "Write the shard document to FILE (atomically) instead of stdout.",
            )
            .long("shard-out")
            .requires("shard"),
        );
    }
    args
}

/// The subcommand of API command `info.name`, named `cli_name`.
pub fn subcommand(info: &CommandInfo, cli_name: &'static str) -> Command {
    let description = info.request["description"].as_str().unwrap_or("");
    let (short, long_about) = help(&about(description));
    let mut cmd = Command::new(cli_name).about(short).long_about(long_about);
    for f in fields(&info.request) {
        cmd = cmd.arg(field_arg(&f));
    }
    // `--standalone` completes a document: a LaTeX table's or a TikZ picture's.
    let documents: Vec<&str> = [("latex", info.tables), ("tikz", info.picture)]
        .into_iter()
        .filter_map(|(id, has)| has.then_some(id))
        .collect();
    if !documents.is_empty() {
        cmd = cmd.group(
            clap::ArgGroup::new("documents")
                .args(documents)
                .multiple(true),
        );
    }
    cmd.args(output_args(info))
}

/// Whether a picture was asked for.
fn pictures(m: &ArgMatches) -> Vec<(&'static str, PathBuf)> {
    ["svg", "png", "tikz", "tikz_standalone"]
        .into_iter()
        .filter(|id| m.try_contains_id(id).unwrap_or(false))
        .filter_map(|id| m.get_one::<PathBuf>(id).map(|p| (id, p.clone())))
        .collect()
}

fn flag(m: &ArgMatches, id: &str) -> bool {
    m.try_get_one::<bool>(id)
        .ok()
        .flatten()
        .copied()
        .unwrap_or(false)
}

/// The request document a command line gives: every field present, as JSON.
fn request(info: &CommandInfo, m: &ArgMatches) -> anyhow::Result<String> {
    let mut members: Vec<(String, String)> = Vec::new();
    let quote = |s: &str| serde_json::to_string(s).expect("strings serialise");
    for f in fields(&info.request) {
        let id = f.name.as_str();
        let value = match &f.shape {
            Shape::Flag => flag(m, id).then(|| "true".to_string()),
            shape => {
                let Some(values) = m.get_many::<String>(id) else {
                    continue;
                };
                let values: Vec<&String> = values.collect();
                let one = |v: &str| match shape {
                    Shape::Int(_) => v.to_string(),
                    // Any case, or an alias: the value's own name.
                    Shape::Choice(choices) => quote(
                        choices
                            .iter()
                            .find(|(name, aliases, _)| {
                                std::iter::once(name)
                                    .chain(aliases)
                                    .any(|a| a.eq_ignore_ascii_case(v))
                            })
                            .map_or(v, |(name, _, _)| name.as_str()),
                    ),
                    _ => quote(v),
                };
                if f.list {
                    Some(format!(
                        "[{}]",
                        values.iter().map(|v| one(v)).collect::<Vec<_>>().join(",")
                    ))
                } else if f.positional == Some(true) {
                    Some(quote(
                        &values
                            .iter()
                            .map(|v| v.as_str())
                            .collect::<Vec<_>>()
                            .join(" "),
                    ))
                } else {
                    let v = values[0].as_str();
                    // `-` for a file: its contents from stdin, into the field that takes them.
                    if let (Some(instead), "-") = (&f.instead, v) {
                        let bytes = lastbite::files::read_input_from(
                            std::io::stdin().lock(),
                            std::path::Path::new("stdin"),
                        )?;
                        let text = String::from_utf8(bytes).map_err(|_| {
                            anyhow::anyhow!("cannot read stdin: it is not UTF-8 text")
                        })?;
                        members.push((instead.clone(), quote(&text)));
                        continue;
                    }
                    Some(one(v))
                }
            }
        };
        if let Some(v) = value {
            members.push((f.name.clone(), v));
        }
    }
    let props = &info.request["properties"];
    if props.get("picture").is_some() && !pictures(m).is_empty() {
        members.push(("picture".into(), "true".into()));
    }
    // A flag the text output sets, as the request declares (`x-text`: what the text does
    // not show, the command need not compute).
    if !flag(m, "json") {
        for (k, p) in props.as_object().into_iter().flatten() {
            if p["x-text"] == true {
                members.retain(|(m, _)| m != k);
                members.push((k.clone(), "true".into()));
            }
        }
    }
    let body: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("{}:{v}", quote(k)))
        .collect();
    Ok(format!("{{{}}}", body.join(",")))
}

/// A progress bar for the command: sweeps and subtraction games count small units.
fn bar(info: &CommandInfo) -> Bar {
    match info.name {
        n if info.sweep || n.starts_with("subtraction-") => Bar::with_threshold(1),
        "cookie-table" => Bar::with_threshold(300),
        _ => Bar::new(),
    }
}

/// Runs API command `info` on the parsed command line.
pub fn run(info: &CommandInfo, m: &ArgMatches) -> anyhow::Result<ExitCode> {
    let json = flag(m, "json");
    let pictures = pictures(m);
    // A report that is only a picture prints nothing worth running for without one.
    if info.picture && !info.tables && !json && pictures.is_empty() {
        bail!("give --svg, --png, --tikz or --tikz-standalone FILE for the picture (or --json for the data)");
    }
    let request = request(info, m)?;
    if flag(m, "estimate") {
        let e = call(api::estimate(info.name, &request))?;
        out::to_stdout(|w| {
            if json {
                api::write_json(&e, w)?;
            } else {
                e.write_text(w)?;
            }
            Ok(())
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let bar = bar(info);
    let ctl = Control::new(&bar);
    if let Some(text) = m.try_get_one::<String>("shard").ok().flatten() {
        let shard = call(api::sweep::Shard::parse(text))?;
        let doc = call(api::sweep::shard(info.name, &request, shard, &ctl))?;
        let path = m.get_one::<PathBuf>("shard_out");
        crate::shard::write_document(path.map(|p| p.as_path()), &doc)?;
        return Ok(ExitCode::SUCCESS);
    }
    let export = |id: &str| m.try_get_one::<PathBuf>(id).ok().flatten().cloned();
    let (latex, csv) = (export("latex"), export("csv_table"));
    // One form on stdout: the others need a FILE.
    let on_stdout = |p: &Option<PathBuf>| p.as_ref().is_some_and(|p| p.as_os_str() == "-");
    let stdout_forms = usize::from(json)
        + usize::from(on_stdout(&latex))
        + usize::from(on_stdout(&csv))
        + pictures
            .iter()
            .filter(|(_, p)| p.as_os_str() == "-")
            .count();
    if stdout_forms > 1 {
        bail!("more than one form asked for on stdout: give each export but one a FILE");
    }
    let output = Output {
        name: info.name,
        json,
        latex,
        csv,
        standalone: flag(m, "standalone"),
        pictures,
        out: m.get_one::<PathBuf>("output").cloned(),
        // A command that writes its results to the file its `out` field names (a scan
        // that resumes) says on stderr what it did.
        results_to_file: info.request["properties"]["out"]["x-path"] == "file"
            && m.try_get_one::<String>("out").ok().flatten().is_some(),
        progress: bar.clearer(),
    };
    call(api::call_with(info.name, &request, &ctl, output))?
}

/// Where a report goes, and in which forms.
struct Output {
    name: &'static str,
    json: bool,
    /// `--latex [FILE]`: `-` when LaTeX is the main form (stdout or `-o`).
    latex: Option<PathBuf>,
    /// `--csv [FILE]`, likewise.
    csv: Option<PathBuf>,
    standalone: bool,
    pictures: Vec<(&'static str, PathBuf)>,
    out: Option<PathBuf>,
    results_to_file: bool,
    /// The progress bar, cleared before the report is written.
    progress: indicatif::ProgressBar,
}

impl Output {
    /// Writes the report's tables as LaTeX to `w`.
    fn write_latex<R: Render>(&self, report: &R, w: &mut dyn Write) -> io::Result<()> {
        let body = lastbite::latex::tables(&report.as_tables().unwrap_or_default());
        let doc = if self.standalone {
            lastbite::latex::standalone(&body)
        } else {
            body
        };
        w.write_all(doc.as_bytes())
    }

    /// Writes the exports given a FILE (each whole or not at all).
    fn write_exports<R: Render>(&self, report: &R) -> anyhow::Result<()> {
        let to_file = |p: &Option<PathBuf>| p.clone().filter(|p| p.as_os_str() != "-");
        if let Some(path) = to_file(&self.latex) {
            lastbite::files::write_file(&path, |w| self.write_latex(report, w))?;
        }
        if let Some(path) = to_file(&self.csv) {
            lastbite::files::write_file(&path, |w| report.write_csv(w))?;
        }
        Ok(())
    }

    /// Writes the report's main form (JSON, LaTeX or CSV on stdout, or text) to `w`.
    fn write_main<R: serde::Serialize + Render>(
        &self,
        report: &R,
        w: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let main = |p: &Option<PathBuf>| p.as_ref().is_some_and(|p| p.as_os_str() == "-");
        if main(&self.latex) {
            self.write_latex(report, w)?;
        } else if self.json {
            if self.out.is_none() && out::pretty_json() {
                api::write_json(report, w)?;
            } else {
                api::write_json_compact(report, w)?;
            }
        } else if main(&self.csv) {
            report.write_csv(w)?;
        } else {
            report.write_text(w)?;
        }
        Ok(())
    }
}

impl ReportVisitor for Output {
    type Output = anyhow::Result<ExitCode>;

    fn visit<R: serde::Serialize + Render>(self, report: &R) -> anyhow::Result<ExitCode> {
        self.progress.finish_and_clear();
        let mut picture_on_stdout = false;
        if let Some(svg) = report.as_svg() {
            for (kind, path) in &self.pictures {
                let kind = if *kind == "tikz" && self.standalone {
                    "tikz_standalone"
                } else {
                    kind
                };
                picture_on_stdout |= path.as_os_str() == "-";
                crate::figure::write(kind, path, svg)?;
            }
        }
        self.write_exports(report)?;
        let summary = exit_and_summary(self.name, self.results_to_file, report);
        if let Some(line) = &summary.1 {
            eprintln!("{line}");
        } else if !picture_on_stdout {
            match &self.out {
                // Streamed into the file (a 10^6-morsel report is never held twice).
                Some(path) => lastbite::files::write_file(path, |w| {
                    self.write_main(report, w).map_err(std::io::Error::other)
                })?,
                None => out::to_stdout(|w| self.write_main(report, w))?,
            }
        }
        Ok(summary.0)
    }
}

/// A report's exit code (a `verify` that finds no equilibrium exits 3, a `reproduce` with a
/// failed check 1) and, for a scan written to a file, its one-line summary for stderr.
fn exit_and_summary<R: serde::Serialize>(
    name: &str,
    results_to_file: bool,
    report: &R,
) -> (ExitCode, Option<String>) {
    let value = || serde_json::to_value(report).unwrap_or(Value::Null);
    match name {
        n if n.ends_with("-verify") => {
            let v = value();
            (
                out::verdict(v["subgame_perfect"] != Value::Bool(false)),
                None,
            )
        }
        "reproduce" => {
            let v = value();
            let failed = v["failed"].as_u64().unwrap_or(0);
            (
                if failed == 0 {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                },
                None,
            )
        }
        _ if results_to_file => {
            let v = value();
            let line = format!(
                "{} rulesets analysed, {} already done",
                v["analysed"], v["already_done"]
            );
            (ExitCode::SUCCESS, Some(line))
        }
        _ => (ExitCode::SUCCESS, None),
    }
}
