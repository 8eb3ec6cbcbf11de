"""The local web workbench (``oddscalc serve``): a table's pays, rules and strategy edited in a form, its figures
answered as you type.

- :mod:`~oddscalc.web.bench`: what one browser tab is working on (:class:`~oddscalc.web.bench.Bench`),
  the tabs of one server, and the sessions whose counts they share;
- :mod:`~oddscalc.web.forms`: the page's forms, read off the table models and the games' declarations (never
  a game's key);
- :mod:`~oddscalc.web.views`: the HTML fragments the page swaps in, through Jinja2 with every text escaped;
- :mod:`~oddscalc.web.app`: the Flask application (routes only), built by :func:`create_app`.

Only :mod:`~oddscalc.web.app` imports Flask: the rest is plain Python the tests call directly.
"""

from __future__ import annotations
