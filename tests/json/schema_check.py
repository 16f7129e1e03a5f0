"""What validate_report.py and validate_wait.py share: the schema, loaded
and checked, and a validator for it (exit 77, skipped, when the python3
jsonschema module is missing), and the 127.0.0.1 ports they probe."""
import json
import socket
import sys
import urllib.parse

try:
    import jsonschema
except ImportError:
    print("skipped: the python3 jsonschema module is not installed (apt-get install python3-jsonschema)")
    sys.exit(77)


def load_validator(schema_path: str) -> "jsonschema.Draft202012Validator":
    """A validator for the schema at schema_path; exits 1 when the schema
    itself breaks a rule."""
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    # Validators resolve every "$ref" against "$id". A relative "$id" such as
    # "loopcheck/1" breaks Debian 12's jsonschema 4.10 (it looks up
    # "loopcheck/loopcheck/1": "unknown url type") while newer releases let
    # it pass, so the rule is checked here, not left to whichever version runs.
    schema_id = urllib.parse.urlsplit(schema.get("$id", ""))
    if not (schema_id.scheme and schema_id.netloc):
        print(f"FAIL the schema's $id {schema.get('$id')!r} is not an absolute URI")
        sys.exit(1)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def ipv4_port(listening: bool) -> tuple[socket.socket, int]:
    """A socket on 127.0.0.1 and its port: listening (accepts), or bound
    and never listening (refused for certain). Keep the socket open."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    if listening:
        s.listen(64)
    return s, s.getsockname()[1]
