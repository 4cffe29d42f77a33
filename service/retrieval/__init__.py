"""Retrieval, stage by stage: question analysis -> query plan -> retriever -> ranker.

- ``question``: who asks (language), about which game, what they mean (term-base concepts,
  misspellings, words of other domains), and how much of it the rulebooks know.
- ``plan``: the question as a search plan independent of the engine: clauses of alternative forms
  per field, required phrases, and the stems to highlight.
- ``retriever``: the engine behind a small interface (``Retriever``): Whoosh, or tantivy when
  REFEREE_SEARCH_BACKEND says so.
- ``rank``: preferences over the engine's scores, highlights, and the hits returned.

service.library wires them together over one index generation; service.ask picks the answer.
"""
