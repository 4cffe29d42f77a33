"""What every engine's rules must satisfy, checked the same way for each game."""

import inspect

from indexer.build import DEFAULT_CORPUS
from indexer.corpus import LANGS, load_corpus

PASSAGES = {p.id: p.text for b in load_corpus(DEFAULT_CORPUS).rulebooks for p in b.passages}


def assert_rules_cited_and_tested(rules, game: str, test_module) -> None:
    """Codes unique and the game's own; each cites the rulebook's exact words, speaks four
    languages, and is named in the game's tests."""
    source = inspect.getsource(test_module)
    codes = [rule.code for rule in rules]
    assert len(codes) == len(set(codes))
    for rule in rules:
        assert rule.code.startswith(f"{game}/")
        assert rule.citations, rule.code
        for citation in rule.citations:
            assert citation.quote in PASSAGES[citation.passage_id], (rule.code, citation)
        assert set(rule.messages) == set(LANGS), rule.code
        assert f'"{rule.code}"' in source, f"{rule.code} has no test"


def assert_readings_cited_and_tested(engine, test_module) -> None:
    """Each reading option of the game (a setup option): two readings, each said in four languages,
    the rulebook's exact words they rest on, and named in the game's tests."""
    source = inspect.getsource(test_module)
    for option in getattr(engine, "readings", ()):
        assert len(option.values) == 2 and option.option in engine.setup_options, option.option
        assert option.citations, option.option
        for citation in option.citations:
            assert citation.quote in PASSAGES[citation.passage_id], (option.option, citation)
        for value in option.values:
            assert set(option.readings[value]) == set(LANGS) and all(option.readings[value].values()), (option.option, value)
        assert f'"{option.option}"' in source or f"{option.option}=" in source, f"{option.option} has no test"
    named = {o.option for o in getattr(engine, "readings", ())}
    for rule in engine.rules:
        assert set(getattr(rule.check, "reads", ())) <= named, (rule.code, "reads an option the game does not have")
