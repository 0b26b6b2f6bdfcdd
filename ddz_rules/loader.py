"""Safe YAML loading that remembers where every key came from.

Rulesets are user-written files, so loading refuses what a safe loader should (anchors and
aliases, which make "billion laughs" bombs possible; duplicate keys; oversized files) and keeps a
line number for every key path, so that later errors can name the file, line and key.
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
    """A safe loader that refuses aliases outright."""

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if self.check_event(AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.MarkedYAMLError(
                None, None, "anchors and aliases are not allowed in ruleset files",
                event.start_mark,
            )
        return super().compose_node(parent, index)


def load_yaml(path: Path, display: str | None = None) -> Located:
    """Load one YAML file safely, keeping the line of every key."""
    shown = display or str(path)
    raw = read_bounded(path, MAX_FILE_BYTES, lambda reason: RulesetError(reason, path=shown))
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError(f"not UTF-8 text (byte {exc.start})", path=shown) from None
    loader = _NoAliasLoader(source)
    try:
        node = loader.get_single_node()
        located = Located(None, shown)
        located.data = _build(loader, node, (), located) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise RulesetError(f"invalid YAML: {problem}", path=shown, line=line) from None
    except yaml.YAMLError as exc:
        raise RulesetError(f"invalid YAML: {exc}", path=shown) from None
    finally:
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
            key = str(loader.construct_object(key_node))
            child = (*key_path, key)
            if key in result:
                raise RulesetError("duplicate key", path=out.path,
                                   line=key_node.start_mark.line + 1, key=_dotted(child))
            out.lines[child] = key_node.start_mark.line + 1
            result[key] = _build(loader, value_node, child, out)
        return result
    if isinstance(node, SequenceNode):
        return [_build(loader, item, (*key_path, i), out) for i, item in enumerate(node.value)]
    return loader.construct_object(node)


def _dotted(key_path: KeyPath) -> str:
    return ".".join(str(k) for k in key_path)


dotted = _dotted
