"""One line per logged action: "OR 3.1: RNC lays tile 8 at C10", "SR 2: P1 buys a RNC
certificate from the pool for 90". Prices and what changed hands come from the states
before and after the action (an action dict names the choice, not always its price)."""
from __future__ import annotations

from typing import Any, Callable

from menorca_sim.rules import Ruleset

Record = dict[str, Any]


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _a(word: str) -> str:
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


def _vehicle(vehicle: str) -> str:
    """'ship_of_the_line' -> 'a ship of the line'."""
    return _a(vehicle.replace("_", " "))


class Narrator:
    """Reads the action records of one game in order (`label` and `line` once per record:
    it remembers the state before each action and where the current set of ORs began)."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.before: dict[str, Any] | None = None  # the state before the record read next
        self.ors_before_set = 0  # ORs done when the current set's stock round ended

    def label(self, record: Record) -> str:
        """When the action was taken: "Auction", "SR 2" or "OR 2.1" (set 2, its first OR)."""
        kind = record["round"]
        if kind == "stock":
            self.ors_before_set = record["or"]
            return f"SR {record['sr']}"
        if kind == "operating":
            return f"OR {record['sr']}.{record['or'] - self.ors_before_set}"
        return kind.capitalize()

    def line(self, record: Record) -> str:
        """The record's narrative line, without its label."""
        action, state = record["action"], record["state"]
        before = self.before if self.before is not None else state
        say = _SAYINGS.get(action["type"])
        what = say(self, record, before) if say else f"{action['type'].replace('_', ' ')} {action}"
        text = f"{record['actor']} {what}" + "".join(f"; {change}" for change in self._changes(before, state))
        self.before = state
        return text

    # --- helpers of the sayings -------------------------------------------------------------
    def paid(self, record: Record, before: dict[str, Any]) -> int:
        """What the actor paid (negative: received) by this action."""
        return _cash(before, record["actor"]) - _cash(record["state"], record["actor"])

    def legacy(self, legacy: str) -> str:
        return f"{legacy} ({self.rs.legacies[legacy].name})"

    def _changes(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        """What else the action brought about: a new phase or epoch, companies formed or closed."""
        changes = []
        if after["phase"] != before["phase"]:
            changes.append(f"phase {after['phase']} begins")
        if after["epoch"] != before["epoch"]:
            changes.append(f"epoch {after['epoch']} begins")
        old, new = before["companies"], after["companies"]
        changes += [f"{c} formed" for c in new if c not in old and self.rs.companies[c].kind == "merged"]
        changes += [f"{c} closes" for c in old if c not in new]
        return changes


def _cash(state: dict[str, Any], actor: str) -> int:
    if actor.startswith("P") and actor[1:].isdigit():
        return state["players"][int(actor[1:]) - 1]["cash"]
    return state["companies"].get(actor, {}).get("cash", 0)


def _marker_owner(before: dict[str, Any], after: dict[str, Any], field: str, offboard: str) -> str:
    """The company whose `field` markers at `offboard` grew (a player places them for one)."""
    for company, record in after["companies"].items():
        old = before["companies"].get(company, {}).get(field, {}).get(offboard, 0)
        if record[field].get(offboard, 0) > old:
            return f"{company} "
    return ""


def _for(amount: int) -> str:
    return f" for {amount}" if amount else ""


def _lay_tile(n: Narrator, r: Record, before: dict) -> str:
    a = r["action"]
    return f"lays tile {a['tile']} at {a['hex']} (rotation {a['rotation']}){_for(a['cost'])}"


def _place_station(n: Narrator, r: Record, before: dict) -> str:
    a = r["action"]
    station = "port" if n.rs.companies[r["actor"]].kind == "major" else "manufactory"
    return f"places {_a(station)} at {a['node']}{_for(a['cost'])}"


def _buy_vehicle(n: Narrator, r: Record, before: dict) -> str:
    a = r["action"]
    source = "the bank" if a["source"] == "bank" else a["source"]
    traded = f", trading in {_vehicle(a['return'])}" if "return" in a else ""
    return f"buys {_vehicle(a['vehicle'])} from {source} for {a['price']}{traded}"


def _run(n: Narrator, r: Record, before: dict) -> str:
    routes = r.get("routes", [])
    verb = "pays out" if r["action"]["type"] == "payout" else "withholds"
    if not routes:
        return f"runs nothing, {verb}"
    kinds: dict[str, int] = {}
    for route in routes:
        kinds[route["kind"]] = kinds.get(route["kind"], 0) + 1
    fleet = " and ".join(_count(k, kind) for kind, k in kinds.items())
    return f"runs {fleet} for {sum(route['revenue'] for route in routes)}, {verb}"


def _buy_cert(n: Narrator, r: Record, before: dict) -> str:
    a = r["action"]
    return f"buys {_a(a['company'])} certificate from the {a['source']} for {n.paid(r, before)}"


def _buy_legacy(n: Narrator, r: Record, before: dict) -> str:
    seat = int(r["actor"][1:]) - 1
    bought = [leg for leg in r["state"]["players"][seat]["legacies"]
              if leg not in before["players"][seat]["legacies"]]
    what = n.legacy(bought[0]) if bought else "the cheapest legacy"
    return f"buys {what} for {n.paid(r, before)}"


def _market_marker(n: Narrator, r: Record, before: dict) -> str:
    owner = _marker_owner(before, r["state"], "market_markers", r["action"]["offboard"])
    return f"places {_a(owner + 'market marker')} at {r['action']['offboard']}"


def _goods_marker(n: Narrator, r: Record, before: dict) -> str:
    owner = _marker_owner(before, r["state"], "goods_markers", r["action"]["offboard"])
    return f"places {_a(owner + 'goods marker')} at {r['action']['offboard']}"


_SAYINGS: dict[str, Callable[[Narrator, Record, dict], str]] = {
    "reserve": lambda n, r, b: f"reserves {n.legacy(r['action']['legacy'])} with a bid of {r['action']['bid']}",
    "buy_legacy": _buy_legacy,
    "pass": lambda n, r, b: "passes",
    "raise": lambda n, r, b: f"raises to {r['action']['bid']}",
    "drop": lambda n, r, b: "drops out",
    "start_company": lambda n, r, b: f"starts {r['action']['company']} at par {r['action']['par']}",
    "buy_cert": _buy_cert,
    "sell_cert": lambda n, r, b: f"sells {_a(r['action']['company'])} certificate for {-n.paid(r, b)}",
    "end_turn": lambda n, r, b: "ends the turn",
    "place_market_marker": _market_marker,
    "place_goods_marker": _goods_marker,
    "lay_tile": _lay_tile,
    "place_station": _place_station,
    "buy_vehicle": _buy_vehicle,
    "forced_buy_vehicle": lambda n, r, b: f"is forced to buy {_vehicle(r['action']['vehicle'])} for {r['action']['price']}",
    "payout": _run,
    "withhold": _run,
    "skip": lambda n, r, b: "skips a step",
    "company_buys_legacy": lambda n, r, b: (f"buys {n.legacy(r['action']['legacy'])} from its director "
                                            f"for {r['action']['price']}"),
    "company_sells_certs": lambda n, r, b: f"sells {_count(r['action']['count'], 'own certificate')}",
    "company_buys_back": lambda n, r, b: "buys back one of its certificates",
    "discard_vehicle": lambda n, r, b: f"discards {_vehicle(r['action']['vehicle'])}",
    "accept_offer": lambda n, r, b: "accepts the vehicle offer",
    "decline_offer": lambda n, r, b: "declines the vehicle offer",
}
