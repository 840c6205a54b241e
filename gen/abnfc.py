#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""abnfc: compile a regular ABNF grammar (RFC 5234, RFC 7405) into a minimal DFA.

Outputs a standalone C header (byte-class table, pre-multiplied transition
table, shift-DFA rows, tag and error-kind tables), re2c definitions and a
re2c lexer, Graphviz dot, Mermaid and JSON. See gen/compiler.py for the
annotations a grammar may carry in its comments.
"""

import argparse
import errno
import os
import re
import signal
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import abnf  # noqa: E402
import compiler  # noqa: E402
import emit  # noqa: E402
import emit_engine  # noqa: E402
import emit_fast  # noqa: E402
import emit_shuffle  # noqa: E402
import emit_regex  # noqa: E402
import emit_simd  # noqa: E402
import limits  # noqa: E402

EMITTERS = ("c", "c-fast", "c-simd", "c-shuffle", "re2c", "re2c-lexer", "regex", "ragel", "dot", "mermaid", "json", "stats")


def write_atomic(path, text):
    """Write via a temporary file in the same folder, then rename: never a truncated file."""
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        # mkstemp makes the file 0600; an output file gets the usual 0666 & ~umask.
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write_fd(fd, data):
    """All of data to fd, unbuffered, so a failure shows here and not at exit."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_output(path, text):
    """Write text to -o PATH ('-': standard output).

    A new path or a regular file gets the temporary file and rename (no
    truncated file on failure); a symbolic link is followed, so the link stays
    and its target is replaced (with a temporary file beside the target).
    Anything else (a character device such as /dev/stdout or /dev/full, a
    fifo, a socket) is opened and written in place: renaming over it would
    replace the node itself. OSError propagates to the caller."""
    if path == "-":
        write_fd(sys.stdout.fileno() if sys.stdout else 1, text.encode("utf-8"))
        return
    try:
        st = os.stat(path)  # what the path names, through any links
    except FileNotFoundError:
        st = None  # (a dangling link: its target is created)
    if st is None or stat.S_ISREG(st.st_mode):
        write_atomic(os.path.realpath(path), text)
        return
    # Opened by the name given, not the resolved one: /dev/stdout resolves to
    # /proc/self/fd/1, and that to 'pipe:[...]' when it is a pipe.
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0))
    try:
        write_fd(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def tool_version():
    """The version the installed utfdfa-gen wrapper passes in UTFDFA_GEN_VERSION;
    run from the source tree, the one in include/utfdfa.h."""
    version = os.environ.get("UTFDFA_GEN_VERSION")
    if version:
        return version
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "include", "utfdfa.h")
    try:
        with open(header, encoding="utf-8") as f:
            for line in f:
                m = re.match(r'#define UTFDFA_VERSION "([^"]+)"', line)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog=os.environ.get("UTFDFA_GEN_PROG") or "abnfc",  # "utfdfa-gen" via the wrapper
        description="Compile a regular ABNF grammar into a minimal DFA and emit it as C, "
                    "re2c, a regex, ragel, dot, Mermaid or JSON.")
    ap.add_argument("grammar", nargs="+",
                    help="ABNF file (RFC 5234; RFC 7405 %%s/%%i strings); several files make "
                         "one grammar: each is parsed on its own, and an ABNF definition in "
                         "one may supply a rule another defines in prose")
    ap.add_argument("--start", help="rule to compile (default: @start, else the first rule)")
    ap.add_argument("--unit", help="unit rule of a decoder (default: @unit)")
    ap.add_argument("--tags", action="store_true", default=None,
                    help="tag unit completions with the alternative (default: @tags)")
    ap.add_argument("--terminals", choices=abnf.TERMINALS, default="octets",
                    help="what a num-val means: octets (default: bytes 0-255), or utf-8: a "
                         "value above 0xFF, or a range crossing 0x80, is Unicode code points "
                         "matched as their UTF-8 bytes (surrogates never match)")
    ap.add_argument("--emit", choices=EMITTERS, default="stats",
                    help="what to write (default: stats, a one-line summary)")
    ap.add_argument("--engine", choices=("auto", "scalar"), default="auto",
                    help="the bulk engine PREFIX_run() of --emit c: auto (default: the SIMD "
                         "engine the DFA fits, picked at run time, scalar elsewhere) or scalar "
                         "(portable C only, no intrinsics)")
    ap.add_argument("--prefix", help="C symbol prefix (default: the first grammar file's "
                                     "name); also "
                                     "PREFIX_ before every re2c definition name")
    ap.add_argument("--source", help="grammar path to name in the banner (default: as given)")
    ap.add_argument("--defs", help="file name the re2c lexer !includes "
                                   "(default: PREFIX.defs.re)")
    ap.add_argument("-o", "--output", help="output file (default: standard output)")
    ap.add_argument("--max-states", type=int, metavar="N", default=limits.DEFAULT_STATES,
                    help="stop when the NFA or a DFA passes N states (default: %(default)s; "
                         "0: no limit)")
    ap.add_argument("--max-memory", type=int, metavar="MB", default=limits.DEFAULT_MEMORY_MB,
                    help="stop when the generator uses more than MB megabytes "
                         "(default: %(default)s; 0: no limit)")
    ap.add_argument("--max-seconds", type=int, metavar="S", default=limits.DEFAULT_SECONDS,
                    help="stop when compiling takes longer than S seconds "
                         "(default: %(default)s; 0: no limit)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="also print notes: why a grammar gets no SIMD lookup tables "
                         "(--emit c-simd; the header says it too)")
    ap.add_argument("--version", action="version", version=f"utfdfa-gen {tool_version()}")
    args = ap.parse_args(argv)

    base = os.path.basename(args.grammar[0])
    prefix = args.prefix or os.path.splitext(base)[0]
    prefix = "".join(ch if ch.isalnum() else "_" for ch in prefix)
    if not prefix or prefix[0].isdigit():
        prefix = "g_" + prefix
    # re2c definitions are namespaced only when asked: without --prefix they keep
    # the rule names (UTF8_char), which installed lexers !include by name.
    defs_prefix = prefix if args.prefix else None
    source = args.source or ", ".join(args.grammar)
    for flag in ("max_states", "max_memory", "max_seconds"):
        if getattr(args, flag) < 0:
            ap.error(f"--{flag.replace('_', '-')} must be 0 (no limit) or more")
    budget = limits.Budget(args.max_states, args.max_memory, args.max_seconds)
    try:
        comp = compiler.compile_grammar(args.grammar, args.start, args.unit, args.tags,
                                        args.terminals, budget)
        if args.emit == "c":
            text = emit.emit_c(comp, source, prefix, args.engine == "scalar")
        elif args.emit == "c-fast":
            text = emit_fast.emit_c_fast(comp, source, prefix)
        elif args.emit == "c-simd":
            note = (lambda line: print(f"{ap.prog}: {line}", file=sys.stderr)) \
                if args.verbose else None
            text = emit_simd.emit_c_simd(comp, source, prefix, note)
        elif args.emit == "c-shuffle":
            text = emit_shuffle.emit_c_shuffle(comp, source, prefix)
        elif args.emit == "re2c":
            text = emit.emit_re2c_defs(comp, source, defs_prefix)
        elif args.emit == "re2c-lexer":
            text = emit.emit_re2c_lexer(comp, source, prefix, args.defs or f"{prefix}.defs.re",
                                        defs_prefix)
        elif args.emit == "regex":
            text = emit_regex.emit_regex(comp, source)
        elif args.emit == "ragel":
            text = emit_regex.emit_ragel(comp, source, prefix)
        elif args.emit == "dot":
            text = emit.emit_dot(comp, source)
        elif args.emit == "mermaid":
            text = emit.emit_mermaid(comp, source)
        elif args.emit == "json":
            text = emit.emit_json(comp, source)
        else:
            d, lang = comp.dfa, comp.language
            text = (f"{source}: start {comp.start}: language DFA {lang.nstates} states, "
                    f"{lang.nclasses} classes"
                    + (f"; unit {comp.unit}: decoder DFA {d.nstates} states, {d.nclasses} "
                       f"classes, {d.nerror_classes} error classes, "
                       f"{len(d.kind_names) - 1} error kinds" if comp.unit else "")
                    + f"; run engine: {emit_engine.describe(d, args.engine == 'scalar')}\n")
    except abnf.AbnfError as e:
        # A positioned error is FILE:LINE:COL: message, as compilers write it;
        # one about a whole file or an option is PROG: FILE: message.
        print(str(e) if e.line else f"{ap.prog}: {e}", file=sys.stderr)
        return 1
    except ValueError as e:  # a grammar the emitters cannot express
        print(f"{ap.prog}: {source}: {e}", file=sys.stderr)
        return 1
    except RecursionError:
        print(f"{ap.prog}: {source}: grammar nests too deeply", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"{ap.prog}: {source}: out of memory (the grammar is too big for this machine; "
              "--max-memory stops it earlier)", file=sys.stderr)
        return 1
    for line in comp.grammar.notes:  # what was read differently from the file as given
        print(line, file=sys.stderr)
    out = args.output or "-"
    try:
        write_output(out, text)
    except OSError as e:
        if out == "-" and e.errno == errno.EPIPE:
            return 1  # the reader went away (SIGPIPE is ignored): nothing to say
        where = "standard output" if out == "-" else out
        print(f"{ap.prog}: {where}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    # A closed pipe ends us quietly, as it does cat or grep (Python ignores SIGPIPE).
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
