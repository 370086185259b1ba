"""Every Python block of the README and the docs runs as shown: a block of `>>>` lines as
a doctest (from the repository's root, where its paths are relative to), any other block
as a script in a scratch folder holding `examples/`; the doctest blocks of a page
share their names, in the page's order. A block right after an HTML comment
`<!-- not run: why -->` is left out, with its reason in the page."""

import doctest
import os
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "results").glob("*.md"))]
BLOCK = re.compile(r"(<!-- not run:[^>]*-->\n)?```python\n(.*?)```", re.S)


def _blocks():
    for page in PAGES:
        text = page.read_text()
        for m in BLOCK.finditer(text):
            if m.group(1):
                continue
            line = text[: m.start(2)].count("\n") + 1
            yield pytest.param(page, line, m.group(2), id=f"{page.relative_to(ROOT)}:{line}")


BLOCKS = list(_blocks())
# The doctest blocks of one page share their names, as a reader's session does.
_GLOBS = {}


def test_the_pages_have_python_blocks():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("page,line,code", BLOCKS)
def test_python_block_runs(page, line, code, tmp_path, monkeypatch):
    if code.lstrip().startswith(">>>"):
        monkeypatch.chdir(ROOT)
        globs = _GLOBS.setdefault(page, {})
        test = doctest.DocTestParser().get_doctest(code, globs, f"{page.name}:{line}", str(page), line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)  # DocTest copies the names it is given
        assert runner.failures == 0, f"{page.name}:{line}: {runner.failures} example(s) failed"
    else:
        os.symlink(ROOT / "examples", tmp_path / "examples")
        monkeypatch.chdir(tmp_path)
        exec(compile(code, f"{page.name}:{line}", "exec"), {"__name__": "__main__"})
