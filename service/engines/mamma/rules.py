"""Mamma's rules, one check per coded rule (its prose, quotes and messages in rules/mamma.yaml);
legal_moves filters through the same checks.
"""

from __future__ import annotations

from service.engines.base import (
    load_rules,
    reads,
    rule,
    load_scoring,
)
from service.engines.mamma.board import (
    BUS_NUMBERS,
    CHARACTERS,
    DECKS,
    DINNER_CARDS,
    DISCARD,
    ENDS_MOVEMENT,
    GAME,
    HAND_LIMIT,
    MOVE_KINDS,
    PHASE_MOVES,
    TRAFFIC,
    WALKABLE,
)
from service.engines.mamma.reading import (
    _memo,
    affordable_next_to,
    buyer,
    can_end_after,
    crossed_at,
    due_player,
    face,
    hospital_patient,
    in_dinner,
    kind,
    money_limit,
    mover,
    moving,
    mp_left,
    nearest_empty,
    next_to_landmark,
    older,
    placement_spots,
    placing_column,
    plain,
    price,
    purchase_due,
    reachable,
    read_as,
    least_payment,
    release_due,
    richest_others,
    space_of,
    standing_on,
    step_cost,
    stuck_on_occupied,
    takes_allowed,
    value,
    vertical,
    wc_buyer,
    wc_purchase_due,
)

# ---- the rules ---------------------------------------------------------------------------------


def moves(*kinds):
    """The move kinds a check can object to (a check without: every kind); legal_moves and check
    run only those, the rules' order kept."""
    def mark(check):
        check.kinds = kinds
        return check
    return mark


def _turn_move(state, move, *kinds):
    return state["phase"] in ("play", "dinner") and move["kind"] in kinds


@rule("mamma/game.over")
def check_game_over(state, move):
    if state["phase"] == "over":
        yield {}


@rule("mamma/turn.out-of-turn")
def check_out_of_turn(state, move):
    if move.get("player") is not None and state["phase"] != "over" and move["player"] != due_player(state):
        yield {"player": move["player"], "due": due_player(state)}


@rule("mamma/turn.not-now")
def check_not_now(state, move):
    if state["phase"] != "over" and move["kind"] not in PHASE_MOVES[state["phase"]]:
        yield {"kind": move["kind"], "expected": PHASE_MOVES[state["phase"]]}


@rule("mamma/wc.leave-first")
def check_leave_wc_first(state, move):
    if state["phase"] == "play" and state["turn_state"]["wc_exit_due"] and move["kind"] != "leave-wc":
        yield {"character": state["wc"]["occupant"]}


@rule("mamma/wc.not-due")
@moves("leave-wc")
def check_leave_wc_not_due(state, move):
    if _turn_move(state, move, "leave-wc") and not state["turn_state"]["wc_exit_due"]:
        yield {}


def _ends_movement(state, move) -> bool:
    """Whether the move ends the movement in progress (another piece's step, or most other moves; a
    card played ends a taxi's or bus's ride, wife.2 and grandma.1)."""
    if not moving(state) or state["phase"] not in ("play", "dinner"):
        return False
    if move["kind"] == "move":
        return move["piece"] != mover(state)
    if move["kind"] == "play":
        return moving(state)["ride"] is not None
    return move["kind"] in ENDS_MOVEMENT


@rule("mamma/wc.back-next-turn")
@moves("move", "taxi", "bus")
@reads("wc_return")
def check_back_next_turn(state, move):
    """wc_return after-sixth-turn: the character put back from the W.C. moves from the next turn on."""
    left = state["turn_state"].get("wc_left") if state["phase"] == "play" else None
    if left and read_as(state, "wc_return") == "after-sixth-turn":
        piece = move["piece"] if move["kind"] == "move" else "wife" if move["kind"] == "taxi" else "grandma"
        if piece == left["character"]:
            yield {"character": piece}


@rule("mamma/ingredients.must-buy")
@reads("must_buy", "wc_exit")
def check_must_buy(state, move):
    if purchase_due(state) and _ends_movement(state, move) and move["kind"] not in ("buy", "release"):
        yield {"character": mover(state), "ingredients": affordable_next_to(state, mover(state))}
    elif wc_purchase_due(state) and move["kind"] != "buy":  # wc_exit moved-and-stopped: it stopped there
        yield {"character": wc_buyer(state), "ingredients": affordable_next_to(state, wc_buyer(state))}


@rule("mamma/hospital.release-due")
def check_release_due(state, move):
    if release_due(state) and _ends_movement(state, move) and move["kind"] not in ("buy", "release"):
        yield {"character": hospital_patient(state)}


@rule("mamma/move.end-empty")
def check_end_empty(state, move):
    if stuck_on_occupied(state) and (_ends_movement(state, move) or move["kind"] in ("buy", "release")):
        yield {"piece": mover(state), "space": space_of(state, mover(state))}


@rule("mamma/move.nothing-moving")
@moves("stop")
def check_nothing_moving(state, move):
    if _turn_move(state, move, "stop") and not moving(state):
        yield {}


@rule("mamma/cards.after-money")
@moves("play", "move", "taxi", "bus", "discard")
def check_after_money(state, move):
    if (_turn_move(state, move, "play", "move", "taxi", "bus", "discard") and state["turn_state"]["money_placed"]):
        yield {}


def _hand(state):
    return state["players"][state["turn"]]["hand"]


def _cards_named(move) -> list[str]:
    if move["kind"] in ("play", "money", "taxi"):
        return [move["card"]]
    return list(move["cards"]) if move["kind"] == "discard" else []


@rule("mamma/cards.in-hand")
@moves("play", "money", "discard")
def check_in_hand(state, move):
    if _turn_move(state, move, "play", "money", "discard"):
        for cid in _cards_named(move):
            if cid not in _hand(state):
                yield {"card": cid}


@rule("mamma/cards.wrong-kind")
@moves("play", "money")
def check_card_kind(state, move):
    wanted = {"play": "movement", "money": "money"}.get(move["kind"])
    if wanted and _turn_move(state, move, "play", "money") and move["card"] in _hand(state) and kind(state, move["card"]) != wanted:
        yield {"card": move["card"], "wanted": wanted}


@rule("mamma/cards.deck-empty")
@moves("take", "end-turn")
def check_deck_empty(state, move):
    if state["phase"] == "draft" and move["kind"] == "take" and not state["decks"][move["deck"]]:
        yield {"deck": move["deck"]}
    if _turn_move(state, move, "end-turn"):
        for deck in DECKS:
            if move[deck] > len(state["decks"][deck]):
                yield {"deck": deck}


@rule("mamma/turn.discard-three")
@moves("discard", "play", "money")
def check_discard_three(state, move):
    t = state["turn_state"]
    # Three different cards: a card named twice is not discarded twice.
    cards = move["cards"] if move["kind"] == "discard" else []
    if _turn_move(state, move, "discard") and (len(cards) != DISCARD or len(set(cards)) != DISCARD or t["played"] or t["discarded"]):
        yield {"count": len(cards), "played": t["played"]}
    if _turn_move(state, move, "play", "money") and t["discarded"]:
        yield {"count": t["discarded"], "played": t["played"]}


@rule("mamma/dinner.three-cards")
@moves("play", "money", "discard")
def check_dinner_three_cards(state, move):
    if state["phase"] == "dinner" and move["kind"] in ("play", "money", "discard"):
        adding = len(set(move["cards"])) if move["kind"] == "discard" else 1
        t = state["turn_state"]
        if t["played"] + t["discarded"] + adding > DINNER_CARDS:
            yield {"count": t["played"] + t["discarded"] + adding}


@rule("mamma/grandma.bus-missed")
@moves("play", "money")
def check_bus_missed(state, move):
    if _turn_move(state, move, "play", "money") and state["turn_state"]["bus_missed"]:
        yield {}


@rule("mamma/turn.turn-over")
@moves("discard")
def check_turn_over(state, move):
    if _turn_move(state, move, "discard") and move["turn_over"] is not None:
        if not any(move["turn_over"] in vertical(state, c) for c in CHARACTERS):
            yield {"card": move["turn_over"]}


@rule("mamma/guests.once")
@moves("guests")
def check_guests_once(state, move):
    if move["kind"] == "guests" and state["phase"] in ("play", "dinner-guests"):
        if state["players"][state["turn"]]["guests_assigned"]:
            yield {"player": state["turn"]}


@rule("mamma/guests.none-left")
@moves("guests")
def check_guests_none_left(state, move):
    if move["kind"] == "guests" and state["phase"] in ("play", "dinner-guests") and not state["guests"]:
        yield {}


@rule("mamma/guests.has-one")
@moves("guests")
def check_guests_has_one(state, move):
    if move["kind"] == "guests" and state["phase"] in ("play", "dinner-guests"):
        if state["characters"][move["character"]]["guests"] is not None:
            yield {"character": move["character"]}


def _stepping(state, move):
    return _turn_move(state, move, "move")


@rule("mamma/move.bought")
@moves("move")
def check_frozen(state, move):
    if _stepping(state, move) and move["piece"] in state["turn_state"]["bought"]:
        yield {"character": move["piece"]}


@rule("mamma/move.out-of-play")
@moves("move")
def check_cannot_move(state, move):
    if _stepping(state, move) and state["pieces"][move["piece"]] in ("wc", "hospital", "seated", "off"):
        yield {"piece": move["piece"], "place": state["pieces"][move["piece"]]}


@rule("mamma/move.not-next")
@moves("move")
def check_not_next(state, move):
    if _stepping(state, move) and state["pieces"][move["piece"]] not in ("wc", "hospital", "seated", "off"):
        if move["to"] not in reachable(state, move["piece"]):
            yield {"piece": move["piece"], "to": move["to"]}


def _step_on_space(state, move) -> bool:
    return (_stepping(state, move) and move["to"] in state["board"]["spaces"]
            and move["to"] in reachable(state, move["piece"]))


@rule("mamma/move.streets")
@moves("move")
def check_walk_on_streets(state, move):
    if _step_on_space(state, move) and face(state, move["to"]) not in WALKABLE:
        yield {"to": move["to"], "card": face(state, move["to"])}


@rule("mamma/move.crossed-twice")
@moves("move")
def check_crossed_twice(state, move):
    m = moving(state)
    if _step_on_space(state, move) and m and m["piece"] == move["piece"] and move["to"] in m["crossed"]:
        yield {"to": move["to"]}


@rule("mamma/move.traffic")
@moves("move")
def check_traffic(state, move):
    if _step_on_space(state, move) and standing_on(state, move["to"], but=move["piece"]) in TRAFFIC:
        yield {"to": move["to"]}


@rule("mamma/move.mp")
@moves("move")
@reads("sideways_first_space")
def check_mp(state, move):
    if _stepping(state, move) and move["to"] in reachable(state, move["piece"]):
        cost = step_cost(state, move["piece"], state["pieces"][move["piece"]], move["to"])
        if cost > mp_left(state, move["piece"]):
            yield {"cost": cost, "mp": mp_left(state, move["piece"])}


@rule("mamma/move.no-way-on")
@moves("move")
@reads("sideways_first_space")
def check_no_way_on(state, move):
    if (_step_on_space(state, move) and face(state, move["to"]) in WALKABLE and not _runs_over(state, move)
            and standing_on(state, move["to"], but=move["piece"]) not in (None, *TRAFFIC)
            and not can_end_after(state, move["piece"], move["to"])):
        yield {"to": move["to"]}


@rule("mamma/bench.occupied")
@moves("move")
def check_bench_occupied(state, move):
    if _stepping(state, move) and move["to"] == "bench" and any(state["pieces"][c] == "bench" for c in CHARACTERS):
        yield {}


@rule("mamma/wc.closed")
@moves("move")
def check_wc_closed(state, move):
    if _stepping(state, move) and move["to"] == "wc" and in_dinner(state):
        yield {}


@rule("mamma/wc.occupied")
@moves("move")
def check_wc_occupied(state, move):
    if _stepping(state, move) and move["to"] == "wc" and state["wc"]["occupant"] is not None:
        yield {"character": state["wc"]["occupant"]}


@rule("mamma/wc.twice")
@moves("move")
def check_wc_twice(state, move):
    if _stepping(state, move) and move["to"] == "wc" and state["wc"]["last"] == move["piece"]:
        yield {"character": move["piece"]}


@rule("mamma/steal.nothing-crossed")
@moves("move")
def check_steal_nothing_crossed(state, move):
    if _stepping(state, move) and move["steal"] is not None:
        if move["piece"] not in CHARACTERS or crossed_at(state, move["piece"], move["to"]) is None:
            yield {}


@rule("mamma/steal.son")
@moves("move")
def check_steal_son(state, move):
    if _stepping(state, move) and move["steal"] is not None and move["piece"] == "son":
        yield {}


def _steal_victim(state, move):
    if _stepping(state, move) and move["steal"] is not None and move["piece"] in CHARACTERS and move["piece"] != "son":
        return crossed_at(state, move["piece"], move["to"])
    return None


@rule("mamma/steal.not-older")
@moves("move")
def check_steal_not_older(state, move):
    victim = _steal_victim(state, move)
    if victim and not older(state, victim, move["piece"]) and not (move["piece"] == "grandpa" and state["grandpa"]["child"]):
        yield {"character": move["piece"], "victim": victim}


@rule("mamma/steal.card")
@moves("move")
def check_steal_card(state, move):
    victim = _steal_victim(state, move)
    if victim and move["steal"] not in vertical(state, victim):
        yield {"card": move["steal"], "victim": victim}


@rule("mamma/grandpa.child-steal")
@moves("move")
def check_child_steal(state, move):
    victim = _steal_victim(state, move)
    if victim and move["piece"] == "grandpa" and state["grandpa"]["child"]:
        if state["grandpa"]["child_stole"] or state["cards"].get(move["steal"], {}).get("mother_in_law"):
            yield {"card": move["steal"]}


@rule("mamma/son.arcade")
@moves("move")
def check_arcade(state, move):
    if _stepping(state, move) and move["arcade"]:
        victim = crossed_at(state, move["piece"], move["to"]) if move["piece"] == "son" else None
        if victim is None or victim not in richest_others(state):
            yield {"victim": victim or "-"}


@rule("mamma/son.arcade-dinner")
@moves("move")
@reads("arcade_at_dinner")
def check_arcade_at_dinner(state, move):
    if _stepping(state, move) and move["arcade"] and state["phase"] == "dinner" and read_as(state, "arcade_at_dinner") == "closed":
        yield {}


def _runs_over(state, move) -> str | None:
    if _stepping(state, move) and move["piece"] == "schoolbus" and state["phase"] == "play":
        victim = crossed_at(state, "schoolbus", move["to"])
        return victim if victim in ("wife", "son") else None
    return None


@rule("mamma/schoolbus.lost-ingredients")
@moves("move")
def check_lost_ingredients(state, move):
    if not _stepping(state, move):
        return
    victim = _runs_over(state, move)
    if victim == "son":
        lost, held = set(move["lose"]), vertical(state, "son")
        if len(lost) != len(held) // 2 or not lost <= set(held) or len(lost) != len(move["lose"]):
            yield {"count": len(held) // 2}
    elif move["lose"]:
        yield {"count": 0}


def _exit_spaces(state, move) -> tuple[list[str] | None, str | None]:
    """Where the move's ``to`` (or ``release_to``) must be, and which field: None when it places nobody."""
    k = move["kind"]
    if k == "leave-wc" and state["turn_state"]["wc_exit_due"]:
        return nearest_empty(state, next_to_landmark(state, "wc")), move["to"]
    if k == "release" and release_due(state):
        return nearest_empty(state, next_to_landmark(state, "hospital")), move["to"]
    if k == "bus" and _bus_ok(state, move) and _bus_hits(state, move["number"]):
        return nearest_empty(state, next_to_landmark(state, _other_stop(state)), but="grandma"), move["to"]
    if k == "move" and _runs_over(state, move) and hospital_patient(state):
        preview = plain(state)
        preview["pieces"][_runs_over(state, move)] = "hospital"
        preview["pieces"]["schoolbus"] = move["to"]
        return nearest_empty(preview, next_to_landmark(preview, "hospital")), move["release_to"]
    return None, None


@rule("mamma/move.exit-space")
@moves("leave-wc", "release", "bus", "move")
def check_exit_space(state, move):
    if state["phase"] not in ("play", "dinner"):
        return
    allowed, given = _exit_spaces(state, move)
    if allowed is not None and given not in allowed:
        yield {"space": given or "-", "spaces": ", ".join(allowed)}
    if move["kind"] == "move" and allowed is None and move["release_to"] is not None:
        yield {"space": move["release_to"], "spaces": "-"}


@rule("mamma/ingredients.no-purchase")
@moves("buy")
@reads("must_buy", "wc_exit")
def check_no_purchase(state, move):
    if _turn_move(state, move, "buy") and _buying(state, move) is None:
        yield {"ingredient": move["ingredient"]}


def _buying(state, move) -> str | None:
    """Who buys the move's ingredient: the character that stopped next to it and can pay it."""
    who = buyer(state) if _turn_move(state, move, "buy") else None
    return who if who and move["ingredient"] in affordable_next_to(state, who) else None


@rule("mamma/ingredients.payment")
@moves("buy")
def check_payment(state, move):
    buyer = _buying(state, move)
    if buyer is None:
        return
    pay, held = move["pay"], state["characters"][buyer]["money"]
    total, cost = sum(value(state, m) for m in pay if m in held), price(state, buyer, move["ingredient"])
    if (len(set(pay)) != len(pay) or not set(pay) <= set(held) or total < cost
            or any(total - value(state, m) >= cost for m in pay)):
        yield {"cost": cost, "paid": total}


@rule("mamma/ingredients.placement")
@moves("buy")
def check_placement(state, move):
    buyer = _buying(state, move)
    if buyer is None:
        return
    spots = _placements(state, buyer, move["ingredient"])
    if (move["place"] is None) != (not spots) or (move["place"] is not None and move["place"] not in spots):
        yield {"space": move["place"] or "-", "spaces": ", ".join(spots) or "-"}


@rule("mamma/ingredients.least-surplus")
@moves("buy")
@reads("money_paid")
def check_least_surplus(state, move):
    who = _buying(state, move)
    if who is None or read_as(state, "money_paid") != "least-surplus":
        return
    pay, held = move["pay"], state["characters"][who]["money"]
    total, cost = sum(value(state, m) for m in pay if m in held), price(state, who, move["ingredient"])
    least = least_payment(state, who, cost)
    if set(pay) <= set(held) and least is not None and cost <= total and least < total:  # else the payment rule's
        yield {"cost": cost, "paid": total, "least": least, "character": who}


def take_ingredient(state, buyer, ingredient) -> str:
    """ingredients.7, ingredients.9: the card beside the buyer, a substitute card in its place."""
    space = next(s for s, cid in state["city"].items() if cid == ingredient)
    state["characters"][buyer]["ingredients"].append({"card": ingredient, "horizontal": False})
    if state["substitutes"]:
        state["city"][space] = state["substitutes"].pop(0)
    return space


def _placements(state, buyer, ingredient) -> list[str]:
    if not state["ingredient_row"]:
        return []

    def work():
        preview = plain(state)
        take_ingredient(preview, buyer, ingredient)
        return placement_spots(preview, space_of(preview, buyer))
    return _memo(state, ("placements", buyer, ingredient), work)


@rule("mamma/hospital.no-release")
@moves("release")
def check_no_release(state, move):
    if _turn_move(state, move, "release") and not release_due(state):
        yield {}


@rule("mamma/wife.taxi")
@moves("taxi")
def check_taxi(state, move):
    if _turn_move(state, move, "taxi"):
        wife = state["pieces"]["wife"]
        if (wife not in next_to_landmark(state, "taxi") or move["card"] not in state["characters"]["wife"]["money"]
                or "wife" in state["turn_state"]["bought"]):
            yield {"card": move["card"]}


def _other_stop(state) -> str:
    here = state["pieces"]["grandma"]
    return "bus-stop-2" if here in next_to_landmark(state, "bus-stop-1") else "bus-stop-1"


def _bus_ok(state, move) -> bool:
    here = state["pieces"]["grandma"]
    at_stop = any(here in next_to_landmark(state, stop) for stop in ("bus-stop-1", "bus-stop-2"))
    return (at_stop and not state["turn_state"]["bus_tried"] and move["number"] in BUS_NUMBERS
            and "grandma" not in state["turn_state"]["bought"])


def _bus_hits(state, number) -> bool:
    return bool(state["bus_deck"]) and state["cards"][state["bus_deck"][0]]["number"] == number


@rule("mamma/grandma.bus")
@moves("bus")
def check_bus(state, move):
    if _turn_move(state, move, "bus") and not _bus_ok(state, move):
        yield {"number": move["number"]}


def _placing_money(state, move):
    return _turn_move(state, move, "money") and move["card"] in _hand(state) and kind(state, move["card"]) == "money"


@rule("mamma/dinner.seated-no-money")
@moves("money")
def check_seated_no_money(state, move):
    if _placing_money(state, move) and state["pieces"][move["character"]] == "seated":
        yield {"character": move["character"]}


@rule("mamma/money.limit")
@moves("money")
def check_money_limit(state, move):
    if _placing_money(state, move) and move["replace"] is None:
        if len(state["characters"][move["character"]]["money"]) >= money_limit(state, move["character"]):
            yield {"character": move["character"], "limit": money_limit(state, move["character"])}


@rule("mamma/money.replace")
@moves("money")
def check_money_replace(state, move):
    if _placing_money(state, move) and move["replace"] is not None:
        held = state["characters"][move["character"]]["money"]
        if (len(held) < money_limit(state, move["character"]) or move["replace"] not in held
                or value(state, move["replace"]) >= value(state, move["card"])):
            yield {"card": move["replace"]}


@rule("mamma/turn.take")
@moves("end-turn")
def check_take(state, move):
    if _turn_move(state, move, "end-turn"):
        low, high = takes_allowed(state)
        taken = move["movement"] + move["money"]
        if not low <= taken <= high:
            yield {"taken": taken, "low": low, "high": high}


@rule("mamma/turn.hand-limit")
@moves("end-turn")
def check_hand_limit(state, move):
    if _turn_move(state, move, "end-turn") and len(_hand(state)) + move["movement"] + move["money"] > HAND_LIMIT:
        yield {"hand": len(_hand(state)) + move["movement"] + move["money"]}


@rule("mamma/dinner.place")
@moves("place")
def check_dinner_place(state, move):
    if state["phase"] == "dinner-placing" and move["kind"] == "place":
        if state["pieces"][move["character"]] != "off" or move["to"] not in placing_column(state):
            yield {"character": move["character"], "spaces": placing_column(state)}


@rule("mamma/dinner.last-two")
@moves("last-seats")
def check_last_two(state, move):
    if state["phase"] == "last-seats" and move["kind"] == "last-seats":
        left = sorted(c for c in CHARACTERS if state["pieces"][c] != "seated")
        if sorted(move["order"]) != left or len(move["order"]) != len(left):
            yield {"characters": list(left)}


SCORING = load_scoring(GAME)
RULES = load_rules(GAME, globals())  # each check's prose: rules/<game>.yaml, bound by @rule
RULES_FOR = {k: tuple(r for r in RULES if k in getattr(r.check, "kinds", MOVE_KINDS)) for k in MOVE_KINDS}
