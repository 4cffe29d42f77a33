"""The adjudicator's framework: rules as named validators, verdicts, and the engine interface.

Pure Python: no Flask, no HTTP, no I/O. States and moves are plain JSON-compatible dicts; an
engine reads them into its own model, and any randomness comes from the seed inside the state.

Three outcomes are never confused (python-chess's split):
* a malformed request is the client's bug (the HTTP layer's schemas refuse it, 400);
* an impossible state raises InvalidState, naming the field and the invariant (422);
* an illegal move is a normal verdict: legal false, with every rule it breaks.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

import yaml
from marshmallow import fields

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, where PyYAML was built with it: 8x faster

from indexer.corpus import LANGS


class Boolean(fields.Boolean):
    """JSON's true or false, and nothing else: marshmallow's own also takes 1, "yes" and "on",
    which a generated client never sends and a hand-written one should hear about."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):  # 1 == True in a set
            raise self.make_error("invalid", input=value)
        return value


class InvalidState(ValueError):
    """A state the game cannot reach: ``field`` is its path in the state, ``invariant`` the rule."""

    def __init__(self, field: str, invariant: str):
        super().__init__(f"{field}: {invariant}")
        self.field = field
        self.invariant = invariant


class InvalidMove(ValueError):
    """A move this game has no kind for, or that names things the state does not have."""

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


def is_whole(value, low: int | None = None) -> bool:
    """Whether ``value`` is a whole number (``low`` or more, when given); JSON's true and false are not."""
    return isinstance(value, int) and not isinstance(value, bool) and (low is None or value >= low)


def is_player(value, players: int) -> bool:
    """Whether ``value`` is a player index (0 to players - 1)."""
    return is_whole(value, 0) and value < players


def player_index(value, players: int, field: str = "player") -> int:
    """``value`` when it is a player index, else InvalidMove naming ``field``."""
    if not is_player(value, players):
        raise InvalidMove(field, f"a player index from 0 to {players - 1}")
    return value


def move_head(state: dict, move: dict, kinds) -> dict:
    """A move's kind (one of ``kinds``) and, when given, who makes it: where every parse_move begins."""
    kind = move.get("kind")
    if kind not in kinds:
        raise InvalidMove("kind", f"unknown move kind {kind!r}; one of {', '.join(kinds)}")
    out = {"kind": kind}
    if move.get("player") is not None:
        out["player"] = player_index(move["player"], len(state["players"]))
    return out


def require_players(players: int, low: int, high: int, why: str = "") -> None:
    """Setup's player count, or InvalidState naming the ``players`` field."""
    if not low <= players <= high:
        raise InvalidState("players", f"{low} to {high} players" + (f" ({why})" if why else ""))


def starting_player(options: dict, key: str, players: int) -> int:
    """A setup option naming a player (the first player, the tribal leader); 0 when absent."""
    value = options.get(key, 0)
    if not is_player(value, players):
        raise InvalidState(f"options.{key}", f"a player index from 0 to {players - 1}")
    return value


NOTHING = {"en": "nothing", "fr": "rien", "de": "nichts", "zh": "沒有"}


def nothing(lang: str) -> str:
    """A message value for no card, no shout, no one: in the asker's words, not a dash."""
    return NOTHING.get(lang, NOTHING["en"])


@dataclass(frozen=True)
class Citation:
    """The rulebook's exact words: a passage id and a quote inside that passage."""

    passage_id: str
    quote: str

    @property
    def lang(self) -> str:
        return self.passage_id.split(".")[1]

    def as_dict(self) -> dict:
        return {"passage_id": self.passage_id, "lang": self.lang, "quote": self.quote}


class Words:
    """A game's own words in en, fr, de and zh (rules/<game>.yaml's ``words``: its move kinds, pieces,
    decks, ...), for messages and for the web app: ``words.say("wife", "de")`` is "Ehefrau", and a
    message value "wife" is said so to a German asker; a key the file does not name stays as it is."""

    SEPARATOR = {"zh": "、"}

    def __init__(self, table: dict[str, dict[str, str]]):
        self.table = table

    def say(self, key: str, lang: str) -> str:
        names = self.table.get(key)
        return (names.get(lang) or names["en"]) if names else key

    def said(self, value, lang: str):
        """A message value in ``lang``: a function of the language called, a list joined with the
        language's comma ("-" when empty), one of the game's words translated, the rest as it is."""
        if callable(value):
            return value(lang)
        if isinstance(value, (list, tuple)):
            return self.SEPARATOR.get(lang, ", ").join(str(self.said(v, lang)) for v in value) or "-"
        return self.say(value, lang) if isinstance(value, str) else value

    def format(self, template: str, lang: str, values: dict) -> str:
        """A message template of the game's, its values said in ``lang``."""
        return template.format(**{k: self.said(v, lang) for k, v in values.items()})

    def by_lang(self) -> dict[str, dict[str, str]]:
        """lang -> key -> word: what GET /v1/games gives the web app."""
        return {lang: {key: self.say(key, lang) for key in self.table} for lang in LANGS}


NO_WORDS = Words({})


@dataclass(frozen=True)
class Rule:
    """One rule of a game: a stable code, where the rulebooks state it, and how to say it.

    ``check(model, move)`` yields one dict of message values per breach (none: the move keeps
    the rule). ``interpretation`` (in en, fr, de, zh) is set where the text leaves room and
    Referee chose a reading; ``disagreement`` names the entry of corpus/disagreements.yaml when
    the rulebooks of the game differ on this rule.
    """

    code: str
    citations: tuple[Citation, ...]
    messages: dict[str, str]
    check: Callable[[Any, Any], Iterable[dict]]
    interpretation: dict[str, str] | None = None
    disagreement: str | None = None
    words: Words = NO_WORDS  # the game's own words: a value that is one of them is said in the asker's

    def message(self, lang: str, values: dict) -> str:
        """The rule's message in ``lang``, its values said there too (Words.said)."""
        template = self.messages.get(lang) or self.messages["en"]
        return self.words.format(template, lang, values)


@dataclass
class Violation:
    code: str
    message: str
    citations: list[dict]
    interpretation: str | None = None
    disagreement: str | None = None
    values: dict = field(default_factory=dict)
    reading: dict | None = None  # the table's reading this verdict rests on: option, value, other

    def as_dict(self) -> dict:
        out = {"code": self.code, "message": self.message, "citations": self.citations}
        if self.interpretation:
            out["interpretation"] = self.interpretation
        if self.disagreement:
            out["disagreement"] = self.disagreement
        if self.reading:
            out["reading"] = self.reading
        return out


@dataclass(frozen=True)
class ReadingOption:
    """A point where a game's text allows two readings and a table chooses one with a setup option
    (rules/<game>.yaml's ``readings``): the option's name, its two values (the default first), what
    each means in en, fr, de and zh, and the rulebook's exact words both rest on."""

    option: str
    sets: str  # what the option decides, in English (setup_options)
    readings: dict[str, dict[str, str]]  # value -> lang -> what the value reads the words as
    citations: tuple[Citation, ...]

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(self.readings)

    @property
    def default(self) -> str:
        return self.values[0]

    def other(self, value: str) -> str:
        return next(v for v in self.values if v != value)

    def of(self, state: dict) -> str:
        """The reading a state's table chose (its ``readings``), the default where it names none."""
        return (state.get("readings") or {}).get(self.option, self.default)

    def meaning(self, value: str, lang: str) -> str:
        return self.readings[value].get(lang) or self.readings[value]["en"]

    def described(self) -> str:
        """What setup_options says of it: its values, the default first, and what it decides."""
        return f"{self.default} (the default) or {' or '.join(self.values[1:])}: {self.sets}."

    def as_dict(self) -> dict:
        """The option as GET /v1/games lists it: both readings and the words they rest on."""
        return {"option": self.option, "sets": self.sets, "default": self.default,
                "readings": [{"value": v, "meaning": dict(self.readings[v])} for v in self.values],
                "citations": [c.as_dict() for c in self.citations]}


# How a verdict names the reading it rests on: a refusal that the other reading would not make, and
# a legal move that the other reading would refuse (a note beside the verdict). French, German and
# Chinese say the readings in words only: the option's and values' ids (English) are in ``reading``.
RESTS_ON = {
    "en": "This rests on the reading this table chose for {option}: {value} ({meaning}). Under the other reading, "
          "{other} ({other_meaning}), the move would keep this rule.",
    "fr": "Ce verdict repose sur la lecture que cette table a choisie : {meaning}. Selon l’autre lecture "
          "({other_meaning}), le coup respecterait cette règle.",
    "de": "Das beruht auf der Lesart, die dieser Tisch gewählt hat: {meaning}. Nach der anderen Lesart "
          "({other_meaning}) hielte der Zug diese Regel ein.",
    "zh": "這個判定取決於這一桌選的解讀：{meaning}。依另一種解讀（{other_meaning}），這一步不違反這條規則。",
}
LEGAL_UNDER = {
    "en": "Legal under the reading this table chose for {option}: {value} ({meaning}). Under the other reading, "
          "{other} ({other_meaning}), the move would break this rule.",
    "fr": "Permis selon la lecture que cette table a choisie : {meaning}. Selon l’autre lecture "
          "({other_meaning}), le coup enfreindrait cette règle.",
    "de": "Erlaubt nach der Lesart, die dieser Tisch gewählt hat: {meaning}. Nach der anderen Lesart "
          "({other_meaning}) bräche der Zug diese Regel.",
    "zh": "依這一桌選的解讀，這一步合法：{meaning}。依另一種解讀（{other_meaning}），這一步會違反這條規則。",
}


SCORED_UNDER = {
    "en": "This line rests on the reading this table chose for {option}: {value} ({meaning}). Under the other reading, "
          "{other} ({other_meaning}), it would be {points} vp.",
    "fr": "Cette ligne repose sur la lecture que cette table a choisie : {meaning}. Selon l’autre lecture "
          "({other_meaning}), elle vaudrait {points} pv.",
    "de": "Diese Zeile beruht auf der Lesart, die dieser Tisch gewählt hat: {meaning}. Nach der anderen Lesart "
          "({other_meaning}) wären es {points} SP.",
    "zh": "這一行取決於這一桌選的解讀：{meaning}。依另一種解讀（{other_meaning}），會是 {points} 分。",
}


def reading_said(option: ReadingOption, value: str, template: dict[str, str], lang: str, **more) -> tuple[str, dict]:
    """The sentence naming the table's reading and the other (``more``: the template's other
    values), and the reading as data."""
    other = option.other(value)
    text = (template.get(lang) or template["en"]).format(
        option=option.option, value=value, meaning=option.meaning(value, lang),
        other=other, other_meaning=option.meaning(other, lang), **more)
    return text, {"option": option.option, "value": value, "other": other}


def rests_on(violation: Violation, option: ReadingOption, value: str, template: dict[str, str], lang: str) -> Violation:
    """The violation (or note) naming the reading it rests on and the other, and citing the words
    both readings rest on besides its rule's own."""
    violation.interpretation, violation.reading = reading_said(option, value, template, lang)
    cited = {(c["passage_id"], c["quote"]) for c in violation.citations}
    violation.citations += [c.as_dict() for c in option.citations if (c.passage_id, c.quote) not in cited]
    return violation


RULES_DATA = Path(__file__).resolve().parent / "rules"


@lru_cache(maxsize=None)
def _rule_data(game: str) -> dict:
    """service/engines/rules/<game>.yaml: the game's rule prose, read once per process."""
    return yaml.load((RULES_DATA / f"{game}.yaml").read_text(encoding="utf-8"), Loader=SafeLoader)


def load_words(game: str) -> Words:
    return Words(_rule_data(game).get("words", {}))


def _citations(entry: dict) -> tuple[Citation, ...]:
    return tuple(Citation(c["passage"], c["quote"]) for c in entry["citations"])


def rule(code: str):
    """Binds a check function to the rule it checks, by the rule's stable code in rules/<game>.yaml:
    ``@rule("mamma-mia/turn.same-kind")`` above the function."""
    def bind(check):
        check.code = code
        return check
    return bind


def load_rules(game: str, module: dict[str, Any]) -> tuple[Rule, ...]:
    """The game's rules, in the order of its data file, each with the check function of ``module``
    (a module's ``globals()``) that ``@rule`` binds to its code.

    Every code of the file needs a check and every check a code: a rule cannot go unchecked, nor
    a check go without its words.
    """
    checks: dict[str, Callable[[Any, Any], Iterable[dict]]] = {}
    for value in module.values():
        code = getattr(value, "code", None) if callable(value) else None
        if isinstance(code, str):
            if code in checks and checks[code] is not value:
                raise ValueError(f"{game}: two checks for {code}: {checks[code].__name__} and {value.__name__}")
            checks[code] = value
    entries, words = _rule_data(game)["rules"], load_words(game)
    codes = [e["code"] for e in entries]
    if set(codes) != set(checks) or len(codes) != len(set(codes)):
        unbound, unwritten = set(codes) - set(checks), set(checks) - set(codes)
        raise ValueError(f"{game}: rules without a check {sorted(unbound)}, checks without a rule {sorted(unwritten)}")
    return tuple(
        Rule(e["code"], _citations(e), e["messages"], checks[e["code"]], e.get("interpretation"), e.get("disagreement"),
             words)
        for e in entries
    )


def load_readings(game: str) -> tuple[ReadingOption, ...]:
    """The points where the game's text allows two readings, each a setup option (rules/<game>.yaml's
    ``readings``, in its order)."""
    return tuple(ReadingOption(e["option"], e["sets"], e["readings"], _citations(e)) for e in _rule_data(game).get("readings", []))


def reads(*options: str):
    """Marks a check whose verdict can rest on the table's reading of these options (a ReadingOption's
    name): the engine then says which reading a refusal rests on, and notes a legal move the other
    reading would refuse."""
    def mark(check):
        check.reads = options
        return check
    return mark


def load_mistakes(game: str) -> dict[str, tuple[Citation, dict[str, str]]]:
    """Mistakes a game names after the fact (not rules of moves): code suffix -> (citation, messages)."""
    return {e["code"].rsplit(".", 1)[1]: (_citations(e)[0], e["messages"]) for e in _rule_data(game).get("mistakes", [])}


@dataclass(frozen=True)
class Scoring:
    """A scoring rule of a game ("most completed orders wins"): a stable code, where the rulebooks
    state it, and how to say one player's line of it ({value} filled in) in en, fr, de and zh."""

    code: str
    citations: tuple[Citation, ...]
    messages: dict[str, str]
    words: Words = NO_WORDS  # the game's own words, as in Rule

    def line(self, lang: str, value: int | None = None, **values) -> dict:
        template = self.messages.get(lang) or self.messages["en"]
        line = {"code": self.code, "message": self.words.format(template, lang, {"value": value, **values}),
                "citations": [c.as_dict() for c in self.citations]}
        return line if value is None else {**line, "value": value}


def load_scoring(game: str) -> dict[str, Scoring]:
    """A game's scoring rules, by the last part of their code."""
    words = load_words(game)
    return {e["code"].rsplit(".", 1)[1]: Scoring(e["code"], _citations(e), e["messages"], words)
            for e in _rule_data(game).get("scoring", [])}


def rank_rows(rows: list[dict], key: Callable[[dict], Any]) -> list[dict]:
    """Per-player rows best first by ``key`` (higher is better), each with its ``rank``: one more
    than the rows ahead of it, so equal keys share a rank."""
    rows = sorted(rows, key=key, reverse=True)
    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if key(other) > key(row))
    return rows


def ranked(rows: list[dict], final: bool, winners: list[int] | None = None, tie_break: dict | None = None) -> dict:
    """Standings from per-player rows with a ``key`` (higher is better): ranks shared on equal keys;
    the winners are the game's own once it is over (``winners``), else whoever leads now."""
    rows = rank_rows(rows, key=lambda r: r["key"])
    leaders = [r["player"] for r in rows if r["rank"] == 1]
    winners = winners if final and winners else leaders
    return {"final": final, "players": [{k: v for k, v in r.items() if k != "key"} for r in rows],
            "winners": winners, "tie_break": tie_break, "shared": len(winners) > 1}


def standings(engine: Engine, state: dict, lang: str = "en") -> dict:
    """Each player's standing now (final once the game is over), one cited line per scoring rule."""
    engine.validate(state)
    return engine.standings(state, lang if lang in LANGS else "en")


def run_rules(rules: Iterable[Rule], model, move, lang: str = "en") -> list[Violation]:
    """Every rule the move breaks, in the order the rules are listed (all, not just the first)."""
    lang = lang if lang in LANGS else "en"
    found = []
    for rule in rules:
        for values in rule.check(model, move):
            cites = sorted(rule.citations, key=lambda c: c.lang != lang)  # the asker's language first
            found.append(
                Violation(
                    code=rule.code,
                    message=rule.message(lang, values),
                    citations=[c.as_dict() for c in cites],
                    interpretation=(rule.interpretation or {}).get(lang) if rule.interpretation else None,
                    disagreement=rule.disagreement,
                    values={k: v for k, v in values.items() if not callable(v)},
                )
            )
    return found


def breaks_a_rule(rules: Iterable[Rule], model, move) -> bool:
    """Whether the move breaks any of the rules: run_rules's question without its messages, for
    legal_moves, where most candidates are refused and only the yes or no is wanted."""
    return any(True for rule in rules for _ in rule.check(model, move))


class Engine(Protocol):
    """What every game's engine offers; the HTTP routes are the same for every game."""

    game: str
    rules: tuple[Rule, ...]
    rulesets: tuple[str, ...]  # alternative readings a table can choose at setup (first: the default)
    readings: tuple[ReadingOption, ...]  # points of the text read two ways, each its own setup option
    players: tuple[int, int]  # the player counts setup accepts
    setup_options: dict[str, str]  # setup option -> what it sets

    def setup(self, players: int, seed: int, options: dict) -> dict: ...

    def validate(self, state: dict) -> None:
        """Raise InvalidState when the state breaks one of the game's invariants."""

    def check(self, state: dict, move: dict, lang: str = "en") -> list[Violation]: ...

    def canonical(self, state: dict, move: dict) -> dict:
        """The move as legal_moves lists it: two moves are the same move when these are equal."""

    def apply(self, state: dict, move: dict) -> dict:
        """The state after a legal move (the given state is not changed)."""

    def legal_moves(self, state: dict) -> list[dict]: ...

    def result(self, state: dict) -> dict | None:
        """Final standings and winners once the game is over, else None."""

    def examples(self) -> list[tuple[str, str, dict, dict]]:
        """A worked example per move kind: (name, summary, state, move), on seeded states."""

    def standings(self, state: dict, lang: str) -> dict:
        """Each player's points or measure now, a cited line per scoring rule, the winners and the
        tie-break (see ``ranked``)."""

    # Optional: outcome(state, move, lang) -> dict | None, what a legal move led to where the game
    # judges more than the move (Mammut Mambo's dancers' mistakes); adjudicate adds it when present.
    # Optional: notes(state, move, lang) -> list[Violation], the rules a legal move keeps only under
    # the table's reading (BaseEngine's, for a game with ``readings``); adjudicate adds them when any.


class BaseEngine:
    """What every engine shares (python-chess's Board, whose variants override hooks): checking a
    move is running the game's rules on it, and the legal moves are the candidates no rule objects
    to, through the very same rules, so a verdict and the move list never disagree.

    A game provides ``rules``, ``parse_move`` (the move in canonical form, InvalidMove for an
    unknown kind or name), ``candidates`` (every move worth considering) and ``validate``; it may
    override ``prepared`` (a state with the defaults a client may leave out filled in).
    """

    game: str
    rules: tuple[Rule, ...]
    rulesets: tuple[str, ...] = ()
    readings: tuple[ReadingOption, ...] = ()
    players: tuple[int, int]
    setup_options: dict[str, str] = {}

    players_note: str = ""  # why the player counts are what they are, where the rulebook does not say

    def setup_options_read(self, players: int, options: dict | None) -> tuple[dict, str | None]:
        """Setup's common checks: the player count, and the ruleset option where the game has
        readings to choose from. Returns the options and the ruleset (the default when absent)."""
        options = options or {}
        for name in options:  # a misspelt option ("first_playr") would otherwise be ignored unsaid
            if name not in self.setup_options:
                raise InvalidState(f"options.{name}", f"an option of this game: {', '.join(self.setup_options)}")
        require_players(players, *self.players, self.players_note)
        ruleset = options.get("ruleset", self.rulesets[0]) if self.rulesets else None
        if self.rulesets and ruleset not in self.rulesets:
            raise InvalidState("options.ruleset", f"one of {', '.join(self.rulesets)}")
        for option in self.readings:
            if options.get(option.option, option.default) not in option.values:
                raise InvalidState(f"options.{option.option}", f"one of {', '.join(option.values)}")
        return options, ruleset

    def readings_chosen(self, options: dict) -> dict[str, str]:
        """The state's ``readings``: each reading option's value, the default where the options say none."""
        return {o.option: options.get(o.option, o.default) for o in self.readings}

    def validate_readings(self, state: dict) -> None:
        """A state's ``readings`` (absent: every default): only the game's options, each a value it has."""
        chosen = state.get("readings") or {}
        if not isinstance(chosen, dict):
            raise InvalidState("readings", "each reading option's value, by option")
        known = {o.option: o for o in self.readings}
        for name, value in chosen.items():
            if name not in known:
                raise InvalidState(f"readings.{name}", f"a reading option of this game: {', '.join(known) or 'none'}")
            if value not in known[name].values:
                raise InvalidState(f"readings.{name}", f"one of {', '.join(known[name].values)}")

    def _read_otherwise(self, state: dict, option: ReadingOption) -> dict:
        """The state as a table with the other reading of ``option`` would have it (prepared afresh)."""
        other = option.other(option.of(state))
        return self.prepared({**state, "readings": {**(state.get("readings") or {}), option.option: other}})

    def _reading_options(self, rule: Rule) -> list[ReadingOption]:
        names = getattr(rule.check, "reads", ())
        return [o for o in self.readings if o.option in names]

    def validate_head(self, state: dict, phases, *player_fields) -> int:
        """Where every validate begins: this game's state, its player count, a known phase, and
        each of ``player_fields`` a player index. The number of players."""
        if state.get("game", self.game) != self.game:
            raise InvalidState("game", f"this is a {self.game} state, not {state.get('game')!r}")
        n = self.validate_players(state)
        if state["phase"] not in phases:
            raise InvalidState("phase", f"one of {', '.join(phases)}")
        for name in player_fields:
            if not is_player(state[name], n):
                raise InvalidState(name, f"a player index from 0 to {n - 1}")
        return n

    def validate_players(self, state: dict) -> int:
        """The number of players of a state, or InvalidState when the game cannot have that many."""
        n = len(state["players"])
        low, high = self.players
        if not low <= n <= high:
            raise InvalidState("players", f"{low} to {high} players, not {n}")
        return n

    def prepared(self, state: dict) -> dict:
        """The state with what a client may leave out filled in: the state itself, or a copy."""
        return state

    def parse_move(self, state: dict, move: dict) -> dict:
        raise NotImplementedError

    def candidates(self, state: dict) -> list[dict]:
        raise NotImplementedError

    def validate(self, state: dict) -> None:
        raise NotImplementedError

    def rules_for(self, move: dict) -> tuple[Rule, ...]:
        """The rules that can object to a (parsed) move: all of them, unless the game knows better."""
        return self.rules

    def check(self, state: dict, move: dict, lang: str = "en") -> list[Violation]:
        """Every rule the move breaks (all of them), in the asker's language; a refusal that the
        other reading of one of the game's reading options would not make says so."""
        state = self.prepared(state)
        move = self.parse_move(state, move)
        found = run_rules(self.rules_for(move), state, move, lang)
        if self.readings and found:
            by_code = {rule.code: rule for rule in self.rules}
            for violation in found:
                rule = by_code[violation.code]
                for option in self._reading_options(rule):
                    if not any(True for _ in rule.check(self._read_otherwise(state, option), move)):
                        rests_on(violation, option, option.of(state), RESTS_ON, lang)
                        break
        return found

    def notes(self, state: dict, move: dict, lang: str = "en") -> list[Violation]:
        """For a legal move: each rule it would break under the other reading of one of the game's
        reading options, as that refusal, its interpretation naming both readings."""
        state = self.prepared(state)
        move = self.parse_move(state, move)
        out = []
        for rule in self.rules_for(move):
            for option in self._reading_options(rule):
                for violation in run_rules((rule,), self._read_otherwise(state, option), move, lang):
                    out.append(rests_on(violation, option, option.of(state), LEGAL_UNDER, lang))
        return out

    def canonical(self, state: dict, move: dict) -> dict:
        """The move as legal_moves lists it (parsed, without who made it): two moves are the same
        move when their canonical forms are equal."""
        move = self.parse_move(self.prepared(state), move)
        return {k: v for k, v in move.items() if k != "player"}

    def apply(self, state: dict, move: dict) -> dict:
        """The state after a legal move (the given state is not changed): ``_apply_<kind>`` of the
        move's kind ("exchange-table" -> ``_apply_exchange_table``) changes a copy, then
        ``after_move`` does what follows every move (a round that ends, a service that stops)."""
        prepared = self.prepared(state)
        state = copy.deepcopy(state) if prepared is state else prepared  # a prepared state is a copy already
        move = self.parse_move(state, move)
        getattr(self, f"_apply_{move['kind'].replace('-', '_')}")(state, move)
        self.after_move(state, move)
        return state

    def after_move(self, state: dict, move: dict) -> None:
        """What follows every move of the game; nothing unless the game says."""

    def legal_moves(self, state: dict) -> list[dict]:
        """The candidates that break no rule: the same validators as check, so they agree."""
        self.validate(state)
        state = self.prepared(state)
        legal = []
        for candidate in self.candidates(state):
            move = self.parse_move(state, candidate)
            if not breaks_a_rule(self.rules_for(move), state, move):
                legal.append(candidate)
        return legal


def adjudicate(engine: Engine, state: dict, move: dict, lang: str = "en") -> dict:
    """The verdict on one move: legal with the state after it, or every rule it breaks."""
    engine.validate(state)
    violations = engine.check(state, move, lang)
    if violations:
        return {"legal": False, "violations": [v.as_dict() for v in violations], "state": None}
    verdict = {"legal": True, "violations": [], "state": engine.apply(state, move)}
    if getattr(engine, "readings", ()) and (notes := engine.notes(state, move, lang)):
        verdict["notes"] = [n.as_dict() for n in notes]
    outcome = getattr(engine, "outcome", None)  # what a legal move led to, where the game says more
    if outcome is not None and (described := outcome(state, move, lang)) is not None:
        verdict["outcome"] = described
    return verdict


def replay(engine: Engine, state: dict, moves: list[dict], lang: str = "en") -> dict:
    """Check a whole sequence: the first illegal move with its verdict and the state before it."""
    engine.validate(state)
    for index, move in enumerate(moves):
        violations = engine.check(state, move, lang)
        if violations:
            return {
                "legal": False,
                "checked": index + 1,
                "first_illegal": {
                    "index": index,
                    "move": move,
                    "verdict": {"legal": False, "violations": [v.as_dict() for v in violations], "state": None},
                    "state_before": state,
                },
                "state": state,
            }
        state = engine.apply(state, move)
    return {"legal": True, "checked": len(moves), "first_illegal": None, "state": state}
