"""A batch's ``journal.jsonl`` (``engine.batch.Journal``): the rows appended are the rows a resumed
run reads back, whatever text they hold, and resuming leaves the file's bytes as they were."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.batch import Journal

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)  # CR, LF, U+2028, quotes too
VALUES = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | TEXT
ROWS = st.dictionaries(TEXT, st.dictionaries(TEXT, VALUES, max_size=4), max_size=5)
FINGERPRINT = st.dictionaries(TEXT, VALUES | st.lists(TEXT, max_size=3), max_size=3)


@given(ROWS, FINGERPRINT)
def test_the_rows_appended_are_the_rows_read_back(rows: dict[str, dict[str, Any]], fingerprint: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.jsonl"
        with Journal.open(path, fingerprint, resume=False) as journal:
            for key, row in rows.items():
                journal.append(key, row)
        written = path.read_bytes()
        with Journal.open(path, fingerprint, resume=True) as again:
            assert again.done == rows
        assert path.read_bytes() == written
