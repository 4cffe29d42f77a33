"""Referee as a Model Context Protocol server (the official SDK, ``mcp``): the rulebooks as resources,
and tools to search them, ask them, set a game up, list its legal moves, adjudicate a move and score
a game, for an assistant to quote Referee instead of inventing rules.

Every tool is a thin adapter over the HTTP API, called in process (Flask's test client): the same
validation, the same answers, the same errors, which reach the assistant as a tool error with the
API's words. Two transports:

* stdio, for desktop assistants: ``python -m service.mcp`` (REFEREE_INDEX names the index, as for
  the service; ``make index`` builds it);
* streamable HTTP at ``/mcp``, on the API's own host and port (service.asgi): stateless, so any
  worker process answers any request.
"""

from __future__ import annotations

import inspect
import json
import os
from typing import Annotated, Any, Literal

import anyio
from pydantic import Field

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.server.mcpserver.resources import FunctionResource
from mcp.types import ToolAnnotations

from indexer.added import GAME_ID, MAX_GAME_ID
from indexer.corpus import LANGS
from service.config import Settings
from service.engines import ENGINES

INSTRUCTIONS = """Referee answers rules questions about tabletop games from their rulebooks, quoting the
rulebooks' exact words, in English, French, German or Chinese; the rulebook may be in another
language than the question. Quote its answers with their citations, and when it says the rulebooks do
not answer, say so: do not fill the gap with a rule of your own. For a dispute about a move, set the
game up (or take the table's state), then adjudicate the move: the verdict names every rule broken,
with the rulebook's words."""

# Any game of the library: the shipped ones and those tables add while the server runs.
GameId = Annotated[str, Field(pattern=GAME_ID.pattern, max_length=MAX_GAME_ID)]
EngineGame = Literal[tuple(ENGINES)]  # type: ignore[valid-type]
Lang = Literal[tuple(LANGS)]  # type: ignore[valid-type]
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)


def build(app) -> MCPServer:
    """The MCP server over a Referee app (service.create_app())."""
    level = Settings.read().log_level.upper()
    server = MCPServer("referee", title="Referee", instructions=INSTRUCTIONS, log_level=level if level in LEVELS else "INFO",
                       description="Rules answers and move verdicts for tabletop games, quoting the rulebooks.")

    def call(method: str, path: str, body: dict | None = None, query: dict | None = None) -> dict:
        with app.test_client() as client:
            response = client.open(path, method=method, json=body, query_string=query,
                                   headers={"Accept-Language": "en"})
        data = response.get_json(silent=True) or {}
        if response.status_code != 200:
            detail = data.get("detail") or data.get("title") or f"HTTP {response.status_code}"
            if data.get("errors"):
                detail += " " + json.dumps(data["errors"], ensure_ascii=False)
            raise ToolError(detail)
        return data

    async def api(method: str, path: str, body: dict | None = None, query: dict | None = None) -> dict:
        return await anyio.to_thread.run_sync(call, method, path, body, query)

    def tool(fn):
        """A read-only tool, its docstring (without the source's indentation) its description."""
        return server.tool(annotations=READ_ONLY, description=inspect.cleandoc(fn.__doc__))(fn)

    @tool
    async def search_rules(
        query: Annotated[str, Field(description="Words or a question, in English, French, German or Chinese.",
                                    min_length=1, max_length=500)],
        game: Annotated[GameId | None, Field(description="Only this game's rulebooks.")] = None,
        limit: Annotated[int, Field(description="How many passages at most.", ge=1, le=50)] = 5,
    ) -> dict[str, Any]:
        """Find rulebook passages for a question, best first, from every rulebook language (a German
        question finds the French rules). Each hit has its passage id, the passage's exact words and
        a confidence. Use ask_rules for an answer; this lists where to read."""
        return await api("GET", "/v1/search", query={k: v for k, v in
                                                      {"q": query, "game": game, "limit": limit}.items() if v is not None})

    @tool
    async def ask_rules(
        question: Annotated[str, Field(description="A rules question, in English, French, German or Chinese.",
                                       min_length=1, max_length=500)],
        game: Annotated[GameId | None, Field(description="The game asked about, when known.")] = None,
        lang: Annotated[Lang | None, Field(description="The asker's language; detected when absent.")] = None,
    ) -> dict[str, Any]:
        """Answer a rules question from the rulebooks: answer.text is the rulebook's exact sentence,
        message says where it is from (and when Referee is not sure), citations give the passages.
        answer is null when the rulebooks do not answer: then say so, do not invent a rule.
        disagreement is set where two rulebooks of the game say different things."""
        return await api("POST", "/v1/ask", {k: v for k, v in {"question": question, "game": game, "lang": lang}.items()
                                             if v is not None})

    @tool
    async def setup_game(
        game: Annotated[EngineGame, Field(description="A game Referee can adjudicate.")],
        players: Annotated[int, Field(description="How many players.", ge=1, le=10)],
        seed: Annotated[int, Field(description="Shuffles the cards: the same seed, the same deal.")] = 0,
        options: Annotated[dict[str, Any] | None, Field(description="The game's setup options (GET /v1/games).")] = None,
    ) -> dict[str, Any]:
        """A new game's state, dealt from the seed: the state the other game tools take."""
        return await api("POST", f"/v1/games/{game}/setup", {"players": players, "seed": seed, "options": options or {}})

    @tool
    async def legal_moves(
        game: Annotated[EngineGame, Field(description="The game.")],
        state: Annotated[dict[str, Any], Field(description="The game's state, as setup_game or a verdict gives it.")],
    ) -> dict[str, Any]:
        """Every legal move of the player to move, checked by the same rules as adjudicate_move."""
        return await api("POST", f"/v1/games/{game}/legal-moves", {"state": state})

    @tool
    async def adjudicate_move(
        game: Annotated[EngineGame, Field(description="The game.")],
        state: Annotated[dict[str, Any], Field(description="The game's state before the move.")],
        move: Annotated[dict[str, Any], Field(description="The move, with its kind (legal_moves lists moves in this form).")],
        lang: Annotated[Lang, Field(description="The language of the verdict's messages.")] = "en",
    ) -> dict[str, Any]:
        """Whether a move is legal. Illegal: every rule it breaks, each with a stable code, a message
        and the rulebook's exact words (citations). Legal: the state after it. An impossible state is
        a tool error naming the field and the broken invariant."""
        return await api("POST", f"/v1/games/{game}/adjudicate", {"state": state, "move": move, "lang": lang})

    @tool
    async def score_game(
        game: Annotated[EngineGame, Field(description="The game.")],
        state: Annotated[dict[str, Any], Field(description="The game's state, over or not.")],
        lang: Annotated[Lang, Field(description="The language of the lines' messages.")] = "en",
    ) -> dict[str, Any]:
        """Each player's standing (final once the game is over): one cited line per scoring rule, the
        winners and the tie-break."""
        return await api("POST", f"/v1/games/{game}/score", {"state": state, "lang": lang})

    for game in call("GET", "/v1/games")["games"]:
        for lang in game["rulebooks"]:
            server.add_resource(FunctionResource.from_function(
                (lambda g=game["id"], l=lang: rulebook_text(call, g, l)), uri=f"referee://rulebooks/{game['id']}/{lang}",
                name=f"{game['id']}-{lang}", title=f"{game['names']['en']} rulebook ({lang})",
                description=f"The {game['names']['en']} rulebook in {lang}, each passage with its id.",
                mime_type="text/markdown"))

    @server.resource("referee://rulebooks/{game}/{lang}", name="rulebook", mime_type="text/markdown",
                     description="A whole rulebook, each passage with its id: referee://rulebooks/mamma-mia/fr.")
    def rulebook(game: str, lang: str) -> str:
        return rulebook_text(call, game, lang)

    @server.resource("referee://passages/{passage_id}", name="passage", mime_type="application/json",
                     description="One passage with its section and exact words: referee://passages/mamma-mia.fr.oven.1.")
    def passage(passage_id: str) -> str:
        try:
            return json.dumps(call("GET", f"/v1/passages/{passage_id}"), ensure_ascii=False)
        except ToolError as missing:
            raise ResourceNotFoundError(str(missing)) from None

    return server


def rulebook_text(call, game: str, lang: str) -> str:
    """A rulebook as Markdown: its title, its sections, and each passage after its id in brackets."""
    try:
        book = call("GET", f"/v1/rulebooks/{game}/{lang}")
    except ToolError as missing:
        raise ResourceNotFoundError(str(missing)) from None
    lines = [f"# {book['title']}"]
    for section in book["sections"]:
        lines.append(f"\n{'#' * (section.get('level', 1) + 1)} {section['title']}")
        lines.extend(f"\n[{p['passage_id']}] {p['text']}" for p in section["passages"])
    return "\n".join(lines) + "\n"


def main() -> None:
    """Serve over stdio, for a desktop assistant that starts Referee itself."""
    import logging

    os.environ.setdefault("REFEREE_LOG_LEVEL", "warning")  # stdout is the protocol's: logs go to stderr
    logging.basicConfig(level=logging.WARNING)
    from service import create_app
    from service.library import IndexMissing

    try:
        server = build(create_app())
    except IndexMissing as missing:
        raise SystemExit(f"referee: {missing}") from None
    server.run("stdio")


if __name__ == "__main__":
    main()
