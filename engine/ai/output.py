"""An AI's output kept within bounds: the first part and the last part, with the middle counted.

A bot that prints 150 KB of debug output and then raises must still show its traceback, which
is at the very end; a bot that prints a banner and then loops shows why at the start.  So we
keep both ends and say how much of the middle was left out, never more than ``head + tail``
bytes in memory whatever the program writes.
"""

from __future__ import annotations


class BoundedOutput:
    """The first ``head`` and the last ``tail`` bytes of a stream, and its total length."""

    def __init__(self, head: int, tail: int) -> None:
        self.head_limit = head
        self.tail_limit = tail
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.head_limit - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk and self.tail_limit > 0:
            self.tail += chunk
            if len(self.tail) > self.tail_limit:
                del self.tail[: len(self.tail) - self.tail_limit]

    @property
    def left_out(self) -> int:
        """Bytes of the middle that were not kept."""
        return self.total - len(self.head) - len(self.tail)

    def data(self) -> bytes:
        """The kept bytes with a one-line note in place of what was left out."""
        if self.left_out <= 0:
            return bytes(self.head) + bytes(self.tail)
        note = f"\n[... {self.left_out} bytes of output left out: kept the first {len(self.head)} and the last {len(self.tail)} of {self.total} ...]\n"
        return bytes(self.head) + note.encode() + bytes(self.tail)

    def text(self) -> str:
        return self.data().decode("utf-8", errors="replace")

    def last_line(self, limit: int = 80) -> str:
        """The last non-empty line written (from the tail when there is one), shortened."""
        return last_line(bytes(self.head) + bytes(self.tail), limit)


def last_line(data: bytes, limit: int = 80) -> str:
    """The last non-empty printable line of ``data``, at most ``limit`` characters: a longer one keeps
    its start and its end (``/tmp/.../bomb: 0: Cannot fork``), since the end of an error line usually
    says what went wrong and the start who said it (cut at its end, the reason was lost)."""
    for raw in reversed(data.splitlines()):
        line = "".join(c if c.isprintable() else "?" for c in raw.decode("utf-8", errors="replace")).strip(" ?")
        if line:
            if len(line) <= limit:
                return line
            head = limit // 3
            return line[:head] + "..." + line[len(line) - (limit - head - 3) :]
    return ""


def shorten(text: str, head: int, tail: int) -> tuple[str, int]:
    """``text`` cut to its first ``head`` and last ``tail`` characters; also how many were left out."""
    if len(text) <= head + tail:
        return text, 0
    left_out = len(text) - head - tail
    note = f"\n[... {left_out} characters left out ...]\n"
    return text[:head] + note + (text[-tail:] if tail else ""), left_out
