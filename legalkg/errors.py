"""User-facing errors: the CLI prints ``str(err)`` as one line and exits with ``err.exit_code``."""


class UserError(Exception):
    """A problem the user can fix (bad input, unknown code, ...). Never shown with a traceback."""

    exit_code = 1


class ConnectionProblem(UserError):
    """Neo4j unreachable or credentials refused."""

    exit_code = 2
