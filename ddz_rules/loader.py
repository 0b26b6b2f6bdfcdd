"""Safe YAML loading that remembers where every key came from.

Rulesets are user-written files, so loading refuses what a safe loader should (anchors and
aliases, which make "billion laughs" bombs possible; duplicate keys; oversized files; nesting
deeper than any ruleset needs; numbers longer than any rule needs; characters YAML forbids) and
keeps a line number for every key path, so that later errors can name the file, line and key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ddz_rules.errors import RulesetError
from ddz_rules.inputs import read_bounded

#: A ruleset is a page or two of text; anything far larger is refused unread.
MAX_FILE_BYTES = 256 * 1024
#: Most levels of nested nodes (a key or value is one level below its mapping). A ruleset needs
#: six (the document, combinations, a type, its kickers, a rule, its value); the limit is
#: checked while composing, long before Python's own recursion limit (about 330 levels of YAML)
#: would turn a deep file into a crash.
MAX_DEPTH = 32
#: Longest integer or float, in characters. A rule's number has a few digits; a 5,000-digit one
#: would trip Python's limit on converting long digit strings.
MAX_NUMBER_CHARS = 40
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")

KeyPath = tuple[str | int, ...]


@dataclass
class Located:
    """A loaded document and the line of each key path in it."""

    data: Any
    path: str
    lines: dict[KeyPath, int] = field(default_factory=dict)

    def line_of(self, key_path: KeyPath) -> int | None:
        """The line of ``key_path`` or of its nearest ancestor that has one."""
        for end in range(len(key_path), -1, -1):
            line = self.lines.get(tuple(key_path[:end]))
            if line is not None:
                return line
        return None


class _NoAliasLoader(yaml.SafeLoader):
    """A safe loader that refuses aliases outright and nesting deeper than :data:`MAX_DEPTH`."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if self.check_event(AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.MarkedYAMLError(
                None, None, "anchors and aliases are not allowed in ruleset files",
                event.start_mark,
            )
        if self._depth >= MAX_DEPTH:
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.MarkedYAMLError(
                None, None, f"nested more than {MAX_DEPTH} levels deep; a ruleset needs far "
                "fewer", event.start_mark,
            )
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_yaml(path: Path, display: str | None = None) -> Located:
    """Load one YAML file safely, keeping the line of every key."""
    shown = display or str(path)
    raw = read_bounded(path, MAX_FILE_BYTES, lambda reason: RulesetError(reason, path=shown))
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError(f"not UTF-8 text (byte {exc.start})", path=shown) from None
    loader: _NoAliasLoader | None = None
    try:
        # The reader checks every character as it is constructed: inside the try, so a NUL or
        # a control character is a located error, not a crash.
        loader = _NoAliasLoader(source)
        node = loader.get_single_node()
        located = Located(None, shown)
        located.data = _build(loader, node, (), located) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise RulesetError(f"invalid YAML: {problem}", path=shown, line=line) from None
    except yaml.reader.ReaderError as exc:
        line = source.count("\n", 0, exc.position) + 1
        char = exc.character
        named = f"U+{char:04X}" if isinstance(char, int) else repr(char)
        raise RulesetError(f"invalid YAML: character {named} is not allowed in YAML text",
                           path=shown, line=line) from None
    except yaml.YAMLError as exc:
        raise RulesetError(f"invalid YAML: {_one_line(str(exc))}", path=shown) from None
    finally:
        if loader is not None:
            loader.dispose()
    if not isinstance(located.data, dict):
        raise RulesetError("a ruleset file must be a mapping of keys", path=shown, line=1)
    return located


def _build(loader: yaml.SafeLoader, node: Node, key_path: KeyPath, out: Located) -> Any:
    out.lines.setdefault(key_path, node.start_mark.line + 1)
    if isinstance(node, MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                raise RulesetError("keys must be plain words", path=out.path,
                                   line=key_node.start_mark.line + 1)
            key = str(_scalar(loader, key_node, key_path, out))
            child = (*key_path, key)
            if key in result:
                raise RulesetError("duplicate key", path=out.path,
                                   line=key_node.start_mark.line + 1, key=_dotted(child))
            out.lines[child] = key_node.start_mark.line + 1
            result[key] = _build(loader, value_node, child, out)
        return result
    if isinstance(node, SequenceNode):
        return [_build(loader, item, (*key_path, i), out) for i, item in enumerate(node.value)]
    return _scalar(loader, node, key_path, out)


def _scalar(loader: yaml.SafeLoader, node: Node, key_path: KeyPath, out: Located) -> Any:
    """One scalar's value; a number too long to be a rule's, or a value its tag cannot hold
    (a date such as 2001-13-45), is an error at its line and key, never a crash."""
    line = node.start_mark.line + 1
    key = _dotted(key_path) or None
    if node.tag in _NUMBER_TAGS and len(str(node.value)) > MAX_NUMBER_CHARS:
        raise RulesetError(f"a number of {len(str(node.value))} characters; at most "
                           f"{MAX_NUMBER_CHARS} are read", path=out.path, line=line, key=key)
    try:
        return loader.construct_object(node)
    except yaml.MarkedYAMLError:
        raise
    except (ValueError, OverflowError, TypeError) as exc:
        raise RulesetError(f"cannot read {_one_line(str(node.value))[:40]!r} as "
                           f"{str(node.tag).rsplit(':', 1)[-1]}: {_one_line(str(exc))}",
                           path=out.path, line=line, key=key) from None


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _dotted(key_path: KeyPath) -> str:
    return ".".join(str(k) for k in key_path)


dotted = _dotted
