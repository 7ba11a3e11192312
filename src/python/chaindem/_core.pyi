# Type hints of the extension module chaindem._core (src/python/module.cpp). Use the package
# chaindem, whose functions wrap these.
from typing import Any, Callable, Optional

version: str

class InputError(ValueError):
    """Input the command line refuses with exit status 2 (a case key out of range, an unknown
    key or law, an output path that may not be written)."""

class RunError(RuntimeError):
    """A run that fails, as the command line's exit status 1 (a diverged integration, an output
    that cannot be written)."""

Tree = tuple[dict[str, Any], dict[str, Any]]

def run(text: str, origin: str, is_path: bool, overrides: list[str], unset: list[str],
        output: Optional[str], progress: bool, note: Callable[[str], None]) -> Tree: ...
def laws() -> list[dict[str, Any]]: ...
def command(name: str, args: list[str], echo: bool = False) -> tuple[int, str, str]: ...
def read(path: str, group: str = "/") -> Tree: ...
def check_setting(option: str, key: str, value: Optional[str] = None) -> None: ...
