"""JS regular expressions (no flags) run with Python's ``re`` on unit strings.

Without the ``u`` flag a JS regex works on UTF-16 units, like ``re`` on a unit string, and
V8 follows the web-compatibility grammar (ECMAScript Annex B). What differs from ``re`` is
translated here:

- ``.`` stops at LF, CR, U+2028 and U+2029; ``$`` is the end of the input only;
- ``\\d \\w \\b`` are ASCII; ``\\s`` is the ECMAScript white-space set;
- an escape that means nothing is the character itself (``\\p`` is "p", ``\\a`` "a");
  ``\\cJ`` is a control character; ``\\x`` and ``\\u`` without their hex digits are "x"
  and "u"; ``\\0``, and ``\\1`` beyond the group count, are legacy octal escapes;
- ``[^]`` is any unit and ``[]`` nothing; in a class ``\\b`` is a backspace, and a ``-``
  next to a class escape (``[\\w-a]``) is a plain hyphen;
- a ``{`` that does not open a quantifier (``a{,3}``, ``{x}``) is a plain brace;
- named groups ``(?<n>...)`` and ``\\k<n>``; a backreference to a group that did not take
  part, is still open or comes later matches the empty string;
- what JS refuses (``(?i)``, ``(?P<n>``, ``a*+``, a range out of order) is a SyntaxError.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import W_CHARS

_WORD = "A-Za-z0-9_"
_WORD_LOOK = f"[{_WORD}]"
_BOUNDARY = f"(?:(?<={_WORD_LOOK})(?!{_WORD_LOOK})|(?<!{_WORD_LOOK})(?={_WORD_LOOK}))"
_NON_BOUNDARY = f"(?:(?<={_WORD_LOOK})(?={_WORD_LOOK})|(?<!{_WORD_LOOK})(?!{_WORD_LOOK}))"
_LINE_TERMINATORS = "\n\r\u2028\u2029"
_HEX = "0123456789abcdefABCDEF"
_QUANTIFIER_RE = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")


def _u(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _ranges(codes: set[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for code in sorted(codes):
        if out and out[-1][1] == code - 1:
            out[-1] = (out[-1][0], code)
        else:
            out.append((code, code))
    return out


def _class_body(ranges: list[tuple[int, int]]) -> str:
    return "".join(_u(a) if a == b else f"{_u(a)}-{_u(b)}" for a, b in ranges)


def _complement(codes: set[int]) -> str:
    out, start = [], 0
    for a, b in _ranges(codes):
        if start < a:
            out.append((start, a - 1))
        start = b + 1
    if start <= 0xFFFF:
        out.append((start, 0xFFFF))
    return _class_body(out)


_DIGITS = set(range(0x30, 0x3A))
_WORDS = _DIGITS | set(range(0x41, 0x5B)) | set(range(0x61, 0x7B)) | {0x5F}
_SPACES = {ord(c) for c in W_CHARS}
# class bodies (no brackets) of the six class escapes
_CLASS_SETS = {
    "d": _class_body(_ranges(_DIGITS)),
    "D": _complement(_DIGITS),
    "w": _class_body(_ranges(_WORDS)),
    "W": _complement(_WORDS),
    "s": _class_body(_ranges(_SPACES)),
    "S": _complement(_SPACES),
}


class _Syntax(Exception):
    pass


#: one atom of a class body: ("char", code point) | ("set", a class's body) | ("dash", None)
_ClassAtom = tuple[str, Any]


def _class_atom_text(kind: str, value: Any) -> str:
    return value if kind == "set" else _u(value)


def _written_class(atoms: list[_ClassAtom]) -> list[str]:
    """A class's atoms written for Python's ``re``: ranges checked in order, and a class
    escape beside "-" read as Annex B reads it (the "-" a plain hyphen)."""
    body: list[str] = []
    k = 0
    while k < len(atoms):
        kind, value = atoms[k]
        ranged = (
            kind != "dash"
            and k + 2 < len(atoms)
            and atoms[k + 1][0] == "dash"
            and atoms[k + 2][0] != "dash"
        )
        if not ranged:
            body.append(r"\-" if kind == "dash" else _class_atom_text(kind, value))
            k += 1
            continue
        other_kind, other = atoms[k + 2]
        if kind == "char" and other_kind == "char":
            if other < value:
                raise _Syntax("Range out of order in character class")
            body.append(f"{_u(value)}-{_u(other)}")
        else:
            body += [_class_atom_text(kind, value), r"\-", _class_atom_text(other_kind, other)]
        k += 3
    return body


class _Translator:
    def __init__(self, source: str):
        self.src = source
        self.groups, self.names = self._scan_groups()
        self.out: list[str] = []
        self.atom = False  # whether a quantifier may follow what was emitted last
        self.open: list[int] = []  # group numbers still open (0: not capturing, -1: look-behind)
        self.count = 0  # groups opened so far
        self.name_numbers: dict[str, int] = {}

    def _scan_groups(self) -> tuple[int, list[str]]:
        """The number of capturing groups, and the group names, of the whole pattern."""
        count, names, i, in_class, src = 0, [], 0, False, self.src
        while i < len(src):
            ch = src[i]
            if ch == "\\":
                i += 2
                continue
            if in_class:
                in_class = ch != "]"
            elif ch == "[":
                in_class = True
            elif ch == "(":
                if src.startswith("(?<", i) and src[i + 3 : i + 4] not in ("=", "!"):
                    end = src.find(">", i)
                    names.append(src[i + 3 : end] if end > 0 else "")
                    count += 1
                elif not src.startswith("(?", i):
                    count += 1
            i += 1
        return count, names

    def emit(self, text: str, atom: bool) -> None:
        self.out.append(text)
        self.atom = atom

    # ---- outside classes -------------------------------------------------------------

    def run(self) -> str:
        src, i = self.src, 0
        while i < len(src):
            ch = src[i]
            if ch == "\\":
                i = self._escape(i + 1)
            elif ch == "[":
                i = self._class(i + 1)
            elif ch == "(":
                i = self._group(i)
            elif ch == ")":
                if not self.open:
                    raise _Syntax("Unmatched ')'")
                self.emit(")", atom=self.open.pop() != -1)  # Annex B: look-aheads repeat
                i += 1
            elif ch == "|":
                self.emit("|", atom=False)
                i += 1
            elif ch == ".":
                self.emit(f"[^{_LINE_TERMINATORS}]", atom=True)
                i += 1
            elif ch == "$":
                self.emit(r"\Z", atom=False)
                i += 1
            elif ch == "^":
                self.emit(r"\A", atom=False)
                i += 1
            elif ch in "*+?{":
                i = self._quantifier(i)
            else:
                self.emit(re.escape(ch), atom=True)
                i += 1
        if self.open:
            raise _Syntax("Unterminated group")
        return "".join(self.out)

    def _quantifier(self, i: int) -> int:
        src = self.src
        if src[i] == "{":
            match = _QUANTIFIER_RE.match(src, i)
            if match is None:  # Annex B: a brace that opens no quantifier is a brace
                self.emit(r"\{", atom=True)
                return i + 1
            low, _, high = match.group()[1:-1].partition(",")
            if high and int(high) < int(low):
                raise _Syntax("numbers out of order in {} quantifier")
            end = match.end()
        else:
            end = i + 1
        if not self.atom:
            raise _Syntax("Nothing to repeat")
        if end < len(src) and src[end] == "?":
            end += 1
        self.emit(src[i:end], atom=False)  # a second quantifier is "Nothing to repeat"
        return end

    def _group(self, i: int) -> int:
        src = self.src
        if not src.startswith("(?", i):
            self.count += 1
            self.open.append(self.count)
            self.emit("(", atom=False)
            return i + 1
        for head in ("(?:", "(?=", "(?!", "(?<=", "(?<!"):
            if src.startswith(head, i):
                self.open.append(-1 if head.startswith("(?<") else 0)
                self.emit(head, atom=False)
                return i + len(head)
        if src.startswith("(?<", i):
            end = src.find(">", i)
            name = src[i + 3 : end] if end > 0 else ""
            if not re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", name):
                raise _Syntax("Invalid capture group name")
            if name in self.name_numbers:
                raise _Syntax("Duplicate capture group name")
            self.count += 1
            self.name_numbers[name] = self.count
            self.open.append(self.count)
            self.emit("(", atom=False)  # numbered like any group: \\k<name> becomes \\N
            return end + 1
        raise _Syntax("Invalid group")

    def _backreference(self, number: int) -> str:
        if number in self.open or number > self.count:
            return "(?:)"  # JS: an open or later group has captured nothing yet
        return f"(?({number})\\{number})"  # JS: a group that did not take part matches ""

    def _escape(self, i: int) -> int:
        """The escape whose letter is at ``i``; the index after it."""
        src = self.src
        if i >= len(src):
            raise _Syntax("\\ at end of pattern")
        ch = src[i]
        if ch in "dDwWsS":
            self.emit(f"[{_CLASS_SETS[ch]}]", atom=True)
            return i + 1
        if ch in "bB":
            self.emit(_BOUNDARY if ch == "b" else _NON_BOUNDARY, atom=False)
            return i + 1
        if ch in "1234567890":
            number = re.match(r"[0-9]+", src[i:]).group()  # type: ignore[union-attr]
            if ch != "0" and int(number) <= self.groups:
                self.emit(self._backreference(int(number)), atom=True)
                return i + len(number)
            code, end = self._legacy(i)
            self.emit(_u(code), atom=True)
            return end
        if ch == "k" and self.names:
            match = re.match(r"k<([^>]*)>", src[i:])
            if match is None or match.group(1) not in self.names:
                raise _Syntax("Invalid named reference")
            name = match.group(1)
            number = self.name_numbers.get(name, self.count + 1)
            self.emit(self._backreference(number), atom=True)
            return i + match.end()
        escaped, end = self._character_escape(i, in_class=False)
        if escaped is None:  # "\c" not followed by a letter: a backslash, then "c" as itself
            self.emit(r"\\", atom=True)
            return i
        self.emit(_u(escaped), atom=True)
        return end

    def _legacy(self, i: int) -> tuple[int, int]:
        """Annex B: ``\\0`` to ``\\377`` are octal escapes, ``\\8`` and ``\\9`` themselves."""
        src = self.src
        if src[i] in "89":
            return ord(src[i]), i + 1
        end, value = i, 0
        while end < len(src) and src[end] in "01234567" and value * 8 + int(src[end]) <= 0o377:
            value = value * 8 + int(src[end])
            end += 1
            if end - i == 3:
                break
        return value, end

    def _character_escape(self, i: int, in_class: bool) -> tuple[int | None, int]:
        src, ch = self.src, self.src[i]
        simple = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
        if ch in simple:
            return simple[ch], i + 1
        if ch == "c":
            nxt = src[i + 1 : i + 2]
            if nxt and ((nxt.isascii() and nxt.isalpha()) or (in_class and nxt in "0123456789_")):
                return ord(nxt) % 32, i + 2
            return None, i
        if ch == "x" and len(src) >= i + 3 and all(c in _HEX for c in src[i + 1 : i + 3]):
            return int(src[i + 1 : i + 3], 16), i + 3
        if ch == "u" and len(src) >= i + 5 and all(c in _HEX for c in src[i + 1 : i + 5]):
            return int(src[i + 1 : i + 5], 16), i + 5
        return ord(ch), i + 1  # an identity escape: the character itself

    # ---- classes ---------------------------------------------------------------------

    def _class(self, i: int) -> int:
        """The class whose body starts at ``i``; the index after its ``]``."""
        negated = self.src[i : i + 1] == "^"
        atoms, i = self._class_atoms(i + 1 if negated else i)
        body = _written_class(atoms)
        if not body:
            self.emit(r"[\s\S]" if negated else "(?!)", atom=True)
        else:
            self.emit(("[^" if negated else "[") + "".join(body) + "]", atom=True)
        return i

    def _class_atoms(self, i: int) -> tuple[list[_ClassAtom], int]:
        """The atoms of a class body from ``i`` to its ``]``; the index after it."""
        src = self.src
        atoms: list[_ClassAtom] = []
        while True:
            if i >= len(src):
                raise _Syntax("Unterminated character class")
            ch = src[i]
            if ch == "]":
                return atoms, i + 1
            if ch == "\\":
                atom, i = self._class_escape(i)
            else:
                atom, i = (("dash", None) if ch == "-" else ("char", ord(ch))), i + 1
            atoms.append(atom)

    def _class_escape(self, i: int) -> tuple[_ClassAtom, int]:
        """The escape at ``i`` (its backslash) inside a class, and the index after it."""
        if i + 1 >= len(self.src):
            raise _Syntax("\\ at end of pattern")
        nxt = self.src[i + 1]
        if nxt in "dDwWsS":
            return ("set", _CLASS_SETS[nxt]), i + 2
        if nxt == "b":
            return ("char", 8), i + 2
        if nxt in "0123456789":
            code, end = self._legacy(i + 1)
            return ("char", code), end
        escaped, end = self._character_escape(i + 1, in_class=True)
        if escaped is None:  # "\c" + other: a backslash; "c" is read next
            return ("char", ord("\\")), i + 1
        return ("char", escaped), end


def translate(source: str) -> str:
    """The Python pattern that matches what the JS pattern ``source`` matches; raises
    ``ChunkerError("SyntaxError")`` where ``new RegExp(source)`` throws."""
    try:
        return _Translator(source).run()
    except _Syntax as error:
        raise ChunkerError(
            "SyntaxError", f"Invalid regular expression: /{source}/: {error}"
        ) from None


@lru_cache(maxsize=256)
def compile_js(source: str) -> re.Pattern[str]:
    pattern = translate(source)
    try:
        return re.compile(pattern)
    except re.error as error:
        if "look-behind" in str(error):  # JS look-behinds may vary in width; regex's too
            import regex

            return regex.compile(pattern, regex.VERSION0)  # type: ignore[return-value]
        raise ChunkerError(
            "SyntaxError", f"Invalid regular expression: /{source}/: {error.msg}"
        ) from None


_IDENTITY_ESCAPES = "^$\\.*+?()[]{}|/-"


def literal_start(source: str) -> str:
    """Units every match of the JS pattern ``source`` starts with ("" when unsure): its
    leading literal characters, the last one dropped when a quantifier may leave it out."""
    if "|" in source:  # an alternative need not start the same way
        return ""
    literal: list[str] = []
    i = 0
    while i < len(source):
        ch = source[i]
        if ch == "\\" and source[i + 1 : i + 2] and source[i + 1] in _IDENTITY_ESCAPES:
            literal.append(source[i + 1])
            i += 2
            continue
        if ch == "{" and (bounds := _QUANTIFIER_RE.match(source, i)) and bounds[0][1] != "0":
            break  # {n} or {n,m} with n > 0: the unit before is there at least once
        if ch in "*?{":  # the unit before may be absent
            literal = literal[:-1]
            break
        if ch in "^$\\.+()[]":  # "+" repeats the unit before: it is there once
            break
        literal.append(ch)
        i += 1
    return "".join(literal)


@lru_cache(maxsize=64)
def screens(sources: tuple[str, ...]) -> tuple[tuple[re.Pattern[str] | None, int], ...]:
    """For each index i, ``(screen, end)``: a pattern that matches wherever one of
    ``sources[i:end]`` (JS patterns, two or more) could match, or ``(None, i + 1)``.

    Consecutive patterns whose matches all start with 3 or more known units, the first
    one shared (markdown's ``\\n\\*\\*\\*+\\n``, ``\\n---+\\n``, ``\\n___+\\n``), are
    screened together: the shared unit, then at each next offset the class of the units
    they have there. A text the screen does not match holds none of them; one scan
    tells, where searching each would scan the text once per pattern.
    """
    starts = [literal_start(source) for source in sources]
    out: list[tuple[re.Pattern[str] | None, int]] = []
    for i, start in enumerate(starts):
        end = i
        while end < len(starts) and len(starts[end]) >= 3 and starts[end][0] == start[:1]:
            end += 1
        if end - i < 2:
            out.append((None, i + 1))
            continue
        group = starts[i:end]
        width = min(4, *map(len, group))
        classes = [
            "[" + "".join(re.escape(u) for u in sorted({s[k] for s in group})) + "]"
            for k in range(1, width)
        ]
        out.append((re.compile(re.escape(start[0]) + "".join(classes)), end))
    return tuple(out)


def literal_of(source: str) -> str | None:
    """The units every match of the JS pattern ``source`` is, when the pattern is a plain
    string (characters and escaped punctuation, as ``escape`` makes of a literal
    separator); None for any other pattern."""
    literal: list[str] = []
    i = 0
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            escaped = source[i + 1 : i + 2]
            if not escaped or escaped not in _IDENTITY_ESCAPES:
                return None  # a class (\d), a control (\n), a back-reference...
            literal.append(escaped)
            i += 2
            continue
        if ch in "^$.*+?()[]{}|":
            return None
        literal.append(ch)
        i += 1
    return "".join(literal)


@lru_cache(maxsize=256)
def escape(text: str) -> str:
    """Mastra's escape of a literal separator: a backslash before . * + ? ^ $ { } ( ) | [ ] \\"""
    return re.sub(r"([.*+?^${}()|\[\]\\])", r"\\\1", text)


@lru_cache(maxsize=256)
def _never_empty(pattern: re.Pattern[str]) -> bool:
    """True when the pattern cannot match the empty string anywhere."""
    try:
        from re import _parser  # type: ignore[attr-defined]
    except ImportError:  # Python 3.10
        import sre_parse as _parser  # type: ignore[no-redef]
    try:
        return _parser.parse(pattern.pattern, pattern.flags).getwidth()[0] > 0
    except Exception:
        return False


def js_split(pattern: re.Pattern[str], text: str) -> list[str | None]:
    """``text.split(regex)`` with JS semantics: captures are inserted (None where a group
    took no part: JS's undefined); an empty match at the previous split's end is skipped;
    an empty text gives [] or [text]."""
    if not text:
        return [] if pattern.match(text) else [text]
    if _never_empty(pattern):  # then JS and Python split alike, and re.split runs in C
        return pattern.split(text)
    parts: list[str | None] = []
    last = 0
    for match in _split_matches(pattern, text):
        parts.append(text[last : match.start()])
        parts.extend(match.groups())
        last = match.end()
    parts.append(text[last:])
    return parts


def js_split_at(pattern: re.Pattern[str], text: str) -> tuple[list[str | None], list[int]]:
    """``js_split(pattern, text)``, and where each part starts in ``text`` (-1 for an
    undefined capture)."""
    if not text:
        return ([], []) if pattern.match(text) else ([text], [0])
    parts: list[str | None] = []
    starts: list[int] = []
    last = 0
    groups = range(1, pattern.groups + 1)
    for match in _split_matches(pattern, text):
        parts.append(text[last : match.start()])
        starts.append(last)
        parts.extend(match.groups())
        starts.extend(map(match.start, groups))  # -1 where a group took no part
        last = match.end()
    parts.append(text[last:])
    starts.append(last)
    return parts, starts


def _split_matches(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches JS's ``split`` cuts a non-empty ``text`` at: left to right, none at
    the very end, an empty one where the last cut ended skipped."""
    last = search_from = 0
    while search_from < len(text):
        match = pattern.search(text, search_from)
        if match is None or match.start() >= len(text):
            break  # JS tries no match at the very end
        if match.end() == last:  # an empty match where the last piece ended
            search_from = match.start() + 1
            continue
        yield match
        last = search_from = match.end()
