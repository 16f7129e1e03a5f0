"""What validate_report.py and validate_wait.py share: the schema, loaded
and checked, and a validator for it; exit 77 (skipped) when the python3
jsonschema module is missing."""
import json
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
