"""``ddz play``: a person plays one seat of a hand, or of a whole match, bots play the others.

:mod:`ddz_rules.play.session` holds everything the person's seat needs and knows nothing of
any screen: typed actions checked by the referee (with the one-line reason of a refusal),
the aids computed from the seat's view alone, bot moves, and the hand saved as a hand record
after every action. :mod:`ddz_rules.play.match_session` plays a whole match of the ruleset,
deal after deal (a session each), with the running totals from
:class:`~ddz_rules.match.MatchState`, saved as a match record after every action.
:mod:`ddz_rules.play.app` is the Textual app drawn on top of either (Textual is the optional
extra ``play``), and :mod:`ddz_rules.play.web` serves a card table to browsers (``ddz play
--serve``; Starlette and uvicorn, also in ``play``).
"""
