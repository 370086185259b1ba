"""What a release carries: provenance (`lastbite --version`, `show_versions()`),
a citation file, one version everywhere, and the refusals of `scripts/dist`."""

import io
import os
import re
import subprocess
import sys

import pytest
import yaml

import lastbite

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LASTBITE = os.environ.get("LASTBITE_BIN", os.path.join(REPO, "target", "release", "lastbite"))


def git(*args):
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)


def test_version_names_the_commit_and_the_features():
    out = subprocess.run([LASTBITE, "--version"], capture_output=True, text=True, check=True).stdout
    m = re.fullmatch(r"lastbite (\S+) \(commit ([0-9a-f]{12}|unknown); features: ([a-z, ]+)\)\n", out)
    assert m, out
    assert m.group(1) == lastbite.__version__
    assert "parallel" in m.group(3).split(", ")
    head = git("rev-parse", "--short=12", "HEAD")
    if head.returncode == 0:
        assert m.group(2) == head.stdout.strip(), "built from another commit than the checkout's"


def test_show_versions_prints_what_a_bug_report_needs():
    buf = io.StringIO()
    lastbite.show_versions(file=buf)
    lines = dict(line.split(": ", 1) for line in buf.getvalue().splitlines())
    assert lines["lastbite"] == lastbite.__version__
    m = re.fullmatch(rf"{re.escape(lastbite.__version__)} \(commit ([0-9a-f]{{12}}|unknown); features: [a-z, ]+\)",
                     lines["compiled module"])
    assert m, lines["compiled module"]
    # The module names the commit the CLI names (both built from this checkout).
    cli = subprocess.run([LASTBITE, "--version"], capture_output=True, text=True, check=True).stdout
    assert f"(commit {m.group(1)};" in cli, (cli, m.group(1))
    assert lines["python"].endswith(sys.version.split()[0])
    for name in lastbite.OPTIONAL:
        assert lines[name], name
    assert lines["numpy"] != "not installed"  # the test environment has it


def test_citation_file_validates_against_the_cff_1_2_0_schema():
    # The schema is the Citation File Format's own (tests/python/data, CC BY 4.0, from
    # github.com/citation-file-format/citation-file-format at tag 1.2.0), as cffconvert
    # --validate applies it; dates are read as text, as the format writes them.
    import datetime
    import json

    # In the test environment (nbformat brings it); the wheel's fresh environment of a
    # user's extras has no validator.
    jsonschema = pytest.importorskip("jsonschema")

    with open(os.path.join(REPO, "tests", "python", "data", "cff-1.2.0.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    with open(os.path.join(REPO, "CITATION.cff"), encoding="utf-8") as f:
        cff = yaml.safe_load(f)

    def as_text(v):
        if isinstance(v, dict):
            return {k: as_text(x) for k, x in v.items()}
        if isinstance(v, list):
            return [as_text(x) for x in v]
        return v.isoformat() if isinstance(v, datetime.date) else v

    jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker()).validate(as_text(cff))
    # The validator can fail: a license expression is not an SPDX identifier.
    bad = dict(as_text(cff), license="MIT OR Apache-2.0")
    assert not jsonschema.Draft7Validator(schema).is_valid(bad)


def test_citation_file_is_cff_1_2_0_and_cites_the_four_papers():
    with open(os.path.join(REPO, "CITATION.cff"), encoding="utf-8") as f:
        cff = yaml.safe_load(f)
    # CFF 1.2.0's required keys and the types its schema gives them.
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "version", "type"):
        assert isinstance(cff[key], str) and cff[key], key
    # A license is one SPDX identifier or a list of them (their relation is OR), never an
    # SPDX expression such as "MIT OR Apache-2.0"; both of the crates' licenses are named.
    licenses = cff["license"] if isinstance(cff["license"], list) else [cff["license"]]
    assert all(isinstance(x, str) and re.fullmatch(r"[A-Za-z0-9.+-]+", x) for x in licenses), licenses
    assert set(licenses) == {"MIT", "Apache-2.0"}, licenses
    # The release date, so a citation converted from the file (BibTeX) has its year.
    assert re.fullmatch(r"\d{4}-(0[1-9]|1[012])-(0[1-9]|[12]\d|3[01])", str(cff["date-released"]))
    assert cff["type"] == "software"
    assert cff["version"] == lastbite.__version__
    person = {"family-names", "given-names", "name-particle", "name-suffix", "affiliation", "orcid",
              "email", "website", "alias"}
    entity = {"name", "address", "city", "country", "email", "website", "orcid", "date-start", "date-end",
              "location", "post-code", "region", "tel", "fax", "alias"}

    def authors(items, where):
        assert isinstance(items, list) and items, where
        for a in items:
            assert set(a) <= person or set(a) <= entity, f"{where}: {a}"
            assert "family-names" in a or "name" in a, f"{where}: {a}"

    authors(cff["authors"], "authors")
    reference_types = {"article", "magazine-article", "book", "software", "report", "website", "generic"}
    titles = []
    for r in cff["references"]:
        assert r["type"] in reference_types, r["type"]
        authors(r["authors"], r["title"])
        assert isinstance(r["year"], int)
        titles.append(r["title"])
    assert len(titles) == 4
    for word in ("Shared Meal", "Tie-breaking", "Cookie", "Token Dollars"):
        assert any(word in t for t in titles), word


def test_dist_check_passes_here_and_refuses_a_mismatch(tmp_path):
    dist = os.path.join(REPO, "scripts", "dist")
    ok = subprocess.run([sys.executable, dist, "--check"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert f"version {lastbite.__version__} everywhere" in ok.stdout
    # A copy of the files it reads, one of them disagreeing: refused in one line naming it.
    for path in ("Cargo.toml", "python/Cargo.toml", "python/pyproject.toml", "CITATION.cff", "CHANGELOG.md",
                 "lastbite/Cargo.toml", "cli/Cargo.toml", "web/Cargo.toml", "scripts/dist"):
        os.makedirs(tmp_path / os.path.dirname(path), exist_ok=True)
        with open(os.path.join(REPO, path), encoding="utf-8") as f:
            (tmp_path / path).write_text(f.read(), encoding="utf-8")
    text = (tmp_path / "python/pyproject.toml").read_text()
    (tmp_path / "python/pyproject.toml").write_text(text.replace(f'version = "{lastbite.__version__}"',
                                                                 'version = "9.9.9"', 1))
    bad = subprocess.run([sys.executable, str(tmp_path / "scripts/dist"), "--check"], capture_output=True, text=True)
    assert bad.returncode == 1
    assert bad.stderr.count("\n") == 1, bad.stderr
    assert "python/pyproject.toml states version 9.9.9" in bad.stderr, bad.stderr


def test_workflows_parse_and_call_only_scripts_the_tests_run():
    folder = os.path.join(REPO, ".github", "workflows")
    names = sorted(os.listdir(folder))
    assert names == ["ci.yml", "pages.yml", "release.yml"], names
    for name in names:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            flow = yaml.safe_load(f)
        for job in flow["jobs"].values():
            for step in job["steps"]:
                if "run" in step:
                    # Every command a workflow runs is one of the repository's scripts,
                    # which .ci/run exercises: nothing there is tested only there.
                    script = step["run"].split()[0] if not step["run"].startswith("python3 ") else step["run"].split()[1]
                    assert script in (".ci/run", "scripts/dist", "scripts/docs-site", "scripts/site"), f"{name}: {step['run']}"
                    assert os.path.exists(os.path.join(REPO, script)), script
