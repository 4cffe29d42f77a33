from service.api import Blueprint, library
from service.schemas import HealthOut

blp = Blueprint("health", __name__, description="Is the service up and which index it serves.")


@blp.route("/healthz")
@blp.response(200, HealthOut)
@blp.doc(operationId="getHealth")
def healthz():
    """Report that the index is loaded."""
    lib = library()
    return {
        "status": "ok",
        "index": lib.generation,
        "built_at": lib.built_at,
        "passages": len(lib.passages),
        "rulebooks": len(lib.rulebooks),
    }
