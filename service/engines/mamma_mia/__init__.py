"""Mamma Mia! (Uwe Rosenberg): every rule of the French and Chinese texts, as named validators.

The state is a JSON object (see ``setup`` for its shape); the game runs in three phases:
"play" (turns until someone takes the kitchen's last card), "oven" (the Oya reveals the oven
card by card and every revealed order waits for its owner's decision), and "over".

Where the two texts disagree, ``state["ruleset"]`` ("fr", the default, or "zh") decides, and a
verdict that depends on the difference names the disagreement and cites both texts. The
classic orders' recipes are not in either text: the state carries every order card's data, and
``default_orders`` is a deck of Referee's, not the publisher's.

The package: ``reading`` (what the rulebooks fix, and what a state says), ``rules`` (one check per
coded rule), ``engine`` (set-up, moves applied, legal moves, scores) and ``schemas`` (the shape of
states and moves).
"""

from service.engines.mamma_mia.engine import MammaMia
from service.engines.mamma_mia.reading import GAME
from service.engines.mamma_mia.schemas import MammaMiaMove, MammaMiaState
from service.engines.registry import Game, register

register(Game(GAME, MammaMia(), MammaMiaState, MammaMiaMove))
