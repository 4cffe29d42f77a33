"""What Mamma's rulebook fixes (each number named once, beside the rule that states it), and Referee's
default city and cards where the rulebook's illustration is not in its text (the package's docstring
lists each reading).
"""

from __future__ import annotations

from service.engines.base import load_readings

GAME = "mamma"

# ---- what the rulebook fixes (named once, beside the rule that states them) ------------------

CHARACTERS = ("grandpa", "grandma", "mamma", "wife", "husband", "son")  # preparation.1
TRAFFIC = ("traffic-1", "traffic-2")
PIECES = CHARACTERS + ("schoolbus",) + TRAFFIC
ALL_CARDS = 110  # material.1: "All 110 cards are utilized for this version."
CITY_SPACES = 27  # aim.1: "the 27 spaces of the area of play"
START_HAND = 5  # preparation.16: "until all the players have 5 cards in their hands"
HAND_LIMIT = 6  # turn.3: "never exceeding the maximum hand size of 6 cards"
TAKE_UP_TO = {0: 4, 1: 2}  # turn.3: options 1 and 2; 2 or more played, or 3 discarded: take 1
DISCARD = 3  # turn.3, option 4
MONEY_LIMIT = 2  # game-cards.11: "more than 2 money cards"
GRANDPA_BANK_LIMIT = 3  # grandpa.4: "up to 3 money cards"
HUSBAND_MORE, MAMMA_LESS = 2, 1  # ingredients.6
PLACE_AWAY = 5  # ingredients.10: "at least 5 mp away from the buying character"
BENCH_IN, BENCH_OUT, CHURCH_OUT = 1, 3, 3  # bench.1, bench.2, grandma.5
WC_TURNS = 6  # wc.2: "out of play for the next 6 turns"
TAXI_TIMES = 3  # wife.1: "multiplies by 3 the value of the chosen card"
BUS_NUMBERS = ("969", "696", "699")  # grandma.1
DINNER_CARDS = 3  # dinner-hour.10: "a maximum of 3 game cards"
DINNER_BACK, DINNER_FORWARD = 3, 2  # dinner-hour.10
SPACE_MP = 1  # game-cards.2: "every space costs 1 mp for each moving character"
SEATED_TO_END = 4  # dinner-hour.16: "the fourth character sit at the table"
MATCHING = {5: 15, 4: 10, 3: 6, 2: 3}  # victory.1
CHARACTER_VP = {"grandpa": 3, "grandma": 5, "mamma": 3, "husband": -5}  # victory.5, victory.6
GRANDPA_CHILD_VP = 7  # victory.6
ARRIVAL_VP = (3, 2, 1, -1, -2, -3)  # victory.7
GUESTS = (6, 5, 4, 3)  # turn.7: "6, 5, 4 or 3 negative vp"

# The points the text leaves to a reading, each a setup option (rules/mamma.yaml's readings; the
# package's docstring says what each reads): option -> ReadingOption.
READINGS = {o.option: o for o in load_readings(GAME)}

LANDMARKS = ("bench", "wc", "hospital", "church", "school", "bank", "taxi", "bus-stop-1", "bus-stop-2")
OFF_BOARD = ("seat", "bench", "wc", "hospital", "church", "seated", "off")  # a character's places off the spaces
WALKABLE = ("street", "club", "substitute")
PHASES = ("draft", "play", "dinner-guests", "dinner-placing", "dinner", "last-seats", "over")
DINNER = ("dinner-guests", "dinner-placing", "dinner", "last-seats")
DECKS = ("movement", "money")
MOVE_FIELDS = {"take": ("deck",), "play": ("card",), "move": ("piece", "to"), "stop": (), "taxi": ("card",),
               "bus": ("number",), "buy": ("ingredient",), "release": ("to",), "leave-wc": ("to",),
               "discard": ("cards",), "guests": ("character",), "money": ("card", "character"),
               "end-turn": (), "place": ("character", "to"), "last-seats": ("order",)}
MOVE_KINDS = tuple(MOVE_FIELDS)
PHASE_MOVES = {  # what each moment of the game takes
    "draft": ("take",),
    "play": ("play", "move", "stop", "taxi", "bus", "buy", "release", "leave-wc", "discard", "guests", "money", "end-turn"),
    "dinner-guests": ("guests",),
    "dinner-placing": ("place",),
    "dinner": ("play", "move", "stop", "taxi", "bus", "buy", "release", "discard", "money", "end-turn"),
    "last-seats": ("last-seats",),
    "over": (),
}
UNCHANGING = ("board", "cards")  # no move changes them: apply shares them between states
ENDS_MOVEMENT = ("taxi", "bus", "release", "leave-wc", "discard", "money", "end-turn", "stop")
LABEL = ("Referee's own reading of the city, the ages and the cards: the rulebook's illustration and printed "
         "values are not in its text. Not the publisher's.")

# ---- the default board and cards (Referee's, listed in the module docstring) -----------------

COLUMNS = (6, 6, 5, 5, 5)
CITY_CARDS = {"7": "bank", "9": "bench", "12": "hospital", "13": "taxi", "18": "bus-stop-1", "22": "school",
              "23": "church", "24": "wc", "27": "bus-stop-2"}
CITY_INGREDIENTS = {"10": "ing-11", "25": "ing-12"}
CLUBS = ("2", "4", "11", "17", "19", "21")
START_PIECES = {"schoolbus": "20", "traffic-1": "16", "traffic-2": "15"}
AGES = {"grandpa": 82, "grandma": 78, "mamma": 55, "husband": 34, "wife": 31, "son": 9}
INGREDIENT_CARDS = (  # (drawings, cost, Mother-in-Law)
    (("fish",), 1, 1), (("fish", "spaghetti", "salami"), 2, 0), (("cheese", "tomato"), 2, 0),
    (("mushroom",), 1, 0), (("salami", "cheese"), 2, 3), (("spaghetti",), 1, 0),
    (("tomato", "mushroom", "fish"), 3, 0), (("cheese",), 1, 5), (("spaghetti", "tomato"), 2, 0),
    (("salami",), 1, 0), (("fish", "cheese"), 2, 0), (("mushroom", "spaghetti", "salami"), 3, 0),
)
MOVEMENT_VALUES = (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4)
MONEY_VALUES = (1,) * 12 + (2,) * 7 + (3,) * 4
BUS_CARDS = ("969", "696", "699", "969", "696")


def default_board() -> dict:
    """Referee's city: spaces by column, each with the spaces next to it, and the seats in column B."""
    grid, number = {}, 0
    for column, rows in enumerate(COLUMNS, 1):
        for row in range(1, rows + 1):
            number += 1
            grid[(row, column)] = str(number)
    spaces = {}
    for (row, column), space in grid.items():
        around = ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1))
        spaces[space] = {"column": column, "row": row, "next_to": [grid[p] for p in around if p in grid]}
    seats = {c: grid[(row, 1)] for row, c in enumerate(CHARACTERS, 1)}
    return {"label": LABEL, "spaces": spaces, "seats": seats}


def default_cards() -> dict:
    """Every one of the 110 cards with what Referee reads as printed on it."""
    cards = {}
    for c in CHARACTERS:
        cards[f"ref-{c}"] = {"kind": "reference", "character": c}
        cards[c] = {"kind": "character", "age": AGES[c]}
        cards[f"secret-{c}"] = {"kind": "secret", "character": c}
    for space in map(str, range(1, CITY_SPACES + 1)):
        if space not in CITY_CARDS and space not in CITY_INGREDIENTS:
            cards[f"city-{space}"] = {"kind": "city", "face": "club" if space in CLUBS else "street"}
    for name in LANDMARKS:
        cards[name] = {"kind": "landmark"}
    cards["schoolbus"] = {"kind": "schoolbus", "cost": 4}
    cards["traffic-1"] = {"kind": "traffic", "cost": 3}
    cards["traffic-2"] = {"kind": "traffic", "cost": 2}
    cards["wc-card"] = {"kind": "wc-card"}
    cards["substitute-1"] = {"kind": "substitute"}
    cards["substitute-2"] = {"kind": "substitute"}
    cards["summary"] = {"kind": "summary"}
    for value in GUESTS:
        cards[f"guests-{value}"] = {"kind": "guests", "value": -value}
    for i, (drawings, cost, mother_in_law) in enumerate(INGREDIENT_CARDS, 1):
        cards[f"ing-{i}"] = {"kind": "ingredient", "drawings": list(drawings), "cost": cost, "mother_in_law": mother_in_law}
    for i, number in enumerate(BUS_CARDS, 1):
        cards[f"bus-{i}"] = {"kind": "bus", "number": number}
    for i, value in enumerate(MOVEMENT_VALUES, 1):
        cards[f"mp-{i}"] = {"kind": "movement", "value": value}
    for i, value in enumerate(MONEY_VALUES, 1):
        cards[f"money-{i}"] = {"kind": "money", "value": value}
    return cards
