"""What the Python checkers share: one "ok: WHAT" or "FAIL: WHAT: DETAIL"
line per check, read by run_checker in tests/lib.sh, and the exit status."""

failed = 0


def check(what, ok, detail=""):
    global failed
    if ok:
        print("ok: " + what)
    else:
        failed += 1
        print("FAIL: %s%s" % (what, ": " + detail if detail else ""))


def status():
    return 1 if failed else 0
