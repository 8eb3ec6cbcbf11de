"""The date a document is made: now, unless ``SOURCE_DATE_EPOCH`` asks for a reproducible build.

A filing carries the day it was prepared, in its text and in its metadata. A build that must give the same bytes
twice (a test, a packager) sets ``SOURCE_DATE_EPOCH`` to a count of seconds since 1970-01-01 UTC, the
convention of reproducible-builds.org; the document then carries that instant instead.

>>> import os
>>> os.environ["SOURCE_DATE_EPOCH"] = "86400"
>>> made_at().isoformat()
'1970-01-02T00:00:00+00:00'
>>> del os.environ["SOURCE_DATE_EPOCH"]
"""

from __future__ import annotations

import datetime
import os

from oddscalc.protocol import OptionError

VARIABLE = "SOURCE_DATE_EPOCH"


class BadEpoch(OptionError):
    """``SOURCE_DATE_EPOCH`` is set to something that is not a count of seconds (a bad input: exit 4)."""


def made_at() -> datetime.datetime:
    """The instant a document is made, in UTC: ``SOURCE_DATE_EPOCH`` when set, else now."""
    text = os.environ.get(VARIABLE)
    if text is None or not text.strip():
        return datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 11:
        raise BadEpoch(f"{VARIABLE}={text[:40]!r} is not a count of seconds since 1970-01-01 UTC")
    return datetime.datetime.fromtimestamp(int(text), datetime.UTC)


__all__ = ["VARIABLE", "BadEpoch", "made_at"]
