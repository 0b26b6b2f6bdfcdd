"""Writing user files safely: whole or not at all, and never over a file this run did not make.

Every file a command writes (a hand or match record, the copy of a ruleset beside records, a
saved game and its side file) goes through one of two functions:

* :func:`write_new` for a file the run creates. Where a file of that name already exists it is
  never replaced: if it holds exactly the bytes to be written it is reused as it is (running a
  command again writes the same records and ruleset copy), and otherwise the command stops with
  one line naming the file, saying that nothing was overwritten and what to do instead. A
  symbolic link of that name counts as a file there, dangling or not.
* :func:`write_whole` for a file this run created and now rewrites (a saved game, after every
  action; a resumed game rewrites its own save).

Both write a temporary file of a fresh name in the same folder, then move it into place in one
step (a rename, or for a new file a hard link, which fails where the name is taken), so a crash
or a full disk leaves the old file, or no file, never half of one.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_new(folder / "a.txt", "one", "give another name")
True
>>> write_new(folder / "a.txt", "one", "give another name")
False
>>> try:
...     write_new(folder / "a.txt", "two", "give another name")
... except UsageError as exc:
...     print(str(exc).split("; ", 1)[1])
nothing was overwritten: give another name
>>> (folder / "a.txt").read_text()
'one'
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from ddz_rules.errors import UsageError, Words, parts_of
from ddz_rules.inputs import read_bounded


def _failed(path: Path, exc: OSError, kept: Words) -> UsageError:
    return UsageError(f"writing {path} failed: {exc.strerror or exc}; ", *parts_of(kept))


def _there(path: Path, kept: Words) -> bool:
    """Whether anything has the name ``path`` (a link counts, dangling or not); a name the
    system cannot look up (too long, say) is one line, as a failed write is."""
    try:
        return path.is_symlink() or path.exists()
    except OSError as exc:
        raise _failed(path, exc, kept) from None


def _staged(path: Path, data: bytes, kept: Words) -> Path:
    """``data`` written and flushed to a fresh temporary file beside ``path``."""
    try:
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    except OSError as exc:
        raise _failed(path, exc, kept) from None
    part = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(part, 0o644)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise _failed(path, exc, kept) from None
    return part


def write_whole(path: Path, text: str, kept: Words) -> None:
    """Write a file whole or not at all (a temporary file, then a rename); a failure is one
    line that names the file and says what was ``kept``. Only for a file this run created."""
    if _there(path, kept) and path.is_dir():
        raise UsageError(f"{path} is a folder; name a file (", *parts_of(kept), ")")
    part = _staged(path, text.encode("utf-8"), kept)
    try:
        part.replace(path)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise _failed(path, exc, kept) from None


def same_bytes(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file holding exactly ``data`` (read through a link)."""
    try:
        return read_bounded(path, len(data), OSError) == data
    except OSError:
        return False


def write_new(path: Path, text: str | bytes, instead: Words,
              kept: Words = "nothing was written") -> bool:
    """Create ``path`` holding ``text`` (UTF-8 text, or bytes as they are, such as a PNG),
    whole or not at all; never replace a file there.

    Returns True where the file was written, False where an identical file was already there
    (it is reused, untouched). Any other file, folder or link of that name is refused: one
    line naming it, saying nothing was overwritten, and ``instead``, what to do.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text

    def taken() -> UsageError:
        held = "is a link that leads nowhere" if path.is_symlink() and not path.exists() \
            else "already exists and holds something else"
        return UsageError(f"{path} {held}; nothing was overwritten: ", *parts_of(instead))

    if _there(path, kept):
        if not path.is_dir() and same_bytes(path, data):
            return False
        raise taken()
    part = _staged(path, data, kept)
    try:
        os.link(part, path)  # fails where the name was taken meanwhile: never a replace
    except FileExistsError:
        if same_bytes(path, data):
            return False
        raise taken() from None
    except OSError as exc:
        raise _failed(path, exc, kept) from None
    finally:
        with contextlib.suppress(OSError):
            part.unlink()
    return True
