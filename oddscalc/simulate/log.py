"""``oddscalc simulate GAME --log FILE``: a hand log (docs/hand-log.md) of simulated rounds, the audit's test input
and a lab's reference log.

What is played: optimal play (Caribbean Stud, Let It Ride: the exact engine's decisions), a named strategy or a
strategy card, or a player under an information model (``--knows``: he acts on what it shows, by exact EV); on a
deck or shoe as shipped or damaged (``--damage missing:As``, ``doubled:As``: a card taken out or put in twice); with
each round's main wager mispaid (overpaid by one stake) at a stated rate (``--mispay``, drawn from its own seeded
stream, so the cards are the same with and without it). Every round is dealt from a freshly shuffled deck or shoe
(``dealing``), seeded, so a log is reproduced by its options. The log is written in one atomic replace
(``files.write_atomic``) and never over a file the command reads.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from oddscalc import __version__
from oddscalc.audit.logformat import FORMAT, VERSION
from oddscalc.audit.punto import cell_settlement
from oddscalc.cards import CardError, card_str, parse_card
from oddscalc.catalog import resolve_table
from oddscalc.files import read_here, real_path, write_atomic
from oddscalc.progress import Progress
from oddscalc.protocol import OptionError
from oddscalc.simulate.dealing import deal, full_shoe
from oddscalc.tables import Table

LOG_GAMES = ("caribbean", "let-it-ride", "punto-banco")
CHUNK = 20_000  # rounds dealt, settled and written at a time: the memory of a log of any length
_DAMAGE = re.compile(r"^(missing|doubled):(\S+)$")


@dataclass(frozen=True)
class Written:
    """What a log holds: rounds, mispaid rounds, and the strategy in words."""

    path: Path
    rounds: int
    mispaid: int
    strategy: str


def damaged(shoe: np.ndarray, damage: tuple[str, ...]) -> np.ndarray:
    """The shoe with each ``missing:CARD`` taken out once and each ``doubled:CARD`` put in once more."""
    cards = [int(c) for c in shoe]
    for d in damage:
        m = _DAMAGE.match(d.strip())
        if m is None:
            raise OptionError(f"--damage {d!r}: missing:CARD or doubled:CARD (e.g. missing:As)")
        try:
            card = parse_card(m.group(2))
        except CardError as e:
            raise OptionError(f"--damage {d!r}: {e}") from None
        if m.group(1) == "doubled":
            cards.append(card)
        elif card in cards:
            cards.remove(card)
        else:
            raise OptionError(f"--damage {d!r}: no {card_str(card)} is left in the deck or shoe to take out")
    return np.array(cards, dtype=np.int8)


def parse_rate(text: str) -> Fraction:
    """A rate as a share: "0.001", "1/1000" or "0.1%"; between 0 and 1."""
    t = text.strip()
    try:
        rate = Fraction(t[:-1]) / 100 if t.endswith("%") else Fraction(t)
    except (ValueError, ZeroDivisionError):
        raise OptionError(f"--mispay {text!r}: a rate such as 0.001, 1/1000 or 0.1%") from None
    if not 0 <= rate <= 1:
        raise OptionError(f"--mispay {text!r}: a rate between 0 and 1")
    return rate


def _amount(x: Fraction) -> int | str:
    return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _cards(row: list[int]) -> list[str]:
    return [card_str(c) for c in row]


def write_log(game: str, path: Path, table_ref: str | None = None, rounds: int = 10_000, seed: int = 1,
              strategy: str | None = None, knows: str | None = None, damage: tuple[str, ...] = (),
              mispay: str = "0", progress: bool = False) -> Written:
    """Simulate ``rounds`` rounds of ``game`` and write them to ``path`` as a hand log (see the module)."""
    if game not in LOG_GAMES:
        raise OptionError(f"simulate --log plays {', '.join(LOG_GAMES)}, not {game}")
    table = resolve_table(game, table_ref)
    rate = parse_rate(mispay)
    model = None
    if knows is not None:
        from oddscalc.protection.information import load_model

        model, _ = load_model(knows, game)
    if game == "caribbean":
        shoe = damaged(full_shoe(1), damage)
        body, said = _caribbean(table, shoe, strategy, model)
    elif game == "let-it-ride":
        body, said = _let_it_ride(table, damaged(full_shoe(1), damage), strategy, model)
    else:
        body, said = _punto_banco(table, damage, strategy, model)
    if read_here(real_path(path)):
        raise OptionError(f"--log {path}: a file this command reads (a table, a card, a model); write the log "
                          "elsewhere")
    generator = {"tool": f"oddscalc simulate {__version__}", "seed": seed, "strategy": said,
                 "knows": model.id if model else "", "damage": list(damage), "mispay": str(rate)}
    head = {"format": FORMAT, "version": VERSION, "game": game, "table": table.id, "table_sha256": table.sha256,
            "seats": 1, "generator": generator}
    bar = Progress(progress, f"simulate {game} --log")
    counts = [0]

    def lines() -> Iterator[bytes]:
        yield (json.dumps(head, separators=(",", ":")) + "\n").encode()
        rng = np.random.Generator(np.random.PCG64(seed))
        mis_rng = np.random.Generator(np.random.PCG64([seed, 1]))  # its own stream: the cards do not depend on it
        done = 0
        while done < rounds:
            n = min(CHUNK, rounds - done)
            records = body(rng, n)
            wrong = mis_rng.random(n) < float(rate) if rate else np.zeros(n, dtype=bool)
            out = []
            for i, rec in enumerate(records):
                rec = {"round": done + i + 1, "seat": 1, **rec}
                if wrong[i] and rec["stakes"]:
                    wager = next(iter(rec["stakes"]))
                    rec["paid"][wager] = _amount(Fraction(rec["paid"][wager]) + Fraction(rec["stakes"][wager]))
                    counts[0] += 1
                out.append(json.dumps(rec, separators=(",", ":")))
            yield ("\n".join(out) + "\n").encode()
            done += n
            bar.step(done, rounds)
        bar.finish()

    try:
        mask = os.umask(0o022)
        os.umask(mask)
        write_atomic(path, lines(), mode=0o666 & ~mask)  # a new file's usual permissions, not the temporary's
    except OSError as e:
        raise OptionError(f"--log {path}: cannot write: {e.strerror or e}") from None
    return Written(path, rounds, counts[0], said)


Body = Callable[[np.random.Generator, int], list[dict[str, Any]]]  # (rng, n) -> n rounds as log records


def _caribbean(table: Table, shoe: np.ndarray, strategy: str | None, model: object) -> tuple[Body, str]:
    from oddscalc.games.caribbean.table import CaribbeanTable
    from oddscalc.protection.glimpse import Model
    from oddscalc.simulate.log_caribbean import Settler, informed_raiser, named_raiser, optimal_raiser

    tab = table.model
    assert isinstance(tab, CaribbeanTable)
    if isinstance(model, Model):
        if strategy is not None:
            raise OptionError("--strategy and --knows: a player who knows more plays by exact EV on what he knows")
        raiser = informed_raiser(table, model, shoe.astype(np.int64))
        said = f"raises by exact EV knowing {model.id} ({model.title})"
    else:
        chosen = strategy or tab.rules.strategy
        raiser = optimal_raiser(table) if chosen == "optimal" else named_raiser(chosen)
        said = chosen
    settler = Settler(table)
    jp_stake = tab.pays.jackpot.stake if tab.pays.jackpot is not None else None

    def body(rng: np.random.Generator, n: int) -> list[dict[str, Any]]:
        cards = deal(rng, shoe, n, 10)
        hands, dealer = cards[:, :5], cards[:, 5:]
        raised = raiser(hands, dealer[:, 0], dealer)
        settled = settler.settle(hands, dealer, raised)
        out: list[dict[str, Any]] = []
        for row, r, (main, jackpot) in zip(cards.tolist(), raised.tolist(), settled):
            stakes: dict[str, int | str] = {"main": 1}
            paid: dict[str, int | str] = {"main": _amount(main)}  # the ante is the unit: 1
            if jackpot is not None and jp_stake is not None:
                stakes["jackpot"] = _amount(Fraction(jp_stake))
                paid["jackpot"] = _amount(jackpot * jp_stake)
            out.append({"cards": {"player": _cards(row[:5]), "dealer": _cards(row[5:])},
                        "decisions": [{"decision": "raise", "action": "raise" if r else "fold",
                                       "seen": _cards(row[:6])}],
                        "stakes": stakes, "paid": paid})
        return out

    return body, said


def _let_it_ride(table: Table, deck: np.ndarray, strategy: str | None, model: object) -> tuple[Body, str]:
    from oddscalc.protection.glimpse import Model
    from oddscalc.simulate.log_let_it_ride import Settler, informed_rider, optimal_rider

    if isinstance(model, Model):
        if strategy is not None:
            raise OptionError("--strategy and --knows: a player who knows more rides by exact EV on what he knows")
        rider = informed_rider(table, model)
        said = f"rides by exact EV knowing {model.id} ({model.title})"
    else:
        if strategy not in (None, "optimal"):
            raise OptionError(f"unknown strategy {strategy!r} for let-it-ride --log; known: optimal")
        rider = optimal_rider(table)
        said = "optimal"
    settler = Settler(table)

    def body(rng: np.random.Generator, n: int) -> list[dict[str, Any]]:
        cards = deal(rng, deck, n, 5)  # the player's three, then the two community cards in order
        ride1, ride2 = rider(cards)
        settled = settler.settle(cards, ride1, ride2)
        out: list[dict[str, Any]] = []
        for row, r1, r2, main in zip(cards.tolist(), ride1.tolist(), ride2.tolist(), settled):
            out.append({"cards": {"player": _cards(row[:3]), "community": _cards(row[3:])},
                        "decisions": [{"decision": "ride_1", "action": "ride" if r1 else "pull",
                                       "seen": _cards(row[:3])},
                                      {"decision": "ride_2", "action": "ride" if r2 else "pull",
                                       "seen": _cards(row[:4])}],
                        "stakes": {"main": 1}, "paid": {"main": _amount(main)}})  # one base bet is the unit
        return out

    return body, said


def _punto_banco(table: Table, damage: tuple[str, ...], strategy: str | None, model: object) -> tuple[Body, str]:
    from oddscalc.analysis import Session
    from oddscalc.games.punto_banco.game import PuntoBancoRules
    from oddscalc.protection.glimpse import Model
    from oddscalc.simulate.log_baccarat import cells, informed_bettor, named_bettor

    rules = Session("punto-banco").resolve(table)
    assert isinstance(rules, PuntoBancoRules)
    if rules.infinite:
        raise OptionError("simulate --log deals from a finite shoe: this table's shoe is infinite")
    shoe = damaged(full_shoe(rules.decks), damage)
    settlement = cell_settlement(rules.model.pays)
    if isinstance(model, Model):
        if strategy is not None:
            raise OptionError("--strategy and --knows: a player who knows more bets by exact EV on what he knows")
        bettor = informed_bettor(model, rules)
        said = f"bets by exact EV knowing {model.id} ({model.title})"
    else:
        said = strategy or "banker"
        bettor = named_bettor(said, settlement)

    def body(rng: np.random.Generator, n: int) -> list[dict[str, Any]]:
        cards = deal(rng, shoe, n, 6)
        cell, dealt = cells(cards, rules)
        bets = bettor(cards)
        out: list[dict[str, Any]] = []
        for row, c, k, bet in zip(cards.tolist(), cell.tolist(), dealt.tolist(), bets):
            stakes: dict[str, int | str] = {} if bet == "none" else {bet: 1}
            paid = {} if bet == "none" else {bet: _amount(settlement.units[bet][c])}
            out.append({"cards": {"shoe": _cards(row[:k])},
                        "decisions": [{"decision": "bet", "action": bet, "seen": []}],
                        "stakes": stakes, "paid": paid})
        return out

    return body, said


__all__ = ["CHUNK", "LOG_GAMES", "Written", "damaged", "parse_rate", "write_log"]
