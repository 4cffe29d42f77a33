"""Referee's HTTP service: create_app() opens the index once and registers one blueprint per resource."""

from __future__ import annotations

API_DESCRIPTION = """Referee answers rules questions for tabletop games, in English, French, German
and Chinese, citing the rulebooks' exact words. Every error is application/problem+json."""


def body_limit(config, method: str, path: str) -> int:
    """The largest body a request may send: a rulebook's upload (REFEREE_MAX_UPLOAD_BYTES) may be
    larger than the rest (MAX_CONTENT_LENGTH)."""
    upload = method == "POST" and path.startswith("/v1/games/") and path.endswith("/rulebooks")
    return config["REFEREE_MAX_UPLOAD_BYTES"] if upload else config["MAX_CONTENT_LENGTH"]


def create_app(config: dict | None = None):
    """Build the app: defaults, then ``config``; the index is opened here, once.

    Flask is imported here, not at the top: service.engines must stay importable without it.
    """
    from flask import Flask, g, request
    from flask_cors import CORS
    from werkzeug.exceptions import RequestEntityTooLarge

    from indexer.added import library_dir
    from indexer.build import DEFAULT_INDEX
    from service import tracing
    from service.config import Settings
    from service.api import Api, adjudicate, ask, chat, docs, feedback, games, health, rulebooks, search
    from service.language import Detector
    from service.librarian import Librarian
    from service.middleware import DeclaredLength
    from service import web
    from service.library import Library
    from service.retrieval.retriever import backend as search_backend

    settings = Settings.read()
    app = Flask(__name__)
    app.config.from_mapping(
        REFEREE_INDEX=settings.index or str(DEFAULT_INDEX),
        REFEREE_INDEX_CHECK_SECONDS=settings.index_check_seconds,
        # The rulebooks tables add (indexer.added), and the largest file an upload may send.
        REFEREE_LIBRARY=str(library_dir()),
        REFEREE_MAX_UPLOAD_BYTES=settings.max_upload_bytes,
        REFEREE_LOG_LEVEL=settings.log_level,
        # The search engine, whoosh or tantivy (both read the same index generation); unset, the
        # environment's, else whoosh (service.retrieval.retriever.backend).
        REFEREE_SEARCH_BACKEND=None,
        # Browser frontends on other origins: a comma-separated list, or * (without credentials).
        REFEREE_CORS_ORIGINS=settings.cors_origins,
        # where people reach this server (https://referee.example): chat answers' links start with
        # it; without it they are relative to the server's root
        REFEREE_PUBLIC_URL=settings.public_url,
        MAX_CONTENT_LENGTH=256 * 1024,
        API_TITLE="Referee",
        API_VERSION="1.0",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL=docs.ASSETS,
        OPENAPI_SWAGGER_UI_CONFIG={"validatorUrl": None},  # Swagger UI would send the spec to an outside validator
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION}},
    )
    if config:
        app.config.update(config)
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    tracing.init_app(app)  # first: the request id is there for every later hook and error
    origins = app.config["REFEREE_CORS_ORIGINS"]
    wildcard = origins.strip() == "*"
    CORS(app, resources={r"/v1/*": {}, "/healthz": {}, "/openapi.json": {}},
         origins="*" if wildcard else [o.strip() for o in origins.split(",") if o.strip()],
         send_wildcard=wildcard, supports_credentials=False, methods=["GET", "HEAD", "POST", "DELETE", "OPTIONS"],
         expose_headers=["X-Request-ID", "X-Referee-Index", "ETag"], max_age=600)
    backend = search_backend(app.config["REFEREE_SEARCH_BACKEND"])  # an unknown one stops the start here
    detector = Detector()
    app.extensions["referee.librarian"] = Librarian(
        app.config["REFEREE_INDEX"],
        open_library=lambda index_dir: Library(index_dir, detector=detector, backend=backend),
        check_seconds=app.config["REFEREE_INDEX_CHECK_SECONDS"],
    )

    @app.before_request
    def refuse_large_bodies():
        """413 for any request whose declared body is over the limit, read or not."""
        limit = request.max_content_length = body_limit(app.config, request.method, request.path)
        if request.content_length is not None and request.content_length > limit:
            raise RequestEntityTooLarge(f"The body is over the limit of {limit} bytes.")

    @app.after_request
    def say_which_index(response):
        """Every answer names the index generation it was served from."""
        if "library" in g:
            response.headers["X-Referee-Index"] = g.library.generation
        return response

    api = Api(app)
    for module in (health, games, rulebooks, feedback, search, ask, chat, adjudicate):
        api.register_blueprint(module.blp)
    app.register_blueprint(adjudicate.no_adjudicator)
    app.register_blueprint(docs.blp)
    app.register_blueprint(web.blp)
    from service.api import document_move_kinds
    from service.schemas import GAME_SCHEMAS

    for state_schema, move_schema in GAME_SCHEMAS.values():
        api.spec.components.schema(state_schema.__name__, schema=state_schema)
        api.spec.components.schema(move_schema.__name__, schema=move_schema)
        document_move_kinds(api.spec, move_schema)
    app.extensions["referee.api"] = api
    app.wsgi_app = DeclaredLength(app.wsgi_app, limit=lambda method, path: body_limit(app.config, method, path))
    return app
