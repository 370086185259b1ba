#!/usr/bin/env python3
"""Checks that no two files of a crate depend on each other in a circle.

A file depends on another when it names an item the other defines: through a `use`
declaration, or a path written in code (`crate::games::dinner::solve`, `super::Error`,
`sweep::run` after `use super::sweep`). A path is followed through `pub use`
re-exports to the file that defines the item, so a module's own table of contents (its
`mod` lines and the `pub use` lines that surface its children's items) is not a
dependency of its own: `api/dinner/mod.rs` re-exporting `report::SolveReport` and
`report.rs` using nothing of `mod.rs` is a one-way layering.

Usage: scripts/check_layers.py [CRATE_SRC_DIR ...]   (default: every crate of the repo)
Exit status 1 and one line per circle when a circle exists; 0 and a summary otherwise.
Also fails on a tracked file that cites a tracker's number, and on a source file over
850 lines.
Comments, doc comments (intra-doc links are not dependencies) and string literals are
ignored; test modules (`tests.rs`, `mod tests { .. }`) are left out, since a test of a
module naturally looks at its module from outside.
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """The source with comments, string and char literals blanked out (same length)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:]) and not re.match(r"[A-Za-z0-9_]", text[i - 1] if i else " "):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^'\\\n])'", text[i:])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(text, open_at):
    depth = 0
    for j in range(open_at, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text)


def expand_use(tree):
    """`a::{b, c::{self, d}}` -> [(['a','b'], alias), (['a','c'], ...), ...]."""
    tree = re.sub(r"\s+", "", tree)
    results = []

    def walk(prefix, t):
        parts, depth, cur = [], 0, ""
        for ch in t:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        for p in parts:
            if "{" in p:
                head, rest = p.split("{", 1)
                head_path = [s for s in head.split("::") if s]
                walk(prefix + head_path, rest[: rest.rfind("}")])
            else:
                alias = None
                segs = [s for s in p.split("::") if s]
                if segs and segs[-1] == "self":
                    segs = segs[:-1]
                if segs:
                    results.append((prefix + segs, alias))

    walk([], tree)
    return results


class Crate:
    def __init__(self, root):
        self.root = root
        self.files = {}  # module path tuple -> file path
        self.text = {}  # file path -> stripped text
        self.children = {}  # module path -> set of child module names (file or inline)
        self.defs = {}  # module path -> set of item names defined
        self.reexports = {}  # module path -> {name: full path list} and globs
        self.globs = {}
        self.uses = {}  # file -> list of (module path of the using scope, segs)
        self.inline = {}  # file -> list of (start, end, module path)
        lib = os.path.join(root, "lib.rs")
        if not os.path.exists(lib):
            lib = os.path.join(root, "main.rs")
        self.load((), lib)

    def load(self, mod, path):
        with open(path, encoding="utf-8") as f:
            raw = f.read()
        text = strip(raw)
        self.files[mod] = path
        self.text[path] = text
        self.inline[path] = []
        self.scan_scope(mod, path, text, 0, len(text), raw)

    def scan_scope(self, mod, path, text, start, end, raw):
        self.children.setdefault(mod, set())
        self.defs.setdefault(mod, set())
        self.reexports.setdefault(mod, {})
        self.globs.setdefault(mod, [])
        pos = start
        # Inline modules first: their ranges belong to them.
        inner = []
        for m in re.finditer(r"\bmod\s+(" + IDENT + r")\s*([;{])", text[start:end]):
            s = start + m.start()
            if any(a <= s < b for a, b, _ in inner):
                continue
            name = m.group(1)
            if m.group(2) == "{":
                ob = start + m.end() - 1
                cb = matching_brace(text, ob)
                inner.append((ob, cb, name))
            else:
                inner.append((s, s, name))
        for ob, cb, name in inner:
            child = mod + (name,)
            self.children[mod].add(name)
            if ob == cb:  # `mod name;`: a file
                attrs = raw[max(0, ob - 200):ob]
                if name == "tests" or re.search(r"#\[cfg\(test\)\]\s*$", attrs):
                    continue
                d = os.path.dirname(path)
                if not (path.endswith("mod.rs") or path.endswith("lib.rs") or path.endswith("main.rs")):
                    d = os.path.join(d, os.path.basename(path)[:-3])
                for cand in (os.path.join(d, name + ".rs"), os.path.join(d, name, "mod.rs")):
                    if os.path.exists(cand):
                        self.load(child, cand)
                        break
            else:
                if name == "tests":
                    self.inline[path].append((ob, cb, None))
                    continue
                self.inline[path].append((ob, cb, child))
                self.scan_scope(child, path, text, ob + 1, cb, raw)
        def outside_inner(i):
            return not any(a <= i <= b for a, b, _ in inner if a != b)
        for m in re.finditer(
            r"\b(?:fn|struct|enum|trait|type|const|static|union|macro_rules!)\s+(" + IDENT + ")",
            text[start:end],
        ):
            if outside_inner(start + m.start()):
                self.defs[mod].add(m.group(1))
        for m in re.finditer(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", text[start:end]):
            if not outside_inner(start + m.start()):
                continue
            public = bool(m.group(1))
            body = m.group(2)
            for segs, alias in self.expand(body):
                full = self.absolute(mod, segs)
                if full is None:
                    continue
                if public:
                    if segs[-1] == "*":
                        self.globs[mod].append(full[:-1])
                    else:
                        self.reexports[mod][alias or full[-1]] = full
                self.uses.setdefault(path, []).append((mod, full, start + m.start()))

    def expand(self, body):
        # Keep `as` aliases: rewrite `x as y` to a marker before whitespace is removed.
        body = re.sub(r"\s+as\s+(" + IDENT + ")", r"@\1", body)
        out = []
        for segs, _ in expand_use(body):
            alias = None
            if "@" in segs[-1]:
                last, alias = segs[-1].split("@")
                segs = segs[:-1] + [last]
            out.append((segs, alias))
        return out

    def absolute(self, mod, segs):
        """A path written in module `mod`, as a tuple from the crate root, or None when it
        leaves the crate (std, serde, ...)."""
        segs = list(segs)
        if not segs:
            return None
        if segs[0] in ("crate", "$crate"):
            return tuple(segs[1:])
        if segs[0] == "self":
            return mod + tuple(segs[1:])
        if segs[0] == "super":
            base = list(mod)
            while segs and segs[0] == "super":
                if not base:
                    return None
                base.pop()
                segs.pop(0)
            return tuple(base) + tuple(segs)
        if segs[0] in self.children.get(mod, ()):
            return mod + tuple(segs)
        if mod == () and segs[0] in self.children.get((), ()):
            return tuple(segs)
        return None

    def resolve(self, full, seen=None):
        """The module (tuple) whose file defines the item `full` names."""
        seen = seen or set()
        if full in seen:
            return None
        seen.add(full)
        mod = ()
        i = 0
        while i < len(full) and full[i] in self.children.get(mod, ()):
            mod = mod + (full[i],)
            i += 1
        if i >= len(full):
            return mod
        name = full[i]
        if name in self.reexports.get(mod, {}) and name not in self.defs.get(mod, ()):
            target = self.reexports[mod][name]
            return self.resolve(target + tuple(full[i + 1:]), seen)
        if name not in self.defs.get(mod, ()):
            for g in self.globs.get(mod, ()):
                r = self.resolve(g + (name,) + tuple(full[i + 1:]), seen)
                if r is not None and r != g:
                    return r
        return mod

    def scope_at(self, path, filemod, pos):
        mod = filemod
        best = None
        for a, b, m in self.inline[path]:
            if a <= pos <= b and (best is None or a > best[0]):
                best = (a, m)
        if best is not None:
            return best[1]
        return mod

    def file_of(self, mod):
        while mod not in self.files and mod:
            mod = mod[:-1]
        return self.files.get(mod)

    def edges(self):
        mods_of = {p: m for m, p in self.files.items()}
        edges = {}
        for path, text in self.text.items():
            filemod = mods_of[path]
            targets = {}

            def add(full, pos):
                if full is None:
                    return
                target = self.resolve(full)
                if target is None:
                    return
                tfile = self.file_of(target)
                if tfile is None or tfile == path:
                    return
                # A module's table of contents: `pub use child::X` of its own children.
                targets.setdefault(tfile, pos)

            # `use` lines: only private uses are dependencies; `pub use` of a
            # descendant is the module surfacing its own items.
            for scope, full, pos in self.uses.get(path, []):
                if scope is None:
                    continue
                line_start = text.rfind("\n", 0, pos) + 1
                is_pub = re.match(r"\s*pub", text[line_start:pos + 3]) is not None
                if is_pub and full[: len(scope)] == scope:
                    continue
                add(full, pos)
            # Paths written in code: crate::.., super::.., self::.., child::..,
            # or a name brought in by `use` followed by `::`.
            imported = {}
            for scope, full, pos in self.uses.get(path, []):
                if scope is not None:
                    imported.setdefault(scope, {})[full[-1]] = full
            for m in re.finditer(r"(?<![A-Za-z0-9_:])((?:\$?" + IDENT + r"::)+" + IDENT + ")", text):
                pos = m.start()
                line_start = text.rfind("\n", 0, pos) + 1
                if re.match(r"\s*(pub(\([^)]*\))?\s+)?use\b", text[line_start:]):
                    continue
                scope = self.scope_at(path, filemod, pos)
                if scope is None:
                    continue
                segs = m.group(1).split("::")
                full = self.absolute(scope, segs)
                if full is None and segs[0] in imported.get(scope, {}):
                    full = imported[scope][segs[0]] + tuple(segs[1:])
                add(full, pos)
            edges[path] = targets
        return edges


def cycles(edges):
    """Strongly connected components with more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


# Dependencies that must not exist at all, whatever the circles: (what, from, to), paths
# relative to the repository. `*` in `to` stands for any other family than `from`'s.
FORBIDDEN = [
    ("the engine knows no game family", "lastbite/src/engine/", "lastbite/src/games/"),
    ("the engine knows no API", "lastbite/src/engine/", "lastbite/src/api/"),
    ("a family knows no API", "lastbite/src/games/", "lastbite/src/api/"),
    ("a family knows no other family", "lastbite/src/games/", "lastbite/src/games/*"),
]


def family(path):
    rest = path.split("lastbite/src/games/", 1)[1]
    return rest.split("/", 1)[0].removesuffix(".rs")


def forbidden(edges, repo):
    """One line per dependency that breaks a rule of FORBIDDEN."""
    out = []
    for a, targets in edges.items():
        ra = os.path.relpath(a, repo)
        for b in targets:
            rb = os.path.relpath(b, repo)
            for why, src, dst in FORBIDDEN:
                if not ra.startswith(src):
                    continue
                if dst.endswith("*"):
                    hit = rb.startswith(dst[:-1]) and family(rb) != family(ra)
                else:
                    hit = rb.startswith(dst)
                if hit:
                    out.append(f"{ra} -> {rb}: {why}")
    return out


def unmapped(games_dir, architecture):
    """The files and folders under `games_dir` (a crate's `src/games/`) that the tree of
    `architecture` (docs/architecture.md's text) does not name in their family's part:
    the lines from `src/games/<family>/` to the next line as little indented. A folder
    is named as `name/`, a file by its name (`mod.rs` and `tests.rs` need not be)."""
    lines = architecture.split("\n")
    missing = []
    for family in sorted(os.listdir(games_dir)):
        fdir = os.path.join(games_dir, family)
        if not os.path.isdir(fdir):
            continue
        start = next((i for i, l in enumerate(lines) if f"src/games/{family}/" in l), None)
        if start is None:
            missing.append(f"src/games/{family}/")
            continue
        indent = len(lines[start]) - len(lines[start].lstrip())
        end = start + 1
        while end < len(lines) and (
            not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent
        ):
            end += 1
        part = "\n".join(lines[start:end])
        for here, dirs, files in os.walk(fdir):
            for d in dirs:
                if not re.search(r"(^|[\s,])" + re.escape(d) + r"/", part):
                    missing.append(os.path.relpath(os.path.join(here, d), games_dir) + "/")
            for f in files:
                if f in ("mod.rs", "tests.rs") or not f.endswith((".rs", ".wgsl")):
                    continue
                if not re.search(r"(^|[\s,(])" + re.escape(f) + r"\b", part):
                    missing.append(os.path.relpath(os.path.join(here, f), games_dir))
    return missing


# A tracker's number ("issue" then a number) in code, help text or docs: a reader of the
# tree has no tracker, so the text must say what the thing does instead. Spelt in two
# pieces so that this file does not match itself.
ISSUE_NUMBER = re.compile(r"\b" + "issues?" + r" #?[0-9]+", re.I)


# The longest a source file may be: a file that needs more holds two things.
MAX_LINES = 850
SOURCE = re.compile(r"\.(rs|py|pyi|js|mjs|ts|sh|html|css)$")


def long_files(repo, files=None):
    """`path: N lines` for each tracked source file over MAX_LINES lines."""
    import subprocess

    if files is None:
        try:
            files = subprocess.run(["git", "ls-files", "-z"], cwd=repo, capture_output=True,
                                   check=True).stdout.decode().split("\0")
        except (OSError, subprocess.CalledProcessError):
            return []
    found = []
    for rel in filter(None, files):
        if not SOURCE.search(rel):
            continue
        try:
            with open(os.path.join(repo, rel), encoding="utf-8") as f:
                n = sum(1 for _ in f)
        except (OSError, UnicodeDecodeError):
            continue
        if n > MAX_LINES:
            found.append(f"{rel}: {n} lines")
    return found


# The one cancel type: every long loop takes the engine's `&dyn Progress` and asks its
# `cancelled()`; a closure standing for it is a second spelling that the next search copies.
# (Split so that this file does not match itself.)
OTHER_CANCEL = re.compile(r"dyn Fn" + r"\(\) -> bool|type Stop\b")


def other_cancels(repo):
    """`path:line: text` for each Rust line under lastbite/src spelling cancellation otherwise."""
    found = []
    src = os.path.join(repo, "lastbite", "src")
    for here, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(here, f)
            with open(path, encoding="utf-8") as fh:
                for i, line in enumerate(fh, 1):
                    if OTHER_CANCEL.search(line):
                        found.append(f"{os.path.relpath(path, repo)}:{i}: {line.strip()}")
    return found


def issue_numbers(repo):
    """`path:line: text` for each tracked text file's line that cites a tracker's number."""
    import subprocess

    try:
        files = subprocess.run(["git", "ls-files", "-z"], cwd=repo, capture_output=True,
                               check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        return []
    found = []
    for rel in filter(None, files):
        path = os.path.join(repo, rel)
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        found += [f"{rel}:{i}: {line.strip()}" for i, line in enumerate(lines, 1)
                  if ISSUE_NUMBER.search(line)]
    return found


def self_test():
    """The check must be able to fail: a made-up crate with a circle through a re-export
    (b uses a's item, a uses c's, c uses b's through `pub use`) is caught, and the same
    crate with the circle cut is not."""
    import tempfile

    def crate(files):
        d = tempfile.mkdtemp()
        for name, text in files.items():
            path = os.path.join(d, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        return cycles(Crate(d).edges())

    base = {
        "lib.rs": "mod a;\nmod b;\npub mod c;\n",
        "a.rs": "use crate::c::X;\npub fn fa() -> X { X }\n",
        "c/mod.rs": "mod inner;\npub use inner::X;\n",
        "c/inner.rs": "/// Doc naming [`crate::a::fa`] is no dependency.\npub struct X;\n",
    }
    circle = dict(base, **{"c/inner.rs": "pub struct X;\nfn g() { crate::b::fb(); }\n",
                           "b.rs": "pub fn fb() { let _ = super::a::fa(); }\n"})
    cut = dict(base, **{"b.rs": "pub fn fb() { let _ = super::a::fa(); }\n"})
    found = crate(circle)
    assert len(found) == 1 and len(found[0]) == 3, found
    assert crate(cut) == [], crate(cut)
    repo = "/r"
    bad = {"/r/lastbite/src/games/cookie/x.rs": {"/r/lastbite/src/games/dinner/y.rs": 0},
           "/r/lastbite/src/engine/e.rs": {"/r/lastbite/src/api/a.rs": 0},
           "/r/lastbite/src/games/dinner/z.rs": {"/r/lastbite/src/games/dinner/y.rs": 0}}
    assert len(forbidden(bad, repo)) == 2, forbidden(bad, repo)
    games = tempfile.mkdtemp()
    os.makedirs(os.path.join(games, "fam", "part"))
    for f in ("fam/a.rs", "fam/part/b.rs", "fam/part/mod.rs"):
        open(os.path.join(games, f), "w").close()
    doc = "  src/games/fam/  a family\n    a.rs  one\n    part/  two\n      b.rs  three\n  other\n"
    assert unmapped(games, doc) == [], unmapped(games, doc)
    assert unmapped(games, doc.replace("b.rs", "c.rs")) == ["fam/part/b.rs"]
    assert ISSUE_NUMBER.search("the finding of " + "iss" + "ue 54 item 3")
    assert not ISSUE_NUMBER.search("the issues of a misspelt method")
    assert OTHER_CANCEL.search("stop: &(dyn Fn" + "() -> bool + Sync),")
    assert not OTHER_CANCEL.search("stop: &dyn Progress,")
    long = tempfile.mkdtemp()
    with open(os.path.join(long, "big.rs"), "w") as f:
        f.write("//\n" * (MAX_LINES + 1))
    with open(os.path.join(long, "ok.rs"), "w") as f:
        f.write("//\n" * MAX_LINES)
    assert long_files(long, ["big.rs", "ok.rs", "notes.txt"]) == [f"big.rs: {MAX_LINES + 1} lines"]
    print("check_layers: self-test passed (a circle through a re-export is found, none once cut;"
          " a file missing from the architecture's tree is found; a tracker's number and a file over"
          f" {MAX_LINES} lines are found)")


def main(argv):
    if argv == ["--self-test"]:
        self_test()
        return 0
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    roots = argv or [
        os.path.join(repo, d)
        for d in ("lastbite/src", "cli/src", "web/src", "python/src")
        if os.path.isdir(os.path.join(repo, d))
    ]
    bad = 0
    total = 0
    for root in roots:
        crate = Crate(root)
        edges = crate.edges()
        total += len(edges)
        for line in forbidden(edges, repo):
            bad += 1
            print(line)
        for comp in cycles(edges):
            bad += 1
            rel = [os.path.relpath(p, repo) for p in comp]
            # Name one edge of each pair in the circle, so the fix is findable.
            links = []
            for a in comp:
                for b in comp:
                    if b in edges.get(a, {}):
                        line = crate.text[a].count("\n", 0, edges[a][b]) + 1
                        links.append(f"{os.path.relpath(a, repo)}:{line} -> {os.path.relpath(b, repo)}")
            print(f"import circle among {', '.join(rel)}: " + "; ".join(links))
    games = os.path.join(repo, "lastbite", "src", "games")
    arch = os.path.join(repo, "docs", "architecture.md")
    if not argv and os.path.isdir(games):
        with open(arch) as f:
            for m in unmapped(games, f.read()):
                bad += 1
                print(f"docs/architecture.md's tree does not name lastbite/src/games/{m}")
    if not argv:
        for hit in issue_numbers(repo):
            bad += 1
            print(f"a tracker's number, which a reader cannot follow: {hit}")
        for hit in other_cancels(repo):
            bad += 1
            print(f"a cancel check spelt other than `&dyn Progress` (the engine's one type): {hit}")
        for hit in long_files(repo):
            bad += 1
            print(f"a source file over {MAX_LINES} lines (split it by what it owns): {hit}")
    if bad:
        print(f"check_layers: {bad} import circle(s), forbidden dependencies, unmapped files, tracker numbers or long files")
        return 1
    print(f"check_layers: no import circle among {total} files, no forbidden dependency")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
