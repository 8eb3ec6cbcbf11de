"""On-disk cache of pay-free enumerations.

An entry is a set of named numpy arrays, keyed by everything that changes them (game,
deck, rules that matter, the code's ``version`` tag). It is stored as ``<digest>.bin``
(the raw arrays, back to back) with a ``<digest>.json`` sidecar holding the key, each array's
dtype, shape and offset, and a sha256 of the data file. On load
the sidecar's key and digest are checked; anything missing, damaged or mismatched is
rebuilt, never trusted. ``ODDSCALC_CACHE_DIR`` overrides the location; ``ODDSCALC_NO_CACHE=1``
turns it off.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np


def cache_dir() -> Path:
    env = os.environ.get("ODDSCALC_CACHE_DIR")
    if env:
        return Path(env)
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("oddscalc"))
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        return Path.home() / ".cache" / "oddscalc"


def _digest(key: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:32]


def _canonical(key: Mapping[str, Any]) -> Any:
    return json.loads(json.dumps(key, sort_keys=True, default=str))


def entry_paths(key: Mapping[str, Any]) -> tuple[Path, Path]:
    d = _digest(key)
    base = cache_dir()
    return base / f"{d}.bin", base / f"{d}.json"


def load(key: Mapping[str, Any]) -> dict[str, np.ndarray] | None:
    """The cached arrays for ``key``, or None when absent or not to be trusted.

    The data file is read once and hashed; arrays are views into that one buffer (no copy,
    which matters: touching fresh memory is the slow part of a warm run).
    """
    if os.environ.get("ODDSCALC_NO_CACHE") == "1":
        return None
    data_path, meta_path = entry_paths(key)
    try:
        meta = json.loads(meta_path.read_text())
        if meta.get("key") != _canonical(key) or meta.get("format") != FORMAT:
            return None
        blob = data_path.read_bytes()
        if len(blob) != meta["size"] or hashlib.sha256(blob).hexdigest() != meta["sha256"]:
            return None
        out: dict[str, np.ndarray] = {}
        for name, spec in meta["arrays"].items():
            dtype = np.dtype(spec["dtype"])
            count = int(np.prod(spec["shape"], dtype=np.int64))
            arr = np.frombuffer(blob, dtype=dtype, count=count, offset=int(spec["offset"]))
            out[name] = arr.reshape(spec["shape"])
        return out
    except (OSError, ValueError, KeyError, TypeError, json.JSONDecodeError):
        return None


FORMAT = 2


def store(key: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
    """Write atomically (data first, then the sidecar that vouches for it); failure to write is not an error."""
    if os.environ.get("ODDSCALC_NO_CACHE") == "1":
        return
    data_path, meta_path = entry_paths(key)
    specs: dict[str, Any] = {}
    parts: list[bytes] = []
    offset = 0
    for name, arr in arrays.items():
        a = np.ascontiguousarray(arr)
        pad = (-offset) % 16
        if pad:
            parts.append(b"\0" * pad)
            offset += pad
        specs[name] = {"dtype": a.dtype.str, "shape": list(a.shape), "offset": offset}
        raw = a.tobytes()
        parts.append(raw)
        offset += len(raw)
    blob = b"".join(parts)
    meta = {"format": FORMAT, "key": _canonical(key), "size": len(blob),
            "sha256": hashlib.sha256(blob).hexdigest(), "arrays": specs}
    try:
        data_path.parent.mkdir(parents=True, exist_ok=True)
        for path, content in ((data_path, blob), (meta_path, json.dumps(meta, indent=1).encode())):
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as f:
                f.write(content)
            os.replace(tmp, path)
    except OSError:
        pass


def load_or_build(key: Mapping[str, Any], build: Callable[[], Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    hit = load(key)
    if hit is not None:
        return hit
    arrays = dict(build())
    store(key, arrays)
    return arrays
