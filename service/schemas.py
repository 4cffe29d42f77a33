"""Every input and output of the HTTP API, named for its direction (…Args/…In in, …Out out).

marshmallow checks the shape of what clients send; the domain checks the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate

from indexer.added import GAME_ID, MAX_GAME_ID
from indexer.corpus import KINDS, LANGS
from service.engines import GAMES
from service.engines.base import Boolean

MAX_QUERY_CHARS = 500
MAX_LIMIT = 50

# Text a person typed: something besides white space, and no control characters (tab and line
# breaks are allowed). One pattern serves the check and the OpenAPI description, written with
# explicit classes so that Python and ECMA-262 regular expressions read it alike.
_CONTROL = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f"
_SPACE = r"\t\n\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
TYPED_TEXT = validate.Regexp(
    rf"^[^{_CONTROL}]*[^{_CONTROL}{_SPACE}][^{_CONTROL}]*$",
    error="must contain something besides white space, and no control characters",
)

# Some text once white space is stripped (Python's str.strip, as the chat reads a message)
SOME_TEXT = rf"[^{_SPACE}\x0b\x0c\x1c-\x1f]"


def _lang(**kwargs):
    return fields.String(validate=validate.OneOf(LANGS), **kwargs)


def game_id(**kwargs):
    """A game's id: the shipped games' and those tables added (GET /v1/games lists them); a
    well-formed id of no game is a 404, not a 400."""
    return fields.String(validate=[validate.Length(min=1, max=MAX_GAME_ID), validate.Regexp(
        GAME_ID.pattern, error="is a game id: lower-case letters and digits joined by hyphens")], **kwargs)


# ---- errors ---------------------------------------------------------------------------------


class ProblemOut(Schema):
    """An error, as RFC 9457 problem details (application/problem+json)."""

    type = fields.String(metadata={"description": "A URI naming the kind of problem; about:blank for plain HTTP errors."})
    title = fields.String(metadata={"description": "Short summary of the kind of problem."})
    status = fields.Integer(metadata={"description": "The HTTP status code."})
    detail = fields.String(metadata={"description": "What went wrong with this request, for a person to read."})
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        metadata={"description": "Where input was invalid: field path -> messages."},
    )
    request_id = fields.String(metadata={"description": "The request's id, as in the X-Request-ID header and the log."})


# ---- health ---------------------------------------------------------------------------------


class HealthOut(Schema):
    status = fields.String(required=True, metadata={"example": "ok"})
    index = fields.String(required=True, metadata={"description": "The index generation being served."})
    built_at = fields.String(required=True, metadata={"description": "When that index was built (UTC)."})
    passages = fields.Integer(required=True)
    rulebooks = fields.Integer(required=True)


# ---- games and rulebooks --------------------------------------------------------------------


class PlayersOut(Schema):
    min = fields.Integer(allow_none=True)
    max = fields.Integer(allow_none=True)
    stated = Boolean(metadata={"description": "False when the rulebook does not state the count."})
    note = fields.String(metadata={"description": "How the count was inferred, when it is not stated."})


class ReadingOut(Schema):
    value = fields.String(required=True, metadata={"example": "as-forwards"})
    meaning = fields.Dict(keys=_lang(), values=fields.String(), required=True, metadata={
        "description": "What this reading takes the rulebook's words to mean, in en, fr, de and zh."})


class ReadingCitationOut(Schema):
    passage_id = fields.String(required=True)
    lang = _lang(required=True)
    quote = fields.String(required=True, metadata={"description": "The rulebook's exact words."})


class ReadingOptionOut(Schema):
    option = fields.String(required=True, metadata={
        "description": "The setup option (and the key in the state's readings) that chooses the reading.",
        "example": "sideways_first_space"})
    sets = fields.String(required=True, metadata={"description": "What the option decides."})
    default = fields.String(required=True, metadata={"description": "The reading a table gets without the option."})
    readings = fields.List(fields.Nested(ReadingOut), required=True, validate=validate.Length(equal=2), metadata={
        "description": "Both readings, the default first."})
    citations = fields.List(fields.Nested(ReadingCitationOut), required=True, metadata={
        "description": "The rulebook's words both readings rest on."})


class MoveFieldOut(Schema):
    name = fields.String(required=True, metadata={"description": "The field as a move writes it.", "example": "give"})
    shape = fields.String(required=True, validate=validate.OneOf(("one", "some", "counts", "number", "flag", "steps")), metadata={
        "description": "How its value is made: one of the choices, a list of some of them, a count for each (an object), "
                       "a whole number, true or false, or each player's list of steps (a dance: {gesture, shout})."})
    required = Boolean(required=True, metadata={"description": "Whether a move of this kind needs it (400 without)."})
    can_be_null = Boolean(required=True, metadata={"description": "Whether it may be null (nothing chosen)."})
    choices = fields.List(fields.String(), required=True, metadata={
        "description": "Where its values come from: a value as it is, \"@path\" the ids at a path of the state (a list's items, "
                       "an object's keys, one value; \"*\" any key or item, \"{path}\" the value at another path, \"?kind=x\" "
                       "only the cards of state.cards of that kind), \"#path\" the indices of the list at a path (the players). "
                       "Empty for a number or a flag.",
        "example": ["@players.{turn}.hand"]})


class MoveKindOut(Schema):
    kind = fields.String(required=True, metadata={"example": "swap"})
    fields_ = fields.List(fields.Nested(MoveFieldOut), required=True, data_key="fields", attribute="fields", metadata={
        "description": "The fields a move of this kind is made of (who makes it is implied by the state)."})
    path = fields.String(metadata={"description": "For a kind whose moves come in runs, one step each (a piece moving "
                                                  "space by space): the field each step names anew."})


class AdjudicatorOut(Schema):
    routes = fields.List(fields.String(), required=True, metadata={
        "description": "The game's adjudication routes.", "example": ["/v1/games/moemmen/setup"]})
    players = fields.List(fields.Integer(), required=True, validate=validate.Length(equal=2), metadata={
        "description": "The fewest and most players setup accepts."})
    rulesets = fields.List(fields.String(), required=True, metadata={
        "description": "Readings a table can choose with the setup option ruleset, the default first; empty when there is one."})
    readings = fields.List(fields.Nested(ReadingOptionOut), required=True, metadata={
        "description": "Each point where the rulebook's words allow two readings and the table chooses one with a setup "
                       "option of that name: both readings and the words they rest on. A verdict that rests on one names "
                       "it and the other (a violation's or a note's reading and interpretation). Empty when there is none."})
    setup_options = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "Setup options and what each sets."})
    moves = fields.List(fields.Nested(MoveKindOut), required=True, metadata={
        "description": "Each kind of move and the fields it is made of, with where their choices come from in a state: "
                       "what a client needs to build a move, legal or not, from the game's own components."})
    words = fields.Dict(keys=fields.String(validate=validate.OneOf((*LANGS, "zh-Hans"))), values=fields.Dict(keys=fields.String(), values=fields.String()), required=True, metadata={
        "description": "The game's own words in each language: its move kinds, their fields, and the pieces, piles and "
                       "places the moves name, by the key a move or state writes (\"wife\": \"Ehefrau\"); zh-Hans: the Chinese "
                       "words in Simplified script. A key "
                       "without a word is shown as it is (card ids, spaces).",
        "example": {"de": {"take": "Karte nehmen", "wife": "Ehefrau"}}})


class GameOut(Schema):
    id = fields.String(required=True, metadata={"example": "mamma-mia"})
    names = fields.Dict(
        keys=fields.String(), values=fields.String(), required=True,
        metadata={"description": "Display name in each language Referee answers in."},
    )
    rulebooks = fields.List(_lang(), required=True, metadata={"description": "Languages of its rulebooks."})
    players = fields.Nested(PlayersOut, required=True)
    designer = fields.String()
    publisher = fields.String()
    adjudicator = fields.Nested(AdjudicatorOut, allow_none=True, required=True, metadata={
        "description": "What the adjudicator offers (setup, legal moves, verdicts, replay); null when the game has none yet."})


class GamesOut(Schema):
    games = fields.List(fields.Nested(GameOut), required=True)


class OutlineSectionOut(Schema):
    anchor = fields.String(required=True, metadata={"description": "Stable anchor, unique in its rulebook."})
    title = fields.String(required=True)
    level = fields.Integer(required=True, metadata={"description": "Heading level, 1 for a top section."})
    path = fields.List(fields.String(), required=True, metadata={"description": "Titles from the top section down."})
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    editorial = Boolean(required=True, metadata={"description": "True when Referee added this heading."})
    passages = fields.Integer(required=True, metadata={"description": "How many passages the section holds."})


class RulebookOutlineOut(Schema):
    lang = _lang(required=True)
    title = fields.String(required=True)
    source = fields.String(required=True, metadata={"description": "The file the rulebook was received as."})
    provenance = fields.String(metadata={"description": "What the source is and what was done to it."})
    missing = fields.String(metadata={"description": "What the rulebook does not give."})
    sections = fields.List(fields.Nested(OutlineSectionOut), required=True)


class Alias(fields.String):
    """The value of another key under a new name: a field renamed with its old name kept beside it
    (marked deprecated) until the next API version."""

    def __init__(self, source: str, **kwargs):
        super().__init__(dump_only=True, **kwargs)
        self.source = source

    def serialize(self, attr, obj, accessor=None, **kwargs):
        return super().serialize(self.source, obj, accessor, **kwargs)


class DisagreementSideOut(Schema):
    passage_id = Alias(required=True, source="passage", metadata={"description": "The side's passage."})
    passage = fields.String(required=True, metadata={"deprecated": True, "description": "The passage id under its old name: use passage_id (passage goes in v2)."})
    lang = _lang(required=True)
    quote = fields.String(required=True, metadata={"description": "The rulebook's exact words, inside the passage."})


class DisagreementOut(Schema):
    id = fields.String(required=True, metadata={"example": "minimale-fewest"})
    game = fields.String(required=True)
    kind = fields.String(
        required=True, validate=validate.OneOf(("disagreement", "one-text-only")),
        metadata={"description": "disagreement: the texts say different things; one-text-only: one is silent."},
    )
    topic = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    summary = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    sides = fields.List(fields.Nested(DisagreementSideOut), required=True)


class GameDetailOut(GameOut):
    outlines = fields.List(fields.Nested(RulebookOutlineOut), required=True)
    disagreements = fields.List(
        fields.Nested(DisagreementOut), required=True,
        metadata={"description": "Where this game's rulebooks disagree or only one speaks."},
    )


class PassageBriefOut(Schema):
    passage_id = Alias(required=True, source="id", metadata={"example": "mamma-mia.fr.oven.1"})
    id = fields.String(required=True, metadata={"deprecated": True, "description": "The passage id under its old name: use passage_id (id goes in v2)."})
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    text = fields.String(required=True)
    page = fields.Integer(allow_none=True, metadata={"description": "The page it is printed on (1-based), in a rulebook with pages (a PDF); absent or null otherwise."})


class RulebookSectionOut(OutlineSectionOut):
    passages = fields.List(fields.Nested(PassageBriefOut), required=True)


class RulebookOut(Schema):
    game = fields.String(required=True)
    lang = _lang(required=True)
    title = fields.String(required=True)
    source = fields.String(required=True)
    provenance = fields.String()
    missing = fields.String()
    sections = fields.List(fields.Nested(RulebookSectionOut), required=True)


class PassageOut(Schema):
    passage_id = Alias(required=True, source="id", metadata={"example": "mamma-mia.fr.oven.1"})
    id = fields.String(required=True, metadata={"deprecated": True, "description": "The passage id under its old name: use passage_id (id goes in v2)."})
    game = fields.String(required=True)
    lang = _lang(required=True)
    anchor = fields.String(required=True, metadata={"description": "Anchor of its section."})
    section = fields.String(required=True, metadata={"description": "Title of its section."})
    section_path = fields.List(fields.String(), required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    text = fields.String(required=True, metadata={"description": "The rulebook's exact words."})
    page = fields.Integer(allow_none=True, metadata={"description": "The page it is printed on (1-based), in a rulebook with pages (a PDF); absent or null otherwise."})


# ---- rulebooks tables add ---------------------------------------------------------------------


class RulebookUploadIn(Schema):
    """A rulebook's upload: multipart/form-data with the file and, optionally, its name and language."""

    file = fields.Raw(required=True, metadata={"type": "string", "format": "binary", "description":
                      "The rulebook: a PDF (with text, not a scan), Markdown, plain text or a saved web page."})
    name = fields.String(validate=validate.Length(min=1, max=80), metadata={
        "description": "The game's display name, in any script (a new game; default: the rulebook's title)."})
    lang = _lang(metadata={"description": "The rulebook's language; detected from its text when absent."})


class UploadLinksOut(Schema):
    upload = fields.String(required=True, metadata={"description": "Where this upload stands (GET)."})
    game = fields.String(required=True, metadata={"description": "The game, once the upload is ready."})


class UploadOut(Schema):
    upload = fields.String(required=True, metadata={"description": "The upload's id."})
    status = fields.String(required=True, validate=validate.OneOf(("building", "ready", "failed")), metadata={
        "description": "building: the index is being rebuilt; ready: served within seconds; failed: see error."})
    game = fields.String(required=True)
    lang = _lang(required=True, metadata={"description": "The rulebook's language, given or detected."})
    removed = Boolean(metadata={"description": "True when the upload removes the rulebook."})
    title = fields.String(metadata={"description": "The rulebook's title, as read."})
    format = fields.String(validate=validate.OneOf(("pdf", "markdown", "text", "html")))
    pages = fields.Integer(allow_none=True, metadata={"description": "A PDF's page count."})
    sections = fields.Integer(metadata={"description": "The sections found."})
    passages = fields.Integer(metadata={"description": "The passages found."})
    new_game = Boolean(metadata={"description": "True when the rulebook adds a game."})
    generation = fields.String(metadata={"description": "The index generation that serves it, once ready."})
    seconds = fields.Float(metadata={"description": "How long the rebuild took."})
    error = fields.String(metadata={"description": "What failed."})
    links = fields.Nested(UploadLinksOut, required=True)


# ---- what tables confirm ----------------------------------------------------------------------


class FeedbackIn(Schema):
    question = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_QUERY_CHARS), TYPED_TEXT],
                             metadata={"description": "The question as it was asked.", "example": "wer fängt an?"})
    passage_id = fields.String(required=True, validate=validate.Length(min=1, max=200), metadata={
        "description": "The passage that answered it (one of the answer's citations, say).", "example": "moemmen.en.setup.2"})
    helpful = Boolean(load_default=True, metadata={
        "description": "True: this passage answered the question (the default); false: it did not."})
    game = game_id(metadata={"description": "The game asked about; must be the passage's."})
    lang = _lang(metadata={"description": "The question's language; detected when absent."})


class FeedbackArgs(Schema):
    game = game_id(metadata={"description": "Only this game's."})


class FeedbackOut(Schema):
    id = fields.String(required=True)
    date = fields.String(required=True, metadata={"description": "When it was given (UTC, ISO 8601)."})
    game = fields.String(required=True)
    passage_id = fields.String(required=True)
    lang = _lang(required=True, metadata={"description": "The question's language."})
    question = fields.String(required=True)
    helpful = Boolean(required=True)
    confirmed = Boolean(required=True, metadata={
        "description": "Given from this machine or with the API key: a helpful one joins the game's players' questions."})
    rebuild = fields.String(metadata={"description": "The rebuild it started, to follow (GET)."})


class FeedbackListOut(Schema):
    feedback = fields.List(fields.Nested(FeedbackOut), required=True)


# ---- search ---------------------------------------------------------------------------------


class SearchArgs(Schema):
    q = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=MAX_QUERY_CHARS), TYPED_TEXT],
        metadata={"description": 'The question or keywords; "quoted phrases" must match as written.'},
    )
    game = game_id(load_default=None, metadata={"description": "Only this game's rulebooks (GET /v1/games lists them)."})
    lang = _lang(
        load_default=None,
        metadata={"description": "The asker's language; detected from the question when absent."},
    )
    limit = fields.Integer(
        load_default=10, validate=validate.Range(min=1, max=MAX_LIMIT),
        metadata={"description": f"How many hits at most (1 to {MAX_LIMIT})."},
    )


class LanguageHintArgs(Schema):
    """Headers that help read a question."""

    class Meta:
        unknown = EXCLUDE  # every other header

    accept_language = fields.String(
        data_key="Accept-Language", load_default=None,
        metadata={"description": "The asker's languages (en, fr, de, zh): used when neither `lang` nor the "
                                 "question tells. For Chinese, zh-Hans (zh-CN, zh-SG) or zh-Hant (zh-TW, zh-HK) "
                                 "also chooses the script of Referee's words when the question's characters do "
                                 "not tell."},
    )


class SearchQueryOut(Schema):
    q = fields.String(required=True)
    lang = _lang(allow_none=True, required=True, metadata={"description": "The asker's language, given or detected; null when it cannot be told."})
    game = fields.String(allow_none=True, required=True)


class HitOut(Schema):
    passage_id = Alias(required=True, source="id", metadata={"example": "mamma-mia.fr.oven.1"})
    id = fields.String(required=True, metadata={"deprecated": True, "description": "The passage id under its old name: use passage_id (id goes in v2)."})
    game = fields.String(required=True)
    lang = _lang(required=True, metadata={"description": "The passage's language (not the asker's)."})
    section = fields.String(required=True)
    section_path = fields.List(fields.String(), required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    text = fields.String(required=True, metadata={"description": "The whole passage, the rulebook's exact words."})
    snippet = fields.String(
        required=True,
        metadata={"description": "The passage as HTML-escaped text, matched words wrapped in <mark>…</mark>."},
    )
    highlights = fields.List(
        fields.List(fields.Integer(), validate=validate.Length(equal=2)), required=True,
        metadata={"description": "The same matches as [start, end) character offsets into text."},
    )
    score = fields.Float(required=True, metadata={"description": "Referee's relevance score; comparable within one response only."})
    page = fields.Integer(allow_none=True, metadata={"description": "The page it is printed on (1-based), in a rulebook with pages (a PDF); absent or null otherwise."})
    confidence = fields.Float(
        required=True, validate=validate.Range(0, 1),
        metadata={"description": "The estimated chance that this passage is the one that answers (the hits' chances "
                                 "share 1 with the other candidates)."},
    )


class DidYouMeanOut(Schema):
    text = fields.String(required=True, metadata={"description": "The question with its spelling corrected; the search used it."})
    message = fields.String(required=True, metadata={"description": "'Did you mean: …' in the asker's language."})


class SearchOut(Schema):
    query = fields.Nested(SearchQueryOut, required=True)
    did_you_mean = fields.Nested(DidYouMeanOut, allow_none=True, required=True)
    hits = fields.List(fields.Nested(HitOut), required=True)


# ---- ask ------------------------------------------------------------------------------------


class AskIn(Schema):
    question = fields.String(
        required=True, validate=[validate.Length(min=1, max=MAX_QUERY_CHARS), TYPED_TEXT],
        metadata={"description": "The question, in English, French, German or Chinese (either script).",
                  "example": "Wie viele Zutaten braucht die Pizza Bombastica?"},
    )
    game = game_id(load_default=None, metadata={"description": "Only this game's rulebooks (GET /v1/games lists them).",
                                                "example": "mamma-mia"})
    lang = _lang(load_default=None, metadata={"description": "The asker's language; detected when absent."})


class GistOut(Schema):
    text = fields.String(required=True, metadata={"description": "Referee's own words, never the rulebook's: show them as such."})
    lang = _lang(required=True, metadata={"description": "The asker's language."})
    source = fields.String(
        required=True, validate=validate.OneOf(("written", "glossary")),
        metadata={"description": "written: Referee's statement of the passage, written for a shipped game in four "
                                 "languages; glossary: a rulebook a table added, its key words translated "
                                 "(\"Korb → panier · Seil → corde\"), from the term base and general dictionaries."})


class AnswerOut(Schema):
    text = fields.String(required=True, metadata={"description": "The rulebook's exact words that answer the question."})
    passage_id = fields.String(required=True)
    game = fields.String(required=True)
    lang = _lang(required=True, metadata={"description": "The rulebook's language (not the asker's)."})
    section = fields.String(required=True)
    page = fields.Integer(allow_none=True, metadata={"description": "The page it is printed on (1-based), in a rulebook with pages (a PDF); absent or null otherwise."})
    start = fields.Integer(required=True, metadata={"description": "Where text starts in passage (characters)."})
    end = fields.Integer(required=True, metadata={"description": "Where text ends in passage."})
    passage_text = Alias(required=True, source="passage", metadata={"description": "The whole passage."})
    passage = fields.String(required=True, metadata={"deprecated": True, "description": "The whole passage under its old name: use passage_text (passage goes in v2)."})
    marked = fields.String(required=True, metadata={"description": "The passage, HTML-escaped, with the answer in <mark>."})
    confidence = fields.Float(
        required=True, validate=validate.Range(0, 1),
        metadata={"description": "The estimated chance that the passage ranked first is the one that answers: this passage, "
                                 "or the one cited second when the answer is from the asker's own rulebook (or one "
                                 "they read more easily) on the same point; when that passage is on another point, "
                                 "its own chance. On three batches of 160 players' questions never fitted on "
                                 "(benchmarks/eval/players-2026-12-02-n-judge-blind.jsonl, fifteenth, seventeenth), 0.96 to 0.98 of "
                                 "answers at 0.7 or more were right, 0.95 to 0.97 at 0.5 or more."},
    )
    sure = Boolean(
        required=True,
        metadata={"description": "confidence >= 0.7: give the answer as the rule. When false, message says so "
                                 "and the asker should check the answer against the other citations."},
    )
    gist = fields.Nested(
        GistOut, allow_none=True, required=True,
        metadata={"description": "What the passage says in the asker's language, when the rulebook is in another: "
                                 "beside the quote, never instead of it. null when the asker reads the rulebook's "
                                 "language, or nothing is known to say."})


class CitationOut(Schema):
    passage_id = fields.String(required=True)
    game = fields.String(required=True)
    lang = _lang(required=True)
    section = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    quote = fields.String(required=True, metadata={"description": "Exact words of the passage."})
    page = fields.Integer(allow_none=True, metadata={"description": "The page it is printed on (1-based), in a rulebook with pages (a PDF); absent or null otherwise."})


class AskDisagreementOut(Schema):
    id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(("disagreement", "one-text-only")))
    message = fields.String(required=True, metadata={"description": "'The rulebooks disagree…' in the asker's language."})
    topic = fields.String(required=True)
    summary = fields.String(required=True, metadata={"description": "What each text says, in the asker's language."})
    sides = fields.List(fields.Nested(DisagreementSideOut), required=True)


class AskOut(Schema):
    question = fields.String(required=True)
    lang = _lang(allow_none=True, required=True, metadata={"description": "The asker's language, given or detected."})
    game = fields.String(allow_none=True, required=True)
    did_you_mean = fields.Nested(DidYouMeanOut, allow_none=True, required=True)
    answer = fields.Nested(
        AnswerOut, allow_none=True, required=True,
        metadata={"description": "null when the rulebooks do not answer the question."},
    )
    message = fields.String(required=True, metadata={"description": "Referee's words about the answer, in the asker's language."})
    citations = fields.List(
        fields.Nested(CitationOut), required=True,
        metadata={"description": "The answer's passage first. When the passage ranked first is from a rulebook in another "
                                 "language and the answer comes from the asker's own rulebook's passage of the same "
                                 "section, that passage comes next, quoting its sentence that answers. Then the next "
                                 "best; both sides of a disagreement."},
    )
    disagreement = fields.Nested(AskDisagreementOut, allow_none=True, required=True)


# ---- adjudication: the requests every game shares ----------------------------------------------
# The classes below give the shape; each game's routes use subclasses made by game_schemas(), in
# which every state and move refers to that game's own state and move schemas.

MAX_REPLAY_MOVES = 2000


def _state(description="The game's state, in the game's own schema.", **kwargs):
    return fields.Dict(metadata={"description": description}, **kwargs)


def _move(description="A move, in the game's own schema.", **kwargs):
    return fields.Dict(metadata={"description": description}, **kwargs)


class SetupIn(Schema):
    players = fields.Integer(strict=True, required=True, metadata={"example": 3})
    seed = fields.Integer(
        strict=True, required=True,
        metadata={"description": "All randomness (shuffles) comes from this seed, here and in later moves.", "example": 1},
    )
    options = fields.Dict(
        load_default=dict,
        metadata={"description": "Game options. Mamma Mia!: ruleset (fr, the default, or zh), first_player, "
                                 "colours, orders (an order deck). Each game lists its own in /v1/games (setup_options); "
                                 "an option the game does not have is a 422."},
    )


class StateOut(Schema):
    state = _state(required=True)


class StateIn(Schema):
    state = _state(required=True)


class StandingOut(Schema):
    player = fields.Integer(required=True)
    colour = fields.String()
    character = fields.String(metadata={"description": "Mamma: the player's secret character."})
    points = fields.Integer(metadata={"description": "Mamma: the secret character's victory points."})
    completed = fields.Integer()
    ingredients_in_hand = fields.Integer()
    rank = fields.Integer(required=True)


class ResultOut(Schema):
    standings = fields.List(fields.Nested(StandingOut), required=True)
    winners = fields.List(fields.Integer(), required=True, metadata={"description": "Player indexes; more than one when the tie stands."})
    tie_break = fields.String(allow_none=True, metadata={"description": "The tie-break that decided, if one was needed."})
    shared = Boolean(required=True)


class LegalMovesOut(Schema):
    moves = fields.List(_move(), required=True, metadata={"description": "Every legal move; empty once the game is over."})
    result = fields.Nested(ResultOut, allow_none=True, required=True)


class AdjudicateIn(Schema):
    state = _state(required=True)
    move = _move(required=True)
    lang = _lang(load_default="en", metadata={"description": "The language of the messages (en, fr, de, zh)."})


class ViolationCitationOut(Schema):
    passage_id = fields.String(required=True)
    lang = _lang(required=True)
    quote = fields.String(required=True, metadata={"description": "The rulebook's exact words."})


class ReadingChosenOut(Schema):
    option = fields.String(required=True, metadata={"example": "sideways_first_space"})
    value = fields.String(required=True, metadata={"description": "The table's reading.", "example": "as-forwards"})
    other = fields.String(required=True, metadata={"description": "The other reading.", "example": "one-mp"})


class ViolationOut(Schema):
    code = fields.String(required=True, metadata={"description": "Stable rule code, never reused.", "example": "mamma-mia/turn.same-kind"})
    message = fields.String(required=True, metadata={"description": "What is wrong, in the asker's language."})
    citations = fields.List(fields.Nested(ViolationCitationOut), required=True)
    interpretation = fields.String(metadata={"description": "Present where the text is ambiguous and this is Referee's reading "
                                                           "(or, with reading, the table's, and the other)."})
    disagreement = fields.String(metadata={"description": "Present where the game's rulebooks differ on this rule: the id of the recorded disagreement."})
    reading = fields.Nested(ReadingChosenOut, metadata={
        "description": "Present when the verdict rests on the table's reading of an ambiguous point (a setup option listed "
                       "in the game's adjudicator.readings): under the other, this rule would judge the move otherwise."})


class MistakeOut(Schema):
    player = fields.Integer(required=True)
    code = fields.String(required=True, metadata={"example": "mammut-mambo/dance.repeated-shout"})
    message = fields.String(required=True)
    citations = fields.List(fields.Nested(ViolationCitationOut), required=True)


class OutcomeOut(Schema):
    choreography = fields.List(fields.Dict(), metadata={"description": "Mammut Mambo: the dance that was due, step by step."})
    mistakes = fields.List(fields.Nested(MistakeOut), metadata={"description": "Mammut Mambo: every dancer's mistake, cited."})


class VerdictOut(Schema):
    legal = Boolean(required=True)
    violations = fields.List(fields.Nested(ViolationOut), required=True)
    notes = fields.List(fields.Nested(ViolationOut), metadata={
        "description": "A legal move that the other reading of an ambiguous point would refuse: each rule it would break "
                       "then, its reading naming the table's and the other. Absent when the verdict rests on no reading."})
    outcome = fields.Nested(
        OutcomeOut,
        metadata={"description": "What a legal move led to, where the game judges more than the move "
                                 "(Mammut Mambo: the dancers' mistakes). Absent otherwise."},
    )
    state = _state("The state after the move when it is legal; null otherwise.", allow_none=True, required=True)


class ReplayIn(Schema):
    state = _state(required=True)
    moves = fields.List(_move(), required=True, validate=validate.Length(max=MAX_REPLAY_MOVES))
    lang = _lang(load_default="en")


class ScoreIn(Schema):
    state = _state(required=True)
    lang = _lang(load_default="en", metadata={"description": "The language of the lines (en, fr, de, zh)."})


class ScoreLineOut(Schema):
    code = fields.String(required=True, metadata={"description": "Stable code of the scoring rule.",
                                                  "example": "mamma-mia/score.completed-orders"})
    message = fields.String(required=True, metadata={"description": "The line, in the asker's language."})
    value = fields.Integer(metadata={"description": "What the line counts for this player (orders, cards, points)."})
    citations = fields.List(fields.Nested(ViolationCitationOut), required=True)
    interpretation = fields.String(metadata={"description": "Present when the line rests on the table's reading of an "
                                                           "ambiguous point: that reading, the other, and what the line would be then."})
    reading = fields.Nested(ReadingChosenOut, metadata={"description": "Present with interpretation: the option, the table's "
                                                                      "reading and the other."})


class PlayerScoreOut(Schema):
    player = fields.Integer(required=True)
    colour = fields.String()
    character = fields.String(metadata={"description": "Mamma: the player's secret character, whose points are the player's."})
    total = fields.Integer(required=True, metadata={
        "description": "The game's own measure: completed orders (Mamma Mia!), cards in the pile, fewest "
                       "best (Mammut Mambo), points (Mömmen), the secret character's victory points (Mamma)."})
    rank = fields.Integer(required=True, metadata={"description": "1 for the leaders; equal standings share a rank."})
    lines = fields.List(fields.Nested(ScoreLineOut), required=True, metadata={"description": "One per scoring rule."})


class CharacterScoreOut(Schema):
    character = fields.String(required=True)
    total = fields.Integer(required=True, metadata={"description": "Victory points."})
    lines = fields.List(fields.Nested(ScoreLineOut), required=True, metadata={"description": "One per criterion of \"The Victory\"."})


class ScoreOut(Schema):
    characters = fields.List(fields.Nested(CharacterScoreOut), metadata={
        "description": "Mamma: every character's points, the neutral ones too, best first. Absent for the other games."})
    final = Boolean(required=True, metadata={"description": "True once the game is over: the winners are final."})
    players = fields.List(fields.Nested(PlayerScoreOut), required=True, metadata={"description": "Best first."})
    winners = fields.List(fields.Integer(), required=True, metadata={
        "description": "The winners once the game is over; until then, whoever leads."})
    tie_break = fields.Nested(ScoreLineOut, allow_none=True, required=True, metadata={
        "description": "The rule that settles a tie among the leaders, when there is one."})
    shared = Boolean(required=True, metadata={"description": "More than one winner or leader."})


class IllegalMoveOut(Schema):
    index = fields.Integer(required=True, metadata={"description": "Position of the first illegal move in moves (from 0)."})
    move = _move(required=True)
    verdict = fields.Nested(VerdictOut, required=True)
    state_before = _state(required=True)


class ReplayOut(Schema):
    legal = Boolean(required=True, metadata={"description": "True when every move was legal."})
    checked = fields.Integer(required=True, metadata={"description": "How many moves were checked (up to the first illegal one)."})
    first_illegal = fields.Nested(IllegalMoveOut, allow_none=True, required=True)
    state = _state("The state after the last legal move.", required=True)


GAME_SCHEMAS = {game.id: (game.state_schema, game.move_schema) for game in GAMES.values()}


@dataclass(frozen=True)
class GameRouteSchemas:
    """The request and response schemas of one game's routes."""

    state_in: type[Schema]
    state_out: type[Schema]
    legal_moves_out: type[Schema]
    adjudicate_in: type[Schema]
    verdict_out: type[Schema]
    replay_in: type[Schema]
    score_in: type[Schema]
    replay_out: type[Schema]


def game_schemas(game: str) -> GameRouteSchemas:
    """Subclasses of the shared request and response schemas whose states and moves are the game's own.

    The state and move stay plain objects when loaded (the game's schema checks them in the view,
    so that their errors are named "state.…" and "move.…"); the description refers to the game's
    schema, so that each game's routes document exactly what they take and give.
    """
    state_schema, move_schema = GAME_SCHEMAS[game]
    prefix = state_schema.__name__.removesuffix("State")

    def ref(schema: type[Schema]) -> dict:
        return {"allOf": [{"$ref": f"#/components/schemas/{schema.__name__}"}]}

    def state(description="The game's state.", **kwargs):
        return fields.Dict(metadata={"description": description, **ref(state_schema)}, **kwargs)

    def move(description="A move.", **kwargs):
        return fields.Dict(metadata={"description": description, **ref(move_schema)}, **kwargs)

    def subclass(base: type[Schema], **overrides) -> type[Schema]:
        return type(f"{prefix}{base.__name__}", (base,), {"__doc__": base.__doc__, **overrides})

    verdict_out = subclass(VerdictOut, state=state("The state after the move when it is legal; null otherwise.",
                                                    allow_none=True, required=True))
    illegal_move_out = subclass(IllegalMoveOut, move=move(required=True), verdict=fields.Nested(verdict_out, required=True),
                                state_before=state(required=True))
    return GameRouteSchemas(
        state_in=subclass(StateIn, state=state(required=True)),
        state_out=subclass(StateOut, state=state(required=True)),
        legal_moves_out=subclass(LegalMovesOut, moves=fields.List(
            move(), required=True, metadata={"description": "Every legal move; empty once the game is over."})),
        adjudicate_in=subclass(AdjudicateIn, state=state(required=True), move=move(required=True)),
        verdict_out=verdict_out,
        replay_in=subclass(ReplayIn, state=state(required=True), moves=fields.List(
            move(), required=True, validate=validate.Length(max=MAX_REPLAY_MOVES))),
        replay_out=subclass(ReplayOut, first_illegal=fields.Nested(illegal_move_out, allow_none=True, required=True),
                            state=state("The state after the last legal move.", required=True)),
        score_in=subclass(ScoreIn, state=state(required=True)),
    )


# ---- the OpenAI-compatible chat (service.api.chat) -----------------------------------------------

CHAT_ROLES = ("system", "developer", "user", "assistant", "tool", "function")
MAX_CHAT_MESSAGES = 200
MAX_CHOICES = 8


class MessageContent(fields.Field):
    """A message's content as OpenAI's clients send it: a string, a list of content parts
    ({"type": "text", "text": ...}; parts of other types are not read), or null."""

    def __init__(self, **kwargs):
        part = {"type": "object", "properties": {"type": {"type": "string"}, "text": {"type": "string"}},
                "required": ["type"]}
        super().__init__(allow_none=True, metadata={
            "description": "A string, or a list of content parts of which the text parts are read.",
            "oneOf": [{"type": "string"}, {"type": "array", "items": part}, {"type": "null"}],
        }, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(p, dict) and isinstance(p.get("type"), str)
                                           and isinstance(p.get("text", ""), str) for p in value):
            return value
        raise self.make_error("invalid")

    default_error_messages = {"invalid": "Not a string, null or a list of content parts, each an object with a type."}


def text_of(content) -> str:
    """A message's text: a string, or the text parts of a list of content parts (images and audio
    are not read)."""
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):
        return "\n".join(part.get("text", "").strip() for part in content
                         if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)).strip()
    return ""


def _asks_something(messages: list[dict]) -> None:
    """What ``contains`` says in the OpenAPI description: some user message has text to answer."""
    if not any(m.get("role") == "user" and text_of(m.get("content")) for m in messages):
        raise ValidationError("No user message has text: the last user message with text is the question.")


class ChatMessageIn(Schema):
    class Meta:
        unknown = EXCLUDE  # name, tool_calls, audio ...: not read

    role = fields.String(required=True, validate=validate.OneOf(CHAT_ROLES))
    content = MessageContent(load_default=None)


class ChatCompletionIn(Schema):
    """A Chat Completions request as OpenAI's clients send it. Referee reads the model, the messages,
    stream, stream_options and n; the sampling fields (temperature, top_p, max_tokens, stop, seed
    ...) mean nothing for quoted rules and are accepted and ignored, as is any other field."""

    class Meta:
        unknown = EXCLUDE

    model = fields.String(required=True, metadata={
        "description": "referee (every game) or referee-<game> (one game's rulebooks): GET /v1/models lists them.",
        "example": "referee"})
    messages = fields.List(
        fields.Nested(ChatMessageIn), required=True,
        validate=[validate.Length(min=1, max=MAX_CHAT_MESSAGES), _asks_something],
        metadata={"description": "The conversation. The last user message with text is the question; the user "
                                 "messages before it are the context of a follow-up (its game, and the question it "
                                 "continues).",
                  "contains": {"type": "object", "required": ["role", "content"], "properties": {
                      "role": {"const": "user"},
                      "content": {"anyOf": [
                          {"type": "string", "pattern": SOME_TEXT},
                          {"type": "array", "contains": {"type": "object", "required": ["type", "text"], "properties": {
                              "type": {"const": "text"}, "text": {"type": "string", "pattern": SOME_TEXT}}}}]}}},
                  "example": [{"role": "user", "content": "Wie viele Zutaten braucht die Pizza Bombastica?"}]})
    stream = Boolean(load_default=False, allow_none=True,
                     metadata={"description": "Server-Sent Events of chat.completion.chunk objects, ending with [DONE]."})
    stream_options = fields.Dict(load_default=None, allow_none=True, metadata={"description": "Accepted, not read."})
    n = fields.Integer(load_default=1, allow_none=True, validate=validate.Range(1, MAX_CHOICES),
                       metadata={"description": "Choices to return: each is the same answer (Referee does not sample)."})
    temperature = fields.Float(allow_none=True, metadata={"description": "Accepted, ignored."})
    top_p = fields.Float(allow_none=True, metadata={"description": "Accepted, ignored."})
    max_tokens = fields.Integer(allow_none=True, metadata={"description": "Accepted, ignored: a quoted rule is not cut."})
    max_completion_tokens = fields.Integer(allow_none=True, metadata={"description": "Accepted, ignored."})


class OpenAIErrorOut(Schema):
    message = fields.String(required=True, metadata={"description": "As detail."})
    type = fields.String(required=True, metadata={"description": "invalid_request_error, or server_error.", "example": "invalid_request_error"})
    param = fields.String(allow_none=True, required=True, metadata={"description": "The request field at fault, as messages[0].role.", "example": "model"})
    code = fields.String(allow_none=True, required=True, metadata={"description": "model_not_found, invalid_api_key, request_too_large or null.", "example": "model_not_found"})


class ChatProblemOut(ProblemOut):
    """An error of the chat routes: problem details, with OpenAI's error object, which its clients read."""

    error = fields.Nested(OpenAIErrorOut, metadata={
        "description": "On every error of these routes, but a body over the size limit refused before it reaches them (413)."})


class ChatMessageOut(Schema):
    role = fields.String(required=True, validate=validate.OneOf(("assistant",)))
    content = fields.String(required=True, metadata={"description": "Markdown: Referee's message, the quoted rule, "
                                                                      "and the citations as links to their rulebook pages."})
    refusal = fields.String(allow_none=True, required=True)


class ChatChoiceOut(Schema):
    index = fields.Integer(required=True)
    message = fields.Nested(ChatMessageOut, required=True)
    finish_reason = fields.String(required=True, validate=validate.OneOf(("stop",)))
    logprobs = fields.Raw(allow_none=True, required=True, metadata={"description": "Always null."})


class ChatCompletionOut(Schema):
    id = fields.String(required=True)
    object = fields.String(required=True, validate=validate.OneOf(("chat.completion",)))
    created = fields.Integer(required=True)
    model = fields.String(required=True)
    choices = fields.List(fields.Nested(ChatChoiceOut), required=True)
    system_fingerprint = fields.String(allow_none=True, required=True)
    referee = fields.Nested(AskOut, required=True, metadata={
        "description": "Referee's structured answer, as /v1/ask gives it (citations, disagreement): a field "
                       "OpenAI's clients ignore."})


class ChatModelOut(Schema):
    id = fields.String(required=True, metadata={"example": "referee-mamma-mia"})
    object = fields.String(required=True, validate=validate.OneOf(("model",)))
    created = fields.Integer(required=True, metadata={"description": "When the index was built (Unix time)."})
    owned_by = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(allow_none=True, required=True, metadata={"description": "The game it answers for; null: every game."})
    names = fields.Dict(keys=fields.String(), values=fields.String(), metadata={"description": "The game's names by language."})


class ChatModelsOut(Schema):
    object = fields.String(required=True, validate=validate.OneOf(("list",)))
    data = fields.List(fields.Nested(ChatModelOut), required=True)
