"""Replays in the browser: a finished hand or match record opened on a page and stepped
through, forward, back and trick by trick, with every hand shown (a finished record is
public) and the table's own drawing.

A record comes from a file named when the server starts (``ddz replay FILE --serve``), from the
games folder (a table's own saves, offered once their hand or match is over, so that no hand
in play is ever shown open), or from the lobby, which sends a record file's text. Each is held
as a :class:`ReplayFile`; its hands' frames, one per step from the deal to the end, are the
states a table's page draws (:meth:`~ddz_rules.play.web.game.WebGame.state` of someone
watching), with every seat's cards added (``open``). Frames are built when a hand is asked for,
through :func:`~ddz_rules.records.replay`, so a replay shows exactly what the referee makes of
the record, up to and including the first fault it finds.

Memory is bounded: at most :data:`MAX_HELD` records are held (the one used longest ago is
dropped), each at most :data:`~ddz_rules.records.MAX_RECORD_BYTES`, and one hand's frames at a
time per record.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from functools import cached_property
from pathlib import Path
from typing import Any

from ddz_rules import cards
from ddz_rules.errors import DdzError, UsageError
from ddz_rules.game import Hand, Phase
from ddz_rules.match import MatchState, first_dealer, hand_winners
from ddz_rules.play.web.game import ID_PATTERN, WebGame
from ddz_rules.records import (
    MatchReplay,
    Replay,
    is_match_record,
    parse_record,
    read_record,
    replay,
    replay_deal,
    replay_match,
    ruleset_of,
)
from ddz_rules.ruleset import bundled_ids

#: Records one server holds in memory at once.
MAX_HELD = 16
#: Saved records the lobby lists (the newest).
MAX_LISTED = 100
#: Saved records' verdicts (over or not) kept between two listings.
MAX_VERDICTS = 4 * MAX_LISTED
#: A saved record's replay id: the game's id, then ``hand-N`` or ``match-N``.
SAVED_ID = re.compile(r"^([A-Za-z0-9_-]{6,40})\.((?:hand|match)-\d{1,9})$")
#: What a seat is called in a replay where the record does not say who played it.
PLAYER = "player"


class ReplayFile:
    """One record opened for replay: its hands, and the frames of the hand last asked for."""

    def __init__(self, replay_id: str, record: dict[str, Any], where: str, name: str) -> None:
        self.id = replay_id
        self.record = record
        self.where = where
        self.name = name
        self.is_match = is_match_record(record)
        self.hands: list[dict[str, Any]] = record["hands"] if self.is_match else [record]
        self.ruleset = ruleset_of(record, where)
        seats = record.get("seats") if self.is_match else None
        self.who = ([str(s) for s in seats] if isinstance(seats, list)
                    and len(seats) == self.ruleset.players else [PLAYER] * self.ruleset.players)
        self._frames: tuple[int, dict[str, Any]] | None = None
        self._totals: list[list[int]] | None = None

    @cached_property
    def checked(self) -> Replay | MatchReplay:
        """``ddz replay``'s verdict on the whole record, found once."""
        return (replay_match(self.record, self.where) if self.is_match
                else replay(self.record, self.where))

    @property
    def finished(self) -> bool:
        """Whether every hand of the record is over (a match: the match is), so that it may
        be shown open to anyone."""
        return self.checked.valid

    def summary(self) -> dict[str, Any]:
        """What the replay page needs before its first hand: the ruleset, the hands, the
        verdict of ``ddz replay`` on the whole record."""
        checked = self.checked
        verdict = "valid" if checked.valid else f"invalid: {checked.reason}"
        return {"id": self.id, "name": self.name, "match": self.is_match,
                "ruleset": {"id": self.ruleset.id, "title": self.ruleset.title},
                "players": self.ruleset.players, "hands": len(self.hands),
                "seats": self.who, "verdict": verdict}

    def hand(self, number: int) -> dict[str, Any]:
        """Hand ``number``'s frames, from the deal to its end (or to the record's first
        fault, named in ``fault``), and the frames where a trick (or the auction) ends."""
        if not 0 <= number < len(self.hands):
            raise UsageError(f"hand {number}: the record has hands 0 to {len(self.hands) - 1}")
        if self._frames is None or self._frames[0] != number:
            self._frames = (number, self._build(number))
        return self._frames[1]

    def _totals_before(self, number: int) -> list[int] | None:
        """A match's totals before hand ``number`` (None: not a match); every hand's totals
        are found once, on the first hand asked for."""
        if not self.is_match:
            return None
        if self._totals is None:
            state = MatchState(self.ruleset, first_dealer(self.ruleset,
                                                          self.record.get("index", 0)))
            self._totals = [list(state.totals)]
            for k, hand_record in enumerate(self.hands):
                result = replay_deal(hand_record, self.where, k).hand.result
                if result is None:
                    break
                state.add(result.scores, hand_winners(result), result.redeal)
                self._totals.append(list(state.totals))
        return self._totals[min(number, len(self._totals) - 1)]

    def _build(self, number: int) -> dict[str, Any]:
        shell = WebGame(self.id, self.ruleset, self.who, False, 0, {}, None, self.ruleset.id)
        before = self._totals_before(number)
        frames: list[dict[str, Any]] = []

        def step(hand: Hand) -> None:
            shell.hand = hand
            frame = shell.state(None)
            frame["open"] = [cards.key_text(h) for h in hand.hands]
            kitty = hand.deal.kitty
            frame["kitty"] = cards.key_text(kitty) if cards.size(kitty) else None
            if before is not None:
                totals, over = before, False
                if hand.result is not None:  # as the match counts it (MatchState.add)
                    totals = self._totals_before(number + 1) or before
                    over = number == len(self.hands) - 1
                frame["match"] = {"hand": number + 1, "of": self.ruleset.match.hands,
                                  "totals": totals, "over": over}
            frames.append(frame)

        done = (replay_deal(self.hands[number], self.where, number, step) if self.is_match
                else replay(self.hands[number], self.where, step))
        return {"hand": number, "frames": frames, "marks": trick_marks(frames),
                "fault": None if done.valid else (
                    f"action {done.index} ({done.action}): {done.reason}"
                    if done.action is not None else done.reason)}


def trick_marks(frames: list[dict[str, Any]]) -> list[int]:
    """The frames a trick-by-trick step stops at: the deal, the auction's end, every frame
    whose trick has just been won (the middle empty, the trick before it complete), and the
    last.

    >>> trick_marks([{"phase": "auction", "trick": []}, {"phase": "play", "trick": []},
    ...              {"phase": "play", "trick": [{"seat": 0}]},
    ...              {"phase": "play", "trick": []}])
    [0, 1, 3]
    """
    marks = [0] if frames else []
    for i in range(1, len(frames)):
        frame, before = frames[i], frames[i - 1]
        ends_auction = frame["phase"] != Phase.AUCTION.value and before["phase"] == \
            Phase.AUCTION.value
        won = frame["phase"] == Phase.PLAY.value and not frame["trick"] and before["trick"]
        if ends_auction or won or i == len(frames) - 1:
            marks.append(i)
    return marks


class Replays:
    """The records a server offers for replay: files named at its start, a games folder's
    finished saves, and records sent from the lobby; at most :data:`MAX_HELD` in memory."""

    def __init__(self, games_dir: Path | None, files: list[Path] | None = None) -> None:
        self.games_dir = games_dir
        #: The files named at start, by replay id (``file-0``, ``file-1``...).
        self.files = {f"file-{i}": path for i, path in enumerate(files or [])}
        self.held: OrderedDict[str, ReplayFile] = OrderedDict()
        #: Held by whoever uses the replays (a server answers in threads).
        self.lock = threading.RLock()
        #: Whether each saved record listed is over (its ruleset) or not (None), with the
        #: file's time when that was found.
        self._verdicts: dict[str, tuple[float, str | None]] = {}

    def _hold(self, replay: ReplayFile) -> ReplayFile:
        self.held[replay.id] = replay
        self.held.move_to_end(replay.id)
        while len(self.held) > MAX_HELD:
            self.held.popitem(last=False)
        return replay

    def open_file(self, replay_id: str, path: Path) -> ReplayFile:
        """A record file, read (bounded) and opened; refused in one line naming it."""
        record = read_record(str(path))
        return self._hold(ReplayFile(replay_id, record, str(path), path.name))

    def find(self, replay_id: str) -> ReplayFile:
        """The replay of ``replay_id``, or :class:`UsageError` saying why there is none."""
        held = self.held.get(replay_id)
        if held is not None:
            self.held.move_to_end(replay_id)
            return held
        if replay_id in self.files:
            return self.open_file(replay_id, self.files[replay_id])
        path = self._saved_path(replay_id)
        if path is None:
            raise UsageError(f"no such replay: {replay_id[:60]!r}")
        replay_file = ReplayFile(replay_id, read_record(str(path)), str(path), path.name)
        if not replay_file.finished:
            raise UsageError(f"{replay_id}: still being played; a hand is replayed once it "
                             "is over")
        return self._hold(replay_file)

    def _saved_path(self, replay_id: str) -> Path | None:
        """The games folder's record a saved replay's id names, where it is a file of its
        own (no link followed), else None."""
        saved = SAVED_ID.match(replay_id)
        if saved is None or self.games_dir is None:
            return None
        path = self.games_dir / saved.group(1) / f"{saved.group(2)}.json"
        if not path.is_file() or path.is_symlink() or path.parent.is_symlink():
            return None
        return path

    def add_sent(self, raw: bytes) -> ReplayFile:
        """A record sent from the lobby (its file's bytes): checked as ``ddz replay`` checks
        a file, naming only a bundled ruleset (a path would be read on the server)."""
        where = "the record sent"
        record = parse_record(raw, where)
        named = record.get("ruleset")
        if named not in bundled_ids():
            raise UsageError(f"{where}: field ruleset: {str(named)[:60]!r}; a record sent "
                             f"from the lobby names a bundled ruleset ({', '.join(bundled_ids())})")
        replay = ReplayFile("sent-" + secrets.token_urlsafe(9), record, where, where)
        replay.summary()  # a record that cannot be opened is refused now, not held to fail
        return self._hold(replay)

    def listed(self) -> list[dict[str, Any]]:
        """The replays to offer in the lobby: the files named at start, then the games
        folder's finished saves, newest first (at most :data:`MAX_LISTED`)."""
        out = [{"id": rid, "name": path.name} for rid, path in self.files.items()]
        if self.games_dir is None or not self.games_dir.is_dir():
            return out
        saves: list[tuple[float, str, str]] = []
        for folder in self.games_dir.iterdir():
            if not ID_PATTERN.match(folder.name) or folder.is_symlink() or not folder.is_dir():
                continue
            for path in folder.glob("*-*.json"):
                replay_id = f"{folder.name}.{path.stem}"
                if SAVED_ID.match(replay_id) and not path.is_symlink():
                    try:
                        saves.append((path.stat().st_mtime, replay_id, path.stem))
                    except OSError:
                        continue
        for mtime, rid, stem in sorted(saves, reverse=True):
            if len(out) >= MAX_LISTED:
                break
            ruleset = self._finished_ruleset(rid, mtime)
            if ruleset is not None:  # in play, or damaged: not offered
                out.append({"id": rid, "name": f"{rid.split('.')[0]} {stem}",
                            "ruleset": ruleset})
        return out

    def _finished_ruleset(self, replay_id: str, mtime: float) -> str | None:
        """The ruleset of a saved record that is over, or None (in play, or damaged); a
        verdict is kept until its file changes (at most :data:`MAX_VERDICTS` of them)."""
        kept = self._verdicts.get(replay_id)
        if kept is not None and kept[0] == mtime:
            return kept[1]
        path = self._saved_path(replay_id)
        ruleset = None
        try:
            if path is not None:
                replay_file = ReplayFile(replay_id, read_record(str(path)), str(path),
                                         path.name)
                ruleset = replay_file.ruleset.id if replay_file.finished else None
        except DdzError:
            ruleset = None
        if len(self._verdicts) >= MAX_VERDICTS:
            self._verdicts.clear()
        self._verdicts[replay_id] = (mtime, ruleset)
        return ruleset

