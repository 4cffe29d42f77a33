"""A table adds the rulebook of the game it plays (and removes it): the same path as
``python -m indexer add`` (indexer.added), over HTTP.

The file is read at once, so what cannot be read is answered at once (415 a kind of file Referee
does not read, 422 a scan, an encrypted or a damaged PDF, 409 a shipped rulebook); then the index is
rebuilt in the background and the answer is 202 with the upload to follow. Every worker serves the
new generation within REFEREE_INDEX_CHECK_SECONDS of the build (service.librarian).

Who may add: with REFEREE_API_KEY set, a client sending one of its keys (Authorization: Bearer);
without, clients on this machine only (loopback), since the library is the deployment's.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import threading
import time
import uuid
from pathlib import Path

from flask import current_app, request, url_for
from flask_smorest import abort

from indexer import added
from indexer.build import DEFAULT_CORPUS, build
from indexer.corpus import shipped_games
from indexer.pdf import Unreadable
from indexer.reading import UnsupportedFormat
from service.api import TOO_LARGE, Blueprint
from service.api.chat import authorized, keys
from service.schemas import RulebookUploadIn, UploadOut

blp = Blueprint("rulebooks", __name__, description="Rulebooks a table adds for the game it plays.")
JOBS = ".uploads"  # in the library folder: one JSON file an upload, read by every worker
log = logging.getLogger(__name__)


def refused() -> tuple[int, str] | None:
    """Why this request may not change the library (status, message), or None when it may."""
    if keys():
        if not authorized(request.headers.get("Authorization")):
            return 401, "Send Authorization: Bearer <key>, a key of REFEREE_API_KEY, to change the library."
        return None
    try:
        loopback = ipaddress.ip_address((request.remote_addr or "").split("%")[0]).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        return 403, "The library is changed from this machine only, unless REFEREE_API_KEY is set: then with one of its keys."
    return None


def may_change_the_library() -> None:
    """Abort with 401 or 403 when this request may not change the library."""
    why = refused()
    if why is not None:
        abort(why[0], message=why[1])


def start_rebuild(**fields) -> dict:
    """Rebuild the index in the background, followed as an upload (GET /v1/uploads/{id})."""
    job = {"upload": uuid.uuid4().hex[:12], "status": "building", **fields, "started": time.time(), "pid": os.getpid()}
    path = _job_path(job["upload"])
    _save_job(path, job)
    threading.Thread(target=_rebuild, args=(path, dict(job), current_app.config["REFEREE_INDEX"], _library_dir()),
                     name=f"rebuild-{job['upload']}", daemon=True).start()
    return job


def _shipped() -> dict[str, dict]:
    """The games shipped with Referee (corpus/games.yaml), whose rulebooks are never replaced."""
    return {g["id"]: g for g in shipped_games()}


def _library_dir() -> Path:
    return Path(current_app.config["REFEREE_LIBRARY"])


def _job_path(job: str) -> Path:
    return _library_dir() / JOBS / f"{job}.json"


def _save_job(path: Path, job: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(job, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, path)


def _rebuild(path: Path, job: dict, index: str, library_dir: Path) -> None:
    """The build of one upload, in the background; its outcome written to the upload's file."""
    try:
        report = build(index, DEFAULT_CORPUS, library=library_dir)
        job.update(status="ready", generation=report["generation"], seconds=round(time.time() - job["started"], 1))
    except Exception as error:  # noqa: BLE001 - the upload's status says what failed; the old index serves on
        log.exception("rebuilding the index after an upload failed")
        job.update(status="failed", error=f"The index could not be rebuilt: {error.__class__.__name__}.")
    _save_job(path, job)


@blp.route("/v1/games/<game>/rulebooks", methods=["POST"])
@blp.arguments(RulebookUploadIn, location="files", as_kwargs=True)
@blp.response(202, UploadOut)
@blp.alt_response(400, response="BAD_REQUEST")
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(409, response="CONFLICT")
@blp.alt_response(413, response=TOO_LARGE)
@blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(operationId="addRulebook")
def add_rulebook(game, file, name=None, lang=None):
    """Add the rulebook of a game (PDF, Markdown, text or a saved web page); 202, then served within seconds.

    The game is new or a shipped one (then in a language it has no rulebook in). 415 for a kind
    of file Referee does not read, 422 for one it cannot read (a scan without text, an encrypted
    or damaged PDF), 409 when the game has a shipped rulebook in that language.
    """
    may_change_the_library()
    try:
        found = added.add(file.read(), file.filename or "rulebook", game, name, lang, _library_dir(), _shipped())
    except UnsupportedFormat as error:
        abort(415, message=str(error))
    except Unreadable as error:
        abort(422, message=str(error))
    except added.Refused as error:
        abort(error.status, message=str(error))
    job = start_rebuild(game=found.game, lang=found.lang, title=found.title, format=found.format, pages=found.pages,
                        sections=found.sections, passages=found.passages, new_game=found.new_game)
    location = url_for("rulebooks.get_upload", upload=job["upload"])
    return _out(job), 202, {"Location": location}


def _out(job: dict) -> dict:
    return {**{k: v for k, v in job.items() if k not in ("started", "pid")},
            "links": {"upload": url_for("rulebooks.get_upload", upload=job["upload"]),
                      "game": url_for("games.get_game", game=job["game"])}}


@blp.route("/v1/uploads/<upload>")
@blp.response(200, UploadOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.doc(operationId="getUpload")
def get_upload(upload):
    """Where an added rulebook stands: building, ready (served within seconds) or failed."""
    if not upload.isalnum():
        abort(404, message=f"No upload {upload!r}.")
    try:
        job = json.loads(_job_path(upload).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        abort(404, message=f"No upload {upload!r}.")
    if job["status"] == "building" and not _alive(job["pid"]):
        job.update(status="failed", error="The server stopped while it was building; add the rulebook again.")
    return _out(job)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@blp.route("/v1/games/<game>/rulebooks/<lang>", methods=["DELETE"])
@blp.response(202, UploadOut)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(409, response="CONFLICT")
@blp.doc(operationId="removeRulebook")
def remove_rulebook(game, lang):
    """Remove a rulebook a table added (never a shipped one); 202, then gone within seconds."""
    may_change_the_library()
    if lang in {b["lang"] for b in _shipped().get(game, {}).get("rulebooks", [])}:
        abort(409, message=f"The {lang!r} rulebook of {game!r} is shipped with Referee; only added ones are removed.")
    try:
        removed = added.remove(game, lang, _library_dir())
    except added.Refused as error:
        abort(error.status, message=str(error))
    if not removed:
        abort(404, message=f"No added {lang!r} rulebook of {game!r}.")
    job = start_rebuild(game=game, lang=lang, removed=True)
    return _out(job), 202, {"Location": url_for("rulebooks.get_upload", upload=job["upload"])}
