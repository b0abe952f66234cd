"""Reading a results table back: the ``results.csv`` a contest or a tournament writes, one row a game.

Both tables are written by ``csv`` with a header of their columns; reading one back checks the
header, each row's number of fields and its counts the same way for both, so a damaged file is
one line naming its line whichever run wrote it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from engine.bounds import parse_count
from engine.errors import InputError


def read_rows(
    text: str, columns: Sequence[str], counts: Sequence[str], high: int, path: str | Path | None = None
) -> list[tuple[int, dict[str, str | int]]]:
    """The rows of ``text`` under the header ``columns``, each with the line it ends on; the
    ``counts`` columns as whole numbers from 0 to ``high``, the others as text. InputError naming
    the line otherwise."""
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[tuple[int, dict[str, str | int]]] = []
    try:
        if next(reader, None) != list(columns):
            raise InputError(f"expected the header {','.join(columns)}", path, 1, 1)
        for row in reader:
            line = reader.line_num
            if len(row) != len(columns):
                raise InputError(f"expected {len(columns)} fields, found {len(row)}", path, line, 1)
            values: dict[str, str | int] = dict(zip(columns, row, strict=True))
            for name in counts:
                values[name] = parse_count(row[columns.index(name)], name, 0, high, path, line, 1)
            rows.append((line, values))
    except csv.Error as exc:
        raise InputError(f"not valid CSV: {exc}", path, reader.line_num, 1) from None
    return rows
