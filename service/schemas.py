"""Every input and output of the HTTP API, named for its direction (…Args/…In in, …Out out).

marshmallow checks the shape of what clients send; the domain checks the rest.
"""

from __future__ import annotations

import re

from marshmallow import Schema, ValidationError, fields, validate, validates

from indexer.corpus import KINDS, LANGS

GAME_IDS = ("mamma", "mamma-mia", "mammut-mambo", "moemmen")
MAX_QUERY_CHARS = 500
MAX_LIMIT = 50

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

def _lang(**kwargs):
    return fields.String(validate=validate.OneOf(LANGS), **kwargs)


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
    stated = fields.Boolean(metadata={"description": "False when the rulebook does not state the count."})
    note = fields.String(metadata={"description": "How the count was inferred, when it is not stated."})


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


class GamesOut(Schema):
    games = fields.List(fields.Nested(GameOut), required=True)


class OutlineSectionOut(Schema):
    anchor = fields.String(required=True, metadata={"description": "Stable anchor, unique in its rulebook."})
    title = fields.String(required=True)
    level = fields.Integer(required=True, metadata={"description": "Heading level, 1 for a top section."})
    path = fields.List(fields.String(), required=True, metadata={"description": "Titles from the top section down."})
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    editorial = fields.Boolean(required=True, metadata={"description": "True when Referee added this heading."})
    passages = fields.Integer(required=True, metadata={"description": "How many passages the section holds."})


class RulebookOutlineOut(Schema):
    lang = _lang(required=True)
    title = fields.String(required=True)
    source = fields.String(required=True, metadata={"description": "The file the rulebook was received as."})
    provenance = fields.String(metadata={"description": "What the source is and what was done to it."})
    missing = fields.String(metadata={"description": "What the rulebook does not give."})
    sections = fields.List(fields.Nested(OutlineSectionOut), required=True)


class DisagreementSideOut(Schema):
    passage = fields.String(required=True, metadata={"description": "Passage id."})
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
    id = fields.String(required=True, metadata={"example": "mamma-mia.fr.oven.1"})
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    text = fields.String(required=True)


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
    id = fields.String(required=True, metadata={"example": "mamma-mia.fr.oven.1"})
    game = fields.String(required=True)
    lang = _lang(required=True)
    anchor = fields.String(required=True, metadata={"description": "Anchor of its section."})
    section = fields.String(required=True, metadata={"description": "Title of its section."})
    section_path = fields.List(fields.String(), required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    text = fields.String(required=True, metadata={"description": "The rulebook's exact words."})


# ---- search ---------------------------------------------------------------------------------


class SearchArgs(Schema):
    q = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_QUERY_CHARS),
        metadata={"description": 'The question or keywords; "quoted phrases" must match as written.'},
    )
    game = fields.String(
        validate=validate.OneOf(GAME_IDS), load_default=None,
        metadata={"description": "Only this game's rulebooks."},
    )
    lang = _lang(
        load_default=None,
        metadata={"description": "The asker's language; detected from the question when absent."},
    )
    limit = fields.Integer(
        load_default=10, validate=validate.Range(min=1, max=MAX_LIMIT),
        metadata={"description": f"How many hits at most (1 to {MAX_LIMIT})."},
    )

    @validates("q")
    def _q_is_text(self, value: str, **kwargs) -> None:
        if not value.strip():
            raise ValidationError("must not be blank")
        if _CONTROL.search(value):
            raise ValidationError("must not contain control characters")


class SearchQueryOut(Schema):
    q = fields.String(required=True)
    lang = _lang(allow_none=True, required=True, metadata={"description": "The asker's language, given or detected; null when it cannot be told."})
    game = fields.String(allow_none=True, required=True)


class HitOut(Schema):
    id = fields.String(required=True)
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
    score = fields.Float(required=True, metadata={"description": "BM25F relevance; comparable within one response only."})


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
        required=True, validate=validate.Length(min=1, max=MAX_QUERY_CHARS),
        metadata={"description": "The question, in English, French, German or Chinese (either script).",
                  "example": "Wie viele Zutaten braucht die Pizza Bombastica?"},
    )
    game = fields.String(validate=validate.OneOf(GAME_IDS), load_default=None,
                         metadata={"description": "Only this game's rulebooks.", "example": "mamma-mia"})
    lang = _lang(load_default=None, metadata={"description": "The asker's language; detected when absent."})

    @validates("question")
    def _question_is_text(self, value: str, **kwargs) -> None:
        SearchArgs._q_is_text(self, value)


class AnswerOut(Schema):
    text = fields.String(required=True, metadata={"description": "The rulebook's exact words that answer the question."})
    passage_id = fields.String(required=True)
    game = fields.String(required=True)
    lang = _lang(required=True, metadata={"description": "The rulebook's language (not the asker's)."})
    section = fields.String(required=True)
    start = fields.Integer(required=True, metadata={"description": "Where text starts in passage (characters)."})
    end = fields.Integer(required=True, metadata={"description": "Where text ends in passage."})
    passage = fields.String(required=True, metadata={"description": "The whole passage."})
    marked = fields.String(required=True, metadata={"description": "The passage, HTML-escaped, with the answer in <mark>."})


class CitationOut(Schema):
    passage_id = fields.String(required=True)
    game = fields.String(required=True)
    lang = _lang(required=True)
    section = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    quote = fields.String(required=True, metadata={"description": "Exact words of the passage."})


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
        metadata={"description": "The answer's passage first, then the next best; both sides of a disagreement."},
    )
    disagreement = fields.Nested(AskDisagreementOut, allow_none=True, required=True)
