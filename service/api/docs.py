"""The human API documentation at /docs: Swagger UI, every asset served by Referee (works offline)."""

from flask import Blueprint, send_from_directory
from swagger_ui_bundle import swagger_ui_path

ASSETS = "/docs/assets/"

blp = Blueprint("docs", __name__)


@blp.route(f"{ASSETS}<path:filename>")
def asset(filename):
    """Swagger UI's scripts and styles, from the pinned swagger-ui-bundle package."""
    return send_from_directory(swagger_ui_path, filename, max_age=86400)
