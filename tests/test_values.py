"""values.value makes the value classes the standard dataclasses would (without their import
cost): each behaviour is checked against a dataclass declared the same way."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from headroom_cli.values import FrozenError, asdict, field, fields, replace, value


def declare(decorator):
    """The same class body under either decorator."""
    @decorator
    class Span:
        start: int
        name: str = "x"
        tags: list = field(default_factory=list) if decorator is value else \
            dataclasses.field(default_factory=list)
        note: object = field(default=None, compare=False, repr=False) if decorator is value \
            else dataclasses.field(default=None, compare=False, repr=False)
    return Span


Ours, Theirs = declare(value), declare(dataclasses.dataclass(frozen=True))
scalars = st.one_of(st.integers(), st.text(max_size=5), st.none())


@given(st.integers(), st.text(max_size=8), st.lists(st.integers(), max_size=3), scalars)
def test_init_repr_and_equality_are_a_dataclass(start, name, tags, note):
    ours, theirs = Ours(start, name, tags, note), Theirs(start, name, tags, note)
    assert repr(ours) == repr(theirs)
    assert ours == Ours(start, name=name, tags=list(tags), note="anything else")
    assert (ours == Ours(start + 1, name, tags)) is False
    assert ours != theirs  # another class, as two dataclasses are
    assert [f.name for f in fields(ours)] == [f.name for f in dataclasses.fields(theirs)]
    assert asdict(ours) == dataclasses.asdict(theirs)


@given(st.integers(), st.text(max_size=8), scalars)
def test_frozen_values_hash_as_their_compared_fields(start, name, note):
    @value
    class Key:
        start: int
        name: str
        note: object = field(default=None, compare=False)

    @dataclasses.dataclass(frozen=True)
    class Twin:
        start: int
        name: str
        note: object = dataclasses.field(default=None, compare=False)

    assert hash(Key(start, name, note)) == hash(Twin(start, name, note))
    assert len({Key(start, name), Key(start, name, note)}) == 1


def test_defaults_are_kept_and_factories_called_per_instance():
    a, b = Ours(1), Ours(2)
    assert (a.name, a.tags, a.note) == ("x", [], None)
    a.tags.append(1)
    assert b.tags == []


def test_frozen_values_refuse_changes_and_replace_copies():
    span = Ours(1, "a")
    with pytest.raises(AttributeError):
        span.start = 2
    with pytest.raises(FrozenError):
        del span.name
    moved = replace(span, start=5)
    assert (moved.start, moved.name, span.start) == (5, "a", 1)


def test_a_mutable_value_sets_its_fields_and_is_unhashable_like_a_dataclass():
    @value(frozen=False)
    class Tally:
        count: int = 0
        seen: set = field(default_factory=set)
        total: int = field(init=False)

        def __post_init__(self) -> None:
            self.total = self.count * 2

    tally = Tally(3)
    tally.count += 1
    assert (tally.count, tally.total) == (4, 6)
    with pytest.raises(TypeError):
        hash(tally)
    with pytest.raises(ValueError):
        replace(tally, total=1)
    assert replace(tally, count=5).total == 10


def test_calls_that_a_dataclass_refuses_are_refused():
    with pytest.raises(TypeError):
        Ours()  # start has no default
    with pytest.raises(TypeError):
        Ours(1, "a", [], None, "one too many")
    with pytest.raises(TypeError):
        @value
        class Misordered:
            first: int = 0
            second: int
    with pytest.raises(ValueError):
        field(default=1, default_factory=list)


def test_methods_a_class_defines_are_its_own():
    @value
    class Shown:
        text: str

        def __repr__(self) -> str:
            return f"<{self.text}>"

    assert repr(Shown("a")) == "<a>" and Shown("a") == Shown("a")
