"""The on-disk store: exact round trips, and every kind of damage rebuilt rather than trusted."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from oddscalc.cache import MAGIC, Damaged, Store, decode, encode, entry_path

KEY = {"game": "test", "engine": 1, "deck": [[0, 1], 2]}


def _arrays() -> dict[str, np.ndarray]:
    big = np.array([0, -1, 2**63, -(2**70) + 3, 10**40], dtype=object)
    return {"small": np.arange(12, dtype=np.int32).reshape(3, 4), "flags": np.array([True, False]), "big": big,
            "bytes": np.array([200, 7], dtype=np.uint8)}


def test_round_trip_is_exact_for_any_integer_size() -> None:
    back = decode(encode(KEY, _arrays()), KEY)
    for name, arr in _arrays().items():
        assert back[name].shape == arr.shape and back[name].dtype == arr.dtype, name
        assert [int(x) for x in back[name].ravel()] == [int(x) for x in arr.ravel()], name


def test_another_key_is_refused() -> None:
    with pytest.raises(Damaged, match="another key"):
        decode(encode(KEY, _arrays()), {**KEY, "engine": 2})


def _header_span(blob: bytes) -> tuple[int, int]:
    start = len(MAGIC) + 8 + 32
    return start, start + int.from_bytes(blob[len(MAGIC):len(MAGIC) + 8], "little")


def test_a_shifted_offset_in_the_header_is_caught() -> None:
    # the old sidecar's failure: an offset moved by 4 bytes read other counts with exit 0
    blob = encode(KEY, _arrays())
    lo, hi = _header_span(blob)
    header = json.loads(blob[lo:hi])
    header["arrays"]["small"]["offset"] += 4
    text = json.dumps(header, sort_keys=True).encode().ljust(hi - lo)
    with pytest.raises(Damaged, match="digest"):
        decode(blob[:lo] + text + blob[hi:], KEY)


@pytest.mark.parametrize("where", ["magic", "length", "digest", "header", "data", "truncated", "empty"])
def test_any_damage_is_refused(where: str) -> None:
    blob = bytearray(encode(KEY, _arrays()))
    lo, hi = _header_span(bytes(blob))
    if where == "truncated":
        damaged = bytes(blob[:-3])
    elif where == "empty":
        damaged = b""
    else:
        at = {"magic": 0, "length": len(MAGIC), "digest": len(MAGIC) + 8, "header": lo + 3, "data": hi + 5}[where]
        blob[at] ^= 0x41
        damaged = bytes(blob)
    with pytest.raises(Damaged):
        decode(damaged, KEY)


def test_store_rebuilds_a_damaged_entry_and_rewrites_it(tmp_path: Path) -> None:
    store = Store(tmp_path)
    calls: list[int] = []

    def build() -> dict[str, np.ndarray]:
        calls.append(1)
        return _arrays()

    store.get(KEY, build)
    store.get(KEY, build)
    assert len(calls) == 1
    path = entry_path(tmp_path, KEY)
    path.write_bytes(path.read_bytes()[:-1])
    again = store.get(KEY, build)
    assert len(calls) == 2 and decode(path.read_bytes(), KEY).keys() == again.keys()


def test_fresh_store_reads_nothing_and_an_unwritable_folder_is_no_error(tmp_path: Path) -> None:
    Store(tmp_path).store(KEY, _arrays())
    assert Store(tmp_path, read=False).load(KEY) is None
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    Store(blocked).store(KEY, _arrays())  # skipped with a warning: the store is only a speed-up
    assert Store(blocked).load(KEY) is None
    assert not list(tmp_path.glob(".*.tmp"))


def test_wide_integers_are_stored_as_int_to_bytes_writes_them() -> None:
    """The stored bytes of an object array are each int's ``int.to_bytes(width, "little", signed=True)`` (the
    store writes them a limb at a time with numpy): limb edges, signs, numpy ints among Python ints, and back."""
    values: list[int | np.int64] = [0, -1, 1, 2**31 - 1, 2**31, -(2**31), 2**32 - 1, 2**32, -(2**32) - 1, 2**63 - 1,
                                    -(2**63), 2**64, -(2**95) + 7, 10**40, -(10**40), np.int64(-5), np.int64(2**62)]
    blob = encode({"k": 1}, {"x": np.array(values, dtype=object)})
    width = (max(abs(int(v)) for v in values).bit_length() + 8) // 8
    want = b"".join(int(v).to_bytes(width, "little", signed=True) for v in values)
    assert blob.endswith(want)
    back = decode(blob, {"k": 1})["x"]
    assert [type(v) for v in back] == [int] * len(values) and list(back) == [int(v) for v in values]
