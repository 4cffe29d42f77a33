"""The Mamma Mia! engine: a move read against the state, checked by the rules, and applied; set-up,
legal moves and scores.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import combinations_with_replacement

from indexer.corpus import player_counts
from service.engines.base import (
    BaseEngine,
    InvalidMove,
    InvalidState,
    is_player,
    is_whole,
    move_head,
    rank_rows,
    ranked,
    starting_player,
)
from service.engines.mamma_mia.reading import (
    BOMBASTICA_MINIMUM,
    CLASSIC_ORDERS,
    COLOURS,
    DEALT_INGREDIENTS,
    GAME,
    HAND_SIZE,
    INGREDIENTS,
    MAMMA_MIA,
    MOVE_KINDS,
    ORDER_KINDS,
    ORDERS_PER_PLAYER,
    PER_INGREDIENT,
    PHASES,
    PILES,
    REMOVED_PER_INGREDIENT,
    RULESETS,
    SERVICES,
    SPECIAL_KINDS,
    empty_counts,
    hand_size,
    kitchen_ingredients,
    missing_from_table,
    owner,
    requirement,
    table_total,
)
from service.engines.mamma_mia.rules import RULES, SCORING, _hand_after

# ---- moves -----------------------------------------------------------------------------------


def _counts(value, path: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidMove(path, "must map ingredient names to counts")
    out = {}
    for kind, n in value.items():
        if kind not in INGREDIENTS:
            raise InvalidMove(f"{path}.{kind}", f"unknown ingredient; one of {', '.join(INGREDIENTS)}")
        if not is_whole(n, 0):
            raise InvalidMove(f"{path}.{kind}", "must be a whole number, 0 or more")
        if n:
            out[kind] = n
    return out


def parse_move(state: dict, move: dict) -> dict:
    """The move in its canonical form; InvalidMove for an unknown kind or unknown names."""
    out = move_head(state, move, MOVE_KINDS)
    kind = out["kind"]
    if kind in ("turn", "pass"):
        if kind == "turn":
            out["ingredients"] = _counts(move.get("ingredients"), "ingredients")
        elif move.get("ingredients"):
            raise InvalidMove("ingredients", "a pass plays no ingredient: use a turn")
        orders = move.get("orders") or []
        if not isinstance(orders, list):
            raise InvalidMove("orders", "must be a list of order ids")
        for i, order_id in enumerate(orders):
            if order_id not in state["orders"]:
                raise InvalidMove(f"orders[{i}]", f"no order {order_id!r} in this game")
        out["orders"] = list(orders)
        draw = move.get("draw") or {}
        if not isinstance(draw, dict) or any(k not in PILES for k in draw):
            raise InvalidMove("draw", "must map kitchen and/or server_pile to the number of cards drawn")
        for k, n in draw.items():
            if not is_whole(n, 0):
                raise InvalidMove(f"draw.{k}", "must be a whole number, 0 or more")
        out["draw"] = dict(draw)
        if _hand_after(state, out) >= HAND_SIZE:  # a hand that needs no card: drawing 0 is no draw
            out["draw"] = {k: n for k, n in draw.items() if n}
    else:
        order_id = move.get("order")
        if order_id not in state["orders"]:
            raise InvalidMove("order", f"no order {order_id!r} in this game")
        out["order"] = order_id
        if kind == "serve":
            choice = move.get("ingredient")
            if choice is not None and choice not in INGREDIENTS:
                raise InvalidMove("ingredient", f"unknown ingredient; one of {', '.join(INGREDIENTS)}")
            out["ingredient"] = choice
            out["from_hand"] = _counts(move.get("from_hand"), "from_hand")
    return out


# ---- the engine ------------------------------------------------------------------------------


def _rng(state_seed: int, purpose: str) -> random.Random:
    return random.Random(f"mamma-mia:{state_seed}:{purpose}")


def default_orders(colours) -> dict:
    """Referee's own order deck, NOT the publisher's: the classic recipes are not in the texts.

    Per colour: 5 classic orders of 5 ingredients, one Bombastica, a Minimale and a Monotoni
    whose pictured ingredient changes from colour to colour.
    """
    shapes = ((4, 1), (3, 2), (3, 1, 1), (2, 2, 1), (2, 1, 1, 1))
    deck = {}
    for c, colour in enumerate(colours):
        for i, shape in enumerate(shapes):
            kinds = [INGREDIENTS[(c + i + j) % len(INGREDIENTS)] for j in range(len(shape))]
            deck[f"{colour}-{i + 1}"] = {"colour": colour, "kind": "classic", "recipe": dict(zip(kinds, shape))}
        deck[f"{colour}-6"] = {"colour": colour, "kind": "bombastica"}
        deck[f"{colour}-7"] = {"colour": colour, "kind": "minimale", "ingredient": INGREDIENTS[c % 5]}
        deck[f"{colour}-8"] = {"colour": colour, "kind": "monotoni", "ingredient": INGREDIENTS[(c + 2) % 5]}
    return deck


DEFAULT_DECK_LABEL = "Referee's default order deck: the classic recipes are Referee's, not the publisher's."


class MammaMia(BaseEngine):
    game = GAME
    rules = RULES
    rulesets = RULESETS  # where the French and Chinese texts disagree, the table picks one ("fr" default)
    players = player_counts(GAME)  # corpus/games.yaml, with the reasoning where the rulebook is silent
    setup_options = {
        "ruleset": "fr (the default) or zh: which text decides where the two rulebooks disagree.",
        "first_player": "The player index who starts (0 when absent).",
        "colours": "One order colour per player (green, red, blue, yellow, purple).",
        "orders": "The table's own order deck (order id -> colour, kind, recipe); Referee's default deck otherwise.",
    }

    # -- set-up --------------------------------------------------------------------------------

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        """A new game: ingredients removed by player count, 6 dealt, the first order drawn."""
        options, ruleset = self.setup_options_read(players, options)
        colours = list(options.get("colours") or COLOURS[:players])
        if len(colours) != players:
            raise InvalidState("options.colours", f"one colour per player ({players})")
        first = starting_player(options, "first_player", players)
        orders = options.get("orders") or default_orders(colours)
        rng = _rng(seed, "setup")
        removed = {k: REMOVED_PER_INGREDIENT[players] for k in INGREDIENTS}
        pool = [k for k in INGREDIENTS for _ in range(PER_INGREDIENT - removed[k])]
        hands = [empty_counts() for _ in range(players)]
        holder = None
        if ruleset == "fr":  # fr.setup.1: deal 6, then shuffle the rest with the Mamma Mia! card
            rng.shuffle(pool)
            for _ in range(DEALT_INGREDIENTS):
                for p in range(players):
                    hands[p][pool.pop()] += 1
            kitchen = pool + [MAMMA_MIA]
            rng.shuffle(kitchen)
        else:  # zh.setup.3: shuffle the card in first; whoever is dealt it reveals it and draws again
            pool.append(MAMMA_MIA)
            rng.shuffle(pool)
            for _ in range(DEALT_INGREDIENTS):
                for p in range(players):
                    card = pool.pop()
                    if card == MAMMA_MIA:
                        holder = p
                        card = pool.pop()
                    hands[p][card] += 1
            kitchen = pool
        state_players = []
        for p, colour in enumerate(colours):
            own = [oid for oid, card in orders.items() if card.get("colour") == colour]
            rng.shuffle(own)
            state_players.append({
                "colour": colour,
                "hand": {"ingredients": hands[p], "orders": own[:1]},
                "server_pile": own[1:],
                "completed": [],
            })
        state = {
            "game": GAME,
            "ruleset": ruleset,
            "seed": seed,
            "service": 1,
            "phase": "play",
            "turn": first,
            "players": state_players,
            "orders": orders,
            "kitchen": list(reversed(kitchen)),  # top first
            "oven": [],
            "table": empty_counts(),
            "consumed": empty_counts(),
            "removed": removed,
            "mamma_mia_holder": holder,
            "opening": None,
        }
        if not options.get("orders"):
            state["deck"] = DEFAULT_DECK_LABEL
        self.validate(state)
        return state

    # -- invariants ----------------------------------------------------------------------------

    def prepared(self, state: dict) -> dict:
        return self.complete(state)

    @staticmethod
    def complete(state: dict) -> dict:
        """A copy of the state with every ingredient count present (clients may leave out zeros)."""
        state = copy.deepcopy(state)
        counts = [state["table"], state["consumed"], state["removed"]]
        counts += [p["hand"]["ingredients"] for p in state["players"]]
        for c in counts:
            for k in INGREDIENTS:
                c.setdefault(k, 0)
        state.setdefault("game", GAME)
        return state

    def validate(self, state: dict) -> None:
        """Raise InvalidState for a state the game cannot reach."""
        if state.get("game", GAME) != GAME:
            raise InvalidState("game", f"this is a {GAME} state, not {state.get('game')!r}")
        state = self.complete(state)
        players = state["players"]
        n = self.validate_players(state)
        if state["ruleset"] not in RULESETS:
            raise InvalidState("ruleset", f"one of {', '.join(RULESETS)}")
        if state["phase"] not in PHASES:
            raise InvalidState("phase", f"one of {', '.join(PHASES)}")
        if not 1 <= state["service"] <= SERVICES:
            raise InvalidState("service", f"services are numbered 1 to {SERVICES}")
        if not is_player(state["turn"], n):
            raise InvalidState("turn", f"a player index from 0 to {n - 1}")
        colours = [p["colour"] for p in players]
        for i, colour in enumerate(colours):
            if colour not in COLOURS:
                raise InvalidState(f"players[{i}].colour", f"unknown colour {colour!r}; one of {', '.join(COLOURS)}")
            if colours.index(colour) != i:
                raise InvalidState(f"players[{i}].colour", f"{colour} is already player {colours.index(colour)}'s")
        self._validate_orders(state, colours)
        self._validate_ingredients(state, n)
        self._validate_places(state)
        for i, p in enumerate(players):
            if hand_size(p) > HAND_SIZE:
                raise InvalidState(f"players[{i}].hand", f"{hand_size(p)} cards: a hand never holds more than {HAND_SIZE}")
        holder = state["mamma_mia_holder"]
        in_kitchen = state["kitchen"].count(MAMMA_MIA)
        if holder is not None and not is_player(holder, n):
            raise InvalidState("mamma_mia_holder", f"a player index from 0 to {n - 1}, or null")
        if in_kitchen + (holder is not None) != 1:
            raise InvalidState("kitchen", "the one Mamma Mia! card must be either in the kitchen or set aside by one player")
        self._validate_phase(state)

    def _validate_orders(self, state, colours) -> None:
        per_colour = Counter()
        for oid, card in state["orders"].items():
            where = f"orders.{oid}"
            if card.get("colour") not in colours:
                raise InvalidState(f"{where}.colour", f"{card.get('colour')!r} is no player's colour")
            if card.get("kind") not in ORDER_KINDS:
                raise InvalidState(f"{where}.kind", f"one of {', '.join(ORDER_KINDS)}")
            if card["kind"] == "classic":
                recipe = card.get("recipe") or {}
                if not recipe or any(k not in INGREDIENTS or not isinstance(v, int) or v < 1 for k, v in recipe.items()):
                    raise InvalidState(f"{where}.recipe", "a classic order names known ingredients, each 1 or more times")
            elif card["kind"] in ("minimale", "monotoni") and card.get("ingredient") not in INGREDIENTS:
                raise InvalidState(f"{where}.ingredient", f"the pictured ingredient, one of {', '.join(INGREDIENTS)}")
            per_colour[(card["colour"], card["kind"])] += 1
        for colour in colours:
            total = sum(n for (c, _), n in per_colour.items() if c == colour)
            if total != ORDERS_PER_PLAYER:
                raise InvalidState("orders", f"{colour} has {total} orders; every colour has {ORDERS_PER_PLAYER}")
            if per_colour[(colour, "classic")] != CLASSIC_ORDERS or any(per_colour[(colour, k)] != 1 for k in SPECIAL_KINDS):
                raise InvalidState("orders", f"{colour}: {CLASSIC_ORDERS} classic orders and one Bombastica, Minimale and Monotoni")

    def _validate_ingredients(self, state, n) -> None:
        for where in ("table", "consumed", "removed"):
            for k, v in state[where].items():
                if k not in INGREDIENTS or not isinstance(v, int) or v < 0:
                    raise InvalidState(f"{where}.{k}", "known ingredients, counted 0 or more")
        for k in INGREDIENTS:
            if state["removed"].get(k, 0) != REMOVED_PER_INGREDIENT[n]:
                raise InvalidState(f"removed.{k}", f"with {n} players, {REMOVED_PER_INGREDIENT[n]} of each ingredient are out of the game")
        seen = Counter()
        for i, p in enumerate(state["players"]):
            for k, v in p["hand"]["ingredients"].items():
                if k not in INGREDIENTS or not isinstance(v, int) or v < 0:
                    raise InvalidState(f"players[{i}].hand.ingredients.{k}", "known ingredients, counted 0 or more")
                seen[k] += v
        for j, card in enumerate(state["kitchen"]):
            if card != MAMMA_MIA and card not in INGREDIENTS:
                raise InvalidState(f"kitchen[{j}]", f"unknown card {card!r}")
            if card != MAMMA_MIA:
                seen[card] += 1
        for j, entry in enumerate(state["oven"]):
            if "ingredient" in entry:
                if entry["ingredient"] not in INGREDIENTS or not isinstance(entry.get("count"), int) or entry["count"] < 1:
                    raise InvalidState(f"oven[{j}]", "an ingredient entry names a known ingredient and a count of 1 or more")
                seen[entry["ingredient"]] += entry["count"]
        for where in ("table", "consumed", "removed"):
            seen.update(state[where])
        for k in INGREDIENTS:
            if seen[k] != PER_INGREDIENT:
                raise InvalidState(f"ingredients.{k}", f"{seen[k]} {k} cards are accounted for; the game has {PER_INGREDIENT}")

    def _validate_places(self, state) -> None:
        places: dict[str, str] = {}

        def put(order_id, where, colour=None):
            if order_id not in state["orders"]:
                raise InvalidState(where, f"no order card {order_id!r} in orders")
            if order_id in places:
                raise InvalidState(where, f"order {order_id} is also at {places[order_id]}")
            if colour is not None and state["orders"][order_id]["colour"] != colour:
                raise InvalidState(where, f"order {order_id} is {state['orders'][order_id]['colour']}, not {colour}")
            places[order_id] = where

        for i, p in enumerate(state["players"]):
            for j, oid in enumerate(p["hand"]["orders"]):
                put(oid, f"players[{i}].hand.orders[{j}]", p["colour"])
            for j, oid in enumerate(p["server_pile"]):
                put(oid, f"players[{i}].server_pile[{j}]", p["colour"])
            for j, oid in enumerate(p["completed"]):
                put(oid, f"players[{i}].completed[{j}]", p["colour"])
        for j, entry in enumerate(state["oven"]):
            if "order" in entry:
                put(entry["order"], f"oven[{j}]")
            elif "ingredient" not in entry:
                raise InvalidState(f"oven[{j}]", "an oven entry is an ingredient group or an order")
        if state.get("opening") and state["opening"].get("order") is not None:
            put(state["opening"]["order"], "opening.order")
        for oid in state["orders"]:
            if oid not in places:
                raise InvalidState(f"orders.{oid}", "this order card is nowhere: not in a hand, server pile, the oven or completed")

    def _validate_phase(self, state) -> None:
        phase, opening = state["phase"], state.get("opening")
        if phase == "play":
            if opening is not None:
                raise InvalidState("opening", "the oven is opened only after the service")
            if not state["kitchen"]:
                raise InvalidState("kitchen", "an empty kitchen ends the service: the phase would be oven")
            if any(state["consumed"].values()):
                raise InvalidState("consumed", "used ingredients are shuffled into the kitchen at the end of each opening")
        elif phase == "oven":
            if state["kitchen"]:
                raise InvalidState("kitchen", "the oven is opened once the kitchen is empty")
            if state["mamma_mia_holder"] is None:
                raise InvalidState("mamma_mia_holder", "the oven is opened by the player who drew the Mamma Mia! card")
            if not isinstance(opening, dict) or opening.get("order") is None:
                raise InvalidState("opening.order", "while the oven is opened, the order revealed last awaits its owner")
        elif opening is not None or state["oven"]:
            raise InvalidState("opening", "a finished game has no oven to open")

    # -- moves ---------------------------------------------------------------------------------

    def _apply_pass(self, state, move) -> None:
        self._apply_turn(state, move)  # a pass is a turn that plays no ingredient (fr.faq-rules)

    def _apply_turn(self, state, move) -> None:
        p = state["turn"]
        player = state["players"][p]
        for k, n in move.get("ingredients", {}).items():
            player["hand"]["ingredients"][k] -= n
            state["oven"].append({"ingredient": k, "count": n, "player": p})
        for oid in move["orders"]:
            player["hand"]["orders"].remove(oid)
            state["oven"].append({"order": oid, "player": p})
        for source, count in move["draw"].items():
            if source == "server_pile":
                taken, player["server_pile"] = player["server_pile"][:count], player["server_pile"][count:]
                player["hand"]["orders"].extend(taken)
            else:
                # fr.turn.2: the Mamma Mia! card is set aside and its drawer draws again, so a
                # player still short of seven takes it even after the last ingredient (and then
                # finds the kitchen empty: the service ends with them as the Oya).
                short = max(0, HAND_SIZE - hand_size(player))
                drawn = 0
                while state["kitchen"] and (drawn < count or state["kitchen"][0] == MAMMA_MIA and drawn < short):
                    card = state["kitchen"].pop(0)
                    if card == MAMMA_MIA:  # fr.turn.2: set it aside, draw again; its drawer is the Oya
                        state["mamma_mia_holder"] = p
                        continue
                    player["hand"]["ingredients"][card] += 1
                    drawn += 1
        state["turn"] = (p + 1) % len(state["players"])
        if not state["kitchen"]:  # fr.turn.2: the service stops with the kitchen's last card
            state["phase"] = "oven"
            state["opening"] = {"order": None}
            self._reveal(state)

    def _reveal(self, state) -> None:
        """fr.oven.1: the oven turned over, its cards are revealed in the order they were played
        (the oven list is bottom first), ingredients sorted onto the table, until an order is up;
        when the oven is empty the service ends."""
        while state["oven"]:
            entry = state["oven"].pop(0)
            if "ingredient" in entry:
                state["table"][entry["ingredient"]] += entry["count"]
            else:
                state["opening"]["order"] = entry["order"]
                return
        self._end_service(state)

    def _apply_serve(self, state, move) -> None:
        card = state["orders"][move["order"]]
        p = owner(state, move["order"])
        player = state["players"][p]
        for k, n in move["from_hand"].items():
            player["hand"]["ingredients"][k] -= n
            state["consumed"][k] += n
        if card["kind"] == "bombastica":  # fr.special-pizzas.2: it takes everything on the table
            for k in INGREDIENTS:
                state["consumed"][k] += state["table"][k]
                state["table"][k] = 0
        else:
            for k, n in (requirement(card, move["ingredient"]) - Counter(move["from_hand"])).items():
                state["table"][k] -= n
                state["consumed"][k] += n
        player["completed"].append(move["order"])
        self._next_in_oven(state, move["order"])

    def _apply_fail(self, state, move) -> None:
        p = owner(state, move["order"])
        state["players"][p]["server_pile"].append(move["order"])  # face down, under the pile
        self._next_in_oven(state, move["order"])

    def _next_in_oven(self, state, order_id) -> None:
        state["opening"]["order"] = None
        self._reveal(state)

    def _end_service(self, state) -> None:
        """zh.oven.6: the used ingredients and the Mamma Mia! card are shuffled into the new
        kitchen; what is left on the table stays; the previous chef starts the next service."""
        oya = state["mamma_mia_holder"]
        kitchen = [k for k in INGREDIENTS for _ in range(state["consumed"][k])] + [MAMMA_MIA]
        _rng(state["seed"], f"kitchen-{state['service']}").shuffle(kitchen)
        state["consumed"] = empty_counts()
        state["oven"] = []
        state["opening"] = None
        state["mamma_mia_holder"] = None
        if state["service"] == SERVICES:
            state["phase"] = "over"
            state["kitchen"] = kitchen
            state["mamma_mia_holder"] = None
        else:
            state["service"] += 1
            state["phase"] = "play"
            state["kitchen"] = kitchen
            state["turn"] = oya

    def examples(self) -> list[tuple[str, str, dict, dict]]:
        """A worked example per move kind, on states from a seeded game: (name, summary, state, move)."""
        start = self.setup(2, 1, {})
        rng = random.Random(1)
        state, serve = start, None
        while serve is None:  # a seeded random game, until a revealed order can be served
            moves = self.legal_moves(state)
            if not moves:
                state, moves = start, self.legal_moves(start)
            serve = next((m for m in moves if m["kind"] == "serve"), None)
            if serve is None:
                state = self.apply(state, rng.choice(moves))
        revealed = state["opening"]["order"]
        return [
            ("turn", "A legal turn: ingredients of one kind, then refill to 7", start, self.legal_moves(start)[0]),
            ("turn-illegal", "An illegal turn: salami and olives together", start,
             {"kind": "turn", "ingredients": {"salami": 1, "olive": 1}, "orders": [], "draw": {"kitchen": 2}}),
            ("pass", "A pass, refused: the player still holds ingredients", start, {"kind": "pass", "draw": {}}),
            ("serve", "The owner of the order just revealed completes it", state, serve),
            ("fail", "The owner sends the revealed order back under their server pile", state, {"kind": "fail", "order": revealed}),
        ]

    # -- legal moves and the result --------------------------------------------------------------

    def parse_move(self, state: dict, move: dict) -> dict:
        return parse_move(state, move)

    def candidates(self, state: dict) -> list[dict]:
        """Every move worth considering; legal_moves keeps those no rule objects to."""
        if state["phase"] == "play":
            return self._turn_candidates(state)
        if state["phase"] == "oven":
            return self._oven_candidates(state)
        return []

    def _draws(self, state, hand_after: int) -> list[dict]:
        needed = max(0, HAND_SIZE - hand_after)
        if not needed:
            return [{}]
        player = state["players"][state["turn"]]
        return [
            {"kitchen": min(needed, kitchen_ingredients(state))},
            {"server_pile": min(needed, len(player["server_pile"]))},
        ]

    def _turn_candidates(self, state) -> list[dict]:
        player = state["players"][state["turn"]]
        hand = player["hand"]
        out = []
        for k, held in hand["ingredients"].items():
            for n in range(1, held + 1):
                for orders in [[]] + [[oid] for oid in hand["orders"]]:
                    for draw in self._draws(state, hand_size(player) - n - len(orders)):
                        out.append({"kind": "turn", "ingredients": {k: n}, "orders": orders, "draw": draw})
        for draw in self._draws(state, hand_size(player)):
            out.append({"kind": "pass", "orders": [], "draw": draw})
        return out

    def _oven_candidates(self, state) -> list[dict]:
        oid = state["opening"]["order"]
        card = state["orders"][oid]
        hand = state["players"][owner(state, oid)]["hand"]["ingredients"]
        out = [{"kind": "fail", "order": oid}]
        if card["kind"] == "bombastica":
            room = max(0, BOMBASTICA_MINIMUM - table_total(state))
            held = [k for k in INGREDIENTS for _ in range(hand[k])]
            # sorted: a set's order follows string hashing, which differs from process to process
            gifts = sorted({tuple(sorted(c)) for c in combinations_with_replacement(sorted(set(held)), room)}) if room else [()]
            for gift in gifts:
                out.append({"kind": "serve", "order": oid, "ingredient": None, "from_hand": dict(Counter(gift))})
            return out
        choices = [None] if card["kind"] == "classic" else list(INGREDIENTS)
        for choice in choices:
            missing = dict(missing_from_table(state, requirement(card, choice)))
            out.append({"kind": "serve", "order": oid, "ingredient": choice, "from_hand": missing})
        return out

    def standings(self, state: dict, lang: str) -> dict:
        """Completed orders (fr.oven.2, zh.end.1), then ingredients in hand where they tie."""
        rows = []
        for i, player in enumerate(state["players"]):
            completed, held = standing(player)
            rows.append({"player": i, "colour": player["colour"], "total": completed, "key": (completed, held),
                         "lines": [SCORING["completed-orders"].line(lang, completed),
                                   SCORING["ingredients-in-hand"].line(lang, held)]})
        tie_break = SCORING["tie"].line(lang) if tied_on_orders(rows) else None
        return ranked(rows, state["phase"] == "over", tie_break=tie_break)

    def result(self, state: dict) -> dict | None:
        """After the third service: most completed orders wins; ties go to most ingredients in hand."""
        if state["phase"] != "over":
            return None
        state = self.complete(state)
        rows = [
            {"player": i, "colour": p["colour"], "completed": completed, "ingredients_in_hand": held, "key": (completed, held)}
            for i, p in enumerate(state["players"]) for completed, held in [standing(p)]
        ]
        rows = rank_rows(rows, key=lambda r: r["key"])
        winners = [r["player"] for r in rows if r["rank"] == 1]
        return {
            "standings": [{k: v for k, v in r.items() if k != "key"} for r in rows],
            "winners": winners,
            "tie_break": "ingredients in hand" if tied_on_orders(rows) else None,
            "shared": len(winners) > 1,
        }

def standing(player: dict) -> tuple[int, int]:
    """What decides the winner (fr.oven.2, zh.end.1): completed orders, then ingredients in hand."""
    return len(player["completed"]), sum(player["hand"]["ingredients"].values())


def tied_on_orders(rows: list[dict]) -> bool:
    """Whether the most completed orders are shared, so that ingredients in hand decide."""
    most = max(row["key"][0] for row in rows)
    return sum(1 for row in rows if row["key"][0] == most) > 1
