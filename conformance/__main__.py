"""python -m conformance --seed N --cases 2000 [--entry E] [--json]"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from typing import Any

from chunkview.core.chunkers.mastra.entry import LENGTH_JS
from conformance import golden
from conformance.cases import Generator, documents
from conformance.compare import actual_of, equal, expected_of, signature
from conformance.exceptions import exception_for
from conformance.install import ensure_installed, node_available
from conformance.shrink import shrink
from conformance.sides import Sides

ENTRIES = [
    "mastra.chunk",
    "agentos.SemanticChunker",
    "agentos.ChunkingEngine",
    "semantic-chunking.chunkit",
    "semantic-chunking.cramit",
    "semantic-chunking.sentenceit",
]
WEIGHTS = {"mastra.chunk": 5, "agentos.ChunkingEngine": 2}
MASTRA_DEFAULT = {"markdown": "markdown", "html": "html", "json": "json"}


def row_of(case: dict) -> str:
    """The report row: the entry, and the strategy where the entry has several."""
    entry = case["entry"]
    if entry == "mastra.chunk":
        strategy = case["options"].get("strategy") or MASTRA_DEFAULT.get(
            case.get("doc", "text"), "recursive"
        )
        return f"{entry} {strategy}"
    if entry == "agentos.ChunkingEngine":
        return f"{entry} {case['options'].get('strategy')}"
    return entry


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m conformance", description=__doc__)
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0, help="first case number")
    parser.add_argument("--entry", action="append", choices=ENTRIES, help="only these entries")
    parser.add_argument("--timeout", type=float, default=5, help="JS time limit per case (s)")
    parser.add_argument("--recheck", type=float, default=60, help="JS limit when rechecking a Hang")
    parser.add_argument("--py-timeout", type=float, default=60, help="port time limit (s)")
    parser.add_argument(
        "--minutes", type=float, help="stop starting new cases after this long (then report)"
    )
    parser.add_argument("--shrink-budget", type=float, default=60, help="seconds per mismatch")
    parser.add_argument("--max-shrinks", type=int, default=20)
    parser.add_argument("--no-write", action="store_true", help="do not write golden cases")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.add_argument("--show", type=int, action="append", help="print case N, both sides")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="run the cases of a JSON list on node and add them as golden cases",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if not node_available():
        print("conformance: node and npm are needed (not found on PATH)", file=sys.stderr)
        return 2
    cache = ensure_installed(quiet=args.json)
    entries = args.entry or ENTRIES
    weighted = [e for e in entries for _ in range(WEIGHTS.get(e, 1))]
    generator = Generator(args.seed, documents(cache), weighted)
    sides = Sides(cache, args.timeout, args.py_timeout)
    started = time.monotonic()
    if args.record:
        return _record(args, sides)
    if args.show:
        return _show(args, generator, sides)
    try:
        rows, mismatches, exceptions = _run_cases(args, generator, sides, started)
        found = _shrink_all(args, sides, mismatches)
    finally:
        sides.close()
    written = 0 if args.no_write else golden.add(found)
    report = {
        "seed": args.seed,
        "cases": sum(row["cases"] for row in rows.values()),
        "seconds": round(time.monotonic() - started, 1),
        "rows": {name: _rounded(rows[name]) for name in sorted(rows)},
        "totals": _rounded(sum(rows.values(), Counter())),
        "mismatches": [
            {"case": m["n"], "row": m["row"], "shrunk": m.get("shrunk")} for m in mismatches
        ],
        "exceptions": exceptions,
        "golden_written": written,
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print_table(report)
    return 1 if mismatches else 0


def _outcome(args: argparse.Namespace, sides: Sides, case: dict) -> tuple[Any, Any]:
    """What node and the port make of a case; a JS hang the port does not share is run
    again with the longer limit (slow, or a real hang?)."""
    js, py = sides.run(case)
    if js.get("hang") and not py.get("hang") and not _is_hang_error(case, py):
        js = sides.run(case, js_timeout=args.recheck)[0]
        if js.get("hang"):
            case["_js_slow"] = True
    return expected_of(case["entry"], js), actual_of(case["entry"], py)


def _show(args: argparse.Namespace, generator: Generator, sides: Sides) -> int:
    """--show: the cases asked for, both sides, one JSON line each."""
    for n in args.show:
        case = generator.case(n)
        expected, actual = _outcome(args, sides, case)
        print(json.dumps({"case": case, "js": expected, "port": actual}, ensure_ascii=False))
    sides.close()
    return 0


def _run_cases(
    args: argparse.Namespace, generator: Generator, sides: Sides, started: float
) -> tuple[dict[str, Counter], list[dict[str, Any]], list[dict[str, Any]]]:
    """Runs the cases on both sides: the counts by report row, the mismatches, and the
    differences that are known exceptions."""
    rows: dict[str, Counter] = defaultdict(Counter)
    mismatches: list[dict[str, Any]] = []
    exceptions: list[dict[str, Any]] = []
    for n in range(args.start, args.start + args.cases):
        done = n - args.start
        if done and done % 250 == 0:
            print(f"... {done} cases", file=sys.stderr, flush=True)
        if args.minutes and time.monotonic() - started > args.minutes * 60:
            break
        case = generator.case(n)
        row = rows[row_of(case)]
        row["cases"] += 1
        began = time.monotonic()
        expected, actual = _outcome(args, sides, case)
        row["seconds"] += time.monotonic() - began  # type: ignore[assignment]  # floats count too
        if _is_js_hang(case["entry"], expected):
            row["hangs"] += 1
        if equal(case["entry"], expected, actual):
            row["equal"] += 1
            continue
        reason = exception_for(case, expected, actual)
        if reason:
            row["exceptions"] += 1
            exceptions.append({"case": n, "row": row_of(case), "exception": reason})
            continue
        row["mismatches"] += 1
        mismatches.append(
            {"n": n, "case": case, "expected": expected, "actual": actual, "row": row_of(case)}
        )
        if args.verbose:
            print(f"mismatch: case {n} {row_of(case)}", file=sys.stderr, flush=True)
    return rows, mismatches, exceptions


def _rounded(row: Counter) -> dict:
    return {k: round(v, 1) if isinstance(v, float) else v for k, v in row.items()}


def _record(args, sides: Sides) -> int:
    """Reproducers written by hand (issue texts): node's results become golden cases."""
    with open(args.record, encoding="utf-8") as handle:
        cases = json.load(handle)
    lines = []
    for i, case in enumerate(cases):
        case.setdefault("entry", "mastra.chunk")
        if case["entry"] == "mastra.chunk":
            case.setdefault("doc", "text")
            case["length_js"] = LENGTH_JS
        case.setdefault("source", f"{args.record} #{i}")
        js, py = sides.run(case)
        if "result" not in js and not js.get("hang"):
            print(f"skipped #{i}: node gave {js}", file=sys.stderr)
            continue
        expected = expected_of(case["entry"], js)
        same = equal(case["entry"], expected, actual_of(case["entry"], py))
        print(f"#{i}: {'equal' if same else 'MISMATCH'}")
        lines.append(golden.record(case, expected, f"conformance:{case.pop('name', i)}"))
    sides.close()
    print(f"{golden.add(lines)} new golden case(s) in {golden.GOLDEN}")
    return 0


def _is_js_hang(entry: str, expected: Any) -> bool:
    if not isinstance(expected, dict):
        return False
    error = expected.get("error")
    return error == "Hang" or (isinstance(error, dict) and error.get("name") == "Hang")


def _is_hang_error(case: dict, py: dict) -> bool:
    return _is_js_hang(case["entry"], actual_of(case["entry"], py))


def _shrink_all(args, sides: Sides, mismatches: list[dict]) -> list[dict]:
    lines = []
    for m in mismatches[: args.max_shrinks]:
        case = {k: v for k, v in m["case"].items() if not k.startswith("_")}
        wanted = signature(case["entry"], m["expected"], m["actual"])

        def still(candidate: dict, wanted=wanted) -> bool:
            js, py = sides.run(candidate)
            expected = expected_of(candidate["entry"], js)
            actual = actual_of(candidate["entry"], py)
            if equal(candidate["entry"], expected, actual) or js.get("hang"):
                return False
            return signature(candidate["entry"], expected, actual) == wanted

        small = shrink(case, still, budget_s=args.shrink_budget)
        js, py = sides.run(small)
        expected, actual = expected_of(small["entry"], js), actual_of(small["entry"], py)
        m["shrunk"] = {
            "input": small.get("input"),
            "options": small["options"],
            "doc": small.get("doc"),
            "js": _brief(expected),
            "port": _brief(actual),
        }
        if "crash" not in json.dumps(expected)[:20] and not js.get("hang"):
            lines.append(golden.record(small, expected, f"conformance:{small['source']}"))
    return lines


def _brief(value: Any) -> Any:
    text = json.dumps(value, ensure_ascii=False)
    return value if len(text) < 400 else text[:400] + "..."


def _print_table(report: dict) -> None:
    print(f"seed {report['seed']}, {report['cases']} cases, {report['seconds']} s")
    print(
        f"{'entry':40} {'cases':>6} {'equal':>6} {'mismatch':>8} {'hangs':>6} "
        f"{'except':>6} {'seconds':>8}"
    )
    for name, row in [*report["rows"].items(), ("total", report["totals"])]:
        print(
            f"{name:40} {row.get('cases', 0):6} {row.get('equal', 0):6} "
            f"{row.get('mismatches', 0):8} {row.get('hangs', 0):6} "
            f"{row.get('exceptions', 0):6} {row.get('seconds', 0):8.1f}"
        )
    for e in report["exceptions"]:
        print(f"exception: case {e['case']} ({e['row']}): {e['exception']}")
    for m in report["mismatches"]:
        print(f"\nmismatch: case {m['case']} ({m['row']})")
        if m.get("shrunk"):
            print(json.dumps(m["shrunk"], ensure_ascii=False))
    if report["golden_written"]:
        print(f"\n{report['golden_written']} new golden case(s) in {golden.GOLDEN}")


if __name__ == "__main__":
    sys.exit(main())
