"""Every exit status headroom uses, in one place (documented in --help and the man page)."""


class ExitStatus:
    """The statuses, as plain ints in one namespace: not an IntEnum, since importing enum (with
    functools and collections) would cost output that passes straight through ~7 ms."""

    OK = 0
    ERROR = 1  # an id that is unknown or pruned, a broken config file, an unreadable input
    USAGE = 2  # a bad option or argument
    CANNOT_EXECUTE = 126  # the wrapped command exists but cannot be run
    NOT_FOUND = 127  # the wrapped command does not exist
    # The wrapped command died of signal N (or signal N stopped reading stdin): 128 + N, as a
    # shell reports it.
    SIGNAL_BASE = 128
    PIPE_CLOSED = 141  # our reader closed the pipe early (128 + SIGPIPE), as `cat` would


EXIT_STATUS_HELP = """\
Exit status:
  0    success (in command mode: the command's own status)
  1    error: unknown or pruned id, broken config, unreadable input
  2    usage error: bad option or argument
  126  the wrapped command cannot be executed
  127  the wrapped command was not found
  128+N  the wrapped command died of signal N, or signal N (INT, TERM, HUP) stopped
         reading stdin: what was read is still clipped and printed
  141  the reader closed the output pipe early"""
