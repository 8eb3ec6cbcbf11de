"""On-disk store of pay-free counts, one file per entry.

An entry is a set of named arrays, keyed by everything that changes them (game, engine version,
deck or shoe, the rules that shape the enumeration). One file holds it all: a magic line, the
length of a JSON header (the key, and each array's dtype, shape, offset and CRC-32), a sha256 of
the header, the header, then the raw arrays. On load the digest, the key, every array's bounds
and every array's CRC-32 are checked (a CRC reads 130 MB in a twentieth of a second, a sha256 in
a tenth; the sha256 covers the CRCs); anything missing, damaged or mismatched is rebuilt and
rewritten, never trusted. Integer arrays too wide for int64 (exact counts of large shoes) are
stored as fixed-width two's-complement bytes and come back as Python ints.

Threat model: the store is a speed-up, not a source of truth. The digest catches damage (a
truncated write, a flipped byte, a hand-edited header); it cannot stop someone who may write to
the folder from writing a consistent forgery. A run that must not depend on earlier runs reads
nothing from it (``--no-cache``, or ``ODDSCALC_NO_CACHE=1``).

``ODDSCALC_CACHE_DIR`` sets the folder (default: the platform's user cache folder). :func:`kept` lists what the
stores hold there and :func:`clear` removes it (``oddscalc cache``): only the stores' own files, found by name, never
anything else a folder named as the store holds.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import sys
import time
import zlib
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from oddscalc.files import cache_dir, write_atomic
from oddscalc.replay import MAGIC as REPORT_MAGIC

FORMAT = 5
MAGIC = b"oddscalc-counts\n"
_DIGEST = 32
_LEN = 8
_ALIGN = 64
_MAX_HEADER = 1 << 20
BIGINT = "bigint"

Arrays = Mapping[str, np.ndarray]


def _canonical(key: Mapping[str, Any]) -> Any:
    return json.loads(json.dumps(key, sort_keys=True, default=str))


def entry_path(directory: Path, key: Mapping[str, Any]) -> Path:
    """Where the entry for ``key`` lives in ``directory`` (a name :data:`ENTRY` matches)."""
    text = json.dumps(key, sort_keys=True, default=str).encode()
    return directory / f"{hashlib.sha256(text).hexdigest()[:32]}.counts"


ENTRY = re.compile(r"[0-9a-f]{32}\.counts")  # entry_path's names


# --- encoding -------------------------------------------------------------------------------------


def _bigint_width(values: np.ndarray) -> int:
    flat = values.ravel()
    # the widest integer is the one of largest magnitude (bit_length is of the magnitude)
    bits = max(abs(int(flat.max())), abs(int(flat.min()))).bit_length() if len(flat) else 0
    return max(1, (bits + 8) // 8)  # one spare bit for the sign


_LIMB = 32  # bits a limb: a numpy int64 in an object array masks and shifts by it as a Python int does


def _bigint_bytes(values: np.ndarray, width: int) -> bytes:
    """Each integer as ``width`` bytes of little-endian two's complement, one after another (what
    ``int.to_bytes(width, "little", signed=True)`` gives, without a Python call per integer: numpy's loops over
    the objects take a 32-bit limb at a time; ``&`` and ``>>`` on a negative Python int act on its two's complement)."""
    flat = values.ravel()
    n = -(-width * 8 // _LIMB)
    limbs = np.empty((len(flat), n), dtype="<u4")
    for j in range(n):
        limbs[:, j] = (flat & ((1 << _LIMB) - 1)).astype(np.uint32)
        flat = flat >> _LIMB
    return limbs.view(np.uint8).reshape(len(limbs), n * 4)[:, :width].tobytes()


def _bigint_values(raw: memoryview, count: int, width: int) -> np.ndarray:
    """The Python ints :func:`_bigint_bytes` wrote (object array of ``count``)."""
    n = -(-width * 8 // _LIMB)
    data = np.frombuffer(raw, dtype=np.uint8, count=count * width).reshape(count, width)
    negative = data[:, width - 1] >= 0x80 if width else np.zeros(count, dtype=bool)
    padded = np.empty((count, n * 4), dtype=np.uint8)
    padded[:, :width] = data
    padded[:, width:] = np.where(negative, 0xFF, 0)[:, None]  # the sign extended to whole limbs
    limbs = padded.view("<u4")
    out = np.zeros(count, dtype=object)
    for j in reversed(range(n)):
        out = (out << _LIMB) + limbs[:, j].astype(object)
    out[negative] -= 1 << (n * _LIMB)
    return out


def encode_parts(key: Mapping[str, Any], arrays: Arrays) -> list[bytes | memoryview]:
    """The pieces of one entry, in order, without copying the arrays (written one after another)."""
    specs: dict[str, Any] = {}
    parts: list[bytes | memoryview] = []
    offset = 0
    for name, arr in arrays.items():
        a = np.asarray(arr)
        if a.dtype == object:
            width = _bigint_width(a)
            raw: bytes | memoryview = _bigint_bytes(a, width)
            spec: dict[str, Any] = {"dtype": BIGINT, "width": width}
        else:
            raw = memoryview(np.ascontiguousarray(a).data).cast("B")
            spec = {"dtype": a.dtype.str}
        pad = (-offset) % 16
        parts.append(b"\0" * pad)
        offset += pad
        spec.update(shape=list(a.shape), offset=offset, nbytes=len(raw), crc32=_crcs(memoryview(raw)))
        specs[name] = spec
        parts.append(raw)
        offset += len(raw)
    header = json.dumps({"format": FORMAT, "key": _canonical(key), "size": offset, "arrays": specs},
                        sort_keys=True).encode()
    header += b" " * ((-(len(MAGIC) + _LEN + _DIGEST + len(header))) % _ALIGN)
    return [MAGIC + len(header).to_bytes(_LEN, "little") + hashlib.sha256(header).digest() + header, *parts]


def encode(key: Mapping[str, Any], arrays: Arrays) -> bytes:
    """The bytes of one entry."""
    return b"".join(encode_parts(key, arrays))


class Damaged(ValueError):
    """An entry that cannot be trusted."""


def decode(blob: bytes, key: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The arrays of an entry written for ``key``; raises :class:`Damaged` for anything else."""
    start = len(MAGIC) + _LEN + _DIGEST
    if len(blob) < start or not blob.startswith(MAGIC):
        raise Damaged("not an entry")
    n = int.from_bytes(blob[len(MAGIC):len(MAGIC) + _LEN], "little")
    if not 0 < n <= min(_MAX_HEADER, len(blob) - start):
        raise Damaged("bad header length")
    body = memoryview(blob)[start:]
    if hashlib.sha256(body[:n]).digest() != blob[len(MAGIC) + _LEN:start]:
        raise Damaged("digest does not match")
    try:
        header = json.loads(bytes(body[:n]))
    except ValueError:
        raise Damaged("bad header") from None
    if header.get("format") != FORMAT or header.get("key") != _canonical(key):
        raise Damaged("written for another key or format")
    data = body[n:]
    if header.get("size") != len(data):
        raise Damaged("data size")
    try:
        _check_crcs(header["arrays"], data)
        return {name: _array(name, spec, data) for name, spec in header["arrays"].items()}
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, Damaged):
            raise
        raise Damaged(f"bad array spec: {e}") from None


CRC_CHUNK = 1 << 23  # CRC-32 per 8 MB: the chunks of a large entry are checked on two threads


def _crcs(raw: memoryview) -> list[int]:
    return [zlib.crc32(raw[i:i + CRC_CHUNK]) for i in range(0, max(len(raw), 1), CRC_CHUNK)]


def _check_crcs(specs: Mapping[str, Any], data: memoryview) -> None:
    """Every chunk of every array against its CRC-32 (zlib releases the GIL: two threads halve the time)."""
    jobs: list[tuple[str, int, memoryview]] = []
    for name, spec in specs.items():
        lo, nbytes, crcs = int(spec["offset"]), int(spec["nbytes"]), list(spec["crc32"])
        if lo < 0 or nbytes < 0 or lo + nbytes > len(data) or len(crcs) != max(1, -(-nbytes // CRC_CHUNK)):
            raise Damaged(f"array {name} out of bounds")
        raw = data[lo:lo + nbytes]
        jobs += [(name, int(c), raw[i * CRC_CHUNK:(i + 1) * CRC_CHUNK]) for i, c in enumerate(crcs)]
    if len(jobs) > 2:
        with ThreadPoolExecutor(2) as pool:
            found = list(pool.map(lambda job: zlib.crc32(job[2]), jobs))
    else:
        found = [zlib.crc32(job[2]) for job in jobs]
    for (name, want, _), got in zip(jobs, found):
        if want != got:
            raise Damaged(f"array {name}: checksum does not match")


def _array(name: str, spec: Mapping[str, Any], data: memoryview) -> np.ndarray:
    """One array of an entry, its bounds and size checked against the data."""
    shape = tuple(int(s) for s in spec["shape"])
    count = int(np.prod(shape, dtype=np.int64))
    lo, nbytes = int(spec["offset"]), int(spec["nbytes"])
    if lo < 0 or nbytes < 0 or lo + nbytes > len(data):
        raise Damaged(f"array {name} out of bounds")
    raw = data[lo:lo + nbytes]
    if spec["dtype"] == BIGINT:
        width = int(spec["width"])
        if width <= 0 or count * width != nbytes:
            raise Damaged(f"array {name} size")
        arr = _bigint_values(raw, count, width)
    else:
        dtype = np.dtype(spec["dtype"])
        if dtype.hasobject or count * dtype.itemsize != nbytes:
            raise Damaged(f"array {name} size")
        arr = np.frombuffer(raw, dtype=dtype, count=count)
    return arr.reshape(shape)


# --- the store ---------------------------------------------------------------------------------------


STALE_SECONDS = 600  # a write takes well under a second; an older temporary file is a killed one's


def _remove_stale(folder: Path) -> None:
    """Delete temporary files that a killed writer left (it could not clean up after itself)."""
    now = time.time()
    try:
        for tmp in folder.glob(".*.counts.*.tmp"):
            try:
                if now - tmp.stat().st_mtime > STALE_SECONDS:
                    tmp.unlink()
            except OSError:
                pass
    except OSError:
        pass


class Store:
    """Pay-free counts kept between runs.

    ``get(key, build)`` returns the arrays stored for ``key`` when a sound entry exists (and
    ``read`` is set), else calls ``build`` and stores its result (when ``write`` is set).
    Failing to write is not an error: the store is only a speed-up.
    """

    def __init__(self, directory: Path | None, *, read: bool = True, write: bool = True):
        self.directory = directory
        self.read = read and directory is not None
        self.write = write and directory is not None
        self.warned = False

    @classmethod
    def default(cls, *, fresh: bool = False) -> Store:
        """The user's store (``ODDSCALC_CACHE_DIR``); ``fresh`` (or ``ODDSCALC_NO_CACHE=1``) reads nothing."""
        if os.environ.get("ODDSCALC_NO_CACHE") == "1":
            return cls(None)
        return cls(cache_dir(), read=not fresh)

    def load(self, key: Mapping[str, Any]) -> dict[str, np.ndarray] | None:
        """The stored arrays for ``key``, or None when absent or not to be trusted."""
        if not self.read or self.directory is None:
            return None
        try:
            blob = entry_path(self.directory, key).read_bytes()
            return decode(blob, key)
        except (OSError, Damaged):
            return None

    def store(self, key: Mapping[str, Any], arrays: Arrays) -> None:
        """Write one entry atomically (a reader sees the old entry or the new one, never half)."""
        if not self.write or self.directory is None:
            return
        path = entry_path(self.directory, key)
        _remove_stale(path.parent)
        try:
            write_atomic(path, encode_parts(key, arrays))
        except OSError as e:
            if not self.warned:  # once: the next count of this run would say the same
                self.warned = True
                print(f"oddscalc: warning: cannot store counts in {self.directory} ({e.strerror or e}); "
                      "later runs will count again", file=sys.stderr)

    def get(self, key: Mapping[str, Any], build: Callable[[], Arrays]) -> dict[str, np.ndarray]:
        """Stored arrays for ``key``, else ``build()`` (stored for next time)."""
        hit = self.load(key)
        if hit is not None:
            return hit
        arrays = dict(build())
        self.store(key, arrays)
        return arrays


# --- what the stores hold, and clearing them --------------------------------------------------------------------

# Each store: its name, its folder inside the stores' folder, its files' names, the bytes each of them begins with,
# and what it keeps. The reports are replay.keep's (its key is 40 hex digits of a sha256). A write in progress is a
# temporary file beside its entry (files.write_atomic: ".NAME.RANDOM.tmp").
STORES = (
    ("counts", "", ENTRY, MAGIC, "pay-free counts: each deal counted once, settled for any pay table"),
    ("reports", "reports", re.compile(r"[0-9a-f]{40}\.txt"), REPORT_MAGIC,
     "reports asked for before, answered again at once"),
)
# An earlier version's entry: a name beginning with a digest, and the store's own first bytes
_EARLIER = re.compile(r"[0-9a-f]{32,64}[a-z0-9_.-]{0,40}")


@dataclass(frozen=True)
class Kept:
    """What one store holds: its files (its entries, and the temporary files killed writers left) and their bytes;
    ``busy`` temporary files of a write under way (never cleared); ``linked`` when its folder is a symbolic link
    (left alone: clearing through it would remove files elsewhere)."""

    name: str
    what: str
    folder: Path
    files: tuple[Path, ...] = ()
    size: int = 0
    busy: int = 0
    linked: bool = False


def kept(base: Path) -> list[Kept]:
    """What each store of :data:`STORES` holds in the stores' folder ``base`` (nothing for a folder not yet made);
    raises NotADirectoryError when ``base`` is not a folder, OSError when it cannot be read."""
    if base.exists() and not base.is_dir():
        raise NotADirectoryError(f"{base}: not a folder")
    out = []
    now = time.time()
    for name, sub, pattern, magic, what in STORES:
        folder = base / sub if sub else base
        if sub and folder.is_symlink():
            out.append(Kept(name, what, folder, linked=True))
            continue
        files, size, busy = [], 0, 0
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            entries = []
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except FileNotFoundError:  # removed since it was listed
                continue
            if not stat.S_ISREG(st.st_mode):  # a link (to anything, anywhere), a folder, a pipe: not an entry
                continue
            temporary = entry.name.startswith(".") and entry.name.endswith(".tmp") and \
                pattern.fullmatch(entry.name[1:].rsplit(".", 2)[0]) is not None
            if temporary and now - st.st_mtime <= STALE_SECONDS:
                busy += 1
            elif temporary or pattern.fullmatch(entry.name) or (_EARLIER.fullmatch(entry.name) and
                                                                _begins(Path(entry.path), magic)):
                files.append(Path(entry.path))
                size += st.st_size
        out.append(Kept(name, what, folder, tuple(sorted(files)), size, busy))
    return out


def _begins(path: Path, magic: bytes) -> bool:
    """Whether the file at ``path`` begins with ``magic`` (read without following a link: kept lists none)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    with os.fdopen(fd, "rb") as f:
        return f.read(len(magic)) == magic


def others(base: Path) -> int:
    """How many entries of the stores' folders are no store's (files a user put there, other folders): what
    :func:`clear` leaves."""
    count = 0
    for k in kept(base):
        if k.linked:
            continue
        try:
            names = {e.name for e in os.scandir(k.folder)}
        except FileNotFoundError:
            continue
        sub = {s for _, s, _, _, _ in STORES if s} if k.folder == base else set()
        count += len(names - {f.name for f in k.files} - sub) - k.busy
    return count


def clear(base: Path) -> tuple[list[Kept], list[tuple[Path, str]]]:
    """Remove every store's files in ``base`` (never a link, a folder, a write under way or another file: only
    names the stores write, as :func:`kept` finds them); the stores as they were, and the files that could not be
    removed, each with why. A folder of reports left empty is removed too."""
    found = kept(base)
    failed = []
    for k in found:
        for path in k.files:
            try:
                path.unlink()
            except FileNotFoundError:  # another clear, or a writer replacing it: gone all the same
                pass
            except OSError as e:
                failed.append((path, e.strerror or str(e)))
        if k.folder != base and not k.linked:
            try:
                k.folder.rmdir()  # only when empty
            except OSError:
                pass
    return found, failed
