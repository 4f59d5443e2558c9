"""The state layout: which slot of the flat state holds what.

The state is a flat list of slots while a step runs (a tuple between steps):

    0 PC       current node of the flow graph (a decision node, or the end node)
    1 RNG      the random generator's seed for the next chance event
    2 MOVES    moves applied so far
    3 PENDING  simultaneous choices made so far (a tuple of moves), or None
    4 ENDED    None while the game runs, else why it ended
    5 WHO      who decides at the current node (a player, or a tuple for a simultaneous choice)
    6...       zones (each a tuple of card ids, bottom first), variables, the faces (only
               when a rule turns cards: the sorted ids of the cards turned from their
               zone's face), flow variables
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from ..lang import nodes as attrs

from ..lang import Checked

PC, RNG, MOVES, PENDING, ENDED, WHO = range(6)
# the end reason a game whose flow ran out records (kept in states: states are hashed by
# benchmarks/same_behaviour.py); Game.reason_text shows it as FLOW_RAN_OUT. A bare `end`
# records BARE_END.
FLOW_END = "ended"
FLOW_RAN_OUT = "the flow ran to its end"
BARE_END = "an `end` with no reason"
FIRST_SLOT = 6


@attrs.define
class ZoneSlot:
    name: str
    text: str  # how the zone is written in moves: column3, hand-p2
    slot: int
    decl: str  # the declared zone
    owner: int  # the owning player for per-player zones, else 0


class Layout:
    """Zones first (one slot per zone of an array), then variables, then the slots the
    flow allocates for its own variables and loop counters."""

    def __init__(self, g: Checked) -> None:
        slot = FIRST_SLOT
        self.zone_base: dict[str, int] = {}
        self.zone_slots: list[ZoneSlot] = []
        for z in g.zones.values():
            self.zone_base[z.name] = slot
            if z.dim is None:
                self.zone_slots.append(ZoneSlot(z.name, z.name, slot, z.name, 0))
                slot += 1
                continue
            kind, size = z.dim
            for i in range(1, size + 1):
                if kind == "suit":
                    text = f"{z.name}-{g.suit_names[i - 1]}"
                elif kind == "player":
                    text = f"{z.name}-p{i}"
                elif z.grid is not None:  # a grid's place: row 7, column 1 is pyramid7-1
                    r, c = z.row_col(i)
                    text = f"{z.name}{r}-{c}"
                else:
                    text = f"{z.name}{i}"
                owner = i if kind == "player" else 0
                self.zone_slots.append(ZoneSlot(z.name, text, slot, z.name, owner))
                slot += 1
        self.var_base: dict[str, int] = {}
        for v in g.vars.values():
            self.var_base[v.name] = slot
            slot += 1 if v.dim is None else v.dim[1]
        # the cards turned from their zone's face (a face-down card in a face-up zone, a
        # face-up card in a face-down or owner zone), sorted: a game that never turns a
        # card has no such slot and pays nothing
        self.faces: int | None = None
        if g.uses_faces:
            self.faces = slot
            slot += 1
        self.nslots = slot
        # `covered by`: for each zone's slot, the slots of the places that cover it (the
        # tables' COVER, and `covered` at a place known when compiling)
        self.covers: list[tuple[int, ...]] = [() for _ in range(self.nslots)]
        for z in g.zones.values():
            base = self.zone_base[z.name]
            for i, places in enumerate(z.covers):
                self.covers[base + i] = tuple(self.zone_base[zn] + max(k, 1) - 1
                                              for zn, k in places)
        self.move_ids = {name: i for i, name in enumerate(g.moves)}
        self.pass_id = len(g.moves)  # the move id of `pass` at an optional choice

    def new_slot(self) -> int:
        """A slot for a flow variable, a loop counter or a `for` list."""
        s = self.nslots
        self.nslots += 1
        return s
