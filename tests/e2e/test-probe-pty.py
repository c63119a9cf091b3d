#!/usr/bin/env python3
"""Issue 14 item 10, the terminal self-check: tchess review runs on a
pseudo-terminal this script plays the terminal of, answering (or not) the
cursor position report tchess asks for after writing a chess glyph:

1. the glyph took one column (the report says column 2): glyphs drawn;
2. it took two (column 3), as on a terminal that draws them wide: the
   board is drawn in letters;
3. no answer: the screen still comes up (the check waits 250 ms at most)
   and keeps the locale's choice, glyphs;
4. TCHESS_NO_PROBE=1: no question asked at all.

Each run waits for the board's info line ("ply 0/") with a deadline; no
sleeps decide anything. TAP-style output; exit 1 on a failure."""
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import tempfile
import termios
import time

TCHESS = os.environ["TCHESS"]
PGN = os.path.join(os.environ["TCHESS_TEST_DATA"], "review", "annotated.pgn")
CPR = b"\x1b[6n"
failures = 0


def ok(cond, name, detail=""):
    global failures
    print(("ok - " if cond else "not ok - ") + name + ("" if cond else ": " + detail))
    if not cond:
        failures += 1


def run(answer_col, extra_env=None):
    """Runs tchess review on a pty; answer_col: the column to report, or
    None for no answer. Returns (output before the question, output after
    it, whether the question came, whether the board appeared)."""
    home = tempfile.mkdtemp(prefix="tchess-probe.")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8",
           "TERM": "xterm-256color", "XDG_CONFIG_HOME": "/nonexistent",
           "TCHESS_THEME_DIR": os.environ.get("TCHESS_THEME_DIR", "")}
    env.update(extra_env or {})
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.execve(TCHESS, [TCHESS, "review", PGN], env)
    out = b""
    asked = appeared = False
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.5)
        if fd not in r:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
        if not asked and CPR in out:
            asked = True
            if answer_col is not None:
                os.write(fd, b"\x1b[24;%dR" % answer_col)
        if b"ply 0/" in out:
            appeared = True
            break
    os.write(fd, b"q")
    end = time.monotonic() + 10
    while time.monotonic() < end:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        r, _, _ = select.select([fd], [], [], 0.2)
        if fd in r:
            try:
                os.read(fd, 65536)
            except OSError:
                pass
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)
    before, _, after = out.partition(CPR)
    return before, after, asked, appeared


GLYPHS = [chr(c).encode() for c in range(0x2654, 0x2660)]


def has_glyph(b):
    return any(g in b for g in GLYPHS)


before, after, asked, appeared = run(2)
ok(asked, "tchess asks where the cursor is after writing a glyph")
ok(before.endswith("\u265a".encode()), "the glyph written is the black king, just before the question",
   repr(before[-20:]))
ok(appeared and has_glyph(after), "one column: the board is drawn in glyphs")

before, after, asked, appeared = run(3)
ok(asked and appeared, "two columns: the board comes up")
ok(not has_glyph(after) and b"K" in after and b"k" in after,
   "two columns: the board is drawn in letters (K and k), no glyph")

before, after, asked, appeared = run(None)
ok(asked and appeared, "no answer: the board comes up anyway")
ok(has_glyph(after), "no answer: the locale's choice, glyphs")

before, after, asked, appeared = run(3, {"TCHESS_NO_PROBE": "1"})
ok(not asked and appeared, "TCHESS_NO_PROBE=1: no question, the board comes up")

if failures:
    print("%d failure(s)" % failures)
    sys.exit(1)
print("probe: one column, two columns, no answer, no probe")
