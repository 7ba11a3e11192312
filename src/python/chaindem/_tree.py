"""An HDF5 group read whole into memory (chaindem._core.read and run), read like an h5py group:
`g["a/b"]`, `"a" in g`, `g.items()`, `g.attrs`. Datasets are numpy arrays; a scalar string
dataset is a str."""
from __future__ import annotations

from typing import Any, Iterator


class Group:
    def __init__(self, members: dict[str, Any], attrs: dict[str, Any]):
        self._members = {name: Group(*value) if isinstance(value, tuple) else value
                         for name, value in members.items()}
        self.attrs = attrs

    def __getitem__(self, path: str) -> Any:
        node: Any = self
        for part in path.strip("/").split("/"):
            if not isinstance(node, Group) or part not in node._members:
                raise KeyError(path)
            node = node._members[part]
        return node

    def __contains__(self, path: str) -> bool:
        try:
            self[path]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._members)

    def __len__(self) -> int:
        return len(self._members)

    def keys(self):
        return self._members.keys()

    def values(self):
        return self._members.values()

    def items(self):
        return self._members.items()

    def __repr__(self) -> str:
        return f"<chaindem group: {', '.join(self._members)}>"
