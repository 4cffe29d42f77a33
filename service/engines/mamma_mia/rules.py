"""Mamma Mia!'s rules, one check per coded rule (its prose, quotes and messages in rules/mamma-
mia.yaml); legal_moves filters through the same checks.
"""

from __future__ import annotations

from collections import Counter

from service.engines.base import (
    load_rules,
    rule,
    load_scoring,
    nothing,
)
from service.engines.mamma_mia.reading import (
    BOMBASTICA_MINIMUM,
    GAME,
    HAND_SIZE,
    hand_size,
    ingredient,
    ingredient_list,
    kitchen_ingredients,
    minimale_choices,
    missing_from_table,
    owner,
    pile,
    requirement,
    table_serves,
    table_total,
)

# ---- the rules -------------------------------------------------------------------------------
# Each check yields the values of its message once per breach. Checks assume the move's shape
# and names are valid (parse_move guarantees it) and look only at the phase they belong to.


def _playing(state, move):
    return state["phase"] == "play" and move["kind"] in ("turn", "pass")


def _opening(state, move):
    return state["phase"] == "oven" and move["kind"] in ("serve", "fail")


def _hand_after(state, move) -> int:
    player = state["players"][state["turn"]]
    played = sum(move.get("ingredients", {}).values()) + len(move.get("orders", []))
    return hand_size(player) - played


@rule("mamma-mia/game.over")
def check_game_over(state, move):
    if state["phase"] == "over":
        yield {}


@rule("mamma-mia/phase.opening")
def check_phase_opening(state, move):
    if state["phase"] == "oven" and move["kind"] in ("turn", "pass"):
        yield {}


@rule("mamma-mia/phase.playing")
def check_phase_playing(state, move):
    if state["phase"] == "play" and move["kind"] in ("serve", "fail"):
        yield {}


@rule("mamma-mia/turn.out-of-turn")
def check_out_of_turn(state, move):
    if _playing(state, move) and move.get("player") is not None and move["player"] != state["turn"]:
        yield {"player": move["player"], "turn": state["turn"]}


@rule("mamma-mia/turn.ingredient-required")
def check_ingredient_required(state, move):
    if _playing(state, move) and move["kind"] == "turn" and not sum(move["ingredients"].values()):
        held = sum(state["players"][state["turn"]]["hand"]["ingredients"].values())
        yield {"held": held}


@rule("mamma-mia/turn.same-kind")
def check_same_kind(state, move):
    if _playing(state, move) and move["kind"] == "turn":
        played = {k: n for k, n in move["ingredients"].items() if n}
        if len(played) > 1:
            yield {"played": ingredient_list(played)}


@rule("mamma-mia/turn.ingredients-in-hand")
def check_ingredients_in_hand(state, move):
    if _playing(state, move) and move["kind"] == "turn":
        hand = state["players"][state["turn"]]["hand"]["ingredients"]
        for kind, n in move["ingredients"].items():
            if n > hand[kind]:
                yield {"played": ingredient_list({kind: n}), "held": hand[kind]}


@rule("mamma-mia/turn.one-order")
def check_one_order(state, move):
    if _playing(state, move) and move["kind"] == "turn" and len(move["orders"]) > 1:
        yield {"count": len(move["orders"])}


@rule("mamma-mia/turn.order-in-hand")
def check_order_in_hand(state, move):
    if _playing(state, move):
        hand = state["players"][state["turn"]]["hand"]["orders"]
        for order_id in move["orders"]:
            if order_id not in hand:
                yield {"order": order_id}


@rule("mamma-mia/turn.order-after-ingredients")
def check_order_after_ingredients(state, move):
    if _playing(state, move) and move["kind"] == "turn" and move["orders"] and not sum(move["ingredients"].values()):
        yield {}


@rule("mamma-mia/pass.holding-ingredients")
def check_pass_holding_ingredients(state, move):
    if _playing(state, move) and move["kind"] == "pass":
        held = sum(state["players"][state["turn"]]["hand"]["ingredients"].values())
        if held:
            yield {"held": held}


@rule("mamma-mia/pass.no-order")
def check_pass_no_order(state, move):
    if _playing(state, move) and move["kind"] == "pass" and move["orders"]:
        yield {}


@rule("mamma-mia/refill.one-pile")
def check_refill_one_pile(state, move):
    if _playing(state, move) and len(move["draw"]) > 1:
        yield {}


@rule("mamma-mia/refill.to-seven")
def check_refill_to_seven(state, move):
    if not _playing(state, move) or len(move["draw"]) > 1:
        return
    needed = max(0, HAND_SIZE - _hand_after(state, move))
    player = state["players"][state["turn"]]
    if not move["draw"]:
        if needed:
            yield {"needed": needed, "drawn": 0, "source": pile("kitchen"), "available": kitchen_ingredients(state)}
        return
    (source, drawn), = move["draw"].items()
    available = kitchen_ingredients(state) if source == "kitchen" else len(player["server_pile"])
    if drawn != min(needed, available):  # drawing 0 when none are needed is no draw at all
        yield {"needed": needed, "drawn": drawn, "source": pile(source), "available": available}


def _current(state, move):
    return state["opening"]["order"] if state.get("opening") else None


@rule("mamma-mia/oven.wrong-order")
def check_oven_wrong_order(state, move):
    if _opening(state, move) and move["order"] != _current(state, move):
        yield {"order": move["order"], "current": _current(state, move)}


@rule("mamma-mia/oven.not-owner")
def check_oven_not_owner(state, move):
    if _opening(state, move) and move.get("player") is not None:
        expected = owner(state, _current(state, move))
        if move["player"] != expected:
            yield {"player": move["player"], "owner": expected}


def _serving(state, move):
    return _opening(state, move) and move["kind"] == "serve" and move["order"] == _current(state, move)


@rule("mamma-mia/oven.ingredient-choice")
def check_ingredient_choice(state, move):
    if _serving(state, move):
        card = state["orders"][move["order"]]
        chooses = card["kind"] in ("minimale", "monotoni")
        if chooses and move["ingredient"] is None:
            yield {"pizza": card["kind"].capitalize(), "needs": True}
        elif not chooses and move["ingredient"] is not None:
            yield {"pizza": card["kind"].capitalize(), "needs": False}


@rule("mamma-mia/oven.monotoni-other")
def check_monotoni_other(state, move):
    if _serving(state, move):
        card = state["orders"][move["order"]]
        if card["kind"] == "monotoni" and move["ingredient"] == card["ingredient"]:
            yield {"ingredient": ingredient(card["ingredient"])}


@rule("mamma-mia/oven.minimale-fewest")
def check_minimale_fewest(state, move):
    if _serving(state, move):
        card = state["orders"][move["order"]]
        if card["kind"] == "minimale" and move["ingredient"] is not None:
            allowed = minimale_choices(state, card)
            if move["ingredient"] not in allowed:
                yield {
                    "ingredient": ingredient(move["ingredient"]),
                    "allowed": ingredient_list({k: 1 for k in sorted(allowed)}) if allowed else nothing,
                    "ruleset": state["ruleset"],
                }


@rule("mamma-mia/oven.hand-ingredients")
def check_hand_ingredients(state, move):
    if _serving(state, move):
        hand = state["players"][owner(state, move["order"])]["hand"]["ingredients"]
        for kind, n in move["from_hand"].items():
            if n > hand[kind]:
                yield {"given": ingredient_list({kind: n}), "held": hand[kind]}


def _valid_choice(state, move) -> bool:
    card = state["orders"][move["order"]]
    if card["kind"] == "minimale":
        return move["ingredient"] in minimale_choices(state, card)
    if card["kind"] == "monotoni":
        return move["ingredient"] is not None and move["ingredient"] != card["ingredient"]
    return move["ingredient"] is None


@rule("mamma-mia/oven.missing-ingredients")
def check_missing_ingredients(state, move):
    if _serving(state, move) and _valid_choice(state, move):
        card = state["orders"][move["order"]]
        if card["kind"] != "bombastica":
            short = missing_from_table(state, requirement(card, move["ingredient"])) - Counter(move["from_hand"])
            if short:
                yield {"missing": ingredient_list(dict(short))}


@rule("mamma-mia/oven.bombastica-fifteen")
def check_bombastica_fifteen(state, move):
    if _serving(state, move):
        card = state["orders"][move["order"]]
        total = table_total(state) + sum(move["from_hand"].values())
        if card["kind"] == "bombastica" and total < BOMBASTICA_MINIMUM:
            yield {"total": total}


@rule("mamma-mia/oven.hand-only-what-is-missing")
def check_hand_only_what_is_missing(state, move):
    if _serving(state, move) and _valid_choice(state, move) and move["from_hand"]:
        card = state["orders"][move["order"]]
        given = Counter(move["from_hand"])
        if card["kind"] == "bombastica":
            room = max(0, BOMBASTICA_MINIMUM - table_total(state))
            if sum(given.values()) > room:
                yield {"given": ingredient_list(dict(given))}
        else:
            extra = given - missing_from_table(state, requirement(card, move["ingredient"]))
            if extra:
                yield {"given": ingredient_list(dict(extra))}


@rule("mamma-mia/oven.must-serve")
def check_must_serve(state, move):
    if _opening(state, move) and move["kind"] == "fail" and move["order"] == _current(state, move):
        if table_serves(state, state["orders"][move["order"]]):
            yield {}


SCORING = load_scoring(GAME)  # who wins: rules/mamma-mia.yaml, "scoring"
RULES = load_rules(GAME, globals())  # each check's prose: rules/<game>.yaml, bound by @rule
