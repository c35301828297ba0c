"""Frozen dataclasses made quickly: the texts, screens and views a table makes for every seat at
every state (a frozen dataclass's own `__init__` and `__hash__` are most of what making and
comparing one costs)."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

_C = TypeVar("_C", bound=type)


def quick_init(cls: _C) -> _C:
    """A frozen dataclass whose `__init__` stores the fields straight into the new instance: the
    texts, screens and views made for every seat at every state (a frozen dataclass's own
    `__init__` calls `object.__setattr__` once per field, most of what making one costs). The
    signature, defaults, equality, hashing and `dataclasses.replace` stay the dataclass's."""
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    if hasattr(cls, "__post_init__") or "__slots__" in vars(cls) or "_dict_" in names or any(
            not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING for f in fields):
        raise TypeError(f"{cls.__name__}: quick_init takes plain fields only")
    defaults = {f"_default_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}
    params = ", ".join(n if f"_default_{n}" not in defaults else f"{n}=_default_{n}" for n in names)
    stores = "".join(f"    _dict_[{n!r}] = {n}\n" for n in names)
    made: dict[str, Any] = dict(defaults)
    exec(f"def __init__(_self_, {params}):\n    _dict_ = _self_.__dict__\n{stores}", made)  # generated, as dataclasses does
    init = made["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]
    return cls


def cached_hash(cls: _C) -> _C:
    """A frozen dataclass whose hash is worked out once per object: texts and screens are the keys
    of the screens' caches, asked at every frame, and a screen's hash is its lines' hashes. The
    value is the dataclass's own (the fields' tuple hashed); it stays out of pickles and copies
    (another process hashes strings with another seed). Equality is the dataclass's too (the same
    class, equal fields), compared as the instances' dicts: they hold the fields and the hash."""
    names = tuple(f.name for f in dataclasses.fields(cls) if (f.compare if f.hash is None else f.hash))

    def __hash__(self: Any) -> int:
        known = self.__dict__
        value: int | None = known.get("_hash_")  # not a KeyError caught: a new text is hashed at every frame
        if value is None:
            value = known["_hash_"] = hash(tuple(map(known.__getitem__, names)))
        return value

    def __eq__(self: Any, other: object) -> bool:
        # the fields and the hash once both are known, in C's dict comparison (a known hash that
        # differs settles it), not two tuples of every field made at each comparison
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine, theirs = self.__dict__, other.__dict__
        if len(mine) != len(theirs):  # one hash known, not the other: worked out now, kept
            hash(self)
            hash(other)
        return mine == theirs

    def __getstate__(self: Any) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_hash_"}

    cls.__hash__ = __hash__  # type: ignore[assignment]
    cls.__eq__ = __eq__  # type: ignore[method-assign,assignment]
    cls.__getstate__ = __getstate__  # type: ignore[method-assign,assignment]
    return cls


def dict_eq(cls: _C) -> _C:
    """A dataclass compared by its instances' `__dict__` (C's dict comparison, stopping at the first
    field that differs), not by two tuples of every field made at each comparison: for classes
    whose instances hold their fields and nothing else (screens' frames and layouts, compared at
    every refresh). The hash stays the dataclass's."""

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or self.__dict__ == other.__dict__

    cls.__eq__ = __eq__  # type: ignore[method-assign,assignment]
    return cls
