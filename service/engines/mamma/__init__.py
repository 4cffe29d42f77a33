"""Mamma: the whole board game of the English rulebook, from choosing the hands to the final score.

The city is in an illustration the text does not have, and so are the characters' printed ages,
the ingredient cards' drawings, costs and Mother-in-Law values, and the game cards' values. The
state carries all of it: ``board`` (the 27 spaces, which are next to which, each space's column,
the seat in column B each character starts from) and ``cards`` (every one of the 110 cards with
what is printed on it). ``default_board`` and ``default_cards`` are Referee's own reading, and a
state built from them says so in ``board.label``. Every value they invent:

* the city: a grid of 5 columns (6, 6, 5, 5 and 5 spaces, numbered 1 to 27 column by column,
  column 1 beside column B); the bank on 7, the bench on 9, the hospital on 12, the taxi on 13,
  the bus stops on 18 and 27, the school on 22, the church on 23, the W.C. on 24; the ingredients
  on 10 and 25 at the start; the spaces marked with the club on 2, 4, 11, 17, 19 and 21 (19 is
  5 mp from the Wife's first space, as in the rulebook's purchase example); the schoolbus on 20
  (printed cost 4, the rulebook's own example), the traffic cards on 16 (cost 3) and 15 (cost 2);
  every landmark has a street space beside it, and the west and the east of the city are joined
  by more than one way; the seats in column B beside spaces 1 to 6, in the order Grandpa, Grandma,
  Mamma, Wife, Husband, Son;
* the ages: Grandpa 82, Grandma 78, Mamma 55, Husband 34, Wife 31, Son 9;
* the 12 ingredient cards (2 in the city, 10 in the row): their drawings among fish, spaghetti,
  salami, cheese, tomato and mushroom, costs 1 to 3, and three Mother-in-Law values (5, 3, 1,
  the values the rulebook names); ing-1 and ing-2 are the cards of the rulebook's scoring example;
* 16 movement cards (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4 mp) and 23 money cards
  (twelve 1s, seven 2s, four 3s): 39 game cards, the rest of the 110;
* the 5 Bus cards: 969, 696, 699, 969, 696 (three numbers on five cards).

The 110: 6 reference cards, 6 character cards (column B), a series of 6 secret characters, the 27
cards of the city (9 of them the bench, W.C., hospital, church, school, bank, taxi and the two bus
stops, 2 ingredients), the schoolbus, 2 traffic cards, the vertical wc card, 2 substitute cards,
the summary card, 4 Guests cards, the 10 ingredients of the row, 5 Bus cards and 39 game cards.

Referee's readings where the text is silent (each verdict resting on one says so):

* 3 to 6 players (corpus/games.yaml says why);
* the turn is a sequence of moves: ``play`` (a movement card into the turn's mp), ``move`` (one
  piece one space: a movement is the moves of one piece in a row, and ends with ``stop``, with
  ``buy``, or with any move of another kind), ``taxi``, ``bus``, ``buy``, ``release``,
  ``discard``, ``guests``, ``money`` and ``end-turn`` (the cards taken);
* pieces move over street spaces (plain, marked with the club, or substitute cards); they cross a
  space where a character or the schoolbus stands, never a traffic card's; ingredient and landmark
  cards are not walked on (the bench and the W.C. are entered as their rules say);
* a step onto an occupied space is refused when the movement could not go on to an empty space
  with the mp left (in the turn, or in the hand while cards may still be played);
* distances for placing an ingredient count spaces over the whole board, whatever lies on them;
  a space under a piece is not free for an ingredient;
* a character leaves the W.C. at the start of the sixth turn, before anything else of that turn;
* a failed bus closes the turn's card play (movement cards and money), not the mp already played;
  one try at the bus a turn;
* Player X's turn ends when the Dinner Hour begins, without taking cards.

Where the text allows two readings, the table chooses one with a setup option of the same name
(rules/mamma.yaml's ``readings``: both readings in four languages and the words they rest on, listed
in GET /v1/games as adjudicator.readings; the state keeps the choice in ``readings``). The default is
the reading Referee took before the option existed. A refusal that rests on one names it and the
other (``interpretation``, ``reading``), and a legal move the other would refuse carries a note:

* ``sideways_first_space``: as-forwards (a Dinner Hour movement's first space that is neither back,
  a higher column, nor forwards costs 2, as forwards) or one-mp (1, as every space outside the two
  cases dinner-hour.10 names);
* ``arcade_at_dinner``: open (the Son's arcade goes on in the Dinner Hour) or closed (dinner-hour.3
  lists the rules that remain the same, and the arcade is not among them);
* ``money_paid``: no-card-to-spare (any of the buyer's money cards that cover the price with none
  to spare, a card of 2 paying for 1) or least-surplus ("the money cards necessary": no payment that
  loses more than another would);
* ``must_buy``: one (beside several ingredients it can pay, a character buys one, the player's
  choice) or each (it must buy each in turn while its money pays);
* ``wc_return``: in-sixth-turn (the character put back from the W.C. may move that turn) or
  after-sixth-turn ("out of play for the next 6 turns" includes the sixth: it moves from the next);
* ``wc_exit``: placed (put back next to the W.C., a character has not moved and stopped, so it buys
  nothing) or moved-and-stopped (the player moves its card back and it stops there: beside an
  ingredient it can pay, it must buy it first);
* ``matching``: per-ingredient (each drawing matched on its own, a card counting toward as many
  matchings as it has drawings) or per-card (each card toward one matching at most, the best for the
  character; its other drawings individual ingredients);
* ``six_matching``: as-five (matching on 6 or more cards gives 15 vp, every card counting toward it)
  or five-and-single (15 for five; on each card beyond, the ingredient gives 1 vp as an individual
  one). Under per-card a card may always be left out of a matching, so a sixth scores 1 either way.
The score lines these two decide name the reading and what the other would give.

The package: ``board`` (what the rulebook fixes, and the default city and cards), ``reading`` (what
a state says: where the pieces stand, what a character can reach and pay), ``rules`` (one check per
coded rule), ``engine`` (set-up, moves applied, legal moves, scores) and ``schemas`` (the shape of
states and moves).
"""

from service.engines.mamma.board import GAME
from service.engines.mamma.engine import Mamma
from service.engines.mamma.schemas import MammaMove, MammaState
from service.engines.registry import Game, register

register(Game(GAME, Mamma(), MammaState, MammaMove))
