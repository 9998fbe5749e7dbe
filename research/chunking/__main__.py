"""``python -m research.chunking ...``: the chunking study from a checkout (it is not in the wheel)."""

import sys

import click

from legalkg.errors import UserError

from .cli import chunking_study


def main() -> None:
    """Run the study command; a ``UserError`` is one line on stderr and a non-zero exit, as in ``legalkg``."""
    try:
        chunking_study.main(prog_name="python -m research.chunking", standalone_mode=False)
    except UserError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(err.exit_code)
    except click.ClickException as err:
        err.show()
        sys.exit(err.exit_code)
    except click.exceptions.Abort:
        sys.exit(130)


if __name__ == "__main__":
    main()
