"""The table's web app: one HTML shell for every page, and the scripts and styles it loads.

The pages are drawn in the browser from the public API (``/v1``); nothing here knows a game's
rules. Every asset comes from this origin, and the Content-Security-Policy says so to the browser.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import flask

STATIC = Path(__file__).resolve().parent / "static"
TABS = ("chat", "rulebook", "dispute")

# Scripts, styles, API calls and images from this origin only: the app works offline and cannot
# leak a question to a third party.
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

blp = flask.Blueprint("web", __name__, static_folder=str(STATIC), static_url_path="/app")


def _shell(status: int = 200) -> flask.Response:
    response = flask.send_from_directory(STATIC, "index.html", max_age=0)
    response.status_code = status
    return response


def _known(game: str) -> bool:
    from service.api import library

    return game in library().games


@blp.get("/")
def home():
    """The games, with what each offers."""
    return _shell()


@blp.get("/add")
def add_game():
    """Adding a game: its rulebook uploaded, read and indexed."""
    return _shell()


@blp.get("/sw.js")
def service_worker():
    """The app's service worker (static/sw.js), served from the root so that it serves every page."""
    response = flask.send_from_directory(STATIC, "sw.js", mimetype="text/javascript", max_age=0)
    response.cache_control.no_cache = True
    return response


@blp.get("/app/phone")
def phone():
    """Where a phone at the table opens Referee, and its QR code (an SVG data URI): 404 when the
    server listens on this machine only (service.config.phone_url)."""
    from service.config import Settings, phone_url

    url = phone_url(Settings.read())
    if url is None:
        flask.abort(404)
    import segno

    return {"url": url, "qr": segno.make(url, micro=False).svg_data_uri(scale=4, border=2, dark="#000", light="#fff")}


@blp.get("/favicon.ico")
def favicon():
    """Browsers ask for it on every page, /docs included."""
    return flask.send_from_directory(STATIC, "icon.svg", mimetype="image/svg+xml", max_age=86400)


@blp.get("/games/<game>")
def game_page(game):
    """A game opens on its Chat tab."""
    if not _known(game):
        return _shell(404)
    return flask.redirect(flask.url_for("web.tab", game=game, tab="chat"))


@blp.get("/games/<game>/<any(chat, rulebook, dispute):tab>")
@blp.get("/games/<game>/rulebook/<lang>", defaults={"tab": "rulebook"})
def tab(game, tab, lang=None):
    """One tab of a game's page; the script draws it from the URL. Unknown games answer 404."""
    return _shell(200 if _known(game) else 404)


@functools.cache
def strings() -> dict[str, dict[str, str]]:
    """The interface's strings by language: en, fr, de and Simplified Chinese as written in
    strings.src.json, and Traditional Chinese converted from the Simplified by OpenCC (Taiwan
    standard with its phrases), so the two scripts never drift apart."""
    import opencc

    from indexer.analysis import to_simplified
    from indexer.corpus import game_names

    table = json.loads((STATIC / "strings.src.json").read_text(encoding="utf-8"))
    to_traditional = opencc.OpenCC("s2twp")
    table["zh-Hant"] = {key: to_traditional.convert(text) for key, text in table["zh-Hans"].items()}
    # The games' names as games.yaml gives them; Chinese ones are written in Traditional script,
    # so the Simplified interface gets them converted.
    for game, names in game_names().items():
        for lang in ("en", "fr", "de"):
            table[lang][f"game.{game}"] = names.get(lang) or names["en"]
        chinese = names.get("zh") or names["en"]
        table["zh-Hant"][f"game.{game}"] = chinese
        table["zh-Hans"][f"game.{game}"] = to_simplified(chinese)
    return table


@blp.get("/app/strings.json")
def strings_json():
    response = flask.jsonify(strings())
    response.cache_control.no_cache = True
    response.add_etag()
    return response.make_conditional(flask.request)


API_PATHS = ("/v1/", "/healthz", "/openapi.json", "/docs", "/app/")


@blp.app_errorhandler(404)
def not_found(error):
    """A browser that opens an unknown page gets the app's own "not found" page, in its language;
    API clients (and anything that does not prefer HTML) get problem+json as everywhere else."""
    from service import errors

    wants_html = flask.request.accept_mimetypes.best_match(
        [errors.PROBLEM_JSON, "application/json", "text/html"]) == "text/html"
    if flask.request.method == "GET" and wants_html and not flask.request.path.startswith(API_PATHS):
        return protect(_shell(404))
    return errors.handle_http_exception(error)


@blp.after_request
def protect(response: flask.Response) -> flask.Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
