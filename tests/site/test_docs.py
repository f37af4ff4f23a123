"""The project's own documents: docs/ holds its pages, and nothing cites a document the
repository does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

PAGES = ("README.md", "rules.md", "engine-cli.md", "architecture.md", "glossary.md", "operating.md", "live-refresh.md")

# Folders that are not the project's files: tools' caches, the virtualenv, build output.
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "__pycache__",
    "node_modules",
    ".pytest_cache",
    ".ruff_cache",
    ".mypy_cache",
    ".hypothesis",
    ".run-state",
    "staticfiles",
    "test-results",
    "bench-results",
    "build",
    "dist",
}
SKIPPED_SUFFIXES = {".mo", ".pyc", ".sqlite3", ".png", ".jpg", ".ico", ".pdf", ".woff", ".woff2"}

URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+")
# A Markdown document named in text: `docs/rules.md`, `engine/README.md`, `glossary.md`.
MD_DOCUMENT = re.compile(r"[\w./-]*[\w-]\.md\b")
# The French rule texts the rules were first written from live outside the repository.
RULE_TEXT = re.compile(r"[\w./-]*[\w-]\.fr\.txt\b")
LINK = re.compile(r"\]\(([^)#\s]*)(?:#([^)\s]+))?\)")
HEADING = re.compile(r"^#+\s+(.+?)\s*$", re.MULTILINE)


def project_files(root: Path) -> list[Path]:
    files = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).parts
        if any(part in SKIPPED_DIRS or part.endswith(".egg-info") for part in relative[:-1]):
            continue
        if path.is_file() and path.name not in SKIPPED_DIRS and path.suffix not in SKIPPED_SUFFIXES:
            files.append(path)
    return files


def resolves(root: Path, citing: Path, name: str) -> bool:
    """Whether `name`, cited in `citing`, is a file of the repository: beside it, from the
    root, or a page of docs/. An absolute path is outside the repository by definition."""
    if name.startswith("/"):
        return False
    for base in (citing.parent, root, root / "docs"):
        target = (base / name).resolve()
        if target.is_relative_to(root) and target.is_file():
            return True
    return False


def outside_citations(root: Path) -> list[str]:
    """Every `file:line: name` where a file cites a document the repository does not hold."""
    found = []
    for path in project_files(root):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            line = URL.sub("", line)
            for pattern in (MD_DOCUMENT, RULE_TEXT):
                for name in pattern.findall(line):
                    if not resolves(root, path, name):
                        found.append(f"{path.relative_to(root)}:{number}: {name}")
    return found


def anchor(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading: lower case, punctuation dropped, dashes."""
    text = re.sub(r"[`*]", "", heading).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def test_docs_holds_the_index_and_the_four_pages() -> None:
    for name in PAGES:
        page = ROOT / "docs" / name
        assert page.is_file(), f"docs/{name} is missing"
        assert page.read_text(encoding="utf-8").startswith("# "), f"docs/{name} has no title"


@pytest.mark.slow
def test_no_file_cites_a_document_outside_the_repository() -> None:
    assert outside_citations(ROOT) == []


def test_the_check_finds_a_citation_of_a_missing_document_and_accepts_a_present_one(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules\n", encoding="utf-8")
    # Built here so that this file names no missing document itself.
    missing, rule_text = "rules/SETTLED" + ".md", "rules/belote" + ".fr.txt"
    (tmp_path / "module.py").write_text(
        f'"""Scored as docs/rules.md says (rules.md); see {missing} and https://example.org/x.md."""\n'
        f"# {rule_text}, /elsewhere/{missing}\n",
        encoding="utf-8",
    )
    assert outside_citations(tmp_path) == [
        f"module.py:1: {missing}",
        f"module.py:2: /elsewhere/{missing}",
        f"module.py:2: {rule_text}",
    ]


def test_links_between_the_pages_lead_to_a_page_and_a_heading_that_exist() -> None:
    for page in (ROOT / "docs").glob("*.md"):
        for target, fragment in LINK.findall(page.read_text(encoding="utf-8")):
            linked = (page.parent / target).resolve() if target else page
            assert linked.is_file(), f"{page.name} links to {target}, which does not exist"
            if fragment and linked.suffix == ".md":
                anchors = {anchor(h) for h in HEADING.findall(linked.read_text(encoding="utf-8"))}
                assert fragment in anchors, f"{page.name} links to {target}#{fragment}, no such heading"
