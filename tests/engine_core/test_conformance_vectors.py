"""Every conformance vector in tests/data/conformance must pass (cards and whole games)."""

from pathlib import Path

import pytest

from engine.conformance import main, run_file

VECTORS = Path(__file__).resolve().parents[1] / "data" / "conformance"


@pytest.mark.parametrize("name", ["cards.jsonl", "games.jsonl"])
def test_vector_file_passes(name: str) -> None:
    count, failures = run_file(VECTORS / name)
    assert count > 0
    assert [f.describe() for f in failures] == []


def test_runner_reports_a_wrong_vector(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = (VECTORS / "cards.jsonl").read_text().splitlines()[0].replace('"after": [[0, 0, "L"', '"after": [[0, 0, "R"')
    bad = tmp_path / "bad.jsonl"
    bad.write_text(line + "\n")
    assert main([str(bad)]) == 1
    assert "0 passed, 1 failed" in capsys.readouterr().out


def test_runner_rejects_garbage_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "garbage.jsonl"
    bad.write_text("{not json\n")
    assert main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "garbage.jsonl:1:" in err


def test_runner_rejects_binary_garbage_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "binary.jsonl"
    bad.write_bytes(b'{"id": "a"}\nf\xab\xcd\x17\n')
    assert main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {bad}:2:2: not UTF-8 text (byte 0xab)\n"
