"""python -m service.openapi: print the OpenAPI description of the app as YAML (make openapi)."""

import sys

import yaml


def spec_dict(app) -> dict:
    return app.extensions["referee.api"].spec.to_dict()


def spec_yaml(app) -> str:
    return yaml.safe_dump(spec_dict(app), sort_keys=False, allow_unicode=True, width=100)


def main() -> int:
    from service import create_app

    sys.stdout.write(spec_yaml(create_app()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
