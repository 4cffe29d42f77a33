from pathlib import Path

import yaml
from openapi_spec_validator import validate

from service.openapi import spec_dict

SPEC_FILE = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_openapi_yaml_matches_the_running_app(app):
    on_disk = yaml.safe_load(SPEC_FILE.read_text(encoding="utf-8"))
    assert on_disk == spec_dict(app), "openapi.yaml is out of date: run `make openapi`"


def test_openapi_yaml_is_a_valid_openapi_document():
    validate(yaml.safe_load(SPEC_FILE.read_text(encoding="utf-8")))


def test_every_route_is_documented(app):
    documented = set(spec_dict(app)["paths"])
    for rule in app.url_map.iter_rules():
        if rule.endpoint in ("static",) or rule.endpoint.startswith(("api-docs.", "no-adjudicator.", "docs.", "web.")):
            continue
        path = rule.rule.replace("<", "{").replace(">", "}")
        assert path in documented, path


def test_errors_are_documented_as_problem_json(app):
    spec = spec_dict(app)
    not_found = spec["components"]["responses"]["NOT_FOUND"]
    assert list(not_found["content"]) == ["application/problem+json"]
    search = spec["paths"]["/v1/search"]["get"]["responses"]
    assert "400" in search and "422" not in search


def test_every_response_example_is_valid_against_its_schema(app):
    from openapi_schema_validator import OAS31Validator

    spec = spec_dict(app)
    checked = 0
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            success = next(r for status, r in operation["responses"].items() if status.startswith("2"))
            content = success.get("content", {}).get("application/json", {})
            if "example" in content:
                # the schema's $refs point into the spec's components: give it them as its root
                OAS31Validator({**content["schema"], "components": spec["components"]}).validate(content["example"])
                checked += 1
    assert checked >= 12, "each game's four routes show what they answer"
