"""The human API documentation at /docs: Swagger UI, every asset served by Referee (works offline)."""

from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, send_from_directory

# Swagger UI 5 (it reads OpenAPI 3.1; swagger-ui-bundle's 4.15 could not), as the pinned
# flask-swagger-ui package ships its dist files. Only the files are used, not its blueprint.
SWAGGER_UI = Path(flask_swagger_ui.__file__).resolve().parent / "dist"

ASSETS = "/docs/assets/"

blp = Blueprint("docs", __name__)


@blp.route(f"{ASSETS}<path:filename>")
def asset(filename):
    """Swagger UI's scripts and styles, from the pinned flask-swagger-ui package."""
    return send_from_directory(SWAGGER_UI, filename, max_age=86400)
