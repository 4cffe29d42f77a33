"""The HTTP layer: flask-smorest configured for problem+json and 400 on malformed input."""

from __future__ import annotations

import http
import re
import sys

import flask_smorest
import marshmallow as ma
from flask import current_app, g
from werkzeug.datastructures import CombinedMultiDict, LanguageAccept
from werkzeug.http import parse_accept_header
from flask_smorest.utils import prepare_response
from webargs.flaskparser import FlaskParser

from indexer.corpus import LANGS
from service import errors
from service.schemas import ProblemOut


MAX_JSON_DEPTH = 32  # a game state needs about six levels


LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # "\\ud800" decodes, but names no character


def _malformed(value, limit: int) -> str | None:
    """What makes decoded JSON unfit for any request: arrays and objects nested more than
    ``limit`` levels, or a string holding half of a surrogate pair (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str) and LONE_SURROGATE.search(item):
            return "A JSON string holds a lone surrogate (\\ud800 to \\udfff), which is not a character."
        if isinstance(item, (dict, list)):
            if depth > limit:
                return f"JSON nested more than {limit} levels deep."
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return None


class Parser(FlaskParser):
    """Malformed input (wrong type, missing field, bad value) is a 400, as API.md promises.

    422 is kept for well-formed input the game rules reject (an impossible state).
    """

    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req):
        """JSON nested too deeply, a number too long for Python to read (over 4,300 digits) or a
        lone surrogate is malformed, not a crash of the decoder or of what reads the text."""
        try:
            data = super()._raw_load_json(req)
            message = _malformed(data, MAX_JSON_DEPTH)
        except RecursionError:  # deeper than the decoder itself goes
            message = f"JSON nested more than {MAX_JSON_DEPTH} levels deep."
        except ValueError:  # what webargs leaves: int() refusing a number of over sys.get_int_max_str_digits()
            message = f"A JSON number has more than {sys.get_int_max_str_digits()} digits."
        if message:
            flask_smorest.abort(400, message=message, errors={"json": [message]})
        return data

    def load_files(self, req, schema):
        """A multipart body whole: its files and its other fields, as one schema documents them
        (flask-smorest documents one request body an operation)."""
        return self._makeproxy(CombinedMultiDict([req.files, req.form]), schema)


TOO_LARGE = http.HTTPStatus(413).name  # the response every route with a body can give (over 256 KiB)


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()


def _nullable(field, ret) -> dict:
    """Mark a field that may be null; ``_null_as_a_branch`` writes it in OpenAPI 3.1's form.

    apispec would write a nullable nested schema as ``anyOf: [{type: object, nullable: true}, {$ref}]``,
    whose first branch admits any object at all: validators and fuzzers then accept states that
    are not states, and client generators take the empty branch.
    """
    if not field.allow_none:
        return {}
    if "$ref" in ret:
        return {"allOf": [{"$ref": ret.pop("$ref")}], "nullable": True}
    return {"nullable": True}


def _refer_only(converter, field, ret, **kwargs) -> dict:
    """A game's state or move (a plain dict when loaded, checked in the view) is documented as just
    a reference to its game's schema. Beside ``type: object, additionalProperties: {}`` or inside
    ``allOf``, generators intersect it with a free object or read it as a subtype, and lose the
    move's discriminator."""
    if isinstance(field, ma.fields.Dict):  # a Length on a mapping counts its entries
        for bound in ("min", "max"):
            if f"{bound}Length" in ret:
                ret[f"{bound}Properties"] = ret.pop(f"{bound}Length")
    if isinstance(field, ma.fields.Dict) and len(ret.get("allOf", ())) == 1:
        ret.pop("type", None)
        ret.pop("additionalProperties", None)
        ret["$ref"] = ret.pop("allOf")[0]["$ref"]  # OpenAPI 3.1 lets description sit beside $ref
    return {}


def _contains(converter, field, ret, **kwargs) -> dict:
    """JSON Schema's ``contains`` from a list field's metadata (apispec passes on only OpenAPI
    3.0's keywords): "at least one user message with text"."""
    return {"contains": field.metadata["contains"]} if "contains" in field.metadata else {}


_OUTER = ("description", "default", "example", "examples", "deprecated", "readOnly", "writeOnly")


def _null_as_a_branch(node):
    """OpenAPI 3.1 for every schema marked nullable, in the forms client generators honour:
    a schema that refers to another becomes ``anyOf: [{$ref}, {type: null}]``; an enum becomes
    ``anyOf: [{enum without null}, {type: null}]``; any other type becomes ``type: [type, "null"]``."""
    if isinstance(node, list):
        return [_null_as_a_branch(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _null_as_a_branch(value) for key, value in node.items()}
    if not node.pop("nullable", False):
        return node
    outer = {key: node.pop(key) for key in _OUTER if key in node}
    if "$ref" in node:
        return {**outer, "anyOf": [{"$ref": node["$ref"]}, {"type": "null"}]}
    refs = node.get("allOf") or node.get("oneOf") or []
    if len(refs) == 1 and "$ref" in refs[0]:
        return {**outer, "anyOf": [refs[0], {"type": "null"}]}
    if "oneOf" in node:
        return {**outer, "anyOf": [*node["oneOf"], {"type": "null"}]}
    if "enum" in node:
        node["enum"] = [value for value in node["enum"] if value is not None]
        return {**outer, "anyOf": [node, {"type": "null"}]}
    if "type" in node:
        node["type"] = [node["type"], "null"]
    return {**outer, **node}


_RATE_HEADERS = {
    "Retry-After": "Seconds to wait before asking again.",
    "RateLimit-Limit": "Requests the limit nearest to running out allows in its window.",
    "RateLimit-Remaining": "Requests left in that window.",
    "RateLimit-Reset": "Seconds until that window starts again.",
    "RateLimit-Policy": 'Every limit, as "requests;w=seconds", comma-separated.',
}


def _rate_limited(spec: dict) -> dict:
    """Every operation under /v1/ can answer 429: service.throttle refuses a client past its rate
    limits before the app sees the request, so no view documents it."""
    spec.setdefault("components", {}).setdefault("responses", {})["TOO_MANY_REQUESTS"] = {
        "description": "Too many requests from this client (REFEREE_RATE_LIMIT): ask again after Retry-After.",
        "headers": {name: {"description": text, "schema": {"type": "string" if name == "RateLimit-Policy" else "integer"}}
                    for name, text in _RATE_HEADERS.items()},
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/ProblemOut"}}},
    }
    for path, operations in spec.get("paths", {}).items():
        if path.startswith("/v1/"):
            for method, operation in operations.items():
                if method in ("get", "post", "put", "patch", "delete"):
                    operation["responses"].setdefault("429", {"$ref": "#/components/responses/TOO_MANY_REQUESTS"})
    return spec


class Api(flask_smorest.Api):
    ERROR_SCHEMA = ProblemOut

    def _init_spec(self, *args, **kwargs):
        super()._init_spec(*args, **kwargs)
        functions = self.ma_plugin.converter.attribute_functions
        at = next(i for i, f in enumerate(functions) if f.__name__ == "field2nullable")
        functions[at] = _nullable
        self.ma_plugin.converter.add_attribute_function(_refer_only)
        self.ma_plugin.converter.add_attribute_function(_contains)
        written = self.spec.to_dict
        self.spec.to_dict = lambda: _rate_limited(_null_as_a_branch(written()))

    def _register_error_handlers(self):
        errors.register(self._app)

    def _register_responses(self):
        """Document every error response as application/problem+json."""
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, errors.PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, errors.PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


def document_move_kinds(spec, move_schema) -> None:
    """A game's move, documented as one schema per kind (oneOf, discriminated by ``kind``), each
    requiring the fields that kind cannot do without: what the move schema checks, and what a
    generated client needs to tell a swap from a pass."""
    name = move_schema.__name__
    flat = spec.components.schemas[name]
    variants = {}
    for kind, needed in move_schema.KINDS.items():
        variant = f"{name.removesuffix('Move')}{''.join(w.title() for w in kind.split('-'))}Move"
        properties = {**flat["properties"], "kind": {"type": "string", "enum": [kind]}}
        for field in needed:  # a field the kind needs cannot be null either
            properties[field] = {k: v for k, v in properties[field].items() if k != "nullable"}
        spec.components.schema(variant, component={
            **flat, "description": f"A {kind} move.", "properties": properties, "required": ["kind", *needed],
        })
        variants[kind] = f"#/components/schemas/{variant}"
    description = (move_schema.__doc__ or "").strip()
    flat.clear()
    flat.update({"description": description, "oneOf": [{"$ref": ref} for ref in variants.values()],
                 "discriminator": {"propertyName": "kind", "mapping": variants}})


def best_language(accept_language: str | None) -> str | None:
    """An Accept-Language header as one of Referee's languages: a hint for unclear questions."""
    return parse_accept_header(accept_language or "", LanguageAccept).best_match(LANGS)


def library():
    """The rulebook library this request is answered from: taken once, so one answer is one generation."""
    if "library" not in g:
        g.library = current_app.extensions["referee.librarian"].current()
    return g.library


def known_game(game: str | None) -> None:
    """404 for a game id that names no game of the library (shipped or added)."""
    if game is not None and game not in library().games:
        flask_smorest.abort(404, message=f"No game {game!r}. Known games: {', '.join(library().games)}.")
