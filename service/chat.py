"""Referee as a chat model: a conversation in the OpenAI Chat Completions form read as one question,
and Referee's answer written back as Markdown with its citations.

Pure Python over ``service.ask`` (no Flask): service.api.chat serves it at /v1/chat/completions.
The model names a game or all of them; the last user message is the question, and the user
messages before it are the context of a follow-up ("and with three players?" keeps the game and the
topic of the question before it). Referee's words come from service.language, the rules' words are
quoted exactly, and a question the rulebooks do not answer stays an honest refusal.
"""

from __future__ import annotations

import calendar
import json
import re
import time
import uuid
from dataclasses import dataclass
from urllib.parse import quote

from service.ask import ask
from service.language import in_script, writes_simplified
from service.library import Library
from service.schemas import MAX_QUERY_CHARS, text_of

MODEL = "referee"  # every game; "referee-<game>" asks one game's rulebooks only
OWNER = "referee"

CONTEXT_TURNS = 3  # user messages read back at most, the question included


def models(library: Library) -> list[dict]:
    """The chat models: ``referee`` for every game, then ``referee-<game>`` for each, with its names."""
    created = calendar.timegm(time.strptime(library.built_at, "%Y-%m-%dT%H:%M:%SZ"))
    listed = [{"id": MODEL, "object": "model", "created": created, "owned_by": OWNER,
               "name": "Referee (all games)", "game": None}]
    for game_id, game in library.games.items():
        listed.append({"id": f"{MODEL}-{game_id}", "object": "model", "created": created, "owned_by": OWNER,
                       "name": f"Referee: {game['names']['en']}", "names": game["names"], "game": game_id})
    return listed


def game_of_model(library: Library, model: str) -> tuple[bool, str | None]:
    """Whether ``model`` is one of Referee's, and the game it is restricted to (None: every game)."""
    if model == MODEL:
        return True, None
    game = model.removeprefix(f"{MODEL}-") if model.startswith(f"{MODEL}-") else None
    return game in library.games, game


@dataclass
class Asked:
    """What a conversation asked Referee: the question searched (a follow-up together with the
    question before it), the game, and the user's last message as typed."""

    question: str
    game: str | None
    said: str
    follows_on: bool = False


def answer(library: Library, messages: list[dict], game: str | None = None, hint: str | None = None) -> tuple[Asked, dict]:
    """The conversation's question, and Referee's answer to it (service.ask's). ``game``: the
    model's, when it names one; ``hint``: the asker's language when the question does not tell.

    ``messages`` hold a user message with text (service.schemas.ChatCompletionIn checks it). The
    last user message with text is asked in the game it names, else in the game of the question
    before it. When the rulebooks answer it alone for sure, that is the answer; otherwise ("and with three
    players?", "und die Monotoni?") it is asked together with the question before it, and that
    answer is given when there is one. A message naming another game starts a new topic.
    On benchmarks/eval/followups.jsonl (80 conversations helpers wrote from the rulebooks alone),
    the answer's passage holds the rule for 0.80 of the 40 chosen on (the 1st, 3rd … lines; the last
    message alone: 0.60, alone in the game before: 0.70, always together: 0.65), and 0.675 of the
    other 40, never tuned on (alone: 0.50).
    """
    said = [text for m in messages if m.get("role") == "user" and (text := text_of(m.get("content")))]
    return _answer(library, said[-CONTEXT_TURNS:], game, hint)


def _answer(library: Library, said: list[str], game: str | None, hint: str | None) -> tuple[Asked, dict]:
    last = said[-1]
    if len(said) == 1:
        return Asked(last, game, last), ask(library, last, game=game, hint=hint)
    before, answered_before = _answer(library, said[:-1], game, hint)
    named = game or library.read(last, hint=hint).game
    # the topic's game: the one the question before was asked in or named, else answered from
    topic_game = (before.game or library.read(before.said, hint=hint).game
                  or (answered_before["answer"] or {}).get("game"))
    if named is not None and named != topic_game:  # another game: another topic
        return Asked(last, named, last), ask(library, last, game=named, hint=hint)
    game = named or topic_game
    alone = ask(library, last, game=game, hint=hint)
    if alone["answer"] is not None and alone["answer"]["sure"]:
        return Asked(last, game, last), alone
    together = f"{before.question} {last}"[-MAX_QUERY_CHARS:]
    answered = ask(library, together, game=game, hint=hint)
    if answered["answer"] is None:
        return Asked(last, game, last), alone
    return Asked(together, game, last, follows_on=True), answered


# ---- the reply in Markdown ----------------------------------------------------------------------

LABELS = {
    "rulebook": {"en": "{game}, rules in {book_lang}: {section}", "fr": "{game}, règle en {book_lang} : {section}",
                 "de": "{game}, Regel auf {book_lang}: {section}", "zh": "{game}，{book_lang}規則：{section}"},
    "also": {"en": "Also cited:", "fr": "Également cité :", "de": "Ebenfalls zitiert:", "zh": "另見："},
    "closest": {"en": "Closest passages:", "fr": "Passages les plus proches :", "de": "Nächstliegende Stellen:",
                "zh": "最接近的段落："},
    # answer.gist (service.gist): never the rulebook's words
    "gist_written": {"en": "In Referee's words (not the rulebook's):", "fr": "Selon Referee (ce n’est pas le texte de la règle) :",
                     "de": "Mit Referees Worten (nicht der Wortlaut des Regelhefts):", "zh": "Referee 的說明（不是規則原文）："},
    "gist_glossary": {"en": "Key words, translated by Referee:", "fr": "Mots clés, traduits par Referee :",
                      "de": "Schlüsselwörter, übersetzt von Referee:", "zh": "關鍵詞（Referee 的翻譯）："},
    "asked": {"en": "Asked as: {question}", "fr": "Question posée : {question}", "de": "Gefragt als: {question}",
              "zh": "以此提問：{question}"},
}


# A rulebook's language as a noun, in the asker's language ("rules in French", "Regel auf Französisch").
LANGUAGE_NOUNS = {
    "en": {"en": "English", "fr": "French", "de": "German", "zh": "Chinese"},
    "fr": {"en": "anglais", "fr": "français", "de": "allemand", "zh": "chinois"},
    "de": {"en": "Englisch", "fr": "Französisch", "de": "Deutsch", "zh": "Chinesisch"},
    "zh": {"en": "英文", "fr": "法文", "de": "德文", "zh": "中文"},
}


def _label(key: str, lang: str, simplified: bool, **values) -> str:
    text = LABELS[key].get(lang, LABELS[key]["en"]).format(**values)
    return in_script(text, simplified) if lang == "zh" else text


def passage_link(base_url: str, citation: dict, whole: bool = False) -> str:
    """The passage in the web app's rulebook page, with its quoted words marked unless the quote is
    the ``whole`` passage; under ``base_url`` (REFEREE_PUBLIC_URL), or from the server's root when
    that is empty: never from the request's Host, which a client chooses."""
    mark = "" if whole else f"?mark={quote(citation['quote'], safe='')}"
    return (f"{base_url.rstrip('/')}/games/{citation['game']}/rulebook/{citation['lang']}"
            f"{mark}#{quote(citation['passage_id'], safe='')}")


def _quoted(text: str) -> str:
    """The rulebook's words as a Markdown block quote, each of its lines a paragraph of the quote
    (a list's items stay apart)."""
    return "\n>\n".join(f"> {line}" for line in text.splitlines() if line.strip())


def _escape(text: str) -> str:
    """Text as Markdown shows it literally inside a line: every ASCII punctuation mark Markdown
    reads there (links, images, emphasis, HTML, code) backslash-escaped, lines run together. For
    whatever a request or a table chose: the question echoed, a game's name, a section's heading."""
    return re.sub(r"([\\`*_\[\]()<>!|~&])", r"\\\1", " ".join(text.split()))


def reply_markdown(library: Library, answered: dict, base_url: str, asked: Asked) -> str:
    """Referee's message, the quoted rule, and every citation as a link to its rulebook page.

    A sure answer quotes the answering sentence, and the citations from rulebooks in other languages
    (the same rule in another rulebook, as a rule); an unsure answer quotes every citation, to
    compare; a refusal lists the closest passages as links only."""
    lang = answered["lang"] or "en"
    simplified = writes_simplified(lang, asked.said)

    def link(citation: dict) -> str:
        names = library.games[citation["game"]]["names"]
        label = _label("rulebook", lang, simplified, game=names.get(lang, names["en"]),
                       book_lang=LANGUAGE_NOUNS[lang][citation["lang"]], section=citation["section"])
        whole = citation["quote"] == library.passages[citation["passage_id"]]["text"]
        return f"[{_escape(label)}]({passage_link(base_url, citation, whole)})"

    parts = [answered["message"]]
    citations = answered["citations"]
    answer = answered["answer"]
    if answer is None:
        if citations:
            parts.append(_label("closest", lang, simplified) + "\n" + "\n".join(f"- {link(c)}" for c in citations))
    else:
        first, others = citations[0], citations[1:]
        parts.append(_quoted(answer["text"]))
        parts.append(f"— {link(first)}")
        if answer["gist"]:
            parts.append(f"_{_label('gist_' + answer['gist']['source'], lang, simplified)}_ {_escape(answer['gist']['text'])}")
        if others:
            lines = []
            for citation in others:
                if not answer["sure"] or citation["lang"] != answer["lang"]:
                    lines.append(f"- {link(citation)}\n\n" + _quoted(citation["quote"]).replace("\n", "\n  ").join(("  ", "")))
                else:
                    lines.append(f"- {link(citation)}")
            parts.append(_label("also", lang, simplified) + "\n" + "\n".join(lines))
    disagreement = answered["disagreement"]
    if disagreement:
        parts.append(f"**{disagreement['message']}** {disagreement['summary']}")
    if asked.follows_on:
        parts.append("_" + _label("asked", lang, simplified, question=_escape(asked.question)) + "_")
    return "\n\n".join(parts)


# ---- the OpenAI objects --------------------------------------------------------------------------

def completion_id() -> str:
    return f"chatcmpl-{uuid.uuid4().hex}"


def completion(model: str, content: str, referee: dict, choices: int = 1) -> dict:
    """A chat.completion: the same reply in each of ``choices`` (Referee has one answer, not samples);
    ``referee`` is the structured answer, in a field OpenAI clients ignore."""
    return {
        "id": completion_id(),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": i, "message": {"role": "assistant", "content": content, "refusal": None},
                     "finish_reason": "stop", "logprobs": None} for i in range(choices)],
        "system_fingerprint": None,
        "referee": referee,
    }


STREAM_PIECE = 80  # characters of content per streamed chunk, cut after a space or line where one is near


def pieces(content: str, size: int = STREAM_PIECE) -> list[str]:
    """The content in consecutive pieces of about ``size`` characters, cut after whitespace."""
    out, start = [], 0
    while start < len(content):
        end = min(len(content), start + size)
        if end < len(content):
            space = max(content.rfind(" ", start, end), content.rfind("\n", start, end))
            if space > start + size // 2:
                end = space + 1
        out.append(content[start:end])
        start = end
    return out


def stream(model: str, content: str, referee: dict, choices: int = 1):
    """Server-Sent Events of chat.completion.chunk objects, as OpenAI's clients read them: the role,
    the content in pieces, the finish reason (with ``referee`` on that last chunk), then [DONE].
    Referee counts no tokens, so no chunk has usage, even when stream_options asks for it."""
    ident, created = completion_id(), int(time.time())

    def event(choice_list: list[dict], **extra) -> str:
        chunk = {"id": ident, "object": "chat.completion.chunk", "created": created, "model": model,
                 "system_fingerprint": None, "choices": choice_list, **extra}
        return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n"

    for i in range(choices):
        yield event([{"index": i, "delta": {"role": "assistant", "content": ""}, "finish_reason": None, "logprobs": None}])
    for piece in pieces(content):
        for i in range(choices):
            yield event([{"index": i, "delta": {"content": piece}, "finish_reason": None, "logprobs": None}])
    for i in range(choices):
        yield event([{"index": i, "delta": {}, "finish_reason": "stop", "logprobs": None}], referee=referee)
    yield "data: [DONE]\n\n"
