"""Answering a question: the sentence or two of the best passage that answer it, with citations.

Referee never states an answer the rulebooks do not give. When the question is about something
else (chess, real pizza ovens, the game's price: words of other domains, or the ranker's on-topic
decision, service.retrieval.rank), or nothing matches, the answer is null and the closest passages
are listed for the asker to check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from indexer.analysis import sentences, terms
from indexer.generation import facets as facets_of
from service.language import LANGUAGE_NAMES, did_you_mean, in_script, say, writes_simplified
from service.gist import gist
from service.library import Hit, Library, mark
from service.retrieval.question import Question

CITATIONS = 3
# Why each figure below is what it is (what else was tried, on which questions): the evaluation
# notes, benchmarks/eval/README.md, "The answer's figures".
# When the passage ranked first is in another language than the asker's, the asker's own rulebook's
# passage of the same game and section answers if it is among this many hits (the first cited second).
OWN_LANGUAGE_DEPTH = 10
SURE = 0.7  # from this confidence on, an answer is given as the rule; below, as the closest rule to check
SHORT_PASSAGE = 240  # characters: a passage of two sentences this short is the answer whole
SHORT_SENTENCE = 40  # characters: a sentence this short is joined with the next one
NUMBER_SENTENCE_FACTOR = 1.5
NEIGHBOUR_SHARE = 0.75  # the sentence next to the best joins it when its matched words weigh this much of the best's
NAMED_NUMBER_WEIGHT = 2.0  # a number the question names, in the sentence: as much as a telling word
_NUMBER = re.compile(r"(?<!\d)\d+(?!\d)")
MAX_ANSWER_CHARS = 600  # a list joined to its lead-in stops growing here
# The sentence after the answer joins it while the two stay this short, unless it starts a new line
# (a list's next case): a rule's consequence or detail is often the sentence after the one that
# names what is asked ("La partie s'arrête ... gagne." then "En cas d'égalité, ...").
WITH_NEXT_CHARS = 350
# A list item or the word that joins two items: "a)", "2.", "-", "•", "or", "ou", "oder", "或".
# Words that announce a list: "the following", "folgende", 下列, 以下 ("suivant" is mostly "next").
_ANNOUNCES = re.compile(r"\bfollowing\b|\bfolgende|下列|以下", re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[a-z]\)|\d+[.)]|[-•*]|or\b|ou\b|oder\b|或)", re.IGNORECASE)


@dataclass
class Answer:
    text: str
    hit: Hit
    start: int
    end: int


def extract(hit: Hit, facets: set[str] = frozenset(), rarity=None, numbers: frozenset[str] = frozenset(),
            closeness=None) -> Answer:
    """The sentence or two of the passage that answer: a short passage of two sentences whole;
    otherwise the sentence whose matched words say most (with ``rarity(lang, stem)``: each stem
    once, by how rare it is; without: matched characters), first among equals, a sentence with a
    number the question names counting more, with its neighbour when that one's words weigh
    nearly as much (with ``rarity``), or the next sentence when it is closer in meaning to the
    question (``closeness``: the question's cosine with each sentence); then what it needs to
    stand alone: the next sentence when it is very short, and the whole list when it opens one
    ("... if either of the following occurs:", "... except") — the rule is in the list; and the
    sentence after, while the answer stays short (``WITH_NEXT_CHARS``)."""
    parts = sentences(hit.text)
    if len(parts) <= 2 and len(hit.text) <= SHORT_PASSAGE:  # a rule of a sentence or two: all of it
        return Answer(text=hit.text[parts[0][0]:parts[-1][1]], hit=hit, start=parts[0][0], end=parts[-1][1])

    def weight(span):
        start, end = span
        inside = [(s, e) for s, e in hit.highlights if s < end and e > start]
        if rarity is None:
            matched = sum(min(e, end) - max(s, start) for s, e in inside)
        else:  # each matched stem once ("ingredient" and "ingredients" are one), weighted by how telling it is
            stems = {stem for s, e in inside for stem in terms(hit.lang, hit.text[s:e])}
            matched = sum(rarity(hit.lang, stem) for stem in stems)
        if numbers & set(_NUMBER.findall(hit.text[start:end])):
            matched += NAMED_NUMBER_WEIGHT  # "3 cartes": the sentence about 3 cards
        if "number" in facets and facets_of(hit.text[start:end]) == "number":
            matched *= NUMBER_SENTENCE_FACTOR  # "how many": the sentence that gives a number
        return matched

    weights = [weight(part) for part in parts]
    best = max(range(len(parts)), key=lambda i: (weights[i], -i))
    start, end = parts[best]
    if closeness is not None and best + 1 < len(parts) and closeness[best + 1] > closeness[best]:
        # A lead-in names what is asked about, the next sentence states the rule ("If the Wife is
        # ... next to the taxi card, ... move the Wife by taxi." then "... multiplies by 3 the
        # value of the chosen card ..."): the words match the first, the meaning the second.
        best += 1
        end = parts[best][1]
    if rarity is not None and weights[best] > 0 and len(parts) > 1:
        # A rule and its condition often sit in two sentences ("The game continues. The newly
        # turned card covers ..."): a neighbour nearly as telling is part of the answer.
        near = max((i for i in (best - 1, best + 1) if 0 <= i < len(parts)), key=weights.__getitem__)
        if weights[near] >= NEIGHBOUR_SHARE * weights[best]:
            if near < best:
                start = parts[near][0]
            else:
                best, end = near, parts[near][1]
    opens_list = _opens_list(hit.text[start:end])
    in_list = False  # once in the list, an item's further sentences belong to it ("a) ... . This player ...")
    while best + 1 < len(parts) and end - start < MAX_ANSWER_CHARS:
        following = hit.text[parts[best + 1][0]:parts[best + 1][1]]
        if opens_list and (_LIST_ITEM.match(following) or not in_list and _item_follows(hit.text, parts, best + 1)):
            in_list = True  # an item, or the stem the items complete ("A player ..." then "- makes ...")
        elif not (in_list or hit.text[start:end].rstrip().endswith((":", "：")) or end - start < SHORT_SENTENCE):
            break
        best += 1
        end = parts[best][1]
    if (best + 1 < len(parts) and parts[best + 1][1] - start <= WITH_NEXT_CHARS
            and "\n" not in hit.text[end:parts[best + 1][0]]):
        end = parts[best + 1][1]
    return Answer(text=hit.text[start:end], hit=hit, start=start, end=end)


def _opens_list(sentence: str) -> bool:
    """A sentence that the list after it completes: it ends with a colon or without a full stop, or
    it announces what follows ("A mistake counts as any of the following three things.")."""
    ending = sentence.rstrip()
    return (ending.endswith((":", "：")) or not ending.endswith(tuple(".!?。！？;；)"))
            or bool(_ANNOUNCES.search(ending)))


def _item_follows(text: str, parts: list[tuple[int, int]], at: int) -> bool:
    """Whether the part after ``parts[at]`` is a list item."""
    return at + 1 < len(parts) and bool(_LIST_ITEM.match(text[parts[at + 1][0]:parts[at + 1][1]]))


def _citation(hit: Hit, quote: str | None = None) -> dict:
    return {
        "passage_id": hit.id,
        "game": hit.game,
        "lang": hit.lang,
        "section": hit.section,
        "kind": hit.kind,
        "quote": quote if quote is not None else hit.text,
        "page": hit.page,
    }


def _disagreement(library: Library, answers: list[Answer]) -> dict | None:
    """The recorded disagreement on the point answered: one whose quoted words overlap the answer
    (``answers[0]``), or one that the answer's passage is a side of while another citation's best
    sentence (``answers[1:]``) overlaps another of its sides ("What is the Pizza Minimale?": the
    French definition, and the Chinese sentence on which ingredient is the fewest). A side in
    another citation alone is not enough: that citation may be about another point (a question on
    failed pizzas cited the Chinese oven passage, whose leftover-ingredients sentence is a side)."""
    def overlaps(side: dict, answer: Answer) -> bool:
        at = answer.hit.text.find(side["quote"])
        return side["passage"] == answer.hit.id and at < answer.end and at + len(side["quote"]) > answer.start

    first, others = answers[0], answers[1:]
    for item in library.disagreements:
        sides = item["sides"]
        if any(overlaps(side, first) for side in sides) or (
            any(side["passage"] == first.hit.id for side in sides)
            and any(overlaps(side, other) for side in sides for other in others)
        ):
            return item
    return None


# Languages written in the Latin alphabet: an asker of one reads another's rulebook more easily than
# a Chinese one (a German asking about Mamma Mia! is answered from the French rules before the Chinese).
LATIN = frozenset({"en", "fr", "de"})
# ... from a passage in the asker's alphabet on the same point, or on another when it is nearly as
# likely to answer (this share of the first's confidence or more).
READABLE_SHARE = 0.75


# An answer whose words are this share or more of what only its rulebook says is about that point;
# a long sentence with a detail only one text adds (the French "en annonçant à voix haute ce qu'on
# pose") is about the rule both state.
ONLY_TEXT_SHARE = 0.4


def _only_text(library: Library, answer: Answer) -> bool:
    """Whether the answer is about what, by corpus/disagreements.yaml, only its own rulebook says
    (the Chinese "the hungriest player starts"): another rulebook's passage of the same section does
    not answer it ("Qui commence à Mamma Mia ?" was answered, sure, from the French set-up's removed
    ingredients)."""
    text = answer.hit.text
    for d in library.disagreements_for(answer.hit.game):
        for side in d["sides"]:
            at = text.find(side["quote"]) if d["kind"] == "one-text-only" and side["passage"] == answer.hit.id else -1
            shared = min(answer.end, at + len(side["quote"])) - max(answer.start, at) if at >= 0 else 0
            if shared >= ONLY_TEXT_SHARE * (answer.end - answer.start):
                return True
    return False


def _own_language(library: Library, hits: list[Hit], asker: str | None, first: Answer) -> Hit | None:
    """The asker's own rulebook's passage on the point of ``hits[0]``, when that is in another
    language: the best-ranked passage of the same game and section in the asker's language, a rule
    before a worked example (a Chinese asker whose question ranks the French "Un tour de jeu" first
    is answered from the Chinese "回合流程" rule, not its Alberto example). When the game has no
    rulebook in the asker's language, a passage in the asker's alphabet is the next best: a German
    asker whose question ranks the Chinese "回合流程" first is answered from the French "Un tour de jeu".
    Never when ``first``, the answer in the passage ranked first, says what only its rulebook says
    (``_only_text``)."""
    answered = hits[0]
    if asker is None or answered.lang == asker or _only_text(library, first):
        return None
    anchor = library.passages[answered.id]["anchor"]
    same = [h for h in hits[1:] if h.game == answered.game and library.passages[h.id]["anchor"] == anchor]
    own = [h for h in same if h.lang == asker]
    if not own and asker in LATIN and answered.lang not in LATIN:
        own = [h for h in hits[1:] if h.game == answered.game and h.lang in LATIN
               and (h in same or h.confidence >= READABLE_SHARE * answered.confidence)]
    return next((h for h in own if h.kind == "rule"), own[0] if own else None)


@dataclass
class Ruling:
    """What Referee decided about a question, before it is put into the asker's words."""

    read: Question
    cited: list[Hit]  # the passages cited, in order
    refused: str | None = None  # "no_passages", "not_found" or "help": no answer is given
    # A question asked on one game's page that names another game is answered from that one.
    other_game: str | None = None
    answer: Answer | None = None  # the sentence or two given as the answer
    # When the answer is from the asker's own rulebook: the answer in the passage ranked first, cited second.
    first: Answer | None = None
    confidence: float = 0.0
    sure: bool = False
    disagreement: dict | None = None  # corpus/disagreements.yaml's entry on the point answered


# A greeting, or a question about Referee itself, and nothing else: it gets a word of help, not a
# search ("hi! what can you do?" was answered with the closest passages of some rulebook).
_GREETING = re.compile(
    r"^\W*(?:(?:hi|hello|hey|hiya|yo|good (?:morning|afternoon|evening)|bonjour|bonsoir|salut|coucou|hallo|"
    r"servus|moin|guten (?:tag|morgen|abend)|grüß dich|你好|您好|嗨|哈囉|哈喽)\W*)*"
    r"(?:(?:what can you do|what do you do|who are you|how does this work|help( me)?|"
    r"que (?:sais|peux)[- ]tu faire|tu (?:sais|peux) faire quoi|qui es[- ]tu|comment ça marche|aide(?:[- ]moi)?|"
    r"was kannst du( alles)?|wer bist du|wie funktioniert das|hilfe|"
    r"你能做什么|你能做什麼|你会什么|你會什麼|你是谁|你是誰|怎么用|怎麼用|帮助|幫助)\W*)?$",
    re.IGNORECASE)


def is_greeting(question: str) -> bool:
    """Whether a question is only a greeting or asks what Referee is (in en, fr, de or zh)."""
    return bool(question.strip()) and _GREETING.match(question.strip()) is not None


def _within_name(library: Library, named: str, game: str) -> bool:
    """Whether a name of game ``named`` stands inside a name of ``game``: "Mamma" inside "Mamma Mia!",
    where "the mamma card" on Mamma Mia!'s page is its own Mamma Mia! card, not the other game."""
    inner = {n.casefold() for n in library.games[named]["names"].values()}
    outer = {n.casefold() for n in library.games[game]["names"].values()}
    return any(a in b for a in inner for b in outer)


def decide(library: Library, question: str, game: str | None = None, lang: str | None = None,
           hint: str | None = None) -> Ruling:
    """The answer to a question and the passages to cite, or the reason there is none."""
    if is_greeting(question):
        return Ruling(library.read(question, game=game, lang=lang, hint=hint), [], refused="help")
    named = library.games_named(question) if game is not None else set()
    if len(named) == 1 and game not in named and not _within_name(library, *named, game):
        # asked on Mammut Mambo's page, about Mamma Mia!
        ruling = decide(library, question, None, lang, hint)
        if ruling.answer is not None:
            ruling.other_game = ruling.answer.hit.game
            return ruling
    result = library.search(question, game=game, limit=OWN_LANGUAGE_DEPTH, lang=lang, hint=hint)
    read = result.question
    hits = result.hits[:CITATIONS]
    if not hits:
        return Ruling(read, hits, refused="no_passages")
    if read.elsewhere or (result.on_topic is not None and result.on_topic < result.threshold):
        return Ruling(read, hits, refused="not_found")

    numbers = frozenset(_NUMBER.findall(read.searched))

    def answer_in(hit: Hit) -> Answer:
        return extract(hit, read.facets, library.rarity, numbers, library.sentence_closeness(read.meant, hit.id))

    first = hits[0]
    first_answer = answer_in(first)
    own = _own_language(library, result.hits, read.lang, first_answer)
    if own is not None:  # answered in the asker's own rulebook, the passage ranked first cited second
        hits = [own, first] + [h for h in hits[1:] if h.id != own.id][:CITATIONS - 2]
    answer = first_answer if own is None else answer_in(own)
    hit = answer.hit
    same_point = library.passages[hit.id]["anchor"] == library.passages[first.id]["anchor"]
    # the highest: the section's, when answered from the asker's own rulebook on the same point
    confidence = first.confidence if same_point and hit.game == first.game else hit.confidence
    return Ruling(read, hits, answer=answer, first=first_answer if own is not None else None,
                  confidence=confidence, sure=confidence >= SURE and library.answers_surely(hit.game),
                  disagreement=_disagreement(library, [answer] + [extract(h) for h in hits[1:]]))


def present(library: Library, ruling: Ruling, question: str, game: str | None = None,
            accept_language: str | None = None) -> dict:
    """A ruling in the asker's language and script, with its citations: the body of POST /v1/ask."""
    asker = ruling.read.lang
    simplified = writes_simplified(asker, question, accept_language)
    response = {
        "question": question,
        "lang": asker,
        "game": game,
        "did_you_mean": did_you_mean(ruling.read.corrected, asker, simplified),
        "answer": None,
        "message": None,
        "citations": [_citation(hit) for hit in ruling.cited],
        "disagreement": None,
    }
    answer = ruling.answer
    if ruling.refused == "help":
        response["message"] = _help(library, game, asker, simplified)
        return response
    if answer is None:
        response["message"] = say(ruling.refused, asker, simplified)
        return response
    hit = answer.hit
    game_names = library.games[hit.game]["names"]
    response["answer"] = {
        "text": answer.text,
        "passage_id": hit.id,
        "game": hit.game,
        "lang": hit.lang,
        "section": hit.section,
        "page": hit.page,
        "start": answer.start,
        "end": answer.end,
        "passage": hit.text,
        "marked": mark(hit.text, [(answer.start, answer.end)]),
        "confidence": ruling.confidence,
        "sure": ruling.sure,
        "gist": gist(library, library.passages[hit.id], asker, simplified),
    }
    response["message"] = say(
        "answer_found" if ruling.sure else "answer_unsure", asker, simplified,
        book_lang=LANGUAGE_NAMES[asker or "en"][hit.lang],
        game=game_names.get(asker or "en", game_names["en"]),
    )
    if ruling.other_game is not None:
        response["message"] = say("other_game", asker, simplified, game=game_names.get(asker or "en", game_names["en"])) \
            + " " + response["message"]
    response["citations"][0]["quote"] = answer.text
    if ruling.first is not None:
        response["citations"][1]["quote"] = ruling.first.text
    if ruling.disagreement:
        item, code = ruling.disagreement, asker or "en"
        response["disagreement"] = {
            "id": item["id"],
            "kind": item["kind"],
            "message": say("disagree" if item["kind"] == "disagreement" else "one_text_only", asker, simplified),
            "topic": in_script(item["topic"].get(code, item["topic"]["en"]), simplified),
            "summary": in_script(item["summary"].get(code, item["summary"]["en"]), simplified),
            "sides": item["sides"],
        }
        cited = {c["passage_id"] for c in response["citations"]}
        for side in item["sides"]:
            if side["passage"] not in cited:
                passage = library.passages[side["passage"]]
                response["citations"].append({
                    "passage_id": passage["id"], "game": passage["game"], "lang": passage["lang"],
                    "section": passage["section"], "kind": passage["kind"], "quote": side["quote"],
                    "page": passage.get("page"),
                })
                cited.add(side["passage"])
    return response


def _help(library: Library, game: str | None, lang: str | None, simplified: bool) -> str:
    """What Referee does, for the game asked about (with its rulebook's main sections, in the
    asker's language when a rulebook is in it) or for every game."""
    code = lang or "en"
    names = [g["names"].get(code, g["names"]["en"]) for gid, g in library.games.items() if game in (None, gid)]
    covers = ""
    if game is not None:
        langs = library.rulebook_langs(game)
        book = library.rulebooks.get((game, code if code in langs else langs[0])) if langs else None
        titles = [s["title"] for s in (book or {}).get("sections", []) if s.get("kind") == "rule" and s["passages"]][:6]
        if titles:
            covers = say("help_covers", lang, sections=("、" if code == "zh" else "; ").join(titles))
    # the whole message in the asker's script at once (say): the names and sections in it too
    return say("help", lang, simplified, games=("、" if code == "zh" else ", ").join(names), covers=covers).strip()


def ask(library: Library, question: str, game: str | None = None, lang: str | None = None,
        hint: str | None = None, accept_language: str | None = None) -> dict:
    """The answer to a question, or an honest null with the closest passages.

    ``hint`` is the asker's language when the question does not tell (the best of the client's
    Accept-Language, ``accept_language``, which also tells a Chinese asker's script when the
    question does not: Referee's words are then in Simplified or Traditional script).
    """
    return present(library, decide(library, question, game, lang, hint), question, game, accept_language)
