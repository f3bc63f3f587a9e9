"""The claim rules of a narrowed speech schema that a speech's properties cannot state.

`split_claims` narrows a re-ask after a speech that suspected and trusted one seat;
`claim_rule` states the referee's `EXCLUSIVE` and `checks_conflict` rules under `allOf`
(`arena.agents.model.tools.legal_answers` puts both in a speech's shape).
"""

from __future__ import annotations

from typing import Any

from arena.rules.actions import EXCLUSIVE, OWN_SEAT_BARRED, ClaimList, Claims, claimed_seats

Schema = dict[str, Any]

CLAIM_FIELDS: dict[ClaimList, str] = {
    "suspects": "suspects",
    "trusts": "trusts",
    "checks": "claimed_checks",
}
"""The answer field of each claim list (a check names its seat in its own `seat`)."""


def split_claims(refused: Claims) -> tuple[int, ...] | None:
    """The seats a re-asked speech may trust, when its refused answer contradicted itself.

    A grammar-constrained server cannot enforce `EXCLUSIVE` (`claim_rule`), and a small
    model asked again tends to repeat a speech that both suspects and trusts a seat. The
    re-ask's schema then splits the table instead: `trusts` may name only the seats the
    refused speech trusted and did not suspect, `suspects` every other seat. The lists
    cannot share a seat, and a seat named in both stays a suspect, as the bots read it
    (`arena.agents.bot.speech.consistent`). None when the lists shared no seat (a
    refusal for another reason leaves the schema as it was).
    """
    first, second = EXCLUSIVE
    suspected = set(claimed_seats(refused, first))
    trusted = set(claimed_seats(refused, second))
    if not suspected & trusted:
        return None
    return tuple(sorted(trusted - suspected))


def claim_rule(seats: list[int], speaker: int) -> Schema:
    """The referee's rules for a speech's claims that no property states.

    `EXCLUSIVE`, no seat in both lists: one `not` per seat both lists may name; and
    `checks_conflict`, one reported result per seat: one `not` per seat a check may name
    (no two rows with that seat, `minContains: 2`); all under `allOf` beside the shape's
    properties (whose `maxItems` bounds the checks to one a seat). A validator reads it
    exactly; a grammar cannot state that two lists share no seat, or that a list repeats
    none, in less than a rule per subset, and llama.cpp's converters read the properties
    of an object and pass over an `allOf` beside them, so there the referee refuses such
    a speech and asks again, as for any illegal answer (the parser merges a check
    repeated word for word first).
    """

    def names(field: ClaimList, seat: int) -> Schema:
        item = {"enum": [seat]} if field != "checks" else {"properties": {"seat": {"enum": [seat]}}}
        return {"type": "array", "contains": item}

    first, second = EXCLUSIVE
    both = [s for s in seats if s != speaker or not {first, second} & set(OWN_SEAT_BARRED)]
    checked = [s for s in seats if s != speaker or "checks" not in OWN_SEAT_BARRED]
    field = CLAIM_FIELDS["checks"]
    return {
        "allOf": [
            *(
                {
                    "not": {
                        "type": "object",
                        "properties": {CLAIM_FIELDS[f]: names(f, s) for f in EXCLUSIVE},
                        "required": [CLAIM_FIELDS[f] for f in EXCLUSIVE],
                    }
                }
                for s in both
            ),
            *(
                {
                    "not": {
                        "type": "object",
                        "properties": {field: names("checks", s) | {"minContains": 2}},
                        "required": [field],
                    }
                }
                for s in checked
            ),
        ]
    }
