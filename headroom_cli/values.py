"""Typed value classes that cost little to define: `value`, `field`, `replace`, `fields`, `asdict`.

headroom starts on every tool call an agent makes, so what its modules cost to load is paid
thousands of times a day. The standard library's `dataclasses` imports `inspect` (and with it
`ast`, `dis` and `tokenize`: ~15 ms) and compiles six methods a class from source text (~1.3 ms
a class): ~45 ms of a 190 ms clip of 20 KB, which defines over twenty classes. `value` makes
the same records — fields read from the class's annotations in order, defaults and `field(...)`
as in dataclasses, an `__init__` with the fields' own signature, equality and a repr over the
fields, a hash when frozen, `__post_init__` — from one small generated `__init__` per class and
methods shared by all. `dataclass_transform` lets type checkers read them as dataclasses.
"""

from __future__ import annotations

# Not `typing.TYPE_CHECKING`: importing typing costs the pass-through path ~5 ms. Type checkers
# read any name TYPE_CHECKING as the guard.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, dataclass_transform
else:
    def dataclass_transform(**_options):
        return lambda decorator: decorator

_MISSING = object()


class FrozenError(AttributeError):
    """An attempt to set or delete a field of a frozen value."""


class Field:
    """One field: its name, default (or factory) and whether `__init__`, the repr and
    equality take it."""

    __slots__ = ("name", "default", "default_factory", "init", "repr", "compare")

    def __init__(self, default=_MISSING, default_factory=_MISSING, init: bool = True,
                 repr: bool = True, compare: bool = True) -> None:
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("a field has a default or a default_factory, not both")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare

    def __repr__(self) -> str:
        return f"Field({self.name!r})"


def field(*, default=_MISSING, default_factory=_MISSING, init: bool = True, repr: bool = True,
          compare: bool = True) -> Any:
    """A field's options, as `dataclasses.field` takes them."""
    return Field(default, default_factory, init, repr, compare)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def value(cls=None, /, *, frozen: bool = True):
    """Make `cls` a value class: `@value` (frozen) or `@value(frozen=False)`."""
    def make(cls):
        return _make(cls, frozen)
    return make if cls is None else make(cls)


def fields(value_or_class) -> tuple[Field, ...]:
    return value_or_class.__value_fields__


def replace(obj, /, **changes):
    """A copy of `obj` with `changes` (fields that `__init__` does not take are made again)."""
    for f in obj.__value_fields__:
        if f.init and f.name not in changes:
            changes[f.name] = obj.__dict__[f.name]
        elif not f.init and f.name in changes:
            raise ValueError(f"field {f.name} is not set by __init__: replace() cannot change it")
    return obj.__class__(**changes)


def asdict(obj) -> dict:
    """The fields of `obj` as a dict, values of value classes and their containers too."""
    return {f.name: _plain(obj.__dict__[f.name]) for f in obj.__value_fields__}


def _plain(item):
    if hasattr(type(item), "__value_fields__"):
        return asdict(item)
    if isinstance(item, (list, tuple)):
        return type(item)(_plain(each) for each in item)
    if isinstance(item, dict):
        return {_plain(key): _plain(each) for key, each in item.items()}
    return item


def _make(cls, frozen: bool):
    own = cls.__dict__
    found = []
    for name, annotation in own.get("__annotations__", {}).items():
        if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        spec = own.get(name, _MISSING)
        if not isinstance(spec, Field):
            spec = Field(default=spec)
        spec.name = name
        if spec.default is _MISSING:
            if name in own:
                delattr(cls, name)
        else:
            setattr(cls, name, spec.default)
        found.append(spec)
    cls.__value_fields__ = tuple(found)
    cls.__value_compared__ = tuple(f.name for f in found if f.compare)
    cls.__value_shown__ = tuple(f.name for f in found if f.repr)
    methods = {"__init__": _init(cls, found), "__repr__": _repr, "__eq__": _eq}
    if frozen:
        methods.update(__setattr__=_refuse_set, __delattr__=_refuse_delete, __hash__=_hash)
    else:
        methods["__hash__"] = None  # mutable and compared by value, as dataclasses leave it
    for name, method in methods.items():
        if name not in own:
            setattr(cls, name, method)
    return cls


def _init(cls, found: list[Field]):
    """`__init__` compiled from source, so that it takes the fields by name and position and
    fills each with a plain store into the instance's dict (frozen values refuse `setattr`)."""
    defaults = {}
    params, body = [], []
    seen_default = False
    for f in found:
        slot = f"__d[{f.name!r}]"
        if not f.init:
            if f.default is not _MISSING:
                defaults[f"_default_{f.name}"] = f.default
                body.append(f"{slot} = _default_{f.name}")
            elif f.default_factory is not _MISSING:
                defaults[f"_factory_{f.name}"] = f.default_factory
                body.append(f"{slot} = _factory_{f.name}()")
            continue
        if f.default_factory is not _MISSING:
            defaults[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            body.append(f"{slot} = _factory_{f.name}() if {f.name} is _MISSING else {f.name}")
        elif f.default is not _MISSING:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
            body.append(f"{slot} = {f.name}")
        elif seen_default:
            raise TypeError(f"{cls.__qualname__}: field {f.name} has no default but follows "
                            "one that has")
        else:
            params.append(f.name)
            body.append(f"{slot} = {f.name}")
        seen_default = seen_default or f.default is not _MISSING or \
            f.default_factory is not _MISSING
    if "__post_init__" in cls.__dict__:
        body.append("__self.__post_init__()")
    source = (f"def __init__(__self, {', '.join(params)}):\n"
              f" __d = __self.__dict__\n" + "".join(f" {line}\n" for line in body))
    namespace = dict(defaults, _MISSING=_MISSING)
    exec(compile(source, f"<value {cls.__qualname__}>", "exec"), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _repr(self) -> str:
    shown = ", ".join(f"{name}={self.__dict__.get(name)!r}" for name in self.__value_shown__)
    return f"{self.__class__.__qualname__}({shown})"


def _compared(self) -> tuple:
    own = self.__dict__
    return tuple(own[name] for name in self.__value_compared__)


def _eq(self, other) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self is other or _compared(self) == _compared(other)


def _hash(self) -> int:
    return hash(_compared(self))


def _refuse_set(self, name: str, _value) -> None:
    raise FrozenError(f"cannot assign to field {name!r} of a frozen {type(self).__qualname__}")


def _refuse_delete(self, name: str) -> None:
    raise FrozenError(f"cannot delete field {name!r} of a frozen {type(self).__qualname__}")
