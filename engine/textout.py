"""File names that are not UTF-8, written as text: ``\\xe4`` for each byte that is not.

A folder from an old Latin-1 file system (``Brett \\xe4.dat``) reaches Python as a str holding a
lone surrogate (``os.fsdecode``'s ``\\udce4``). Such a str cannot be encoded as UTF-8: under a
real UTF-8 locale (``LANG=de_DE.UTF-8``, where stdout is strict) ``robots-engine check`` printed a
traceback after its work was done, and ``results.csv`` of a contest or tournament was never
written. Here the undecodable bytes are shown as the escapes an error message uses, on the
standard streams and in the reports, whatever the locale.
"""

from __future__ import annotations

import codecs
import io
import re
import sys

#: The error handler (for ``str.encode`` and text streams) that writes a surrogate-escaped byte as ``\xNN``.
ERRORS = "robots-escape-bytes"

#: The lone surrogates ``os.fsdecode`` makes of the bytes 0x80-0xFF that are not UTF-8.
_LOW, _HIGH = 0xDC80, 0xDCFF


def _escape(exc: UnicodeError) -> tuple[str, int]:
    """``\\xNN`` for each escaped byte of the failed span, Python's backslash escape for any other
    character the encoding lacks (as stderr's ``backslashreplace``)."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    parts = []
    for char in exc.object[exc.start : exc.end]:
        code = ord(char)
        if _LOW <= code <= _HIGH:
            parts.append(f"\\x{code - 0xDC00:02x}")
        else:
            parts.append(char.encode("ascii", "backslashreplace").decode("ascii"))
    return "".join(parts), exc.end


codecs.register_error(ERRORS, _escape)


def escape_bytes(text: str) -> str:
    """``text`` with each byte of a file name that was not UTF-8 as ``\\xNN``; any other text unchanged."""
    if not any(_LOW <= ord(char) <= _HIGH for char in text):
        return text
    return text.encode("utf-8", ERRORS).decode("utf-8")


#: ``repr``'s escape of such a byte (``'Brett \\udce4'``, as argparse and error messages quote a
#: value): an odd number of backslashes before ``udcNN``, so that a quoted backslash is left alone.
_REPR_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])")


def escape_quoted_bytes(text: str) -> str:
    """``text`` with ``repr``'s ``\\udcNN`` of an undecodable byte written ``\\xNN``, as
    :func:`escape_bytes` writes it unquoted: a message names the byte one way."""
    return _REPR_ESCAPE.sub(r"\1\\x\2", text)


def readable_streams() -> None:
    """Make stdout and stderr write undecodable file-name bytes as ``\\xNN`` (stdout was strict
    under a UTF-8 locale: a traceback; stderr wrote ``\\udce4``). Streams that are not text files
    (a test's replacement) are left as they are."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=ERRORS)
