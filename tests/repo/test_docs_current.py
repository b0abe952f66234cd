"""README.md, examples/ and docs/ stay true to the code: every relative link and anchor leads
somewhere, and the option keys and file names they quote are the ones the code uses."""

from __future__ import annotations

import argparse
import dataclasses
import re
from pathlib import Path

from engine.ai.supervise import AILimits
from engine.session import STATE_FILE

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted(
    [ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("examples/**/README.md"), *ROOT.glob("gameboards/**/*.md")]
)


def _anchors(path: Path) -> set[str]:
    """GitHub's heading anchors of a Markdown file (lower case, punctuation dropped, spaces to '-')."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = re.match(r"#+ (.*)", line)
        if fenced or not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
        seen[slug] = seen.get(slug, -1) + 1
        found.add(slug if seen[slug] == 0 else f"{slug}-{seen[slug]}")
    return found


def test_every_relative_link_and_anchor_leads_somewhere() -> None:
    dead = []
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (doc.parent / path).resolve() if path else doc
            if not linked.exists() or (anchor and linked.suffix == ".md" and anchor not in _anchors(linked)):
                dead.append(f"{doc.relative_to(ROOT)}: {target}")
    assert dead == []


def test_the_ai_limit_keys_listed_are_every_key_there_is() -> None:
    """docs/engine-cli.md listed ``--ai-limit memory|processes|file-size|cpu`` after ``sandbox`` came."""
    keys = {field.name.replace("_", "-") for field in dataclasses.fields(AILimits)}
    text = (ROOT / "docs" / "engine-cli.md").read_text(encoding="utf-8")
    listed = re.search(r"`--ai-limit ([^`]*)`", text)
    assert listed is not None
    assert {word.split("=")[0] for word in listed.group(1).split("|")} == keys
    limits = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    assert all(f"`{key}`" in limits or f"{key}=" in limits for key in keys)


def test_the_state_file_is_named_as_the_engine_names_it() -> None:
    """docs/limits.md called ``start``'s state file ``state.json``; it is ``.robots-state.json``."""
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        assert re.findall(r"(?<![-\w.])state\.json", text) == [], doc
        if "robots-state" in text:
            assert STATE_FILE in text


def test_every_table_row_belongs_to_a_table() -> None:
    """A blank line inside a table ends it: docs/themes.md's row of ``tron/trail.png`` came after
    one and showed as a paragraph of pipes. A row after a blank line must start a table (header,
    then the ``|---|`` line)."""
    stray = []
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").splitlines()
        fenced = False
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            starts = line.startswith("|") and (number == 1 or not lines[number - 2].startswith("|"))
            if not fenced and starts and not (number < len(lines) and re.match(r"\|[ :|-]+\|$", lines[number])):
                stray.append(f"{doc.relative_to(ROOT)}:{number}: {line[:40]}")
    assert stray == []


def _subcommand_options(parser: argparse.ArgumentParser) -> dict[str, set[str]]:
    """Each subcommand's long options (``--help`` left out)."""
    found: dict[str, set[str]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[name] = {
                    option for each in sub._actions for option in each.option_strings if option.startswith("--")
                } - {"--help"}
    return found


def _synopses(text: str, tool: str) -> dict[str, str]:
    """The synopsis lines of ``tool SUBCOMMAND ...`` in a document, joined per subcommand
    (a ``sh`` block's continuation lines included)."""
    found: dict[str, str] = {}
    current = ""
    for line in text.splitlines():
        start = re.match(rf"\|? ?`?{tool} (\w+)", line)
        if start:
            current = start.group(1)
            found[current] = found.get(current, "") + " " + line
        elif current and line.startswith(" " * 10) and line.strip().startswith("["):
            found[current] += " " + line
        else:
            current = ""
    return found


def test_each_synopsis_names_every_option_of_its_command() -> None:
    """docs/tron.md's ``robots-tron tournament`` line lacked ``--startup``; docs/engine-cli.md's
    table lacked ``--ai-limit`` on ``start``, ``play`` and ``round``, and ``--timeout`` on ``round``."""
    from engine.cli import build_parser as engine_parser
    from engine.tron.cli import build_parser as tron_parser

    missing = []
    for doc, tool, parser in (
        ("engine-cli.md", "robots-engine", engine_parser()),
        ("tron.md", "robots-tron", tron_parser()),
    ):
        lines = _synopses((ROOT / "docs" / doc).read_text(encoding="utf-8"), tool)
        for command, options in _subcommand_options(parser).items():
            if command in lines:
                missing += [f"{doc}: {tool} {command} {option}" for option in options if option not in lines[command]]
    assert missing == []


#: References only the team could follow: tracker issue numbers, commits of the main branch, a
#: RULES.md that is no file of the repository, the people sharing the build machine.
INTERNAL = re.compile(r"\bissue \d+|\bissue's\b|\bmain at [0-9a-f]{7}|\bRULES\.md|\bengineers\b|\bthis issue\b")


def test_no_internal_references_a_reader_cannot_follow() -> None:
    """docs/rules.md had 'Decisions RULES.md made', docs/ai.md 'Benchmark figures (issue 13)' and
    'eight engineers', docs/viewer.md 'before (main at f165e22)'."""
    found = []
    for doc in DOCS:
        if doc.name.startswith(("ai-bench-", "benchmarks")):
            continue  # tables of figures, outside this audit
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{doc.relative_to(ROOT)}:{number}: {hit}" for hit in INTERNAL.findall(line)]
    assert found == []


def test_the_help_names_every_exit_status_the_engine_doc_lists() -> None:
    """docs/engine-cli.md lists status 4 (a damaged installation); ``robots-engine --help`` stopped at 3."""
    from engine.cli import build_parser as engine_parser

    text = (ROOT / "docs" / "engine-cli.md").read_text(encoding="utf-8")
    table = text.split("## Exit status and messages", 1)[1].split("\n\n", 2)[1]
    statuses = [int(code) for code in re.findall(r"^\| (\d+) \|", table, re.MULTILINE) if int(code) < 128]
    epilog = " ".join((engine_parser().epilog or "").split())
    assert statuses and all(re.search(rf"\b{code} [a-z]", epilog) for code in statuses), (statuses, epilog)
