"""The `table { ... }` block: what the REPL's table shows (display only).

Checked after the zones and variables are declared: every name must be one of them,
a name is in at most one group, `show` names variables, `sort` names a zone and the
keys `suit`, `rank` or `none`, `label ... by player` names zones. With a block, a
variable is shown only when the block names it (in a group or a `show` line); every
zone is shown unless hidden. The result is the Program's `TableSpec`.
"""

from __future__ import annotations

from ..errors import did_you_mean
from . import ast as A
from .program import TableSpec
from .symbols import Reporter

SORT_KEYS = ("suit", "rank", "none")


def check_table(decl: A.TableDecl | None, zones: set[str], variables: set[str],
                report: Reporter) -> TableSpec:
    spec = TableSpec()
    if decl is None:
        return spec
    spec.shown = {}
    known = zones | variables
    grouped: dict[str, A.TableName] = {}

    def name_ok(n: A.TableName, allowed: set[str], what: str) -> bool:
        if n.name in allowed:
            return True
        if n.name in known:
            other = "a zone" if n.name in zones else "a variable"
            report.err(f"'{n.name}' is {other}; this line takes {what}", n.span)
        else:
            report.err(f"unknown name '{n.name}' in the table block: it takes {what}", n.span,
                       did_you_mean(n.name, allowed) or
                       ("known: " + ", ".join(sorted(allowed)) if allowed else ""))
        return False

    for item in decl.items:
        if item.kind == "group":
            names = []
            for n in item.names:
                if not name_ok(n, known, "zones and variables"):
                    continue
                if n.name in grouped:
                    report.err(f"'{n.name}' is already in a group (line "
                               f"{grouped[n.name].span.line})", n.span,
                               "a zone or variable is drawn in one place")
                    continue
                grouped[n.name] = n
                names.append(n.name)
                if n.name in variables:
                    spec.shown[n.name] = n.label or spec.shown.get(n.name, n.name)
                elif n.label:
                    report.err(f"'{n.name}' is a zone: its label is given where it is "
                               "declared", n.span)
            spec.groups.append((item.title, names))
        elif item.kind == "show":
            for n in item.names:
                if name_ok(n, variables, "variables"):
                    spec.shown[n.name] = n.label or n.name
        elif item.kind == "hide":
            for n in item.names:
                if name_ok(n, known, "zones and variables"):
                    spec.hidden.add(n.name)
        elif item.kind == "sort":
            n = item.names[0]
            keys = []
            for k in item.keys:
                if k.name not in SORT_KEYS:
                    report.err(f"unknown sort key '{k.name}'", k.span,
                               did_you_mean(k.name, SORT_KEYS) or "sort by suit, rank or none")
                elif k.name != "none":
                    keys.append(k.name)
            if name_ok(n, zones, "a zone"):
                spec.sort[n.name] = tuple(keys)
        elif item.kind == "label":
            by = item.keys[0]
            if by.name != "player":
                report.err(f"cards are labelled by player, not by '{by.name}'", by.span,
                           "write 'label trick by player'")
            for n in item.names:
                if name_ok(n, zones, "zones"):
                    spec.by_player.add(n.name)
    for n in grouped.values():
        if n.name in spec.hidden:
            report.err(f"'{n.name}' is both in a group and hidden", n.span)
    return spec
