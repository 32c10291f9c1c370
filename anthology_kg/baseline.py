"""Validation against a baseline: only the results a change introduces count.

``compare_to_baseline(current, baseline)`` marks each result of ``current`` as ``new`` or
``unchanged`` (the baseline has a result of the same rule shape, focus entry and node,
path and value) and adds the baseline's results that ``current`` lacks as ``absent``: what
the change fixed. Results are matched as a multiset: where the baseline has n results of
one key, n of ``current``'s are unchanged and the others new. A result the baseline had
waived and ``current`` has live is new: the waiver was what accepted it, so the change
that deletes the waiver (or lets it expire) is the one that breaks the build. Only new
results are counted (``Report.counted``), so a repository that carries legacy violations
can fail CI on new ones alone; SARIF writes the state as ``baselineState``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import AnthologyError, display_path
from .revisions import State, materialized
from .validation import Report, RuleResult

if TYPE_CHECKING:
    from .layout import LayoutWarning


def result_key(
    result: RuleResult,
) -> tuple[str, str, str | None, str | None, str | None]:
    """What makes two results the same across states: rule shape, focus entry, focus
    node (a named one other than the entry), path and value (not the file or line,
    which move when a file is edited)."""
    return (result.shape, result.focus, result.node, result.path, result.value)


def compare_to_baseline(current: Report, baseline: Report) -> Report:
    """``current`` with every result marked new or unchanged, and the baseline's results
    it no longer has added as absent, sorted like any report. Of several results of one
    key (blank nodes of one entry failing one rule), as many as the other side has are
    matched, the first in sort order: a second such result is new, not existing. A live
    result of ``current`` is matched with a live one of the baseline first; matched only
    with one the baseline had waived, it is new (it counts now, it did not there), and
    that one is not absent. A waived result is unchanged where the baseline has its key,
    waived or not (it counts on neither side).

    >>> from dataclasses import replace
    >>> from anthology_kg import open_engine, validate
    >>> from anthology_kg.resources import bundled_dir
    >>> report = validate(open_engine(root=bundled_dir()))
    >>> older = replace(report, results=report.results[1:])  # without the first result
    >>> [(r.code, r.baseline) for r in compare_to_baseline(report, older).results]
    [('AK006', 'new'), ('AK006', 'unchanged'), ('AK001', 'unchanged')]
    >>> [(r.code, r.baseline) for r in compare_to_baseline(older, report).results]
    [('AK006', 'absent'), ('AK006', 'unchanged'), ('AK001', 'unchanged')]
    >>> waived = replace(report, results=[replace(r, waived=True) for r in older.results])
    >>> [(r.code, r.baseline) for r in compare_to_baseline(report, waived).results]
    [('AK006', 'new'), ('AK006', 'new'), ('AK001', 'new')]
    >>> [(r.code, r.baseline) for r in compare_to_baseline(waived, report).results]
    [('AK006', 'absent'), ('AK006', 'unchanged'), ('AK001', 'unchanged')]
    """
    live = _Pool(r for r in baseline.results if not r.waived)
    waived = _Pool(r for r in baseline.results if r.waived)
    results = []
    for result in sorted(current.results, key=lambda r: (r.waived, r.sort_key())):
        if result.waived:
            found = waived.take(result) or live.take(result)
        else:
            found = live.take(result)
            if not found:
                waived.take(result)  # un-waived: new, and not fixed either
        results.append(replace(result, baseline="unchanged" if found else "new"))
    results += [replace(r, baseline="absent") for r in live.left() + waived.left()]
    return replace(current, results=sorted(results, key=RuleResult.sort_key))


class _Pool:
    """Results to match by ``result_key``, each taken once, the first in sort order."""

    def __init__(self, results: Iterable[RuleResult]) -> None:
        self._by_key: dict[
            tuple[str, str, str | None, str | None, str | None], list[RuleResult]
        ] = {}
        for result in sorted(results, key=RuleResult.sort_key, reverse=True):
            self._by_key.setdefault(result_key(result), []).append(result)

    def take(self, result: RuleResult) -> bool:
        """Whether a result of ``result``'s key was left; it is taken."""
        alike = self._by_key.get(result_key(result))
        if not alike:
            return False
        alike.pop()
        return True

    def left(self) -> list[RuleResult]:
        return [r for alike in self._by_key.values() for r in alike]


def validate_state(state: State, validate_folder: Callable[[Path], Report]) -> Report:
    """Validate the anthology of ``state`` with ``validate_folder`` (the caller's engine and
    options). A revision is written to a temporary folder, removed however this ends,
    and its results name files as they are named in the repository."""
    with materialized(state) as folder:
        report = validate_folder(folder)
        if state.revision is None:
            return report
        return replace(report, results=[_relocated(r, folder, state.root) for r in report.results])


def validate_staged(
    root: Path, validate_folder: Callable[[Path], tuple[Report, list[LayoutWarning]]]
) -> tuple[Report, list[LayoutWarning]]:
    """``validate_folder`` (a report and layout warnings) of the anthology at ``root`` as
    git's index holds it, what the next commit records (``Repository.read_index``: not
    the work tree's untracked files or unstaged changes), in a temporary folder removed
    however this ends. The results and warnings name the files as the work tree does;
    an error in a file names it as ``staged:data/X.ttl`` (``materialized``)."""
    from .layout import relocated_warning, staged_warnings
    from .revisions import staged_folder

    with staged_folder(root, "check") as (folder, state):
        report, warnings = validate_folder(folder)
        results = [_relocated(r, folder, state.root) for r in report.results]
        moved = staged_warnings(warnings, folder, state.root, state.files)
        said = [relocated_warning(w, folder, state.root, state.files) for w in report.warnings]
    return replace(report, results=results, warnings=said), moved


def compare_to_state(
    current: Report,
    state: State,
    validate_folder: Callable[[Path], Report],
    unusable: Callable[[AnthologyError], None],
) -> Report:
    """``current`` compared with the validation of ``state`` (``validate_state``). A state
    that cannot be validated (it does not load: a Turtle error it carries) is told to
    ``unusable`` and counts as an empty base, every result new: a change that mends it
    must be able to pass."""
    try:
        before = validate_state(state, validate_folder)
    except AnthologyError as exc:
        unusable(exc)
        before = replace(current, results=[])
    return compare_to_baseline(current, before)


def _relocated(result: RuleResult, folder: Path, root: Path) -> RuleResult:
    if result.file is None:
        return result
    try:
        relative = (Path.cwd() / result.file).resolve().relative_to(folder.resolve())
    except ValueError:
        return result
    return replace(result, file=display_path(root / relative))
