"""Variant comparison: many paired hands per ruleset, measures with confidence intervals.

``runner`` plays hands with bots and reduces each to a trace; ``measures`` defines every measure
on a trace; ``stats`` gives intervals and paired differences; ``executors`` spread hands over
processes or a Dask cluster; ``report`` prints and writes the results.
"""
