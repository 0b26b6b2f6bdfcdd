"""Reading user files safely: check the kind and size of a file before reading it.

Rulesets and records are user-controlled paths, so a path may name a FIFO (which blocks a
plain read forever), a device with no end, or a huge sparse file. :func:`read_bounded` opens
without blocking, refuses anything that is not a regular file, and never reads more than its
limit; :func:`strict_validator` makes JSON Schema's ``integer`` mean a real integer (the
default accepts ``4.0``, and booleans are refused too).

>>> import tempfile, os
>>> with tempfile.NamedTemporaryFile(delete=False) as f:
...     _ = f.write(b"players: 3")
>>> read_bounded(f.name, 100, ValueError)
b'players: 3'
>>> read_bounded(f.name, 5, ValueError)
Traceback (most recent call last):
ValueError: file is 10 bytes; at most 5 are read
>>> os.unlink(f.name)
>>> strict_validator({"type": "integer"}).is_valid(4.0)
False
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema


def read_bounded(path: str | Path, limit: int, error: Callable[[str], Exception]) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or ``error(reason)`` raised.

    The file is opened non-blocking (a FIFO opens at once instead of waiting for a writer),
    its kind and size are checked on the open descriptor (no swap between check and read), and
    at most ``limit + 1`` bytes are read, so a file that grows while being read is refused too.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise error(f"cannot read file: {why(exc)}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise error("is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise error("is not a regular file (a pipe, device or socket is never read)")
        if info.st_size > limit:
            raise error(f"file is {info.st_size} bytes; at most {limit} are read")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(65536, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise error(f"file grew past {limit} bytes while being read")
        return b"".join(chunks)
    except OSError as exc:
        raise error(f"cannot read file: {why(exc)}") from None
    finally:
        os.close(fd)


#: The loop of symbolic links, said the same way wherever a path is opened or resolved.
LINK_LOOP = "a loop of symbolic links (a link that leads back to itself names no file)"


def why(exc: OSError) -> str:
    """Why a file could not be opened, in words: the system's, except for a loop of links."""
    if exc.errno == errno.ELOOP:
        return LINK_LOOP
    return exc.strerror or str(exc)


def resolved(path: Path, error: Callable[[str], Exception]) -> Path:
    """``path`` made absolute with every link followed, or ``error(reason)`` raised: a loop
    of symbolic links (``RuntimeError`` up to Python 3.12, ``OSError`` after) is one reason
    like any other, never a crash.

    >>> resolved(Path("/rules/../rules/classic.yaml"), ValueError).as_posix()
    '/rules/classic.yaml'
    """
    try:
        return path.resolve()
    except RuntimeError:  # Python <= 3.12 on a loop of links
        raise error(LINK_LOOP) from None
    except OSError as exc:
        raise error(why(exc)) from None
    except ValueError:  # a NUL byte, which no file name holds
        raise error("a path cannot hold a NUL byte") from None


def _is_integer(checker: Any, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


_STRICT_TYPES = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer)
_StrictValidator = jsonschema.validators.extend(jsonschema.Draft202012Validator,
                                                type_checker=_STRICT_TYPES)  # type: ignore[no-untyped-call]


def strict_validator(schema: dict[str, Any]) -> jsonschema.protocols.Validator:
    """A Draft 2020-12 validator whose ``integer`` refuses ``4.0`` and ``True``."""
    validator: jsonschema.protocols.Validator = _StrictValidator(schema)
    return validator


def resolve_beside(referrer: Path, reference: str, error: Callable[[str], Exception]) -> Path:
    """The file a relative ``reference`` names, read from the folder of ``referrer``.

    Used where one file names another (a variant's ``extends``, a record's ``ruleset``): the
    reference is resolved against the referring file's folder, not the working directory, and
    must stay inside that folder. Absolute paths, ``..`` and symbolic links leading out of the
    folder are refused, so a file received from someone else cannot make the toolkit read files
    elsewhere on the machine. The result is the resolved path.

    >>> resolve_beside(Path("/rules/house/v.yaml"), "base.yaml", ValueError).as_posix()
    '/rules/house/base.yaml'
    >>> resolve_beside(Path("/rules/house/v.yaml"), "../x.yaml", ValueError)
    Traceback (most recent call last):
    ValueError: '../x.yaml' leaves the folder of v.yaml; name a file in that folder or below
    """
    named = Path(reference)
    if named.is_absolute() or reference.startswith(("/", "\\")):
        raise error(f"{reference!r} is an absolute path; name a file relative to the folder "
                    f"of {referrer.name}")
    if ".." in named.parts:
        raise error(f"{reference!r} leaves the folder of {referrer.name}; name a file in that "
                    "folder or below")
    folder = resolved(referrer.parent, lambda reason: error(f"{referrer.parent}: {reason}"))
    target = resolved(folder / named, lambda reason: error(f"{reference!r}: {reason}"))
    if not target.is_relative_to(folder):
        raise error(f"{reference!r} is a link leading out of the folder of {referrer.name}; "
                    "name a file in that folder or below")
    return target
