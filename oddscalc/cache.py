"""On-disk cache of pay-free enumerations.

An entry is a set of named numpy arrays, keyed by everything that changes them (game,
deck, rules that matter, the code's ``version`` tag). It is stored as ``<digest>.npz``
with a ``<digest>.json`` sidecar holding the key and a sha256 of the npz bytes. On load
the sidecar's key and digest are checked; anything missing, damaged or mismatched is
rebuilt, never trusted. ``ODDSCALC_CACHE_DIR`` overrides the location; ``ODDSCALC_NO_CACHE=1``
turns it off.
"""

from __future__ import annotations

import hashlib
import io
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


def entry_paths(key: Mapping[str, Any]) -> tuple[Path, Path]:
    d = _digest(key)
    base = cache_dir()
    return base / f"{d}.npz", base / f"{d}.json"


def load(key: Mapping[str, Any]) -> dict[str, np.ndarray] | None:
    """The cached arrays for ``key``, or None when absent or not to be trusted."""
    if os.environ.get("ODDSCALC_NO_CACHE") == "1":
        return None
    data_path, meta_path = entry_paths(key)
    try:
        meta = json.loads(meta_path.read_text())
        blob = data_path.read_bytes()
        if meta.get("key") != json.loads(json.dumps(key, sort_keys=True, default=str)):
            return None
        if meta.get("sha256") != hashlib.sha256(blob).hexdigest():
            return None
        with np.load(io.BytesIO(blob), allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except (OSError, ValueError, KeyError, json.JSONDecodeError, EOFError):
        return None


def store(key: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
    """Write atomically; a cache that cannot be written is not an error."""
    if os.environ.get("ODDSCALC_NO_CACHE") == "1":
        return
    data_path, meta_path = entry_paths(key)
    buf = io.BytesIO()
    np.savez(buf, **dict(arrays))
    blob = buf.getvalue()
    meta = {"key": json.loads(json.dumps(key, sort_keys=True, default=str)),
            "sha256": hashlib.sha256(blob).hexdigest()}
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
