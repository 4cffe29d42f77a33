"""schemathesis against the app's own OpenAPI description, in process: every operation, every check.

Generated requests, valid and invalid, go to every operation; each response is checked for server
errors, its status code, content type and headers, and its body against the documented schema.
The adjudicator's worked examples in the description give the game routes real states and moves.
REFEREE_FUZZ_EXAMPLES sets the examples per operation and mode (make fuzz raises it).

One check is told more than the description says: on the game routes, a request that the JSON
Schema allows may still be a 422, because a state's invariants (13 cards of each ingredient, whose
turn it is, the number of players an engine supports) are the engine's to check, not a schema's.
That is the contract's 422 ("well-formed but impossible"), not a rejected valid request.

One failure is schemathesis's own: on the replay routes its negative generator (schemathesis 4.32.5)
sometimes stops with InvalidSchema "Cannot generate an array with 1 demanded elements" after a
few dozen to a few hundred requests, while building a mutation of the request schema, before any
request is sent. It is caught and said, and the operation starts again with fresh randomness until
it has had 20 checked requests (or EXAMPLES, when fewer).
"""

import os

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig
from schemathesis.core.errors import InvalidSchema

from tests.api.test_openapi import SPEC_FILE

EXAMPLES = int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "20"))
GENERATOR_ATTEMPTS = 10  # fresh starts when the generator gives up before enough requests
METHODS = {"get", "post", "put", "patch", "delete", "head", "options"}
# An invalid body may also be too large (a replay of thousands of moves breaks maxItems and the
# body limit at once): 413 rejects it as surely as 400, and schemathesis's default list lacks it.
REJECTED = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]
CONFIG = {
    "checks": {"negative_data_rejection": {"expected-statuses": REJECTED}},
    "operations": [{
        "include-path-regex": "^/v1/games/[^/]+/(setup|legal-moves|adjudicate|replay|score)$",
        "checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "422"]}},
    }],
}


def _operations():
    """(path, method, mode) for every operation; invalid requests where it takes a query or a body.

    (A path segment has no invalid form left to send: any non-empty string is a name to look up.)
    """
    paths = yaml.safe_load(SPEC_FILE.read_text(encoding="utf-8"))["paths"]
    for path, item in paths.items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            yield path, method, GenerationMode.POSITIVE
            if operation.get("requestBody") or any(p["in"] == "query" for p in operation.get("parameters", [])):
                yield path, method, GenerationMode.NEGATIVE


OPERATIONS = list(_operations())


@pytest.fixture(scope="module")
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/openapi.json", app, config=SchemathesisConfig.from_dict(CONFIG))


@pytest.fixture(scope="module")
def sent():
    """Counts the requests sent, and says how many once the module is done (shown with -s: make fuzz)."""
    count = {"requests": 0}
    yield count
    print(f"\nschemathesis: {count['requests']} requests to {len(OPERATIONS)} operation/mode pairs")


@pytest.mark.parametrize("path, method, mode", OPERATIONS, ids=[f"{m.upper()} {p} {g.value}" for p, m, g in OPERATIONS])
def test_every_operation_honours_its_description(api_schema, sent, path, method, mode):
    operation = api_schema[path][method]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def run(case):
        sent["requests"] += 1
        checked.append(case)
        case.call_and_validate()

    checked = []
    for attempt in range(1, GENERATOR_ATTEMPTS + 1):
        try:
            run()
            break
        except InvalidSchema as gave_up:  # the generator's limit, see the module's docstring
            assert mode is GenerationMode.NEGATIVE and "demanded elements" in str(gave_up), gave_up
            print(f"\nschemathesis's generator gave up on {method.upper()} {path} ({mode.value}) after "
                  f"{len(checked)} checked requests in all (attempt {attempt}): {gave_up}")
            if len(checked) >= min(EXAMPLES, 20):
                break
    else:
        pytest.fail(f"the generator gave up {GENERATOR_ATTEMPTS} times, after {len(checked)} checked requests in all")
