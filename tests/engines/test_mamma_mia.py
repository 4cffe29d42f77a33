"""Mamma Mia!: the rules as a table of situations, the random states of the legal-moves property, and whole games."""

import copy
import random

import pytest
from hypothesis import strategies as st

from service.engines import InvalidMove, InvalidState, adjudicate, replay
from service.engines.mamma_mia.engine import MammaMia
from service.engines.mamma_mia.reading import INGREDIENTS, MAMMA_MIA, PER_INGREDIENT, SERVICES

ENGINE = MammaMia()


# ---- building situations --------------------------------------------------------------------


def counts(**n):
    return {k: n.get(k, 0) for k in INGREDIENTS}


def playing(hand=None, orders=None, players=3, ruleset="fr", seed=7, server=None, kitchen=None):
    """A state in the play phase where player 0 is to play and holds exactly ``hand`` (and the
    given orders); cards move between the kitchen and hands so that every card stays counted."""
    state = ENGINE.setup(players, seed, {"ruleset": ruleset})
    state["turn"] = 0
    me = state["players"][0]
    # Everyone's ingredients go back to the kitchen, then each hand is dealt what the test says.
    for p in state["players"]:
        for k, n in p["hand"]["ingredients"].items():
            state["kitchen"].extend([k] * n)
            p["hand"]["ingredients"][k] = 0
    if state["mamma_mia_holder"] is not None:
        state["mamma_mia_holder"] = None
        state["kitchen"].append(MAMMA_MIA)
    for k, n in (hand or {}).items():
        for _ in range(n):
            state["kitchen"].remove(k)
        me["hand"]["ingredients"][k] = n
    if orders is not None:
        mine = me["hand"]["orders"] + me["server_pile"]
        me["hand"]["orders"], me["server_pile"] = mine[:orders], mine[orders:]
    if server is not None:
        extra = me["server_pile"][server:]
        me["server_pile"] = me["server_pile"][:server]
        for oid in extra:  # kept out of the way: served in an earlier service
            me["completed"].append(oid)
    if kitchen is not None:  # keep only this many ingredient cards in the kitchen (plus the card)
        spare = [c for c in state["kitchen"] if c != MAMMA_MIA]
        keep, rest = spare[:kitchen], spare[kitchen:]
        state["kitchen"] = keep + [MAMMA_MIA]
        for k in rest:
            state["table"][k] += 1
    ENGINE.validate(state)
    return state


def opening(kind="classic", table=None, hand=None, ruleset="fr", recipe=None, pictured="olive", players=3):
    """A state in the oven phase: an order of player 0 of the given kind was just revealed."""
    state = ENGINE.setup(players, 11, {"ruleset": ruleset})
    me = state["players"][0]
    colour = me["colour"]
    order_id = next(oid for oid, c in state["orders"].items() if c["colour"] == colour and c["kind"] == kind)
    card = state["orders"][order_id]
    if kind == "classic" and recipe:
        card["recipe"] = recipe
    if kind in ("minimale", "monotoni"):
        card["ingredient"] = pictured
    for place in (me["hand"]["orders"], me["server_pile"]):
        if order_id in place:
            place.remove(order_id)
    # All ingredients to the used pile, the Mamma Mia! card set aside by player 1: the kitchen is empty.
    for p in state["players"]:
        for k in INGREDIENTS:
            state["consumed"][k] += p["hand"]["ingredients"][k]
            p["hand"]["ingredients"][k] = 0
    for c in state["kitchen"]:
        if c != MAMMA_MIA:
            state["consumed"][c] += 1
    state["kitchen"] = []
    state["mamma_mia_holder"] = 1
    for where, wanted in (("table", table or {}), ("hand", hand or {})):
        for k, n in wanted.items():
            state["consumed"][k] -= n
            if where == "table":
                state["table"][k] += n
            else:
                me["hand"]["ingredients"][k] += n
    state["phase"] = "oven"
    state["opening"] = {"order": order_id}
    ENGINE.validate(state)
    return state, order_id


def codes(state, move, lang="en"):
    return [v.code for v in ENGINE.check(state, move, lang)]


def turn(ingredients, orders=(), draw=None, **extra):
    return {"kind": "turn", "ingredients": ingredients, "orders": list(orders), "draw": draw or {}, **extra}


# ---- the rules, situation by situation --------------------------------------------------------

ORDER = "green-1"  # player 0's colour is green; setup puts orders in the hand and server pile


def _turn_cases():
    hand = {"salami": 3, "olive": 2}  # 5 ingredients + 1 order = 6 cards
    return [
        ("three identical salami, refill from the kitchen", dict(hand=hand, orders=1), turn({"salami": 3}, draw={"kitchen": 4}), []),
        ("salami and olives together", dict(hand=hand, orders=1), turn({"salami": 1, "olive": 1}, draw={"kitchen": 3}), ["mamma-mia/turn.same-kind"]),
        ("more salami than in hand", dict(hand=hand, orders=1), turn({"salami": 4}, draw={"kitchen": 5}), ["mamma-mia/turn.ingredients-in-hand"]),
        ("no ingredient while holding some", dict(hand=hand, orders=1), turn({}, draw={"kitchen": 1}), ["mamma-mia/turn.ingredient-required"]),
        ("an order on top of the ingredients", dict(hand=hand, orders=2), "ORDER_ON_TOP", []),
        ("two orders in one turn", dict(hand=hand, orders=2), "TWO_ORDERS", ["mamma-mia/turn.one-order"]),
        ("an order that is not in the hand", dict(hand=hand, orders=1), turn({"salami": 1}, ["green-8"], draw={"kitchen": 3}), ["mamma-mia/turn.order-in-hand"]),
        ("an order without ingredients", dict(hand=hand, orders=1), "ORDER_ALONE", ["mamma-mia/turn.ingredient-required", "mamma-mia/turn.order-after-ingredients"]),
        ("passing while holding ingredients", dict(hand=hand, orders=1), {"kind": "pass", "draw": {"kitchen": 1}}, ["mamma-mia/pass.holding-ingredients"]),
        ("passing with no ingredient, refilling from the server pile", dict(hand={}, orders=1), {"kind": "pass", "draw": {"server_pile": 6}}, []),
        ("passing with an order", dict(hand={}, orders=2), "PASS_WITH_ORDER", ["mamma-mia/pass.no-order"]),
        ("refilling from both piles", dict(hand=hand, orders=1), turn({"olive": 2}, draw={"kitchen": 2, "server_pile": 1}), ["mamma-mia/refill.one-pile"]),
        ("drawing one card too many", dict(hand=hand, orders=1), turn({"olive": 2}, draw={"kitchen": 4}), ["mamma-mia/refill.to-seven"]),
        ("not refilling at all", dict(hand=hand, orders=1), turn({"olive": 2}), ["mamma-mia/refill.to-seven"]),
        ("a short server pile: fewer than 7 cards", dict(hand=hand, orders=1, server=1), turn({"olive": 2}, draw={"server_pile": 1}), []),
        ("a short server pile, but drawing more than it holds", dict(hand=hand, orders=1, server=1), turn({"olive": 2}, draw={"server_pile": 3}), ["mamma-mia/refill.to-seven"]),
        ("out of turn", dict(hand=hand, orders=1), turn({"salami": 3}, draw={"kitchen": 4}, player=2), ["mamma-mia/turn.out-of-turn"]),
        ("judging an order before the oven is opened", dict(hand=hand, orders=1), {"kind": "fail", "order": ORDER}, ["mamma-mia/phase.playing"]),
    ]


@pytest.mark.parametrize("situation, setup, move, expected", _turn_cases(), ids=[c[0] for c in _turn_cases()])
def test_a_turn(situation, setup, move, expected):
    state = playing(**setup)
    hand_orders = state["players"][0]["hand"]["orders"]
    if move == "ORDER_ON_TOP":
        move = turn({"salami": 2}, hand_orders[:1], draw={"kitchen": 3})
    elif move == "TWO_ORDERS":
        move = turn({"salami": 2}, hand_orders[:2], draw={"kitchen": 4})
    elif move == "ORDER_ALONE":
        move = turn({}, hand_orders[:1], draw={"kitchen": 2})
    elif move == "PASS_WITH_ORDER":
        move = {"kind": "pass", "orders": hand_orders[:1], "draw": {"server_pile": 6}}
    assert codes(state, move) == expected


def test_every_breach_is_reported_not_just_the_first():
    state = playing(hand={"salami": 1, "olive": 1}, orders=2)
    two = state["players"][0]["hand"]["orders"][:2]
    move = turn({"salami": 2, "olive": 1}, two, draw={"kitchen": 1, "server_pile": 1})
    assert codes(state, move) == [
        "mamma-mia/turn.same-kind",
        "mamma-mia/turn.ingredients-in-hand",
        "mamma-mia/turn.one-order",
        "mamma-mia/refill.one-pile",
    ]


def test_a_message_names_the_situation_in_the_askers_language():
    state = playing(hand={"salami": 3, "olive": 2}, orders=1)
    move = turn({"salami": 1, "olive": 1}, draw={"kitchen": 3})
    messages = {lang: ENGINE.check(state, move, lang)[0].message for lang in ("en", "fr", "de", "zh")}
    assert messages["en"].startswith("You played 1 salami and 1 olives")
    assert messages["fr"].startswith("Vous avez posé 1 salami et 1 olives")
    assert messages["de"].startswith("Du hast 1 Salami und 1 Oliven gelegt")
    assert messages["zh"].startswith("你打出了 1 香腸和1 橄欖")


def test_a_refill_left_out_names_what_the_kitchen_really_holds():
    """No draw at all, when the hand needs 3: the message gives the kitchen's own count."""
    from service.engines.mamma_mia.reading import kitchen_ingredients

    state = playing(hand={"salami": 3, "olive": 2}, orders=1)
    violations = ENGINE.check(state, turn({"olive": 2}), "en")
    assert [v.code for v in violations] == ["mamma-mia/refill.to-seven"]
    assert violations[0].message.startswith(
        f"You drew 0 from the kitchen, which has {kitchen_ingredients(state)}; you needed 3")
    assert kitchen_ingredients(state) > 3


def test_drawing_0_from_a_pile_when_the_hand_needs_no_card_is_the_listed_pass():
    """Naming a pile and 0 cards, with seven cards in hand, is no draw: the same move as the pass
    legal_moves lists (a random contract test once found them told apart). With cards to draw, 0
    from the kitchen stays a refusal of its own."""
    state = playing(hand={}, orders=7)
    listed = [ENGINE.canonical(state, m) for m in ENGINE.legal_moves(state)]
    for pile in ("kitchen", "server_pile"):
        move = {"kind": "pass", "orders": [], "draw": {pile: 0}}
        assert ENGINE.check(state, move) == []
        assert ENGINE.canonical(state, move) in listed
    short = playing(hand={"salami": 3, "olive": 2}, orders=1)
    assert ENGINE.canonical(short, turn({"olive": 2}, draw={"kitchen": 0}))["draw"] == {"kitchen": 0}
    assert [v.code for v in ENGINE.check(short, turn({"olive": 2}, draw={"kitchen": 0}))] == ["mamma-mia/refill.to-seven"]


def test_drawing_the_mamma_mia_card_sets_it_aside_and_draws_again():
    state = playing(hand={"salami": 3, "olive": 2}, orders=1)
    state["kitchen"].remove(MAMMA_MIA)
    state["kitchen"].insert(1, MAMMA_MIA)
    after = ENGINE.apply(state, turn({"salami": 3}, draw={"kitchen": 4}))
    assert after["mamma_mia_holder"] == 0
    assert sum(after["players"][0]["hand"]["ingredients"].values()) == 6  # 2 olives + 4 drawn
    assert MAMMA_MIA not in after["kitchen"]


def test_taking_the_kitchens_last_card_ends_the_service_and_leftovers_stay_on_the_table():
    state = playing(hand={"salami": 3, "olive": 2}, orders=1, kitchen=2)
    state["kitchen"].remove(MAMMA_MIA)
    state["mamma_mia_holder"] = 2  # player 2 drew the card this service: the Oya
    move = turn({"salami": 3}, draw={"kitchen": 2})  # 4 are needed, the kitchen has 2
    assert codes(state, move) == []
    after = ENGINE.apply(state, move)
    # The oven held only the three salami: revealed, nothing to judge, the service is over.
    assert after["service"] == 2 and after["phase"] == "play"
    assert after["turn"] == 2  # the previous chef starts the next service
    assert after["table"]["salami"] >= 3  # what is left on the table serves again
    assert after["kitchen"] == [MAMMA_MIA]  # nothing was used: the new kitchen is the card alone


def test_a_player_short_of_seven_takes_the_mamma_mia_card_after_the_last_ingredient():
    """fr.turn.2: « Celui qui pioche la carte « Mamma Mia ! » la pose devant lui et repioche. Il
    devient l'Oya » and « Le service s'arrête dès que quelqu'un prend la dernière carte »."""
    state = playing(hand={"salami": 3, "olive": 2}, orders=1, kitchen=1)
    assert state["kitchen"][1:] == [MAMMA_MIA]  # one ingredient, then the card
    move = turn({"salami": 2}, draw={"kitchen": 1})  # 3 are needed, one ingredient is left
    assert codes(state, move) == []
    after = ENGINE.apply(state, move)
    # The player drew the ingredient, then the card (set aside: they are the Oya), then nothing:
    # the service ended, the oven (two salami, no order) was revealed, and the Oya starts again.
    assert after["service"] == 2
    assert after["turn"] == 0
    assert after["kitchen"] == [MAMMA_MIA]


def test_a_player_with_seven_cards_leaves_the_mamma_mia_card_on_top():
    state = playing(hand={"salami": 4, "olive": 2}, orders=1, kitchen=1)
    move = turn({"salami": 1}, draw={"kitchen": 1})  # back to seven with the last ingredient
    after = ENGINE.apply(state, move)
    assert after["kitchen"] == [MAMMA_MIA] and after["mamma_mia_holder"] is None
    assert after["phase"] == "play" and after["turn"] == 1


def test_turns_during_the_opening_are_refused():
    state, order_id = opening(table={"salami": 4, "pepper": 1}, recipe={"salami": 4, "pepper": 1})
    assert codes(state, turn({"salami": 1})) == ["mamma-mia/phase.opening"]


def _oven_cases():
    classic = {"salami": 4, "pepper": 1}
    return [
        ("a classic order on a full table", dict(table={"salami": 4, "pepper": 1}, recipe=classic), {"kind": "serve"}, []),
        ("a classic order sent back although the table has it all", dict(table={"salami": 4, "pepper": 1}, recipe=classic), {"kind": "fail"}, ["mamma-mia/oven.must-serve"]),
        ("a classic order completed from the owner's hand", dict(table={"salami": 3, "pepper": 1}, hand={"salami": 1}, recipe=classic), {"kind": "serve", "from_hand": {"salami": 1}}, []),
        ("a classic order short of one salami", dict(table={"salami": 3, "pepper": 1}, recipe=classic), {"kind": "serve"}, ["mamma-mia/oven.missing-ingredients"]),
        ("a classic order that cannot be completed goes back", dict(table={"salami": 3, "pepper": 1}, recipe=classic), {"kind": "fail"}, []),
        ("giving from the hand what the table has", dict(table={"salami": 4, "pepper": 1}, hand={"salami": 1}, recipe=classic), {"kind": "serve", "from_hand": {"salami": 1}}, ["mamma-mia/oven.hand-only-what-is-missing"]),
        ("giving from the hand what the hand lacks", dict(table={"salami": 3, "pepper": 1}, recipe=classic), {"kind": "serve", "from_hand": {"salami": 1}}, ["mamma-mia/oven.hand-ingredients"]),
        ("an ingredient named for a classic order", dict(table={"salami": 4, "pepper": 1}, recipe=classic), {"kind": "serve", "ingredient": "olive"}, ["mamma-mia/oven.ingredient-choice"]),
        ("another order than the one revealed", dict(table={"salami": 4, "pepper": 1}, recipe=classic), {"kind": "serve", "order": "red-1"}, ["mamma-mia/oven.wrong-order"]),
        ("someone else decides for the owner", dict(table={"salami": 3, "pepper": 1}, recipe=classic), {"kind": "fail", "player": 2}, ["mamma-mia/oven.not-owner"]),
        ("Bombastica with 15 on the table", dict(kind="bombastica", table={"salami": 5, "olive": 5, "pepper": 5}), {"kind": "serve"}, []),
        ("Bombastica with 14 and one from the hand", dict(kind="bombastica", table={"salami": 5, "olive": 5, "pepper": 4}, hand={"mushroom": 1}), {"kind": "serve", "from_hand": {"mushroom": 1}}, []),
        ("Bombastica with 14", dict(kind="bombastica", table={"salami": 5, "olive": 5, "pepper": 4}), {"kind": "serve"}, ["mamma-mia/oven.bombastica-fifteen"]),
        ("Monotoni: 6 olives and its mushroom", dict(kind="monotoni", pictured="mushroom", table={"mushroom": 1, "olive": 6}), {"kind": "serve", "ingredient": "olive"}, []),
        ("Monotoni: 7 of its own ingredient", dict(kind="monotoni", pictured="mushroom", table={"mushroom": 7}), {"kind": "serve", "ingredient": "mushroom"}, ["mamma-mia/oven.monotoni-other"]),
        ("Monotoni without naming the other ingredient", dict(kind="monotoni", pictured="mushroom", table={"mushroom": 1, "olive": 6}), {"kind": "serve"}, ["mamma-mia/oven.ingredient-choice"]),
        ("Minimale with the fewest ingredient", dict(kind="minimale", pictured="olive", table={"olive": 1, "salami": 3, "pepper": 5}), {"kind": "serve", "ingredient": "salami"}, []),
        ("Minimale with an ingredient that is not the fewest", dict(kind="minimale", pictured="olive", table={"olive": 1, "salami": 3, "pepper": 5}), {"kind": "serve", "ingredient": "pepper"}, ["mamma-mia/oven.minimale-fewest"]),
        ("Minimale with an ingredient absent from the table", dict(kind="minimale", pictured="olive", table={"olive": 1, "salami": 3, "pepper": 5}, hand={"mushroom": 3}), {"kind": "serve", "ingredient": "mushroom", "from_hand": {"mushroom": 3}}, ["mamma-mia/oven.minimale-fewest"]),
    ]


@pytest.mark.parametrize("situation, setup, move, expected", _oven_cases(), ids=[c[0] for c in _oven_cases()])
def test_opening_the_oven(situation, setup, move, expected):
    state, order_id = opening(**setup)
    move = {"order": order_id, **move}
    assert codes(state, move) == expected


@pytest.mark.parametrize("ruleset, choice, expected", [
    # The card's own olive is the fewest on the table (1); salami has 2, pepper 5.
    ("fr", "salami", []),  # fr leaves the card's ingredient out: salami is the fewest of the others
    ("zh", "salami", ["mamma-mia/oven.minimale-fewest"]),  # zh compares it too: olive (1) is fewer
    ("zh", "olive", []),  # Referee's reading of zh: the fewest may be the card's own ingredient
    ("fr", "olive", ["mamma-mia/oven.minimale-fewest"]),
])
def test_minimale_depends_on_the_ruleset_and_says_so(ruleset, choice, expected):
    state, order_id = opening(kind="minimale", pictured="olive", ruleset=ruleset,
                              table={"olive": 5, "salami": 2, "pepper": 5}, hand={})
    state["table"]["olive"] = 1
    state["consumed"]["olive"] += 4
    move = {"kind": "serve", "order": order_id, "ingredient": choice,
            "from_hand": {}}
    need = {"olive": 1 + (3 if choice == "olive" else 0), choice: 3} if choice != "olive" else {"olive": 4}
    short = {k: max(0, n - state["table"][k]) for k, n in need.items()}
    for k, n in short.items():  # give the owner what the table lacks, so only the choice is judged
        state["consumed"][k] -= n
        state["players"][0]["hand"]["ingredients"][k] += n
        if n:
            move["from_hand"][k] = n
    violations = ENGINE.check(state, move)
    assert [v.code for v in violations] == expected
    if violations:
        assert violations[0].disagreement == "minimale-fewest"
        assert {c["lang"] for c in violations[0].citations} == {"fr", "zh"}


def test_a_completed_order_is_kept_and_its_ingredients_leave_the_table():
    state, order_id = opening(table={"salami": 5, "pepper": 1}, recipe={"salami": 4, "pepper": 1})
    after = ENGINE.apply(state, {"kind": "serve", "order": order_id})
    assert order_id in after["players"][0]["completed"]


def test_a_failed_order_goes_under_its_owners_server_pile():
    state, order_id = opening(table={"salami": 3, "pepper": 1}, recipe={"salami": 4, "pepper": 1})
    state["oven"] = [{"ingredient": "olive", "count": 1, "player": 1}]
    state["consumed"]["olive"] -= 1
    after = ENGINE.apply(state, {"kind": "fail", "order": order_id})
    assert after["players"][0]["server_pile"][-1] == order_id
    assert after["table"]["salami"] == 3  # nothing removed


def test_bombastica_takes_everything_on_the_table():
    state, order_id = opening(kind="bombastica", table={"salami": 8, "olive": 6, "pepper": 4})
    state["oven"] = [{"ingredient": "olive", "count": 1, "player": 1}]
    state["consumed"]["olive"] -= 1
    after = ENGINE.apply(state, {"kind": "serve", "order": order_id})
    assert after["table"] == {"salami": 0, "pineapple": 0, "mushroom": 0, "pepper": 0, "olive": 1}


def test_the_oven_reveals_in_the_order_played_so_a_late_ingredient_does_not_count():
    state = playing(hand={"salami": 3, "olive": 2}, orders=1, kitchen=1)
    state["kitchen"] = ["pepper"]
    state["mamma_mia_holder"] = 1
    state["table"]["pepper"] -= 1
    order_id = state["players"][0]["hand"]["orders"][0]
    state["orders"][order_id]["recipe"] = {"salami": 3}
    # Player 0 plays two salami and the order, then takes the last card: the oven opens.
    after = ENGINE.apply(state, turn({"salami": 2}, [order_id], draw={"kitchen": 1}))
    assert after["phase"] == "oven" and after["opening"]["order"] == order_id
    assert after["table"]["salami"] >= 2
    assert codes(after, {"kind": "serve", "order": order_id}) in ([], ["mamma-mia/oven.missing-ingredients"])


# ---- invalid states are refused, naming the field -------------------------------------------


def _draw_orders(player, n):
    player["hand"]["orders"] += player["server_pile"][:n]
    player["server_pile"] = player["server_pile"][n:]


# States the game cannot reach, each with the field the refusal names: tests/engines/test_contract.py
# breaks a new game (3 players, seed 5) each way and expects InvalidState naming that field.
IMPOSSIBLE_SETUP = (3, 5)
IMPOSSIBLE = [
    (lambda s: s["players"][0]["hand"]["ingredients"].__setitem__("salami", s["players"][0]["hand"]["ingredients"]["salami"] + 1), "ingredients.salami"),
    (lambda s: s["players"][1]["hand"]["orders"].append(s["players"][0]["server_pile"][0]), "players[1].hand.orders[1]"),
    (lambda s: s["players"][0].__setitem__("colour", "orange"), "players[0].colour"),
    (lambda s: s["orders"]["green-1"].__setitem__("colour", "orange"), "orders.green-1.colour"),
    (lambda s: s["orders"]["green-1"].__setitem__("recipe", {"anchovy": 2}), "orders.green-1.recipe"),
    (lambda s: s["players"][0]["server_pile"].pop(), "orders.green-"),
    (lambda s: s["kitchen"].append(MAMMA_MIA), "kitchen"),
    (lambda s: s.__setitem__("turn", 5), "turn"),
    (lambda s: s.__setitem__("service", 4), "service"),
    (lambda s: s["removed"].__setitem__("olive", 0), "removed.olive"),
    (lambda s: _draw_orders(s["players"][0], 7), "players[0].hand"),
    (lambda s: s.__setitem__("phase", "dessert"), "phase"),
]


def test_a_move_of_an_unknown_kind_or_naming_unknown_things_is_invalid():
    state = ENGINE.setup(3, 5, {})
    for move, field in [
        ({"kind": "castle"}, "kind"),
        ({"kind": "turn", "ingredients": {"anchovy": 1}}, "ingredients.anchovy"),
        ({"kind": "turn", "ingredients": {"salami": -1}}, "ingredients.salami"),
        ({"kind": "turn", "ingredients": {"salami": 1}, "orders": ["nope"]}, "orders[0]"),
        ({"kind": "turn", "ingredients": {"salami": 1}, "draw": {"fridge": 1}}, "draw"),
        ({"kind": "serve", "order": "nope"}, "order"),
        ({"kind": "turn", "player": 9, "ingredients": {"salami": 1}}, "player"),
    ]:
        with pytest.raises(InvalidMove) as error:
            ENGINE.check(state, move)
        assert error.value.field == field


# ---- setup --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, removed", [(2, 5), (3, 3), (4, 1), (5, 0)])
def test_setup_removes_ingredients_by_player_count_and_deals_six(players, removed):
    for ruleset in ("fr", "zh"):
        state = ENGINE.setup(players, 3, {"ruleset": ruleset})
        assert state["removed"] == {k: removed for k in INGREDIENTS}
        for p in state["players"]:
            assert sum(p["hand"]["ingredients"].values()) == 6
            assert len(p["hand"]["orders"]) == 1 and len(p["server_pile"]) == 7


def test_setup_is_deterministic_from_the_seed():
    assert ENGINE.setup(4, 99, {}) == ENGINE.setup(4, 99, {})
    assert ENGINE.setup(4, 99, {}) != ENGINE.setup(4, 100, {})


def test_fr_setup_shuffles_the_mamma_mia_card_into_the_kitchen_after_dealing():
    for seed in range(30):
        state = ENGINE.setup(5, seed, {"ruleset": "fr"})
        assert state["mamma_mia_holder"] is None and MAMMA_MIA in state["kitchen"]


def test_zh_setup_can_deal_the_mamma_mia_card_which_is_revealed_and_replaced():
    dealt = [ENGINE.setup(5, seed, {"ruleset": "zh"}) for seed in range(60)]
    holders = [s for s in dealt if s["mamma_mia_holder"] is not None]
    assert holders, "in 60 deals the card is dealt at least once"
    for state in holders:
        assert MAMMA_MIA not in state["kitchen"]
        assert sum(state["players"][state["mamma_mia_holder"]]["hand"]["ingredients"].values()) == 6


def test_setup_labels_its_default_deck_and_accepts_the_tables_own():
    state = ENGINE.setup(2, 1, {})
    assert "not the publisher" in state["deck"]
    deck = copy.deepcopy(state["orders"])
    deck["green-1"]["recipe"] = {"olive": 5}
    own = ENGINE.setup(2, 1, {"orders": deck})
    assert own["orders"]["green-1"]["recipe"] == {"olive": 5} and "deck" not in own


@pytest.mark.parametrize("players, options, field", [
    (1, {}, "players"), (6, {}, "players"), (3, {"ruleset": "de"}, "options.ruleset"),
    (3, {"first_player": 3}, "options.first_player"), (3, {"colours": ["green", "red"]}, "options.colours"),
    (3, {"first_playr": 2}, "options.first_playr"),  # misspelt: not silently ignored
])
def test_setup_refuses_impossible_options(players, options, field):
    with pytest.raises(InvalidState) as error:
        ENGINE.setup(players, 1, options)
    assert error.value.field == field


# ---- whole games --------------------------------------------------------------------------------


def play_out(players, seed, ruleset):
    state = ENGINE.setup(players, seed, {"ruleset": ruleset})
    rng = random.Random(seed)
    services_seen = {1}
    for _ in range(10_000):
        moves = ENGINE.legal_moves(state)
        if not moves:
            return state, services_seen
        state = ENGINE.apply(state, rng.choice(moves))
        ENGINE.validate(state)  # every card still accounted for exactly once
        services_seen.add(state["service"])
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("ruleset", ["fr", "zh"])
def test_random_games_end_after_three_services_with_every_card_kept(players, ruleset):
    for seed in range(2):
        state, services = play_out(players, seed, ruleset)
        assert state["phase"] == "over" and services == {1, 2, 3} and state["service"] == SERVICES
        result = ENGINE.result(state)
        best = result["standings"][0]
        assert result["winners"] and best["player"] in result["winners"]
        completed = sum(len(p["completed"]) for p in state["players"])
        assert completed == sum(r["completed"] for r in result["standings"])
        total = sum(sum(p["hand"]["ingredients"].values()) for p in state["players"])
        total += sum(c != MAMMA_MIA for c in state["kitchen"]) + sum(state["table"].values()) + sum(state["removed"].values())
        assert total == PER_INGREDIENT * len(INGREDIENTS)


def test_the_winner_has_most_orders_and_ties_go_to_ingredients_in_hand():
    state, _ = play_out(3, 4, "fr")
    state["players"][0]["completed"], state["players"][1]["completed"] = state["players"][1]["completed"], state["players"][0]["completed"]
    result = ENGINE.result(state)
    counts_ = [(r["completed"], r["ingredients_in_hand"]) for r in result["standings"]]
    assert counts_ == sorted(counts_, reverse=True)


# ---- legal moves and check agree ------------------------------------------------------------------


def random_states():
    """States met in seeded random games, in both phases."""
    out = []
    for seed in range(3):
        for ruleset in ("fr", "zh"):
            state = ENGINE.setup(2 + seed, seed, {"ruleset": ruleset})
            rng = random.Random(seed)
            while ENGINE.legal_moves(state):
                if rng.random() < 0.15 or state["phase"] == "oven":
                    out.append(state)
                state = ENGINE.apply(state, rng.choice(ENGINE.legal_moves(state)))
    return out


STATES = random_states()


@st.composite
def state_and_move(draw):
    state = draw(st.sampled_from(STATES))
    me = state["players"][state["turn"]]
    kinds = st.sampled_from(INGREDIENTS)
    small = st.integers(min_value=0, max_value=4)
    order_ids = st.sampled_from(sorted(state["orders"]))
    if state["phase"] == "oven" and draw(st.booleans()):
        current = state["opening"]["order"]
        order = draw(st.one_of(st.just(current), order_ids))
        if draw(st.booleans()):
            return state, {"kind": "fail", "order": order}
        return state, {
            "kind": "serve", "order": order,
            "ingredient": draw(st.one_of(st.none(), kinds)),
            "from_hand": draw(st.dictionaries(kinds, small, max_size=3)),
        }
    kind = draw(st.sampled_from(["turn", "turn", "pass"]))
    own_orders = me["hand"]["orders"]
    orders = draw(st.lists(st.one_of(st.sampled_from(own_orders), order_ids) if own_orders else order_ids, max_size=2))
    pile = draw(st.sampled_from([{}, {"kitchen": None}, {"server_pile": None}, {"kitchen": None, "server_pile": None}]))
    draws = {k: draw(st.integers(min_value=0, max_value=7)) for k in pile}
    move = {"kind": kind, "orders": orders, "draw": draws}
    if kind == "turn":
        move["ingredients"] = draw(st.dictionaries(kinds, st.integers(min_value=0, max_value=4), max_size=2))
    return state, move


LEGALITY_EXAMPLES = 600  # tests/engines/test_contract.py draws this many (state, move) pairs from state_and_move


def test_legal_moves_from_a_new_game_are_all_legal_and_cover_passing_only_when_allowed():
    state = ENGINE.setup(3, 1, {})
    moves = ENGINE.legal_moves(state)
    assert moves and all(not ENGINE.check(state, m) for m in moves)
    assert not any(m["kind"] == "pass" for m in moves)  # everyone holds ingredients


# ---- codes and citations ------------------------------------------------------------------------


def test_moves_after_the_end_are_refused():
    state, _ = play_out(2, 1, "fr")
    assert [v.code for v in ENGINE.check(state, turn({"salami": 1}))] == ["mamma-mia/game.over"]
    assert ENGINE.legal_moves(state) == []


# ---- adjudicate and replay ------------------------------------------------------------------------


def test_adjudicate_returns_the_state_after_a_legal_move():
    state = playing(hand={"salami": 3, "olive": 2}, orders=1)
    verdict = adjudicate(ENGINE, state, turn({"salami": 3}, draw={"kitchen": 4}))
    assert verdict["legal"] and verdict["state"]["players"][0]["hand"]["ingredients"]["salami"] >= 0
    assert verdict["state"]["turn"] == 1


def test_replay_finds_the_first_illegal_move_and_the_state_before_it():
    state = ENGINE.setup(3, 2, {})
    rng = random.Random(2)
    moves, s = [], state
    for _ in range(5):
        move = rng.choice(ENGINE.legal_moves(s))
        moves.append(move)
        s = ENGINE.apply(s, move)
    bad = {"kind": "pass", "draw": {}}  # the player holds ingredients
    report = replay(ENGINE, state, moves + [bad] + moves[:1])
    assert not report["legal"] and report["checked"] == 6
    assert report["first_illegal"]["index"] == 5
    assert report["first_illegal"]["state_before"] == s
    assert "mamma-mia/pass.holding-ingredients" in [v["code"] for v in report["first_illegal"]["verdict"]["violations"]]
    assert replay(ENGINE, state, moves)["legal"]
