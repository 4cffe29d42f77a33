"""The Mamma engine: a move read against the state, checked by the rules, and applied; set-up, legal
moves and scores.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import combinations

from indexer.corpus import player_counts
from service.engines.base import (
    SCORED_UNDER,
    BaseEngine,
    InvalidMove,
    InvalidState,
    is_player,
    is_whole,
    move_head,
    ranked,
    reading_said,
)
from service.engines.mamma.board import (
    ALL_CARDS,
    ARRIVAL_VP,
    BUS_NUMBERS,
    CHARACTER_VP,
    CHARACTERS,
    CITY_CARDS,
    CITY_INGREDIENTS,
    CITY_SPACES,
    DECKS,
    DISCARD,
    GAME,
    GRANDPA_CHILD_VP,
    GUESTS,
    HAND_LIMIT,
    LANDMARKS,
    MATCHING,
    MOVE_KINDS,
    OFF_BOARD,
    PHASES,
    PIECES,
    READINGS,
    SEATED_TO_END,
    START_HAND,
    START_PIECES,
    TAKE_UP_TO,
    TAXI_TIMES,
    TRAFFIC,
    UNCHANGING,
    WALKABLE,
    WC_TURNS,
    default_board,
    default_cards,
)
from service.engines.mamma.reading import (
    Reading,
    affordable_next_to,
    buyer,
    crossed_at,
    draft_done,
    face,
    guests_due,
    hospital_patient,
    ingredients_left,
    kind,
    money_limit,
    money_of,
    mover,
    moving,
    nearest_empty,
    next_to_landmark,
    least_payment,
    placing_column,
    price,
    read_as,
    reachable,
    release_due,
    space_of,
    step_cost,
    value,
    vertical,
)
from service.engines.mamma.rules import (
    RULES,
    RULES_FOR,
    SCORING,
    _bus_hits,
    _ends_movement,
    _exit_spaces,
    _hand,
    _other_stop,
    _placements,
    _runs_over,
    take_ingredient,
)

# ---- moves -------------------------------------------------------------------------------------


def _card_field(state, move, name, out, allow_none=False):
    cid = move.get(name)
    if cid is None and allow_none:
        out[name] = None
        return
    if not isinstance(cid, str) or cid not in state["cards"]:
        raise InvalidMove(name, f"no card {cid!r} in this game")
    out[name] = cid


def _choice(move, name, options, out, allow_none=False):
    v = move.get(name)
    if v is None and allow_none:
        out[name] = None
        return
    if v not in options:
        raise InvalidMove(name, f"one of {', '.join(options)}")
    out[name] = v


def _card_list(state, move, name, out):
    """A list of card ids, sorted (the order they are named in does not matter)."""
    cids = move.get(name) or []
    for j, cid in enumerate(cids):
        if cid not in state["cards"]:
            raise InvalidMove(f"{name}[{j}]", f"no card {cid!r} in this game")
    out[name] = sorted(cids)


def parse_move(state: dict, move: dict) -> dict:
    """The move in canonical form: defaults filled in, lists sorted; InvalidMove for an unknown kind or name."""
    out = move_head(state, move, MOVE_KINDS)
    k = out["kind"]
    spaces = list(state["board"]["spaces"])
    if k == "take":
        _choice(move, "deck", DECKS, out)
    elif k in ("play", "taxi"):
        _card_field(state, move, "card", out)
    elif k == "move":
        _choice(move, "piece", PIECES, out)
        _choice(move, "to", spaces + ["bench", "wc", "seat"], out)
        _card_field(state, move, "steal", out, allow_none=True)
        out["arcade"] = bool(move.get("arcade", False))
        _card_list(state, move, "lose", out)
        _choice(move, "release_to", spaces, out, allow_none=True)
    elif k == "bus":
        _choice(move, "number", BUS_NUMBERS, out)
        _choice(move, "to", spaces, out, allow_none=True)
        if not _bus_hits(state, out["number"]):
            out["to"] = None  # a missed bus goes to the church: where it would have gone does not count
    elif k == "buy":
        _card_field(state, move, "ingredient", out)
        _card_list(state, move, "pay", out)
        _choice(move, "place", spaces, out, allow_none=True)
    elif k in ("release", "leave-wc"):
        _choice(move, "to", spaces, out)
    elif k == "discard":
        _card_list(state, move, "cards", out)
        _card_field(state, move, "turn_over", out, allow_none=True)
    elif k == "guests":
        _choice(move, "character", CHARACTERS, out)
    elif k == "money":
        _card_field(state, move, "card", out)
        _choice(move, "character", CHARACTERS, out)
        _card_field(state, move, "replace", out, allow_none=True)
    elif k == "end-turn":
        for deck in DECKS:
            taken = move.get(deck, 0)
            if not is_whole(taken, 0) or taken > HAND_LIMIT:
                raise InvalidMove(deck, f"the number of cards taken from the {deck} deck, 0 to {HAND_LIMIT}")
            out[deck] = taken
    elif k == "place":
        _choice(move, "character", CHARACTERS, out)
        _choice(move, "to", spaces, out)
    elif k == "last-seats":
        order = move.get("order") or []
        for j, c in enumerate(order):
            if c not in CHARACTERS:
                raise InvalidMove(f"order[{j}]", f"one of {', '.join(CHARACTERS)}")
        out["order"] = list(order)
    return out


def new_turn_state() -> dict:
    return {"played": 0, "discarded": 0, "mp": 0, "moving": None, "bought": [], "money_placed": False,
            "bus_tried": False, "bus_missed": False, "wc_exit_due": False}


# ---- the engine ---------------------------------------------------------------------------------


class Mamma(BaseEngine):
    game = GAME
    rules = RULES
    players = player_counts(GAME)  # corpus/games.yaml, with the reasoning where the rulebook is silent
    players_note = "one secret character each, guessed among several opponents"
    readings = tuple(READINGS.values())  # the text's ambiguous points, each a setup option (rules/mamma.yaml)
    setup_options = {"player_a": "The player index who is Player A (drawn from the seed when absent).",
                     **{o.option: o.described() for o in READINGS.values()}}

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        """preparation.5-16: secret characters, money to each reference card, the ingredient row,
        the Bus deck; then the players choose their hands (phase draft)."""
        options, _ = self.setup_options_read(players, options)
        rng = random.Random(f"{GAME}:{seed}")
        player_a = options.get("player_a", rng.randrange(players))
        if not is_player(player_a, players):
            raise InvalidState("options.player_a", f"a player index from 0 to {players - 1}")
        cards, board = default_cards(), default_board()
        secrets = [f"secret-{c}" for c in CHARACTERS]
        rng.shuffle(secrets)  # Player A chooses one, the others take theirs at random: a seeded draw for all
        movement = sorted((c for c in cards if cards[c]["kind"] == "movement"), key=_natural)
        money = sorted((c for c in cards if cards[c]["kind"] == "money"), key=_natural)
        rng.shuffle(movement)
        rng.shuffle(money)
        row = sorted((c for c in cards if cards[c]["kind"] == "ingredient" and c not in CITY_INGREDIENTS.values()), key=_natural)
        rng.shuffle(row)
        bus = sorted((c for c in cards if cards[c]["kind"] == "bus"), key=_natural)
        rng.shuffle(bus)
        city = {}
        for space in board["spaces"]:
            city[space] = CITY_CARDS.get(space) or CITY_INGREDIENTS.get(space) or f"city-{space}"
        characters = {c: {"money": [money.pop(0)], "ingredients": [], "guests": None} for c in CHARACTERS}
        state = {
            "game": GAME, "seed": seed, "phase": "draft", "player_a": player_a, "turn": player_a, "player_x": None,
            "turns": 0, "board": board, "cards": cards, "city": city,
            "pieces": {**{c: "seat" for c in CHARACTERS}, **START_PIECES},
            "characters": characters,
            "players": [{"secret": secrets[i], "hand": [], "guests_assigned": False} for i in range(players)],
            "decks": {"movement": movement, "money": money},
            "ingredient_row": row, "substitutes": ["substitute-1", "substitute-2"],
            "guests": [f"guests-{v}" for v in GUESTS], "bus_deck": bus,
            "wc": {"occupant": None, "turns": 0, "last": None},
            "grandpa": {"bank": False, "child": False, "child_stole": False},
            "seated": [], "out_of_game": secrets[players:],
            "table": [f"ref-{c}" for c in CHARACTERS] + ["summary", "wc-card"],
            "turn_state": new_turn_state(),
            "readings": self.readings_chosen(options),
        }
        self.validate(state)
        return state

    # -- invariants ------------------------------------------------------------------------------

    def validate(self, state: dict) -> None:
        n = self.validate_head(state, PHASES, "turn", "player_a")
        self.validate_readings(state)
        if set(state["characters"]) != set(CHARACTERS):
            raise InvalidState("characters", f"the money, ingredients and Guests card beside each of {', '.join(CHARACTERS)}")
        if state["player_x"] is not None and not is_player(state["player_x"], n):
            raise InvalidState("player_x", f"a player index from 0 to {n - 1}")
        self._validate_board(state)
        self._validate_cards(state)
        self._validate_pieces(state)
        for c in CHARACTERS:
            if len(state["characters"][c]["money"]) > money_limit(state, c):
                raise InvalidState(f"characters.{c}.money", f"at most {money_limit(state, c)} money cards (game-cards.11)")
        for i, p in enumerate(state["players"]):
            limit = START_HAND if state["phase"] == "draft" else HAND_LIMIT
            if len(p["hand"]) > limit:
                raise InvalidState(f"players[{i}].hand", f"at most {limit} cards, not {len(p['hand'])}")
            if kind(state, p["secret"]) != "secret":
                raise InvalidState(f"players[{i}].secret", "a secret character card")
        assigned = sum(1 for c in CHARACTERS if state["characters"][c]["guests"])
        if assigned != sum(1 for p in state["players"] if p["guests_assigned"]):
            raise InvalidState("players", "one Guests card beside a character for each player who assigned one")
        if len(state["seated"]) != len(set(state["seated"])) or any(state["pieces"].get(c) != "seated" for c in state["seated"]):
            raise InvalidState("seated", "the characters at the table, each once, in the order they sat")
        t = state["turn_state"]
        for name in ("played", "discarded", "mp"):
            if t[name] < 0:
                raise InvalidState(f"turn_state.{name}", "0 or more")
        if state["wc"]["turns"] < 0:
            raise InvalidState("wc.turns", "0 or more")
        if not set(t["bought"]) <= set(CHARACTERS):
            raise InvalidState("turn_state.bought", f"characters: {', '.join(CHARACTERS)}")
        m = moving(state)
        if m is not None and (m.get("piece") not in PIECES or state["pieces"][m["piece"]] not in state["board"]["spaces"]):
            raise InvalidState("turn_state.moving.piece", "a piece standing on a space of the city")
        left = t.get("wc_left")
        if left is not None and (left.get("character") not in CHARACTERS or left.get("space") not in state["board"]["spaces"]):
            raise InvalidState("turn_state.wc_left", "the character put back from the W.C. this turn, and the space it was put on")

    def _validate_board(self, state) -> None:
        spaces = state["board"]["spaces"]
        if len(spaces) != CITY_SPACES:
            raise InvalidState("board.spaces", f"the city has {CITY_SPACES} spaces (aim.1), not {len(spaces)}")
        for s, data in spaces.items():
            for t in data["next_to"]:
                if t not in spaces or s not in spaces[t]["next_to"]:
                    raise InvalidState(f"board.spaces.{s}.next_to", f"{t} is not a space next to {s} both ways")
        for c in CHARACTERS:
            if state["board"]["seats"].get(c) not in spaces:
                raise InvalidState(f"board.seats.{c}", "the space of the city beside the character's seat in column B")
        if set(state["city"]) != set(spaces):
            raise InvalidState("city", "one card on each space of the board")
        for s, cid in state["city"].items():
            if kind(state, cid) not in ("city", "landmark", "ingredient", "substitute"):
                raise InvalidState(f"city.{s}", "a card of the city, a landmark, an ingredient or a substitute card")

    def _validate_cards(self, state) -> None:
        cards = state["cards"]
        if len(cards) != ALL_CARDS:
            raise InvalidState("cards", f"all {ALL_CARDS} cards (material.1), not {len(cards)}")
        needed = {**{c: "character" for c in CHARACTERS}, "schoolbus": "schoolbus", **{t: "traffic" for t in TRAFFIC},
                  **{name: "landmark" for name in LANDMARKS}}
        for cid, wanted in needed.items():
            if cards.get(cid, {}).get("kind") != wanted:
                raise InvalidState(f"cards.{cid}", f"the {wanted} card {cid} (material.1)")
        for cid, c in cards.items():
            for name, invariant in _printed_wrong(cid, c):
                raise InvalidState(f"cards.{cid}.{name}", invariant)
        where = {}
        zones = [("city", list(state["city"].values())), ("substitutes", state["substitutes"]),
                 ("ingredient_row", state["ingredient_row"]), ("guests", state["guests"]), ("bus_deck", state["bus_deck"]),
                 ("out_of_game", state["out_of_game"]), ("table", state["table"]), ("pieces", list(state["pieces"]))]
        zones += [(f"decks.{d}", state["decks"][d]) for d in DECKS]
        for c in CHARACTERS:
            mine = state["characters"][c]
            zones.append((f"characters.{c}.money", mine["money"]))
            zones.append((f"characters.{c}.ingredients", [i["card"] for i in mine["ingredients"]]))
            zones.append((f"characters.{c}.guests", [mine["guests"]] if mine["guests"] else []))
        zones += [(f"players[{i}].hand", p["hand"]) for i, p in enumerate(state["players"])]
        zones += [(f"players[{i}].secret", [p["secret"]]) for i, p in enumerate(state["players"])]
        expected = {"ingredient_row": "ingredient", "guests": "guests", "bus_deck": "bus",
                    "decks.movement": "movement", "decks.money": "money"}
        for zone, ids in zones:
            for j, cid in enumerate(ids):
                if cid not in cards:
                    raise InvalidState(f"{zone}[{j}]", f"no card {cid!r} in cards")
                if cid in where:
                    raise InvalidState(f"{zone}[{j}]", f"card {cid} is also in {where[cid]}")
                want = expected.get(zone) or ("money" if zone.endswith(".money") else "ingredient" if zone.endswith(".ingredients")
                                              else "guests" if zone.endswith(".guests") else None)
                if want and kind(state, cid) != want:
                    raise InvalidState(f"{zone}[{j}]", f"a {want} card, not {cid}")
                where[cid] = zone
        missing = set(cards) - set(where)
        if missing:
            raise InvalidState("cards", f"every card is somewhere: {', '.join(sorted(missing)[:5])} is nowhere")
        for j, cid in enumerate(state["substitutes"]):
            if kind(state, cid) not in ("substitute", "city"):  # ingredients.10: a card taken from the city becomes one
                raise InvalidState(f"substitutes[{j}]", f"a substitute card, not {cid}")
        in_city = sum(1 for cid in state["city"].values() if kind(state, cid) == "ingredient")
        needed = in_city if not state["ingredient_row"] else min(1, in_city)
        if len(state["substitutes"]) < needed:
            raise InvalidState("substitutes", "a substitute card for each ingredient bought (ingredients.9)")

    def _validate_pieces(self, state) -> None:
        spaces, pieces = state["board"]["spaces"], state["pieces"]
        if set(pieces) != set(PIECES):
            raise InvalidState("pieces", f"the place of each of {', '.join(PIECES)}")
        m = mover(state)
        for p, place in pieces.items():
            allowed = OFF_BOARD if p in CHARACTERS else ("off",)
            if place not in spaces and place not in allowed:
                raise InvalidState(f"pieces.{p}", f"a space of the city or one of {', '.join(allowed)}")
            if place in spaces and face(state, place) not in WALKABLE:
                raise InvalidState(f"pieces.{p}", f"space {place} holds {face(state, place)}: no piece stands there")
        for s in spaces:
            here = [p for p in PIECES if pieces[p] == s]
            if len(here) > 2 or len(here) == 2 and m not in here:
                raise InvalidState(f"pieces.{here[-1]}", f"space {s} holds one piece (another only while crossing it)")
        for place, who, rule in (("bench", CHARACTERS, "bench.1"), ("hospital", ("wife", "son"), "schoolbus-hospital.1"),
                                 ("church", ("grandma",), "grandma.3"), ("wc", CHARACTERS, "wc.5")):
            there = [c for c in CHARACTERS if pieces[c] == place]
            if len(there) > 1 or any(c not in who for c in there):
                raise InvalidState(f"pieces.{there[-1]}", f"the {place} holds one of {', '.join(who)} ({rule})")
        occupant = state["wc"]["occupant"]
        for name in ("occupant", "last"):
            if state["wc"][name] not in (None, *CHARACTERS):
                raise InvalidState(f"wc.{name}", f"one of {', '.join(CHARACTERS)}, or null")
        if (occupant is None) != (not any(pieces[c] == "wc" for c in CHARACTERS)) or occupant and pieces[occupant] != "wc":
            raise InvalidState("wc.occupant", "the character inside the W.C., as the pieces say")

    # -- applying moves -------------------------------------------------------------------------

    def parse_move(self, state: dict, move: dict) -> dict:
        return parse_move(state, move)

    def rules_for(self, move: dict) -> tuple:
        return RULES_FOR[move["kind"]]

    def prepared(self, state: dict) -> dict:
        return Reading(state)

    @staticmethod
    def _under(state, deck, cid) -> None:
        """turn.3 and game-cards.11: a card played, discarded or replaced goes under its deck, face up."""
        state["decks"][deck].append(cid)

    def _end_movement(self, state) -> None:
        """The piece stops: grandpa.4, the bank."""
        m = moving(state)
        if m and m["piece"] == "grandpa" and space_of(state, "grandpa") in next_to_landmark(state, "bank"):
            state["grandpa"]["bank"] = True
        state["turn_state"]["moving"] = None

    def apply(self, state: dict, move: dict) -> dict:
        """The state after a legal move, a new dict: the board and the cards' printed values, which
        no move changes, are shared with the given state, everything else copied."""
        state = {k: v if k in UNCHANGING else copy.deepcopy(v) for k, v in state.items()}
        move = self.parse_move(state, move)
        if _ends_movement(state, move) and move["kind"] not in ("buy", "release"):
            self._end_movement(state)
        getattr(self, f"_apply_{move['kind'].replace('-', '_')}")(state, move)
        return state

    def _apply_take(self, state, move) -> None:
        state["players"][state["turn"]]["hand"].append(state["decks"][move["deck"]].pop(0))
        n = len(state["players"])
        state["turn"] = (state["turn"] + 1) % n
        if draft_done(state):
            state["phase"] = "play"
            state["turn"] = (state["player_a"] + 1) % n  # turn.2: the player to the left of Player A

    def _apply_play(self, state, move) -> None:
        _hand(state).remove(move["card"])
        self._under(state, "movement", move["card"])
        t = state["turn_state"]
        t["mp"] += value(state, move["card"])
        t["played"] += 1
        if t["moving"] and t["moving"]["ride"] is not None:
            # wife.2, grandma.1: "After this movement [the taxi's, the bus's], the player can still
            # play game cards, moving the Wife again (with movement cards)": a card played ends
            # the ride (what is left of its mp with it), and the next step begins a movement paid
            # with the cards' mp.
            t["moving"] = None

    def _apply_move(self, state, move) -> None:
        piece, to, t = move["piece"], move["to"], state["turn_state"]
        frm = state["pieces"][piece]
        cost = step_cost(state, piece, frm, to)
        m = t["moving"]
        if not m or m["piece"] != piece:
            m = t["moving"] = {"piece": piece, "crossed": [frm] if frm in state["board"]["spaces"] else [],
                               "steps": 0, "ride": None, "bought": False, "released": False}
        if m["ride"] is not None:
            m["ride"] -= cost
        else:
            t["mp"] -= cost
        victim = crossed_at(state, piece, to)
        run_over = _runs_over(state, move)
        state["pieces"][piece] = to
        m["steps"] += 1
        if to in state["board"]["spaces"]:
            m["crossed"].append(to)
        if move["steal"] is not None and victim:
            self._move_ingredient(state, victim, piece, move["steal"])
            if piece == "grandpa" and state["grandpa"]["child"]:
                state["grandpa"]["child_stole"] = True
        if move["arcade"] and victim:
            best = max(state["characters"][victim]["money"], key=lambda c: (value(state, c), c))
            state["characters"][victim]["money"].remove(best)
            self._under(state, "money", best)
        if run_over:
            patient = hospital_patient(state)
            state["pieces"][run_over] = "hospital"
            if patient:
                state["pieces"][patient] = move["release_to"]
            for cid in move["lose"]:
                self._drop_ingredient(state, "son", cid)
                state["out_of_game"].append(cid)
        if to == "wc":
            state["wc"] = {"occupant": piece, "turns": 0, "last": piece}
        if to == "seat":
            state["pieces"][piece] = "seated"
            state["seated"].append(piece)
            if len(state["seated"]) == SEATED_TO_END:
                state["phase"] = "last-seats"
        if to in ("bench", "wc", "seat"):
            t["moving"] = None

    @staticmethod
    def _drop_ingredient(state, character, cid) -> dict:
        mine = state["characters"][character]["ingredients"]
        entry = next(i for i in mine if i["card"] == cid)
        mine.remove(entry)
        return entry

    def _move_ingredient(self, state, frm, to, cid) -> None:
        self._drop_ingredient(state, frm, cid)
        state["characters"][to]["ingredients"].append({"card": cid, "horizontal": False})

    def _apply_stop(self, state, move) -> None:
        pass  # the movement ended before this (apply)

    def _apply_taxi(self, state, move) -> None:
        state["characters"]["wife"]["money"].remove(move["card"])
        self._under(state, "money", move["card"])
        here = state["pieces"]["wife"]
        state["turn_state"]["moving"] = {"piece": "wife", "crossed": [here], "steps": 0,
                                         "ride": TAXI_TIMES * value(state, move["card"]), "bought": False, "released": False}

    def _apply_bus(self, state, move) -> None:
        t = state["turn_state"]
        t["bus_tried"] = True
        hit = _bus_hits(state, move["number"])
        deck = state["bus_deck"]
        state["bus_deck"] = deck[2:] + deck[:2]  # grandma.4: the card taken, then the next, under the deck
        if hit:
            state["pieces"]["grandma"] = move["to"]
            t["moving"] = {"piece": "grandma", "crossed": [move["to"]], "steps": 1, "ride": 0,
                           "bought": False, "released": False}
        else:
            state["pieces"]["grandma"] = "church"
            t["bus_missed"] = True

    def _apply_buy(self, state, move) -> None:
        who, t = buyer(state), state["turn_state"]
        for cid in move["pay"]:
            state["characters"][who]["money"].remove(cid)
            self._under(state, "money", cid)
        take_ingredient(state, who, move["ingredient"])
        if move["place"] is not None:
            state["substitutes"].append(state["city"][move["place"]])
            state["city"][move["place"]] = state["ingredient_row"].pop(0)
        if who not in t["bought"]:
            t["bought"].append(who)
        if t["moving"]:
            t["moving"]["bought"] = True
        if ingredients_left(state) == 0:
            self._dinner_hour(state)

    def _dinner_hour(self, state) -> None:
        """dinner-hour.1-4: Player X, the characters removed, the schoolbus too with the Child."""
        state["player_x"] = state["turn"]
        for c in CHARACTERS:
            state["pieces"][c] = "off"
        state["wc"]["occupant"] = None
        if state["grandpa"]["child"]:
            state["pieces"]["schoolbus"] = "off"
        state["turn_state"] = new_turn_state()
        self._next_dinner_step(state)

    def _next_dinner_step(self, state) -> None:
        due = guests_due(state)
        if due is not None:
            state["phase"], state["turn"] = "dinner-guests", due
        elif state["phase"] != "dinner-placing":
            state["phase"], state["turn"] = "dinner-placing", state["player_x"]

    def _apply_release(self, state, move) -> None:
        state["pieces"][hospital_patient(state)] = move["to"]
        state["turn_state"]["moving"]["released"] = True

    def _apply_leave_wc(self, state, move) -> None:
        state["turn_state"]["wc_left"] = {"character": state["wc"]["occupant"], "space": move["to"]}  # wc_return, wc_exit
        state["pieces"][state["wc"]["occupant"]] = move["to"]
        state["wc"]["occupant"] = None
        state["turn_state"]["wc_exit_due"] = False

    def _apply_discard(self, state, move) -> None:
        for cid in move["cards"]:
            _hand(state).remove(cid)
            self._under(state, kind(state, cid), cid)
        state["turn_state"]["discarded"] = len(move["cards"])
        if move["turn_over"] is not None:
            owner = next(c for c in CHARACTERS if move["turn_over"] in vertical(state, c))
            next(i for i in state["characters"][owner]["ingredients"] if i["card"] == move["turn_over"])["horizontal"] = True

    def _apply_guests(self, state, move) -> None:
        state["characters"][move["character"]]["guests"] = state["guests"].pop(0)  # turn.7: the highest left
        state["players"][state["turn"]]["guests_assigned"] = True
        if state["phase"] == "dinner-guests":
            self._next_dinner_step(state)

    def _apply_money(self, state, move) -> None:
        held = state["characters"][move["character"]]["money"]
        if move["replace"] is not None:
            held.remove(move["replace"])
            self._under(state, "money", move["replace"])
        _hand(state).remove(move["card"])
        held.append(move["card"])
        state["turn_state"]["money_placed"] = True
        state["turn_state"]["played"] += 1

    def _apply_end_turn(self, state, move) -> None:
        hand = _hand(state)
        for deck in DECKS:
            for _ in range(move[deck]):
                hand.append(state["decks"][deck].pop(0))
        # grandpa.1: "At the end of any turn", the Dinner Hour's too ("All the rules regarding [...]
        # the school [...] remain the same": dinner-hour.3)
        if (state["phase"] in ("play", "dinner") and space_of(state, "grandpa") in next_to_landmark(state, "school")
                and space_of(state, "schoolbus") in next_to_landmark(state, "school")):
            state["grandpa"]["child"] = True
        self._next_turn(state)

    def _next_turn(self, state) -> None:
        state["turn"] = (state["turn"] + 1) % len(state["players"])
        state["turns"] += 1
        state["turn_state"] = new_turn_state()
        if state["phase"] == "play" and state["wc"]["occupant"] is not None:
            state["wc"]["turns"] += 1  # wc.3: one space down at the beginning of each turn
            state["turn_state"]["wc_exit_due"] = state["wc"]["turns"] >= WC_TURNS

    def _apply_place(self, state, move) -> None:
        state["pieces"][move["character"]] = move["to"]
        n = len(state["players"])
        if any(state["pieces"][c] == "off" for c in CHARACTERS):
            state["turn"] = (state["turn"] + 1) % n
        else:  # dinner-hour.8: the player to the left of Player X plays first
            state["phase"] = "dinner"
            state["turn"] = (state["player_x"] + 1) % n
            state["turn_state"] = new_turn_state()

    def _apply_last_seats(self, state, move) -> None:
        for c in move["order"]:
            state["pieces"][c] = "seated"
            state["seated"].append(c)
        state["phase"] = "over"
        state["turn_state"] = new_turn_state()

    # -- legal moves, scores and the result ------------------------------------------------------

    def candidates(self, state: dict) -> list[dict]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "draft":
            return [{"kind": "take", "deck": d} for d in DECKS]
        if phase == "dinner-guests":
            return [{"kind": "guests", "character": c} for c in CHARACTERS]
        if phase == "dinner-placing":
            return [{"kind": "place", "character": c, "to": s} for c in CHARACTERS if state["pieces"][c] == "off"
                    for s in placing_column(state)]
        if phase == "last-seats":
            left = [c for c in CHARACTERS if state["pieces"][c] != "seated"]
            return [{"kind": "last-seats", "order": left}, {"kind": "last-seats", "order": left[::-1]}]
        t, hand = state["turn_state"], _hand(state)
        if t["wc_exit_due"]:
            return [{"kind": "leave-wc", "to": s} for s in nearest_empty(state, next_to_landmark(state, "wc"))]
        out = [{"kind": "stop"}]
        out += [{"kind": "play", "card": c} for c in hand if kind(state, c) == "movement"]
        for piece in PIECES:
            for to in reachable(state, piece):
                out += self._step_candidates(state, piece, to)
        out += [{"kind": "taxi", "card": c} for c in state["characters"]["wife"]["money"]]
        for number in BUS_NUMBERS:
            spots = nearest_empty(state, next_to_landmark(state, _other_stop(state)), but="grandma") if _bus_hits(state, number) else [None]
            out += [{"kind": "bus", "number": number, "to": s} for s in spots]
        who = buyer(state)
        if who:
            for ingredient in affordable_next_to(state, who):
                spots = _placements(state, who, ingredient) or [None]
                for pay in _payments(state, who, ingredient):
                    out += [{"kind": "buy", "ingredient": ingredient, "pay": pay, "place": s} for s in spots]
        if release_due(state):
            out += [{"kind": "release", "to": s} for s in nearest_empty(state, next_to_landmark(state, "hospital"))]
        if len(hand) >= DISCARD and not t["played"] and not t["discarded"]:
            turnable = [None] + sorted(i for c in CHARACTERS for i in vertical(state, c))
            out += [{"kind": "discard", "cards": list(cards), "turn_over": i}
                    for cards in combinations(sorted(hand), DISCARD) for i in turnable]
        out += [{"kind": "guests", "character": c} for c in CHARACTERS]
        for cid in hand:
            if kind(state, cid) == "money":
                for c in CHARACTERS:
                    out += [{"kind": "money", "card": cid, "character": c, "replace": r}
                            for r in [None, *state["characters"][c]["money"]]]
        out += [{"kind": "end-turn", "movement": a, "money": b}
                for a in range(TAKE_UP_TO[0] + 1) for b in range(TAKE_UP_TO[0] + 1 - a)]
        return out

    def _step_candidates(self, state, piece, to) -> list[dict]:
        base = {"kind": "move", "piece": piece, "to": to, "steal": None, "arcade": False, "lose": [], "release_to": None}
        out = [base]
        victim = crossed_at(state, piece, to)
        if victim and piece in CHARACTERS:
            out += [{**base, "steal": cid} for cid in vertical(state, victim)]
            if piece == "son":
                out.append({**base, "arcade": True})
        run_over = _runs_over(state, {**base, "kind": "move"}) if piece == "schoolbus" else None
        if run_over:
            losses = [sorted(c) for c in combinations(sorted(vertical(state, "son")), len(vertical(state, "son")) // 2)] \
                if run_over == "son" else [[]]
            allowed, _ = _exit_spaces(state, base)
            releases = allowed if allowed is not None else [None]
            out = [{**base, "lose": lose, "release_to": r} for lose in losses for r in releases]
        return out

    def characters_points(self, state: dict, lang: str) -> dict[str, dict]:
        """victory.1-7: each character's points, one cited line per criterion."""
        out = {}
        for c in CHARACTERS:
            mine = state["characters"][c]
            cards = [state["cards"][i["card"]] for i in mine["ingredients"]]
            matching, single = ingredient_points(cards, read_as(state, "matching"), read_as(state, "six_matching"))
            mother_in_law = -sum(card["mother_in_law"] for card in cards)
            guests = value(state, mine["guests"]) if mine["guests"] else 0
            money = money_of(state, c)
            bonus = GRANDPA_CHILD_VP if c == "grandpa" and state["grandpa"]["child"] else CHARACTER_VP.get(c, 0)
            seat = state["seated"].index(c) if c in state["seated"] else None
            arrival = ARRIVAL_VP[seat] if seat is not None else 0
            lines = [*self._ingredient_lines(state, cards, (matching, single), lang),
                     SCORING["mother-in-law"].line(lang, mother_in_law), SCORING["guests"].line(lang, guests),
                     SCORING["money"].line(lang, money), SCORING["character"].line(lang, bonus),
                     SCORING["arrival"].line(lang, arrival, place=seat + 1 if seat is not None else "-")]
            out[c] = {"character": c, "total": sum(line["value"] for line in lines), "seat": seat, "lines": lines}
        return out

    def _ingredient_lines(self, state, cards, points, lang) -> list[dict]:
        """victory.1's two lines; one that another reading of six_matching or matching would score
        otherwise names the table's reading and the other, and what it would be (``reading``: the
        first such option, the narrower point first; ``interpretation``: each)."""
        lines = [SCORING["matching"].line(lang, points[0]), SCORING["single"].line(lang, points[1])]
        chosen = {o: read_as(state, o) for o in ("six_matching", "matching")}
        for name in chosen:
            option = READINGS[name]
            other = ingredient_points(cards, **{**chosen, name: option.other(chosen[name])})
            for line, now, then in zip(lines, points, other):
                if now != then:
                    said, data = reading_said(option, chosen[name], SCORED_UNDER, lang, points=then)
                    line["interpretation"] = f"{line['interpretation']} {said}" if "reading" in line else said
                    line.setdefault("reading", data)
        return lines

    def standings(self, state: dict, lang: str) -> dict:
        """Each player's points are their secret character's; a tie goes to whoever sat first (victory.9)."""
        points = self.characters_points(state, lang)
        rows = []
        for i, p in enumerate(state["players"]):
            c = state["cards"][p["secret"]]["character"]
            seat = points[c]["seat"]
            rows.append({"player": i, "character": c, "total": points[c]["total"], "lines": points[c]["lines"],
                         "key": (points[c]["total"], -(seat if seat is not None else len(CHARACTERS)))})
        tops = [r for r in rows if r["total"] == max(x["total"] for x in rows)]
        tie_break = SCORING["tie"].line(lang) if len(tops) > 1 else None
        out = ranked(rows, state["phase"] == "over", tie_break=tie_break)
        out["characters"] = sorted(points.values(), key=lambda r: -r["total"])
        for r in out["characters"]:
            r.pop("seat")
        return out

    def result(self, state: dict) -> dict | None:
        if state["phase"] != "over":
            return None
        score = self.standings(state, "en")
        rows = [{"player": r["player"], "character": r["character"], "points": r["total"], "rank": r["rank"]}
                for r in score["players"]]
        return {"standings": rows, "winners": score["winners"],
                "tie_break": "seated first" if score["tie_break"] else None, "shared": len(score["winners"]) > 1}

    def examples(self) -> list[tuple[str, str, dict, dict]]:
        """A worked example per kind of move on seeded states: (name, summary, state, move)."""
        state = self.setup(3, 1, {})
        out = [("take", "Choose a starting card from the movement deck", state, {"kind": "take", "deck": "movement"})]
        while state["phase"] == "draft":
            state = self.apply(state, {"kind": "take", "deck": "movement" if len(_hand(state)) < 3 else "money"})
        card = next(c for c in _hand(state) if kind(state, c) == "movement")
        out.append(("play", "Play a movement card for its mp", state, {"kind": "play", "card": card}))
        played = self.apply(state, {"kind": "play", "card": card})
        out.append(("move", "Move the Wife out of her seat, one space", played, {"kind": "move", "piece": "wife", "to": "4"}))
        out.append(("move-illegal", "The Wife enters the city beside her seat (space 4), not on 3: illegal",
                    played, {"kind": "move", "piece": "wife", "to": "3"}))
        out.append(("end-turn", "End the turn and take 1 card (1 played: up to 2)", played,
                    {"kind": "end-turn", "movement": 1, "money": 0}))
        return out


CARD_KINDS = ("reference", "character", "secret", "city", "landmark", "schoolbus", "traffic", "wc-card",
              "substitute", "summary", "guests", "ingredient", "bus", "movement", "money")


def _printed_wrong(cid, card):
    """What a card's kind needs printed on it and is missing: (field, invariant) pairs."""
    k = card.get("kind")
    if k not in CARD_KINDS:
        yield "kind", f"one of {', '.join(CARD_KINDS)}"
    elif k == "character" and (cid not in CHARACTERS or not is_whole(card.get("age"), 0)):
        yield "age", "a character card (grandpa ... son) with its printed age, a whole number"
    elif k in ("reference", "secret") and card.get("character") not in CHARACTERS:
        yield "character", f"one of {', '.join(CHARACTERS)}"
    elif k == "city" and card.get("face") not in ("street", "club"):
        yield "face", "street or club"
    elif k == "landmark" and cid not in LANDMARKS:
        yield "kind", f"a landmark is one of {', '.join(LANDMARKS)}"
    elif k in ("schoolbus", "traffic", "ingredient") and not is_whole(card.get("cost"), 1):
        yield "cost", "the printed cost, 1 or more"
    elif k == "ingredient" and not (isinstance(card.get("drawings"), list) and is_whole(card.get("mother_in_law"), 0)):
        yield "drawings", "an ingredient's drawings and its Mother-in-Law number (0: none)"
    elif k in ("movement", "money") and not is_whole(card.get("value"), 1):
        yield "value", "a game card's printed value, 1 or more"
    elif k == "guests" and not (is_whole(card.get("value")) and card["value"] <= 0):
        yield "value", "a Guests card's negative vp"
    elif k == "bus" and card.get("number") not in BUS_NUMBERS:
        yield "number", f"one of {', '.join(BUS_NUMBERS)}"


def ingredient_points(cards: list[dict], matching: str, six_matching: str) -> tuple[int, int]:
    """victory.1-2: a character's points for matching ingredients and for individual ones, read as
    the table reads ``matching`` (per-ingredient, per-card) and ``six_matching`` (as-five,
    five-and-single). An ingredient on a Mother-in-Law card counts toward matching, never alone."""
    most = max(MATCHING)
    if matching == "per-card":  # each card to one matching or none: the assignment best for the character
        return _per_card(cards, most)
    names = sorted({d for card in cards for d in card["drawings"]})
    matched, single = 0, 0
    counted = Counter()  # card index -> how many of its drawings counted toward a matching
    for d in names:
        holders = [i for i, card in enumerate(cards) if d in card["drawings"]]
        if len(holders) < 2:
            continue
        if len(holders) > most and six_matching == "five-and-single":  # the Mother-in-Law cards among the five first
            holders = sorted(holders, key=lambda i: (not cards[i]["mother_in_law"], i))[:most]
        matched += MATCHING[min(len(holders), most)]
        counted.update(holders)
    for i, card in enumerate(cards):
        if not card["mother_in_law"]:
            single += len(set(card["drawings"])) - counted[i]
    return matched, single


def _per_card(cards: list[dict], most: int) -> tuple[int, int]:
    """matching per-card: the best (matching, single) over every way of putting each card toward one
    matching of its drawings or none (over the counts per drawing, not each assignment: 12 cards)."""
    names = sorted({d for card in cards for d in card["drawings"]})
    best = {tuple(0 for _ in names): 0}  # cards per drawing -> the most individual ingredients
    for card in cards:
        own = 0 if card["mother_in_law"] else len(set(card["drawings"]))
        step = {}
        for counts, single in best.items():
            choices = [(counts, single + own)]
            for d in sorted(set(card["drawings"])):
                i = names.index(d)
                choices.append((counts[:i] + (counts[i] + 1,) + counts[i + 1:], single + max(0, own - 1)))
            for key, v in choices:
                if v > step.get(key, -1):
                    step[key] = v
        best = step
    scored = [(sum(MATCHING[min(n, most)] for n in counts if n >= 2), single) for counts, single in best.items()]
    return max(scored, key=lambda ms: (ms[0] + ms[1], ms[0]))


def _payments(state, buyer, ingredient) -> list[list[str]]:
    """ingredients.7-8: the sets of the buyer's money cards that pay without a card to spare (and
    with the least surplus, when the table reads money_paid so)."""
    held, cost = sorted(state["characters"][buyer]["money"]), price(state, buyer, ingredient)
    least = least_payment(state, buyer, cost) if read_as(state, "money_paid") == "least-surplus" else None
    out = []
    for k in range(len(held) + 1):
        for pay in combinations(held, k):
            total = sum(value(state, m) for m in pay)
            if total >= cost and not any(total - value(state, m) >= cost for m in pay) and least in (None, total):
                out.append(list(pay))
    return out


def _natural(cid: str):
    head, _, tail = cid.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (cid, 0)
