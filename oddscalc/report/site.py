"""Build docs/: a Markdown, a CSV and a JSON report for every shipped table, charts, and an index.

``python -m oddscalc.report.site`` (what ``make docs`` runs) writes ``docs/reports/<game>-<table>.md``,
``.csv`` and ``.json`` for every shipped table of every game in :data:`~oddscalc.games.GAMES`, the
charts each game asks for (``Game.charts``), ``docs/index.md`` linking them, and ``docs/file-keys.md``, every key
of the files a user writes (:mod:`oddscalc.report.keys`). The JSON reports
are the golden files: a test holds them to the code, so a change that moves any figure shows.
The output depends only on the code and the table files
(no dates, no hash-order iteration): the same code gives the same bytes. ``--check`` writes
nothing and exits 1 listing the files that are stale, so a test can hold the committed docs
to the code.

A game that fails is never skipped: a bad table file stops the build with its problems
(exit 3), an exception in an analysis propagates naming the table.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from oddscalc import __version__
from oddscalc.analysis import Session
from oddscalc.catalog import load_table, shipped_tables, tables_dir
from oddscalc.datafile import TableError
from oddscalc.exact import percent_str
from oddscalc.files import write_atomic
from oddscalc.games import GAMES
from oddscalc.report.csv import render_csv
from oddscalc.report.json import render_json
from oddscalc.report.keys import reference_markdown
from oddscalc.report.markdown import render_markdown
from oddscalc.report.svg import render_chart
from oddscalc.results import Analysis

DOCS_DIR = Path(__file__).resolve().parents[2] / "docs"  # in a checkout
REPORTS = "reports"
INDEX = "index.md"
KEYS = "file-keys.md"  # every key of the table, strategy card and profile files (report.keys)
EXIT_STALE = 1
EXIT_TABLE = 3  # as the CLI's: a bad table file


class DocsError(Exception):
    """The docs cannot be built from what is shipped (user-fixable, no traceback)."""


@dataclass(frozen=True)
class TableDoc:
    """What the index says about one shipped table."""

    game: str
    table: str
    title: str
    is_default: bool
    wager: str  # the wager the index summarises: "main", else the first on the layout
    unit: str
    house_edge: Fraction
    element_of_risk: Fraction | None
    convention: str
    figures_held: int
    figures: int
    best_wager: str  # the wager with the lowest house edge: where a player's best bet is
    best_edge: Fraction

    @property
    def stem(self) -> str:
        """The report files' name: <game>-<table>."""
        return f"{self.game}-{self.table}"


def analyze_shipped(session: Session, game: str, path: Path) -> Analysis:
    """The full report's analysis of one shipped table (default options, no progress output)."""
    table = load_table(path, expect_game=game)
    try:
        return session.analyze(table)
    except Exception as e:
        e.add_note(f"while analysing {path} for the docs")
        raise


def document(analysis: Analysis) -> tuple[TableDoc, dict[str, str]]:
    """The index entry and the report files of one analysis."""
    names = [w.wager for w in analysis.wagers]
    w = analysis.wager("main" if "main" in names else names[0])
    checks = analysis.checks
    doc = TableDoc(
        game=analysis.game, table=analysis.table.id, title=analysis.table.title,
        is_default=analysis.table.id == GAMES[analysis.game].default_table,
        wager=w.wager, unit=w.unit, house_edge=w.house_edge, element_of_risk=w.element_of_risk,
        convention=analysis.convention, figures_held=sum(c.ok for c in checks), figures=len(checks),
        best_wager=min(analysis.wagers, key=lambda x: x.house_edge).wager,
        best_edge=min(x.house_edge for x in analysis.wagers),
    )
    files = {
        f"{REPORTS}/{doc.stem}.md": render_markdown(analysis),
        f"{REPORTS}/{doc.stem}.csv": render_csv(analysis),
        f"{REPORTS}/{doc.stem}.json": render_json(analysis),
    }
    return doc, files


CHARTS = "charts"


def build_game(game: str) -> tuple[list[TableDoc], dict[str, str]]:
    """The index entries, report files and charts of every shipped table of ``game``."""
    if game not in GAMES:
        raise DocsError(f"unknown game {game!r}; one of: {', '.join(GAMES)}")
    paths = shipped_tables(game)
    if not paths:
        raise DocsError(f"{game}: no shipped tables in {tables_dir() / game} "
                        f"(the game's default table {GAMES[game].default_table!r} is missing)")
    session = Session(game)
    docs: list[TableDoc] = []
    files: dict[str, str] = {}
    for path in paths:
        analysis = analyze_shipped(session, game, path)
        doc, out = document(analysis)
        docs.append(doc)
        files.update(out)
        if doc.is_default:
            for chart in GAMES[game].charts(analysis, session.rerun(analysis.table)):
                files[f"{CHARTS}/{chart.id}.svg"] = render_chart(chart)
    return docs, files


def build(games: Iterable[str] | None = None) -> dict[str, str]:
    """Every generated file (path relative to the docs folder -> text) for ``games`` (default: all)."""
    docs: list[TableDoc] = []
    files: dict[str, str] = {}
    for game in list(GAMES) if games is None else games:
        d, f = build_game(game)
        docs += d
        files.update(f)
    files[INDEX] = render_index(docs, charts_in(files))
    files[KEYS] = reference_markdown()
    return files


def charts_in(files: Mapping[str, str]) -> list[str]:
    """The chart files among the generated ones."""
    return sorted(name for name in files if name.startswith(f"{CHARTS}/"))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _shared(docs: Sequence[TableDoc], what: str, value: Mapping[str, str]) -> list[str]:
    """One line when every table says the same, else one bullet per table."""
    if len(set(value.values())) == 1:
        return [f"{what}: {next(iter(value.values()))}.", ""]
    return [f"{what}:", ""] + [f"- `{d.table}`: {value[d.table]}." for d in docs] + [""]


def _lowest(d: TableDoc) -> str:
    text = f"{percent_str(d.best_edge)} (`{d.best_wager}`)"
    return f"**{text}: favours the player**" if d.best_edge < 0 else text


def render_index(docs: Sequence[TableDoc], chart_files: Sequence[str] = ()) -> str:
    """The index page: per game, its tables' headline figures and links."""
    out = [
        "# oddscalc: reports for the shipped tables",
        "",
        (f"Generated by `make docs` (`python -m oddscalc.report.site`, oddscalc {__version__}) from the table files "
         "in `tables/`; do not edit by hand. Every figure is exact: each report enumerates every deal and gives "
         "the exact fractions, the return table of every wager and the strategy."),
        "",
        ("House edge: the expected loss per unit of the wager shown (a negative edge favours the player). "
         "Lowest edge of any wager: the best bet on the layout. Element of risk: the expected loss per unit "
         "actually staked, for wagers where the player's stake can change during a hand. Published: how many "
         "of the table's `[published]` and `[claimed]` figures the exact analysis reproduces "
         "(`oddscalc verify` checks them). \"(default)\" marks the table `oddscalc report <game>` uses "
         "without `--table`."),
        "",
        f"Every key of a table file, a strategy card and a compliance profile: [{KEYS}]({KEYS}).",
        "",
    ]
    for game in dict.fromkeys(d.game for d in docs):
        # the default table first: it is what `oddscalc report <game>` shows
        rows = sorted((d for d in docs if d.game == game), key=lambda d: (not d.is_default, d.table))
        out += [f"## {GAMES[game].title} (`{game}`)", ""]
        out += _shared(rows, "Counting convention", {d.table: d.convention for d in rows})
        out += _shared(rows, "Wager shown", {d.table: f"`{d.wager}`, per {d.unit}" for d in rows})
        out += ["| Table | Title | House edge | Element of risk | Lowest edge of any wager | Published | Reports |",
                "|---|---|---:|---:|---|---|---|"]
        for d in rows:
            eor = "—" if d.element_of_risk is None else percent_str(d.element_of_risk)
            held = f"{d.figures_held} of {d.figures} hold" if d.figures else "—"
            default = " (default)" if d.is_default else ""
            out.append(
                f"| `{d.table}`{default} | {_cell(d.title)} | {percent_str(d.house_edge)} | {eor} "
                f"| {_lowest(d)} | {held} "
                f"| [Markdown]({REPORTS}/{d.stem}.md) · [CSV]({REPORTS}/{d.stem}.csv) "
                f"· [JSON]({REPORTS}/{d.stem}.json) |"
            )
        out.append("")
        for chart in chart_files:
            if chart.startswith(f"{CHARTS}/{game}-"):
                out += [f"![{chart.removeprefix(CHARTS + '/').removesuffix('.svg')}]({chart})", ""]
    if not docs:
        out += ["No games to document.", ""]
    return "\n".join(out).rstrip() + "\n"


def _existing(out: Path) -> set[str]:
    """Generated-looking files already in ``out`` (every file of reports/, and the index)."""
    found = {name for name in (INDEX, KEYS) if (out / name).exists()}
    for folder in (REPORTS, CHARTS):
        if (out / folder).is_dir():
            found |= {f"{folder}/{p.name}" for p in (out / folder).iterdir() if p.is_file()}
    return found


def stale(files: Mapping[str, str], out: Path, prune: bool) -> list[str]:
    """Files in ``out`` that differ from ``files`` or are missing; with ``prune``, also leftovers."""
    bad = [name for name, text in files.items()
           if not (out / name).is_file() or (out / name).read_bytes() != text.encode()]
    if prune:
        bad += [name for name in _existing(out) if name not in files]
    return sorted(bad)


def write(files: Mapping[str, str], out: Path, prune: bool) -> list[str]:
    """Bring ``out`` up to date (bytes, "\\n" line ends); returns the files changed or removed."""
    changed = stale(files, out, prune)
    for name in changed:
        path = out / name
        if name in files:
            write_atomic(path, files[name].encode())
        else:
            path.unlink()
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    """Build (or with --check, verify) the docs; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m oddscalc.report.site",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DOCS_DIR, help=f"docs folder (default: {DOCS_DIR})")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 listing stale files")
    parser.add_argument("--game", action="append", choices=list(GAMES),
                        help="document only this game (repeatable; the index then lists only these)")
    args = parser.parse_args(argv)
    prune = args.game is None  # only a full build knows every report that should exist
    try:
        files = build(args.game)
    except TableError as e:
        print(f"oddscalc.report.site: bad shipped table:\n{e}", file=sys.stderr)
        return EXIT_TABLE
    except DocsError as e:
        print(f"oddscalc.report.site: {e}", file=sys.stderr)
        return EXIT_TABLE
    if args.check:
        bad = stale(files, args.out, prune)
        if bad:
            print(f"stale in {args.out} (run `make docs`):", file=sys.stderr)
            for name in bad:
                print(f"  {name}", file=sys.stderr)
            return EXIT_STALE
        print(f"{args.out}: {len(files)} file(s) up to date")
        return 0
    changed = write(files, args.out, prune)
    for name in changed:
        print(f"{'removed' if name not in files else 'wrote'} {args.out / name}")
    print(f"{args.out}: {len(files)} file(s), {len(changed)} changed")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
