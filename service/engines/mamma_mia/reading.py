"""What the Mamma Mia! rulebooks fix (each number named once, beside the rule that states it), and
reading a state: the table's ingredients, what an order needs, what the oven holds.
"""

from __future__ import annotations

from collections import Counter

from service.engines.base import load_words

GAME = "mamma-mia"

# ---- what the rulebooks fix (numbers named once, beside the rule that states them) ----------

INGREDIENTS = ("salami", "pineapple", "mushroom", "pepper", "olive")  # fr.components.1, zh.overview.3
PER_INGREDIENT = 13  # "65 cartes Ingrédient, 13 de chaque sorte"
REMOVED_PER_INGREDIENT = {2: 5, 3: 3, 4: 1, 5: 0}  # fr.setup.1: "5 de chaque sorte à deux, 3 à trois, 1 à quatre"
DEALT_INGREDIENTS = 6  # fr.setup.1: "Chacun reçoit 6 ingrédients"
HAND_SIZE = 7  # fr.turn.1: "compléter sa main à 7 cartes"
ORDERS_PER_PLAYER = 8  # fr.components.1: "8 dans chacune des cinq couleurs"
CLASSIC_ORDERS = 5  # fr.special-pizzas.1: "5 classiques ... et 3 spéciales"
SERVICES = 3  # fr.oven.2: "La partie s’arrête après le troisième service"
BOMBASTICA_MINIMUM = 15  # fr.special-pizzas.2: "au moins 15 ingrédients"
MINIMALE_OTHER = 3  # fr.special-pizzas.3: "plus 3 exemplaires d’un autre ingrédient"
MONOTONI_OTHER = 6  # fr.special-pizzas.4: "plus 6 exemplaires d’un même autre ingrédient"

MAMMA_MIA = "mamma-mia"  # the Mamma Mia! card, as it lies in the kitchen
ORDER_KINDS = ("classic", "bombastica", "minimale", "monotoni")
SPECIAL_KINDS = ("bombastica", "minimale", "monotoni")
# The texts name one colour (Alberto's green order, zh.turn.4); the other four are Referee's labels.
COLOURS = ("green", "red", "blue", "yellow", "purple")
RULESETS = ("fr", "zh")
PHASES = ("play", "oven", "over")
PILES = ("kitchen", "server_pile")
MOVE_FIELDS = {"turn": (), "pass": (), "serve": ("order",), "fail": ("order",)}  # each move kind, and the fields it cannot do without
MOVE_KINDS = tuple(MOVE_FIELDS)

WORDS = load_words(GAME)  # the game's own words (rules/mamma-mia.yaml), the ingredients' among them
_AND = {"en": " and ", "fr": " et ", "de": " und ", "zh": "和"}
_PILE_NAMES = {
    "en": {"kitchen": "the kitchen", "server_pile": "your server pile"},
    "fr": {"kitchen": "la cuisine", "server_pile": "votre serveur"},
    "de": {"kitchen": "der Küche", "server_pile": "deinem Bestellstapel"},
    "zh": {"kitchen": "原料牌堆", "server_pile": "訂單牌堆"},
}


def ingredient_list(counts: dict) -> "callable":
    """A message value: "3 salami and 1 olives" in the asker's language."""
    def render(lang: str) -> str:
        parts = [f"{n} {WORDS.say(k, lang)}" for k, n in counts.items() if n]
        return _AND[lang].join(parts) if parts else "0"
    return render


def ingredient(kind: str) -> "callable":
    return lambda lang: WORDS.say(kind, lang)


def pile(name: str) -> "callable":
    return lambda lang: _PILE_NAMES[lang].get(name, name)


# ---- reading a state -------------------------------------------------------------------------


def empty_counts() -> dict:
    return {k: 0 for k in INGREDIENTS}


def hand_size(player: dict) -> int:
    return sum(player["hand"]["ingredients"].values()) + len(player["hand"]["orders"])


def owner(state: dict, order_id: str) -> int:
    colour = state["orders"][order_id]["colour"]
    return next(i for i, p in enumerate(state["players"]) if p["colour"] == colour)


def kitchen_ingredients(state: dict) -> int:
    return sum(1 for card in state["kitchen"] if card != MAMMA_MIA)


def requirement(card: dict, choice: str | None) -> Counter:
    """What a (non-Bombastica) order takes: its recipe, or its ingredient plus the chosen one."""
    if card["kind"] == "classic":
        return Counter(card["recipe"])
    need = Counter({card["ingredient"]: 1})
    if choice in INGREDIENTS:
        need[choice] += MINIMALE_OTHER if card["kind"] == "minimale" else MONOTONI_OTHER
    return need


def minimale_choices(state: dict, card: dict) -> set[str]:
    """The ingredients a Minimale may take three of, as the table stands (ruleset-dependent).

    fr: among the ingredients on the table, leaving out the card's own, one of those with the
        fewest cards.
    zh: the fewest among all ingredients on the table (the card's own compared too); on a tie the
        owner chooses among the tied. Referee's reading: the card's own ingredient may itself be
        the fewest, the text not forbidding it (as it does for Monotoni).
    """
    table = state["table"]
    present = {k: n for k, n in table.items() if n > 0}
    if state["ruleset"] == "fr":
        present.pop(card["ingredient"], None)
    if not present:
        return set()
    fewest = min(present.values())
    return {k for k, n in present.items() if n == fewest}


def missing_from_table(state: dict, need: Counter) -> Counter:
    return Counter({k: n - state["table"].get(k, 0) for k, n in need.items() if n > state["table"].get(k, 0)})


def table_total(state: dict) -> int:
    return sum(state["table"].values())


def table_serves(state: dict, card: dict) -> bool:
    """Whether the table alone completes the order (then the pizza succeeds: fr.oven.1)."""
    if card["kind"] == "bombastica":
        return table_total(state) >= BOMBASTICA_MINIMUM
    choices = [None]
    if card["kind"] == "minimale":
        choices = sorted(minimale_choices(state, card))
    elif card["kind"] == "monotoni":
        choices = [k for k in INGREDIENTS if k != card["ingredient"]]
    return any(not missing_from_table(state, requirement(card, c)) for c in choices)
