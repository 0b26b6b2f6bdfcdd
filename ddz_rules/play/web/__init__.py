"""``ddz play --serve``: the browser card table.

:mod:`ddz_rules.play.web.game` is one table (seats, tokens, actions, what each seat sees, saving
and resuming), pure Python; :mod:`ddz_rules.play.web.server` serves the tables to browsers
(Starlette, the optional extra ``play``) with the pages in ``static/``.
"""
