"""How results meet other code and a notebook: rows as a pandas DataFrame."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas


def frame(records: Sequence[Mapping[str, Any]]) -> pandas.DataFrame:
    """``records`` as a pandas DataFrame (pandas is optional: the ``pandas`` extra brings it)."""
    try:
        import pandas
    except ImportError:
        raise ImportError("to_frame() needs pandas: pip install 'oddscalc[pandas]'") from None
    return pandas.DataFrame.from_records(list(records))
