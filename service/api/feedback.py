"""Learning from the table: a player says which passage answered a question Referee got wrong or
refused. Kept with its date (indexer.added.record_feedback); sent with the API key, or from this
machine, it is confirmed and joins the game's players' questions at the rebuild it starts, so the
next generation answers it. Every kept answer can be listed and removed.
"""

from __future__ import annotations

from flask import current_app, url_for
from flask_smorest import abort

from indexer import added
from service.api import Blueprint, library
from service.api.rulebooks import may_change_the_library, refused, start_rebuild
from service.schemas import FeedbackArgs, FeedbackIn, FeedbackListOut, FeedbackOut

blp = Blueprint("feedback", __name__, description="Which passage answered a question: what the table confirms.")


def _out(item: dict, job: dict | None = None) -> dict:
    return {**item, "passage_id": item["passage"], **({"rebuild": url_for("rulebooks.get_upload", upload=job["upload"])}
                                                       if job else {})}


@blp.route("/v1/feedback", methods=["POST"])
@blp.arguments(FeedbackIn, as_kwargs=True)
@blp.response(201, FeedbackOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.doc(operationId="giveFeedback")
def give_feedback(question, passage_id, helpful=True, game=None, lang=None):
    """Say which passage answered a question (helpful) or did not; kept, and confirmed from this machine or with the key.

    A confirmed helpful answer joins the game's players' questions: the index is rebuilt, and the
    next answers use it. 404 when the passage (or the game) is unknown.
    """
    lib = library()
    passage = lib.passages.get(passage_id)
    if passage is None or game not in (None, passage["game"]):
        abort(404, message=f"No passage {passage_id!r}" + (f" of {game!r}." if game else "."))
    asked_in = lang or lib.read(question).lang or passage["lang"]
    confirmed = refused() is None
    item = added.record_feedback(question, asked_in, passage["game"], passage_id, helpful, confirmed,
                                 current_app.config["REFEREE_LIBRARY"])
    job = start_rebuild(game=passage["game"], lang=passage["lang"]) if confirmed and helpful else None
    return _out(item, job), 201


@blp.route("/v1/feedback")
@blp.arguments(FeedbackArgs, location="query", as_kwargs=True)
@blp.response(200, FeedbackListOut)
@blp.doc(operationId="listFeedback")
def list_feedback(game=None):
    """The answers players confirmed or suggested, oldest first."""
    return {"feedback": [_out(item) for item in added.feedback(current_app.config["REFEREE_LIBRARY"], game)]}


@blp.route("/v1/feedback/<item>", methods=["DELETE"])
@blp.response(200, FeedbackOut)
@blp.alt_response(401, response="UNAUTHORIZED")
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(404, response="NOT_FOUND")
@blp.doc(operationId="removeFeedback")
def remove_feedback(item):
    """Remove a kept answer (a confirmed one leaves the players' questions at the rebuild it starts)."""
    may_change_the_library()
    found = added.forget_feedback(item, current_app.config["REFEREE_LIBRARY"])
    if found is None:
        abort(404, message=f"No feedback {item!r}.")
    job = start_rebuild(game=found["game"], lang=found["lang"]) if found["confirmed"] and found["helpful"] else None
    return _out(found, job)
