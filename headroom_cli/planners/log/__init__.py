"""log: keep every error with its trace, dedup every warning.

Build, test, lint and application logs. Lines are classified as summary, error or warning; each
error grows into a block (its trace, code frame or notes). What is kept, in priority order:
head and tail, runner summaries, one instance of every error kind (rarest kinds first, so the
one odd error among thousands of style nits survives), the last instance of repeated kinds, the
blocks around them, each distinct warning once with its repeat count, the remaining errors (but
a flood's: the instances of a kind of 20 or more wait behind the log's one-off lines), and
finally more head and tail. The head passes over runs of progress lines (build steps,
downloads, passing tests): they are the last rung. Everything else becomes inline gaps. A log
with no signal at all (an installer's log) is planned by the general rung (templates.py)
instead.

Speed: the whole text is never classified line by line. A few literal searches and two
line-start regexes find the candidate lines; only those, the lines of the error blocks that are
considered, and the lines considered for keeping are looked at one by one or counted in tokens.

One job per file: signals.py (telling the shape), planning.py (the plan), scanner.py (the
streaming Scanner). Sniffing loads only the signals; the plan and the scanner load with the
shape when it is chosen.
"""

from __future__ import annotations

from .. import lazy_parts
from .signals import looks_like, looks_like_a_failed_run

__getattr__ = lazy_parts(__name__)

__all__ = ["Scanner", "looks_like", "looks_like_a_failed_run", "plan"]
