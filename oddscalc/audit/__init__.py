"""Hand logs: their format, their conformance to the approved math, and the evidence they hold of information.

A log is read into :class:`~oddscalc.audit.observed.Observed` decisions (one per decision a player made), which
is all the evidence engine needs; the conformance checks read the rounds themselves.
"""
