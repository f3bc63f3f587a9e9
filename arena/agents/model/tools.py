"""The one answer tool of a game, and the legal answers of one request as a schema.

Every model call of a game offers the same single tool, `act`, whose only parameter
`answer` is one of the action shapes (`anyOf`): `{"action": "vote", "target": …}`,
`{"action": "pass"}`, `{"action": "speak", "text": …, "claimed_role": …}`, …. The shapes
are derived from the referee's action models (`arena.rules.actions`), so a role added to
the rules needs only words in `prompts/<version>/<lang>/tools.yaml`, no code here. Why one
tool that never changes:

- prefix caches (OpenAI, Anthropic, DeepSeek, vLLM, llama.cpp) reuse a request only up to
  its first difference, and tools come first: a tool list that changed with every
  decision (enums of the legal seats) made every request a cache miss after ~25 %;
- OpenAI-compatible servers disagree on more than one tool (llama.cpp answers a
  `required` choice over several tools with HTTP 500) but all accept one tool forced by
  name, and a grammar-constrained server (llama.cpp) then enforces the shapes.

The seat enums hold every seat of the table, so the schema can only ensure an answer is
well-formed; what is legal now, and what each answer means, is written in the question
(`options_text`) and checked by the referee. The schema is kept lean (descriptions only
where a field's meaning is not in the question) because it heads every request. It
avoids what real servers mishandle: no `maxLength` (a 1,200-char limit crashed
llama.cpp's grammar compiler; the limit is stated in words and enforced by the parser),
no `minItems`/`maxItems`, nullability as `anyOf` with `null`, and no boolean schema
anywhere (llama.cpp's own server refuses `"items": false`: every subschema is an object).
"""

from __future__ import annotations

import itertools
import math
import types
import typing
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from pydantic import BaseModel

from arena.agents.model.claim_rules import CLAIM_FIELDS, claim_rule
from arena.agents.model.claim_rules import split_claims as split_claims
from arena.agents.model.library import ToolTexts
from arena.llm.types import ToolSpec
from arena.rules.actions import OWN_SEAT_BARRED, ClaimList, Claims, action_models
from arena.rules.decisions import DecisionRequest
from arena.rules.roles import ReportField, spec
from arena.rules.types import Role

TOOL_NAME = "act"
ANSWER = "answer"
"""The tool's one parameter: the chosen action's shape."""
BELIEF_ACTION = "report_belief"
"""The answer shape of a private belief report (not a referee action)."""
BELIEF_FIELD = "wolf_probability"
"""A belief report keyed by seat, `{"3": 0.7, "5": 0.1, …}`; also carried by a vote
(`beliefs` daily). Keyed, not rows of `{"seat": 3, "p": 0.7}`: a small model writes every
token of its reply, and rows cost about twice as many a seat (SmolLM2 pretty-printed a
10-seat report past a 200-token reply budget, issue 30; Qwen's reports were most of the
tokens it generated in an exam, docs/benchmarks.md "The exam on real small models")."""

Schema = dict[str, Any]


def answer_tool(seats: int, roles: Sequence[Role], texts: ToolTexts) -> ToolSpec:
    """The game's `act` tool: every action shape plus the private belief report.

    Args:
        seats: the table's size (seat enums are 1…seats).
        roles: the roles a speech may claim (the board's roles).
        texts: the words of one language.
    """
    numbers = list(range(1, seats + 1))
    shapes = [_shape(kind, model, numbers, roles, texts) for kind, model in action_models().items()]
    shapes.append(
        _object({"action": _const(BELIEF_ACTION), BELIEF_FIELD: _beliefs(numbers, texts)})
    )
    return ToolSpec(
        name=TOOL_NAME,
        description=texts.field("tool"),
        parameters=_object({ANSWER: {"anyOf": shapes}}),
    )


def legal_answers(
    request: DecisionRequest | None,
    seats: int,
    roles: Sequence[Role],
    *,
    beliefs: Sequence[int] = (),
    trusted: Sequence[int] | None = None,
) -> Schema:
    """The `act` arguments that answer this one request legally, as a JSON schema.

    The game's tool never changes; this narrower schema goes, per request, to endpoints
    that enforce an output schema with a grammar and do not count it as prompt (answer
    mode `json_legal`, see `arena.agents.model.probe`), so a weak model cannot pick a seat or an
    action the referee would refuse. Seat fields list only the option's legal seats; a
    speech's claims hold together as the referee requires (`OWN_SEAT_BARRED` lists leave
    the speaker out, `claim_rule`). `request` None is the private belief question
    over `beliefs`; a vote carries a report over `beliefs` when they are given.
    `trusted` splits a speech's claim lists for a re-ask (`split_claims`): `trusts` may
    name only those seats and `suspects` only the others. No field descriptions: the words
    are in the tool and the question, and the schema is not part of the prompt.
    """
    table = list(range(1, seats + 1))
    if request is None:
        report = _report(list(beliefs) or table)
        return _object({ANSWER: _object({"action": _const(BELIEF_ACTION), BELIEF_FIELD: report})})
    models = action_models()
    shapes = [
        _shape(
            o.action,
            models[o.action],
            table,
            roles,
            None,
            legal=list(o.targets),
            required=o.target_required,
            report=beliefs,
            speaker=request.seat,
            trusted=trusted,
        )
        for o in request.options
    ]
    answer = shapes[0] if len(shapes) == 1 else {"anyOf": shapes}
    return _object({ANSWER: answer})


def _shape(
    kind: str,
    model: type[BaseModel],
    seats: list[int],
    roles: Sequence[Role],
    texts: ToolTexts | None,
    *,
    legal: list[int] | None = None,
    required: bool = False,
    report: Sequence[int] = (),
    speaker: int | None = None,
    trusted: Sequence[int] | None = None,
) -> Schema:
    """One action's shape; `legal` narrows its seat fields (None: any seat of the table).

    `required` makes a narrowed optional seat one that must be given. A vote of the tool
    may carry a belief report (nullable); a narrowed vote carries one exactly when
    `report` names the seats it is over. A narrowed speech's claims (`speaker` given)
    hold together as the referee requires, and `trusted` splits its lists.
    """
    properties: dict[str, Schema] = {"action": _const(kind)}
    rule: Schema = {}
    for name, field in model.model_fields.items():
        if name == "kind":
            continue
        if field.annotation is Claims:
            properties |= _claims(seats, roles, texts, speaker, trusted)
            rule = claim_rule(seats, speaker) if speaker is not None else {}
        else:
            described = _words(texts, f"{kind}.{name}") or _words(texts, name)
            properties[name] = _field(
                field.annotation, seats, described, legal=legal, required=required
            )
            if legal is not None and typing.get_origin(field.annotation) is tuple:
                properties[name] = _seat_sets(field, legal) or (
                    properties[name] | item_counts(field)
                )
    if kind == "vote" and legal is None:
        properties[BELIEF_FIELD] = _nullable(_beliefs(seats, texts))
    elif kind == "vote" and report:
        properties[BELIEF_FIELD] = _report(list(report))
    return _object(properties) | rule


MAX_SEAT_SETS = 4096
"""The most seat sets a narrowed schema lists one by one (a mist of 3 among 18: 816)."""


def _seat_sets(field: Any, legal: list[int]) -> Schema | None:
    """Every legal set of distinct seats for a tuple field, each once, seats ascending.

    Every seat list of an action (a mist's three, a swap's or a link's two, a sheriff's
    recommendation) must name different seats (`arena.rules.decisions.check_legal`), and an
    `items` enum cannot say so: llama.cpp's grammars ignore `uniqueItems`, and SmolLM2
    misted one seat twice until three tries defaulted its once-a-game skill (CI, stop 34).
    So the schema lists the sets themselves, in one spelling each (order means nothing
    to any of these actions). None when the field holds no seats or the sets are too many.
    """
    counts = item_counts(field)
    args = typing.get_args(field.annotation)
    if not args or not is_seat(args[0]):
        return None
    ascending = sorted(legal)
    sizes = range(counts.get("minItems", 0), counts.get("maxItems", len(ascending)) + 1)
    if sum(math.comb(len(ascending), k) for k in sizes) > MAX_SEAT_SETS:
        return None
    sets = [list(c) for k in sizes for c in itertools.combinations(ascending, k)]
    return {"enum": sets} if sets else None


def item_counts(field: Any) -> Schema:
    """A tuple field's `minItems`/`maxItems`, from its metadata.

    Narrowed schemas only: the tool leaves them out, as some servers mishandle them there.
    """
    counts: Schema = {}
    for meta in field.metadata:
        if getattr(meta, "min_length", None):
            counts["minItems"] = meta.min_length
        if getattr(meta, "max_length", None):
            counts["maxItems"] = meta.max_length
    return counts


def _words(texts: ToolTexts | None, key: str) -> str:
    """A field's words, when written (the narrowed schema has none)."""
    return texts.fields.get(key, "") if texts is not None else ""


def _named(texts: ToolTexts | None, key: str) -> Schema:
    """A description for the tool (the key itself when no words are written)."""
    return {"description": texts.field(key)} if texts is not None else {}


def _field(
    annotation: Any,
    seats: list[int],
    description: str,
    *,
    legal: list[int] | None = None,
    required: bool = False,
) -> Schema:
    """The JSON schema of an action field: seats are enums, enums list their values.

    With `legal`, seat enums hold only those seats; an optional seat with no legal seat
    can only be null, and one the referee requires (`required`) cannot be.
    """
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin in (types.UnionType, typing.Union) and type(None) in args:
        inner = next(a for a in args if a is not type(None))
        if legal is not None and not legal and is_seat(inner):
            return {"type": "null"}
        if legal and required and is_seat(inner):
            return _field(inner, seats, description, legal=legal)
        return _nullable(_field(inner, seats, description, legal=legal))
    if origin is tuple:
        items = _field(args[0], seats, "", legal=legal)
        described = {"description": description} if legal is None else {}
        return {"type": "array", "items": items, **described}
    if isinstance(annotation, type) and issubclass(annotation, StrEnum):
        return {"type": "string", "enum": [v.value for v in annotation], **_describe(description)}
    if annotation is int:
        return {"type": "integer", "enum": legal or seats, **_describe(description)}
    if annotation is str:
        return {"type": "string", **_describe(description)}
    raise TypeError(f"no answer schema for an action field of type {annotation!r}")


def _claims(
    seats: list[int],
    roles: Sequence[Role],
    texts: ToolTexts | None,
    speaker: int | None = None,
    trusted: Sequence[int] | None = None,
) -> dict[str, Schema]:
    """A speech's claim fields.

    With `speaker`, lists that may not name him leave him out; with `trusted`, `trusts`
    names only those seats and `suspects` only the others (`split_claims`).
    """

    def claimable(name: ClaimList) -> list[int]:
        barred = speaker is not None and name in OWN_SEAT_BARRED
        allowed = [s for s in seats if not (barred and s == speaker)]
        if trusted is None or name == "checks":
            return allowed
        return [s for s in allowed if (s in trusted) == (name == "trusts")]

    check: dict[str, Schema] = {
        "seat": {"type": "integer", "enum": claimable("checks")},
        "result": {"type": "string", "enum": ["wolf", "good"]},
    }
    told = reported_fields(roles)
    if "role" in told:
        card = {"type": "string", "enum": [r.value for r in roles]}
        check["role"] = _nullable(card, _words(texts, "check.role") or None)
    if "acted" in told:
        check["acted"] = _nullable({"type": "boolean"}, _words(texts, "check.acted") or None)
    # narrowed: one result per seat (`checks_conflict`), so no more rows than seats
    most = {"maxItems": len(claimable("checks"))} if speaker is not None else {}
    return {
        "claimed_role": _nullable(
            {"type": "string", "enum": [r.value for r in roles] or [r.value for r in Role]},
            texts.field("claimed_role") if texts is not None else None,
        ),
        "claimed_checks": {
            "type": "array",
            "items": _object(check),
            **most,
            **_named(texts, "claimed_checks"),
        },
        **{
            CLAIM_FIELDS[name]: _seat_list(claimable(name)) | _named(texts, name)
            for name in ("suspects", "trusts")
        },
    }


def _seat_list(seats: list[int]) -> Schema:
    """An array of seats among `seats`; none to choose from: the empty array only."""
    if not seats:
        return {"type": "array", "maxItems": 0}
    return {"type": "array", "items": {"type": "integer", "enum": seats}}


def reported_fields(roles: Sequence[Role]) -> frozenset[ReportField]:
    """What a reported check may tell beyond wolf or good on a board with these roles.

    The board's information roles decide it (`RoleSpec.reports`: the coroner's card, the
    watchman's watch), so the tool stays the same for every seat of the game and a seat
    that holds neither may still claim to.
    """
    return frozenset(f for r in roles for f in spec(r).reports)


def _beliefs(seats: list[int], texts: ToolTexts | None) -> Schema:
    """The tool's report: a probability or null for every seat of the table, by number.

    Every seat is a required key so that strict function tools take it (they admit no
    optional or free-named property); a seat the question did not ask about is null.
    """
    p = _nullable({"type": "number"})
    return _object({str(s): p for s in seats}) | _named(texts, BELIEF_FIELD)


PROBABILITIES = [round(i / 20, 2) for i in range(21)]
"""The probabilities a narrowed belief report may give: 0, 0.05, …, 1. A grammar over
free numbers is slow to sample (llama-cpp-python: ~6x slower per token) and admits
values outside [0, 1]; twenty steps are finer than any belief a seat reports."""


def _report(seats: list[int]) -> Schema:
    """A narrowed report: exactly `seats`, in order, each one of `PROBABILITIES`.

    Every key required and no other allowed, so a grammar writes each asked seat once
    and in order, and nothing else (grammar converters emit required properties in the
    order listed).
    """
    p = {"type": "number", "enum": PROBABILITIES}
    return _object({str(s): p for s in seats})


def _const_int(value: int) -> Schema:
    return {"type": "integer", "enum": [value]}


def _object(properties: dict[str, Schema], description: str | None = None) -> Schema:
    schema: Schema = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    if description:
        schema["description"] = description
    return schema


def _const(value: str) -> Schema:
    return {"type": "string", "enum": [value]}


def _nullable(schema: Schema, description: str | None = None) -> Schema:
    text = description if description is not None else schema.pop("description", None)
    out: Schema = {"anyOf": [schema, {"type": "null"}]}
    if text:
        out["description"] = text
    return out


def _describe(text: str) -> dict[str, str]:
    return {"description": text} if text else {}


def is_seat(annotation: Any) -> bool:
    """Whether a field holds a seat number (optional or not)."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    return annotation is int or args == [int]
