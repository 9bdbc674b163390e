"""SHA-256 digests without importing ``hashlib`` at start-up.

``hashlib`` loads OpenSSL: ~3 ms of every run's start-up (issue 20) for its one digest, that of the suite
file. The interpreter's own SHA-256 (``_sha2``; ``_sha256`` before Python 3.12: what ``hashlib`` falls back
to without OpenSSL) gives the same digest at about a sixth of OpenSSL's speed, so it hashes up to 1 MiB
(~3 ms, the import it saves) and ``hashlib`` hashes more.
"""

from __future__ import annotations

from typing import Any

try:
    from _sha2 import sha256 as _own_sha256  # type: ignore[import-not-found]
except ImportError:
    try:
        from _sha256 import sha256 as _own_sha256  # type: ignore[import-not-found,no-redef]
    except ImportError:  # an interpreter built without its own hashes
        _own_sha256: Any = None

_OWN_UP_TO = 1 << 20


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hexadecimal (``hashlib.sha256(data).hexdigest()``)."""
    if _own_sha256 is not None and len(data) <= _OWN_UP_TO:
        return _own_sha256(data).hexdigest()
    import hashlib

    return hashlib.sha256(data).hexdigest()
