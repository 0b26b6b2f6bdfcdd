"""``ddz play``: a person plays one seat of a hand, bots play the others.

:mod:`ddz_rules.play.session` holds everything the person's seat needs and knows nothing of
any screen: typed actions checked by the referee (with the one-line reason of a refusal),
the aids computed from the seat's view alone, bot moves, and the hand saved as a hand record
after every action. :mod:`ddz_rules.play.app` is the Textual app drawn on top of it (Textual
is the optional extra ``play``).
"""
