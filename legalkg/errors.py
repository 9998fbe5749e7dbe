"""User-facing errors: the CLI prints ``str(err)`` as one line and exits with ``err.exit_code``."""


class UserError(Exception):
    """A problem the user can fix (bad input, unknown code, ...). Never shown with a traceback."""

    exit_code = 1


class ConnectionProblem(UserError):
    """Neo4j unreachable or credentials refused."""

    exit_code = 2


class NotReady(UserError):
    """The graph cannot answer yet (no finished law, or the unit's law is half loaded): the server's
    state, not the request's fault, so the HTTP API answers 503 with ``Retry-After``."""


#: Most characters of user input an error message repeats.
ECHO_CHARS = 60


def short(value: object, limit: int = ECHO_CHARS) -> str:
    """``repr(value)`` cut to about ``limit`` characters: an error names the input, it does not
    echo a 1 MB id back (issue 36)."""
    if isinstance(value, str | bytes | list | tuple) and len(value) > limit:
        value = value[:limit]
        return repr(value)[:limit + 2] + "…"
    text = repr(value)
    return text if len(text) <= limit + 2 else text[:limit] + "…"
