"""V8's JSON.parse messages, as mastra's json strategy throws them."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest

from chunkview.core.chunkers.mastra.json_values import js_parse
from chunkview.core.errors import ChunkerError
from chunkview.core.text.json_errors import v8_json_error, v8_json_refusal

# Each message as node 20.20.2 printed it for the text.
SEEN_IN_NODE = [
    ("", "Unexpected end of JSON input"),
    ("\t\n", "Unexpected end of JSON input"),
    ("{", "Expected property name or '}' in JSON at position 1"),
    ('{"a":}', 'Unexpected token \'}\', "{"a":}" is not valid JSON'),
    ('{"a" 1}', "Expected ':' after property name in JSON at position 5"),
    ('{"a" :1 , "b" 2}', "Unexpected number in JSON at position 14"),
    ('{"a":1,}', "Expected double-quoted property name in JSON at position 7"),
    ('{"a":1 "b"}', "Expected ',' or '}' after property value in JSON at position 7"),
    ("[1 2]", "Expected ',' or ']' after array element in JSON at position 3"),
    ("[1", "Expected ',' or ']' after array element in JSON at position 2"),
    ("[1,", "Unexpected end of JSON input"),
    ("tru", "Unexpected end of JSON input"),
    ("t1", "Unexpected number in JSON at position 1"),
    ('[t"]', "Unexpected string in JSON at position 2"),
    ("01", "Unexpected number in JSON at position 1"),
    ("[-01]", "Unexpected number in JSON at position 3"),
    ("-", "No number after minus sign in JSON at position 1"),
    ("1.", "Unterminated fractional number in JSON at position 2"),
    ("[1e+]", "Exponent part is missing a number in JSON at position 4"),
    ('"abc', "Unterminated string in JSON at position 4"),
    ('"a\u0001"', "Bad control character in string literal in JSON at position 2"),
    ('"\\x"', "Bad escaped character in JSON at position 2"),
    ('"\\u12"', "Bad Unicode escape in JSON at position 5"),
    ('"\\', "Unexpected end of JSON input"),
    ("1 2", "Unexpected non-whitespace character after JSON at position 2"),
    ("NaN", '"NaN" is not valid JSON'),
    ("Infinity ", "Unexpected token 'I', \"Infinity \" is not valid JSON"),
    ("x" * 20, f"Unexpected token 'x', \"{'x' * 20}\" is not valid JSON"),
    ("x" * 21, "Unexpected token 'x', \"xxxxxxxxxx\"... is not valid JSON"),
    (
        "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,x]",
        "Unexpected token 'x', ...\",18,19,20,x]\" is not valid JSON",
    ),
    (
        '[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,{"a" 1}]',
        "Expected ':' after property name in JSON at position 57",
    ),
    # positions and context count UTF-16 units; the token can be half a surrogate pair
    ('"😀"x', "Unexpected non-whitespace character after JSON at position 4"),
    ("[😀", "Unexpected token '\ud83d', \"[😀\" is not valid JSON"),
]


@pytest.mark.parametrize(("text", "message"), SEEN_IN_NODE)
def test_message_is_the_one_node_prints(text: str, message: str) -> None:
    assert v8_json_error(text) == message


def test_mastra_json_strategy_throws_v8s_message() -> None:
    with pytest.raises(ChunkerError) as raised:
        js_parse('{"title": "x",}')
    assert raised.value.name == "SyntaxError"
    assert raised.value.message == "Expected double-quoted property name in JSON at position 14"
    assert raised.value.position == 14  # the app's "Show where in the document" goes here


def test_position_counts_code_points_while_the_message_counts_units() -> None:
    refusal = v8_json_refusal('["😀😀", x]')
    assert refusal is not None
    assert refusal.message.startswith("Unexpected token 'x'")
    assert refusal.position == 7  # '["😀😀", ' is 7 code points, 9 UTF-16 units
    assert v8_json_error('["😀😀" 1]') == (
        "Expected ',' or ']' after array element in JSON at position 8"
    )


def test_accepted_text_has_no_message() -> None:
    assert v8_json_error('{"a": [1, -2.5e3, true, null, "\\u00e9"]}') is None


def _mutations(rng: random.Random, count: int) -> list[str]:
    seeds = ['{"a": [1, 2.5e-3, -0, true, false, null], "b": {"c": "d\\n", "10": 1}}', '"😀"']
    pieces = [*'{}[],:"\\-+.eE019 \t\n\x01abfnrtuxN😀\ud800', "true", "null", "\\u12"]
    texts = []
    for _ in range(count):
        text = rng.choice(seeds)
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(text) + 1)
            kind = rng.randrange(3)
            if kind == 0:
                text = text[:at] + rng.choice(pieces) + text[at:]
            elif kind == 1:
                text = text[:at] + text[at + 1 :]
            else:
                text = text[:at] if rng.random() < 0.5 else text[at:]
        texts.append(text)
    return texts


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to compare with")
def test_mutated_documents_match_node() -> None:
    texts = _mutations(random.Random(20261203), 3000)
    script = (
        "let s='';for await(const c of process.stdin)s+=c;"
        "process.stdout.write(JSON.stringify(JSON.parse(s).map(t=>{"
        "try{JSON.parse(t);return null}catch(e){return e.message}})))"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=True,
    )
    expected = json.loads(done.stdout)
    assert sum(m is not None for m in expected) > 2000  # mostly broken documents
    wrong = [
        (text, want, v8_json_error(text))
        for text, want in zip(texts, expected)
        if want is not None and v8_json_error(text) != want
    ]
    assert wrong == []
