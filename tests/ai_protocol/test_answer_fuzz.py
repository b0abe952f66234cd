"""Whatever bytes an AI leaves in ``ccards.txt``, reading them gives cards or a clean AIError."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.external import MAX_ANSWER_BYTES, read_answer
from engine.cards import Card
from engine.game import AIError

CARD_LINES = st.sampled_from([c.value for c in Card] + ["", " ", "MF 4", "mf 1", "MF  1", "\t", "RL\r"])


def read_bytes(data: bytes) -> list[Card] | str:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "ccards.txt").write_bytes(data)
        try:
            return read_answer(folder, "fuzz")
        except AIError as exc:
            message = str(exc)
            assert "\n" not in message and message.startswith("AI fuzz ")
            return message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_give_cards_or_clean_error(data: bytes) -> None:
    result = read_bytes(data)
    assert isinstance(result, str) or all(isinstance(card, Card) for card in result)


@settings(max_examples=200, deadline=None)
@given(st.lists(CARD_LINES, max_size=10), st.sampled_from(["\n", "\r\n"]))
def test_near_miss_card_lines(lines: list[str], newline: str) -> None:
    result = read_bytes(newline.join(lines).encode())
    if isinstance(result, list):
        assert len(result) <= len(lines)


def test_valid_answer_reads_back() -> None:
    assert read_bytes(b"MF 1\nRL\r\nMB\n\nRU\nMF 3\n") == [Card.MF1, Card.RL, Card.MB, Card.RU, Card.MF3]


def test_oversized_answer_is_not_read() -> None:
    message = read_bytes(b"MF 1\n" * (MAX_ANSWER_BYTES // 4))
    assert isinstance(message, str) and "far too large" in message
